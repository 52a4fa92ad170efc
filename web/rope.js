// ropescope's JS module: every CONTRACT.md function, computed by the C core
// compiled to WebAssembly. This file only checks arguments and moves numbers
// in and out of the wasm heap; no RoPE math happens here.
//
// Writing a binding (new ones go in their own section at the end of this file):
//   1. check every argument with the check* helpers below. Each throws a TypeError
//      (wrong type) or RangeError (wrong value) whose message names the parameter and
//      the value: checkInt, checkFinite, checkBase, checkVector, checkPositions,
//      checkList, checkSameLength, checkNear / checkNearList (|position| <= 1e10 for
//      anything the core rotates by), checkWork (d x count <= 2^28), checkOptions
//      (an options object: own keys only, aliases, no key twice).
//   2. call run(fn, ins, outs, call, { args }):
//        ins   arrays copied into the heap as doubles;
//        outs  [count, 'f64' | 'i32' | 'text'] buffers the core fills;
//        call  (...pointers) => wasm.rope_xxx(...), ins' pointers first, then outs';
//              it returns the core's code;
//        args  [[name, value], ...] shown in the error if the core refuses the call.
//      run returns the outputs as plain arrays (a 'text' output as a string) and frees
//      every buffer, also on error. one(fn, ins, call, args) is run() for one double.
//   Example:
//     export function thetas(d, base = THETA_BASE) {
//       checkInt('d', d, 0, MAX_DIM);
//       checkBase(base);
//       return run('thetas', [], [[Math.floor(d / 2), 'f64']], (out) => wasm.rope_thetas(d, base, out),
//         { args: [['d', d], ['base', base]] })[0];
//     }
// The limits and error codes come from c_src/rope.h through the generated rope_consts.js.
import { WASM_BASE64 } from './rope_wasm.js';
import * as C from './rope_consts.js';

export const DIM = C.ROPE_DIM;
export const THETA_BASE = C.ROPE_THETA_BASE;
export const MAX_DIM = C.ROPE_MAX_DIM;
export const MAX_COUNT = C.ROPE_MAX_COUNT;
export const MAX_POSITION = C.ROPE_MAX_POSITION;
export const MAX_WORK = C.ROPE_MAX_WORK;

// The report's settings under their option names, with the defaults of report.h.
const REPORT_DEFAULTS = Object.freeze(Object.assign(Object.create(null), {
  dim: C.ROPE_DIM,
  base: C.ROPE_THETA_BASE,
  offset: C.ROPE_REPORT_DEFAULT_OFFSET,
  starts: C.ROPE_REPORT_DEFAULT_STARTS,
  deltas: C.ROPE_REPORT_DEFAULT_DELTAS,
  norm_positions: C.ROPE_REPORT_DEFAULT_NORM_POSITIONS,
}));
// Other names a report setting may be given under (one name per setting in a call).
const REPORT_ALIASES = Object.freeze(Object.assign(Object.create(null), { gap: 'offset' }));

// Synchronous instantiation from inlined bytes: importing needs no server.
const wasm = (() => {
  const bytes = Uint8Array.from(atob(WASM_BASE64), (c) => c.charCodeAt(0));
  const imports = { env: { emscripten_notify_memory_growth() {} } };
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), imports);
  instance.exports._initialize?.();
  return instance.exports;
})();

// ---- argument checks: every message names the parameter and the value ----

// Far positions and work as a magnitude, 6 significant digits: 1e16 rather than
// 10000000000000004, 5.11e10 rather than 51100000000.
function showNumber(x) {
  if (!Number.isFinite(x) || Math.abs(x) < 1e6) return String(x);
  return Number(x.toPrecision(6)).toExponential().replace('e+', 'e');
}

function show(value) {
  if (typeof value === 'string') {
    const text = JSON.stringify(value);
    return text.length > 40 ? `${text.slice(0, 37)}..."` : text;
  }
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  return `a value of type ${typeof value}`;
}

function checkNumber(name, value) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be a number, got ${show(value)}`);
  }
}

function checkFinite(name, value) {
  checkNumber(name, value);
  if (!Number.isFinite(value)) {
    throw new RangeError(`${name} must be a finite number, got ${show(value)}`);
  }
  return value;
}

function checkInt(name, value, lo, hi) {
  checkNumber(name, value);
  if (!Number.isInteger(value) || value < lo || value > hi) {
    throw new RangeError(`${name} must be an integer in [${lo}, ${hi}], got ${show(value)}`);
  }
  return value;
}

function checkBase(base) {
  checkNumber('base', base);
  if (!Number.isFinite(base) || base <= 0) {
    throw new RangeError(`base must be a finite number > 0, got ${show(base)}`);
  }
  return base;
}

function isArrayLike(value) {
  return Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
}

// A list of finite numbers: vector entries (max length MAX_DIM) or positions (MAX_COUNT).
function checkList(name, value, maxLength, minLength = 0) {
  if (!isArrayLike(value)) {
    throw new TypeError(`${name} must be an array of numbers, got ${show(value)}`);
  }
  if (value.length < minLength || value.length > maxLength) {
    throw new RangeError(
      `${name} must have ${minLength} to ${maxLength} elements, got ${value.length}`,
    );
  }
  for (let j = 0; j < value.length; j++) checkFinite(`${name}[${j}]`, value[j]);
  return value;
}

const checkVector = (name, value) => checkList(name, value, MAX_DIM);
const checkPositions = (name, value) => checkList(name, value, MAX_COUNT);

// A position the core rotates by must stay within MAX_POSITION (ROPE_E_FAR in the core).
// what: how the position is written ('pos', 'starts[3] + offset'); value: the position.
function checkNear(fn, what, value) {
  if (Math.abs(value) > MAX_POSITION) {
    throw new RangeError(`${fn}: ${what} = ${showNumber(value)} is beyond ${showNumber(MAX_POSITION)},` +
      ' where doubles can no longer resolve the angle');
  }
}

function checkNearList(fn, name, values, offset = 0, offsetName = '') {
  for (let j = 0; j < values.length; j++) {
    checkNear(fn, `${name}[${j}]`, values[j]);
    if (offsetName) checkNear(fn, `${name}[${j}] + ${offsetName}`, values[j] + offset);
  }
}

// One call's work, d x count, must stay within MAX_WORK (ROPE_E_WORK in the core).
function checkWork(fn, dName, d, countName, count) {
  if (d * count > MAX_WORK) {
    throw new RangeError(`${fn}: ${dName} x ${countName} = ${d} x ${count} = ${d * count} is above` +
      ` ${MAX_WORK}, too much work for one call`);
  }
}

/**
 * An options object read through own properties only, into a null-prototype table:
 * keys not in defaults (and not an alias of one) throw a TypeError naming the key, so
 * 'constructor', 'toString' or '__proto__' are refused like any unknown name; a setting
 * given under two names throws too. Missing settings take their default.
 */
function checkOptions(what, options, defaults, aliases = Object.create(null)) {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${what} must be an object, got ${show(options)}`);
  }
  const o = Object.assign(Object.create(null), defaults);
  const givenAs = Object.create(null);
  for (const key of Object.keys(options)) {
    const name = Object.hasOwn(aliases, key) ? aliases[key] : key;
    if (!Object.hasOwn(defaults, name)) {
      throw new TypeError(`${what}.${key} is not a setting (use ${Object.keys(defaults).join(', ')})`);
    }
    if (Object.hasOwn(givenAs, name)) {
      throw new TypeError(`${what}: ${name} is given twice, as ${givenAs[name]} and as ${key}`);
    }
    givenAs[name] = key;
    o[name] = options[key];
  }
  return o;
}

// d, one finite gap or delta, and base: what every per-pair function takes.
function checkPairsArgs(d, name, value, base) {
  checkInt('d', d, 0, MAX_DIM);
  checkFinite(name, value);
  checkBase(base);
}

function checkSameLength(nameA, a, nameB, b) {
  if (a.length !== b.length) {
    throw new RangeError(
      `${nameA} and ${nameB} must have the same length, got ${a.length} and ${b.length}`,
    );
  }
}

// ---- the wasm heap: malloc, copy in, call, copy out, free in finally ----

function cString(ptr) {
  const heap = new Uint8Array(wasm.memory.buffer);
  let end = ptr;
  while (heap[end] !== 0) end++;
  return new TextDecoder().decode(heap.subarray(ptr, end));
}

// An argument in a core error: short arrays in full, long ones by length and largest |x|.
function showArg(value) {
  if (!isArrayLike(value)) return show(value);
  if (value.length <= 4) return `[${Array.from(value, String).join(', ')}]`;
  let big = 0;
  for (const x of value) big = Math.max(big, Math.abs(x));
  return `${value.length} values, largest |x| ${big}`;
}

// A refusal by the core: the function, the core's text, and the call's arguments by name.
class CoreError extends RangeError {
  constructor(fn, code, args = []) {
    const shown = args.map(([name, value]) => `${name} = ${showArg(value)}`).join(', ');
    super(`${fn}: ${cString(wasm.rope_strerror(code))}${shown ? ` (${shown})` : ''}`);
    this.code = code;
  }
}

// Bytes per element of each output type. 'text' is a byte buffer read back as the
// NUL-terminated UTF-8 string the core wrote into it.
const OUT_BYTES = Object.freeze(Object.assign(Object.create(null), { f64: 8, i32: 4, text: 1 }));

function readOut(ptr, count, type) {
  if (type === 'text') {
    const bytes = new Uint8Array(wasm.memory.buffer, ptr, count);
    const end = bytes.indexOf(0);
    return new TextDecoder().decode(bytes.slice(0, end < 0 ? count : end));
  }
  const View = type === 'i32' ? Int32Array : Float64Array;
  return Array.from(new View(wasm.memory.buffer, ptr, count));
}

/**
 * The one path into the core. ins: arrays copied in as doubles. outs: [count, type] buffers
 * the core fills (type 'f64' | 'i32' | 'text'). call(...pointers) gets the ins' pointers then
 * the outs' and returns the core's code. A code other than 0 throws a CoreError naming fn,
 * unless it is listed in tolerate; then the outputs are still read and the code comes back
 * as the result's .code. Results are copied out as plain arrays (heap views detach when
 * memory grows); every buffer is freed in finally.
 */
function run(fn, ins, outs, call, { tolerate = [], args = [] } = {}) {
  const pointers = [];
  const alloc = (bytes) => {
    const ptr = wasm.malloc(Math.max(bytes, 8));
    if (!ptr) throw new CoreError(fn, C.ROPE_E_NOMEM, [...args, ['bytes', bytes]]);
    pointers.push(ptr);
    return ptr;
  };
  try {
    for (const values of ins) {
      new Float64Array(wasm.memory.buffer, alloc(values.length * 8), values.length).set(values);
    }
    for (const [count, type] of outs) alloc(count * OUT_BYTES[type]);
    const code = call(...pointers);
    if (code !== 0 && !tolerate.includes(code)) throw new CoreError(fn, code, args);
    const results = outs.map(([count, type], i) => readOut(pointers[ins.length + i], count, type));
    results.code = code;
    return results;
  } finally {
    for (const ptr of pointers) wasm.free(ptr);
  }
}

const one = (fn, ins, call, args) => run(fn, ins, [[1, 'f64']], call, { args })[0][0];

// ---- CONTRACT.md functions ----

export function demo_vectors(d = DIM) {
  checkInt('d', d, 0, MAX_DIM);
  return run('demo_vectors', [], [[d, 'f64'], [d, 'f64']], (q, k) =>
    wasm.rope_demo_vectors(d, q, k), { args: [['d', d]] });
}

export function dot(a, b) {
  checkVector('a', a);
  checkVector('b', b);
  checkSameLength('a', a, 'b', b);
  return one('dot', [a, b], (pa, pb, out) => wasm.rope_dot(pa, a.length, pb, b.length, out),
    [['a', a], ['b', b]]);
}

export function norm(vec) {
  checkVector('vec', vec);
  return one('norm', [vec], (pv, out) => wasm.rope_norm(pv, vec.length, out), [['vec', vec]]);
}

export function thetas(d, base = THETA_BASE) {
  checkInt('d', d, 0, MAX_DIM);
  checkBase(base);
  return run('thetas', [], [[Math.floor(d / 2), 'f64']], (out) =>
    wasm.rope_thetas(d, base, out), { args: [['d', d], ['base', base]] })[0];
}

export function rotate_pair(x0, x1, angle) {
  checkFinite('x0', x0);
  checkFinite('x1', x1);
  checkFinite('angle', angle);
  return run('rotate_pair', [], [[2, 'f64']], (out) =>
    wasm.rope_rotate_pair(x0, x1, angle, out), { args: [['x0', x0], ['x1', x1], ['angle', angle]] })[0];
}

export function apply_rope(vec, pos, base = THETA_BASE) {
  checkVector('vec', vec);
  checkFinite('pos', pos);
  checkNear('apply_rope', 'pos', pos);
  checkBase(base);
  return run('apply_rope', [vec], [[vec.length, 'f64']], (pv, out) =>
    wasm.rope_apply_rope(pv, vec.length, pos, base, out),
  { args: [['vec', vec], ['pos', pos], ['base', base]] })[0];
}

function checkScoreArgs(fn, q, k, m, n, base) {
  checkVector('q', q);
  checkVector('k', k);
  checkSameLength('q', q, 'k', k);
  checkFinite('m', m);
  checkFinite('n', n);
  checkNear(fn, 'm', m);
  checkNear(fn, 'n', n);
  checkBase(base);
  return [['q', q], ['k', k], ['m', m], ['n', n], ['base', base]];
}

export function rope_score(q, k, m, n, base = THETA_BASE) {
  const args = checkScoreArgs('rope_score', q, k, m, n, base);
  return one('rope_score', [q, k], (pq, pk, out) =>
    wasm.rope_score(pq, q.length, pk, k.length, m, n, base, out), args);
}

export function sin_pos(pos, d, base = THETA_BASE) {
  checkFinite('pos', pos);
  checkNear('sin_pos', 'pos', pos);
  checkInt('d', d, 0, MAX_DIM);
  checkBase(base);
  return run('sin_pos', [], [[d, 'f64']], (out) => wasm.rope_sin_pos(pos, d, base, out),
    { args: [['pos', pos], ['d', d], ['base', base]] })[0];
}

export function add_score(q, k, m, n, base = THETA_BASE) {
  const args = checkScoreArgs('add_score', q, k, m, n, base);
  return one('add_score', [q, k], (pq, pk, out) =>
    wasm.rope_add_score(pq, q.length, pk, k.length, m, n, base, out), args);
}

export function offset_scan(q, k, offset, starts, base = THETA_BASE) {
  checkVector('q', q);
  checkVector('k', k);
  checkSameLength('q', q, 'k', k);
  checkFinite('offset', offset);
  checkPositions('starts', starts);
  checkBase(base);
  checkWork('offset_scan', 'q.length', q.length, 'starts.length', starts.length);
  checkNearList('offset_scan', 'starts', starts, offset, 'offset');
  const flat = run('offset_scan', [q, k, starts], [[3 * starts.length, 'f64']], (pq, pk, ps, out) =>
    wasm.rope_offset_scan(pq, q.length, pk, k.length, offset, ps, starts.length, base, out),
  { args: [['q', q], ['k', k], ['offset', offset], ['starts', starts], ['base', base]] })[0];
  return Array.from(starts, (_, j) => flat.slice(3 * j, 3 * j + 3));
}

export function turns(d, delta, base = THETA_BASE) {
  checkPairsArgs(d, 'delta', delta, base);
  return run('turns', [], [[Math.floor(d / 2), 'f64']], (out) =>
    wasm.rope_turns(d, delta, base, out), { args: [['d', d], ['delta', delta], ['base', base]] })[0];
}

export function slow_pairs(d, delta, base = THETA_BASE) {
  checkPairsArgs(d, 'delta', delta, base);
  return run('slow_pairs', [], [[1, 'i32']], (out) =>
    wasm.rope_slow_pairs(d, delta, base, out), { args: [['d', d], ['delta', delta], ['base', base]] })[0][0];
}

// ---- batch entry points: one wasm call fills one chart ----

/** gap * theta_i for every pair, in radians. */
export function pair_angles(d, gap, base = THETA_BASE) {
  checkPairsArgs(d, 'gap', gap, base);
  checkNear('pair_angles', 'gap', gap);
  return run('pair_angles', [], [[Math.floor(d / 2), 'f64']], (out) =>
    wasm.rope_pair_angles(d, gap, base, out), { args: [['d', d], ['gap', gap], ['base', base]] })[0];
}

/** offset_scan over starts start0 + j * step, j < count: { starts, rope, add }. */
export function offset_sweep(q, k, offset, start0, step, count, base = THETA_BASE) {
  checkVector('q', q);
  checkVector('k', k);
  checkSameLength('q', q, 'k', k);
  checkFinite('offset', offset);
  checkFinite('start0', start0);
  checkFinite('step', step);
  checkInt('count', count, 0, MAX_COUNT);
  checkBase(base);
  checkWork('offset_sweep', 'q.length', q.length, 'count', count);
  if (count > 0) {
    // Positions are linear in j: both ends near enough means every start is.
    const last = start0 + (count - 1) * step;
    checkNear('offset_sweep', 'start0', start0);
    checkNear('offset_sweep', 'start0 + offset', start0 + offset);
    checkNear('offset_sweep', 'start0 + (count - 1) * step', last);
    checkNear('offset_sweep', 'start0 + (count - 1) * step + offset', last + offset);
  }
  const flat = run('offset_sweep', [q, k], [[3 * count, 'f64']], (pq, pk, out) =>
    wasm.rope_offset_sweep(pq, q.length, pk, k.length, offset, start0, step, count, base, out),
  { args: [['q', q], ['k', k], ['offset', offset], ['start0', start0], ['step', step], ['count', count],
    ['base', base]] })[0];
  return {
    starts: flat.slice(0, count),
    rope: flat.slice(count, 2 * count),
    add: flat.slice(2 * count),
  };
}

/** slow_pairs(d, delta, base) for every delta. */
export function slow_pairs_batch(d, deltas, base = THETA_BASE) {
  checkInt('d', d, 0, MAX_DIM);
  checkPositions('deltas', deltas);
  checkBase(base);
  checkWork('slow_pairs_batch', 'd', d, 'deltas.length', deltas.length);
  return run('slow_pairs_batch', [deltas], [[deltas.length, 'i32']], (pd, out) =>
    wasm.rope_slow_pairs_batch(d, pd, deltas.length, base, out),
  { args: [['d', d], ['deltas', deltas], ['base', base]] })[0];
}

/** |norm(apply_rope(vec, p)) - norm(vec)| for every position p. */
export function norm_gaps(vec, positions, base = THETA_BASE) {
  checkVector('vec', vec);
  checkPositions('positions', positions);
  checkBase(base);
  checkWork('norm_gaps', 'vec.length', vec.length, 'positions.length', positions.length);
  checkNearList('norm_gaps', 'positions', positions);
  return run('norm_gaps', [vec, positions], [[positions.length, 'f64']], (pv, pp, out) =>
    wasm.rope_norm_gaps(pv, vec.length, pp, positions.length, base, out),
  { args: [['vec', vec], ['positions', positions], ['base', base]] })[0];
}

// ---- the report: the same C writer as the CLI, so the bytes are the same ----

function reportOptions(options) {
  const o = checkOptions('options', options, REPORT_DEFAULTS, REPORT_ALIASES);
  checkInt('dim', o.dim, 0, MAX_DIM);
  checkBase(o.base);
  checkFinite('offset', o.offset);
  checkList('starts', o.starts, MAX_COUNT, 1);
  checkPositions('deltas', o.deltas);
  checkPositions('norm_positions', o.norm_positions);
  checkNearList('build_report', 'starts', o.starts, o.offset, 'offset');
  checkNearList('build_report', 'norm_positions', o.norm_positions);
  return o;
}

// The report is written into a 64 KB buffer; a longer one (ROPE_E_SPACE, with the length
// it needs) is written again into a buffer that fits.
function reportText(format, options) {
  const o = reportOptions(options);
  const args = [['dim', o.dim], ['base', o.base], ['offset', o.offset], ['starts', o.starts],
    ['deltas', o.deltas], ['norm_positions', o.norm_positions]];
  let cap = 1 << 16;
  for (;;) {
    const result = run('build_report', [o.starts, o.deltas, o.norm_positions], [[cap, 'text'], [1, 'i32']],
      (starts, deltas, norms, buf, lenPtr) => wasm.rope_report_write(format, o.dim, o.base, o.offset,
        starts, o.starts.length, deltas, o.deltas.length, norms, o.norm_positions.length,
        buf, cap, lenPtr),
      { tolerate: [C.ROPE_E_SPACE], args });
    const [text, [len]] = result;
    if (result.code === 0) return text;
    if (!(len + 1 > cap)) throw new CoreError('build_report', result.code, args);
    cap = len + 1;
  }
}

/** The report of CONTRACT.md as an object; with no options, the default report. */
export function build_report(options) {
  return JSON.parse(reportText(C.ROPE_REPORT_JSON, options));
}

/** rope_report.json exactly as the CLI writes it. */
export function build_report_json(options) {
  return reportText(C.ROPE_REPORT_JSON, options);
}

/** rope_report.md exactly as the CLI writes it. */
export function build_report_markdown(options) {
  return reportText(C.ROPE_REPORT_MARKDOWN, options);
}
