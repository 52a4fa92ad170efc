// Figure: cos(p·θᵢ) for every shown pair i (rows) and position p (columns), with the
// matrix controller of chartjs-chart-matrix. Fast pairs flicker from column to column,
// slow pairs stay one colour across many positions.
// Data in: { pairs, positions, cells: one row of cos values per shown pair } — plain arrays.

import { num } from '../lib/format.js';
import { chartConfig, makeChart } from './figure.js';
import { axis, baseOptions, colors } from './theme.js';

// -1 -> the additive colour, 0 -> the surface, +1 -> the RoPE colour (hex colours only).
function parseHex(hex) {
  const h = hex.replace('#', '');
  return [0, 2, 4].map((j) => parseInt(h.slice(j, j + 2), 16));
}
// One colour string per cell, made once per data (a scriptable colour per cell costs ~50x more).
function shades(c, cells) {
  const [lo, mid, hi] = [parseHex(c.add), parseHex(c.surface), parseHex(c.rope)];
  return cells.map(({ v }) => {
    const [to, t] = v < 0 ? [lo, -v] : [hi, v];
    return (
      `rgb(${Math.round(mid[0] + (to[0] - mid[0]) * t)},${Math.round(mid[1] + (to[1] - mid[1]) * t)},` +
      `${Math.round(mid[2] + (to[2] - mid[2]) * t)})`
    );
  });
}

function fill(target, data, c) {
  const [cells] = target.data.datasets;
  const rows = data.pairs.length;
  cells.data = data.cells.flatMap((row, r) =>
    row.map((v, p) => ({ x: data.positions[p], y: r, v, pair: data.pairs[r] })),
  );
  cells.backgroundColor = shades(c, cells.data);
  cells.columns = data.positions.length;
  cells.rows = rows;
  Object.assign(target.options.scales.x, {
    min: data.positions[0] - 0.5,
    max: data.positions[data.positions.length - 1] + 0.5,
  });
  Object.assign(target.options.scales.y, { min: -0.5, max: rows - 0.5 });
  target.options.scales.y.ticks.callback = (value) =>
    Number.isInteger(value) && value < rows ? String(data.pairs[value]) : '';
}

export function createHeatmapChart(canvas, data) {
  const c = colors(canvas);
  const options = baseOptions(c);
  options.interaction = { mode: 'nearest', intersect: true };
  options.plugins.tooltip.callbacks = {
    title: () => '',
    label: (item) => `pair ${item.raw.pair}, position ${item.raw.x}: cos = ${num(item.raw.v, 4)}`,
  };
  options.scales = {
    x: axis(c, 'position p', {
      type: 'linear',
      offset: false,
      grid: { display: false },
      ticks: { maxRotation: 0, callback: (value) => (Number.isInteger(value) ? String(value) : '') },
    }),
    y: axis(c, 'pair i (fast at the top, slow at the bottom)', {
      type: 'linear',
      reverse: true,
      offset: false,
      ticks: { autoSkip: true, maxTicksLimit: 12 },
      grid: { display: false },
    }),
  };
  // Cell size as plain numbers, set once the plot area is known (a scriptable size is resolved
  // per cell on every update and costs most of the chart's time).
  const cellSize = {
    id: 'cellSize',
    afterLayout(chart) {
      const [set] = chart.data.datasets;
      set.width = chart.chartArea.width / set.columns;
      set.height = chart.chartArea.height / set.rows;
    },
  };
  const cells = { label: 'cos(p·θᵢ)', data: [], parsing: false, borderWidth: 0, width: 0, height: 0 };
  const config = chartConfig('matrix', [cells], options, { plugins: [cellSize] });
  const legend = [
    { text: 'cos = +1', mark: 'box', color: 'var(--c-rope)' },
    { text: 'cos = 0', mark: 'box', color: 'var(--surface)' },
    { text: 'cos = −1', mark: 'box', color: 'var(--c-add)' },
  ];
  return makeChart(canvas, { config, data, fill, legend });
}
