// Chapter: the marks past the training length. For each dimension, the band of values its mark
// took over the training positions, and the value at the reader's position: every single value
// is inside a band the model has seen, yet the combination at a far position never occurred.

import { axis, colors } from '../charts/theme.js';
import { lesson_extrapolate, lesson_marks } from '../core/rope.js';
import { box, chapterRow, d4, indexChart, logSlider, slider } from './lesson_row.js';
import { said } from './post_rows.js';

function compute(i) {
  const r = lesson_extrapolate(i.pos, i.width, i.train);
  const [at512, at513, at10000] = lesson_marks([512, 513, 10000], 4);
  return {
    ...r,
    pos: i.pos,
    width: i.width,
    train: i.train,
    post: { sin512: at512[0], sin513: at513[0], sin100: at10000[2] },
  };
}

function fill(target, data, c) {
  const [lo, hi, value] = target.data.datasets;
  // Dimension j: sin for even j, cos for odd (the pair is j / 2, named in the axis title).
  target.data.labels = data.value.map((_, j) => `${j} ${j % 2 ? 'cos' : 'sin'}`);
  lo.data = data.min;
  hi.data = data.max;
  value.data = data.value;
  for (const set of [lo, hi]) {
    set.borderColor = c.rope;
    set.backgroundColor = c.rope;
  }
  value.backgroundColor = data.outside.map((o) => (o ? c.add : c.ink));
  value.borderColor = value.backgroundColor;
  value.label = `mark at position ${data.pos}`;
}

// The band between each dimension's training min and max, shaded under the points.
const bands = {
  id: 'trainingBands',
  beforeDatasetsDraw(chart) {
    const [lo, hi] = chart.data.datasets;
    const {
      ctx,
      scales: { x, y },
    } = chart;
    const half = (x.width / Math.max(lo.data.length, 1)) * 0.3;
    ctx.save();
    ctx.fillStyle = colors(chart.canvas).fill;
    lo.data.forEach((low, j) => {
      const top = y.getPixelForValue(hi.data[j]);
      ctx.fillRect(x.getPixelForValue(j) - half, top, 2 * half, y.getPixelForValue(low) - top);
    });
    ctx.restore();
  },
};

function createExtrapolateChart(canvas, data) {
  const edge = { showLine: false, pointStyle: 'line', pointRadius: 14, pointHoverRadius: 14, borderWidth: 2 };
  return indexChart(canvas, data, fill, {
    type: 'line',
    scales: (c) => ({
      x: axis(c, 'dimension j of the mark (pair j / 2, rounded down)'),
      y: axis(c, 'value', { type: 'linear', min: -1.1, max: 1.1, ticks: { includeBounds: false } }),
    }),
    datasets: [
      { label: 'least value in training', data: [], ...edge },
      { label: 'greatest value in training', data: [], ...edge },
      { label: 'mark at the position', data: [], showLine: false, pointRadius: 6, pointHoverRadius: 7 },
    ],
    plugins: [bands],
    legend: [
      { text: 'values seen over the training positions (least to greatest)', mark: 'box', color: 'var(--c-fill)' },
      { text: 'the mark at the chosen position (orange: outside what training saw)', mark: 'dot', color: 'var(--ink)' },
    ],
  });
}

const outsideCount = (d) => d.outside.filter((o) => o).length;

export default chapterRow({
  name: 'extrapolate',
  title: 'Past the training length, the marks are new',
  lookfor:
    'The shaded bars are the values each dimension of the mark took during training; the dot is its value at ' +
    'the position you choose. Look for: the fast dimensions (left) have seen every value; the slow ones (right) only a ' +
    'narrow band, and past the training length their dots leave it.',
  fallback: 'Each mark value against the range seen in training.',
  embed: 'marks past the training length',
  inputs: {
    pos: logSlider(10000, 'position', 0, 20000, { hint: 'log scale', marks: [100, 512, 3000, 10000] }),
    train: box(512, 'training length', 2, 8192),
    width: slider(8, 'width (dimensions)', 2, 32, 2),
  },
  compute,
  make: createExtrapolateChart,
  readout: (d) =>
    `The post’s numbers: sin(512) = ${d4(d.post.sin512)} ` +
    `(${said('extra.sin512')}), sin(513) = ${d4(d.post.sin513)} (${said('extra.sin513')}), ` +
    `sin(100) = ${d4(d.post.sin100)} (${said('extra.sin100')}).`,
  caption: (d) =>
    `At position ${d.pos}, ${outsideCount(d)} of the ${d.width} mark values lie outside what the ` +
    `${d.train} training positions produced. Even where every value is familiar, the whole mark at a far position is a ` +
    `combination training never showed. At width 4 the post’s sin(512) is really ${d4(d.post.sin512)} and sin(513) is ` +
    `${d4(d.post.sin513)}, both familiar values as it says; sin(10000 × 0.01) = sin(100) = ${d4(d.post.sin100)}.`,
  label: (d) =>
    `Bar chart: for each of ${d.width} dimensions, the range seen over ${d.train} training positions and the ` +
    `mark at position ${d.pos}; ${outsideCount(d)} outside.`,
});
