// The lesson's functions (c_src/lesson/lesson.h) in the page's wasm module:
//  - every case of build/lesson_cases.json (the independent reference
//    tests/ref/ref_lesson.py) agrees to the contract tolerance, and with what the
//    native build gave (build/lesson_native.json) bit for bit, except the
//    angles measured with atan2, whose last bit is the C library's;
//  - the post's table: same rows, values and match flags as the reference,
//    the mismatches exactly the known slips;
//  - the lesson's claims on fresh random inputs (the order cannot be seen
//    without position; sliding both words keeps the RoPE score).
// The raw exports are called here (rope.js binds them, tests/js/lesson_bind.test.mjs): the test calls the exports of the
// instance rope.js makes, through malloc/free, with guard slots after each output.
// Randomized parts print ROPE_TEST_SEED and take it from the environment.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as C from '../../web/gen/rope_consts.js';
import { close, rng, seed } from '../lib/testlib.mjs';

const instances = [];
const RealInstance = WebAssembly.Instance;
WebAssembly.Instance = new Proxy(RealInstance, {
  construct(target, args, newTarget) {
    const instance = Reflect.construct(target, args, newTarget);
    instances.push(instance);
    return instance;
  },
});
const rope = await import('../../web/src/core/rope.js');
rope.thetas(4); // the module is made at the first call
WebAssembly.Instance = RealInstance;
const wasm = instances[0].exports;

const cases = JSON.parse(readFileSync('build/lesson_cases.json', 'utf8'));
const native = JSON.parse(readFileSync('build/lesson_native.json', 'utf8'));
const SEED = seed('lesson.test');
const random = rng(SEED);
const uniform = (lo, hi) => lo + (hi - lo) * random();
const GUARD = 8;
const GUARD_VALUE = -7.25e300;

// Output length and argument kinds ('v' vector + its length, 'i' int, 'd' double) per function.
const SPEC = {
  order: ['vvdd', () => C.ROPE_ORDER_LEN],
  slot: ['vd', (a) => a[0].length + C.ROPE_SLOT_MEASURES],
  normalized: ['dd', () => 1],
  marks: ['vid', (a) => a[0].length * a[1]],
  marked: ['vdd', (a) => a[0].length],
  extrapolate: ['diid', (a) => C.ROPE_EXTRA_BLOCKS * a[1]],
  identity: ['dd', () => C.ROPE_ID_LEN],
  cat: ['ddddddd', () => C.ROPE_CAT_LEN],
  proof: ['ddddddd', () => C.ROPE_PROOF_LEN],
  clock: ['iiddd', () => C.ROPE_CLOCK_LEN],
  clock_theta: ['ddd', () => C.ROPE_CLOCK_LEN],
  rebase: ['iidddd', () => C.ROPE_REBASE_LEN],
  weights: ['iidddd', () => C.ROPE_WEIGHTS_LEN],
};
// rope_lesson_cat's slots computed with atan2 (lesson.h: START .. AFTER_DEG).
const ATAN2_SLOTS = new Set([
  C.ROPE_CAT_START,
  C.ROPE_CAT_AFTER,
  C.ROPE_CAT_PREDICTED,
  C.ROPE_CAT_START_DEG,
  C.ROPE_CAT_AFTER_DEG,
]);

/** Calls rope_lesson_<fn>(args..., out): { code, values }, freeing every buffer. */
function call(fn, args) {
  const [kinds, length] = SPEC[fn];
  const n = length(args);
  const pointers = [];
  const heap = () => new Float64Array(wasm.memory.buffer);
  try {
    const cArgs = [];
    [...kinds].forEach((kind, j) => {
      if (kind === 'v') {
        const p = wasm.malloc(8 * Math.max(args[j].length, 1));
        pointers.push(p);
        heap().set(args[j], p / 8);
        cArgs.push(p, args[j].length);
      } else {
        cArgs.push(kind === 'i' ? args[j] | 0 : args[j]);
      }
    });
    const out = wasm.malloc(8 * (n + GUARD));
    pointers.push(out);
    heap().fill(GUARD_VALUE, out / 8, out / 8 + n + GUARD);
    const code = wasm[`rope_lesson_${fn}`](...cArgs, out);
    const all = Array.from(heap().subarray(out / 8, out / 8 + n + GUARD));
    assert.ok(
      all.slice(n).every((x) => x === GUARD_VALUE),
      `${fn} wrote past its ${n} values`,
    );
    return { code, values: all.slice(0, n) };
  } finally {
    pointers.forEach((p) => wasm.free(p));
  }
}

function cString(pointer) {
  if (pointer === 0) return null;
  const bytes = new Uint8Array(wasm.memory.buffer);
  let end = pointer;
  while (bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(pointer, end));
}

function wrap(x, period) {
  let r = x % period;
  if (r > period / 2) r -= period;
  if (r <= -period / 2) r += period;
  return r;
}

test('lesson_should_match_the_reference_and_native_on_every_case', () => {
  console.log(`cases: ROPE_TEST_SEED=${cases.seed}`);
  assert.equal(native.seed, cases.seed, 'native results come from another seed');
  const problems = [];
  cases.cases.forEach((c, index) => {
    const { code, values } = call(c.fn, c.args);
    if (code !== 0 || values.length !== c.expect.length) {
      problems.push(`case ${index} ${c.fn}: code ${code}, ${values.length} values`);
      return;
    }
    const turns = new Map(c.periodic.map(([slot, period, scale]) => [slot, [period, scale]]));
    values.forEach((g, j) => {
      const w = c.expect[j];
      const ok = turns.has(j)
        ? Math.abs(wrap(g - w, turns.get(j)[0])) <= 1e-9 + 1e-6 * Math.max(Math.abs(w), turns.get(j)[1])
        : close(g, w);
      if (!ok) problems.push(`case ${index} ${c.fn}[${j}]: ${g} vs reference ${w}`);
      const n = native.results[index];
      if (!n) return;
      const same = c.fn === 'cat' && ATAN2_SLOTS.has(j) ? close(g, n[j], 1e-12, 1e-12) : Object.is(g, n[j]);
      if (!same) problems.push(`case ${index} ${c.fn}[${j}]: wasm ${g} vs native ${n[j]}`);
    });
  });
  assert.ok(cases.cases.length >= 400);
  assert.deepEqual(problems.slice(0, 10), [], `${problems.length} problems`);
});

test('post_table_should_match_the_reference_and_flag_exactly_the_slips', () => {
  const count = wasm.rope_lesson_post_count();
  const ref = new Map(cases.post.map((r) => [r.id, r]));
  assert.equal(count, ref.size);
  const F = C.ROPE_POST_FIELDS;
  const out = wasm.malloc(8 * F * count);
  const wrong = [];
  try {
    assert.equal(wasm.rope_lesson_post_table(out, count), 0);
    assert.equal(wasm.rope_lesson_post_table(out, count - 1), -9, 'a small cap is ROPE_E_SPACE');
    const rows = Array.from(new Float64Array(wasm.memory.buffer, out, F * count));
    for (let r = 0; r < count; r++) {
      const id = cString(wasm.rope_lesson_post_id(r));
      const want = ref.get(id);
      assert.ok(want, `row ${r}: unknown id ${id}`);
      const row = rows.slice(F * r, F * r + F);
      const [printed, decimals, value, match, chapter] = [
        C.ROPE_POST_PRINTED,
        C.ROPE_POST_DECIMALS,
        C.ROPE_POST_VALUE,
        C.ROPE_POST_MATCH,
        C.ROPE_POST_CHAPTER,
      ].map((j) => row[j]);
      assert.equal(decimals, want.decimals, id);
      assert.ok(close(printed, want.printed, 1e-15, 1e-15), `${id}: printed ${printed}`);
      assert.equal(cString(wasm.rope_lesson_post_text(r)), want.printed.toFixed(want.decimals), id);
      assert.ok(close(value, want.value), `${id}: ${value} vs reference ${want.value}`);
      assert.equal(match === 1, want.matches, `${id}: match flag`);
      assert.equal(cString(wasm.rope_lesson_chapter(chapter)), want.chapter, `${id}: chapter`);
      assert.ok(cString(wasm.rope_lesson_post_label(r)).length > 0, `${id}: label`);
      if (match !== 1) wrong.push(id);
    }
  } finally {
    wasm.free(out);
  }
  assert.deepEqual(wrong.sort(), [...cases.slips].sort());
  assert.equal(wasm.rope_lesson_post_id(count), 0);
});

test('order_should_be_invisible_without_position_and_visible_with_it', () => {
  for (let t = 0; t < 30; t++) {
    const n = 1 + Math.floor(random() * 8);
    const a = Array.from({ length: n }, () => uniform(-2, 2));
    const b = Array.from({ length: n }, () => uniform(-2, 2));
    const { code, values } = call('order', [a, b, Math.floor(uniform(0, 1000)), 10000]);
    assert.equal(code, 0);
    const diff = (scheme) => values[scheme * C.ROPE_ORDER_BLOCK + C.ROPE_ORDER_DIFF];
    assert.equal(diff(C.ROPE_ORDER_PLAIN), 0);
    assert.deepEqual(values.slice(0, 4), values.slice(C.ROPE_ORDER_SWAPPED, C.ROPE_ORDER_SWAPPED + 4));
    assert.ok(diff(C.ROPE_ORDER_ADDED) > 0, 'added marks should tell the orders apart');
  }
});

test('cat_score_should_stay_when_both_words_slide_and_the_additive_should_move', () => {
  const cat = [0.9, 0.4, 0.9, 0.4];
  const first = call('cat', [...cat, 3, 7, 0.1]).values;
  const [SCORE, ADDED, AFTER, PREDICTED] = [
    C.ROPE_CAT_DIRECT,
    C.ROPE_CAT_ADDED,
    C.ROPE_CAT_AFTER,
    C.ROPE_CAT_PREDICTED,
  ];
  assert.equal(first[SCORE].toFixed(4), '0.8934');
  for (let t = 0; t < 20; t++) {
    const s = uniform(1, 5000);
    const moved = call('cat', [...cat, 3 + s, 7 + s, 0.1]).values;
    assert.ok(close(moved[SCORE], first[SCORE]), `slide ${s}: ${moved[SCORE]}`);
    assert.ok(Math.abs(wrap(moved[AFTER] - moved[PREDICTED], 2 * Math.PI)) < 1e-9, 'angle = start + (m - n) theta');
  }
  const far = call('cat', [...cat, 10, 14, 0.1]).values;
  assert.ok(Math.abs(far[ADDED] - first[ADDED]) > 0.1, `additive ${first[ADDED]} -> ${far[ADDED]}`);
});
