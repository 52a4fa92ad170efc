// A fuzz loop over web/src/core/rope.js: random argument shapes (numbers, NaN, infinities, huge
// and tiny values, strings, arrays of wrong lengths, typed arrays, objects with prototype
// keys, ...) for ROPE_FUZZ_SECONDS (default 10). Every call must either return finite
// numbers (or the report's text) or throw a RangeError/TypeError whose message names one
// of the function's parameters; any other outcome fails. Prints the seed and the count.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as files from '../../web/src/core/files.js';
import * as core from '../../web/src/core/rope.js';

// The two modules' bindings: the lesson's (rope.js) and the files module's (files.js).
const rope = { ...core, ...files };

import { rng, seed } from '../lib/testlib.mjs';

const SECONDS = Number(process.env.ROPE_FUZZ_SECONDS || 10);
const REPORT_PARAMS = ['options', 'dim', 'base', 'offset', 'gap', 'starts', 'deltas', 'norm_positions'];
// The scaling functions' messages name the option or the config key (docs/SCALING.md's key table).
const SCALING_CONFIG = { head_dim: 64, rope_theta: 10000, rope_scaling: { rope_type: 'linear', factor: 2 } };
const SCALING_PARAMS = [
  'config',
  'options',
  'seq_len',
  'train_len',
  'gap',
  'head_dim',
  'rope_theta',
  'rope_scaling',
  'rope_scaling.rope_type',
  'rope_scaling.factor',
  'hidden_size',
  'num_attention_heads',
];

// Each export: its parameter names and a call that works, to mutate from.
const [Q, K] = rope.demo_vectors(8);
const SPECS = {
  demo_vectors: [['d'], [8]],
  dot: [
    ['a', 'b'],
    [Q, K],
  ],
  norm: [['vec'], [Q]],
  thetas: [
    ['d', 'base'],
    [8, 500],
  ],
  rotate_pair: [
    ['x0', 'x1', 'angle'],
    [1, 0.5, 0.25],
  ],
  apply_rope: [
    ['vec', 'pos', 'base'],
    [Q, 7, 500],
  ],
  rope_score: [
    ['q', 'k', 'm', 'n', 'base'],
    [Q, K, 5, 3, 500],
  ],
  sin_pos: [
    ['pos', 'd', 'base'],
    [3, 8, 500],
  ],
  add_score: [
    ['q', 'k', 'm', 'n', 'base'],
    [Q, K, 5, 3, 500],
  ],
  offset_scan: [
    ['q', 'k', 'offset', 'starts', 'base'],
    [Q, K, 2, [3, 10, 100], 500],
  ],
  turns: [
    ['d', 'delta', 'base'],
    [8, 16, 500],
  ],
  slow_pairs: [
    ['d', 'delta', 'base'],
    [8, 16, 500],
  ],
  pair_angles: [
    ['d', 'gap', 'base'],
    [8, 16, 500],
  ],
  offset_sweep: [
    ['q', 'k', 'offset', 'start0', 'step', 'count', 'base'],
    [Q, K, 2, 0, 0.5, 16, 500],
  ],
  slow_pairs_batch: [
    ['d', 'deltas', 'base'],
    [8, [1, 16, 256], 500],
  ],
  norm_gaps: [
    ['vec', 'positions', 'base'],
    [Q, [0, 1, 7], 500],
  ],
  build_report: [REPORT_PARAMS, [{ dim: 8, offset: 3 }]],
  build_report_json: [REPORT_PARAMS, [{ starts: [1, 2] }]],
  build_report_markdown: [REPORT_PARAMS, [{ base: 500 }]],
  pair_example: [
    ['q', 'k', 'm', 'n', 'theta'],
    [[0.9, 0.4], [0.3, -0.2], 5, 3, 0.1],
  ],
  pair_terms: [
    ['q', 'k', 'm', 'n', 'base'],
    [Q, K, 5, 3, 500],
  ],
  add_terms: [
    ['q', 'k', 'offset', 'starts', 'base'],
    [Q, K, 2, [3, 10, 100], 500],
  ],
  add_terms_sweep: [
    ['q', 'k', 'offset', 'start0', 'step', 'count', 'base'],
    [Q, K, 2, 0, 0.5, 16, 500],
  ],
  decay: [
    ['q', 'k', 'distances', 'samples', 'seed', 'base'],
    [Q, K, [0, 1, 16], 8, 7, 500],
  ],
  cos_grid: [
    ['d', 'positions', 'base'],
    [8, [0, 1, 7], 500],
  ],
  random_vectors: [
    ['d', 'seed'],
    [8, 7],
  ],
  offset_envelope: [
    ['q', 'k', 'offset', 'from', 'to', 'bins', 'base'],
    [Q, K, 2, 0, 100, 10, 500],
  ],
  scaling_from_config: [SCALING_PARAMS, [SCALING_CONFIG, { seq_len: 100 }]],
  scaling_csv: [SCALING_PARAMS, [SCALING_CONFIG, {}]],
  scaling_json_text: [SCALING_PARAMS, [SCALING_CONFIG, { train_len: 4096, gap: 100 }]],
  np_normal: [
    ['seed', 'n'],
    [42, 16],
  ],
  planes_example: [
    ['seed', 'dim', 'base', 'm', 'n'],
    [42, 8, 500, 3, 7],
  ],
  decimal_form: [['text'], ['1.5e3']],
  lesson_order: [
    ['a', 'b', 's0', 'base'],
    [[2, 1, 1, 0], [0, 1, 2, 1], 3, 500],
  ],
  lesson_slot: [
    ['stick', 'slot'],
    [[2, 1, 1, 0], 5],
  ],
  lesson_normalized: [
    ['slot', 'length'],
    [256, 512],
  ],
  lesson_marks: [
    ['positions', 'width', 'base'],
    [[3, 4], 4, 500],
  ],
  lesson_marked: [
    ['stick', 'slot', 'base'],
    [[2, 1, 1, 0], 3, 500],
  ],
  lesson_extrapolate: [
    ['pos', 'width', 'train', 'base'],
    [600, 4, 512, 500],
  ],
  lesson_identity: [
    ['a', 'b'],
    [47, 4],
  ],
  lesson_cat: [
    ['q', 'k', 'm', 'n', 'theta'],
    [[0.9, 0.4], [0.9, 0.4], 3, 7, 0.1],
  ],
  lesson_proof: [
    ['q', 'k', 'm', 'n', 'theta'],
    [[0.9, 0.4], [0.9, 0.4], 3, 7, 0.1],
  ],
  lesson_clock: [
    ['pair', 'dim', 'base', 'position', 'divide'],
    [3, 8, 500, 100, 2],
  ],
  lesson_clock_theta: [
    ['theta', 'position', 'divide'],
    [0.1, 100, 2],
  ],
  lesson_rebase: [
    ['pair', 'dim', 'old base', 'new base', 'gap', 'train'],
    [3, 8, 500, 5000, 100, 50],
  ],
  lesson_weights: [
    ['pair', 'dim', 'old base', 'new base', 'train', 'widest gap'],
    [3, 8, 500, 5000, 50, 1000],
  ],
  lesson_chapters: [[], []],
  lesson_post: [[], []],
  precision_errors: [
    ['theta', 'pos'],
    [[1, 0.5, 0.01, 1e-6], 8191],
  ],
  layout_pairs: [
    ['layout', 'n'],
    ['interleaved', 4],
  ],
  layout_scores: [
    ['q', 'k', 'theta', 'layout', 'gap', 'start0', 'step', 'count'],
    [Q, K, [1, 0.3, 0.1, 0.01], 'rotate_half', 16, 0, 1, 8],
  ],
  query_scales: [
    ['beta', 'l0', 'offset', 'positions'],
    [0.1, 8192, 1, [0, 8191, 131071]],
  ],
};

const PROTO_KEYS = ['constructor', 'toString', 'valueOf', '__proto__', 'hasOwnProperty', 'isPrototypeOf'];

function makeValue(r, depth = 0) {
  const pick = (list) => list[Math.floor(r() * list.length)];
  const kind = Math.floor(r() * 14);
  switch (kind) {
    case 0:
      return pick([NaN, Infinity, -Infinity, -0, 0, Number.MIN_VALUE, Number.MAX_VALUE, 2 ** 53 + 1]);
    case 1:
      return (r() - 0.5) * 10 ** Math.floor(r() * 24 - 4); // up to ~1e20, either sign
    case 2:
      return Math.floor(r() * 70000) - 1000; // around the dimension and count limits
    case 3:
      return pick([1e10, -1e10, 1e10 + 1, 1e300, -1e300, 65536, 65537, 2 ** 28, 2 ** 31]);
    case 4:
      return pick(['', '5', 'abc', '<script>', ' 7', '0x40', 'NaN', 'constructor']);
    case 5:
      return pick([null, undefined, true, false, 5n, Symbol('s')]);
    case 6:
    case 7: {
      const length = pick([0, 1, 2, 3, 7, 8, 9, 16, Math.floor(r() * 64)]);
      return Array.from({ length }, () => (r() < 0.9 || depth > 0 ? (r() - 0.5) * 100 : makeValue(r, depth + 1)));
    }
    case 8:
      return pick([
        new Float64Array(8).fill(0.5),
        new Int32Array(3),
        new Uint8Array(5),
        new DataView(new ArrayBuffer(8)),
      ]);
    case 9: {
      const o = {};
      for (let j = Math.floor(r() * 3); j >= 0; j--)
        o[pick([...PROTO_KEYS, 'dim', 'gap', 'offset', 'starts', 'x'])] = depth > 0 ? 1 : makeValue(r, depth + 1);
      return o;
    }
    case 10:
      return JSON.parse(`{"__proto__": {"dim": ${Math.floor(r() * 100)}}}`);
    case 11:
      return Object.create({ dim: 8 });
    case 12:
      return pick([new Array(65537).fill(1), new Array(8192).fill(0.25)]);
    default:
      return () => 1;
  }
}

// A result is good if every number in it is finite (strings are the report's text); the
// scaling object (parsed JSON) may also hold null and booleans.
function finite(value, json = false) {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value === 'string') return true;
  if (json && (value === null || typeof value === 'boolean')) return true;
  if (Array.isArray(value)) return value.every((v) => finite(v, json));
  if (value && typeof value === 'object') return Object.values(value).every((v) => finite(v, json));
  return false;
}

test(`rope_js_should_only_return_finite_numbers_or_throw_named_errors (${SECONDS} s)`, () => {
  const s = seed('fuzz rope.js');
  const r = rng(s);
  const names = Object.keys(SPECS);
  // ready() takes no input: tests/js/packed.test.mjs; _callCore is tests/js/snapshot.test.mjs's trap probe.
  assert.deepEqual(
    Object.keys(rope)
      .filter((k) => typeof rope[k] === 'function' && k !== 'ready' && k !== '_callCore')
      .sort(),
    [...names].sort(),
    'every export is fuzzed',
  );
  const end = Date.now() + SECONDS * 1000;
  let calls = 0;
  let refused = 0;
  while (Date.now() < end) {
    for (let burst = 0; burst < 50; burst++) {
      const fn = names[Math.floor(r() * names.length)];
      const [params, good] = SPECS[fn];
      // Mostly a good call with one or two arguments replaced; sometimes any shape at all.
      let args;
      if (r() < 0.15) {
        args = Array.from({ length: Math.floor(r() * 9) }, () => makeValue(r));
      } else {
        args = good.map((a) => (Array.isArray(a) ? a.slice() : a && typeof a === 'object' ? { ...a } : a));
        for (let j = 1 + Math.floor(r() * 2); j > 0; j--) args[Math.floor(r() * args.length)] = makeValue(r);
      }
      calls++;
      let result;
      try {
        result = rope[fn](...args);
      } catch (err) {
        refused++;
        const what = `${fn}(${args.map((a) => typeof a).join(', ')}) [seed ${s}, call ${calls}]`;
        assert.ok(err instanceof RangeError || err instanceof TypeError, `${what}: threw ${err?.stack ?? err}`);
        const named = params.some((p) => new RegExp(`(^|[^\\w])${p}([^\\w]|$)`).test(err.message));
        assert.ok(named, `${what}: message names no parameter (${params.join(', ')}): ${err.message}`);
        continue;
      }
      // JSON-shaped results may hold null: the scaling objects' absent factor, and the report's
      // turns_first / turns_last at dim 0 or 1, where there is no pair (docs/SPEC.md, "The report").
      // lesson_post's rows hold a boolean (does the post's number match); precision_errors holds
      // null where float16 lost the angle.
      const json =
        fn.startsWith('scaling') || fn.startsWith('build_report') || fn === 'lesson_post' || fn === 'precision_errors';
      assert.ok(finite(result, json), `${fn} returned a non-finite result [seed ${s}, call ${calls}]`);
    }
  }
  console.log(`fuzz rope.js: ${calls} calls (${refused} refused) in ${SECONDS} s, ROPE_TEST_SEED=${s}`);
  assert.ok(calls > 1000, `only ${calls} calls`);
});
