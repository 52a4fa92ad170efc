// The explainer figures on the page against the independent reference (tests/ref/ref_explain.py):
// the blog's worked numbers, the per-pair terms, the additive terms, the decay bound, the
// heatmap, the rotating pair and its gap lock, figure 1 without aliasing, typed values that
// apply only when committed, plurals, reset / presets / random vectors / play, and printing.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaults } from '../../web/src/state/state.js';
import { PYTHON, rng, seed as testSeed } from '../lib/testlib.mjs';
import {
  afterUpdate,
  buildEverything,
  chartData,
  close,
  mainFigures,
  openPage,
  pageUrl,
  ROOT,
  reference,
  settle,
  sweepBins,
  text,
  typeInto,
  useServerAndBrowser,
  waitReady,
} from './harness.mjs';

const env = useServerAndBrowser();

function refExplain(calls) {
  const run = spawnSync(PYTHON, [join(ROOT, 'tests/ref/ref_explain.py'), '--batch'], {
    input: JSON.stringify(calls),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (run.status !== 0) throw new Error(`tests/ref/ref_explain.py --batch failed: ${run.stderr}`);
  const out = JSON.parse(run.stdout);
  out.forEach((r, i) => {
    if (r?.error) throw new Error(`reference ${calls[i].fn}: ${r.error}`);
  });
  return out;
}

const near = (a, b, what) => assert.ok(close(a, b), `${what}: expected ${b}, got ${a}`);

const SEED = testSeed('teach.test.mjs');
const random = rng(SEED);
const pick = (list) => list[Math.floor(random() * list.length)];

/** The page's q and k for its state, through the page's own model (read, not recomputed). */
const pageVectors = (page) =>
  page.evaluate(async () => {
    const { vectors } = await import('./src/model/model.js');
    const { dim, seed } = window.ropescope.state;
    return vectors(dim, seed).map((v) => Array.from(v));
  });

const dec4 = (x) =>
  x
    .toFixed(4)
    .replace(/^-0\.0000$/, '0.0000')
    .replace('-', '−');
const vec4 = (v) => `[${v.map(dec4).join(', ')}]`;

async function readWorked(page) {
  const ids = [
    'worked-qm',
    'worked-kn',
    'worked-direct',
    'worked-formula',
    'worked-moved',
    'worked-mark-m',
    'worked-mark-m1',
  ];
  const out = {};
  for (const id of ids) out[id] = (await text(page, `#${id}`)).trim();
  return out;
}

async function checkWorked(page, { q, k, m, n, theta, shift, base }) {
  const [at, moved, markM, markM1] = refExplain([
    { fn: 'pair_example', args: [q, k, m, n, theta] },
    { fn: 'pair_example', args: [q, k, m + shift, n + shift, theta] },
    { fn: 'sin_pos', args: [m, 4, base] },
    { fn: 'sin_pos', args: [m + 1, 4, base] },
  ]);
  const shown = await readWorked(page);
  const where = `(q ${q}, k ${k}, m ${m}, n ${n}, θ ${theta}, s ${shift})`;
  assert.equal(shown['worked-qm'], vec4(at.slice(0, 2)), `q at m ${where}`);
  assert.equal(shown['worked-kn'], vec4(at.slice(2, 4)), `k at n ${where}`);
  assert.equal(shown['worked-direct'], dec4(at[9]), `score directly ${where}`);
  assert.ok(
    shown['worked-formula'].endsWith(`= ${dec4(at[10])}`),
    `score by the formula ${where}: ${shown['worked-formula']}`,
  );
  assert.ok(shown['worked-moved'].startsWith(dec4(moved[9])), `score moved by s ${where}: ${shown['worked-moved']}`);
  assert.equal(shown['worked-mark-m'], vec4(markM), `P[m] ${where}`);
  assert.equal(shown['worked-mark-m1'], vec4(markM1), `P[m+1] ${where}`);
  // The page's unrounded numbers (its model, from the core) against the reference.
  const model = await page.evaluate(async () => {
    const { computeModel } = await import('./src/model/model.js');
    const w = computeModel(window.ropescope.state).explain.worked;
    const flat = (e) => [...e.q_m, ...e.k_n, e.angle_m, e.angle_n, e.angle_gap, e.dot, e.cross, e.direct, e.formula];
    return { at: flat(w.at), moved: flat(w.moved), marks: w.marks.map((v) => Array.from(v)) };
  });
  model.at.forEach((v, i) => near(v, at[i], `worked value ${i} ${where}`));
  model.moved.forEach((v, i) => near(v, moved[i], `moved value ${i} ${where}`));
  model.marks[0].forEach((v, i) => near(v, markM[i], `P[m][${i}] ${where}`));
  model.marks[1].forEach((v, i) => near(v, markM1[i], `P[m+1][${i}] ${where}`));
  return shown;
}

test('worked_numbers_should_match_the_blog_and_the_reference', async () => {
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  await waitReady(page, ['flatness']);
  // The blog's numbers, to the 4 decimals it prints.
  const shown = await checkWorked(page, {
    q: [0.9, 0.4],
    k: [0.9, 0.4],
    m: 3,
    n: 7,
    theta: 0.1,
    shift: 7,
    base: 10000,
  });
  assert.equal(shown['worked-qm'], '[0.7416, 0.6481]');
  assert.equal(shown['worked-kn'], '[0.4307, 0.8857]');
  assert.equal(shown['worked-direct'], '0.8934');
  assert.ok(shown['worked-formula'].endsWith('= 0.8934'));
  assert.ok(shown['worked-moved'].startsWith('0.8934'), 'the same score at 10 and 14');
  assert.ok(shown['worked-moved'].includes('q at 10') && shown['worked-moved'].includes('k at 14'));
  assert.equal(shown['worked-mark-m'], '[0.1411, −0.9900, 0.0300, 0.9996]');
  assert.equal(shown['worked-mark-m1'], '[−0.7568, −0.6536, 0.0400, 0.9992]');

  // Every input is editable: random values typed in, each applied on Enter.
  const round = (x) => Number(x.toFixed(3));
  const next = {
    q: [round(random() * 4 - 2), round(random() * 4 - 2)],
    k: [round(random() * 4 - 2), round(random() * 4 - 2)],
    m: Math.floor(random() * 500),
    n: Math.floor(random() * 500),
    theta: round(random() * 2),
    shift: Math.floor(random() * 900),
    base: 10000,
  };
  const boxes = {
    wq0: next.q[0],
    wq1: next.q[1],
    wk0: next.k[0],
    wk1: next.k[1],
    wm: next.m,
    wn: next.n,
    wth: next.theta,
    wsh: next.shift,
  };
  for (const [name, value] of Object.entries(boxes)) {
    await page.fill(`#${name}-num`, String(value));
    await page.press(`#${name}-num`, 'Enter');
  }
  await settle(page);
  await checkWorked(page, next);
  // The link keeps each typed value; one that equals its default is left out (state.js writes
  // only what differs from the defaults), as the post's n = 7 is when 7 comes up.
  const url = new URL(await pageUrl(page));
  const DEFAULT = defaults();
  for (const [name, value] of Object.entries(boxes)) {
    const kept = url.searchParams.has(name) ? Number(url.searchParams.get(name)) : DEFAULT[name];
    assert.equal(kept, value, `?${name} keeps the typed value (seed ${SEED})`);
  }
  await p.close();
});

test('pair_terms_should_sum_to_the_rotated_score_on_random_inputs', async () => {
  const p = await openPage(env.browser, null); // one window, loaded again for each trial
  const { page } = p;
  for (let trial = 0; trial < 3; trial++) {
    const dim = pick([2, 6, 16, 64, 128]);
    const seed = 1 + Math.floor(random() * 4e9);
    const gap = pick([0, 1, 2.5, Math.floor(random() * 4096)]);
    const base = pick([10000, 500000, 1e6]);
    const where = `(dim ${dim}, seed ${seed}, gap ${gap}, base ${base}; test seed ${SEED})`;
    await page.goto(`${env.server.url}?dim=${dim}&seed=${seed}&gap=${gap}&base=${base}`);
    await waitReady(page, ['flatness']);
    await page.locator('#fig-terms').scrollIntoViewIfNeeded();
    await waitReady(page, ['terms']);
    const [q, k] = await pageVectors(page);
    const [randomQK, terms, score] = refExplain([
      { fn: 'random_vectors', args: [dim, seed] },
      { fn: 'pair_terms', args: [q, k, gap, 0, base] },
      { fn: 'rope_score', args: [q, k, gap, 0, base] },
    ]);
    assert.deepEqual([q, k], randomQK, `the page's q, k are random_vectors(dim, seed) bit for bit ${where}`);
    const bars = (await chartData(page, 'terms')).datasets[0].data;
    const h = dim / 2;
    assert.equal(bars.length, h, `one bar per pair ${where}`);
    bars.forEach((b, i) => near(b, terms[i], `pair ${i}'s term ${where}`));
    near(terms[3 * h], score, `reference: terms sum to rope_score ${where}`);
    const sum = bars.reduce((a, b) => a + b, 0);
    near(sum, score, `the chart's bars sum to the reference rope_score ${where}`);
    const caption = await text(page, '#caption-terms');
    const numbers = caption.match(/-?\d+\.\d{6,}/g).map(Number);
    assert.ok(numbers.length >= 2, `#caption-terms shows the sum and the score: ${caption}`);
    near(numbers[0], terms[3 * h], `#caption-terms sum ${where}`);
    near(numbers[1], score, `#caption-terms rotated dot product ${where}`);
    await p.assertClean(where);
  }
  await p.close();
});

test('additive_terms_should_sum_to_add_score_and_match_the_reference', async () => {
  const dim = pick([2, 8, 64]);
  const gap = pick([2, 7, 300]);
  const from = Math.floor(random() * 3000);
  const p = await openPage(env.browser, `${env.server.url}?dim=${dim}&gap=${gap}&from=${from}&to=${from + 900}`);
  const { page } = p;
  await waitReady(page, ['flatness']);
  await page.locator('#fig-additive').scrollIntoViewIfNeeded();
  await waitReady(page, ['additive']);
  const sets = (await chartData(page, 'additive')).datasets;
  assert.deepEqual(
    sets.map((d) => d.label),
    [
      'q·k (content only)',
      'q·P[n] (key position)',
      'P[m]·k (query position)',
      'P[m]·P[n] (gap only)',
      'additive score (the sum)',
    ],
  );
  const [q, k] = await pageVectors(page);
  const starts = sets[4].data.map((pt) => pt.x);
  assert.deepEqual(
    starts,
    Array.from({ length: 256 }, (_, j) => from + j),
    'every start from `from`, 256 of them',
  );
  const picked = [0, 1, 2, 77, 128, 255];
  const [ref, ...scores] = refExplain([
    { fn: 'add_terms', args: [q, k, gap, picked.map((j) => starts[j]), 10000] },
    ...picked.map((j) => ({ fn: 'add_score', args: [q, k, starts[j] + gap, starts[j], 10000] })),
  ]);
  const where = `(dim ${dim}, gap ${gap}, from ${from}; test seed ${SEED})`;
  starts.forEach((s, j) => {
    const parts = sets.slice(0, 4).reduce((a, set) => a + set.data[j].y, 0);
    near(parts, sets[4].data[j].y, `four terms sum to the additive score at start ${s} ${where}`);
  });
  picked.forEach((j, i) => {
    for (let b = 0; b < 5; b++)
      near(sets[b].data[j].y, ref[b * picked.length + i], `${sets[b].label} at start ${starts[j]} ${where}`);
    near(sets[4].data[j].y, scores[i], `add_score at start ${starts[j]} ${where}`);
  });
  await p.close();
});

test('decay_bound_and_heatmap_cells_should_match_the_reference', async () => {
  const dim = pick([8, 16, 64]);
  const base = pick([10000, 500000]);
  const p = await openPage(env.browser, `${env.server.url}?dim=${dim}&base=${base}`);
  const { page } = p;
  await waitReady(page, ['flatness']);
  await page.evaluate(() => window.ropescope.drawAll());
  await waitReady(page, ['decay', 'heatmap']);
  const where = `(dim ${dim}, base ${base})`;
  const sets = (await chartData(page, 'decay')).datasets;
  const xs = sets[0].data.map((pt) => pt.x);
  near(xs[0], 1, 'decay starts at distance 1');
  near(xs[xs.length - 1], 1e6, 'decay ends at distance 1e6');
  const picked = [0, 10, 40, 60, 90, xs.length - 1];
  const [q, k] = await pageVectors(page);
  const { samples, seed } = await page.evaluate(async () => {
    const m = await import('./src/model/model.js');
    return { samples: m.DECAY_SAMPLES, seed: m.DECAY_SEED };
  });
  const [ref] = refExplain([{ fn: 'decay', args: [q, k, picked.map((j) => xs[j]), samples, seed, base] }]);
  const c = picked.length;
  picked.forEach((j, i) => {
    near(sets[0].data[j].y, ref[i], `decay: score at distance ${xs[j]} ${where}`);
    near(sets[1].data[j].y, ref[c + i], `decay: mean over ${samples} random vectors at ${xs[j]} ${where}`);
    near(sets[2].data[j].y, ref[2 * c + i], `decay: RoFormer bound at ${xs[j]} ${where}`);
  });
  // Issue #32: (1/h)Σ|S_j| is RoFormer's relative bound, no unit: drawn on the score axis it sat
  // below the mean it does not bound. It has an axis of its own, and says so.
  const axes = await page.evaluate(() => {
    const chart = window.Chart.getChart(document.getElementById('chart-decay'));
    return {
      of: chart.data.datasets.map((set) => set.yAxisID ?? 'y'),
      title: [chart.scales.bound?.options.title.text].flat().join(' '),
      side: chart.scales.bound?.position,
    };
  });
  assert.deepEqual(axes.of, ['y', 'y', 'bound'], 'the relative bound is on its own axis, the scores on the score axis');
  assert.equal(axes.title, 'relative bound (1/h)·Σ|Sⱼ|, no unit', 'the bound axis names the quantity and its unit');
  assert.equal(axes.side, 'right', 'the bound axis is on the right');

  const cells = await page.evaluate(() => {
    const chart = window.Chart.getChart(document.getElementById('chart-heatmap'));
    return chart.data.datasets[0].data.map(({ x, y, v, pair }) => ({ x, y, v, pair }));
  });
  const pairs = [...new Set(cells.map((cell) => cell.pair))];
  assert.deepEqual(
    pairs,
    Array.from({ length: Math.min(dim / 2, 64) }, (_, i) => i),
    `every pair is a row ${where}`,
  );
  const positions = [...new Set(cells.map((cell) => cell.x))];
  const [thetas, grid] = refExplain([
    { fn: 'thetas', args: [dim, base] },
    { fn: 'cos_grid', args: [dim, positions, base] },
  ]);
  assert.equal(cells.length, pairs.length * positions.length);
  for (const cell of cells) {
    near(
      cell.v,
      grid[cell.pair * positions.length + positions.indexOf(cell.x)],
      `heatmap cell pair ${cell.pair}, position ${cell.x} ${where}`,
    );
    near(
      cell.v,
      Math.cos(cell.x * thetas[cell.pair]),
      `heatmap cell = cos(p·θᵢ) at pair ${cell.pair}, position ${cell.x}`,
    );
  }
  // What is drawn follows the cells: the canvas's pixel at the centre of random cells is the
  // cell's value between the theme's colours (-1 the additive colour, 0 the surface, +1 RoPE's).
  const picks = Array.from({ length: 24 }, () => random());
  const drawn = await page.evaluate((fractions) => {
    const canvas = document.getElementById('chart-heatmap');
    const chart = window.Chart.getChart(canvas);
    const css = getComputedStyle(document.documentElement);
    const hex = (name) => {
      const h = css.getPropertyValue(name).trim().replace('#', '');
      return [0, 2, 4].map((j) => parseInt(h.slice(j, j + 2), 16));
    };
    const [lo, mid, hi] = [hex('--c-add'), hex('--surface'), hex('--c-rope')];
    // One readback of the whole canvas (one per cell draws a console warning).
    const image = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const ratio = canvas.width / canvas.getBoundingClientRect().width;
    const elements = chart.getDatasetMeta(0).data;
    const out = [];
    for (const fraction of fractions) {
      const i = Math.floor(fraction * elements.length);
      const { x, y, width, height } = elements[i].getProps(['x', 'y', 'width', 'height']);
      const { v, pair, x: position } = chart.data.datasets[0].data[i];
      const at = (Math.floor((y + height / 2) * ratio) * canvas.width + Math.floor((x + width / 2) * ratio)) * 4;
      const px = image.slice(at, at + 3);
      const want = mid.map((m, j) => m + ((v < 0 ? lo : hi)[j] - m) * Math.abs(v));
      out.push({ pair, position, v, got: [...px], want });
    }
    return out;
  }, picks);
  for (const { pair, position, v, got, want } of drawn) {
    assert.ok(
      got.every((g, j) => Math.abs(g - want[j]) <= 3),
      `heatmap pixel of pair ${pair}, position ${position} (cos ${v}): ${got} drawn, ${want.map(Math.round)} wanted ${where}, test seed ${SEED}`,
    );
  }
  await p.close();
});

test('rotating_pair_should_match_the_reference_and_keep_the_gap_when_locked', async () => {
  const p = await openPage(env.browser, `${env.server.url}?dim=16&pair=3&qm=20&kn=9`);
  const { page } = p;
  await waitReady(page, ['flatness']);
  await page.locator('#fig-circle').scrollIntoViewIfNeeded();
  await waitReady(page, ['circle']);
  const [q, k] = await pageVectors(page);
  const check = async (m, n) => {
    const [thetas] = refExplain([{ fn: 'thetas', args: [16, 10000] }]);
    const [ex] = refExplain([{ fn: 'pair_example', args: [[q[6], q[7]], [k[6], k[7]], m, n, thetas[3]] }]);
    const sets = (await chartData(page, 'circle')).datasets;
    near(sets[1].data[1].x, ex[0], `q at m = ${m}, x`);
    near(sets[1].data[1].y, ex[1], `q at m = ${m}, y`);
    near(sets[2].data[1].x, ex[2], `k at n = ${n}, x`);
    near(sets[2].data[1].y, ex[3], `k at n = ${n}, y`);
    const caption = await text(page, '#caption-circle');
    for (const [value, what] of [
      [ex[4], 'mθ'],
      [ex[5], 'nθ'],
      [ex[6], '(m − n)θ'],
      [ex[9], 'pair score'],
    ]) {
      assert.ok(
        caption.includes(Number(value.toPrecision(4)).toString().replace('-', '−')) || Math.abs(value) < 1e-3,
        `#caption-circle shows ${what} = ${value}: ${caption}`,
      );
    }
    return ex;
  };
  const before = await check(20, 9);
  await page.check('#lock');
  await afterUpdate(page, () => page.fill('#qm', '35'));
  const url = new URL(await pageUrl(page));
  assert.equal(url.searchParams.get('lock'), '1');
  assert.equal(url.searchParams.get('qm'), '35');
  assert.equal(url.searchParams.get('kn'), '24', 'with the lock, n moves with m');
  assert.equal(await page.inputValue('#kn-num'), '24');
  const after = await check(35, 24);
  near(after[6], before[6], 'the angle between the arrows stays');
  near(after[9], before[9], 'the pair score stays');
  await page.uncheck('#lock');
  await afterUpdate(page, () => page.fill('#qm', '40'));
  assert.equal(new URL(await pageUrl(page)).searchParams.get('kn'), '24', 'without the lock, n stays');
  await p.close();
});

test('figure_1_should_not_alias_its_drawn_extremes_match_a_dense_computation', async () => {
  // dim 2: the only additive frequency repeats every 2π ≈ 6.3 positions; 512 thinned
  // samples 8 apart used to draw a slow wave that does not exist.
  const p = await openPage(env.browser, null); // one window, loaded again for each range
  const { page } = p;
  for (const [from, to, n] of [
    [0, 4096, 512],
    [100, 400, 4096],
    [0, 60000, 300],
  ]) {
    await page.goto(`${env.server.url}?dim=2&gap=3&from=${from}&to=${to}&n=${n}`);
    await waitReady(page, ['flatness']);
    const sets = (await chartData(page, 'flatness')).datasets;
    const plan = sweepBins(from, to, n);
    const [q, k] = await pageVectors(page);
    // Dense: every integer start's additive score, straight from the reference.
    const starts = Array.from({ length: plan.starts }, (_, i) => from + i);
    const [dense] = reference([{ fn: 'offset_scan', args: [q, k, 3, starts, 10000] }]);
    const where = `(dim 2, from ${from}, to ${to}, n ${n})`;
    assert.equal(sets[2].data.length, plan.bins, `points drawn ${where}`);
    for (let j = 0; j < plan.bins; j++) {
      const rows = dense.slice(plan.first(j) - from, plan.last(j) - from + 1).map((r) => r[2]);
      near(sets[2].data[j].y, Math.max(...rows), `greatest additive score drawn in bin ${j} ${where}`);
      near(sets[3].data[j].y, Math.min(...rows), `least additive score drawn in bin ${j} ${where}`);
    }
    const all = dense.map((r) => r[2]);
    near(
      Math.max(...sets[2].data.map((pt) => pt.y)),
      Math.max(...all),
      `the chart's top is the dense maximum ${where}`,
    );
    near(
      Math.min(...sets[3].data.map((pt) => pt.y)),
      Math.min(...all),
      `the chart's bottom is the dense minimum ${where}`,
    );
    if (plan.bins === plan.starts) {
      assert.deepEqual(
        sets[2].data.map((pt) => pt.x),
        starts,
        `every integer start is drawn ${where}`,
      );
    }
    await p.assertClean(where);
  }
  await p.close();
});

test('typing_5000_key_by_key_should_never_apply_its_prefixes', async () => {
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  await waitReady(page, ['flatness']);
  // The x-axis ends at `to`; the last start drawn is in the last bin.
  const lastX = () =>
    page.evaluate(() => window.Chart.getChart(document.getElementById('chart-flatness')).options.scales.x.max);
  await page.fill('#to-num', '');
  for (const key of '5000') {
    await page.type('#to-num', key);
    await settle(page);
    const url = new URL(await pageUrl(page));
    assert.equal(
      url.searchParams.get('to') ?? '4096',
      '4096',
      `after typing "${await page.inputValue('#to-num')}" the URL keeps to=4096`,
    );
    assert.equal(await lastX(), 4096, 'the chart keeps its range');
    assert.match(await text(page, '#to-pending'), /Not applied yet.*figures show to = 4096/);
  }
  await afterUpdate(page, () => page.press('#to-num', 'Enter'));
  assert.equal(new URL(await pageUrl(page)).searchParams.get('to'), '5000');
  assert.equal(await lastX(), 5000);
  assert.equal((await text(page, '#to-pending')).trim(), '');

  // A bad committed value: the message says what the figures still show.
  await page.fill('#gap-num', '');
  // (gap reaches 1e6 since the long-context part: 2000000 is out of range)
  for (const key of '2000000') await page.type('#gap-num', key);
  await page.press('#gap-num', 'Enter');
  await settle(page);
  assert.match(await text(page, '#gap-msg'), /gap must be .* 0 to .*The figures still show gap = 2\./);
  assert.equal(new URL(await pageUrl(page)).searchParams.get('gap') ?? '2', '2');
  assert.equal(await page.getAttribute('#gap-num', 'aria-invalid'), 'true');
  // Leaving the box with the bad value keeps the message and the charts.
  await page.press('#gap-num', 'Tab');
  assert.match(await text(page, '#gap-msg'), /still show gap = 2/);
  await p.close();
});

test('captions_should_agree_in_number_for_dim_2_to_8', async () => {
  const BAD = [
    /(^|[^\d.])1 (pair|start|term|turn)s\b/,
    /\b[Aa]ll 1 /,
    /\b1 of 1 pairs\b/,
    /\b0 pair\b/,
    /(^|[^\d.])([02-9]|\d{2,}) (pair|start|term)\b(?!s)(?! term)(?! frequency)/,
    /\b1 pairs are\b/,
    /(^|[^\d.])1 (pair|start)s? are\b/,
    /(?<!of )(?<![\d.])([02-9]|\d{2,}) pairs is\b/,
  ];
  // One load a dim, at the first gap; each other gap typed into the gap box, then every figure
  // drawn again as before printing (the texts are those of a fresh load at that gap: compared for
  // all twenty settings when this was written), a fifth of the loads.
  const p = await openPage(env.browser, null); // one window, loaded again for each dim
  const { page } = p;
  for (const dim of [2, 4, 6, 8]) {
    for (const [j, gap] of [0, 1, 3, 40, 4000].entries()) {
      if (j === 0) {
        await page.goto(`${env.server.url}?dim=${dim}&gap=${gap}&from=0&to=${dim}&pair=0`);
        await waitReady(page, ['flatness']);
      } else {
        await afterUpdate(page, () => typeInto(page, '#gap-num', String(gap)));
        await buildEverything(page);
      }
      const state = await page.evaluate(() => ({ ...window.ropescope.state }));
      assert.deepEqual([state.dim, state.gap, state.from, state.to], [dim, gap, 0, dim], `dim ${dim}, gap ${gap}: set`);
      const texts = await page.evaluate(() => [
        ...[...document.querySelectorAll('.caption, .lookfor, #norm-readout')].map((e) => e.textContent),
        ...[...document.querySelectorAll('canvas[aria-label]')].map((e) => e.getAttribute('aria-label')),
      ]);
      for (const line of texts) {
        for (const bad of BAD) assert.doesNotMatch(line, bad, `dim ${dim}, gap ${gap}: "${line}"`);
      }
      await p.assertClean(`dim ${dim}, gap ${gap}`);
    }
  }
  await p.close();
});

test('reset_presets_random_vectors_and_play_should_change_the_url_state', async () => {
  const p = await openPage(env.browser, `${env.server.url}?dim=32&gap=9&qm=40`);
  const { page } = p;
  await waitReady(page, ['flatness']);
  const state = async () => Object.fromEntries(new URL(await pageUrl(page)).searchParams);

  await afterUpdate(page, () => page.selectOption('#dim-preset', { label: 'llama-3.1-8b: dim 128, base 500000' }));
  assert.deepEqual([(await state()).dim, (await state()).base], ['128', '500000']);
  await afterUpdate(page, () =>
    page.selectOption('#dim-preset', { label: 'qwen2.5-7b-instruct-yarn: dim 128, base 1000000' }),
  );
  assert.equal((await state()).base, '1000000');

  await afterUpdate(page, () => page.click('#randomize'));
  const seed = (await state()).seed;
  assert.match(seed, /^[1-9]\d*$/, 'random q, k keep their seed in the URL');
  assert.match(await text(page, '#vectors-readout'), new RegExp(`seed ${seed}`));
  const terms = await chartData(page, 'terms');
  const fresh = await openPage(env.browser, await pageUrl(page));
  await waitReady(fresh.page, ['flatness']);
  await fresh.page.evaluate(() => window.ropescope.drawAll());
  assert.deepEqual(await chartData(fresh.page, 'terms'), terms, 'the link reproduces the random vectors');
  await fresh.close();
  await afterUpdate(page, () => page.click('#demo-vectors'));
  assert.equal((await state()).seed, undefined, 'seed 0 (the demo vectors) is left out of the URL');
  assert.match(
    await text(page, '#vectors-readout'),
    /q\[j\] = cos\(0\.7·j \+ 0\.3\),\s+k\[j\] = sin\(0\.4·j \+ 1\.1\)/,
    "the demo vectors' formula is shown",
  );

  await afterUpdate(page, () => page.click('#reset'));
  // Reset leaves the long-context part's settings to its own preset menu.
  const LONG = new Set([
    'preset',
    'train-len',
    'target-gap',
    'method',
    'factor',
    'new-base',
    'orig-max',
    'low-freq',
    'high-freq',
    'beta-fast',
    'beta-slow',
    'truncate',
    'mscale',
    'mscale-all-dim',
    'compare',
  ]);
  const main = Object.fromEntries(Object.entries(await state()).filter(([name]) => !LONG.has(name)));
  assert.deepEqual(main, { dim: '64', base: '10000', gap: '2', from: '0', to: '4096', n: '512' });
  assert.equal(await page.inputValue('#qm-num'), '5');

  const gaps = [];
  await page.click('#play');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true');
  // While it plays, figure 1's y axis only widens (it never jumps back to a narrower range).
  const yRange = () =>
    page.evaluate(() => {
      const { scales } = window.Chart.getChart(document.getElementById('chart-flatness'));
      return [scales.y.min, scales.y.max];
    });
  const ranges = [];
  for (let i = 0; i < 4; i++) {
    await page.waitForTimeout(150);
    gaps.push(await page.evaluate(() => window.ropescope.state.gap));
    ranges.push(await yRange());
  }
  for (let i = 1; i < ranges.length; i++) {
    assert.ok(
      ranges[i][0] <= ranges[i - 1][0] && ranges[i][1] >= ranges[i - 1][1],
      `the y axis holds while playing: ${JSON.stringify(ranges)}`,
    );
  }
  await page.click('#play');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
  assert.ok(
    gaps.every((g, i) => i === 0 || g > gaps[i - 1]),
    `play sweeps the gap upward: ${gaps}`,
  );
  const stopped = await page.evaluate(() => window.ropescope.state.gap);
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => window.ropescope.state.gap), stopped, 'pause stops the sweep');
  await p.close();
});

test('printing_should_draw_every_figure_at_the_current_settings', async () => {
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  await waitReady(page, ['flatness']);
  await afterUpdate(page, () => typeInto(page, '#dim-num', '12'));
  // Off-screen charts may be stale; beforeprint brings every one up to date and draws it.
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  const all = await mainFigures(page);
  await waitReady(page, all);
  // The formulas (loaded lazily) are in place too: the derivation beside the per-pair terms.
  await page.waitForFunction(() => !document.querySelector('.formula-slot:empty'), null, { timeout: 10000 });
  assert.equal(await page.locator('#fig-terms .formulas math').count(), 4, 'the derivation is typeset (MathML)');
  const drawn = await page.evaluate(
    (names) =>
      names.map((name) => {
        const chart = window.Chart.getChart(document.getElementById(`chart-${name}`));
        // A chart may draw everything through its plugins (the marks' cells): then its data count.
        const meta = chart.getDatasetMeta(0).data.length;
        return {
          name,
          bars:
            meta || chart.data.datasets.reduce((n, set) => n + set.data.length, 0) || (chart.data.labels?.length ?? 0),
        };
      }),
    all,
  );
  const terms = drawn.find((d) => d.name === 'terms');
  assert.equal(terms.bars, 6, 'the per-pair chart is drawn for dim 12 (6 pairs)');
  // The marks and clock charts paint in a plugin, from data kept off the datasets.
  for (const d of drawn.filter((x) => x.name !== 'marks' && x.name !== 'clock'))
    assert.ok(d.bars > 0, `chart-${d.name} has drawn elements`);
  await p.close();
});

// Every chart follows a change of the reader's colour scheme, whether its data changed or not,
// and paper takes the light palette even from a dark screen.
test('charts_should_follow_the_colour_scheme_and_print_light', async () => {
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  const all = await mainFigures(page);
  await waitReady(page, all);
  // A window as tall as the page: every chart is on screen, so every one is drawn at once.
  await page.setViewportSize({ width: 1280, height: await page.evaluate(() => document.documentElement.scrollHeight) });
  const look = () =>
    page.evaluate((names) => {
      const css = getComputedStyle(document.documentElement);
      const want = { tick: css.getPropertyValue('--ink-muted').trim(), grid: css.getPropertyValue('--grid').trim() };
      return {
        want,
        charts: names.map((name) => {
          const chart = window.Chart.getChart(document.getElementById(`chart-${name}`));
          const [x] = Object.values(chart.options.scales);
          // What is drawn: the first element's own colour against its dataset's.
          const set = chart.data.datasets[0];
          const fill = Array.isArray(set.backgroundColor) ? set.backgroundColor[0] : set.backgroundColor;
          const drawn = chart.getDatasetMeta(0).data[0]?.options?.backgroundColor;
          return { name, tick: x.ticks.color, grid: x.grid.color, fill: fill ?? null, drawn: fill ? drawn : null };
        }),
      };
    }, all);
  const light = await look();
  for (const mode of [
    { colorScheme: 'dark' },
    { colorScheme: 'dark', media: 'print' },
    { colorScheme: 'light', media: 'screen' },
  ]) {
    await page.emulateMedia(mode);
    // Media-query change events come with the next rendering update: wait for the charts (or
    // give up after 5 s and let the asserts below say what is wrong).
    await page
      .waitForFunction(
        (names) => {
          const tick = getComputedStyle(document.documentElement).getPropertyValue('--ink-muted').trim();
          // Settled: every chart's ticks in the palette, and its first element redrawn in its
          // dataset's colour (the redraw can come a frame after the options change).
          return names.every((name) => {
            const chart = window.Chart.getChart(document.getElementById(`chart-${name}`));
            const set = chart.data.datasets[0];
            const fill = Array.isArray(set.backgroundColor) ? set.backgroundColor[0] : set.backgroundColor;
            const drawn = chart.getDatasetMeta(0).data[0]?.options?.backgroundColor;
            return Object.values(chart.options.scales)[0].ticks.color === tick && (!fill || drawn === fill);
          });
        },
        all,
        { timeout: 15000 },
      )
      .catch(() => {});
    const now = await look();
    const dark = mode.colorScheme === 'dark' && mode.media !== 'print';
    assert.equal(now.want.tick !== light.want.tick, dark, `${JSON.stringify(mode)}: the palette in use`);
    for (const chart of now.charts) {
      assert.equal(chart.tick, now.want.tick, `${JSON.stringify(mode)}: chart-${chart.name} tick colour`);
      assert.equal(chart.grid, now.want.grid, `${JSON.stringify(mode)}: chart-${chart.name} grid colour`);
      assert.equal(
        chart.drawn,
        chart.fill,
        `${JSON.stringify(mode)}: chart-${chart.name} drawn in its dataset's colour`,
      );
    }
  }
  await p.close();
});

test('the_single_file_should_typeset_the_formulas_from_disk_under_its_csp', async () => {
  const { pathToFileURL } = await import('node:url');
  const p = await openPage(env.browser, pathToFileURL(join(ROOT, 'dist/ropescope.html')).href);
  const { page } = p;
  await waitReady(page, ['flatness']);
  await page.evaluate(() => window.ropescope.drawAll());
  await waitReady(page, await mainFigures(page));
  await page.waitForFunction(() => !document.querySelector('.formula-slot:empty'), null, { timeout: 10000 });
  const count = await page.locator('.formulas math').count();
  assert.ok(count >= 12, `the formulas are typeset from file:// (${count} <math> elements)`);
  assert.equal((await text(page, '#worked-direct')).trim(), '0.8934');
  await p.close(); // fails on any console error or CSP violation (a style attribute would be one)
});

test('each_explainer_figure_should_embed_alone', async () => {
  const p = await openPage(env.browser, null); // one window, loaded again for each view
  const { page } = p;
  for (const view of ['circle', 'terms', 'additive', 'decay', 'heatmap']) {
    await page.goto(`${env.server.url}?embed=1&view=${view}`);
    await waitReady(page, [view]);
    const shown = await page.evaluate(() =>
      [...document.querySelectorAll('figure.fig, #worked')]
        .filter((el) => el.getBoundingClientRect().height > 0)
        .map((el) => el.id),
    );
    assert.deepEqual(shown, [`fig-${view}`], `?embed=1&view=${view} shows that figure alone`);
    await p.assertClean(`?embed=1&view=${view}`);
  }
  await p.close();
});
