// The long-context part's menus: the presets and the scaling methods, with the parameters
// each method shows. Method values are the rope_type names the C config reader knows
// (c_src/scaling/resolve.c); the page only lists them, the reader applies every rule.
import { MODEL_NAMES } from '../../gen/models.js';
import { num } from '../lib/format.js';

// params: the page's controls for the method, in the order shown (web/README.md).
export const METHODS = Object.freeze(
  [
    { value: 'default', label: 'none (plain RoPE)', params: [] },
    { value: 'base_change', label: 'base change (a new rope_theta)', params: ['new-base'] },
    { value: 'linear', label: 'linear (Position Interpolation)', params: ['factor'] },
    { value: 'ntk', label: 'NTK-aware, static', params: ['factor'] },
    { value: 'dynamic', label: 'dynamic NTK', params: ['factor'] },
    {
      value: 'yarn',
      label: 'YaRN',
      params: ['factor', 'orig-max', 'beta-fast', 'beta-slow', 'truncate', 'mscale', 'mscale-all-dim'],
    },
    { value: 'longrope', label: 'LongRoPE (factor lists)', params: ['orig-max'] },
    { value: 'llama3', label: 'Llama 3 bands', params: ['factor', 'orig-max', 'low-freq', 'high-freq'] },
  ].map(Object.freeze),
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
export const COMPARABLE = Object.freeze(['linear', 'ntk', 'dynamic', 'yarn', 'llama3']);

/** The preset menu's values: the blog's example, then the model files' names. */
export const PRESETS = Object.freeze(['blog', ...MODEL_NAMES]);
export const DEFAULT_PRESET = 'llama-3.1-8b';

/** How the method is named in a sentence ("with llama3 at factor 8", "when base 10000 becomes 500000"). */
export function methodPhrase(model) {
  const { main, state } = model;
  switch (state.method) {
    case 'default':
      return 'without scaling';
    case 'base_change':
      return `when base ${num(main.base)} becomes ${num(main.resolved.base_used)}`;
    case 'longrope':
      return `with LongRoPE (its ${main.resolved.factor_list} factor list)`;
    default:
      return `with ${state.method} at factor ${num(main.factor)}`;
  }
}
