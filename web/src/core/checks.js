// The argument checks of the core's bindings (rope.js, files.js): every message names the
// parameter and the value. A list is read once into a snapshot; an options object by its own
// keys. The far and work rules are the core's own, asked through nearChecks(module).

import * as C from '../../gen/rope_consts.js';

// Far positions and work as a magnitude, 6 significant digits: 1e16 rather than
// 10000000000000004, 5.11e10 rather than 51100000000.
export function showNumber(x) {
  if (!Number.isFinite(x) || Math.abs(x) < 1e6) return String(x);
  return Number(x.toPrecision(6)).toExponential().replace('e+', 'e');
}

export function show(value) {
  if (typeof value === 'string') {
    const text = JSON.stringify(value);
    return text.length > 40 ? `${text.slice(0, 37)}..."` : text;
  }
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  if (value === null) return 'null';
  // A message must not throw in its turn: an array may be a Proxy whose traps throw.
  let isArray;
  try {
    isArray = Array.isArray(value);
  } catch {
    return 'a revoked Proxy';
  }
  if (!isArray) return `a value of type ${typeof value}`;
  let length;
  try {
    length = value.length;
  } catch {
    return 'an array whose length could not be read';
  }
  return typeof length === 'number'
    ? `an array of length ${length}`
    : `an array with a length of type ${typeof length}`;
}

export function checkNumber(name, value) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be a number, got ${show(value)}`);
  }
}

export function checkFinite(name, value) {
  checkNumber(name, value);
  if (!Number.isFinite(value)) {
    throw new RangeError(`${name} must be a finite number, got ${show(value)}`);
  }
  return value;
}

export function checkInt(name, value, lo, hi) {
  checkNumber(name, value);
  if (!Number.isInteger(value) || value < lo || value > hi) {
    throw new RangeError(`${name} must be an integer in [${lo}, ${hi}], got ${show(value)}`);
  }
  return value;
}

export function checkBase(base) {
  checkNumber('base', base);
  if (!Number.isFinite(base) || base <= 0) {
    throw new RangeError(`base must be a finite number > 0, got ${show(base)}`);
  }
  return base;
}

export function isArrayLike(value) {
  return Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
}

// Reads value[key] (or calls read()) once; a throwing getter or Proxy trap becomes a
// TypeError naming the parameter, not an anonymous error from deep inside a check.
export function readOnce(name, read) {
  try {
    return read();
  } catch (err) {
    throw new TypeError(`${name}: could not be read: ${errorText(err)}`);
  }
}

// What a caught value says, whatever was thrown (a number, a Proxy with a throwing getter).
export function errorText(err) {
  try {
    return typeof err === 'object' && err !== null && typeof err.message === 'string' ? err.message : String(err);
  } catch {
    return 'an exception that could not be shown';
  }
}

/**
 * A list of finite numbers (vector entries, max length MAX_DIM, or positions, MAX_COUNT),
 * read exactly once: its length once, then each element once, into a Float64Array that is
 * returned. Every later check, allocation and copy uses that snapshot, so an argument whose
 * length or elements change between reads (a Proxy, getters) cannot make the checks and the
 * copy disagree. exact: the message for a fixed length ("must have exactly 2 elements").
 */
export function checkList(name, value, maxLength, minLength = 0, exact = false) {
  if (!readOnce(name, () => isArrayLike(value))) {
    throw new TypeError(`${name} must be an array of numbers, got ${show(value)}`);
  }
  const length = readOnce(name, () => value.length);
  if (!Number.isInteger(length) || length < 0) {
    throw new TypeError(`${name} must be an array of numbers, got a length of ${show(length)}`);
  }
  if (length < minLength || length > maxLength) {
    throw new RangeError(
      exact
        ? `${name} must have exactly ${minLength} elements, got ${length}`
        : `${name} must have ${minLength} to ${maxLength} elements, got ${length}`,
    );
  }
  const snapshot = new Float64Array(length);
  for (let j = 0; j < length; j++) {
    snapshot[j] = checkFinite(
      `${name}[${j}]`,
      readOnce(name, () => value[j]),
    );
  }
  return snapshot;
}

/**
 * An options object read through own properties only, into a null-prototype table:
 * keys not in defaults (and not an alias of one) throw a TypeError naming the key, so
 * 'constructor', 'toString' or '__proto__' are refused like any unknown name; a setting
 * given under two names throws too. Missing settings take their default.
 */
export function checkOptions(what, options, defaults, aliases = Object.create(null)) {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object' || readOnce(what, () => Array.isArray(options))) {
    throw new TypeError(`${what} must be an object, got ${show(options)}`);
  }
  const o = Object.assign(Object.create(null), defaults);
  const givenAs = Object.create(null);
  for (const key of readOnce(what, () => Object.keys(options))) {
    const name = Object.hasOwn(aliases, key) ? aliases[key] : key;
    if (!Object.hasOwn(defaults, name)) {
      throw new TypeError(`${what}.${key} is not a setting (use ${Object.keys(defaults).join(', ')})`);
    }
    if (Object.hasOwn(givenAs, name)) {
      throw new TypeError(`${what}: ${name} is given twice, as ${givenAs[name]} and as ${key}`);
    }
    givenAs[name] = key;
    o[name] = readOnce(`${what}.${key}`, () => options[key]);
  }
  return o;
}

/**
 * The far and work rules are the core's (rope_check_rotating, rope_check_work,
 * rope_check_envelope_work in c_src/core/check.c): the helpers of nearChecks(module) ask that
 * module (wasmModule's { core, cString }), and turn a refusal into a RangeError naming what was
 * checked, its value and the core's text.
 */
export function nearChecks({ core, cString }) {
  function refuse(fn, what, shown, code) {
    if (code !== C.ROPE_OK) throw new RangeError(`${fn}: ${what} = ${shown}: ${cString(core().rope_strerror(code))}`);
  }

  // A position the core rotates by at the call's base. what: how the position is written
  // ('pos', 'starts[3] + offset'). A base that is no number or that the core refuses is left to
  // checkBase and the call, which report it (the core checks the base before any angle).
  function checkNear(fn, what, value, base = C.ROPE_THETA_BASE) {
    const w = core();
    if (typeof base === 'number' && w.rope_check_base(base) === C.ROPE_OK) {
      refuse(fn, what, showNumber(value), w.rope_check_rotating(value, base));
    }
  }

  function checkFiniteNear(fn, name, value, base) {
    checkFinite(name, value);
    checkNear(fn, name, value, base);
  }

  function checkNearList(fn, name, values, base, offset = 0, offsetName = '') {
    for (let j = 0; j < values.length; j++) {
      checkNear(fn, `${name}[${j}]`, values[j], base);
      if (offsetName) checkNear(fn, `${name}[${j}] + ${offsetName}`, values[j] + offset, base);
    }
  }

  // One call's work, d x count (both integers already in range). envelope: offset_envelope's
  // own limit, for a count of starts that may exceed an int (the lesson's module only).
  function checkWork(fn, dName, d, countName, count, envelope = false) {
    const code = envelope ? core().rope_check_envelope_work(d, count) : core().rope_check_work(d, count);
    refuse(fn, `${dName} x ${countName}`, `${d} x ${count} = ${d * count}`, code);
  }

  return { checkNear, checkFiniteNear, checkNearList, checkWork };
}
