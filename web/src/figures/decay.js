// Figure: long-range decay up to a million positions, with RoFormer's bound.
import { createDecayChart } from '../charts/decay.js';
import { num } from '../lib/format.js';
import { ACCURATE_UP_TO, DECAY_SAMPLES } from '../model/model.js';
import * as teach from './teach.js';

export function decayCaption(state, model) {
  const d = model.explain.decay;
  const at = (r) => d.distances.findIndex((x) => x >= r * 0.999999);
  const [i1, i3, i6] = [at(1), at(1000), d.distances.length - 1];
  const vectors = state.seed === 0 ? 'the demo vectors' : `the random q, k of seed ${state.seed}`;
  return (
    `Mean over ${DECAY_SAMPLES} random vectors, each scored against itself (a key that matches its` +
    ` query): ${num(d.mean[i1])} at distance 1, ${num(d.mean[i3])} at 1000, ${num(d.mean[i6])} at 10⁶.` +
    ` RoFormer's relative bound (1/h)·Σ|Sⱼ|, no unit, right axis: ${num(d.bound[i1])} at distance 1,` +
    ` ${num(d.bound[i3])} at 1000, ${num(d.bound[i6])} at 10⁶; times h·max|wᵢ₊₁ − wᵢ| (the largest step` +
    ` between neighbouring pairs’ weights) it bounds the score. Both fall because the fast pairs' cosines lose step with each other and` +
    ' cancel; only the slow pairs keep adding up. With' +
    ` ${vectors} (not matched) the score only swings around 0. Past position ~${ACCURATE_UP_TO} the angles` +
    ' carry the rounding error of floating point.'
  );
}

export function decayLabel(state, model) {
  const d = model.explain.decay;
  return (
    `Line chart, log x axis: score against distance from 1 to one million; mean over random matched` +
    ` vectors falls from ${num(d.mean[0])} to ${num(d.mean[d.mean.length - 1])}.`
  );
}

export default {
  name: 'decay',
  part: 'gap',
  title: 'Long-range decay',
  lookfor:
    'A key that matches its query scores high when close; RoPE lowers that score as the distance ' +
    'grows. Look for: the mean and RoFormer’s relative bound (right axis) fall on this log axis up to a million positions.',
  fallback:
    'Score against distance on a log axis: these vectors, the mean over random vectors, RoFormer’s relative bound.',
  embed: 'long-range decay',
  make: createDecayChart,
  data: (model) => model.explain.decay,
  caption: decayCaption,
  label: decayLabel,
  notes: teach.decayNotes,
};
