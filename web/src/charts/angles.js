// Figure: the rotation angle of every pair at the current gap, on a log axis,
// with the one-turn (2π) line. Pairs past one turn are coloured apart.
// Data in: { angles, turns } — plain arrays, one value per pair.
// Out (Chart.getChart(canvas).data): datasets[0] holds the angles of the pairs past one
// turn and datasets[1] those under one turn, null elsewhere; one colour per dataset keeps
// Chart.js on its fast path (a colour per bar is resolved bar by bar on every update).

import { num } from '../lib/format.js';
import { makeChart } from './figure.js';
import { chartLib } from './lib.js';
import { baseOptions, colors, logAxis, pairAxis } from './theme.js';

const TWO_PI = 2 * Math.PI;

// Decade bounds that hold every positive angle and the 2π line; all-zero angles (gap 0)
// still give a valid log range, and a zero bar simply has no height.
function yRange(angles) {
  let lo = Infinity;
  let hi = TWO_PI;
  for (const a of angles) {
    if (a > 0 && a < lo) lo = a;
    if (a > hi) hi = a;
  }
  if (lo === Infinity) lo = 0.1;
  return {
    min: 10 ** Math.min(Math.floor(Math.log10(lo)), -1),
    max: 10 ** Math.ceil(Math.log10(hi * 1.5)),
  };
}

const LEGEND = [
  { text: 'wrapped at this gap (past one turn)', mark: 'box', color: 'var(--c-fast)' },
  { text: 'not wrapped (under one turn)', mark: 'box', color: 'var(--c-slow)' },
  { text: 'one turn (2π)', mark: 'dash', color: 'var(--c-turn)' },
];

// Works on a chart or on its config before construction (same data/options shape).
function fill(target, { angles, turns }, c) {
  const [fast, slow] = target.data.datasets;
  target.data.labels = angles.map((_, i) => i);
  fast.data = angles.map((a, i) => (turns[i] >= 1 ? a : null));
  slow.data = angles.map((a, i) => (turns[i] >= 1 ? null : a));
  fast.backgroundColor = c.fast;
  slow.backgroundColor = c.slow;
  Object.assign(target.options.scales.y, yRange(angles));
}

// The one-turn line: one dashed stroke at y = 2π across the plot.
function drawTurnLine(chart) {
  const { ctx, chartArea, scales } = chart;
  const y = scales.y.getPixelForValue(TWO_PI);
  if (!Number.isFinite(y)) return;
  ctx.save();
  ctx.strokeStyle = colors(chart.canvas).turn;
  ctx.lineWidth = 2;
  ctx.setLineDash([6, 4]);
  ctx.beginPath();
  ctx.moveTo(chartArea.left, y);
  ctx.lineTo(chartArea.right, y);
  ctx.stroke();
  ctx.restore();
}

// With every angle 0 there are no bars to draw: say so inside the plot area.
function drawEmptyNote(chart, angles) {
  if (angles.some((a) => a > 0)) return;
  const { ctx, chartArea } = chart;
  ctx.save();
  ctx.fillStyle = colors(chart.canvas).muted;
  ctx.font = `600 14px ${chartLib().defaults.font.family}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(
    'gap 0: nothing rotates',
    (chartArea.left + chartArea.right) / 2,
    (chartArea.top + chartArea.bottom) / 2,
  );
  ctx.restore();
}

export function createAnglesChart(canvas, data) {
  let turnsNow = data.turns;
  let anglesNow = data.angles;
  const c = colors(canvas);
  const options = baseOptions(c, 'index');
  options.plugins.tooltip.filter = (item) => item.raw !== null;
  options.plugins.tooltip.callbacks = {
    title: (items) => `pair ${items[0].label}`,
    label: (item) => {
      const turns = turnsNow[item.dataIndex];
      return `${num(item.raw)} rad = ${num(turns)} turn${turns === 1 ? '' : 's'}`;
    },
  };
  options.scales = {
    x: pairAxis(c, 'pair i  (pair frequency θᵢ falls left to right: fast pairs left, slow pairs right)'),
    y: logAxis(c, 'angle over the gap (radians)'),
  };
  const config = {
    type: 'bar',
    data: {
      labels: [],
      // Each pair has a value in exactly one dataset: grouped false puts both in one slot.
      datasets: [
        { label: 'past one turn', data: [], barPercentage: 1, categoryPercentage: 0.9, grouped: false },
        { label: 'under one turn', data: [], barPercentage: 1, categoryPercentage: 0.9, grouped: false },
      ],
    },
    options,
    plugins: [
      {
        id: 'turnLineAndEmptyNote',
        afterDatasetsDraw(chart) {
          drawTurnLine(chart);
          drawEmptyNote(chart, anglesNow);
        },
      },
    ],
  };
  const onData = (next) => {
    turnsNow = next.turns;
    anglesNow = next.angles;
  };
  return makeChart(canvas, { config, data, fill, legend: LEGEND, onData });
}
