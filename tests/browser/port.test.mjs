// The model part's precision and layout figures, live: their charts against tests/ref/ref_port.py
// (numpy) and tests/ref/ref_scaling_batch.py on a random preset and position each run, as the
// position slider and box move them; a bad position named; both in the iframe embed and in
// <rope-scope>.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { rng, seed } from '../lib/testlib.mjs';
import {
  assertShows,
  chartData,
  close,
  openPage,
  ROOT,
  readThrough,
  settle,
  text,
  useServerAndBrowser,
} from './harness.mjs';
import { blogHtml, openBlog } from './host.mjs';

const env = useServerAndBrowser();
const PYTHON = process.env.ROPE_NUMPY_PYTHON || '/usr/bin/python3';
const MODELS = readdirSync(join(ROOT, 'web/models'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => basename(f, '.json'));
// The model classes docs/SCALING.md pairs interleaved (2i, 2i + 1).
const INTERLEAVED_CLASSES = ['cohere', 'llama4', 'llama4_text', 'deepseek_v2', 'deepseek_v3', 'ernie4_5', 'glm'];
// The chart's error datasets in order (figures/precision.js), then θᵢ.
const CASES = ['f32', 'theta_bf16', 'theta_f16', 'bf16', 'f16'];

function python(exe, script, calls) {
  const run = spawnSync(exe, [join(ROOT, 'tests', 'ref', script)], {
    input: JSON.stringify(calls),
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    cwd: join(ROOT, 'tests', 'ref'),
  });
  if (run.status !== 0) throw new Error(`tests/ref/${script} failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** The chart of `name` (in the page, or in the element `host`), once drawn. */
async function drawn(page, name, host = null) {
  // On the page the figure is built as the reader nears it: read the page through first (an
  // embed builds every figure at once; there it changes nothing).
  if (!host) {
    await page.waitForFunction(() => performance.getEntriesByName('ropescope:first-chart').length > 0);
    await readThrough(page);
  }
  await page.waitForFunction(
    ([id, sel]) => {
      const root = sel ? document.querySelector(sel)?.shadowRoot : document;
      const Chart = sel ? customElements.get('rope-scope')?.Chart : window.Chart;
      const canvas = root?.getElementById(`chart-${id}`);
      canvas?.scrollIntoView();
      return Boolean(canvas && Chart?.getChart(canvas)?.data.datasets[0]?.data.length);
    },
    [name, host],
    { timeout: 60000 },
  );
  await settle(page);
  return chartData(page, name, host);
}

/** The precision chart against the reference at `pos`: errors (null where 0 or lost) and θᵢ. */
function checkPrecision(chart, pos, where) {
  const theta = chart.datasets[5].data;
  const [want] = python(PYTHON, 'ref_port.py', [{ kind: 'precision', theta, pos }]);
  assert.deepEqual(
    chart.labels,
    theta.map((_, i) => i),
    `${where}: one label per pair`,
  );
  CASES.forEach((name, j) => {
    chart.datasets[j].data.forEach((v, i) => {
      const w = want[name][i];
      if (w === null || w === 0) assert.equal(v, null, `${where} ${name} pair ${i}: no point for ${w}`);
      else assert.ok(close(v, w), `${where} ${name} pair ${i}: ${v} vs ${w}`);
    });
  });
  return want;
}

test('precision_figure_should_follow_its_position_and_match_the_reference', async () => {
  const next = rng(seed('port.test precision'));
  const name = MODELS[Math.floor(next() * MODELS.length)];
  const p = await openPage(env.browser, `${env.server.url}?preset=${name}`);
  const { page } = p;
  let chart = await drawn(page, 'precision');
  // θᵢ is the preset's scaled inv_freq, as the reference reads the config.
  const config = JSON.parse(await page.inputValue('#config'));
  // The page gives the dynamic and longrope methods its gap as the sequence length.
  const gap = await page.evaluate(() => window.ropescope.state['target-gap']);
  const [read] = python(PYTHON, 'ref_scaling_batch.py', [{ config, seq_len: gap }]);
  assert.equal(read.error, undefined, `${name}: the reference reads the config`);
  read.pairs.forEach((row, i) =>
    assert.ok(close(chart.datasets[5].data[i], row.inv_freq_scaled), `${name}: θ of pair ${i}`),
  );
  checkPrecision(chart, 8191, `${name} at 8191`);

  // A typed position applies on Enter; the chart, caption and label follow.
  const pos = 1 + Math.floor(10 ** (6 * next()));
  await page.fill('#precision-pos-num', String(pos));
  await page.press('#precision-pos-num', 'Enter');
  chart = await chartData(page, 'precision');
  const want = checkPrecision(chart, pos, `${name} at ${pos}`);
  const caption = await text(page, '#caption-precision');
  assertShows(caption, pos, '#caption-precision names the position');
  assertShows(caption, Math.max(...want.f32), '#caption-precision gives the worst float32 error');
  assert.match(await page.getAttribute('#chart-precision', 'aria-label'), new RegExp(`position ${pos}\\b`));
  if (pos > 65519) assert.match(caption, /float16 holds no number past 65504/);

  // The slider holds log10 of the position.
  const exponent = (6 * next()).toFixed(3);
  await page.fill('#precision-pos', exponent);
  const moved = Math.round(10 ** Number(exponent));
  assert.equal(await page.inputValue('#precision-pos-num'), String(moved), 'the box follows the slider');
  checkPrecision(await chartData(page, 'precision'), moved, `${name} slider at ${moved}`);

  // A bad position is named and changes nothing.
  const before = await chartData(page, 'precision');
  for (const bad of ['0', '2e6', '12.5', 'abc']) {
    await page.fill('#precision-pos-num', bad);
    await page.press('#precision-pos-num', 'Enter');
    assert.match(await text(page, '#precision-pos-msg'), /position must be a whole number from 1 to 1000000, got/);
    assert.equal(await page.getAttribute('#precision-pos-num', 'aria-invalid'), 'true');
    assert.deepEqual(await chartData(page, 'precision'), before, `${bad}: the chart keeps its data`);
  }
  await page.fill('#precision-pos-num', '8191');
  await page.press('#precision-pos-num', 'Enter');
  assert.equal(await text(page, '#precision-pos-msg'), '', 'a good value clears the message');
  await p.assertClean();
  await p.close();
});

test('layout_figure_should_match_the_reference_and_be_flat_only_when_the_layouts_agree', async () => {
  const next = rng(seed('port.test layout'));
  const name = MODELS[Math.floor(next() * MODELS.length)];
  const gap = 1 + Math.floor(10 ** (5 * next()));
  const p = await openPage(env.browser, `${env.server.url}?preset=${name}&target-gap=${gap}`);
  const { page } = p;
  const theta = (await drawn(page, 'precision')).datasets[5].data;
  const chart = await drawn(page, 'layout');
  // The weights' layout, by docs/SCALING.md's rule: rope_interleave when given, else the class's.
  const config = JSON.parse(await page.inputValue('#config'));
  const interleaved = config.rope_interleave ?? INTERLEAVED_CLASSES.includes(config.model_type);
  const layout = interleaved ? 'interleaved' : 'rotate_half';
  assert.match(await text(page, '#caption-layout'), new RegExp(` pairs ${layout} `), `${name}: the layout named`);
  const [demo] = python(PYTHON, 'ref_port.py', [{ kind: 'demo', d: 2 * theta.length }]);
  const count = chart.datasets[0].data.length;
  const [want] = python(PYTHON, 'ref_port.py', [
    { kind: 'layout', ...demo, theta, layout, gap, start0: 0, step: 1, count },
  ]);
  ['same', 'swapped', 'table'].forEach((key, j) => {
    chart.datasets[j].data.forEach(({ x, y }, s) => {
      assert.equal(x, s, `${key}: start ${s}`);
      assert.ok(close(y, want[key][s], 1e-8), `${name} gap ${gap} ${key} start ${s}: ${y} vs ${want[key][s]}`);
    });
  });
  const spread = (ys) => Math.max(...ys) - Math.min(...ys);
  assert.ok(spread(want.same) < 1e-8 && spread(want.swapped) < 1e-8, 'one layout for table and rotation is flat');
  assert.ok(spread(want.table) > 1e-3, 'a table and a rotation of different layouts are not');
  assertShows(await text(page, '#caption-layout'), want.same[0], '#caption-layout gives the flat score');
  // The table: rotate_half pairs i with i + 4, interleaved 2i with 2i + 1 (d = 8).
  const rows = await page.$$eval('#fig-layout table.pairs tr', (trs) =>
    trs.slice(1).map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.textContent))),
  );
  assert.deepEqual(rows, [
    [0, 1, 2, 3, 0, 1, 2, 3],
    [0, 0, 1, 1, 2, 2, 3, 3],
  ]);
  await p.assertClean();
  await p.close();
});

test('both_figures_should_work_in_the_iframe_embed_and_the_element', async () => {
  for (const view of ['precision', 'layout']) {
    const p = await openPage(env.browser, `${env.server.url}?embed=1&view=${view}`, {
      viewport: { width: 700, height: 900 },
    });
    const { page } = p;
    await drawn(page, view);
    assert.deepEqual(
      await page.$$eval('figure.fig', (figs) => figs.filter((f) => f.checkVisibility()).map((f) => f.id)),
      [`fig-${view}`],
      `?embed=1&view=${view} shows that figure alone`,
    );
    if (view === 'precision') {
      await page.fill('#precision-pos-num', '131071');
      await page.press('#precision-pos-num', 'Enter');
      checkPrecision(await chartData(page, view), 131071, 'embed at 131071');
    }
    await p.assertClean();
    await p.close();
  }
  const html = blogHtml(
    '<rope-scope id="a" view="precision" preset="deepseek-v3"></rope-scope>' +
      '<rope-scope id="b" view="layout" preset="deepseek-v3"></rope-scope>' +
      '<script src="/ropescope-embed.js"></script>',
  );
  const p = await openBlog(env.browser, html);
  const { page } = p;
  checkPrecision(await drawn(page, 'precision', '#a'), 8191, 'element at 8191');
  await page.evaluate(() => {
    const box = document.querySelector('#a').shadowRoot.getElementById('precision-pos-num');
    box.value = '65520';
    box.dispatchEvent(new Event('change'));
  });
  checkPrecision(await chartData(page, 'precision', '#a'), 65520, 'element at 65520');
  const caption = await page.evaluate(
    () => document.querySelector('#a').shadowRoot.querySelector('figcaption').textContent,
  );
  assert.match(caption, /position 65520/, 'the element’s caption follows its slider');
  const layout = await drawn(page, 'layout', '#b');
  assert.equal(layout.datasets.length, 3, 'the element draws the layout figure');
  assert.match(
    await page.evaluate(() => document.querySelector('#b').shadowRoot.querySelector('figcaption').textContent),
    /deepseek-v3 pairs interleaved/,
  );
  await p.assertClean();
  await p.close();
});
