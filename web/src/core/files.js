// ropescope's second JS module over the C core: what reads and writes the CLI's files. The
// config reader (rope_config_read_json: jansson, and the C library's strtod with its 128-bit
// long double), the scaling writers (`ropescope scaling --format json|csv`) and the report
// writer (rope_report.json / .md) are a WebAssembly module of their own, build/files.wasm
// (c_src/files_exports.txt), so the lesson's module, rope.js's, carries none of them: only the
// code that reads a config or writes a file imports this file (the long-context part, the config
// checker, the report downloads). Its bindings are written as rope.js's are (see there); its
// argument checks are the same (checks.js), its plumbing the same (wasm.js).
//
// Node: import and call, as rope.js (the module is made at the first call, synchronously). A
// page awaits ready() first, which has the browser inflate the bytes.

import { WASM_PACKED } from '../../gen/files_wasm.js';
import * as C from '../../gen/rope_consts.js';
import { checkBase, checkFinite, checkInt, checkList, checkOptions, nearChecks, readOnce, show } from './checks.js';
import { wasmModule } from './wasm.js';

const MAX_DIM = C.ROPE_MAX_DIM;
const MAX_COUNT = C.ROPE_MAX_COUNT;

// The report's settings under their option names, with the defaults of report.h.
const REPORT_DEFAULTS = Object.freeze(
  Object.assign(Object.create(null), {
    dim: C.ROPE_DIM,
    base: C.ROPE_THETA_BASE,
    offset: C.ROPE_REPORT_DEFAULT_OFFSET,
    starts: C.ROPE_REPORT_DEFAULT_STARTS,
    deltas: C.ROPE_REPORT_DEFAULT_DELTAS,
    norm_positions: C.ROPE_REPORT_DEFAULT_NORM_POSITIONS,
  }),
);
// Other names a report setting may be given under (one name per setting in a call).
const REPORT_ALIASES = Object.freeze(Object.assign(Object.create(null), { gap: 'offset' }));

// The files module; wasm is its current exports (every path in starts with core()).
let wasm = null;
const files = wasmModule(WASM_PACKED, 'files module', (exports) => {
  wasm = exports;
});
const { core, run, writeText, release, cString, CoreError } = files;
const { checkNearList } = nearChecks(files);

const checkPositions = (name, value) => checkList(name, value, MAX_COUNT);

/**
 * Instantiates the files module with its bytes inflated by the browser, as rope.js's ready()
 * does for the core. Optional in Node (the first call makes it); the page awaits it before the
 * long-context part and the config checker start. Rejects where the module cannot be made (the
 * page then says so where the part would be).
 */
export function ready({ apart = false } = {}) {
  return files.ready({ apart });
}

// ---- the report: the same C writer as the CLI, so the bytes are the same ----

function reportOptions(options) {
  const o = checkOptions('options', options, REPORT_DEFAULTS, REPORT_ALIASES);
  checkInt('dim', o.dim, 0, MAX_DIM);
  checkBase(o.base);
  checkFinite('offset', o.offset);
  o.starts = checkList('starts', o.starts, MAX_COUNT, 1);
  o.deltas = checkPositions('deltas', o.deltas);
  o.norm_positions = checkPositions('norm_positions', o.norm_positions);
  checkNearList('build_report', 'starts', o.starts, o.base, o.offset, 'offset');
  checkNearList('build_report', 'norm_positions', o.norm_positions, o.base);
  return o;
}

function reportText(format, options) {
  const o = reportOptions(options);
  const args = {
    dim: o.dim,
    base: o.base,
    offset: o.offset,
    starts: o.starts,
    deltas: o.deltas,
    norm_positions: o.norm_positions,
  };
  const text = writeText(
    'build_report',
    [o.starts, o.deltas, o.norm_positions],
    (starts, deltas, norms, buf, lenPtr, cap) =>
      wasm.rope_report_write(
        format,
        o.dim,
        o.base,
        o.offset,
        starts,
        o.starts.length,
        deltas,
        o.deltas.length,
        norms,
        o.norm_positions.length,
        buf,
        cap,
        lenPtr,
      ),
    [],
    args,
  );
  if (typeof text === 'string') return text;
  throw new CoreError('build_report', text, args);
}

/** The report of docs/SPEC.md as an object; with no options, the default report. */
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

// ---- long context (scaling) ----
// A config.json's text goes whole to the C reader, rope_config_read_json: the same strict
// parser (jansson) and walk as `ropescope scaling --config`, so a file gets the same verdict
// in the same words on both sides. Its JSON or CSV text comes back, byte for byte what
// `ropescope scaling` prints.

const SCALING_DEFAULTS = Object.freeze(
  Object.assign(Object.create(null), {
    seq_len: 0,
    train_len: NaN,
    gap: NaN,
  }),
);

// The config as the C reader takes it: a file's bytes, a text, or an object the page built
// (as JSON text; a non-finite number, which JSON cannot hold, is refused naming its key).
// The kind of a real typed array, read from its internal slot: undefined for anything else, even
// an object whose prototype is a Uint8Array (which instanceof takes for one).
const typedArrayKind = Object.getOwnPropertyDescriptor(
  Object.getPrototypeOf(Uint8Array.prototype),
  Symbol.toStringTag,
).get;

function configBytes(config) {
  // A snapshot: no later change reaches C.
  if (typedArrayKind.call(config) === 'Uint8Array') return Uint8Array.prototype.slice.call(config);
  if (typeof config === 'string') return new TextEncoder().encode(config);
  if (
    config === null ||
    typeof config !== 'object' ||
    readOnce('config', () => Array.isArray(config)) ||
    ArrayBuffer.isView(config)
  ) {
    throw new TypeError(`config must be config.json text, its bytes, or an object of config keys, got ${show(config)}`);
  }
  const paths = new WeakMap([[config, '']]);
  function keep(key, value) {
    const name = paths.has(this) && key !== '' ? `${paths.get(this)}${paths.get(this) ? '.' : ''}${key}` : key;
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new RangeError(`config.${name} must be a finite number, got ${value}`);
    }
    if (value !== null && typeof value === 'object' && !paths.has(value)) paths.set(value, name);
    return value;
  }
  let text;
  try {
    text = JSON.stringify(config, keep);
  } catch (err) {
    if (err instanceof RangeError && err.message.includes('must be a finite number')) throw err;
    throw new TypeError(`config could not be read: ${err.message}`);
  }
  return new TextEncoder().encode(text);
}

// { seq_len, train_len, gap }: own keys only; a given value must be finite.
function scalingOptions(opts) {
  const o = checkOptions('options', opts, SCALING_DEFAULTS);
  for (const name of Object.keys(SCALING_DEFAULTS)) {
    if (o[name] === undefined) o[name] = SCALING_DEFAULTS[name];
    else if (opts && readOnce('options', () => Object.hasOwn(opts, name))) checkFinite(name, o[name]);
  }
  return o;
}

// The reader's refusals (ROPE_E_CONFIG, ROPE_E_SCALING) carry a message naming the key.
const CONFIG_CODES = [C.ROPE_E_CONFIG, C.ROPE_E_SCALING];
// The writer's may carry one with any code (an overflow, ROPE_E_RANGE, names the key that made
// it, as the CLI prints it): each is read back below; one without a message is a CoreError.
const WRITE_CODES = C.ROPE_ERROR_CODES;

function scalingText(format, config, opts) {
  const bytes = configBytes(config);
  const o = scalingOptions(opts);
  const args = { seq_len: o.seq_len, train_len: o.train_len, gap: o.gap };
  // The reader lives in this instance: if a call traps, the instance is dropped with it.
  const w = core();
  const size = w.rope_config_size();
  const reader = w.malloc(size);
  if (!reader) throw new CoreError('scaling', C.ROPE_E_NOMEM, { bytes: size });
  try {
    wasm.rope_config_init(reader);
    // Too long a text is not copied in: the reader refuses it by its length alone.
    const whole = bytes.length <= C.ROPE_CONFIG_MAX_BYTES;
    let code = run(
      'scaling',
      whole ? [bytes] : [],
      [],
      (pt) => wasm.rope_config_read_json(reader, whole ? pt : 0, bytes.length),
      {
        tolerate: CONFIG_CODES,
        args: { 'config bytes': bytes.length },
      },
    ).code;
    if (code === 0) {
      const text = writeText(
        'scaling',
        [],
        (buf, lenPtr, cap) => wasm.rope_scaling_write(reader, format, o.seq_len, o.train_len, o.gap, buf, cap, lenPtr),
        WRITE_CODES,
        args,
      );
      if (typeof text === 'string') return text;
      code = text;
    }
    const message = cString(wasm.rope_config_message(reader));
    if (!message) throw new CoreError('scaling', code, args);
    throw code === C.ROPE_E_CONFIG ? new TypeError(message) : new RangeError(message);
  } finally {
    release('scaling', w, [reader]);
  }
}

/** What a model config's RoPE scaling does to each pair: the object `ropescope scaling
 *  --format json` prints. config: config.json's text, its bytes (a Uint8Array), or an object.
 *  opts: { seq_len, train_len, gap } (train_len and gap together). */
export function scaling_from_config(config, opts = {}) {
  return JSON.parse(scalingText(C.ROPE_SCALING_JSON, config, opts));
}

/** The inv_freq CSV, byte for byte what `ropescope scaling --format csv` prints. */
export function scaling_csv(config, opts = {}) {
  return scalingText(C.ROPE_SCALING_CSV, config, opts);
}

/** The JSON text itself (for a download identical to the CLI's). */
export function scaling_json_text(config, opts = {}) {
  return scalingText(C.ROPE_SCALING_JSON, config, opts);
}
