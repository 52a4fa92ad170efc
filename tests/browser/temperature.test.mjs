// The query-scale figure (attention temperature tuning), live: its curve, its marked point and its
// caption against the formula written out here from docs/SCALING.md, 1 + β·ln(1 + ⌊(p + offset) /
// L0⌋) (Llama 4 counts from p + 1, Ministral 3 from p), at random β, L0 and position typed into
// its boxes each run; a bad value named and refused with the chart kept; in the page and in
// <rope-scope>.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rng, seed } from '../lib/testlib.mjs';
import {
  assertShows,
  chartData,
  close,
  openPage,
  readThrough,
  settle,
  text,
  typeInto,
  useServerAndBrowser,
} from './harness.mjs';
import { blogHtml, openBlog } from './host.mjs';

const env = useServerAndBrowser();
const scale = (beta, l0, offset, p) => 1 + beta * Math.log(1 + Math.floor((p + offset) / l0));

/** The chart and caption of the figure (in the page, or in the element `host`), once drawn. */
async function drawn(page, host = null) {
  // On the page the figure is built as the reader nears it: read the page through first.
  if (!host) {
    await page.waitForFunction(() => performance.getEntriesByName('ropescope:first-chart').length > 0);
    await readThrough(page);
  }
  await page.waitForFunction(
    (sel) => {
      const root = sel ? document.querySelector(sel)?.shadowRoot : document;
      const Chart = sel ? customElements.get('rope-scope')?.Chart : window.Chart;
      const canvas = root?.getElementById('chart-temperature');
      canvas?.scrollIntoView();
      return Boolean(canvas && Chart?.getChart(canvas)?.data.datasets[0]?.data.length);
    },
    host,
    { timeout: 60000 },
  );
  await settle(page);
  const caption = host
    ? await page.evaluate(
        (sel) => document.querySelector(sel).shadowRoot.getElementById('caption-temperature').textContent,
        host,
      )
    : await text(page, '#caption-temperature');
  return { chart: await chartData(page, 'temperature', host), caption };
}

function check({ chart, caption }, { beta, l0, at }, where) {
  const [curve, point] = chart.datasets;
  assert.ok(curve.data.length > 200, `${where}: the curve has its points`);
  let steps = 0;
  curve.data.forEach(({ x, y }, j) => {
    assert.ok(Number.isFinite(y) && close(y, scale(beta, l0, 1, x)), `${where}: p ${x}: ${y} vs the formula`);
    if (j > 0 && y > curve.data[j - 1].y) steps++;
  });
  if (beta > 0 && l0 < 1e6) assert.ok(steps >= 1, `${where}: the curve steps up`);
  assert.equal(curve.data[0].y, 1, `${where}: no scale at position 1 (L0 ${l0})`);
  const llama = scale(beta, l0, 1, at);
  const ministral = scale(beta, l0, 0, at);
  if (at >= 1 && at <= 1e6) {
    assert.equal(point.data.length, 1, `${where}: the position is marked`);
    assert.ok(point.data[0].x === at && close(point.data[0].y, llama), `${where}: the mark at ${at}`);
  } else {
    assert.equal(point.data.length, 0, `${where}: position ${at} is off the axis, not marked`);
  }
  assertShows(caption, llama, `${where}: Llama 4's scale in the caption`);
  assertShows(caption, ministral, `${where}: Ministral 3's scale in the caption`);
  assertShows(caption, l0 - 2, `${where}: the last position without a scale`);
}

test('temperature_figure_should_follow_its_inputs_and_the_formula', async () => {
  const next = rng(seed('temperature'));
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  let inputs = { beta: 0.1, l0: 8192, at: 131071 };
  check(await drawn(page), inputs, 'defaults');
  for (let k = 0; k < 4; k++) {
    inputs = {
      beta: Math.round(100 * next()) / 100,
      l0: 2 + Math.floor(10 ** (1 + 4 * next())),
      at: Math.floor(10 ** (7 * next())),
    };
    for (const key of ['beta', 'l0', 'at']) await typeInto(page, `#temperature-${key}-num`, String(inputs[key]));
    check(await drawn(page), inputs, `beta ${inputs.beta}, L0 ${inputs.l0}, p ${inputs.at}`);
  }
  // A bad value is named, and the figure keeps what it drew.
  const before = await drawn(page);
  for (const [key, bad, words] of [
    ['beta', '-0.2', /β \(attn_scale, llama_4_scaling_beta\) must be a number from 0 to 1/],
    ['l0', '0.5', /L0 \(floor_scale, original length\) must be a number from 1 to 1000000/],
    ['at', 'far', /position p read out must be a number from 0 to 10000000000/],
  ]) {
    await typeInto(page, `#temperature-${key}-num`, bad);
    assert.match(await text(page, `#temperature-${key}-msg`), words, `${key} = ${bad}`);
    assert.equal(await page.getAttribute(`#temperature-${key}-num`, 'aria-invalid'), 'true');
    assert.deepEqual(await drawn(page), before, `${key} = ${bad}: the figure is unchanged`);
  }
  await p.assertClean();
  await p.close();
});

test('temperature_figure_should_draw_in_rope_scope', async () => {
  const b = await openBlog(
    env.browser,
    blogHtml('<p>Before.</p><rope-scope view="temperature"></rope-scope><script src="/ropescope-embed.js"></script>'),
  );
  check(await drawn(b.page, 'rope-scope'), { beta: 0.1, l0: 8192, at: 131071 }, 'in <rope-scope>');
  await b.assertClean('rope-scope view=temperature');
  await b.close();
});
