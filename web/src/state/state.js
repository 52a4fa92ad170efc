// The page's state and its URL form: one row per query parameter (web/README.md).
// Every value is checked here, so render() only ever sees numbers it can draw.
import { FIGURE_NAMES } from '../../gen/figure_names.js';
import { COMPARABLE, DEFAULT_PRESET, METHOD_NAMES, PRESETS, usesParam } from '../model/methods.js';

/** The ?view= values: every figure's name, and 'all'. */
export const VIEWS = Object.freeze(['all', ...FIGURE_NAMES]);

const quote = (text) => {
  const s = String(text);
  return `'${s.length > 40 ? `${s.slice(0, 37)}...` : s}'`;
};

// The CLI's number grammar (rope_parse_decimal): optional sign, digits, optional fraction,
// optional exponent, nothing around it. No spaces, hex, binary, Infinity or NaN; integer
// settings take digits only (rope_parse_int).
const DECIMAL = /^[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

/** text as a number under the CLI's grammar: { ok, value } or { ok: false, why }. */
export function parseDecimal(text, { integer = false } = {}) {
  if (typeof text !== 'string' || !(integer ? INTEGER : DECIMAL).test(text)) {
    return { ok: false, why: integer ? 'not a whole number in digits' : 'not a plain decimal number' };
  }
  const value = Number(text);
  if (!Number.isFinite(value)) return { ok: false, why: 'too large' };
  // A nonzero mantissa read as 0 underflowed (1e-400).
  if (value === 0 && /[1-9]/.test(text.split(/[eE]/)[0])) return { ok: false, why: 'too small (rounds to 0)' };
  return { ok: true, value };
}

// A number row: the CLI's grammar (an empty box is not 0), then range and shape checks.
// slider: { step, log } when the setting has a range input (log: the slider holds log10).
// optional: left out of the URL while it holds its default (the explainer's settings).
// Messages name a setting by its label (LABELS, the words beside its box), not its URL key.
// A figure's own setting that stays out of the URL (the precision figure's position) is a
// number row too, with its label given.
export function numberRow(
  name,
  def,
  min,
  max,
  // moves: how it moves with the others (recheck, ceiling, linked; see PARAMS).
  { integer = false, even = false, relation, slider, optional = false, label = LABELS[name] ?? name, ...moves } = {},
) {
  const kind = even ? 'an even integer' : integer ? 'a whole number' : 'a number';
  const rule = `${label} must be ${kind} from ${min} to ${max}`;
  return {
    name,
    label,
    type: integer || even ? 'int' : 'number',
    default: def,
    min,
    max,
    rule,
    slider,
    optional,
    // relation(value, state) -> '' when fine, else what is wrong (e.g. 'below to (4096)').
    relation,
    ...moves,
    parse(text, state) {
      const read = parseDecimal(typeof text === 'string' ? text : String(text ?? ''), { integer: integer || even });
      if (!read.ok) return { ok: false, message: `${rule}, got ${quote(text)} (${read.why})` };
      const { value } = read;
      const bad = value < min || value > max || (even && value % 2 !== 0);
      if (bad) return { ok: false, message: `${rule}, got ${quote(text)}` };
      const clash = relation && state ? relation(value, state) : '';
      if (clash) return { ok: false, message: `${label} must be ${clash}, got ${quote(text)}` };
      return { ok: true, value };
    },
    serialize: (value) => String(value),
  };
}

// The words the page shows beside a setting's box, where they differ from its URL key (the key
// stays for old links). `n` is how many points the flatness figure draws, not the key position n.
const LABELS = Object.freeze(
  Object.assign(Object.create(null), {
    n: 'points drawn',
    pair: 'pair i',
    qm: 'query position m',
    kn: 'key position n',
    wq0: 'q₁',
    wq1: 'q₂',
    wk0: 'k₁',
    wk1: 'k₂',
    wm: 'query position m',
    wn: 'key position n',
    wth: 'θ',
    wsh: 'shift s',
    preset: 'model',
    'train-len': 'training length',
    'target-gap': 'gap at inference',
    method: 'scaling method',
    'new-base': 'new base',
    'orig-max': 'original length',
    'low-freq': 'low_freq_factor',
    'high-freq': 'high_freq_factor',
    'beta-fast': 'beta_fast',
    'beta-slow': 'beta_slow',
    'mscale-all-dim': 'mscale_all_dim',
  }),
);

// A lookup table with no prototype: 'constructor' or '__proto__' find nothing.
const table = (entries) => Object.freeze(Object.assign(Object.create(null), entries));

function choiceRow(name, def, values, toText, fromText) {
  const label = LABELS[name] ?? name;
  return {
    name,
    label,
    type: 'choice',
    default: def,
    values,
    rule: `${label} must be one of ${values.map(toText).join(', ')}`,
    parse(text) {
      const value = fromText(String(text ?? ''));
      if (value === undefined) {
        return { ok: false, message: `${this.rule}, got ${quote(text)}` };
      }
      return { ok: true, value };
    },
    serialize: toText,
  };
}

// The value a table gives a word of the URL, or undefined for a word it does not have.
const wordsIn = (table) => (t) => (Object.hasOwn(table, t) ? table[t] : undefined);

/** A yes/no setting: written 1 or 0, read through words (FLAG: exactly 1 or 0). */
const flagRow = (name, def, words = FLAG) =>
  choiceRow(name, def, [false, true], (v) => (v ? '1' : '0'), wordsIn(words));

/** A setting that is one of a list of names, written as itself. */
const nameRow = (name, def, list, fromText = (t) => (list.includes(t) ? t : undefined)) =>
  choiceRow(name, def, list, (v) => v, fromText);

// A comma-separated list of distinct names from `values`, in any order ('' for none); the value
// is a frozen array in `values` order, so equal settings always write the same URL.
function listRow(name, values) {
  return {
    name,
    label: name,
    type: 'choice',
    default: Object.freeze([]),
    values,
    rule: `${name} must be a comma-separated list of ${values.join(', ')} (each once), or empty`,
    parse(text) {
      const s = String(text ?? '');
      const names = s === '' ? [] : s.split(',');
      const ok = names.every((n) => values.includes(n)) && new Set(names).size === names.length;
      if (!ok) return { ok: false, message: `${this.rule}, got ${quote(text)}` };
      return { ok: true, value: Object.freeze(values.filter((v) => names.includes(v))) };
    },
    serialize: (value) => value.join(','),
  };
}

const EMBED = table({ 0: false, 1: true, false: false, true: true });
const TRUTH = table({ true: true, false: false });

// The long-context part (web/src/page/long.js wires these, not app.js). A default of null means
// "the preset's value": long.js fills it in after reading the URL. `when` says whether the
// URL carries the setting: a method's parameters only while that method is chosen.
const longRow = (row, when) => ({ ...row, part: 'long', when });
const methodParam = (row) => longRow(row, (s) => usesParam(s.method, row.name));

// compare: a comma list of methods drawn as comparison lines, in COMPARABLE's order.
function compareRow() {
  const rule = `compare must be a comma list of ${COMPARABLE.join(', ')} (or empty)`;
  return longRow({
    name: 'compare',
    label: 'compare',
    type: 'choice',
    default: 'linear,ntk',
    rule,
    parse(text) {
      const items = String(text ?? '')
        .split(',')
        .filter((item) => item !== '');
      const known = items.every((item) => COMPARABLE.includes(item));
      if (!known || new Set(items).size !== items.length) return { ok: false, message: `${rule}, got ${quote(text)}` };
      return { ok: true, value: COMPARABLE.filter((m) => items.includes(m)).join(',') };
    },
    serialize: (value) => value,
  });
}

const FLAG = table({ 0: false, 1: true });

// A name typed by a blogger ("Flatness", " dark "): matched ignoring case and surrounding
// spaces; the names of `values` are lower case and distinct, so this is never ambiguous.
function lenient(values, text) {
  const name = text.trim().toLowerCase();
  return values.includes(name) ? name : undefined;
}

/** In an embed, a refused view shows no figure and this one line (not every figure). */
export function unknownViewLine(problem) {
  return `No figure shown: view ${JSON.stringify(problem.text.slice(0, 40))} is not a figure; use one of ${VIEWS.join(', ')}.`;
}
/** The settings an embed can show as sliders (controls=), in the order they are shown. */
export const EMBED_CONTROLS = Object.freeze(['gap', 'dim', 'base']);
/** The embed themes (theme=): auto follows the reader's colour scheme; inherit lets the post's
 *  background show through and, in <rope-scope>, takes its text colour and font too. */
export const THEMES = Object.freeze(['auto', 'light', 'dark', 'inherit']);

// The one table of the page's settings: defaults, ranges and sliders. index.html holds no
// range: app.js sets every slider's min, max and step from here at startup.
// How settings move together is declared on their rows too, and follow() applies it:
//  - recheck: a box refused for its relation is read again after any other setting changes
//    (from and to check each other: a from refused for to's value may be fine with the next to).
//  - ceiling(state): the highest value the others allow; when they change, the setting comes
//    down to it, and its slider reaches no further (pair i below dim/2).
//  - linked: { name, when(state) }: while when(state) holds, moving this setting moves `name` by
//    as much (the gap lock: m and n move together, so the gap stays). The move is cut short
//    where `name` would leave its range.
export const PARAMS = [
  numberRow('dim', 64, 2, 1024, { even: true, slider: { step: 2 } }),
  numberRow('base', 10000, 10, 1e7, { slider: { step: 0.01, keyStep: 0.1, log: true } }),
  // A log slider from gap 1 to 1e6 moving by whole positions; 0 and fractions by box or preset.
  numberRow('gap', 2, 0, 1e6, { slider: { step: 0.001, keyStep: 0.05, log: true, integer: true, from: 1 } }),
  numberRow('from', 0, 0, 65536, {
    recheck: true,
    relation: (v, s) =>
      v < s.to && Math.ceil(v) <= Math.floor(s.to) ? '' : `below to (${s.to}) with a whole start position between them`,
  }),
  numberRow('to', 4096, 0, 65536, {
    recheck: true,
    relation: (v, s) =>
      v > s.from && Math.floor(v) >= Math.ceil(s.from)
        ? ''
        : `above from (${s.from}) with a whole start position between them`,
  }),
  numberRow('n', 512, 256, 4096, { integer: true, slider: { step: 256 } }),
  // The explainer (web/src/figures/circle.js). seed 0: the demo vectors; any other: random q, k from it.
  numberRow('seed', 0, 0, 4294967295, { integer: true, optional: true }),
  // Figure "one pair, rotating": pair i, query position m, key position n, gap lock.
  numberRow('pair', 0, 0, 511, {
    integer: true,
    optional: true,
    slider: { step: 1 },
    relation: (v, s) => (v < s.dim / 2 ? '' : `below dim/2 (${s.dim / 2})`),
    ceiling: (s) => s.dim / 2 - 1,
  }),
  numberRow('qm', 5, 0, 256, { optional: true, slider: { step: 1 }, linked: { name: 'kn', when: (s) => s.lock } }),
  numberRow('kn', 2, 0, 256, { optional: true, slider: { step: 1 }, linked: { name: 'qm', when: (s) => s.lock } }),
  flagRow('lock', false),
  // The blog's worked example: cat = [0.9, 0.4] as q and k, at 3 and 7, theta 0.1, moved by 7.
  numberRow('wq0', 0.9, -100, 100, { optional: true }),
  numberRow('wq1', 0.4, -100, 100, { optional: true }),
  numberRow('wk0', 0.9, -100, 100, { optional: true }),
  numberRow('wk1', 0.4, -100, 100, { optional: true }),
  numberRow('wm', 3, 0, 100000, { optional: true }),
  numberRow('wn', 7, 0, 100000, { optional: true }),
  numberRow('wth', 0.1, 0, 10, { optional: true }),
  numberRow('wsh', 7, 0, 100000, { optional: true }),
  flagRow('embed', false, EMBED),
  nameRow('view', 'all', VIEWS, (t) => lenient(VIEWS, t)),
  longRow(nameRow('preset', DEFAULT_PRESET, PRESETS)),
  longRow(
    numberRow('train-len', null, 1, 1e7, {
      integer: true,
      slider: { step: 0.001, keyStep: 0.05, log: true, integer: true },
    }),
  ),
  longRow(
    numberRow('target-gap', null, 1, 1e7, {
      integer: true,
      slider: { step: 0.001, keyStep: 0.05, log: true, integer: true },
    }),
  ),
  longRow(nameRow('method', null, METHOD_NAMES)),
  // The comparison lines use the factor too, whatever the method.
  longRow(numberRow('factor', null, 0.01, 1e4), (s) => usesParam(s.method, 'factor') || s.compare !== ''),
  methodParam(numberRow('new-base', null, 2, 1e12)),
  methodParam(numberRow('orig-max', null, 1, 1e7, { integer: true })),
  methodParam(numberRow('low-freq', null, 0.001, 1e4)),
  methodParam(numberRow('high-freq', null, 0.001, 1e4)),
  methodParam(numberRow('beta-fast', null, 0.001, 1e4)),
  methodParam(numberRow('beta-slow', null, 0.001, 1e4)),
  methodParam(choiceRow('truncate', null, [true, false], String, wordsIn(TRUTH))),
  methodParam(numberRow('mscale', null, 0, 100)),
  methodParam(numberRow('mscale-all-dim', null, 0, 100)),
  compareRow(),

  // Embed options (web/src/element/embed.js): colours, sliders inside the embed, figure headings.
  nameRow('theme', 'auto', THEMES, (t) => lenient(THEMES, t)),
  listRow('controls', EMBED_CONTROLS),
  flagRow('title', true),
];

/** Row by name; a null-prototype table, so only real settings are found. */
export const PARAM = table(Object.fromEntries(PARAMS.map((row) => [row.name, row])));

export function defaults() {
  return Object.assign(Object.create(null), Object.fromEntries(PARAMS.map((row) => [row.name, row.default])));
}

/** The settings with a ceiling, each at most its ceiling in `state` (the others as they are). */
export function bounded(state) {
  return Object.fromEntries(
    PARAMS.filter((row) => row.ceiling).map((row) => [row.name, Math.min(state[row.name], row.ceiling(state))]),
  );
}

/**
 * Every setting that changes when `name` is set to `value` in `state` (which is left as it
 * was), with its new value: { [setting]: value }, `name` first. Its value can be cut short (a
 * linked move at the end of the other's range); a linked setting is listed even when it moves
 * by 0. refused: { [setting]: text } for the boxes whose text was refused; those of recheck
 * rows that the new settings accept are listed with the value read.
 */
export function follow(name, value, state, refused = {}) {
  const changes = Object.create(null);
  const link = PARAM[name].linked;
  if (link?.when(state)) {
    const { min, max } = PARAM[link.name];
    const other = state[link.name];
    const delta = Math.min(Math.max(value - state[name], min - other), max - other);
    changes[name] = state[name] + delta;
    changes[link.name] = other + delta;
  } else {
    changes[name] = value;
  }
  const next = Object.assign(Object.create(null), state, changes);
  for (const [key, capped] of Object.entries(bounded(next))) {
    if (capped === next[key]) continue;
    changes[key] = capped;
    next[key] = capped;
  }
  for (const row of PARAMS) {
    if (!row.recheck || row.name === name || !Object.hasOwn(refused, row.name)) continue;
    const retry = row.parse(refused[row.name], next);
    if (!retry.ok) continue;
    changes[row.name] = retry.value;
    next[row.name] = retry.value;
  }
  return changes;
}

/** The most link parameters read: a link has about 50 settings at most, and one with tens of
 *  thousands of parameters would cost seconds of checking and a notice of as many lines. */
export const MAX_LINK_PARAMS = 100;

// The first MAX_LINK_PARAMS parameters of `all`, and how many there were (counted no further
// than needed: iterating 70,000 parameters is cheap, looking each one up is not).
function firstParams(all) {
  const kept = new URLSearchParams();
  let count = 0;
  for (const [name, value] of all) {
    if (++count <= MAX_LINK_PARAMS) kept.append(name, value);
  }
  return { kept, count };
}

/**
 * State from a query string. Bad values fall back to their default; each one is
 * listed in problems as { name, text, message } for the page to show (name is null
 * for a parameter that is not a setting: it is ignored). Past MAX_LINK_PARAMS parameters
 * the rest are not read, and one problem says so ({ name: null, whole: true }: its message
 * is a whole sentence, not about one parameter). chapterKeys: the names of the chapters' inputs
 * (state/chapters.js), returned as given in chapters { name: text } for the chapters to read.
 */
export function readQuery(search, chapterKeys = new Set()) {
  const { kept: query, count } = firstParams(new URLSearchParams(search));
  const state = defaults();
  const problems = [];
  if (count > MAX_LINK_PARAMS) {
    problems.push({
      name: null,
      text: '',
      whole: true,
      message: `The link has ${count} parameters; only the first ${MAX_LINK_PARAMS} were read`,
    });
  }
  const seen = new Set();
  const chapters = Object.create(null);
  for (const name of query.keys()) {
    if (seen.has(name)) continue;
    seen.add(name);
    if (chapterKeys.has(name)) {
      if (query.getAll(name).length > 1) {
        problems.push({ name, text: query.getAll(name).join(), message: `${name} is given more than once` });
      } else {
        chapters[name] = query.get(name);
      }
    } else if (!Object.hasOwn(PARAM, name)) {
      problems.push({ name: null, text: name, message: `${quote(name)} is not a setting` });
    } else if (query.getAll(name).length > 1) {
      problems.push({ name, text: query.getAll(name).join(), message: `${name} is given more than once` });
    }
  }
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
  return { state, problems, chapters };
}

/** The query string that reproduces state; choices, optional settings and the embed options only
 *  when not the default; then chapters, [[name, text]] of the chapters' inputs that changed. */
export function writeQuery(state, chapters = []) {
  const query = new URLSearchParams();
  for (const row of PARAMS) {
    const value = state[row.name];
    if ((row.type === 'choice' || row.optional) && row.serialize(value) === row.serialize(row.default)) continue;
    if (value === null || (row.when && !row.when(state))) continue;
    query.set(row.name, row.serialize(value));
  }
  for (const [name, text] of chapters) query.set(name, text);
  // A comma needs no escaping in a query: controls=gap,dim reads better than gap%2Cdim.
  return `?${query.toString().replace(/%2C/g, ',')}`;
}
