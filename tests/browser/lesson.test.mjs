// The lesson's chapters on the page (web/src/figures/order.js ... post.js), driven as a reader
// would and compared with the independent reference tests/ref/ref_lesson.py (and NumPy for the
// 512-dimension token): each chapter's chart after its own inputs change, dragging the cat's
// arrows with the pointer and turning them with the keyboard, "slide both words", the clock's
// two fixes, and the post-checked table row by row. Random inputs print ROPE_TEST_SEED.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import * as C from '../../web/gen/rope_consts.js';
import * as rope from '../../web/src/core/rope.js';
import { PYTHON, rng, seed } from '../lib/testlib.mjs';
import { close, openAt, openReady, ROOT, settle, useServerAndBrowser } from './harness.mjs';

const env = useServerAndBrowser();
const CHAPTERS = [
  'order',
  'slot',
  'normalized',
  'marks',
  'extrapolate',
  'identity',
  'cat',
  'proof',
  'planes',
  'clock',
  'weights',
  'post',
];
const SEED = seed('lesson (browser)');
const random = rng(SEED);
const pick = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));

/** ref_lesson.py's functions on [fn, args] calls, in one Python process. */
function reference(calls) {
  const script =
    'import sys, json; sys.path.insert(0, "tests/ref"); sys.dont_write_bytecode = True\n' +
    'import ref_lesson as r\n' +
    'calls = json.load(sys.stdin)\n' +
    'out = {"results": [getattr(r, fn)(*args) for fn, args in calls],\n' +
    '       "post": [[rid, ch, p, d, v, r.post_matches(p, d, v)] for rid, ch, p, d, v in r.POST]}\n' +
    'print(json.dumps(out))';
  const run = spawnSync(PYTHON, ['-c', script], { cwd: ROOT, input: JSON.stringify(calls), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

/** The blog's rope_full and seed-42 token in NumPy (Debian's python3-numpy), independent of the core. */
function numpyPlanes(seedValue, m, n) {
  const script =
    'import sys, numpy as np\n' +
    'seed, m, n = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])\n' +
    'x = np.random.default_rng(seed).normal(size=512)\n' +
    'def rope(x, pos):\n' +
    '    i = np.arange(256); a = pos / (10000.0 ** (2 * i / 512)); c, s = np.cos(a), np.sin(a)\n' +
    '    out = x.copy(); out[0::2] = x[0::2] * c - x[1::2] * s; out[1::2] = x[0::2] * s + x[1::2] * c\n' +
    '    return out\n' +
    'print(repr(float(np.dot(rope(x, m), rope(x, n)))))';
  const run = spawnSync(
    process.env.NUMPY_PYTHON || '/usr/bin/python3',
    ['-c', script, String(seedValue), String(m), String(n)],
    { encoding: 'utf8' },
  );
  assert.equal(run.status, 0, run.stderr);
  return Number(run.stdout);
}

// Reads a chart: body runs with `chart` bound (an expression string, evaluated by the test's
// browser connection, not by the page).
const chartOf = (page, name, body) =>
  page.evaluate(`(() => { const chart = window.Chart.getChart(document.getElementById('chart-${name}')); ${body} })()`);
const datasets = (page, name) => chartOf(page, name, 'return chart.data.datasets.map((d) => d.data);');

async function setNumber(page, id, value) {
  await page.fill(`#${id}-num`, String(value));
  await page.press(`#${id}-num`, 'Enter');
  await page.locator(`#${id}-num`).blur();
  await settle(page);
}

function near(got, want, what) {
  assert.ok(close(got, want), `${what}: page ${got}, reference ${want}`);
}

// The order chart's two datasets (first order, swapped): the four scores under each case, in the
// core's block order, against the reference's flat output.
function orderShown([first, swapped], want, what) {
  assert.equal(first.length, 12, `${what}: twelve bars per order`);
  first.forEach((x, j) => {
    const at = (j >> 2) * C.ROPE_ORDER_BLOCK + (j & 3);
    near(x, want[at], `${what}, case ${j >> 2}, score ${j & 3}`);
    near(swapped[j], want[at + C.ROPE_ORDER_SWAPPED], `${what} swapped, case ${j >> 2}, score ${j & 3}`);
  });
}

async function openLesson() {
  const opened = await openReady(env, '', ['flatness']);
  await opened.page.waitForFunction(
    (names) => names.every((n) => window.Chart.getChart(document.getElementById(`chart-${n}`))),
    CHAPTERS,
    { timeout: 15000 },
  );
  return opened;
}

test('chapters_should_follow_their_own_inputs_as_the_reference_computes', async () => {
  const { p, page } = await openLesson();
  // order: the defaults, then two random sticks typed in.
  const a = Array.from({ length: 4 }, () => pick(-3, 3));
  const b = Array.from({ length: 4 }, () => pick(-3, 3));
  let shown = await datasets(page, 'order');
  let [want] = reference([['order', [[2, 1, 1, 0], [0, 1, 2, 1], 0, 10000]]]).results;
  orderShown(shown, want, 'order “nolan ended”');
  // The three cases at the post's sticks: the swap moves no plain score, and moves the marked and
  // the turned ones by the core's largest change (2.466 and 3.386 when this was written).
  const moved = (from) => Math.max(...[0, 1, 2, 3].map((j) => Math.abs(shown[0][from + j] - shown[1][from + j])));
  assert.equal(moved(0), 0, 'with no position the swap changes no score');
  near(moved(4), want[C.ROPE_ORDER_ADDED * C.ROPE_ORDER_BLOCK + C.ROPE_ORDER_DIFF], 'order: added marks, swap');
  near(moved(8), want[C.ROPE_ORDER_ROTATED * C.ROPE_ORDER_BLOCK + C.ROPE_ORDER_DIFF], 'order: RoPE, swap');
  assert.ok(moved(4) > 1 && moved(8) > 1, `added marks and RoPE see the swap: ${moved(4)}, ${moved(8)}`);
  const orderGrid = await page.$$eval('#order-grid tr', (rows) =>
    rows.slice(1).map((row) => [...row.querySelectorAll('td')].map((td) => Number(td.textContent.replace('−', '-')))),
  );
  orderGrid.forEach((cells, j) =>
    cells.forEach((x, c) => {
      const at = (c >> 1) * C.ROPE_ORDER_BLOCK + (c & 1) * C.ROPE_ORDER_SWAPPED + j;
      assert.ok(
        Math.abs(x - want[at]) <= 5e-4 * Math.max(1, Math.abs(want[at])),
        `order grid ${j}, ${c}: ${x} vs ${want[at]}`,
      );
    }),
  );
  await page.fill('#order-a', '1, 2');
  await page.press('#order-a', 'Enter');
  await page.locator('#order-a').blur();
  assert.match(await page.textContent('#order-a-msg'), /same width/);
  await page.fill('#order-b', b.join(', '));
  await page.locator('#order-b').blur();
  await page.fill('#order-a', a.join(', '));
  await page.locator('#order-a').blur();
  await settle(page);
  shown = await datasets(page, 'order');
  [want] = reference([['order', [a, b, 0, 10000]]]).results;
  orderShown(shown, want, `order sticks ${a} / ${b}`);

  // slot: a random slot on the slider's box.
  const s = pick(1, 50000);
  await setNumber(page, 'slot-slot', s);
  [want] = reference([['slot', [[2, 1, 1, 0], s]]]).results;
  (await datasets(page, 'slot'))[1].forEach((x, j) => near(x, want[j], `stick + slot ${s}, component ${j}`));
  assert.ok(
    (await page.textContent('#slot-readout')).includes(`[2, 1, 1, 0] + ${s} = [${want.slice(0, 4).join(', ')}]`),
  );

  // marks: a random width and count; every cell.
  const width = 2 * pick(1, 8);
  const count = pick(5, 40);
  await setNumber(page, 'marks-width', width);
  await setNumber(page, 'marks-count', count);
  const grid = await chartOf(page, 'marks', 'return chart.$marks.grid;');
  [want] = reference([['marks', [Array.from({ length: count }, (_, q) => q), width, 10000]]]).results;
  assert.equal(grid.length, count);
  grid.flat().forEach((x, j) => near(x, want[j], `mark cell ${j} at width ${width}`));
  // The caption names the slowest pair's wavelength, 2π · 10000^((width − 2)/width), at 3 digits.
  const slowest = String(Number((2 * Math.PI * 10000 ** ((width - 2) / width)).toPrecision(3)));
  const marksCaption = await page.textContent('#caption-marks');
  assert.ok(
    width === 2 ? marksCaption.includes('the only pair') : marksCaption.includes(`only every ${slowest}.`),
    `marks caption at width ${width} names the slowest wavelength ${slowest}: ${marksCaption}`,
  );

  // extrapolate: a random position past the training length.
  const pos = pick(513, 20000);
  const w = 2 * pick(1, 16);
  await setNumber(page, 'extrapolate-pos', pos);
  await setNumber(page, 'extrapolate-width', w);
  const [lows, highs, dots] = await datasets(page, 'extrapolate');
  const band = lows.map((low, j) => [low, highs[j]]);
  [want] = reference([['extrapolate', [pos, w, 512, 10000]]]).results;
  assert.equal(dots.length, w);
  dots.forEach((x, j) => near(x, want[C.ROPE_EXTRA_VALUE * w + j], `mark at ${pos}, dim ${j} of ${w}`));
  band.forEach(([lo, hi], j) => {
    near(lo, want[C.ROPE_EXTRA_MIN * w + j], `training min, dim ${j}`);
    near(hi, want[C.ROPE_EXTRA_MAX * w + j], `training max, dim ${j}`);
  });
  const outside = want.slice(C.ROPE_EXTRA_OUTSIDE * w, (C.ROPE_EXTRA_OUTSIDE + 1) * w).filter((o) => o).length;
  assert.match(
    await page.textContent('#caption-extrapolate'),
    new RegExp(`^At position ${pos}, ${outside} of the ${w} `),
  );
  assert.match(
    await page.textContent('#extrapolate-readout'),
    /sin\(512\) = 0\.0795 .*−0\.398 ✗.*sin\(513\) = −0\.7958/,
  );

  // normalized: a random slot and length.
  const slotN = pick(1, 512);
  const lengthN = pick(512, 8192);
  await setNumber(page, 'normalized-slot', slotN);
  await setNumber(page, 'normalized-length', lengthN);
  const [trained, now] = (await datasets(page, 'normalized'))[0];
  const [r1, r2] = reference([
    ['normalized', [slotN, 512]],
    ['normalized', [slotN, lengthN]],
  ]).results;
  near(trained, r1[0], `slot ${slotN} of 512`);
  near(now, r2[0], `slot ${slotN} of ${lengthN}`);

  // identity: random a and b; the post's 47 and 4 first.
  assert.match(
    await page.textContent('#identity-readout'),
    /sin 47 = 0\.124, cos 47 = −0\.992: 47 rad is 3\.018 past whole turns, quadrant 2\..* = 0\.670; sin 51 = 0\.670\./,
  );
  const ia = pick(0, 1000);
  const ib = pick(0, 100);
  await setNumber(page, 'identity-a', ia);
  await setNumber(page, 'identity-b', ib);
  const bars = (await datasets(page, 'identity'))[0];
  [want] = reference([['identity', [ia, ib]]]).results;
  [C.ROPE_ID_SA_CB, C.ROPE_ID_CA_SB, C.ROPE_ID_SIN_SUM, C.ROPE_ID_SIN_DIRECT].forEach((slotIndex, j) =>
    near(bars[j], want[slotIndex], `identity a ${ia}, b ${ib}, bar ${j}`),
  );

  // proof: random q, k, m, n, theta; every step's total and every term shown against the reference.
  const pq = Array.from({ length: 4 }, () => Number((0.01 * pick(-300, 300)).toFixed(2)));
  const [pm, pn, pt] = [pick(0, 1000), pick(0, 1000), Number((0.01 * pick(-300, 300)).toFixed(2))];
  for (const [j, key] of ['q1', 'q2', 'k1', 'k2'].entries()) await setNumber(page, `proof-${key}`, pq[j]);
  await setNumber(page, 'proof-m', pm);
  await setNumber(page, 'proof-n', pn);
  await setNumber(page, 'proof-theta', pt);
  const at = `proof at q ${pq.slice(0, 2)}, k ${pq.slice(2)}, ${pm}, ${pn}, θ ${pt} (seed ${SEED})`;
  const stepsShown = (await datasets(page, 'proof'))[0];
  [want] = reference([['proof', [...pq, pm, pn, pt]]]).results;
  [
    C.ROPE_PROOF_DIRECT,
    C.ROPE_PROOF_EXPANDED,
    C.ROPE_PROOF_COLLECTED,
    C.ROPE_PROOF_IDENTIFIED,
    C.ROPE_PROOF_RESULT,
  ].forEach((slotIndex, j) => near(stepsShown[j], want[slotIndex], `${at}: step ${j}`));
  // The algebra's numbers, shown to 4 decimals: each within half a last digit of the reference,
  // and the two terms shown adding up to the score shown (to the rounding of three numbers).
  const term = async (name) => Number((await page.textContent(`#proof-${name}`)).replace('−', '-'));
  const terms = {};
  for (const [name, slotIndex] of [
    ['gap', C.ROPE_PROOF_GAP],
    ['dot', C.ROPE_PROOF_DOT],
    ['cross', C.ROPE_PROOF_CROSS],
    ['cos-term', C.ROPE_PROOF_COS_TERM],
    ['sin-term', C.ROPE_PROOF_SIN_TERM],
    ['result', C.ROPE_PROOF_RESULT],
    ['direct', C.ROPE_PROOF_DIRECT],
  ]) {
    terms[name] = await term(name);
    assert.ok(
      Math.abs(terms[name] - want[slotIndex]) <= 0.5e-4 + 1e-9,
      `${at}: ${name} ${terms[name]} vs ${want[slotIndex]}`,
    );
  }
  assert.ok(
    Math.abs(terms['cos-term'] + terms['sin-term'] - terms.result) <= 1.5e-4 + 1e-9,
    `${at}: ${terms['cos-term']} + ${terms['sin-term']} shown, score ${terms.result}`,
  );
  near(
    want[C.ROPE_PROOF_COS_TERM] + want[C.ROPE_PROOF_SIN_TERM],
    want[C.ROPE_PROOF_DIRECT],
    `${at}: the terms make the score`,
  );

  // planes: the post's token, against NumPy.
  const caption = await page.textContent('#caption-planes');
  const true37 = numpyPlanes(42, 3, 7);
  assert.ok(caption.includes(true37.toFixed(4)), `planes caption shows ${true37.toFixed(4)}: ${caption}`);
  assert.ok(caption.includes('22.3814'));
  const other = pick(0, 1000);
  await setNumber(page, 'planes-seed', other);
  const score = await chartOf(page, 'planes', 'return chart.data.datasets[0].data.reduce((a, b) => a + b, 0);');
  near(score, numpyPlanes(other, 3, 7), `planes seed ${other}: sum of the planes' shares`);
  await p.close();
});

test('cat_arrows_should_drag_turn_by_keyboard_and_slide_keeping_the_score', async () => {
  const { p, page } = await openAt(env, '', 'cat');
  const cat = () =>
    chartOf(
      page,
      'cat',
      'const d = chart.$cat; return { q: d.q, k: d.k, m: d.m, n: d.n, theta: d.theta, ' +
        'direct: d.direct, added: d.added, after: d.after, qm: [d.qm0, d.qm1], kn: [d.kn0, d.kn1] };',
    );
  const refCat = (d) => reference([['cat', [...d.q, ...d.k, d.m, d.n, d.theta]]]).results[0];
  let d = await cat();
  let want = refCat(d);
  near(d.direct, want[C.ROPE_CAT_DIRECT], 'cat score');
  assert.equal(d.direct.toFixed(4), '0.8934');
  assert.match(await page.textContent('#cat-readout'), /RoPE score 0\.8934/);

  // Drag the query's tip to a random point: the rotated query follows the pointer.
  await page.locator('#chart-cat').scrollIntoViewIfNeeded();
  const target = [-0.3 + 0.6 * random(), -0.9 + 0.4 * random()];
  const pixels = await chartOf(
    page,
    'cat',
    `const b = chart.canvas.getBoundingClientRect(); const d = chart.$cat;
    return [[b.left + chart.scales.x.getPixelForValue(d.qm0), b.top + chart.scales.y.getPixelForValue(d.qm1)],
      [b.left + chart.scales.x.getPixelForValue(${target[0]}), b.top + chart.scales.y.getPixelForValue(${target[1]})]];`,
  );
  await page.mouse.move(...pixels[0]);
  await page.mouse.down();
  await page.mouse.move((pixels[0][0] + pixels[1][0]) / 2, (pixels[0][1] + pixels[1][1]) / 2, { steps: 4 });
  await page.mouse.move(...pixels[1], { steps: 4 });
  await page.mouse.up();
  await settle(page);
  d = await cat();
  assert.ok(
    Math.abs(d.qm[0] - target[0]) < 0.02 && Math.abs(d.qm[1] - target[1]) < 0.02,
    `dragged query tip ${d.qm} should be at ${target}`,
  );
  want = refCat(d);
  near(d.direct, want[C.ROPE_CAT_DIRECT], 'score after the drag');
  near(d.qm[0], want[C.ROPE_CAT_QM0], 'rotated query after the drag');
  assert.ok(Math.abs(d.after - want[C.ROPE_CAT_AFTER]) < 1e-9, 'angle after the drag');
  const label = await page.textContent('#cat-readout');
  const degrees = want[C.ROPE_CAT_AFTER_DEG].toFixed(1).replace('-', '−');
  assert.ok(label.includes(`angle ${degrees}°`), `readout ${label} shows the angle ${degrees}°`);

  // Keyboard: K picks the key, ← turns it anticlockwise by 0.05 rad.
  const before = d;
  await page.focus('#chart-cat');
  await page.keyboard.press('k');
  await page.keyboard.press('ArrowLeft');
  await settle(page);
  d = await cat();
  want = refCat(d);
  const turned = reference([['cat', [...before.kn, 0, 0, 1, 0, 0.05]]]).results[0];
  near(d.kn[0], turned[C.ROPE_CAT_QM0], 'key tip turned by 0.05 rad, x');
  near(d.kn[1], turned[C.ROPE_CAT_QM1], 'key tip turned by 0.05 rad, y');
  near(d.direct, want[C.ROPE_CAT_DIRECT], 'score after the key turned');

  // Slide both words: positions move together, the RoPE score stays, the additive one moves.
  await page.click('#cat-reset');
  await settle(page);
  const start = await cat();
  const seen = [];
  await page.exposeFunction('__seen', (x) => {
    seen.push(x);
  });
  await page.evaluate(() => {
    const chart = window.Chart.getChart(document.getElementById('chart-cat'));
    const draw = chart.draw.bind(chart);
    chart.draw = () => {
      window.__seen([chart.$cat.m, chart.$cat.n, chart.$cat.direct, chart.$cat.added]);
      draw();
    };
  });
  await page.click('#cat-slide');
  await page.waitForFunction(() => window.Chart.getChart(document.getElementById('chart-cat')).$cat.m === 43, null, {
    timeout: 10000,
  });
  await settle(page);
  assert.ok(seen.length >= 10, `the slide drew ${seen.length} frames`);
  const calls = seen.map(([m, n]) => ['cat', [0.9, 0.4, 0.9, 0.4, m, n, 0.1]]);
  const refs = reference(calls).results;
  seen.forEach(([m, n, direct, added], j) => {
    assert.equal(m - n, -4, 'the gap is kept while sliding');
    near(direct, refs[j][C.ROPE_CAT_DIRECT], `score at ${m}, ${n}`);
    near(added, refs[j][C.ROPE_CAT_ADDED], `additive score at ${m}, ${n}`);
    assert.equal(direct.toFixed(4), '0.8934');
  });
  const end = await cat();
  assert.ok(Math.abs(end.added - start.added) > 0.05, `additive score moves: ${start.added} -> ${end.added}`);
  assert.match(await page.textContent('#cat-readout'), /RoPE score 0\.8934.*slid by 40/);
  await p.close();
});

test('clock_should_show_the_post_angles_and_both_fixes', async () => {
  const { p, page } = await openAt(env, '', 'clock');
  const clock = () =>
    chartOf(
      page,
      'clock',
      'const d = chart.$clock; return { gap: d.gap, train: d.train, inside: d.inside, rebase: d.rebase, fast: d.fast };',
    );
  let d = await clock();
  let [gap, train, rebase] = reference([
    ['clock_theta', [0.0001, 50000, 1]],
    ['clock_theta', [0.0001, 8192, 1]],
    ['rebase', [255, 512, 10000, 500000, 50000, 8192]],
  ]).results;
  near(d.gap.dial, gap[C.ROPE_CLOCK_DIAL], 'slow pair at gap 50,000');
  near(d.train.degrees, train[C.ROPE_CLOCK_DEGREES], 'slow pair swept in training');
  assert.equal(d.inside, false);
  assert.equal(d.train.degrees.toFixed(1), '46.9');
  near(d.rebase.gap_old, rebase[C.ROPE_REBASE_GAP_OLD], 'base 10000 at gap 50,000');
  near(d.rebase.gap_new, rebase[C.ROPE_REBASE_GAP_NEW], 'base 500000 at gap 50,000');
  assert.match(
    await page.textContent('#clock-readout'),
    /it has turned 297\.0° at base 10000 \(outside\) and 6\.0° at base 500000 \(inside\), against 48\.7°/,
  );
  await page.check('#clock-divide');
  await settle(page);
  d = await clock();
  [gap] = reference([['clock_theta', [0.0001, 50000, 8]]]).results;
  near(d.gap.degrees, gap[C.ROPE_CLOCK_DEGREES], 'divided by 8');
  assert.equal(d.gap.degrees.toFixed(1), '35.8');
  assert.equal(d.inside, true);
  await page.uncheck('#clock-divide');
  await page.check('#clock-base');
  const g = pick(1000, 100000);
  await setNumber(page, 'clock-gap', g);
  d = await clock();
  [gap, , rebase] = reference([
    ['clock', [255, 512, 500000, g, 1]],
    ['clock', [255, 512, 500000, 8192, 1]],
    ['rebase', [255, 512, 10000, 500000, g, 8192]],
  ]).results;
  near(d.gap.dial, gap[C.ROPE_CLOCK_DIAL], `base 500000 at gap ${g}`);
  near(d.rebase.ratio, rebase[C.ROPE_REBASE_RATIO], 'how much slower');
  [gap] = reference([['clock_theta', [0.1, g, 1]]]).results;
  near(d.fast.dial, gap[C.ROPE_CLOCK_DIAL], `fast hand at ${g}`);
  await p.close();
});

// The values a slider's box shows while the pointer drags its thumb from the left end of the
// track to the right, one pixel a move: [[x, value]] in the order the page saw them.
async function sweep(page, id) {
  const { left, right, y } = await track(page, id);
  await page.mouse.move(left, y);
  await page.mouse.down();
  await page.mouse.move(right, y, { steps: right - left });
  await page.mouse.up();
  return page.evaluate(() => window.__swept);
}

// A slider's track in whole pixels, with the page recording, from here on, each value its box
// shows on an input event beside the pointer's x (window.__swept) and the last pointer x
// (window.__pointerX).
async function track(page, id) {
  const r = await page.locator(`#${id}`).boundingBox();
  await page.evaluate((name) => {
    window.__swept = [];
    window.__pointerX = null;
    document.addEventListener('pointermove', (e) => {
      window.__pointerX = e.clientX;
    });
    document.getElementById(name).addEventListener('input', () => {
      window.__swept.push([window.__pointerX, Number(document.getElementById(`${name}-num`).value)]);
    });
  }, id);
  return { left: Math.floor(r.x), right: Math.ceil(r.x + r.width), y: r.y + r.height / 2 };
}

// The values `wanted` that the pointer reaches on a log slider, found with the pointer held down
// as in a drag: a drag from the left end of the track to the right end, one move every `stride`
// pixels (from a random first offset), then, for each wanted value not shown on the way, halving
// the pixels between the last one that showed less and the first that showed more until the value
// shows or the two are neighbours. Every value returned was shown in the slider's box under the
// pointer; a value missing lies between two neighbouring pixels, which only holds because the
// values grow with the pixel (checked on every pixel visited). A log slider gives most pixels a
// value of their own, so a sweep of every pixel (sweep) cost a frame for each of 644 at 1280 px,
// where this visits about 100.
async function reach(page, id, wanted, stride) {
  const { left, right, y } = await track(page, id);
  const shown = new Map(); // x -> the value in the box with the pointer at x
  const at = async (x) => {
    await page.mouse.move(x, y);
    // The box is set by the input event of the move that put the pointer at x, if it changed.
    const read = () =>
      page.evaluate(
        ([name, px]) => (window.__pointerX === px ? Number(document.getElementById(`${name}-num`).value) : null),
        [id, x],
      );
    let value = await read();
    if (value === null) {
      await page.waitForFunction((px) => window.__pointerX === px, x, { timeout: 10000 });
      value = await read();
    }
    shown.set(x, value);
    return value;
  };
  const first = left + Math.floor(random() * stride);
  await page.mouse.move(left, y);
  await page.mouse.down();
  await at(left);
  for (let x = first; x < right; x += stride) if (x > left) await at(x);
  await at(right);
  for (const v of wanted) {
    if ([...shown.values()].includes(v)) continue;
    const xs = [...shown.keys()].sort((a, b) => a - b);
    let lo = xs.findLast((x) => shown.get(x) < v);
    let hi = xs.find((x) => shown.get(x) > v);
    if (lo === undefined || hi === undefined || hi < lo) continue; // past an end: not reached
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      const m = await at(mid);
      if (m === v) break;
      if (m < v) lo = mid;
      else hi = mid;
    }
  }
  await page.mouse.up();
  const xs = [...shown.keys()].sort((a, b) => a - b);
  for (let j = 1; j < xs.length; j++)
    assert.ok(
      shown.get(xs[j]) >= shown.get(xs[j - 1]),
      `#${id}: ${shown.get(xs[j - 1])} at ${xs[j - 1]} px, then ${shown.get(xs[j])} at ${xs[j]} px`,
    );
  return new Set(shown.values());
}

// Slots 1 … 10 and the post's values are reachable on the chapters' wide sliders by pointer
// (with − and + where a pixel spans many values) and by keyboard; the cat's positions move at
// most one a 2 px, at the desktop and the phone width. The log sliders' values are found by
// reach (a drag one move every STRIDE pixels, then halving towards each value); the cat's slider,
// whose test reads every change of value, is swept pixel by pixel.
const STRIDE = 16;
for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`chapter_sliders_should_reach_the_posts_values_by_pointer_and_keyboard_at_${viewport.width}px`, async () => {
    const { p, page } = await openAt(env, '', 'cat');
    await page.setViewportSize(viewport);
    await settle(page);
    for (const id of ['slot-slot', 'cat-m', 'extrapolate-pos']) await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await page.locator('#slot-slot').scrollIntoViewIfNeeded();
    const slots = await reach(page, 'slot-slot', [...Array(11).keys(), 5, 50000], STRIDE);
    for (let s = 0; s <= 10; s++) assert.ok(slots.has(s), `slot ${s} under the pointer (${viewport.width}px)`);
    for (const s of [5, 50000]) assert.ok(slots.has(s), `slot ${s} under the pointer`);
    // Keyboard: Home, then one slot per arrow.
    await page.focus('#slot-slot');
    await page.keyboard.press('Home');
    for (let s = 1; s <= 10; s++) {
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.inputValue('#slot-slot-num'), String(s), `slot ${s} by keyboard`);
    }
    assert.match(await page.textContent('#slot-readout'), /^\[2, 1, 1, 0\] \+ 10 = \[12, 11, 11, 10\]/);

    await page.locator('#extrapolate-pos').scrollIntoViewIfNeeded();
    const POSITIONS = [3, 7, 100, 512, 3000, 10000, 20000];
    const positions = await reach(page, 'extrapolate-pos', POSITIONS, STRIDE);
    for (const v of POSITIONS) assert.ok(positions.has(v), `position ${v} under the pointer`);
    // 513 is one + past 512 by pointer, one arrow by keyboard.
    await page.locator('#extrapolate-pos-num').fill('512');
    await page.locator('#extrapolate-pos-num').press('Enter');
    await page.click('#extrapolate-pos-more');
    assert.equal(await page.inputValue('#extrapolate-pos-num'), '513', '513 by the + button');
    await page.click('#extrapolate-pos-less');
    await page.focus('#extrapolate-pos');
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.inputValue('#extrapolate-pos-num'), '513', '513 by keyboard');
    await page.keyboard.press('PageUp');
    assert.ok(Number(await page.inputValue('#extrapolate-pos-num')) > 514, 'PageUp moves further');

    await page.locator('#cat-m').scrollIntoViewIfNeeded();
    const ms = await sweep(page, 'cat-m');
    for (let v = 0; v <= 60; v++)
      assert.ok(
        ms.some(([, m]) => m === v),
        `cat m ${v} under the pointer`,
      );
    // Each change of value is by one position, at least 2 px after the one before.
    for (let j = 2; j < ms.length; j++) {
      const [[x0, m0], [x1, m1]] = [ms[j - 1], ms[j]];
      assert.ok(Math.abs(m1 - m0) === 1 && x1 - x0 >= 2, `cat m ${m0} at ${x0} px, then ${m1} at ${x1} px`);
    }
    await p.close();
  });
}

// No dead controls beside the chapters: on a wide screen the settings panel shows gap, dim, base
// and Play only while a figure they drive (10, the summary, and 14–21) is within 100 px of the screen; beside
// the chapters it keeps Reset everything (which resets them) and says which figures the sliders
// drive.
test('settings_panel_should_offer_no_inert_control_beside_the_chapters', async () => {
  const { p, page } = await openLesson();
  const USERS = ['flatness', 'circle', 'terms', 'additive', 'length', 'angles', 'slow', 'decay', 'heatmap'];
  const look = () =>
    page.evaluate((users) => {
      // The summary's opening paragraph counts too: its figure follows it (app.js's BAR_USERS).
      const near = [...users.map((name) => `chart-${name}`), 'essay-flatness'].some((id) => {
        const box = document.getElementById(id).getBoundingClientRect();
        return box.bottom > -100 && box.top < window.innerHeight + 100;
      });
      const shown = (id) => document.getElementById(id).checkVisibility();
      return {
        near,
        gap: shown('gap'),
        dim: shown('dim'),
        base: shown('base'),
        play: shown('play'),
        reset: shown('reset'),
        note: shown('panel-away'),
      };
    }, USERS);
  const settled = (want) =>
    page.waitForFunction((away) => document.body.classList.contains('bar-away') === away, want, { timeout: 15000 });
  for (const name of ['flatness', ...CHAPTERS, 'terms', 'heatmap']) {
    await page.evaluate((n) => document.getElementById(`fig-${n}`).scrollIntoView(), name);
    await settle(page);
    const { near } = await look();
    await settled(!near);
    const v = await look();
    if (!['order', 'planes', 'post'].includes(name) && CHAPTERS.includes(name))
      assert.equal(v.near, false, `${name}: no figure driven by the sliders near`);
    for (const id of ['gap', 'dim', 'base', 'play'])
      assert.equal(v[id], v.near, `${name}: #${id} shown ${v[id]}, a figure it drives near: ${v.near}`);
    assert.equal(v.note, !v.near, `${name}: the note`);
    assert.equal(v.reset, true, `${name}: Reset everything`);
  }
  assert.match(await page.textContent('#panel-away'), /^Gap, dim and base drive figures 10, 14–21; /);
  await p.close();
});

// No control of a chapter is inert: moving any slider, typing a new value in any box, ticking any
// box or pressing any button of a chapter changes something the reader sees beside it (its chart,
// caption, readout or prose), not only the control itself.
test('every_chapter_control_should_change_what_its_chapter_shows', async () => {
  const { p, page } = await openLesson();
  const controls = await page.evaluate((names) => {
    const ids = [];
    for (const name of names) {
      for (const el of document.querySelectorAll(`#fig-${name} .chapter-controls :is(input, button)`)) {
        if (!el.closest('.chapter-link-row')) ids.push([name, el.id, el.tagName === 'BUTTON' ? 'button' : el.type]);
      }
    }
    return ids;
  }, CHAPTERS);
  assert.ok(controls.length > 40, `the chapters' controls: ${controls.length}`);
  // What the reader sees of a chapter, its controls' own values left out.
  const shown = (name) =>
    page.evaluate((n) => {
      const chart = window.Chart.getChart(document.getElementById(`chart-${n}`));
      return JSON.stringify({
        text: document.getElementById(`fig-${n}`).innerText,
        essay: document.getElementById(`essay-${n}`)?.innerText ?? '',
        data: chart.data.datasets.map((d) => d.data),
        labels: chart.data.labels,
        // A chart drawn by a plugin from its own data (the marks' cells) shows a change in its scales.
        scales: Object.values(chart.scales).map((scale) => [scale.min, scale.max]),
      });
    }, name);
  const inert = [];
  for (const [name, id, type] of controls) {
    const control = page.locator(`#${id}`);
    await control.scrollIntoViewIfNeeded();
    const before = await shown(name);
    let how;
    if (type === 'range') {
      const { min, max, value } = await control.evaluate((r) => ({ min: +r.min, max: +r.max, value: +r.value }));
      let to = min + random() * (max - min);
      if (Math.abs(to - value) < (max - min) / 4) to = value - min > max - value ? min : max;
      how = `slid to ${to}`;
      await control.evaluate((r, v) => {
        r.value = String(v);
        r.dispatchEvent(new Event('input', { bubbles: true }));
        r.dispatchEvent(new Event('change', { bubbles: true }));
      }, to);
    } else if (type === 'text') {
      const value = await control.inputValue();
      const parts = value.split(',').map((x) => Number(x.trim()));
      const step = random() < 0.5 ? 1 : -1;
      let next = [parts[0] + step, ...parts.slice(1)].join(', ');
      await page.fill(`#${id}`, next);
      await page.press(`#${id}`, 'Enter');
      if ((await control.getAttribute('aria-invalid')) === 'true') {
        next = [parts[0] - step, ...parts.slice(1)].join(', ');
        await page.fill(`#${id}`, next);
        await page.press(`#${id}`, 'Enter');
      }
      how = `typed ${next} for ${value}`;
    } else if (await control.isDisabled()) {
      continue; // a − or + at its end of the range, off while there
    } else {
      how = type === 'checkbox' ? 'ticked' : 'pressed';
      await control.click();
    }
    // An animation (slide both words) shows its first frames, then is stopped.
    await settle(page);
    await settle(page);
    const after = await shown(name);
    if (after === before) inert.push(`${id} ${how}`);
    if ((await control.getAttribute('aria-pressed')) === 'true') await control.click();
    await settle(page);
  }
  console.log(`every chapter control moved: ${controls.length} (ROPE_TEST_SEED=${SEED})`);
  assert.deepEqual(inert, [], `controls that changed nothing the reader sees (ROPE_TEST_SEED=${SEED})`);
  await p.close();
});

// Figure 3's caption at slot 0 and small slots, and figure 5's outline only at the post's width.
// A chapter built but with no chart yet (above the screen, out of reach of the charts made as the
// reader nears them) takes a new value all the same: its caption says it at once, and its chart,
// made when it comes near, draws it, not the page's last render.
test('chapter_without_its_chart_yet_should_caption_and_then_draw_a_value_set_meanwhile', async () => {
  const { p, page } = await openAt(env, '', 'marks');
  const before = await page.evaluate(() => {
    const made = Boolean(window.Chart.getChart(document.getElementById('chart-slot')));
    const box = document.getElementById('slot-slot-num');
    box.value = '0';
    box.dispatchEvent(new Event('change'));
    return { made, caption: document.getElementById('caption-slot').textContent };
  });
  assert.equal(before.made, false, 'the slot chapter, above the screen, has no chart yet');
  assert.match(before.caption, /^At slot 0 nothing is added: the stick is the word itself, \[2, 1, 1, 0\]\./);
  await page.locator('#chart-slot').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.Chart.getChart(document.getElementById('chart-slot')), null, {
    timeout: 15000,
  });
  const drawn = await chartOf(page, 'slot', 'return chart.data.datasets.map((d) => [...d.data]);');
  assert.deepEqual(drawn, [
    [2, 1, 1, 0],
    [2, 1, 1, 0],
  ]);
  await p.close();
});

test('slot_and_marks_captions_should_say_only_what_the_chart_shows', async () => {
  const { p, page } = await openAt(env, '', 'marks');
  await setNumber(page, 'slot-slot', 0);
  let caption = await page.textContent('#caption-slot');
  assert.match(caption, /^At slot 0 nothing is added: the stick is the word itself, \[2, 1, 1, 0\]\. The post’s cases/);
  await setNumber(page, 'slot-slot', 1);
  caption = await page.textContent('#caption-slot');
  assert.match(
    caption,
    /^At slot 1 the stick is \[3, 2, 2, 1\]\..* the sum leans towards \[1, 1, 1, 1\] \(cosine 0\.9428/,
  );
  await setNumber(page, 'slot-slot', 5);
  assert.match(await page.textContent('#caption-slot'), /points almost straight along \[1, 1, 1, 1\] \(cosine 0\.99/);
  // The outlines the marks chart draws: strokeRect calls of one redraw.
  const outlines = () =>
    chartOf(
      page,
      'marks',
      `const ctx = chart.ctx, rects = [];
       const stroke = ctx.strokeRect;
       ctx.strokeRect = function (...a) { rects.push(a); return stroke.apply(this, a); };
       try { chart.draw(); } finally { delete ctx.strokeRect; }
       return rects.length;`,
    );
  assert.equal(await outlines(), 2, 'positions 3 and 4 outlined at width 4');
  await setNumber(page, 'marks-width', 16);
  assert.equal(await outlines(), 0, 'no outline at width 16');
  assert.match(await page.textContent('#caption-marks'), /\(outlined at width 4\): different in every dimension/);
  await setNumber(page, 'marks-width', 4);
  assert.match(await page.textContent('#caption-marks'), /\(outlined\): different in every dimension/);
  await p.close();
});

// "Slide both words" stops when pressed again, where the words are; "back to the post's cat"
// during a slide wins (the words end at 3 and 7, not where the slide would have taken them);
// under prefers-reduced-motion a slide is one step.
test('cat_slide_should_stop_on_request_and_lose_to_a_reset', async () => {
  const { p, page } = await openAt(env, '', 'cat');
  const at = () => chartOf(page, 'cat', 'return [chart.$cat.m, chart.$cat.n];');
  const moved = () =>
    page.waitForFunction(() => window.Chart.getChart(document.getElementById('chart-cat')).$cat.m > 3, null, {
      timeout: 15000,
    });
  // Slow frames so the slide is still running when the test acts.
  await page.evaluate(() => {
    window.requestAnimationFrame = (f) => setTimeout(() => f(performance.now()), 50);
    window.cancelAnimationFrame = (id) => clearTimeout(id);
  });
  await page.click('#cat-slide');
  await moved();
  assert.equal(await page.getAttribute('#cat-slide', 'aria-pressed'), 'true');
  assert.equal(await page.textContent('#cat-slide'), 'stop sliding');
  await page.click('#cat-slide');
  const stopped = await at();
  assert.equal(await page.getAttribute('#cat-slide', 'aria-pressed'), 'false');
  await page.waitForTimeout(600);
  assert.deepEqual(await at(), stopped, 'no frame after the stop');
  assert.ok(stopped[0] > 3 && stopped[0] < 43, `stopped part way: ${stopped}`);
  assert.equal(stopped[0] - stopped[1], -4);

  await page.click('#cat-reset');
  await page.click('#cat-slide');
  await moved();
  await page.click('#cat-reset');
  await page.waitForTimeout(600);
  assert.deepEqual(await at(), [3, 7], 'the reset wins over the slide');
  assert.equal(await page.getAttribute('#cat-slide', 'aria-pressed'), 'false');
  assert.ok(!(await page.textContent('#cat-readout')).includes('slid by'), 'the readout is the post’s cat again');

  await page.emulateMedia({ reducedMotion: 'reduce' });
  const frames = [];
  await page.exposeFunction('__frame', (m) => frames.push(m));
  await page.evaluate(() => {
    const chart = window.Chart.getChart(document.getElementById('chart-cat'));
    const draw = chart.draw.bind(chart);
    chart.draw = () => {
      window.__frame(chart.$cat.m);
      draw();
    };
  });
  await page.click('#cat-slide');
  await page.waitForFunction(() => window.Chart.getChart(document.getElementById('chart-cat')).$cat.m === 43, null, {
    timeout: 15000,
  });
  await settle(page);
  assert.deepEqual([...new Set(frames)], [43], `one step under reduced motion: ${frames}`);
  await p.close();
});

// Every chapter's state is in its link: random inputs of random chapters (seeded), copied with
// "link to this", open in a new page with every chapter's caption and boxes as they were, at
// the chapter's anchor; "Reset everything" brings every chapter back to its defaults.
test('chapter_link_should_restore_every_chapter_and_reset_should_restore_defaults', async () => {
  const { p, page } = await openLesson();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const captions = (on) => Promise.all(CHAPTERS.map((name) => on.textContent(`#caption-${name}`)));
  const boxes = (on) =>
    on.evaluate(() =>
      Object.fromEntries(
        [...document.querySelectorAll('.chapter-controls input')].map((i) => [
          i.id,
          i.type === 'checkbox' ? i.checked : i.value,
        ]),
      ),
    );
  const fresh = await captions(page);
  const freshBoxes = await boxes(page);
  // A random subset of the chapters' typed inputs, each at a random value in its range.
  const choices = [
    ['slot-slot', () => pick(0, 50000)],
    ['extrapolate-pos', () => pick(0, 20000)],
    ['marks-count', () => pick(5, 64)],
    ['identity-a', () => pick(0, 1000)],
    ['cat-m', () => pick(0, 1000)],
    ['proof-n', () => pick(0, 1000)],
    ['planes-seed', () => pick(0, 1000)],
    ['clock-gap', () => pick(0, 1000000)],
    ['weights-train', () => pick(1, 20000)],
    ['normalized-length', () => pick(512, 8192)],
  ].filter(() => random() < 0.6);
  const set = {};
  for (const [id, value] of choices) {
    set[id] = value();
    await setNumber(page, id, set[id]);
  }
  if (random() < 0.5) {
    await page.check('#clock-divide');
    set['clock-divide'] = true;
  }
  const what = `inputs ${JSON.stringify(set)} (ROPE_TEST_SEED=${SEED})`;
  const shown = await captions(page);
  const shownBoxes = await boxes(page);
  await page.click('#slot-link');
  await page.waitForFunction(() => document.getElementById('slot-link-msg').textContent.startsWith('Copied'));
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(link, await page.getAttribute('#slot-link', 'href'), 'the copied link is the one shown');
  assert.ok(link.endsWith('#fig-slot'), `the link opens at its chapter: ${link}`);
  for (const [id, value] of Object.entries(set)) {
    if (typeof value === 'number' && freshBoxes[`${id}-num`] !== String(value)) {
      const [chapter, ...key] = id.split('-');
      assert.ok(new URL(link).searchParams.get(`${chapter}.${key.join('-')}`) === String(value), `${what}: ${link}`);
    }
  }
  // Open it in a new page: the same captions and boxes everywhere.
  const second = await openReady(env, link.slice(link.indexOf('?'), link.indexOf('#')), ['flatness']);
  await second.page.waitForFunction(
    (names) => names.every((n) => window.Chart.getChart(document.getElementById(`chart-${n}`))),
    CHAPTERS,
    { timeout: 15000 },
  );
  assert.deepEqual(await captions(second.page), shown, `${what}: captions after the link`);
  assert.deepEqual(await boxes(second.page), shownBoxes, `${what}: inputs after the link`);
  assert.equal(await second.page.textContent('#notice').catch(() => ''), '', 'the link reads with no notice');
  // Reset everything: every chapter at its defaults, the address without chapter inputs.
  await second.page.click('#reset');
  await settle(second.page);
  assert.deepEqual(await captions(second.page), fresh, `${what}: captions after Reset everything`);
  assert.deepEqual(await boxes(second.page), freshBoxes, `${what}: inputs after Reset everything`);
  await second.page.waitForFunction(() => !window.ropescope.urlPending());
  const after = await second.page.evaluate(() => window.location.search);
  assert.ok(!/\w\.\w+=/.test(decodeURIComponent(after)), `no chapter input left in ${after}`);
  await second.p.close();
  await p.close();
});

// Back and Forward: each settled change (a slider let go, a box committed) is one entry of the
// history; going back and forth sets every chapter's inputs, the drawn readouts and captions and
// the page's settings as they were, and adds no entry.
test('back_and_forward_should_bring_back_each_settled_state_of_the_chapters', async () => {
  const { p, page } = await openLesson();
  // The chapters' boxes, captions, readouts and prose, and the panel's gap: what a reader sees.
  const seen = () =>
    page.evaluate((names) => {
      const text = (id) => document.getElementById(id)?.textContent ?? '';
      return {
        boxes: Object.fromEntries(
          [...document.querySelectorAll('.chapter-controls input')].map((i) => [i.id, i.value]),
        ),
        captions: names.map((name) => text(`caption-${name}`)),
        readouts: [...document.querySelectorAll('.chapter-readout')].map((node) => node.textContent),
        prose: names.map((name) => text(`essay-${name}`)),
        gap: document.getElementById('gap-num').value,
        search: window.location.search,
      };
    }, CHAPTERS);
  const entries = () => page.evaluate(() => window.history.length);
  // A state the reader could not see mid-change: the address is written only once a frame allows.
  const steady = async () => {
    await settle(page);
    await page.waitForFunction(() => !window.ropescope.urlPending());
  };
  const states = [await seen()];
  const start = await entries();
  // Three settled changes: one chapter's log slider dragged with the mouse, another's box typed,
  // then the panel's gap.
  // Dragged to a point between 30 % and 60 % of the track: far from either default (slot 5, gap
  // 50,000) and from the marks the thumb snaps to.
  const slot = pick(0, 1);
  const range = page.locator(slot ? '#slot-slot' : '#clock-gap');
  await range.scrollIntoViewIfNeeded();
  const box = await range.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * (0.3 + 0.3 * random()), box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await steady();
  states.push(await seen());
  const cat = pick(0, 1000);
  await setNumber(page, 'cat-m', cat === 3 ? 4 : cat);
  await steady();
  states.push(await seen());
  const gap = pick(3, 100000);
  await page.locator('#fig-flatness').scrollIntoViewIfNeeded();
  await setNumber(page, 'gap', gap);
  await steady();
  states.push(await seen());
  const what = `${slot ? 'slot' : 'clock gap'} dragged, cat m ${cat}, gap ${gap} (ROPE_TEST_SEED=${SEED})`;
  for (let i = 1; i < states.length; i++) {
    assert.notEqual(states[i].search, states[i - 1].search, `${what}: change ${i} reached the address`);
  }
  assert.equal(await entries(), start + 3, `${what}: one history entry per settled change`);
  const expect = async (i, how) => {
    await steady();
    const now = await seen();
    for (const key of Object.keys(now)) assert.deepEqual(now[key], states[i][key], `${what}: after ${how}, ${key}`);
    assert.equal(await entries(), start + 3, `${what}: ${how} adds no entry`);
  };
  await page.goBack();
  await expect(2, 'Back');
  await page.goBack();
  await expect(1, 'Back, Back');
  await page.goBack();
  await expect(0, 'Back three times');
  await page.goForward();
  await expect(1, 'then Forward');
  await page.goForward();
  await page.goForward();
  await expect(3, 'Forward to the last');
  await p.close();
});

// The clock's caption, readout and drawing and the weights chapter's counts judge a gap by one rule
// (inside: an angle no larger, unwrapped, than the largest training reached, or any angle once
// training swept a whole turn), checked here against the rule itself at random gaps past many turns.
test('clock_and_weights_should_agree_on_the_training_range_at_random_gaps', async () => {
  const { p, page } = await openAt(env, '', 'weights');
  const TRAIN = 8192;
  const verdict = (text, pattern, what) => {
    const found = text.match(pattern);
    assert.ok(found, `${what}: ${text}`);
    return found[1] === 'inside';
  };
  // What the clock drew: the dot's fill colour (the slow hand's, the only rope or additive fill)
  // and the texts it wrote, from one redraw with the canvas calls recorded.
  const drawn = () =>
    chartOf(
      page,
      'clock',
      `const ctx = chart.ctx, fills = [], texts = [];
       const fill = ctx.fill, fillText = ctx.fillText;
       ctx.fill = function (...a) { fills.push(this.fillStyle); return fill.apply(this, a); };
       ctx.fillText = function (t, ...a) { texts.push(t); return fillText.call(this, t, ...a); };
       try { chart.draw(); } finally { delete ctx.fill; delete ctx.fillText; }
       const css = getComputedStyle(document.documentElement), probe = document.createElement('canvas').getContext('2d');
       const norm = (v) => { probe.fillStyle = v.trim(); return probe.fillStyle; };
       const rope = norm(css.getPropertyValue('--c-rope')), add = norm(css.getPropertyValue('--c-add'));
       const dots = fills.filter((f) => f === rope || f === add);
       return { inside: dots.length === 1 && dots[0] === rope, dots: dots.length, texts };`,
    );
  const gaps = [62000, 70000, ...Array.from({ length: 6 }, () => Math.floor(10 ** (6 * random())))];
  // Every gap's reference values from one Python process (seven calls a gap).
  const calls = (g) => [
    ['clock_theta', [0.0001, g, 1]],
    ['clock_theta', [0.0001, TRAIN, 1]],
    ['clock', [255, 512, 10000, g, 1]],
    ['clock', [255, 512, 500000, g, 1]],
    ['clock', [255, 512, 10000, TRAIN, 1]],
    ['weights', [255, 512, 10000, 500000, TRAIN, g]],
    ['weights', [255, 512, 10000, 500000, TRAIN, Math.max(g - 1, 0)]],
  ];
  const all = reference(gaps.flatMap(calls)).results;
  for (const [k, g] of gaps.entries()) {
    const what = `gap ${g} (ROPE_TEST_SEED=${SEED})`;
    const [slow, trained, oldAt, newAt, oldTrained, upTo, below] = all.slice(7 * k, 7 * k + 7);
    const rule = (at, train) =>
      train[C.ROPE_CLOCK_TURNS] >= 1 || at[C.ROPE_CLOCK_RADIANS] <= train[C.ROPE_CLOCK_RADIANS] * (1 + 1e-9);
    const turns = Math.floor(slow[C.ROPE_CLOCK_TURNS]);
    await page.uncheck('#clock-base');
    await setNumber(page, 'clock-gap', g);
    const want = rule(slow, trained);
    const caption = await page.textContent('#caption-clock');
    assert.equal(verdict(caption, /^The dot is (inside|outside) the training range/, what), want, `${what}: caption`);
    if (turns >= 1) assert.ok(caption.includes(`${turns} whole turn`), `${what}: caption names the turns: ${caption}`);
    const picture = await drawn();
    assert.equal(picture.dots, 1, `${what}: one dot drawn`);
    assert.equal(picture.inside, want, `${what}: the dot's colour`);
    const mark = `+${turns} turn${turns === 1 ? '' : 's'}`;
    assert.equal(picture.texts.includes(mark), turns >= 1, `${what}: ${mark} drawn: ${picture.texts}`);
    const readout = await page.textContent('#clock-readout');
    const before = verdict(readout, /at base 10000 \((inside|outside)/, `${what}: readout`);
    const after = verdict(readout, /at base 500000 \((inside|outside)/, `${what}: readout`);
    assert.equal(before, rule(oldAt, oldTrained), `${what}: readout at base 10000`);
    assert.equal(after, rule(newAt, oldTrained), `${what}: readout at base 500000`);
    assert.equal(before, want, `${what}: the round θ and pair 255 agree at the old base`);
    await page.check('#clock-base');
    await settle(page);
    const rebased = await page.textContent('#caption-clock');
    assert.equal(verdict(rebased, /^The dot is (inside|outside)/, what), after, `${what}: caption with base 500000`);
    assert.equal((await drawn()).inside, after, `${what}: the dot with base 500000`);
    // Figure 12 up to this gap: the gap is counted inside exactly when the clock says so.
    await setNumber(page, 'weights-widest', g);
    const counts = await page.textContent('#weights-readout');
    assert.equal(
      verdict(counts, /\((inside|outside)[^)]*\) before/, what),
      before,
      `${what}: weights before: ${counts}`,
    );
    assert.equal(verdict(counts, /\((inside|outside)[^)]*\) after/, what), after, `${what}: weights after`);
    const I = (name) => C[`ROPE_WEIGHTS_${name}`];
    const counted = (slot) => (g === 0 ? upTo[I(slot)] === 1 : upTo[I(slot)] - below[I(slot)] === 1);
    assert.equal(counted('INSIDE_OLD'), before, `${what}: counted inside at base 10000`);
    assert.equal(counted('INSIDE_NEW'), after, `${what}: counted inside at base 500000`);
    const grouped = (x) => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    assert.ok(counts.includes(`${grouped(upTo[I('INSIDE_OLD')])} land inside`), `${what}: ${counts}`);
  }
  await p.close();
});

test('weights_should_lift_the_angle_share_but_never_the_share_training_had', async () => {
  const { p, page } = await openAt(env, '', 'weights');
  const W = (name) => C[`ROPE_WEIGHTS_${name}`];
  const pct = (share) => `${Number((100 * share).toPrecision(3))}%`;
  // The chart's two datasets (before, after) against the reference, as percentages.
  async function check(widest, base, train, what) {
    const [want] = reference([['weights', [255, 512, 10000, base, train, widest]]]).results;
    const [before, after] = await datasets(page, 'weights');
    near(before[0], 100 * want[W('SHARE_OLD')], `${what}: angle share before`);
    near(after[0], 100 * want[W('SHARE_NEW')], `${what}: angle share after`);
    near(before[1], 100 * want[W('SHARE_SEEN')], `${what}: share seen in training, before`);
    near(after[1], 100 * want[W('SHARE_SEEN')], `${what}: share seen in training, after`);
    const caption = await page.textContent('#caption-weights');
    for (const slot of ['SHARE_OLD', 'SHARE_NEW', 'SHARE_SEEN']) {
      assert.ok(caption.includes(pct(want[W(slot)])), `${what}: caption shows ${pct(want[W(slot)])}: ${caption}`);
    }
    const label = await page.getAttribute('#chart-weights', 'aria-label');
    assert.ok(label.includes(pct(want[W('SHARE_NEW')])), `${what}: label ${label}`);
    const counts = await page.textContent('#weights-readout');
    const grouped = (x) => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    assert.ok(
      counts.includes(`${grouped(want[W('INSIDE_OLD')])} land inside`) &&
        counts.includes(`and ${grouped(want[W('INSIDE_NEW')])} at base ${grouped(base)}`) &&
        counts.includes(`only ${grouped(want[W('SEEN')])} fit in a training sequence`),
      `${what}: readout ${counts}`,
    );
    return want;
  }
  // The post's case: 16.4% of the gaps up to 50,000 before, all of them after; 16.4% seen either way.
  let want = await check(50000, 500000, 8192, 'defaults');
  assert.equal((100 * want[W('SHARE_OLD')]).toFixed(1), '16.4');
  assert.equal(want[W('SHARE_NEW')], 1);
  assert.match(await page.textContent('#caption-weights'), /^The raised base lifts the first pair of bars/);
  assert.match(await page.textContent('#weights-text'), /800 ÷ 10 = 80, is the post’s “80× cheaper” ✓/);

  // Move the slider (a random widest gap past one turn of the pair) and type a random base.
  // (The log slider's thumb past position 805 of 1000 is past 60,611, one turn at base 10000.)
  await page.fill('#weights-widest', String(pick(830, 1000)));
  await settle(page);
  const widest = Number(await page.inputValue('#weights-widest-num'));
  assert.ok(widest > 60611 && widest <= 1e6, `widest gap ${widest} from the slider`);
  want = await check(widest, 500000, 8192, `widest gap ${widest}`);
  // Gaps whose angle whole turns bring back over the wedge are not inside: at the old base the
  // inside gaps are exactly the ones training had.
  assert.equal(want[W('INSIDE_OLD')], want[W('SEEN')], 'past a whole turn no far gap counts as inside');
  assert.match(await page.textContent('#weights-readout'), /whole turn/);
  const base = 10000 * pick(2, 1000);
  await setNumber(page, 'weights-base', base);
  await check(widest, base, 8192, `widest gap ${widest}, base ${base}`);
  const train = pick(1, 20000);
  await setNumber(page, 'weights-train', train);
  const before = await check(widest, base, train, `widest gap ${widest}, base ${base}, training ${train}`);

  // A bad value names the input's label and changes nothing.
  await setNumber(page, 'weights-base', 'lots');
  assert.equal(await page.textContent('#weights-base-msg'), 'raised base must be a number from 10000 to 10000000');
  assert.equal(await page.getAttribute('#weights-base-num', 'aria-invalid'), 'true');
  await setNumber(page, 'weights-base', 5);
  assert.match(await page.textContent('#weights-base-msg'), /^raised base must be/);
  const after = await check(widest, base, train, 'after the refused values');
  assert.deepEqual(after, before);
  await p.close();
});

test('post_table_should_list_every_number_with_its_recomputed_value_and_check', async () => {
  const { p, page } = await openAt(env, '', 'post');
  const rows = await page.$$eval('#post-checked tbody tr', (trs) =>
    trs.map((tr) => ({
      id: tr.id,
      cells: [...tr.cells].map((td) => td.textContent),
      link: tr.querySelector('a')?.getAttribute('href') ?? null,
    })),
  );
  const { post } = reference([]);
  const minus = (x) => x.replace('-', '−');
  assert.equal(rows.length, post.length + 2, 'every reference row and the two 512-dimension scores');
  for (const [j, [rid, chapter, printed, decimals, value, matches]] of post.entries()) {
    const row = rows[j];
    assert.equal(row.id, `post-${rid.replace(/[^a-z0-9-]/gi, '-')}`);
    assert.equal(row.cells[1], chapter, rid);
    assert.equal(row.cells[2], minus(printed.toFixed(decimals)), `${rid}: printed`);
    const shown = Number(row.cells[3].replace('−', '-'));
    assert.ok(
      Math.abs(shown - value) <= 0.51 * Number(`1e-${decimals}`) + 1e-12,
      `${rid}: recomputed ${row.cells[3]} vs ${value}`,
    );
    assert.equal(row.cells[4].startsWith('✓'), matches, `${rid}: check mark ${row.cells[4]}`);
    if (!matches) assert.ok(row.cells[4].includes(`true value ${row.cells[3]}`), rid);
    if (row.link) {
      assert.equal(row.link, `#fig-${chapter}`);
      assert.ok(await page.$(row.link), `${rid} links to an existing figure`);
    }
  }
  for (const [j, [m, n]] of [
    [3, 7],
    [10, 14],
  ].entries()) {
    const row = rows[post.length + j];
    const truth = numpyPlanes(42, m, n);
    assert.equal(row.cells[2], '22.3814');
    assert.equal(row.cells[3], truth.toFixed(4));
    assert.ok(row.cells[4].startsWith('✗'));
  }
  // Every point is inside the drawn axis, the farthest slip (the 512-dimension score) included.
  const drawn = await chartOf(
    page,
    'post',
    'return { max: chart.scales.y.max, ys: chart.data.datasets.flatMap((d) => d.data.map((p) => p.y)) };',
  );
  assert.equal(drawn.ys.length, rows.length, 'one point per row');
  for (const y of drawn.ys) assert.ok(y <= drawn.max, `a point at ${y} is inside the axis (max ${drawn.max})`);
  const links = rows.filter((r) => r.link).map((r) => r.link);
  for (const name of [
    'slot',
    'normalized',
    'marks',
    'extrapolate',
    'identity',
    'cat',
    'proof',
    'planes',
    'clock',
    'weights',
  ]) {
    assert.ok(links.includes(`#fig-${name}`), `a row links to ${name}`);
  }
  await p.close();
});

// ---- the prose: every live number of a chapter's opening paragraphs is the core's ----

/** The core's value of each numeric {slot} of a chapter's prose, from the chapter's inputs. */
const PROSE = {
  order: () => {
    const r = rope.lesson_order([2, 1, 1, 0], [0, 1, 2, 1], 0);
    return { plain: r.plain.diff, added: r.added.diff, rotated: r.rotated.diff };
  },
  slot: (i) => {
    const r = rope.lesson_slot([2, 1, 1, 0], i.slot);
    return { slot: i.slot, share: 100 * r.share, ones: r.cos_pos };
  },
  normalized: (i) => ({
    train: i.train,
    slot: i.slot,
    length: i.length,
    trained: rope.lesson_normalized(i.slot, i.train),
    now: rope.lesson_normalized(i.slot, i.length),
  }),
  marks: (i) => {
    // The sub-points in plain Math: one sine repeats, sin 30° = sin 150°, speeds by a factor.
    const slowest = 10000 ** (-(i.width - 2) / i.width);
    const exp = Array.from({ length: 256 }, (_, j) => 10000 ** (-(2 * j) / 512));
    const even = exp.map((_, j) => 1 + ((exp[255] - 1) * j) / 255);
    const long = (list) => list.filter((theta) => (2 * Math.PI) / theta > 100).length;
    const deg = (x) => (x * Math.PI) / 180;
    return {
      width: i.width,
      slowest: (2 * Math.PI) / rope.thetas(i.width).at(-1),
      s0: 0,
      s6: Math.sin(6),
      s13: Math.sin(13),
      t6: 6 / (2 * Math.PI),
      t13: 13 / (2 * Math.PI),
      slow0: 0,
      slow6: Math.sin(6 * slowest),
      slow13: Math.sin(13 * slowest),
      sin30: Math.sin(deg(30)),
      sin150: Math.sin(deg(150)),
      cos30: Math.cos(deg(30)),
      cos150: Math.cos(deg(150)),
      spreadDim: 512,
      spreadPairs: 256,
      factor: exp[0] / exp[1],
      turnLength: 100,
      expLong: long(exp),
      evenLong: long(even),
    };
  },
  extrapolate: (i) => ({
    train: i.train,
    pos: i.pos,
    width: i.width,
    outside: rope.lesson_extrapolate(i.pos, i.width, i.train).outside.filter((o) => o).length,
  }),
  identity: (i) => {
    const r = rope.lesson_identity(i.a, i.b);
    return { sum: i.a + i.b, a: i.a, b: i.b, first: r.sa_cb, second: r.ca_sb, total: r.sin_sum };
  },
  cat: (i) => {
    const r = rope.lesson_cat([0.9, 0.4], [0.9, 0.4], i.m, i.n, i.theta);
    return { length: r.len_qm, m: i.m, n: i.n, theta: i.theta, angle: r.after_deg, rope: r.direct, added: r.added };
  },
  proof: (i) => {
    const r = rope.lesson_proof([i.q1, i.q2], [i.k1, i.k2], i.m, i.n, i.theta);
    return { m: i.m, n: i.n, dot: r.dot, cross: r.cross, cosTerm: r.cosTerm, sinTerm: r.sinTerm, result: r.result };
  },
  planes: (i) => ({
    dim: 512,
    pairs: 256,
    m: i.m,
    n: i.n,
    shift: i.shift,
    score: rope.planes_example(i.seed, 512, 10000, i.m, i.n).score,
    moved: rope.planes_example(i.seed, 512, 10000, i.m + i.shift, i.n + i.shift).score,
    // The post's slow pair at 3000 against its fast pair at 3: the same 0.3 rad.
    slowTheta: i.rebased ? 10000 ** (-510 / 512) : 0.0001,
    slowAt: 3000,
    slowAngle: 3000 * 0.0001,
    fastTheta: 0.1,
    fastAt: 3,
    fastAngle: 3 * 0.1,
  }),
  clock: (i) => ({
    train: i.train,
    slowTheta: i.rebased ? 10000 ** (-510 / 512) : 0.0001,
    wedge: rope.lesson_clock_theta(0.0001, i.train).degrees,
    gap: i.gap,
    dial: rope.lesson_clock_theta(0.0001, i.gap).dial,
    divide: 8,
    oldBase: 10000,
    newBase: 500000,
    turns: rope.lesson_clock_theta(0.1, i.train).turns,
  }),
  weights: (i) => {
    const r = rope.lesson_weights(255, 512, 10000, i.base, i.train, i.widest);
    return {
      gaps: r.gaps,
      widest: i.widest,
      before: r.inside_old,
      after: r.inside_new,
      oldBase: 10000,
      base: i.base,
      seen: r.seen,
      train: i.train,
    };
  },
};
// The input each chapter's test drags (a slider), or types (planes: its inputs are boxes).
const DRAGGED = {
  slot: 'slot',
  normalized: 'length',
  marks: 'width',
  extrapolate: 'pos',
  identity: 'a',
  cat: 'm',
  proof: 'n',
  clock: 'gap',
  weights: 'base',
};

/** A chapter's numeric inputs as its boxes show them, and its prose's live numbers. */
const proseOf = (page, name) =>
  page.evaluate((chapter) => {
    const inputs = {};
    for (const box of document.querySelectorAll(`#fig-${chapter} input[id$="-num"]`)) {
      inputs[box.id.slice(chapter.length + 1, -4)] = Number(box.value);
    }
    const live = [...document.querySelectorAll(`#essay-${chapter} .live`)].map((span) => ({
      slot: span.dataset.slot,
      value: span.dataset.value === undefined ? null : Number(span.dataset.value),
      text: span.textContent,
    }));
    return { inputs, live };
  }, name);

/** The number a live span shows, and the slack its rounding allows. */
function shownNumber(text) {
  const plain = text.replace(/,/g, '').replace('−', '-');
  const decimals = plain.includes('.') ? plain.split('.')[1].length : 0;
  return { value: Number(plain), slack: decimals ? 0.5 * 10 ** -decimals : 0.5 };
}

function checkProse(name, got) {
  const want = PROSE[name](got.inputs);
  const numbers = got.live.filter((span) => span.value !== null);
  assert.ok(numbers.length >= 1, `${name}: its prose has live numbers (${JSON.stringify(got.live)})`);
  for (const span of numbers) {
    const what = `${name} prose {${span.slot}} at ${JSON.stringify(got.inputs)}`;
    assert.ok(Object.hasOwn(want, span.slot), `${what}: the test knows this slot`);
    near(span.value, want[span.slot], what);
    const shown = shownNumber(span.text);
    assert.ok(
      Math.abs(shown.value - want[span.slot]) <= shown.slack + 1e-9,
      `${what}: shows “${span.text}” for ${want[span.slot]}`,
    );
  }
}

/** Drags a chapter's slider with the mouse to a random point of its track. */
async function dragSlider(page, id) {
  const range = page.locator(`#${id}`);
  await range.scrollIntoViewIfNeeded();
  const box = await range.boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(box.x + 4 + random() * (box.width - 8), y, { steps: 4 });
  await page.mouse.up();
  await settle(page);
}

test('prose_numbers_should_be_the_cores_after_a_random_drag_of_their_input', async () => {
  await rope.ready();
  const { p, page } = await openLesson();
  for (const name of Object.keys(PROSE)) {
    await page.locator(`#essay-${name}`).scrollIntoViewIfNeeded();
    checkProse(name, await proseOf(page, name));
    if (DRAGGED[name]) await dragSlider(page, `${name}-${DRAGGED[name]}`);
    else if (name === 'planes') await setNumber(page, 'planes-shift', pick(1, 10000));
    const got = await proseOf(page, name);
    console.log(`${name}: prose checked at ${JSON.stringify(got.inputs)} (ROPE_TEST_SEED=${SEED})`);
    checkProse(name, got);
  }
  await p.close();
});

test('prose_should_open_every_chapter_and_name_the_three_failures_of_added_marks', async () => {
  const { p, page } = await openLesson();
  const essays = await page.evaluate((names) => {
    const figures = [...document.querySelectorAll('#figures > *')];
    return names.map((name) => {
      const essay = document.getElementById(`essay-${name}`);
      return {
        name,
        paragraphs: essay ? essay.querySelectorAll('p').length : 0,
        before: essay ? figures.indexOf(essay) === figures.indexOf(document.getElementById(`fig-${name}`)) - 1 : false,
        text: essay?.textContent ?? '',
      };
    });
  }, Object.keys(PROSE));
  for (const { name, paragraphs, before, text } of essays) {
    assert.ok(paragraphs >= 1 && paragraphs <= 3, `${name}: one to three paragraphs (${paragraphs})`);
    assert.ok(before, `${name}: the paragraphs come right before the figure`);
    assert.doesNotMatch(text, /\{\w+\}|undefined|NaN/, `${name}: every slot filled`);
  }
  const text = Object.fromEntries(essays.map((e) => [e.name, e.text]));
  assert.match(text.marks, /first of three failures of added marks, the mixing/);
  assert.match(text.extrapolate, /^The second failure: extrapolation/);
  assert.match(text.identity, /^The third failure is the deepest/);
  await p.close();
});
