// Long-context state -> numbers: the config the page builds from a preset and the method
// controls, and everything the two long-context figures and their captions show, from the
// C config reader through scaling_from_config. No rule or formula here: the config reader and
// the scaling core decide every number (docs/SCALING.md). The reader is the files module
// (core/files.js), not the lesson's core, and this file does not import it: the code that draws
// the long-context figures does (the figures register it with useReader as they load, so their
// chunks carry it), and the page's long-context part loads it after the first paint
// (readerReady). Until then longModel gives null and the figures wait.

import { modelTexts } from '../../gen/models.js';
import * as rope from '../core/rope.js';
import { COMPARABLE, METHOD, PARAM_ROW } from './methods.js';

// The blog's example: its settings (inputs), not its results.
export const BLOG = Object.freeze({
  label: 'the blog’s example (d 512)',
  config: Object.freeze({ head_dim: 512, rope_theta: 10000, max_position_embeddings: 8192 }),
  train: 8192,
  gap: 50000,
  method: 'base_change',
  newBase: 500000,
  factor: 8,
});

// Each method parameter's config key (inside the rope_scaling block), its fallback where the
// config has none, and whether 0 stands for "not given" (mscale): the methods' table's rows.
// Methods that read the current sequence length get the gap.
const readsSeqLen = (method) => METHOD[method].seqLen;

const presets = new Map();
// Every setting a preset gives a value (its defaults' keys, below).
const LONG_SETTINGS = [
  'method',
  'train-len',
  'target-gap',
  ...Object.keys(PARAM_ROW),
  'factor',
  'new-base',
  'orig-max',
];

// The files module (core/files.js), once registered or loaded.
let files = null;

/** Registers the files module (a long-context figure's module does, importing it). */
export function useReader(module) {
  files ??= module;
}

/** Loads the files module (if no figure registered it) and has the browser make its instance
 *  (files.ready); the page's long-context part, the tools and the tests await it before the
 *  first call. Rejects, saying why, where the module cannot be made. */
export async function readerReady() {
  files ??= await import('../core/files.js');
  await files.ready();
}

// The reader, or an error saying it was not loaded.
function reader() {
  if (!files) throw new Error('the config reader (core/files.js) is not loaded: await readerReady() first');
  return files;
}

/** The config text a preset fills the checker with (a model file, or the blog's settings). */
export function presetText(name) {
  return name === 'blog' ? `${JSON.stringify(BLOG.config, null, 2)}\n` : modelTexts()[name];
}

/**
 * A preset: its config, the core's reading of it (rope_type, rotary_dim, base, resolved
 * fields), its factor lists if any, and the page's starting value of every long setting.
 */
export function preset(name) {
  if (presets.has(name)) return presets.get(name);
  const text = presetText(name);
  const config = JSON.parse(text);
  const read = reader().scaling_from_config(config);
  const r = read.resolved;
  const blog = name === 'blog';
  const block =
    config.rope_parameters && typeof config.rope_parameters === 'object'
      ? config.rope_parameters
      : (config.rope_scaling ?? {});
  const lists =
    Array.isArray(block.short_factor) && Array.isArray(block.long_factor)
      ? Object.freeze({ short: block.short_factor, long: block.long_factor })
      : null;
  // Training length: the original context where the config names one, else its maximum.
  const train = blog ? BLOG.train : (r.original_max_position_embeddings ?? r.max_position_embeddings);
  const maxPos = r.max_position_embeddings;
  // Each parameter: the config's value as the reader resolved it, else the table's fallback
  // (the reader's own default where the key is optional: yarn's beta_fast 32, ...).
  const params = Object.fromEntries(
    Object.entries(PARAM_ROW).map(([param, { key, fallback }]) => [param, r[key] ?? fallback]),
  );
  const defaults = Object.freeze({
    method: blog ? BLOG.method : read.rope_type,
    'train-len': train,
    // The context the model claims, or four times the training length where it claims no more.
    'target-gap': blog ? BLOG.gap : maxPos > train ? maxPos : 4 * train,
    ...params,
    factor: read.factor ?? BLOG.factor,
    // A base change's starting point: Llama 3's step, 10000 -> 500000 (×50).
    'new-base': blog ? BLOG.newBase : 50 * read.base,
    'orig-max': r.original_max_position_embeddings ?? train,
  });
  const entry = Object.freeze({ name, text, config, read, lists, defaults });
  presets.set(name, entry);
  return entry;
}

/** state with every long setting still null (left out of a link) set to its preset's value. */
export function fillFromPreset(state) {
  const { defaults } = preset(state.preset);
  for (const [name, value] of Object.entries(defaults)) if (state[name] === null) state[name] = value;
  return state;
}

/** A copy of state with the long settings that equal their preset's value back at null, so a
 *  link written from it (state.js writeQuery) leaves them out. */
export function presetValuesDropped(state) {
  // Only a long setting that is set (not null) can equal its preset's value: with none, the
  // preset (and the reader) need not be read.
  if (!LONG_SETTINGS.some((k) => state[k] !== null && state[k] !== undefined)) return { ...state };
  const { defaults } = preset(state.preset);
  const copy = { ...state };
  for (const [name, value] of Object.entries(defaults)) if (copy[name] === value) copy[name] = null;
  return copy;
}

/** Can the method run on this preset? (LongRoPE needs the preset's factor lists.) */
export const methodAvailable = (p, method) => method !== 'longrope' || p.lists !== null;

/** The config the page hands to the reader: the preset's rotary dim, base and maximum, and a block from the controls. */
export function configFor(p, state, method = state.method) {
  const config = {
    head_dim: p.read.rotary_dim,
    rope_theta: p.read.base,
  };
  if (p.read.resolved.max_position_embeddings !== null) {
    config.max_position_embeddings = p.read.resolved.max_position_embeddings;
  }
  if (method === 'default') return config;
  const block = { rope_type: method };
  for (const param of METHOD[method].params) {
    if (PARAM_ROW[param].zeroAbsent && state[param] === 0) continue;
    block[PARAM_ROW[param].key] = state[param];
  }
  if (method === 'longrope' && p.lists) {
    block.short_factor = p.lists.short;
    block.long_factor = p.lists.long;
  }
  config.rope_scaling = block;
  return config;
}

function scalingOf(p, state, method) {
  const opts = { train_len: state['train-len'], gap: state['target-gap'] };
  if (readsSeqLen(method)) opts.seq_len = state['target-gap'];
  return reader().scaling_from_config(configFor(p, state, method), opts);
}

// The blog's round example: a pair with θ = 1/base. That is pair 1 of a 4-dim rotation at
// base², since (base²)^(−2/4) = 1/base: the core computes its angles like any other pair's.
function roundExample(base, state) {
  const config = { head_dim: 4, rope_theta: base * base, rope_scaling: { rope_type: 'linear', factor: state.factor } };
  const opts = { train_len: state['train-len'], gap: state['target-gap'] };
  const scaled = reader().scaling_from_config(config, opts);
  const plain = reader().scaling_from_config({ head_dim: 4, rope_theta: base * base }, opts);
  return {
    theta: scaled.pairs[1].inv_freq,
    factor: scaled.factor,
    trained: scaled.range.pairs[1].trained_angle,
    unscaled: plain.range.pairs[1].gap_angle,
    scaled: scaled.range.pairs[1].gap_angle,
  };
}

const LONG_KEYS = ['preset', 'train-len', 'target-gap', 'method', ...Object.keys(PARAM_ROW), 'compare'];
const cache = new Map();
const compareCache = new Map();
const CACHE_SIZE = 32;

function remember(table, key, value) {
  if (table.size >= CACHE_SIZE) table.delete(table.keys().next().value);
  table.set(key, value);
}

// A comparison line: the method at the state's factor with the preset's other values. Its
// ratios depend on the gap only where the method reads the sequence length (dynamic), so a
// gap sweep reads the others from the cache.
function comparison(p, state, method) {
  const seqLen = readsSeqLen(method) ? state['target-gap'] : null;
  const key = [p.name, method, state.factor, seqLen].join('|');
  if (!compareCache.has(key)) {
    const config = configFor(p, { ...p.defaults, factor: state.factor }, method);
    const scaling = reader().scaling_from_config(config, seqLen === null ? {} : { seq_len: seqLen });
    remember(compareCache, key, { method, factor: scaling.factor, ratio: scaling.pairs.map((row) => row.ratio) });
  }
  return compareCache.get(key);
}

// The scaling figure's data, the same object while only the training length or (for methods
// that do not read the sequence length) the gap changes: its chart then skips the update.
const scalingCache = new Map();
function scalingData(state, main, compare) {
  const key = [
    ...LONG_KEYS.filter((k) => k !== 'train-len' && k !== 'target-gap').map((k) => String(state[k])),
    readsSeqLen(state.method) || compare.some((c) => readsSeqLen(c.method)) ? state['target-gap'] : '',
  ].join('|');
  if (!scalingCache.has(key)) {
    remember(
      scalingCache,
      key,
      Object.freeze({
        method: state.method,
        ratio: main.pairs.map((row) => row.ratio),
        bands: main.pairs.map((row) => row.band),
        // Each comparison line's colour comes with it, by its theme name: the chart reads no table.
        compare: compare.map(({ method, ratio }) => ({ method, ratio, color: METHOD[method].compare })),
      }),
    );
  }
  return scalingCache.get(key);
}

/**
 * Everything the long-context figures and captions show for a state. Throws (naming the
 * key) when the config reader refuses the settings; results are cached by the long settings,
 * so a main-explorer slider costs a lookup here.
 */
export function computeLong(state) {
  const key = LONG_KEYS.map((k) => String(state[k])).join('|');
  if (cache.has(key)) return cache.get(key);
  const p = preset(state.preset);
  if (!methodAvailable(p, state.method)) {
    throw new RangeError(`method longrope needs short_factor and long_factor lists: preset ${state.preset} has none`);
  }
  const main = scalingOf(p, state, state.method);
  const compare = String(state.compare)
    .split(',')
    .filter((method) => COMPARABLE.includes(method) && method !== state.method)
    .map((method) => comparison(p, state, method));
  const range = main.range.pairs;
  // The unscaled angle at the gap, gap × θᵢ, from the core's batch entry (one call).
  const unscaled =
    state.method === 'default' ? null : rope.pair_angles(main.rotary_dim, state['target-gap'], main.base);
  const model = Object.freeze({
    preset: p,
    state: { ...state },
    main,
    compare,
    blog: state.preset === 'blog' ? roundExample(main.base, state) : null,
    range: Object.freeze({
      trained: range.map((row) => row.trained_angle),
      atGap: range.map((row) => row.gap_angle),
      unscaled,
      status: range.map((row) => row.status),
    }),
    scaling: scalingData(state, main, compare),
  });
  remember(cache, key, model);
  return model;
}

let lastGood = null;

/** computeLong for the figures: null while long.js has not yet filled in the preset's values
 *  (it does after the first paint) or if nothing good was ever computed; settings reach the
 *  state only once the core accepts them, so a refusal falls back to the last good model. */
export function longModel(state) {
  if (LONG_KEYS.some((k) => state[k] === null || state[k] === undefined)) return null;
  try {
    lastGood = computeLong(state);
  } catch {
    // Keep the last good model (null before the first).
  }
  return lastGood;
}
