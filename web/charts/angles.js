// Figure: the rotation angle of every pair at the current gap, on a log axis,
// with the one-turn (2π) line. Pairs past one turn are coloured apart.
// Data in: { angles, turns } — plain arrays, one value per pair.
import { colors, axis, baseOptions, retheme, decadeGrid } from './theme.js';
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

function legendItems(c) {
  return [
    { text: 'past one turn (fast)', pointStyle: 'rect', fontColor: c.ink, fillStyle: c.fast, strokeStyle: c.fast, lineWidth: 0, datasetIndex: 0 },
    { text: 'under one turn (slow)', pointStyle: 'rect', fontColor: c.ink, fillStyle: c.slow, strokeStyle: c.slow, lineWidth: 0, datasetIndex: 0 },
    { text: 'one turn (2π)', pointStyle: 'line', fontColor: c.ink, fillStyle: 'transparent', strokeStyle: c.turn, lineWidth: 2, lineDash: [4, 2], datasetIndex: 1 },
  ];
}

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
  options.plugins.legend.labels.generateLabels = () => legendItems(colors());
  options.plugins.legend.onClick = null;
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
      ticks: { maxRotation: 0, autoSkipPadding: 8 },
    }),
    y: axis(c, 'angle over the gap (radians)', {
      type: 'logarithmic',
      ticks: { callback: decadeTick, autoSkip: false },
      grid: { color: decadeGrid(c.grid) },
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
  const chart = new window.Chart(canvas, config);

  return {
    update(next) {
      const theme = colors();
      retheme(chart, theme);
      turnsNow = next.turns;
      anglesNow = next.angles;
      fill(chart, next, theme);
      chart.update('none');
    },
    destroy() {
      chart.destroy();
    },
  };
}
