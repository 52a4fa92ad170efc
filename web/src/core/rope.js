// ropescope's JS module: every docs/SPEC.md function, computed by the C core
// compiled to WebAssembly. This file only checks arguments and moves numbers
// in and out of the wasm heap; no RoPE math happens here.
//
// Writing a binding (new ones go in their own section at the end of this file):
//   1. check every argument with the check* helpers below. Array arguments are read once
//      into a Float64Array snapshot, which the helper returns: use that snapshot, never the
//      argument again, for every later check, allocation, copy and length (a Proxy or a
//      getter could answer differently on a second read). Each throws a TypeError
//      (wrong type) or RangeError (wrong value) whose message names the parameter and
//      the value: checkInt, checkFinite, checkBase, checkVector(s), checkPositions,
//      checkList, checkSameLength, checkNear / checkNearList (anything the core rotates by,
//      at the call's base), checkWork (d x count), both asking the core's rule, checkOptions
//      (an options object: own keys only, aliases, no key twice).
//   2. call run(fn, ins, outs, call, { args }):
//        ins   arrays copied into the heap as doubles (a string: NUL-terminated UTF-8);
//        outs  [count, 'f64' | 'i32' | 'text'] buffers the core fills;
//        call  (...pointers) => wasm.rope_xxx(...), ins' pointers first, then outs';
//              it returns the core's code;
//        args  { name: value, ... } shown in the error if the core refuses the call.
//      run returns the outputs as plain arrays (a 'text' output as a string) and frees
//      every buffer, also on error. one(fn, ins, call, args) is run() for one double.
//   Example:
//     export function thetas(d, base = THETA_BASE) {
//       checkInt('d', d, 0, MAX_DIM);
//       checkBase(base);
//       return run('thetas', [], [[Math.floor(d / 2), 'f64']], (out) => wasm.rope_thetas(d, base, out),
//         { args: { d, base } })[0];
//     }
// The limits and error codes come from c_src/core/rope.h through the generated rope_consts.js.

import * as C from '../../gen/rope_consts.js';
import { WASM_CUT, WASM_PACKED } from '../../gen/rope_wasm.js';
import { checkBase, checkFinite, checkInt, checkList, checkNumber, nearChecks, show } from './checks.js';
import { wasmModule } from './wasm.js';

export const DIM = C.ROPE_DIM;
export const THETA_BASE = C.ROPE_THETA_BASE;
export const MAX_DIM = C.ROPE_MAX_DIM;
export const MAX_COUNT = C.ROPE_MAX_COUNT;
export const MAX_POSITION = C.ROPE_MAX_POSITION;
export const MAX_WORK = C.ROPE_MAX_WORK;

// The lesson's module (build/rope.wasm, c_src/exports.txt), made from the inlined bytes at the
// first call that needs it, or by ready() (wasm.js). wasm is its current exports: every path
// into the core starts with core() (run does), after which wasm is the instance it made.
let wasm = null;
// In a one-view embed script the module is cut to that view's exports (WASM_CUT guards it).
const lesson = wasmModule(
  WASM_PACKED,
  'core',
  (exports) => {
    wasm = exports;
  },
  WASM_CUT,
);
const { core, run, cString } = lesson;
const { checkNear, checkFiniteNear, checkNearList, checkWork } = nearChecks(lesson);

/**
 * Instantiates the core with its bytes inflated by the browser (packed.js, unpackBytesNative)
 * rather than by fflate at the first call. Optional: the page and the <rope-scope> element await
 * it before their first drawing; Node simply calls the functions. The page has it within the
 * microtask checkpoint after its script, before any frame; with { apart: true } (the element) the
 * bytes are compiled off the main thread, and the core made in a later task, so a host page's
 * tasks stay short. Rejects where the browser refuses WebAssembly (the first call then says why).
 * The config reader and the file writers are files.js's module, with a ready() of its own.
 */
export function ready({ apart = false } = {}) {
  return lesson.ready({ apart });
}

const checkVector = (name, value) => checkList(name, value, MAX_DIM);
const checkPositions = (name, value) => checkList(name, value, MAX_COUNT);

// d, one finite gap or delta, and base: what every per-pair function takes.
function checkPairsArgs(d, name, value, base) {
  checkInt('d', d, 0, MAX_DIM);
  checkFinite(name, value);
  checkBase(base);
}

function checkSameLength(nameA, a, nameB, b) {
  if (a.length !== b.length) {
    throw new RangeError(`${nameA} and ${nameB} must have the same length, got ${a.length} and ${b.length}`);
  }
}

// Two vectors of one length: q and k; returns their snapshots [q, k].
function checkVectors(q, k) {
  const qs = checkVector('q', q);
  const ks = checkVector('k', k);
  checkSameLength('q', qs, 'k', ks);
  return [qs, ks];
}

// q, k and the starts, each with start + offset, as the scans take them.
// Returns the snapshots [q, k, starts].
function checkScan(fn, q, k, offset, starts, base) {
  const [qs, ks] = checkVectors(q, k);
  checkFinite('offset', offset);
  const ss = checkPositions('starts', starts);
  checkBase(base);
  checkWork(fn, 'q.length', qs.length, 'starts.length', ss.length);
  checkNearList(fn, 'starts', ss, base, offset, 'offset');
  return [qs, ks, ss];
}

// The starts start0 + j * step, j < count, each with start + offset, as the sweeps take them.
function checkSweep(fn, q, offset, start0, step, count, base) {
  checkFinite('offset', offset);
  checkFinite('start0', start0);
  checkFinite('step', step);
  checkInt('count', count, 0, MAX_COUNT);
  checkBase(base);
  checkWork(fn, 'q.length', q.length, 'count', count);
  if (count > 0) {
    // Positions are linear in j: both ends near enough means every start is.
    const last = start0 + (count - 1) * step;
    checkNear(fn, 'start0', start0, base);
    checkNear(fn, 'start0 + offset', start0 + offset, base);
    checkNear(fn, 'start0 + (count - 1) * step', last, base);
    checkNear(fn, 'start0 + (count - 1) * step + offset', last + offset, base);
  }
}

/**
 * For tests: call(exports) on the same guarded path as every binding, so a forced trap
 * (an out-of-bounds pointer) shows what a real one does. Returns call's result.
 */
export function _callCore(fn, call) {
  return lesson.callCore(fn, call);
}

// A planar output (block b at flat[b * size ...]) as { name: block }.
const blocks = (flat, size, names) =>
  Object.fromEntries(names.map((name, b) => [name, flat.slice(b * size, (b + 1) * size)]));

const one = (fn, ins, call, args) => run(fn, ins, [[1, 'f64']], call, { args })[0][0];

// ---- docs/SPEC.md functions ----

export function demo_vectors(d = DIM) {
  checkInt('d', d, 0, MAX_DIM);
  return run(
    'demo_vectors',
    [],
    [
      [d, 'f64'],
      [d, 'f64'],
    ],
    (q, k) => wasm.rope_demo_vectors(d, q, k),
    { args: { d } },
  );
}

export function dot(a, b) {
  a = checkVector('a', a);
  b = checkVector('b', b);
  checkSameLength('a', a, 'b', b);
  return one('dot', [a, b], (pa, pb, out) => wasm.rope_dot(pa, a.length, pb, b.length, out), { a, b });
}

export function norm(vec) {
  vec = checkVector('vec', vec);
  return one('norm', [vec], (pv, out) => wasm.rope_norm(pv, vec.length, out), { vec });
}

export function thetas(d, base = THETA_BASE) {
  checkInt('d', d, 0, MAX_DIM);
  checkBase(base);
  return run('thetas', [], [[Math.floor(d / 2), 'f64']], (out) => wasm.rope_thetas(d, base, out), {
    args: { d, base },
  })[0];
}

export function rotate_pair(x0, x1, angle) {
  checkFinite('x0', x0);
  checkFinite('x1', x1);
  checkFinite('angle', angle);
  return run('rotate_pair', [], [[2, 'f64']], (out) => wasm.rope_rotate_pair(x0, x1, angle, out), {
    args: { x0, x1, angle },
  })[0];
}

// A core call that writes count records of `fields` (one f64 each, field by field), read back
// as { field: [count values] }.
function runBlocks(fn, inputs, fields, count, call, args) {
  return blocks(run(fn, inputs, [[fields.length * count, 'f64']], call, { args })[0], count, fields);
}

// A core call from one vector to one of the same length: call(pointer, length, out).
function sameLength(fn, vec, call, args) {
  return run(fn, [vec], [[vec.length, 'f64']], (pv, out) => call(pv, vec.length, out), { args })[0];
}

export function apply_rope(vec, pos, base = THETA_BASE) {
  vec = checkVector('vec', vec);
  checkFiniteNear('apply_rope', 'pos', pos, base);
  checkBase(base);
  const call = (pv, n, out) => wasm.rope_apply_rope(pv, n, pos, base, out);
  return sameLength('apply_rope', vec, call, { vec, pos, base });
}

// Returns the snapshots [q, k] and the call's arguments by name.
function checkScoreArgs(fn, q, k, m, n, base) {
  [q, k] = checkVectors(q, k);
  checkFiniteNear(fn, 'm', m, base);
  checkFiniteNear(fn, 'n', n, base);
  checkBase(base);
  return [q, k, { q, k, m, n, base }];
}

export function rope_score(q, k, m, n, base = THETA_BASE) {
  let args;
  [q, k, args] = checkScoreArgs('rope_score', q, k, m, n, base);
  return one('rope_score', [q, k], (pq, pk, out) => wasm.rope_score(pq, q.length, pk, k.length, m, n, base, out), args);
}

export function sin_pos(pos, d, base = THETA_BASE) {
  checkFiniteNear('sin_pos', 'pos', pos, base);
  checkInt('d', d, 0, MAX_DIM);
  checkBase(base);
  return run('sin_pos', [], [[d, 'f64']], (out) => wasm.rope_sin_pos(pos, d, base, out), {
    args: { pos, d, base },
  })[0];
}

export function add_score(q, k, m, n, base = THETA_BASE) {
  let args;
  [q, k, args] = checkScoreArgs('add_score', q, k, m, n, base);
  return one(
    'add_score',
    [q, k],
    (pq, pk, out) => wasm.rope_add_score(pq, q.length, pk, k.length, m, n, base, out),
    args,
  );
}

export function offset_scan(q, k, offset, starts, base = THETA_BASE) {
  [q, k, starts] = checkScan('offset_scan', q, k, offset, starts, base);
  const flat = run(
    'offset_scan',
    [q, k, starts],
    [[3 * starts.length, 'f64']],
    (pq, pk, ps, out) => wasm.rope_offset_scan(pq, q.length, pk, k.length, offset, ps, starts.length, base, out),
    {
      args: { q, k, offset, starts, base },
    },
  )[0];
  return Array.from(starts, (_, j) => flat.slice(3 * j, 3 * j + 3));
}

export function turns(d, delta, base = THETA_BASE) {
  checkPairsArgs(d, 'delta', delta, base);
  return run('turns', [], [[Math.floor(d / 2), 'f64']], (out) => wasm.rope_turns(d, delta, base, out), {
    args: { d, delta, base },
  })[0];
}

export function slow_pairs(d, delta, base = THETA_BASE) {
  checkPairsArgs(d, 'delta', delta, base);
  return run('slow_pairs', [], [[1, 'i32']], (out) => wasm.rope_slow_pairs(d, delta, base, out), {
    args: { d, delta, base },
  })[0][0];
}

// ---- batch entry points: one wasm call fills one chart ----

/** gap * theta_i for every pair, in radians. */
export function pair_angles(d, gap, base = THETA_BASE) {
  checkPairsArgs(d, 'gap', gap, base);
  checkNear('pair_angles', 'gap', gap, base);
  return run('pair_angles', [], [[Math.floor(d / 2), 'f64']], (out) => wasm.rope_pair_angles(d, gap, base, out), {
    args: { d, gap, base },
  })[0];
}

/** offset_scan over starts start0 + j * step, j < count: { starts, rope, add }. */
export function offset_sweep(q, k, offset, start0, step, count, base = THETA_BASE) {
  [q, k] = checkVectors(q, k);
  checkSweep('offset_sweep', q, offset, start0, step, count, base);
  const flat = run(
    'offset_sweep',
    [q, k],
    [[3 * count, 'f64']],
    (pq, pk, out) => wasm.rope_offset_sweep(pq, q.length, pk, k.length, offset, start0, step, count, base, out),
    {
      args: { q, k, offset, start0, step, count, base },
    },
  )[0];
  return blocks(flat, count, ['starts', 'rope', 'add']);
}

/** slow_pairs(d, delta, base) for every delta. */
export function slow_pairs_batch(d, deltas, base = THETA_BASE) {
  checkInt('d', d, 0, MAX_DIM);
  deltas = checkPositions('deltas', deltas);
  checkBase(base);
  checkWork('slow_pairs_batch', 'd', d, 'deltas.length', deltas.length);
  return run(
    'slow_pairs_batch',
    [deltas],
    [[deltas.length, 'i32']],
    (pd, out) => wasm.rope_slow_pairs_batch(d, pd, deltas.length, base, out),
    {
      args: { d, deltas, base },
    },
  )[0];
}

/** |norm(apply_rope(vec, p)) - norm(vec)| for every position p. */
export function norm_gaps(vec, positions, base = THETA_BASE) {
  vec = checkVector('vec', vec);
  positions = checkPositions('positions', positions);
  checkBase(base);
  checkWork('norm_gaps', 'vec.length', vec.length, 'positions.length', positions.length);
  checkNearList('norm_gaps', 'positions', positions, base);
  return run(
    'norm_gaps',
    [vec, positions],
    [[positions.length, 'f64']],
    (pv, pp, out) => wasm.rope_norm_gaps(pv, vec.length, pp, positions.length, base, out),
    {
      args: { vec, positions, base },
    },
  )[0];
}

// ---- the number grammar (c_src/core/parse.c, docs/SPEC.md) ----

/** Whether text is a plain decimal in the CLI's grammar: 1 (a nonzero mantissa), 0 (all
 * zeros) or ROPE_E_VALUE (not in the grammar). The size of the double is not judged. */
export function decimal_form(text) {
  if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${show(text)}`);
  if (text.includes('\0')) return C.ROPE_E_VALUE; // C would stop reading there
  return run('decimal_form', [text], [], (pt) => wasm.rope_decimal_form(pt), {
    tolerate: [1, C.ROPE_E_VALUE],
    args: { text },
  }).code;
}

// ---- explainer ----
// One wasm call per explainer figure (c_src/explain/explain.h, docs/EXPLAIN.md).
// Layouts are explain.h's planar blocks, handed out as named plain arrays.

// A 2-D vector [x0, x1].
function checkPair(name, value) {
  return checkList(name, value, 2, 2, true);
}

/** The 2-D worked example: q = [q0, q1] at m, k = [k0, k1] at n, explicit theta.
 * { q_m, k_n, angle_m, angle_n, angle_gap, dot, cross, direct, formula }, where
 * angle_gap = (m - n) theta, cross = q0 k1 - q1 k0 and
 * formula = dot cos(angle_gap) + cross sin(angle_gap) equals direct. */
export function pair_example(q, k, m, n, theta) {
  q = checkPair('q', q);
  k = checkPair('k', k);
  checkFiniteNear('pair_example', 'm', m);
  checkFiniteNear('pair_example', 'n', n);
  checkFinite('theta', theta);
  const v = run(
    'pair_example',
    [],
    [[C.ROPE_EX_LEN, 'f64']],
    (out) => wasm.rope_pair_example(q[0], q[1], k[0], k[1], m, n, theta, out),
    {
      args: { q, k, m, n, theta },
    },
  )[0];
  return {
    q_m: v.slice(C.ROPE_EX_QM0, C.ROPE_EX_QM1 + 1),
    k_n: v.slice(C.ROPE_EX_KN0, C.ROPE_EX_KN1 + 1),
    angle_m: v[C.ROPE_EX_ANGLE_M],
    angle_n: v[C.ROPE_EX_ANGLE_N],
    angle_gap: v[C.ROPE_EX_ANGLE_MN],
    dot: v[C.ROPE_EX_DOT],
    cross: v[C.ROPE_EX_CROSS],
    direct: v[C.ROPE_EX_DIRECT],
    formula: v[C.ROPE_EX_FORMULA],
  };
}

/** Each pair's share of rope_score(q, k, m, n) at gap m - n:
 * { terms, dots, crosses } (d/2 each), sum (of terms, plus the odd last
 * product) and score (rope_score itself). */
export function pair_terms(q, k, m, n, base = THETA_BASE) {
  [q, k] = checkVectors(q, k);
  checkFiniteNear('pair_terms', 'm', m, base);
  checkFiniteNear('pair_terms', 'n', n, base);
  checkBase(base);
  const h = Math.floor(q.length / 2);
  const v = run(
    'pair_terms',
    [q, k],
    [[3 * h + 2, 'f64']],
    (pq, pk, out) => wasm.rope_pair_terms(pq, q.length, pk, k.length, m, n, base, out),
    {
      args: { q, k, m, n, base },
    },
  )[0];
  return { ...blocks(v, h, ['terms', 'dots', 'crosses']), sum: v[3 * h], score: v[3 * h + 1] };
}

const ADD_TERMS = ['qk', 'q_pn', 'pm_k', 'pm_pn', 'total'];

/** add_score(q, k, s + offset, s) split per start s into its four terms:
 * { qk, q_pn, pm_k, pm_pn, total }, one value per start each. */
export function add_terms(q, k, offset, starts, base = THETA_BASE) {
  [q, k, starts] = checkScan('add_terms', q, k, offset, starts, base);
  const c = starts.length;
  const call = (pq, pk, ps, out) => wasm.rope_add_terms(pq, q.length, pk, k.length, offset, ps, c, base, out);
  return runBlocks('add_terms', [q, k, starts], ADD_TERMS, c, call, { q, k, offset, starts, base });
}

/** add_terms over the starts start0 + j * step, j < count (a dense chart):
 * the same { qk, q_pn, pm_k, pm_pn, total }, within ~1e-15 of add_terms. */
export function add_terms_sweep(q, k, offset, start0, step, count, base = THETA_BASE) {
  [q, k] = checkVectors(q, k);
  checkFiniteNear('add_terms_sweep', 'offset', offset, base);
  checkSweep('add_terms_sweep', q, offset, start0, step, count, base);
  const call = (pq, pk, out) =>
    wasm.rope_add_terms_sweep(pq, q.length, pk, k.length, offset, start0, step, count, base, out);
  return runBlocks('add_terms_sweep', [q, k], ADD_TERMS, count, call, { q, k, offset, start0, step, count, base });
}

/** Per distance r: { score: rope_score(q, k, r, 0), mean: the mean of
 * rope_score(v, v, r, 0) over `samples` random vectors from seed, bound:
 * RoFormer's relative upper bound }. */
export function decay(q, k, distances, samples, seed, base = THETA_BASE) {
  [q, k] = checkVectors(q, k);
  distances = checkPositions('distances', distances);
  checkNearList('decay', 'distances', distances, base);
  checkInt('samples', samples, 1, MAX_COUNT);
  checkInt('seed', seed, 0, 2 ** 32 - 1);
  checkBase(base);
  checkWork('decay', 'q.length', q.length, 'distances.length', distances.length);
  checkWork('decay', 'q.length', q.length, 'samples', samples);
  const c = distances.length;
  const call = (pq, pk, pd, out) => wasm.rope_decay(pq, q.length, pk, k.length, pd, c, samples, seed, base, out);
  return runBlocks('decay', [q, k, distances], ['score', 'mean', 'bound'], c, call, {
    q,
    k,
    distances,
    samples,
    seed,
    base,
  });
}

/** cos(positions[p] * theta_i): d/2 rows (one per pair), each positions.length long. */
export function cos_grid(d, positions, base = THETA_BASE) {
  checkInt('d', d, 0, MAX_DIM);
  positions = checkPositions('positions', positions);
  checkNearList('cos_grid', 'positions', positions, base);
  checkBase(base);
  const h = Math.floor(d / 2);
  const c = positions.length;
  checkWork('cos_grid', 'd / 2', h, 'positions.length', c);
  const v = run('cos_grid', [positions], [[h * c, 'f64']], (pp, out) => wasm.rope_cos_grid(d, pp, c, base, out), {
    args: { d, positions, base },
  })[0];
  return Array.from({ length: h }, (_, i) => v.slice(i * c, (i + 1) * c));
}

/** [q, k], d values each, uniform in [-1, 1) from splitmix64 seeded with seed. */
export function random_vectors(d, seed) {
  checkInt('d', d, 0, MAX_DIM);
  checkInt('seed', seed, 0, 2 ** 32 - 1);
  return run(
    'random_vectors',
    [],
    [
      [d, 'f64'],
      [d, 'f64'],
    ],
    (q, k) => wasm.rope_random_vectors(d, seed, q, k),
    {
      args: { d, seed },
    },
  );
}

const ENVELOPE = ['first', 'last', 'rope_min', 'rope_max', 'add_min', 'add_max'];

/** Every integer start in [from, to] in `bins` consecutive runs; per bin
 * { first, last } start and the { rope_min, rope_max, add_min, add_max } scores. */
export function offset_envelope(q, k, offset, from, to, bins, base = THETA_BASE) {
  [q, k] = checkVectors(q, k);
  checkFiniteNear('offset_envelope', 'offset', offset, base);
  checkFiniteNear('offset_envelope', 'from', from, base);
  checkFiniteNear('offset_envelope', 'to', to, base);
  checkBase(base);
  const starts = Math.floor(to) - Math.ceil(from) + 1;
  if (!(starts >= 1)) {
    throw new RangeError(`from..to must hold an integer start, got ${show(from)}..${show(to)}`);
  }
  checkInt('bins', bins, 1, Math.min(starts, MAX_COUNT));
  checkWork('offset_envelope', 'q.length', q.length, 'starts in from..to', starts, true);
  checkNear('offset_envelope', 'from + offset', Math.ceil(from) + offset, base);
  checkNear('offset_envelope', 'to + offset', Math.floor(to) + offset, base);
  const call = (pq, pk, out) =>
    wasm.rope_offset_envelope(pq, q.length, pk, k.length, offset, from, to, bins, base, out);
  return runBlocks('offset_envelope', [q, k], ENVELOPE, bins, call, { q, k, offset, from, to, bins, base });
}

// ---- NumPy's random numbers (c_src/nprandom/nprandom.h, docs/EXPLAIN.md) ----

const NP_SEED_MAX = 2n ** 64n - 1n;

// A NumPy seed: an integer in [0, 2^64), as a BigInt, or as a Number while exact.
function checkNpSeed(seed) {
  if (typeof seed === 'bigint') {
    if (seed >= 0n && seed <= NP_SEED_MAX) return seed;
  } else {
    checkNumber('seed', seed);
    if (Number.isSafeInteger(seed) && seed >= 0) return BigInt(seed);
  }
  throw new RangeError(`seed must be an integer in [0, ${NP_SEED_MAX}] (a BigInt past 2^53), got ${show(seed)}`);
}

/** np.random.default_rng(seed).normal(size=n): NumPy's doubles, bit for bit; n up to MAX_COUNT. */
export function np_normal(seed, n) {
  const s = checkNpSeed(seed);
  checkInt('n', n, 0, MAX_COUNT);
  return run('np_normal', [], [[n, 'f64']], (out) => wasm.rope_np_normal(s, out, n), {
    args: { seed, n },
  })[0];
}

/** The blog's 512-dimension example: one token drawn as default_rng(seed).normal(size=dim),
 * scored against itself with the query at m and the key at n: { token, score }. */
export function planes_example(seed, dim = 512, base = THETA_BASE, m = 3, n = 7) {
  const s = checkNpSeed(seed);
  checkInt('dim', dim, 0, MAX_DIM);
  checkBase(base);
  checkFiniteNear('planes_example', 'm', m, base);
  checkFiniteNear('planes_example', 'n', n, base);
  const [token, score] = run(
    'planes_example',
    [],
    [
      [dim, 'f64'],
      [1, 'f64'],
    ],
    (pt, ps) => wasm.rope_planes_example(s, dim, base, m, n, pt, ps),
    {
      args: { seed, dim, base, m, n },
    },
  );
  return { token, score: score[0] };
}

// ---- the lesson's chapters (c_src/lesson/lesson.h, docs/LESSON.md) ----

// The names of a flat output's slots, from lesson.h's and port.h's macros: group 'CAT' gives
// [['qm0', 0], ['qm1', 1], ...] without the length and block macros listed in skip.
function slotNames(group, skip) {
  return C.ROPE_GROUPS[group].filter(([name]) => !skip.includes(name.toUpperCase()));
}
const named = (flat, names) => Object.fromEntries(names.map(([name, j]) => [name, flat[j]]));

// Each table marked free of side effects (/* @__PURE__ */), so a bundle that never reads it (a
// one-view embed's) leaves it and the slots' table behind.
const ORDER_BLOCKS = { plain: C.ROPE_ORDER_PLAIN, added: C.ROPE_ORDER_ADDED, rotated: C.ROPE_ORDER_ROTATED };
const SLOT_NAMES = /* @__PURE__ */ slotNames('SLOT', ['MEASURES']);
const EXTRA_NAMES = /* @__PURE__ */ slotNames('EXTRA', ['BLOCKS']);
const ID_NAMES = /* @__PURE__ */ slotNames('ID', ['LEN']);
const CAT_NAMES = /* @__PURE__ */ slotNames('CAT', ['LEN']);
const CLOCK_NAMES = /* @__PURE__ */ slotNames('CLOCK', ['LEN']);
const REBASE_NAMES = /* @__PURE__ */ slotNames('REBASE', ['LEN']);
const WEIGHTS_NAMES = /* @__PURE__ */ slotNames('WEIGHTS', ['LEN']);
const POST_NAMES = /* @__PURE__ */ slotNames('POST', ['FIELDS']);

/** "a b" against "b a" with no learned grids, for each scheme (plain, added: sinusoidal marks,
 * rotated: RoPE): { plain, added, rotated }, each { ab: [aa, ab, ba, bb] scores in "a b",
 * ba: the same words' scores in "b a", diff: the largest |difference| }. a at slot s0, b at s0 + 1. */
export function lesson_order(a, b, s0 = 0, base = THETA_BASE) {
  checkList('a', a, MAX_DIM, 1);
  checkList('b', b, MAX_DIM, 1);
  checkSameLength('a', a, 'b', b);
  checkFiniteNear('lesson_order', 's0', s0, base);
  checkNear('lesson_order', 's0 + 1', s0 + 1, base);
  checkBase(base);
  const v = run(
    'lesson_order',
    [a, b],
    [[C.ROPE_ORDER_LEN, 'f64']],
    (pa, pb, out) => wasm.rope_lesson_order(pa, a.length, pb, b.length, s0, base, out),
    {
      args: { a, b, s0, base },
    },
  )[0];
  return Object.fromEntries(
    Object.entries(ORDER_BLOCKS).map(([name, block]) => {
      const at = block * C.ROPE_ORDER_BLOCK;
      return [
        name,
        {
          ab: v.slice(at, at + 4),
          ba: v.slice(at + C.ROPE_ORDER_SWAPPED, at + C.ROPE_ORDER_SWAPPED + 4),
          diff: v[at + C.ROPE_ORDER_DIFF],
        },
      ];
    }),
  );
}

/** stick + slot in every component, and how much the word is drowned:
 * { sum, cos, stick_norm, pos_norm, share, cos_pos } (lesson.h's ROPE_SLOT_*). */
export function lesson_slot(stick, slot) {
  checkList('stick', stick, MAX_DIM, 1);
  checkFiniteNear('lesson_slot', 'slot', slot);
  const n = stick.length;
  const v = run(
    'lesson_slot',
    [stick],
    [[n + C.ROPE_SLOT_MEASURES, 'f64']],
    (ps, out) => wasm.rope_lesson_slot(ps, n, slot, out),
    {
      args: { stick, slot },
    },
  )[0];
  return { sum: v.slice(0, n), ...named(v.slice(n), SLOT_NAMES) };
}

/** slot / length, as the core computes it; length finite and > 0. */
export function lesson_normalized(slot, length) {
  checkFinite('slot', slot);
  checkFinite('length', length);
  if (length <= 0) throw new RangeError(`length must be a finite number > 0, got ${show(length)}`);
  return run('lesson_normalized', [], [[1, 'f64']], (out) => wasm.rope_lesson_normalized(slot, length, out), {
    args: { slot, length },
  })[0][0];
}

/** The sinusoidal marks of width `width` at each position: one row of width values per position. */
export function lesson_marks(positions, width, base = THETA_BASE) {
  checkPositions('positions', positions);
  checkNearList('lesson_marks', 'positions', positions, base);
  checkInt('width', width, 0, MAX_DIM);
  checkBase(base);
  const c = positions.length;
  checkWork('lesson_marks', 'width', width, 'positions.length', c);
  const v = run(
    'lesson_marks',
    [positions],
    [[width * c, 'f64']],
    (pp, out) => wasm.rope_lesson_marks(pp, c, width, base, out),
    {
      args: { positions, width, base },
    },
  )[0];
  return Array.from({ length: c }, (_, p) => v.slice(p * width, (p + 1) * width));
}

/** stick + the sinusoidal mark of slot (width stick.length): the word carrying its mark. */
export function lesson_marked(stick, slot, base = THETA_BASE) {
  checkList('stick', stick, MAX_DIM, 1);
  checkFiniteNear('lesson_marked', 'slot', slot, base);
  checkBase(base);
  const call = (ps, n, out) => wasm.rope_lesson_marked(ps, n, slot, base, out);
  return sameLength('lesson_marked', stick, call, { stick, slot, base });
}

/** Each mark value at pos against the range over training positions 0 .. train - 1:
 * { value, min, max, outside } (arrays of width; outside 1 where value is out of [min, max]). */
export function lesson_extrapolate(pos, width, train, base = THETA_BASE) {
  checkFiniteNear('lesson_extrapolate', 'pos', pos, base);
  checkInt('width', width, 0, MAX_DIM);
  checkInt('train', train, 1, MAX_COUNT);
  checkBase(base);
  checkWork('lesson_extrapolate', 'width', width, 'train', train);
  const v = run(
    'lesson_extrapolate',
    [],
    [[C.ROPE_EXTRA_BLOCKS * width, 'f64']],
    (out) => wasm.rope_lesson_extrapolate(pos, width, train, base, out),
    {
      args: { pos, width, train, base },
    },
  )[0];
  return Object.fromEntries(EXTRA_NAMES.map(([name, b]) => [name, v.slice(b * width, (b + 1) * width)]));
}

/** sin(a + b) and cos(a + b) by the identities, every intermediate (lesson.h's ROPE_ID_*,
 * lower case: sin_a, cos_a, ..., a_turn, quadrant, sin_sum, sin_direct, ...). */
export function lesson_identity(a, b) {
  checkFiniteNear('lesson_identity', 'a', a);
  checkFiniteNear('lesson_identity', 'b', b);
  const v = run('lesson_identity', [], [[C.ROPE_ID_LEN, 'f64']], (out) => wasm.rope_lesson_identity(a, b, out), {
    args: { a, b },
  })[0];
  return named(v, ID_NAMES);
}

function checkCatArgs(fn, q, k, m, n, theta) {
  checkPair('q', q);
  checkPair('k', k);
  checkFiniteNear(fn, 'm', m);
  checkFiniteNear(fn, 'n', n);
  checkFinite('theta', theta);
  checkNear(fn, 'm × theta', m * theta);
  checkNear(fn, 'n × theta', n * theta);
}

// A chapter's pair call (lesson_cat, lesson_proof): q and k of two numbers, m, n and theta,
// checked, then the core's rope_<fn> run into len doubles.
function runCat(fn, len, q, k, m, n, theta) {
  checkCatArgs(fn, q, k, m, n, theta);
  const args = { q, k, m, n, theta };
  const call = (out) => wasm[`rope_${fn}`](q[0], q[1], k[0], k[1], m, n, theta, out);
  return run(fn, [], [[len, 'f64']], call, { args })[0];
}

/** One pair q at m, k at n, turning theta rad per position: the rotated pair, its angles
 * (start, after, predicted: radians; start_deg, after_deg), the score (direct) and the additive
 * score (added), as lesson.h's ROPE_CAT_* in lower case. */
export function lesson_cat(q, k, m, n, theta) {
  return named(runCat('lesson_cat', C.ROPE_CAT_LEN, q, k, m, n, theta), CAT_NAMES);
}

/** q_m · k_n expanded step by step: { terms[8], expanded, brackets[4], collected, identities[4],
 * identified, dot, cross, result, direct, products[4], gap, cosTerm, sinTerm }: the result is
 * cosTerm + sinTerm, (q·k) cos gap and (q×k) sin gap. */
export function lesson_proof(q, k, m, n, theta) {
  const v = runCat('lesson_proof', C.ROPE_PROOF_LEN, q, k, m, n, theta);
  const at = (j, count) => v.slice(j, j + count);
  return {
    terms: at(C.ROPE_PROOF_TERMS, 8),
    expanded: v[C.ROPE_PROOF_EXPANDED],
    brackets: at(C.ROPE_PROOF_BRACKETS, 4),
    collected: v[C.ROPE_PROOF_COLLECTED],
    identities: at(C.ROPE_PROOF_IDENTITIES, 4),
    identified: v[C.ROPE_PROOF_IDENTIFIED],
    dot: v[C.ROPE_PROOF_DOT],
    cross: v[C.ROPE_PROOF_CROSS],
    result: v[C.ROPE_PROOF_RESULT],
    direct: v[C.ROPE_PROOF_DIRECT],
    products: at(C.ROPE_PROOF_PRODUCTS, 4),
    gap: v[C.ROPE_PROOF_GAP],
    cosTerm: v[C.ROPE_PROOF_COS_TERM],
    sinTerm: v[C.ROPE_PROOF_SIN_TERM],
  };
}

function checkDivide(divide) {
  checkFinite('divide', divide);
  if (divide <= 0) throw new RangeError(`divide must be a finite number > 0, got ${show(divide)}`);
}

/** Pair `pair` of a dim-vector, slowed by divide, at position, as a clock hand:
 * { theta, radians, degrees, dial (degrees in [0, 360)), turns }. */
export function lesson_clock(pair, dim, base, position, divide = 1) {
  checkInt('dim', dim, 2, MAX_DIM);
  checkInt('pair', pair, 0, Math.floor(dim / 2) - 1);
  checkBase(base);
  checkFiniteNear('lesson_clock', 'position', position);
  checkDivide(divide);
  const v = run(
    'lesson_clock',
    [],
    [[C.ROPE_CLOCK_LEN, 'f64']],
    (out) => wasm.rope_lesson_clock(pair, dim, base, position, divide, out),
    {
      args: { pair, dim, base, position, divide },
    },
  )[0];
  return named(v, CLOCK_NAMES);
}

/** The same clock for an explicit theta (rad per position). */
export function lesson_clock_theta(theta, position, divide = 1) {
  checkFinite('theta', theta);
  checkFiniteNear('lesson_clock_theta', 'position', position);
  checkDivide(divide);
  const v = run(
    'lesson_clock_theta',
    [],
    [[C.ROPE_CLOCK_LEN, 'f64']],
    (out) => wasm.rope_lesson_clock_theta(theta, position, divide, out),
    {
      args: { theta, position, divide },
    },
  )[0];
  return named(v, CLOCK_NAMES);
}

// A base change's pair, dim, old and new base (each finite and > floor) and its two positions
// (finite and near; >= 0 too where nonNegative), as lesson_rebase and lesson_weights take them.
// Returns the call's arguments by name, for run().
function checkRebase(fn, pair, dim, bases, floor, positions, nonNegative) {
  checkInt('dim', dim, 2, MAX_DIM);
  checkInt('pair', pair, 0, Math.floor(dim / 2) - 1);
  for (const [name, b] of Object.entries(bases)) {
    checkNumber(name, b);
    if (!Number.isFinite(b) || b <= floor) {
      throw new RangeError(`${name} must be a finite number > ${floor}, got ${show(b)}`);
    }
  }
  for (const [name, x] of Object.entries(positions)) {
    checkFiniteNear(fn, name, x);
    if (nonNegative && x < 0) throw new RangeError(`${name} must be a finite number >= 0, got ${show(x)}`);
  }
  return { pair, dim, ...bases, ...positions };
}

/** One pair under a base change: { theta_old, theta_new, ratio, gap_old, gap_new (dial degrees
 * at gap), train_old, train_new (degrees swept over train positions) }. */
export function lesson_rebase(pair, dim, oldBase, newBase, gap, train) {
  const bases = { 'old base': oldBase, 'new base': newBase };
  const positions = { gap, train };
  const args = checkRebase('lesson_rebase', pair, dim, bases, 0, positions, false);
  const call = (out) => wasm.rope_lesson_rebase(pair, dim, oldBase, newBase, gap, train, out);
  return named(run('lesson_rebase', [], [[C.ROPE_REBASE_LEN, 'f64']], call, { args })[0], REBASE_NAMES);
}

/** What a base change fixes and what it cannot, for one pair trained on train positions at
 * oldBase: of the whole gaps 0 .. floor(widest), how many land inside the wedge of angles training
 * reached under each base, and how many are no longer than train (lesson.h's ROPE_WEIGHTS_*, lower
 * case: theta_old, theta_new, wedge (degrees), reach, turn_old, turn_new, far_old, far_new, gaps,
 * inside_old, inside_new, seen, share_old, share_new, share_seen). */
export function lesson_weights(pair, dim, oldBase, newBase, train, widest) {
  const bases = { 'old base': oldBase, 'new base': newBase };
  const positions = { train, 'widest gap': widest };
  const args = checkRebase('lesson_weights', pair, dim, bases, 1, positions, true);
  const call = (out) => wasm.rope_lesson_weights(pair, dim, oldBase, newBase, train, widest, out);
  return named(run('lesson_weights', [], [[C.ROPE_WEIGHTS_LEN, 'f64']], call, { args })[0], WEIGHTS_NAMES);
}

/** The lesson's chapter names in order ("order", "slot", ...). */
export function lesson_chapters() {
  core();
  const names = [];
  for (let j = 0; ; j++) {
    const p = wasm.rope_lesson_chapter(j);
    if (!p) return names;
    names.push(cString(p));
  }
}

/** Every number the blog post prints, recomputed: rows of { id, label, text (as printed),
 * printed, decimals, value, match (true at the post's rounding), chapter (a name) }. */
export function lesson_post() {
  core();
  const count = wasm.rope_lesson_post_count();
  const chapters = lesson_chapters();
  const v = run('lesson_post', [], [[count * C.ROPE_POST_FIELDS, 'f64']], (out) =>
    wasm.rope_lesson_post_table(out, count),
  )[0];
  return Array.from({ length: count }, (_, r) => {
    const f = named(v.slice(r * C.ROPE_POST_FIELDS, (r + 1) * C.ROPE_POST_FIELDS), POST_NAMES);
    return {
      id: cString(wasm.rope_lesson_post_id(r)),
      label: cString(wasm.rope_lesson_post_label(r)),
      text: cString(wasm.rope_lesson_post_text(r)),
      printed: f.printed,
      decimals: f.decimals,
      value: f.value,
      match: f.match === 1,
      chapter: chapters[f.chapter],
    };
  });
}

// ---- a port's number formats and pairing layouts (c_src/port/port.h, docs/VERIFY.md) ----

const PREC_NAMES = /* @__PURE__ */ slotNames('PREC', ['CASES']);
const MIX_NAMES = /* @__PURE__ */ slotNames('MIX', ['CASES']);
const LAYOUTS = /* @__PURE__ */ Object.freeze(
  /* @__PURE__ */ Object.assign(Object.create(null), {
    rotate_half: C.ROPE_LAYOUT_HALF,
    interleaved: C.ROPE_LAYOUT_INTERLEAVED,
  }),
);

// Pair frequencies (radians per position): 1 to MAX_DIM / 2 of them, each finite and > 0.
function checkFreqs(theta) {
  const t = checkList('theta', theta, MAX_DIM / 2, 1);
  t.forEach((v, j) => {
    if (!(v > 0)) throw new RangeError(`theta[${j}] must be > 0, got ${show(v)}`);
  });
  return t;
}

function checkLayout(layout) {
  if (typeof layout !== 'string' || !Object.hasOwn(LAYOUTS, layout)) {
    throw new RangeError(`layout must be 'rotate_half' or 'interleaved', got ${show(layout)}`);
  }
  return LAYOUTS[layout];
}

/** |pos × theta_i in a lower precision − pos × theta_i| per pair (radians), as port.h's cases:
 * { f32, bf16, f16, theta_bf16, theta_f16 }, each theta.length values; null where the angle is
 * lost (float16 overflows past 65504). */
export function precision_errors(theta, pos) {
  theta = checkFreqs(theta);
  checkFinite('pos', pos);
  const n = theta.length;
  const v = run(
    'precision_errors',
    [theta],
    [[C.ROPE_PREC_CASES * n, 'f64']],
    (pt, out) => wasm.rope_precision_errors(pt, n, pos, out),
    {
      args: { theta, pos },
    },
  )[0];
  const finite = (x) => (Number.isFinite(x) ? x : null);
  return Object.fromEntries(PREC_NAMES.map(([name, c]) => [name, v.slice(c * n, (c + 1) * n).map(finite)]));
}

/** The pair each of the 2n dimensions belongs to under layout ('rotate_half' or 'interleaved'). */
export function layout_pairs(layout, n) {
  const code = checkLayout(layout);
  checkInt('n', n, 1, MAX_DIM / 2);
  return run('layout_pairs', [], [[2 * n, 'i32']], (out) => wasm.rope_layout_pairs(code, n, out), {
    args: { layout, n },
  })[0];
}

/** The score of q at start + gap against k at start, starts start0 + j × step (j < count), when
 * the model's layout meets the other: { same, swapped, table } (port.h's ROPE_MIX_*). */
export function layout_scores(q, k, theta, layout, gap, start0, step, count) {
  [q, k] = checkVectors(q, k);
  theta = checkFreqs(theta);
  if (q.length !== 2 * theta.length) {
    throw new RangeError(`q and k must have 2 × theta.length = ${2 * theta.length} entries, got ${q.length}`);
  }
  const code = checkLayout(layout);
  checkFinite('gap', gap);
  checkFinite('start0', start0);
  checkFinite('step', step);
  checkInt('count', count, 0, MAX_COUNT);
  checkWork('layout_scores', 'q.length', q.length, 'count', count);
  const last = start0 + Math.max(count - 1, 0) * step;
  for (const [what, at] of [
    ['start0', start0],
    ['start0 + gap', start0 + gap],
    ['start0 + (count - 1) * step', last],
    ['start0 + (count - 1) * step + gap', last + gap],
  ]) {
    checkNear('layout_scores', what, at);
  }
  const v = run(
    'layout_scores',
    [q, k, theta],
    [[C.ROPE_MIX_CASES * count, 'f64']],
    (pq, pk, pt, out) => wasm.rope_layout_scores(pq, pk, theta.length, pt, code, gap, start0, step, count, out),
    {
      args: { q, k, theta, layout, gap, start0, step, count },
    },
  )[0];
  return Object.fromEntries(MIX_NAMES.map(([name, c]) => [name, v.slice(c * count, (c + 1) * count)]));
}

/** Attention temperature tuning's query scale 1 + β·ln(1 + ⌊(p + offset) / L0⌋) at each position
 * (Llama 4: offset 1, its NoPE layers; Ministral 3: offset 0): beta ≥ 0, l0 ≥ 1, positions ≥ 0. */
export function query_scales(beta, l0, offset, positions) {
  if (!(checkFinite('beta', beta) >= 0 && beta <= C.ROPE_QUERY_BETA_MAX)) {
    throw new RangeError(`beta must be a number from 0 to ${C.ROPE_QUERY_BETA_MAX}, got ${show(beta)}`);
  }
  if (checkFinite('l0', l0) < 1) throw new RangeError(`l0 must be a finite number >= 1, got ${show(l0)}`);
  checkInt('offset', offset, 0, 1);
  positions = checkPositions('positions', positions);
  const below = positions.findIndex((p) => p < 0);
  if (below >= 0) throw new RangeError(`positions[${below}] must be >= 0, got ${show(positions[below])}`);
  const n = positions.length;
  return run(
    'query_scales',
    [positions],
    [[n, 'f64']],
    (pp, out) => wasm.rope_query_scales(beta, l0, offset, pp, n, out),
    {
      args: { beta, l0, offset, positions },
    },
  )[0];
}
