// Figure: one pair, rotating. Pair i of q turned to position m and of k to position n
// on the plane, with the unit circle and both unrotated vectors for reference.
// Data in: { circle: [[x, y]...], q, k, q_m, k_n } — plain arrays (all from the core).

import { num } from '../lib/format.js';
import { chartConfig, makeChart, paint } from './figure.js';
import { axis, baseOptions, colors } from './theme.js';

// Ticks at the round values only (the axis ends at ±reach, not a round number).
const tick = (value) => (Math.abs(value * 2 - Math.round(value * 2)) < 1e-9 ? num(value) : '');
const arrow = ([x, y]) => [
  { x: 0, y: 0 },
  { x, y },
];

function fill(target, data, c) {
  const [ring, qm, kn, q0, k0] = target.data.datasets;
  ring.data = data.circle.map(([x, y]) => ({ x, y }));
  qm.data = arrow(data.q_m);
  kn.data = arrow(data.k_n);
  q0.data = arrow(data.q);
  k0.data = arrow(data.k);
  ring.borderColor = c.grid;
  paint(c.rope, [qm, q0], true);
  paint(c.add, [kn, k0], true);
  // Square axes that hold the unit circle and both vectors (|x| + |y| is at least the length).
  const reach =
    Math.max(1, Math.abs(data.q[0]) + Math.abs(data.q[1]), Math.abs(data.k[0]) + Math.abs(data.k[1])) * 1.05;
  for (const scale of [target.options.scales.x, target.options.scales.y])
    Object.assign(scale, { min: -reach, max: reach });
}

export function createCircleChart(canvas, data) {
  const c = colors(canvas);
  const options = baseOptions(c);
  options.plugins.tooltip.callbacks = {
    label: (item) => `${item.dataset.label}: (${num(item.parsed.x)}, ${num(item.parsed.y)})`,
  };
  options.plugins.tooltip.filter = (item) => item.dataIndex > 0 || item.datasetIndex === 0;
  options.scales = {
    x: axis(c, 'first coordinate of the pair', { type: 'linear', ticks: { stepSize: 0.5, callback: tick } }),
    y: axis(c, 'second coordinate of the pair', { type: 'linear', ticks: { stepSize: 0.5, callback: tick } }),
  };
  const vec = { parsing: false, showLine: true, fill: false, pointRadius: [0, 5], pointHoverRadius: [0, 6] };
  const config = chartConfig(
    'line',
    [
      {
        label: 'unit circle',
        data: [],
        parsing: false,
        showLine: true,
        pointRadius: 0,
        pointHoverRadius: 0,
        borderWidth: 1,
      },
      { label: 'q at position m', ...vec, borderWidth: 3 },
      { label: 'k at position n', ...vec, borderWidth: 3 },
      { label: 'q unrotated', ...vec, borderWidth: 1.5, borderDash: [4, 4], pointRadius: [0, 3] },
      { label: 'k unrotated', ...vec, borderWidth: 1.5, borderDash: [4, 4], pointRadius: [0, 3] },
    ],
    options,
  );
  const legend = [
    { text: 'q turned by m·θᵢ', mark: 'line', color: 'var(--c-rope)' },
    { text: 'k turned by n·θᵢ', mark: 'line', color: 'var(--c-add)' },
    { text: 'unrotated (position 0)', mark: 'dash', color: 'var(--ink-muted)' },
  ];
  return makeChart(canvas, { config, data, fill, legend });
}
