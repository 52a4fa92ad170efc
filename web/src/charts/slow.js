// Figure: how many pairs stay under one turn (have not wrapped) as the gap grows (log x, 1 to 1e6),
// with the current gap marked.
// Data in: { gaps, counts, pairs, gap, now } — plain arrays and numbers.

import { num } from '../lib/format.js';
import { chartConfig, drawGuide, makeChart, markerSet } from './figure.js';
import { axis, baseOptions, colors, logAxis } from './theme.js';

function fill(target, data, c) {
  const [curve, current] = target.data.datasets;
  curve.data = data.gaps.map((x, i) => ({ x, y: data.counts[i] }));
  // A log axis cannot show a gap below 1: then the marker is left out.
  current.data = data.gap >= 1 ? [{ x: data.gap, y: data.now }] : [];
  curve.borderColor = c.slow;
  curve.backgroundColor = c.fill;
  current.borderColor = c.mark;
  current.backgroundColor = c.mark;
  // Headroom above the full count, so the marker at the top is not cut off.
  target.options.scales.y.suggestedMax = Math.max(data.pairs, 1) * 1.05;
}

export function createSlowChart(canvas, data) {
  let current = data;
  const guide = {
    id: 'currentGap',
    beforeDatasetsDraw(chart) {
      if (current.gap >= 1) drawGuide(chart, current.gap, colors(chart.canvas).mark);
    },
  };
  const c = colors(canvas);
  const options = baseOptions(c);
  options.plugins.tooltip.callbacks = {
    title: (items) => `gap ${num(items[0].parsed.x)}`,
    label: (item) => `${item.parsed.y} pair${item.parsed.y === 1 ? '' : 's'} not yet wrapped`,
  };
  options.scales = {
    x: logAxis(c, 'gap between query and key (positions, log scale)', {
      min: 1,
      max: 1e6,
      ticks: { maxRotation: 0 },
    }),
    y: axis(c, 'pairs not yet wrapped (under one turn)', {
      type: 'linear',
      min: 0,
      ticks: { precision: 0 },
    }),
  };
  const config = chartConfig(
    'line',
    [
      {
        label: 'pairs not yet wrapped',
        data: [],
        parsing: false,
        normalized: true,
        spanGaps: true,
        stepped: 'middle',
        fill: 'origin',
        borderWidth: 2,
        pointRadius: 0,
        pointHoverRadius: 3,
        order: 1,
      },
      markerSet('current gap', 6, { clip: false }),
    ],
    options,
    { plugins: [guide] },
  );
  const legend = [
    { text: 'pairs not yet wrapped (wavelength longer than the gap)', mark: 'line', color: 'var(--c-slow)' },
    { text: 'current gap', mark: 'disc', color: 'var(--c-mark)' },
  ];
  const onData = (next) => {
    current = next;
  };
  return makeChart(canvas, { config, data, fill, legend, onData });
}
