// Chapter: the sinusoidal marks as a picture. One row of coloured cells per position, one
// column per dimension: blue for positive values, orange for negative, stronger the larger.
// The fast pairs (left) change colour from row to row, the slow ones (right) barely move.

import { chartConfig } from '../charts/figure.js';
import { axis, baseOptions, colors } from '../charts/theme.js';
import { lesson_marked, lesson_marks, thetas } from '../core/rope.js';
import { num } from '../lib/format.js';
import { chapterRow, d4, keptChart, keptDraw, slider } from './lesson_row.js';

const NOLAN = [2, 1, 1, 0];

function compute(i) {
  const positions = Array.from({ length: i.count }, (_, p) => p);
  return {
    width: i.width,
    count: i.count,
    grid: lesson_marks(positions, i.width),
    post: lesson_marks([3, 4], 4),
    nolan: lesson_marked(NOLAN, 3),
    // The slowest pair's wavelength, 2π/θ, in positions (θ from the core).
    slowest: (2 * Math.PI) / thetas(i.width).at(-1),
  };
}

// The cells, drawn on the chart's scales: a cell per (dimension, position).
const cells = keptDraw('markCells', 'beforeDatasetsDraw', '$marks', (chart, data, c) => {
  const { ctx } = chart;
  const { x, y } = chart.scales;
  const w = Math.abs(x.getPixelForValue(1) - x.getPixelForValue(0));
  const h = Math.abs(y.getPixelForValue(1) - y.getPixelForValue(0));
  const text = w >= 44 && h >= 14;
  ctx.save();
  ctx.font = `${Math.min(12, h - 2)}px ${chart.options.font?.family ?? 'sans-serif'}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  data.grid.forEach((row, p) =>
    row.forEach((v, j) => {
      const cx = x.getPixelForValue(j);
      const cy = y.getPixelForValue(p);
      ctx.globalAlpha = 0.12 + 0.88 * Math.abs(v);
      ctx.fillStyle = v >= 0 ? c.rope : c.add;
      ctx.fillRect(cx - w / 2 + 0.5, cy - h / 2 + 0.5, w - 1, h - 1);
      if (text) {
        ctx.globalAlpha = 1;
        ctx.fillStyle = Math.abs(v) > 0.55 ? c.surface : c.ink; // the page's background on strong cells
        ctx.fillText(d4(v, 3), cx, cy);
      }
    }),
  );
  // The post's positions 3 and 4, outlined.
  ctx.globalAlpha = 1;
  ctx.strokeStyle = c.ink;
  ctx.lineWidth = 2;
  // Only at the post's width: at another width rows 3 and 4 are not the values the caption quotes.
  for (const p of data.width === 4 ? [3, 4] : []) {
    if (p >= data.count) continue;
    const cy = y.getPixelForValue(p);
    ctx.strokeRect(x.getPixelForValue(0) - w / 2, cy - h / 2, w * data.width, h);
  }
  ctx.restore();
});

// Ticks at the whole positions and dimensions only (the axes run half a cell past them).
function wholeTicks(scale) {
  const step = scale.max - scale.min > 24 ? 4 : 1;
  const ticks = [];
  for (let value = Math.ceil(scale.min); value <= scale.max; value += step) ticks.push({ value });
  scale.ticks = ticks;
}

function fill(target, data) {
  const { x, y } = target.options.scales;
  Object.assign(x, { min: -0.5, max: data.width - 0.5 });
  Object.assign(y, { min: -0.5, max: data.count - 0.5 });
}

function createMarksChart(canvas, data) {
  const c = colors(canvas);
  const options = baseOptions(c);
  options.plugins.tooltip.enabled = false;
  options.scales = {
    x: axis(c, 'dimension (pairs of sin, cos: fast on the left, slow on the right)', {
      type: 'linear',
      ticks: { stepSize: 1 },
      afterBuildTicks: wholeTicks,
    }),
    y: axis(c, 'position', { type: 'linear', reverse: true, ticks: { stepSize: 1 }, afterBuildTicks: wholeTicks }),
  };
  const config = chartConfig('line', [{ label: 'marks', data: [] }], options, { plugins: [cells] });
  const legend = [
    { text: 'positive value', mark: 'box', color: 'var(--c-rope)' },
    { text: 'negative value (stronger colour: larger size)', mark: 'box', color: 'var(--c-add)' },
  ];
  return keptChart(canvas, '$marks', { config, data, fill, legend });
}

const vec = (v) => `[${v.map((x) => d4(x, 4)).join(', ')}]`;

export default chapterRow({
  name: 'marks',
  title: 'A mark for each position: waves at many speeds',
  lookfor:
    'Each row is the mark of one position: one sine and one cosine per pair of dimensions, each pair at its ' +
    'own speed. Look for: the left columns change colour from row to row, the right ones hardly change; no two rows match.',
  fallback: 'Sinusoidal position marks as coloured cells, position by dimension.',
  embed: 'the sinusoidal marks',
  inputs: { width: slider(4, 'width (dimensions)', 2, 32, 2), count: slider(12, 'positions shown', 5, 64) },
  compute,
  make: createMarksChart,
  readout: (d) =>
    `The post’s width-4 marks: position 3 = ${vec(d.post[0])}, ` +
    `position 4 = ${vec(d.post[1])}; “nolan” [2, 1, 1, 0] at slot 3 = ${vec(d.nolan)}.`,
  caption: (d) =>
    `Width ${d.width}: pair i turns at 10000^(−2i/${d.width}) radians per position, so the left pair ` +
    `repeats every ${num(2 * Math.PI, 3)} positions` +
    (d.width > 2 ? ` and the right one only every ${num(d.slowest, 3)}` : ' (at width 2 it is the only pair)') +
    '. At width 4 position 3 is ' +
    `${vec(d.post[0])} and position 4 is ${vec(d.post[1])} (${d.width === 4 ? 'outlined' : 'outlined at width 4'}): ` +
    'different in every dimension. ' +
    `Added to “nolan”, slot 3 gives ${vec(d.nolan)}: meaning and position mixed in one vector.`,
  label: (d) => `Grid of coloured cells: the sinusoidal marks of positions 0 to ${d.count - 1} at width ${d.width}.`,
});
