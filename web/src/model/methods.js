// The long-context part's menus: the presets and the scaling methods, with the parameters
// each method shows. The methods are the rows of the C methods' table (c_src/scaling/methods.c,
// generated into gen/methods.js): the page only lists them, the reader applies every rule.
import { METHOD_ROWS, PARAM_ROWS } from '../../gen/methods.js';
import { MODEL_NAMES } from '../../gen/model_names.js';
import { num } from '../lib/format.js';

// value (the rope_type), label, params (the page's controls, in the order shown: web/README.md),
// seqLen (reads the sequence length), compare (its comparison line's theme colour, or null),
// factor (scales by a factor; false for default and base_change).
export const METHODS = Object.freeze(
  METHOD_ROWS.map(([value, label, params, seqLen, compare, factor]) =>
    Object.freeze({
      value,
      label,
      params: params.map((i) => PARAM_ROWS[i][0]),
      seqLen,
      compare,
      factor: factor === 1,
    }),
  ),
);

/** Each method parameter by control name: its config key, its fallback, whether 0 is "not given". */
export const PARAM_ROW = Object.freeze(
  Object.fromEntries(
    PARAM_ROWS.map(([param, key, fallback, zeroAbsent]) => [param, Object.freeze({ key, fallback, zeroAbsent })]),
  ),
);

/** Method row by value (null prototype). */
export const METHOD = Object.freeze(
  Object.assign(Object.create(null), Object.fromEntries(METHODS.map((m) => [m.value, m]))),
);

export const METHOD_NAMES = Object.freeze(METHODS.map((m) => m.value));

/** Every method parameter, each once, in menu order. */
export const METHOD_PARAMS = Object.freeze([...new Set(METHODS.flatMap((m) => m.params))]);

/** Does the method show this parameter? */
export const usesParam = (method, param) => Object.hasOwn(METHOD, method) && METHOD[method].params.includes(param);

// Methods the scaling figure can draw as comparison lines at the same factor.
export const COMPARABLE = Object.freeze(METHODS.filter((m) => m.compare).map((m) => m.value));

/** The preset menu's values: the blog's example, then the model files' names. */
export const PRESETS = Object.freeze(['blog', ...MODEL_NAMES]);
export const DEFAULT_PRESET = 'llama-3.1-8b';

/**
 * How the method is named in a sentence ("with llama3 at factor 8", "when base 10000 becomes
 * 500000"). A method whose row has no factor (the table's factor column) is named by its label
 * alone, so a method added to the table never reads "at factor null".
 */
export function methodPhrase(model) {
  const { main, state } = model;
  switch (state.method) {
    case 'default':
      return 'without scaling';
    case 'base_change':
      return `when base ${num(main.base)} becomes ${num(main.resolved.base_used)}`;
    case 'longrope':
      return `with LongRoPE (its ${main.resolved.factor_list} factor list)`;
    default: {
      const row = Object.hasOwn(METHOD, state.method) ? METHOD[state.method] : null;
      if (row === null || !row.factor || !Number.isFinite(main.factor)) return `with ${row ? row.label : state.method}`;
      return `with ${state.method} at factor ${num(main.factor)}`;
    }
  }
}
