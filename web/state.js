// The page's state and its URL form: one row per query parameter (web/README.md).
// Every value is checked here, so render() only ever sees numbers it can draw.
import { VIEWS } from './figures.js';

export { VIEWS };

const quote = (text) => {
  const s = String(text);
  return `'${s.length > 40 ? `${s.slice(0, 37)}...` : s}'`;
};

// A number row: Number() coercion, an empty box is not 0, then range and shape checks.
function numberRow(name, def, min, max, { integer = false, even = false, relation } = {}) {
  const kind = even ? 'an even integer' : integer ? 'a whole number' : 'a number';
  const rule = `${name} must be ${kind} from ${min} to ${max}`;
  return {
    name,
    type: integer ? 'int' : 'number',
    default: def,
    min,
    max,
    rule,
    // relation(value, state) -> '' when fine, else what is wrong (e.g. 'below to (4096)').
    relation,
    parse(text, state) {
      const raw = String(text ?? '').trim();
      const value = raw === '' ? NaN : Number(raw);
      const bad = !Number.isFinite(value) || value < min || value > max ||
        ((integer || even) && !Number.isInteger(value)) || (even && value % 2 !== 0);
      if (bad) return { ok: false, message: `${rule}, got ${quote(text)}` };
      const clash = relation && state ? relation(value, state) : '';
      if (clash) return { ok: false, message: `${name} must be ${clash}, got ${quote(text)}` };
      return { ok: true, value };
    },
    serialize: (value) => String(value),
  };
}

function choiceRow(name, def, values, toText, fromText) {
  return {
    name,
    type: 'choice',
    default: def,
    values,
    rule: `${name} must be one of ${values.map(toText).join(', ')}`,
    parse(text) {
      const value = fromText(String(text ?? '').trim());
      if (value === undefined) {
        return { ok: false, message: `${this.rule}, got ${quote(text)}` };
      }
      return { ok: true, value };
    },
    serialize: toText,
  };
}


export const PARAMS = [
  numberRow('dim', 64, 2, 1024, { even: true }),
  numberRow('base', 10000, 10, 1e7),
  numberRow('gap', 2, 0, 4096),
  numberRow('from', 0, 0, 65536, {
    relation: (v, s) => (v < s.to ? '' : `below to (${s.to})`),
  }),
  numberRow('to', 4096, 0, 65536, {
    relation: (v, s) => (v > s.from ? '' : `above from (${s.from})`),
  }),
  numberRow('n', 512, 256, 4096, { integer: true }),
  choiceRow('embed', false, [false, true], (v) => (v ? '1' : '0'),
    (t) => ({ 0: false, 1: true, false: false, true: true })[t]),
  choiceRow('view', 'all', VIEWS, (v) => v, (t) => (VIEWS.includes(t) ? t : undefined)),
];

export const PARAM = Object.fromEntries(PARAMS.map((row) => [row.name, row]));

export function defaults() {
  return Object.fromEntries(PARAMS.map((row) => [row.name, row.default]));
}

/**
 * State from a query string. Bad values fall back to their default; each one is
 * listed in problems as { name, text, message } for the page to show.
 */
export function readQuery(search) {
  const query = new URLSearchParams(search);
  const state = defaults();
  const problems = [];
  // Relations are checked after every value is read, so the order of params does not matter.
  for (const pass of ['value', 'relation']) {
    for (const row of PARAMS) {
      if (!query.has(row.name) || (pass === 'relation' && !row.relation)) continue;
      if (problems.some((p) => p.name === row.name)) continue;
      const text = query.get(row.name);
      const result = row.parse(text, pass === 'relation' ? state : undefined);
      if (result.ok) {
        state[row.name] = result.value;
      } else {
        state[row.name] = row.default;
        problems.push({ name: row.name, text, message: result.message });
      }
    }
  }
  // Defensive: a rejected value and its default could still clash; defaults never do.
  if (state.from >= state.to) {
    state.from = PARAM.from.default;
    state.to = PARAM.to.default;
  }
  return { state, problems };
}

/** The query string that reproduces state; embed and view only when they are not the default. */
export function writeQuery(state) {
  const query = new URLSearchParams();
  for (const row of PARAMS) {
    const value = state[row.name];
    if (row.type === 'choice' && value === row.default) continue;
    query.set(row.name, row.serialize(value));
  }
  return `?${query.toString()}`;
}
