// Captions and labels of the long-context figures: they read the core's numbers out loud.
// Plain text only.
import { num, position, list, degrees, plain } from '../lib/format.js';
import { METHOD } from '../model/methods.js';

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** How the method is named in a sentence ("with llama3 at factor 8", "when base 10000 becomes 500000"). */
export function methodPhrase(model) {
  const { main, state } = model;
  switch (state.method) {
    case 'default': return 'without scaling';
    case 'base_change': return `when base ${num(main.base)} becomes ${num(main.resolved.base_used)}`;
    case 'longrope': return `with LongRoPE (its ${main.resolved.factor_list} factor list)`;
    default: return `with ${state.method} at factor ${num(main.factor)}`;
  }
}

const STATUS_WORDS = {
  covered: 'covered (it turned fully in training, so every angle is familiar)',
  inside: 'inside the trained range',
  unseen: 'unseen (past anything it met in training)',
};

export function rangeCaption(state, model) {
  const { main } = model;
  const r = main.range;
  const n = main.pairs.length;
  const last = n - 1;
  const pair = r.pairs[last];
  const scaled = state.method !== 'default';
  let text = `Trained on ${position(r.train_len)} positions, met at gap ${position(r.gap)} ${methodPhrase(model)}:` +
    ` ${r.covered} of ${n} pairs covered (a full turn in training), ${r.inside} inside the trained range,` +
    ` ${r.unseen} unseen.`;
  text += ` At d ${main.rotary_dim}, pair ${last} (the slowest, θ = ${plain(main.pairs[last].inv_freq)})` +
    ` reached ${degrees(pair.trained_angle)} in training; at gap ${position(r.gap)}`;
  text += scaled
    ? ` it goes from ${degrees(model.range.unscaled[last])} to ${degrees(pair.gap_angle)} ${methodPhrase(model)},` +
      ` against a trained range of ${degrees(pair.trained_angle)}: ${STATUS_WORDS[pair.status]}.`
    : ` it turns ${degrees(pair.gap_angle)}: ${STATUS_WORDS[pair.status]}.`;
  if (model.blog) {
    const b = model.blog;
    text += ` The blog’s round numbers: the pair with θ = ${plain(b.theta)} reaches ${degrees(b.trained)}` +
      ` over ${position(r.train_len)} positions and ${degrees(b.unscaled)} at gap ${position(r.gap)};` +
      ` divided by ${num(b.factor)} that is ${degrees(b.scaled)}.`;
  }
  return text;
}

export function rangeLabel(state, model) {
  const r = model.main.range;
  return `Chart, log scale: for each of ${model.main.pairs.length} pairs the angle reached in training and the angle at gap` +
    ` ${position(r.gap)}; ${r.covered} covered, ${r.inside} inside, ${r.unseen} unseen; one-turn line at 2π.`;
}

export function scalingCaption(state, model) {
  const { main, compare } = model;
  const n = main.pairs.length;
  const b = main.bands;
  const label = METHOD[state.method].label;
  let text;
  if (state.method === 'default') {
    text = `No scaling: every pair keeps its frequency (ratio 1 for all ${n}).`;
  } else if (b.ratio === 0) {
    const factor = num(main.factor);
    text = `${label} at factor ${factor} keeps ${plural(b.keep, 'pair')} of ${n} (θ′ = θ), ramps ${b.ramp}` +
      ` and divides ${b.divide} by ${factor}.`;
    const range = main.resolved.correction_range;
    if (range) text += ` YaRN’s correction range: pairs ${num(range[0])} to ${num(range[1])}.`;
  } else {
    const ratio = main.pairs.map((p) => p.ratio);
    text = `${label}: the ratio θ′/θ goes from ${num(ratio[0])} at pair 0 to ${num(ratio[n - 1])} at pair ${n - 1}`;
    text += main.resolved.base_used !== main.base ? ` (the base used is ${num(main.resolved.base_used)}).` : '.';
  }
  text += ` Attention factor ${num(main.attention_factor)}`;
  text += main.softmax_multiplier !== 1 ? `, softmax multiplier ${num(main.softmax_multiplier)}.` : '.';
  if (compare.length) {
    text += ` Dashed for comparison at factor ${num(compare[0].factor)}: ${list(compare.map((c) => METHOD[c.method].label))}.`;
  }
  if (main.warnings.length) {
    text += ` The config reader notes ${plural(main.warnings.length, 'warning')}, listed beside the method.`;
  }
  return text;
}

export function scalingLabel(state, model) {
  const b = model.main.bands;
  return `Line chart, log scale: θ′/θ for each of ${model.main.pairs.length} pairs under ${state.method};` +
    ` ${b.keep} kept, ${b.ramp} ramped, ${b.divide} divided.`;
}
