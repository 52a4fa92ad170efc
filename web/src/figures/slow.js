// Figure: how many pairs have not yet wrapped at each gap.
import { createSlowChart } from '../charts/slow.js';
import { count, num, position } from '../lib/format.js';

export function slowCaption(state, model) {
  const { pairs, slow } = model;
  const verb = (n) => (n === 1 ? 'is' : 'are');
  const now =
    state.gap >= 1
      ? `At gap ${position(state.gap)}, ${
          pairs === 1
            ? `the only pair ${slow.now === 1 ? 'has not wrapped yet' : 'has wrapped'}`
            : `${slow.now} of ${pairs} pairs ${verb(slow.now)} not yet wrapped`
        } (still under one turn: the wavelength is longer than the gap).`
      : `Gap ${position(state.gap)} is below 1, left of this log axis; there ` +
        `${slow.now === 1 ? 'the only pair is' : `all ${slow.now} pairs are`} under one turn.`;
  const gone = slow.counts.indexOf(0);
  const left = slow.counts[slow.counts.length - 1];
  const end =
    gone >= 0
      ? ` Past gap ≈ ${num(slow.gaps[gone], 2)} none is left: every pair has wrapped at least once.`
      : ` Even at gap 10⁶, ${count(left, 'pair')} ${verb(left)} not yet wrapped: a larger base keeps more` +
        ' long-range pairs.';
  return `${now}${end}`;
}

export function slowLabel(state, model) {
  return `Step chart, log x axis: number of pairs not yet wrapped against gap from 1 to one million; ${model.slow.now} at the current gap.`;
}

export default {
  name: 'slow',
  part: 'gap',
  title: 'Which pairs are left for long distances',
  lookfor:
    'A pair that has not yet wrapped (turned under one full turn) still tells distances apart; one ' +
    'past a turn repeats itself. Look for: as the gap grows, pairs wrap one by one, fastest first.',
  fallback: 'Number of pairs not yet wrapped against the gap.',
  embed: 'unwrapped pairs by gap',
  make: createSlowChart,
  data: (model, state) => ({ ...model.slow, pairs: model.pairs, gap: state.gap }),
  caption: slowCaption,
  label: slowLabel,
};
