// rope.js's lesson bindings (web/src/core/rope.js, "the lesson's chapters") against the
// independent reference tests/ref/ref_lesson.py: every random case of build/lesson_cases.json
// (made by `make test-lesson` on a fresh seed, printed) goes through the binding, whose named
// result is laid back out by lesson.h's slot macros and compared at the contract's tolerance;
// the post's table row by row; and each binding's refusals name the parameter.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as C from '../../web/gen/rope_consts.js';
import * as rope from '../../web/src/core/rope.js';
import { close } from '../lib/testlib.mjs';

const cases = JSON.parse(readFileSync('build/lesson_cases.json', 'utf8'));

// A named result laid out flat again: key -> the index its macro gives (prefix + KEY).
const flatBy = (prefix, obj, length) => {
  const flat = new Array(length).fill(NaN);
  for (const [key, value] of Object.entries(obj)) flat[C[`${prefix}${key.toUpperCase()}`]] = value;
  return flat;
};

// Each function's case args -> the binding's result laid out as lesson.h's flat output.
const FLAT = {
  order: ([a, b, s0, base]) => {
    const r = rope.lesson_order(a, b, s0, base);
    const flat = [];
    for (const [name, block] of [
      ['plain', C.ROPE_ORDER_PLAIN],
      ['added', C.ROPE_ORDER_ADDED],
      ['rotated', C.ROPE_ORDER_ROTATED],
    ]) {
      const at = block * C.ROPE_ORDER_BLOCK;
      r[name].ab.forEach((x, j) => {
        flat[at + j] = x;
      });
      r[name].ba.forEach((x, j) => {
        flat[at + C.ROPE_ORDER_SWAPPED + j] = x;
      });
      flat[at + C.ROPE_ORDER_DIFF] = r[name].diff;
    }
    return flat;
  },
  slot: ([stick, s]) => {
    const { sum, ...measures } = rope.lesson_slot(stick, s);
    return [...sum, ...flatBy('ROPE_SLOT_', measures, C.ROPE_SLOT_MEASURES)];
  },
  normalized: ([s, length]) => [rope.lesson_normalized(s, length)],
  marks: ([positions, width, base]) => rope.lesson_marks(positions, width, base).flat(),
  marked: ([stick, s, base]) => rope.lesson_marked(stick, s, base),
  extrapolate: ([pos, width, train, base]) => {
    const r = rope.lesson_extrapolate(pos, width, train, base);
    const flat = [];
    for (const [key, block] of Object.entries(r)) {
      block.forEach((x, j) => {
        flat[C[`ROPE_EXTRA_${key.toUpperCase()}`] * width + j] = x;
      });
    }
    return flat;
  },
  identity: ([a, b]) => flatBy('ROPE_ID_', rope.lesson_identity(a, b), C.ROPE_ID_LEN),
  cat: ([q0, q1, k0, k1, m, n, theta]) =>
    flatBy('ROPE_CAT_', rope.lesson_cat([q0, q1], [k0, k1], m, n, theta), C.ROPE_CAT_LEN),
  proof: ([q0, q1, k0, k1, m, n, theta]) => {
    const r = rope.lesson_proof([q0, q1], [k0, k1], m, n, theta);
    const flat = new Array(C.ROPE_PROOF_LEN).fill(NaN);
    for (const [key, value] of Object.entries(r)) {
      const at = C[`ROPE_PROOF_${key.replace(/[A-Z]/g, '_$&').toUpperCase()}`];
      if (Array.isArray(value))
        value.forEach((x, j) => {
          flat[at + j] = x;
        });
      else flat[at] = value;
    }
    return flat;
  },
  clock: ([pair, dim, base, position, divide]) =>
    flatBy('ROPE_CLOCK_', rope.lesson_clock(pair, dim, base, position, divide), C.ROPE_CLOCK_LEN),
  clock_theta: ([theta, position, divide]) =>
    flatBy('ROPE_CLOCK_', rope.lesson_clock_theta(theta, position, divide), C.ROPE_CLOCK_LEN),
  rebase: (args) => flatBy('ROPE_REBASE_', rope.lesson_rebase(...args), C.ROPE_REBASE_LEN),
  weights: (args) => flatBy('ROPE_WEIGHTS_', rope.lesson_weights(...args), C.ROPE_WEIGHTS_LEN),
};

function wrap(x, period) {
  let r = x % period;
  if (r > period / 2) r -= period;
  if (r <= -period / 2) r += period;
  return r;
}

test('lesson_bindings_should_match_the_reference_on_every_random_case', () => {
  console.log(`cases: ROPE_TEST_SEED=${cases.seed} (make test-lesson ROPE_TEST_SEED=${cases.seed} reproduces them)`);
  const problems = [];
  const seen = new Set();
  for (const [index, c] of cases.cases.entries()) {
    seen.add(c.fn);
    let got;
    try {
      got = FLAT[c.fn](c.args);
    } catch (error) {
      problems.push(`case ${index} ${c.fn}: ${error.message}`);
      continue;
    }
    if (got.length !== c.expect.length) {
      problems.push(`case ${index} ${c.fn}: ${got.length} values, reference ${c.expect.length}`);
      continue;
    }
    const turns = new Map(c.periodic.map(([slot, period, scale]) => [slot, [period, scale]]));
    c.expect.forEach((w, j) => {
      const g = got[j];
      const ok = turns.has(j)
        ? Math.abs(wrap(g - w, turns.get(j)[0])) <= 1e-9 + 1e-6 * Math.max(Math.abs(w), turns.get(j)[1])
        : close(g, w);
      if (!ok) problems.push(`case ${index} ${c.fn}[${j}]: ${g} vs reference ${w}`);
    });
  }
  assert.deepEqual([...seen].sort(), Object.keys(FLAT).sort(), 'every binding has cases');
  assert.deepEqual(problems.slice(0, 10), [], `${problems.length} problems`);
});

test('lesson_post_should_list_the_reference_rows_with_their_chapters_and_flags', () => {
  const rows = rope.lesson_post();
  const ref = new Map(cases.post.map((r) => [r.id, r]));
  assert.equal(rows.length, ref.size);
  for (const row of rows) {
    const want = ref.get(row.id);
    assert.ok(want, `unknown id ${row.id}`);
    assert.equal(row.chapter, want.chapter, row.id);
    assert.equal(row.decimals, want.decimals, row.id);
    assert.equal(row.text, want.printed.toFixed(want.decimals), row.id);
    assert.ok(close(row.value, want.value), `${row.id}: ${row.value} vs ${want.value}`);
    assert.equal(row.match, want.matches, row.id);
    assert.ok(row.label.length > 0, row.id);
  }
  assert.deepEqual(
    rows
      .filter((r) => !r.match)
      .map((r) => r.id)
      .sort(),
    [...cases.slips].sort(),
  );
  assert.deepEqual(rope.lesson_chapters(), cases.chapters);
});

test('lesson_bindings_should_refuse_bad_input_naming_the_parameter', () => {
  const refusals = [
    [() => rope.lesson_order([1, 2], [1]), /a and b must have the same length/],
    [() => rope.lesson_order([], []), /a must have 1 to/],
    [() => rope.lesson_order([1], [1], NaN), /s0 must be a finite number, got NaN/],
    [() => rope.lesson_slot([1, 'x'], 1), /stick\[1\] must be a number/],
    [() => rope.lesson_slot([1], 1e11), /slot = 1e11: the largest angle, .* is beyond 1e10 radians/],
    [() => rope.lesson_normalized(1, 0), /length must be a finite number > 0, got 0/],
    [() => rope.lesson_marks([1, 2], 2.5), /width must be an integer/],
    [() => rope.lesson_marks([1], 4, -1), /base must be a finite number > 0, got -1/],
    [() => rope.lesson_marked([1, 2], Infinity), /slot must be a finite number, got Infinity/],
    [() => rope.lesson_extrapolate(600, 4, 0), /train must be an integer in \[1, /],
    [() => rope.lesson_identity(47, 'x'), /b must be a number, got "x"/],
    [() => rope.lesson_cat([0.9], [0.9, 0.4], 3, 7, 0.1), /q must have/],
    [() => rope.lesson_cat([0.9, 0.4], [0.9, 0.4], 3, 7, NaN), /theta must be a finite number/],
    [
      () => rope.lesson_proof([0.9, 0.4], [0.9, 0.4], 3, 7e20, 0.1),
      /n = 7e20: the largest angle, .* is beyond 1e10 radians/,
    ],
    [() => rope.lesson_clock(256, 512, 10000, 1), /pair must be an integer in \[0, 255\], got 256/],
    [() => rope.lesson_clock(0, 512, 10000, 1, 0), /divide must be a finite number > 0, got 0/],
    [() => rope.lesson_clock_theta(0.1, 1, -8), /divide must be a finite number > 0, got -8/],
    [() => rope.lesson_rebase(255, 512, 10000, 0, 50000, 8192), /new base must be a finite number > 0, got 0/],
    [() => rope.lesson_weights(255, 512, 10000, 1, 8192, 50000), /new base must be a finite number > 1, got 1/],
    [() => rope.lesson_weights(255, 512, 10000, 5e5, 8192, -1), /widest gap must be a finite number >= 0, got -1/],
    [() => rope.lesson_weights(255, 512, 10000, 5e5, NaN, 5e4), /train must be a finite number, got NaN/],
  ];
  for (const [call, message] of refusals) assert.throws(call, message);
  // Counting gaps by their unwrapped angle takes no step per turn: a billion gaps of pair 0
  // (θ = 1, trained on 1 position) are counted at once, and only gaps 0 and 1 are inside.
  const far = rope.lesson_weights(0, 512, 10000, 5e5, 1, 1e9);
  assert.equal(far.inside_old, 2);
  assert.equal(far.gaps, 1e9 + 1);
});
