// Tests of the explainer bindings of web/src/core/rope.js (c_src/explain/explain.h in wasm):
//  - every case of build/explain_cases.json (from the independent Python
//    reference tests/ref/ref_explain.py) agrees to the contract tolerance, and is
//    bit for bit what the native build gave (build/explain_native.json);
//  - the blog's worked numbers to 4 decimals, the per-pair terms summing to
//    rope_score, the additive terms summing to add_score, heatmap cells
//    against cos(p theta_i), envelope extremes against a dense sweep;
//  - bad input throws a RangeError/TypeError naming the parameter and value.
// Randomized parts print ROPE_TEST_SEED and take it from the environment.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as rope from '../../web/src/core/rope.js';
import { close, rng, seed } from '../lib/testlib.mjs';

const cases = JSON.parse(readFileSync('build/explain_cases.json', 'utf8'));
const native = JSON.parse(readFileSync('build/explain_native.json', 'utf8'));
const SEED = seed('explain.test');
const random = rng(SEED);
const uniform = (lo, hi) => lo + (hi - lo) * random();
const vector = (d) => Array.from({ length: d }, () => uniform(-2, 2));

// The binding's result laid out flat, as the reference and the C header do.
function flat(fn, result) {
  switch (fn) {
    case 'pair_example': {
      const r = result;
      return [...r.q_m, ...r.k_n, r.angle_m, r.angle_n, r.angle_gap, r.dot, r.cross, r.direct, r.formula];
    }
    case 'pair_terms':
      return [...result.terms, ...result.dots, ...result.crosses, result.sum, result.score];
    case 'add_terms':
    case 'add_terms_sweep':
      return ['qk', 'q_pn', 'pm_k', 'pm_pn', 'total'].flatMap((key) => result[key]);
    case 'decay':
      return [...result.score, ...result.mean, ...result.bound];
    case 'cos_grid':
    case 'random_vectors':
      return result.flat();
    case 'offset_envelope':
      return ['first', 'last', 'rope_min', 'rope_max', 'add_min', 'add_max'].flatMap((key) => result[key]);
    default:
      throw new Error(`no layout for ${fn}`);
  }
}

test('explain_should_match_the_reference_and_native_on_every_case', () => {
  console.log(`cases: ROPE_TEST_SEED=${cases.seed}`);
  assert.equal(native.seed, cases.seed, 'native results come from another seed');
  const problems = [];
  cases.cases.forEach((c, index) => {
    const got = flat(c.fn, rope[c.fn](...c.args));
    const exact = c.fn === 'random_vectors';
    if (got.length !== c.expect.length) {
      problems.push(`case ${index} ${c.fn}: ${got.length} values, expected ${c.expect.length}`);
      return;
    }
    got.forEach((g, j) => {
      const ok = exact ? Object.is(g, c.expect[j]) : close(g, c.expect[j]);
      if (!ok) problems.push(`case ${index} ${c.fn}[${j}]: ${g} vs reference ${c.expect[j]}`);
      const n = native.results[index];
      if (n && !Object.is(g, n[j])) problems.push(`case ${index} ${c.fn}[${j}]: wasm ${g} vs native ${n[j]}`);
    });
  });
  assert.ok(cases.cases.length >= 200);
  assert.deepEqual(problems.slice(0, 10), [], `${problems.length} problems`);
});

test('pair_example_should_give_the_blog_numbers', () => {
  const cat = [0.9, 0.4];
  for (const [m, n] of [
    [3, 7],
    [10, 14],
  ]) {
    const r = rope.pair_example(cat, cat, m, n, 0.1);
    assert.equal(r.direct.toFixed(4), '0.8934');
    assert.equal(r.formula.toFixed(4), '0.8934');
    assert.ok(close(r.angle_m - r.angle_n, r.angle_gap));
  }
  const r = rope.pair_example(cat, cat, 3, 7, 0.1);
  assert.deepEqual(
    [...r.q_m, ...r.k_n].map((x) => x.toFixed(4)),
    ['0.7416', '0.6481', '0.4307', '0.8857'],
  );
});

test('pair_terms_should_sum_to_rope_score', () => {
  for (let t = 0; t < 40; t++) {
    const d = [1, 2, 3, 8, 64, 128][t % 6];
    const q = vector(d);
    const k = vector(d);
    const n = uniform(0, 4096);
    const m = n + uniform(-4096, 4096);
    const r = rope.pair_terms(q, k, m, n);
    const score = rope.rope_score(q, k, m, n);
    assert.ok(close(r.sum, score), `d ${d}: sum ${r.sum} vs rope_score ${score}`);
    assert.ok(Object.is(r.score, score));
  }
});

test('add_terms_should_sum_to_add_score', () => {
  for (let t = 0; t < 20; t++) {
    const d = [1, 4, 7, 64][t % 4];
    const q = vector(d);
    const k = vector(d);
    const offset = uniform(-50, 50);
    const starts = Array.from({ length: 6 }, () => uniform(0, 4096));
    const r = rope.add_terms(q, k, offset, starts);
    starts.forEach((s, j) => {
      const direct = rope.add_score(q, k, s + offset, s);
      const four = r.qk[j] + r.q_pn[j] + r.pm_k[j] + r.pm_pn[j];
      assert.ok(close(four, direct), `four terms ${four} vs add_score ${direct}`);
      assert.ok(Object.is(r.total[j], direct));
    });
  }
});

test('cos_grid_should_hold_cos_of_position_times_theta', () => {
  const d = 64;
  const positions = Array.from({ length: 50 }, () => uniform(-1e5, 1e5));
  const grid = rope.cos_grid(d, positions);
  const theta = rope.thetas(d);
  assert.equal(grid.length, d / 2);
  grid.forEach((row, i) =>
    row.forEach((cell, p) => {
      assert.ok(close(cell, Math.cos(positions[p] * theta[i])), `cell ${i},${p}`);
    }),
  );
});

test('offset_envelope_should_match_a_dense_sweep', () => {
  for (let t = 0; t < 10; t++) {
    const d = [2, 8, 64][t % 3];
    const q = vector(d);
    const k = vector(d);
    const offset = uniform(-10, 10);
    const from = uniform(0, 3000);
    const to = from + uniform(10, 5000);
    const first = Math.ceil(from);
    const count = Math.floor(to) - first + 1;
    const bins = 1 + Math.floor(random() * Math.min(count, 400));
    const env = rope.offset_envelope(q, k, offset, from, to, bins);
    const dense = rope.offset_scan(
      q,
      k,
      offset,
      Array.from({ length: count }, (_, j) => first + j),
    );
    const want = { rope_min: [], rope_max: [], add_min: [], add_max: [], first: [], last: [] };
    dense.forEach(([s, r, a], j) => {
      const b = Math.floor((j * bins) / count);
      if (want.first[b] === undefined) {
        Object.assign(want.first, { [b]: s });
        [want.rope_min[b], want.rope_max[b], want.add_min[b], want.add_max[b]] = [r, r, a, a];
      }
      want.last[b] = s;
      want.rope_min[b] = Math.min(want.rope_min[b], r);
      want.rope_max[b] = Math.max(want.rope_max[b], r);
      want.add_min[b] = Math.min(want.add_min[b], a);
      want.add_max[b] = Math.max(want.add_max[b], a);
    });
    for (const key of Object.keys(want)) {
      assert.equal(env[key].length, bins);
      env[key].forEach((x, b) => assert.ok(close(x, want[key][b]), `${key}[${b}]: ${x} vs ${want[key][b]}`));
    }
  }
});

test('explain_bindings_should_reject_bad_input_naming_parameter_and_value', () => {
  const [q, k] = rope.demo_vectors(8);
  const bad = [
    [() => rope.pair_example([0.9], [0.9, 0.4], 3, 7, 0.1), RangeError, /q must have exactly 2 elements, got 1/],
    [() => rope.pair_example([0.9, NaN], [0.9, 0.4], 3, 7, 0.1), RangeError, /q\[1\] .*NaN/],
    [
      () => rope.pair_example([0.9, 0.4], [0.9, 0.4], 2e10, 7, 0.1),
      RangeError,
      /^pair_example: m = 2e10: the largest angle, .* is beyond 1e10 radians, where doubles/,
    ],
    [() => rope.pair_example([0.9, 0.4], [0.9, 0.4], 3, 7, '0.1'), TypeError, /theta must be a number, got "0.1"/],
    [() => rope.pair_terms(q, k.slice(1), 1, 0), RangeError, /q and k must have the same length, got 8 and 7/],
    [() => rope.pair_terms(q, k, 1, -Infinity), RangeError, /n must be a finite number, got -Infinity/],
    [
      () => rope.add_terms(q, k, 1, [3, 1e10]),
      RangeError,
      /^add_terms: starts\[1\] \+ offset = 1e10: the largest angle, .* is beyond 1e10 radians/,
    ],
    [() => rope.add_terms(q, k, 1, [3], 0), RangeError, /base must be a finite number > 0, got 0/],
    [
      () => rope.add_terms_sweep(q, k, 1, 0, 1e9, 12),
      RangeError,
      /^add_terms_sweep: start0 \+ \(count - 1\) \* step = 1.1e10: the largest angle, .* is beyond 1e10 radians/,
    ],
    [
      () => rope.add_terms_sweep(q, k, 1, 0, 1, 65537),
      RangeError,
      /count must be an integer in \[0, 65536\], got 65537/,
    ],
    [() => rope.decay(q, k, [1, 10], 0, 1), RangeError, /samples must be an integer in \[1, 65536\], got 0/],
    [() => rope.decay(q, k, [1, 10], 10, -1), RangeError, /seed must be an integer in \[0, 4294967295\], got -1/],
    [
      () => rope.decay(q, k, [1, -2e10], 10, 1),
      RangeError,
      /^decay: distances\[1\] = -2e10: the largest angle, .* is beyond 1e10 radians/,
    ],
    [
      () => rope.decay(new Array(8192).fill(1), new Array(8192).fill(1), [1], 65536, 1),
      RangeError,
      /^decay: q.length x samples = 8192 x 65536 = 536870912: too much work for one call/,
    ],
    [() => rope.cos_grid(-1, [1]), RangeError, /d must be an integer in \[0, 65536\], got -1/],
    [
      () => rope.cos_grid(65536, new Array(65536).fill(1)),
      RangeError,
      /^cos_grid: d \/ 2 x positions.length = 32768 x 65536 = 2147483648: too much work for one call/,
    ],
    [() => rope.cos_grid(4, 'positions'), TypeError, /positions must be an array of numbers/],
    [() => rope.random_vectors(4, 2 ** 32), RangeError, /seed must be an integer .*4294967296/],
    [() => rope.random_vectors(4.5, 1), RangeError, /d must be an integer .*4.5/],
    [() => rope.offset_envelope(q, k, 2, 0.2, 0.8, 1), RangeError, /from..to must hold an integer start, got 0.2..0.8/],
    [() => rope.offset_envelope(q, k, 2, 0, 3, 5), RangeError, /bins must be an integer in \[1, 4\], got 5/],
    [() => rope.offset_envelope(q, k, NaN, 0, 3, 1), RangeError, /offset must be a finite number, got NaN/],
    [
      () => rope.offset_envelope(new Array(4096).fill(1), new Array(4096).fill(1), 2, 0, 1e6, 9),
      RangeError,
      /^offset_envelope: q.length x starts in from..to = 4096 x 1000001 = 4096004096: too much work for one call \(.*134217728 for an envelope\)/,
    ],
  ];
  for (const [call, type, message] of bad)
    assert.throws(call, (e) => e instanceof type && message.test(e.message), String(call));
  // Nothing is lost: the module still answers after every refusal.
  assert.equal(rope.pair_example([0.9, 0.4], [0.9, 0.4], 3, 7, 0.1).direct.toFixed(4), '0.8934');
});
