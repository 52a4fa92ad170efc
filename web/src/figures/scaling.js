// Figure (long context): what the scaling method does to each pair's frequency.
import { createScalingChart } from '../charts/scaling.js';
import { list, num, plural } from '../lib/format.js';
import { METHOD } from '../model/methods.js';
import { longRow } from './long_row.js';

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
    text =
      `${label} at factor ${factor} keeps ${plural(b.keep, 'pair')} of ${n} (θ′ = θ), ramps ${b.ramp}` +
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
  return (
    `Line chart, log scale: θ′/θ for each of ${model.main.pairs.length} pairs under ${state.method};` +
    ` ${b.keep} kept, ${b.ramp} ramped, ${b.divide} divided.`
  );
}

export default {
  name: 'scaling',
  title: 'What the method does to each pair',
  lookfor:
    'The ratio of each pair’s scaled frequency to its original one: 1 keeps it, 1/factor divides it. ' +
    'Look for: which pairs a method leaves alone (the fast ones, which turned many times in training) and ' +
    'which it slows down, compared with the other methods at the same factor.',
  fallback: 'Per pair: scaled frequency over original frequency, with the bands shaded.',
  embed: 'what the scaling does',
  ...longRow('scaling', createScalingChart, scalingCaption, scalingLabel),
};
