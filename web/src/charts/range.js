// Figure: which angles has each pair seen? Per pair on a log axis: the angle reached in
// training (a bar) and the angle met at the gap after scaling (a dot coloured covered /
// inside / unseen), the unscaled angle at the gap (a hollow dot) and the one-turn line.
// Data in: { trained, atGap, unscaled (null without scaling), status } — one entry per pair.
// Out (Chart.getChart(canvas).data): labels = pair indexes; datasets[0] "reached in training"
// = trained; datasets[1] "at the gap, unscaled" = unscaled (empty without scaling);
// datasets[2..4] "covered", "inside", "unseen" = the scaled angle at the gap for the pairs
// of that status, null elsewhere. The one-turn (2π) line is drawn, not stored.

import { degrees, num } from '../lib/format.js';
import { decadeRange, drawLevel, liveLegendChart } from './long_common.js';
import { baseOptions, colors, logAxis, pairAxis } from './theme.js';

const TWO_PI = 2 * Math.PI;
const STATUSES = ['covered', 'inside', 'unseen'];

function fill(target, data, c) {
  const [trained, unscaled, ...byStatus] = target.data.datasets;
  const n = data.trained.length;
  target.data.labels = data.trained.map((_, i) => i);
  trained.data = data.trained.slice();
  unscaled.data = data.unscaled ? data.unscaled.slice() : [];
  STATUSES.forEach((status, k) => {
    byStatus[k].data = data.atGap.map((a, i) => (data.status[i] === status ? a : null));
  });
  trained.backgroundColor = c.trained;
  unscaled.borderColor = c.muted;
  unscaled.backgroundColor = c.surface;
  [c.slow, c.rope, c.fast].forEach((color, k) => {
    byStatus[k].backgroundColor = color;
    byStatus[k].borderColor = color;
  });
  const radius = n > 128 ? 2 : 3.5;
  for (const ds of [unscaled, ...byStatus]) ds.pointRadius = radius;
  Object.assign(target.options.scales.y, decadeRange([data.trained, data.atGap, data.unscaled], [TWO_PI]));
}

function legendItems(data) {
  const items = [{ text: 'reached in training', mark: 'box', color: 'var(--c-trained)' }];
  if (data.unscaled) items.push({ text: 'at the gap, unscaled', mark: 'dot', color: 'var(--ink-muted)' });
  items.push(
    { text: 'at the gap: covered', mark: 'disc', color: 'var(--c-slow)' },
    { text: 'inside', mark: 'disc', color: 'var(--c-rope)' },
    { text: 'unseen', mark: 'disc', color: 'var(--c-fast)' },
    { text: 'one turn (2π)', mark: 'dash', color: 'var(--c-turn)' },
  );
  return items;
}

export function createRangeChart(canvas, data) {
  return liveLegendChart(canvas, data, legendItems, (now) => {
    const c = colors(canvas);
    const options = baseOptions(c, 'index');
    options.plugins.tooltip.filter = (item) => item.raw !== null && item.raw !== undefined;
    options.plugins.tooltip.callbacks = {
      title: (items) => `pair ${items[0].label}: ${now().status[items[0].dataIndex]}`,
      label: (item) => `${item.dataset.label}: ${num(item.raw)} rad = ${degrees(item.raw)}`,
    };
    options.scales = {
      x: pairAxis(c, 'pair i  (fast pairs left, slow pairs right)'),
      y: logAxis(c, 'angle (radians, log scale)'),
    };
    const point = (label, order) => ({
      type: 'line',
      label,
      data: [],
      showLine: false,
      normalized: true,
      pointBorderWidth: 1.5,
      pointHoverRadius: 5,
      order,
    });
    const config = {
      type: 'bar',
      data: {
        labels: [],
        datasets: [
          {
            label: 'reached in training',
            data: [],
            barPercentage: 1,
            categoryPercentage: 0.85,
            borderWidth: 0,
            order: 5,
          },
          point('at the gap, unscaled', 4),
          point('covered', 1),
          point('inside', 2),
          point('unseen', 3),
        ],
      },
      options,
      plugins: [
        {
          id: 'oneTurn',
          afterDatasetsDraw(chart) {
            drawLevel(chart, TWO_PI, colors(chart.canvas).turn);
          },
        },
      ],
    };
    return { config, fill };
  });
}
