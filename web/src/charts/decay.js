// Figure: long-range decay. The score against the distance r on a log axis to 1e6:
// the page's q, k; the mean over random vectors scored against themselves; RoFormer's relative
// bound (1/h) Σ|S_j|, on its own axis: it has no unit and bounds no score by itself (a score's
// bound is it times h·max|w_i+1 − w_i|, the weights' largest step), so on the score axis it
// would sit below a mean it does not bound.
// Data in: { distances, score, mean, bound, samples } — plain arrays and a number.

import { num } from '../lib/format.js';
import { chartConfig, makeChart } from './figure.js';
import { axis, baseOptions, colors, logAxis } from './theme.js';

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

export function createDecayChart(canvas, data) {
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
