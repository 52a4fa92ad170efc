// Figure: long-range decay up to a million positions, with RoFormer's bound.
import { chartConfig, makeChart } from '../charts/figure.js';
import { axis, baseOptions, colors, logAxis } from '../charts/theme.js';
import { formulaBlock } from '../formulas/mathml.js';
import { num } from '../lib/format.js';
import { ACCURATE_UP_TO, DECAY_SAMPLES } from '../model/model.js';

// The chart: long-range decay. The score against the distance r on a log axis to 1e6:
// the page's q, k; the mean over random vectors scored against themselves; RoFormer's relative
// bound (1/h) Σ|S_j|, on its own axis: it has no unit and bounds no score by itself (a score's
// bound is it times h·max|w_i+1 − w_i|, the weights' largest step), so on the score axis it
// would sit below a mean it does not bound.
// Data in: { distances, score, mean, bound, samples } — plain arrays and a number.
const SETS = [
  ['score', 'rope'],
  ['mean', 'slow'],
  ['bound', 'mark'],
];

function fill(target, data, c) {
  SETS.forEach(([key, color], j) => {
    const set = target.data.datasets[j];
    set.data = data.distances.map((x, i) => ({ x, y: data[key][i] }));
    set.borderColor = c[color];
    set.backgroundColor = c[color];
  });
}

function createDecayChart(canvas, data) {
  const c = colors(canvas);
  const options = baseOptions(c);
  options.plugins.tooltip.callbacks = {
    title: (items) => `distance ${num(items[0].parsed.x)}`,
    label: (item) => `${item.dataset.label}: ${num(item.parsed.y, 5)}`,
  };
  options.scales = {
    x: logAxis(c, 'distance r = m − n between query and key (positions, log scale)', {
      min: 1,
      max: 1e6,
      ticks: { maxRotation: 0 },
    }),
    y: axis(c, 'score', { type: 'linear', grace: '5%' }),
    bound: axis(c, 'relative bound (1/h)·Σ|Sⱼ|, no unit', {
      type: 'linear',
      position: 'right',
      grace: '5%',
      grid: { drawOnChartArea: false },
    }),
  };
  const line = { parsing: false, normalized: true, pointRadius: 0, pointHoverRadius: 3, fill: false };
  const config = chartConfig(
    'line',
    [
      { label: 'q, k of this page', ...line, borderWidth: 1.5 },
      { label: 'mean over random vectors v, scored against themselves', ...line, borderWidth: 2.5 },
      { label: 'RoFormer relative bound', ...line, borderWidth: 2, borderDash: [6, 4], yAxisID: 'bound' },
    ],
    options,
  );
  const legend = [
    { text: 'q at r, k at 0 (this page’s vectors)', mark: 'line', color: 'var(--c-rope)' },
    {
      text: `mean score of a random vector against itself, r apart (${data.samples} samples)`,
      mark: 'line',
      color: 'var(--c-slow)',
    },
    { text: 'RoFormer’s relative bound (1/h)·Σ|Sⱼ|, right axis, no unit', mark: 'dash', color: 'var(--c-mark)' },
  ];
  return makeChart(canvas, { config, data, fill, legend });
}

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

const decayNotes = () =>
  formulaBlock('The curves', [
    ['RoFormer’s relative bound (section 3.4.3), no unit: times h·max|wᵢ₊₁ − wᵢ| it bounds |score|:', 'roformer_bound'],
    ['The mean over N random vectors v scored against themselves:', 'decay_mean'],
  ]);

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
  notes: decayNotes,
};
