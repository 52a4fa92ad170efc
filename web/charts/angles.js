// Figure: the rotation angle of every pair at the current gap, on a log axis,
// with the one-turn (2π) line. Pairs past one turn are coloured apart.
// Data in: { angles, turns } — plain arrays, one value per pair.
import { colors, axis, baseOptions, chartHandle, decadesOnly, htmlLegend } from './theme.js';
import { num, decadeTick } from '../format.js';

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
  { text: 'past one turn (fast)', mark: 'box', color: 'var(--c-fast)' },
  { text: 'under one turn (slow)', mark: 'box', color: 'var(--c-slow)' },
  { text: 'one turn (2π)', mark: 'dash', color: 'var(--c-turn)' },
];

// Works on a chart or on its config before construction (same data/options shape).
function fill(target, { angles, turns }, c) {
  const [bars, line] = target.data.datasets;
  target.data.labels = angles.map((_, i) => i);
  bars.data = angles;
  bars.backgroundColor = turns.map((t) => (t >= 1 ? c.fast : c.slow));
  line.data = angles.map(() => TWO_PI);
  line.borderColor = c.turn;
  Object.assign(target.options.scales.y, yRange(angles));
}

// With every angle 0 there are no bars to draw: say so inside the plot area.
function drawEmptyNote(chart, angles) {
  if (angles.some((a) => a > 0)) return;
  const { ctx, chartArea } = chart;
  ctx.save();
  ctx.fillStyle = colors().muted;
  ctx.font = `600 14px ${window.Chart.defaults.font.family}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText('gap 0: nothing rotates', (chartArea.left + chartArea.right) / 2,
    (chartArea.top + chartArea.bottom) / 2);
  ctx.restore();
}

export function createAnglesChart(canvas, data) {
  let turnsNow = data.turns;
  let anglesNow = data.angles;
  const c = colors();
  const options = baseOptions(c);
  options.interaction = { mode: 'index', intersect: false };
  options.plugins.tooltip.filter = (item) => item.datasetIndex === 0;
  options.plugins.tooltip.callbacks = {
    title: (items) => `pair ${items[0].label}`,
    label: (item) => {
      const turns = turnsNow[item.dataIndex];
      return `${num(item.raw)} rad = ${num(turns)} turn${turns === 1 ? '' : 's'}`;
    },
  };
  options.scales = {
    x: axis(c, 'pair i  (fast pairs left, slow pairs right)', {
      grid: { display: false },
      // Up to 512 labels: measure a few for the layout instead of every one.
      ticks: { maxRotation: 0, autoSkipPadding: 8, sampleSize: 4 },
    }),
    y: axis(c, 'angle over the gap (radians)', {
      type: 'logarithmic',
      ticks: { callback: decadeTick, autoSkip: false },
      afterBuildTicks: decadesOnly,
    }),
  };
  const config = {
    type: 'bar',
    data: {
      labels: [],
      datasets: [
        { label: 'rotation angle', data: [], barPercentage: 1, categoryPercentage: 0.9, order: 2 },
        {
          type: 'line', label: 'one turn (2π)', data: [], borderWidth: 2, borderDash: [6, 4],
          pointRadius: 0, pointHitRadius: 0, fill: false, order: 1,
        },
      ],
    },
    options,
    plugins: [{ id: 'emptyNote', afterDatasetsDraw: (chart) => drawEmptyNote(chart, anglesNow) }],
  };
  fill(config, data, c);
  htmlLegend(canvas, LEGEND);
  const chart = new window.Chart(canvas, config);
  return chartHandle(chart, fill, (next) => {
    turnsNow = next.turns;
    anglesNow = next.angles;
  });
}
