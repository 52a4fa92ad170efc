// Figure (long context): the angles each pair met in training against the angle it meets at a long gap.
import { createRangeChart } from '../charts/range.js';
import { degrees, num, plain, position } from '../lib/format.js';
import { methodPhrase } from '../model/methods.js';
import { longRow } from './long_row.js';

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
  let text =
    `Trained on ${position(r.train_len)} positions, met at gap ${position(r.gap)} ${methodPhrase(model)}:` +
    ` ${r.covered} of ${n} pairs covered (a full turn in training), ${r.inside} inside the trained range,` +
    ` ${r.unseen} unseen.`;
  text +=
    ` At d ${main.rotary_dim}, pair ${last} (the slowest, θ = ${plain(main.pairs[last].inv_freq)})` +
    ` reached ${degrees(pair.trained_angle)} in training; at gap ${position(r.gap)}`;
  text += scaled
    ? ` it goes from ${degrees(model.range.unscaled[last])} to ${degrees(pair.gap_angle)} ${methodPhrase(model)},` +
      ` against a trained range of ${degrees(pair.trained_angle)}: ${STATUS_WORDS[pair.status]}.`
    : ` it turns ${degrees(pair.gap_angle)}: ${STATUS_WORDS[pair.status]}.`;
  if (model.blog) {
    const b = model.blog;
    text +=
      ` The blog’s round numbers: the pair with θ = ${plain(b.theta)} reaches ${degrees(b.trained)}` +
      ` over ${position(r.train_len)} positions and ${degrees(b.unscaled)} at gap ${position(r.gap)};` +
      ` divided by ${num(b.factor)} that is ${degrees(b.scaled)}.`;
  }
  return text;
}

export function rangeLabel(state, model) {
  const r = model.main.range;
  return (
    `Chart, log scale: for each of ${model.main.pairs.length} pairs the angle reached in training and the angle at gap` +
    ` ${position(r.gap)}; ${r.covered} covered, ${r.inside} inside, ${r.unseen} unseen; one-turn line at 2π.`
  );
}

export default {
  name: 'range',
  title: 'Which angles has each pair seen?',
  lookfor:
    'A bar is the angle a pair reached over the training length; a dot is the angle it meets at the ' +
    'gap. Look for: pairs right of the one-turn line never turned fully in training, so a dot above their ' +
    'bar is an angle the model never saw — unless the scaling pulls it back inside.',
  fallback: 'Per pair: the angle reached in training and the angle at the gap after scaling.',
  embed: 'angles seen in training',
  ...longRow('range', createRangeChart, rangeCaption, rangeLabel),
};
