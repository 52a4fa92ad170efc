// Figure "length": the length of the query q at consecutive positions m, turned by RoPE
// (‖R(m)q‖) and with the additive mark (‖q + P[m]‖), against the Python reference
// (tests/ref/reference.py apply_rope and sin_pos, tests/ref/ref_explain.py random_vectors) on random
// settings; its caption's numbers and agreement; and the figure alone in an embed.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { PYTHON, rng, seed as testSeed } from '../lib/testlib.mjs';
import {
  assertShows,
  chartData,
  close,
  demoVectors,
  openPage,
  ROOT,
  reference,
  text,
  useServerAndBrowser,
  waitReady,
} from './harness.mjs';

const env = useServerAndBrowser();
const SEED = testSeed('length.test.mjs');
const random = rng(SEED);
const pick = (list) => list[Math.floor(random() * list.length)];
const COUNT = 256;

function randomVectors(dim, seed) {
  const run = spawnSync(PYTHON, [join(ROOT, 'tests/ref/ref_explain.py'), '--batch'], {
    input: JSON.stringify([{ fn: 'random_vectors', args: [dim, seed] }]),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`tests/ref/ref_explain.py --batch failed: ${run.stderr}`);
  return JSON.parse(run.stdout)[0];
}

const length = (v) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));

/** ‖R(m)q‖ and ‖q + P[m]‖ for m = start0 … start0 + COUNT − 1, from the reference. */
function referenceLengths(q, start0, base) {
  const positions = Array.from({ length: COUNT }, (_, i) => start0 + i);
  const out = reference(
    positions.flatMap((m) => [
      { fn: 'apply_rope', args: [q, m, base] },
      { fn: 'sin_pos', args: [m, q.length, base] },
    ]),
  );
  return {
    norm: length(q),
    rope: positions.map((_, i) => length(out[2 * i])),
    add: positions.map((_, i) => length(q.map((x, j) => x + out[2 * i + 1][j]))),
  };
}

async function openFigure(query) {
  const p = await openPage(env.browser, `${env.server.url}${query}`);
  await waitReady(p.page, ['flatness']);
  await p.page.locator('#fig-length').scrollIntoViewIfNeeded();
  await waitReady(p.page, ['length']);
  return p;
}

// Number words that disagree with their count ("1 positions", "256 position").
const BAD = [/(^|[^\d.])1 (position|pair|mark)s\b/, /(^|[^\d.])([02-9]|\d{2,}) (position|pair|mark)\b(?!s)/];

async function checkFigure(page, { q, start0, base, where }) {
  const want = referenceLengths(q, start0, base);
  const [rope, add] = (await chartData(page, 'length')).datasets.map((set) => set.data);
  for (const [name, got, expected] of [
    ['RoPE', rope, want.rope],
    ['additive', add, want.add],
  ]) {
    assert.equal(got.length, COUNT, `${name}: one point per position ${where}`);
    got.forEach((point, i) => {
      assert.equal(point.x, start0 + i, `${name}: point ${i} at position ${start0 + i} ${where}`);
      assert.ok(
        close(point.y, expected[i]),
        `${name} length at m = ${start0 + i}: expected ${expected[i]}, got ${point.y} ${where}`,
      );
    });
  }
  // A rotation keeps the length: every RoPE point is ‖q‖.
  rope.forEach((point) =>
    assert.ok(close(point.y, want.norm), `‖R(m)q‖ = ‖q‖ = ${want.norm}, got ${point.y} ${where}`),
  );
  const caption = await text(page, '#caption-length');
  const label = await page.locator('#chart-length').getAttribute('aria-label');
  assertShows(caption, want.norm, `#caption-length shows ‖q‖ ${where}`);
  assertShows(caption, Math.min(...want.add), `#caption-length shows the least additive length ${where}`);
  assertShows(caption, Math.max(...want.add), `#caption-length shows the greatest additive length ${where}`);
  const ropeSpread = Math.max(...rope.map((p) => p.y)) - Math.min(...rope.map((p) => p.y));
  assert.ok(ropeSpread < 1e-9 * want.norm, `the RoPE spread is rounding only: ${ropeSpread} ${where}`);
  for (const line of [caption, label]) {
    assert.ok(line.includes(`${start0} to ${start0 + COUNT - 1}`), `names the positions ${where}: "${line}"`);
    for (const bad of BAD) assert.doesNotMatch(line, bad, `agreement ${where}: "${line}"`);
  }
  return { caption, want };
}

test('length_chart_should_match_the_reference_for_the_demo_vectors', async () => {
  const p = await openFigure('');
  const { caption, want } = await checkFigure(p.page, {
    q: demoVectors(64)[0],
    start0: 0,
    base: 10000,
    where: '(defaults)',
  });
  console.log(
    `# defaults: ‖q‖ ${want.norm}, additive ${Math.min(...want.add)} to ${Math.max(...want.add)}\n# ${caption}`,
  );
  await p.close();
});

test('length_chart_should_match_the_reference_on_random_settings', async () => {
  for (let trial = 0; trial < 3; trial++) {
    const dim = pick([2, 6, 16, 64, 128]);
    const seed = 1 + Math.floor(random() * 4e9);
    const base = pick([10000, 500000, 1e6]);
    const from = pick([0, 2.5, Math.floor(random() * 60000), random() * 4096]);
    const to = Math.min(65536, Math.floor(from) + 1 + Math.floor(random() * 5000));
    const where = `(dim ${dim}, seed ${seed}, base ${base}, from ${from}; test seed ${SEED})`;
    const p = await openFigure(`?dim=${dim}&seed=${seed}&base=${base}&from=${from}&to=${to}`);
    const q = randomVectors(dim, seed)[0];
    await checkFigure(p.page, { q, start0: Math.ceil(from), base, where });
    await p.close();
  }
});

test('view_length_should_embed_the_figure_alone', async () => {
  const p = await openPage(env.browser, `${env.server.url}?embed=1&view=length&dim=16`);
  const { page } = p;
  await waitReady(page, ['length']);
  const shown = await page.evaluate(() =>
    [...document.querySelectorAll('figure.fig, #worked')]
      .filter((el) => el.getBoundingClientRect().height > 0)
      .map((el) => el.id),
  );
  assert.deepEqual(shown, ['fig-length'], '?embed=1&view=length shows that figure alone');
  const data = await chartData(page, 'length');
  assert.equal(data.datasets[0].data.length, COUNT, 'the embedded chart holds its data');
  await p.close();
});
