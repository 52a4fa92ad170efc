// Figure: cos(p·θᵢ) for every pair at every position.
import { chartConfig, makeChart } from '../charts/figure.js';
import { axis, baseOptions, colors } from '../charts/theme.js';
import { formulaBlock } from '../formulas/mathml.js';
import { count, num } from '../lib/format.js';

// The chart: cos(p·θᵢ) for every shown pair i (rows) and position p (columns). Fast pairs
// flicker from column to column, slow pairs stay one colour across many positions.
// Data in: { pairs, positions, cells: one row of cos values per shown pair } — plain arrays.
// -1 -> the additive colour, 0 -> the surface, +1 -> the RoPE colour (hex colours only).
//
// The cells are drawn as one picture, a pixel per cell scaled to the plot area (heatCells). The
// matrix controller of chartjs-chart-matrix keeps an element per cell for the tooltip only, all of
// them sharing one set of options. A colour per cell made Chart.js resolve each cell's options on
// every update, and each cell was a rectangle of its own: the chart's update and drawing took
// about 200 ms for the 4096 cells at the defaults and 290 ms for 8192 (from dim 128), where they
// take 15 and 34 ms now.
function parseHex(hex) {
  const h = hex.replace('#', '');
  return [0, 2, 4].map((j) => parseInt(h.slice(j, j + 2), 16));
}

/** Cell value v (-1..1) to [r, g, b] between the theme's three colours. */
function mixer(c) {
  const [lo, mid, hi] = [parseHex(c.add), parseHex(c.surface), parseHex(c.rope)];
  return (v) => mid.map((m, j) => Math.round(m + ((v < 0 ? lo : hi)[j] - m) * Math.abs(v)));
}

function fill(target, data, c) {
  const [cells] = target.data.datasets;
  const rows = data.pairs.length;
  cells.data = data.cells.flatMap((row, r) =>
    row.map((v, p) => ({ x: data.positions[p], y: r, v, pair: data.pairs[r] })),
  );
  // One colour all the cells share (the picture holds theirs).
  cells.backgroundColor = c.rope;
  const mix = mixer(c);
  // The picture: a pixel per cell, a row per pair (the first at the top), a column per position.
  const picture = document.createElement('canvas');
  picture.width = data.positions.length;
  picture.height = rows;
  const pixels = new Uint8ClampedArray(cells.data.length * 4).fill(255); // opaque
  cells.data.forEach(({ v }, i) => pixels.set(mix(v), i * 4));
  picture.getContext('2d').putImageData(new ImageData(pixels, picture.width, rows), 0, 0);
  cells.picture = picture;
  Object.assign(target.options.scales.x, {
    min: data.positions[0] - 0.5,
    max: data.positions[data.positions.length - 1] + 0.5,
  });
  Object.assign(target.options.scales.y, { min: -0.5, max: rows - 0.5 });
  target.options.scales.y.ticks.callback = (value) =>
    Number.isInteger(value) && value < rows ? String(data.pairs[value]) : '';
}

// The cells: their size as plain numbers once the plot area is known, for the tooltip's hit
// test (a scriptable size is resolved per cell on every update); then the picture over the plot
// area in place of the elements (the x axis runs from the first position - 0.5 to the last + 0.5,
// the y axis from -0.5 to rows - 0.5, top down: each cell is its share of the area, as the
// elements were), and the cell the tooltip names outlined.
const heatCells = {
  id: 'heatCells',
  afterLayout(chart) {
    const [set] = chart.data.datasets;
    set.width = chart.chartArea.width / set.picture.width;
    set.height = chart.chartArea.height / set.picture.height;
  },
  beforeDatasetsDraw(chart) {
    const { ctx, chartArea: area } = chart;
    ctx.save();
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(chart.data.datasets[0].picture, area.left, area.top, area.width, area.height);
    ctx.strokeStyle = chart.options.plugins.tooltip.bodyColor;
    ctx.lineWidth = 1.5;
    for (const { element: cell } of chart.getActiveElements()) {
      const { x, y, width, height } = cell.getProps(['x', 'y', 'width', 'height']);
      ctx.strokeRect(x, y, width, height);
    }
    ctx.restore();
    return false; // the elements are not drawn
  },
};

function createHeatmapChart(canvas, data) {
  const c = colors(canvas);
  const options = baseOptions(c);
  options.interaction = { mode: 'nearest', intersect: true };
  options.plugins.tooltip.callbacks = {
    title: () => '',
    label: (item) => `pair ${item.raw.pair}, position ${item.raw.x}: cos = ${num(item.raw.v, 4)}`,
  };
  options.plugins.tooltip.displayColors = false; // the cell is outlined; its colour is the value's
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
  const cells = { label: 'cos(p·θᵢ)', data: [], parsing: false, borderWidth: 0, width: 0, height: 0 };
  const config = chartConfig('matrix', [cells], options, { plugins: [heatCells] });
  const legend = [
    { text: 'cos = +1', mark: 'box', color: 'var(--c-rope)' },
    { text: 'cos = 0', mark: 'box', color: 'var(--surface)' },
    { text: 'cos = −1', mark: 'box', color: 'var(--c-add)' },
  ];
  return makeChart(canvas, { config, data, fill, legend });
}

export function heatmapCaption(state, model) {
  const h = model.explain.heat;
  const shown =
    model.pairs === 1
      ? 'the only pair'
      : h.pairs.length === model.pairs
        ? `all ${model.pairs} pairs`
        : `${h.pairs.length} of the ${model.pairs} pairs, evenly spaced`;
  const width = h.positions.length;
  const last = h.pairs[h.pairs.length - 1];
  const wavelength = (2 * Math.PI) / h.thetas[h.thetas.length - 1];
  const slow =
    last === 0
      ? ''
      : wavelength > width
        ? ` Pair ${last} has a wavelength of ${num(wavelength)} positions, so it keeps nearly one colour across` +
          ' the whole width.'
        : ` Even pair ${last}, the slowest, turns once every ${num(wavelength)} positions: at this dim and base` +
          ` no pair stays one colour across ${width} positions.`;
  return (
    `Rows: ${shown}; columns: positions ${h.positions[0]} to ${h.positions[width - 1]}.` +
    ' Pair 0 turns 1 rad per position and changes colour every few columns (wavelength 2π ≈ 6.283).' +
    `${slow} Fast pairs tell neighbouring positions apart; slow pairs tell far ones apart.`
  );
}

export function heatmapLabel(state, model) {
  return (
    `Heatmap of cos(p·θᵢ): ${count(model.explain.heat.pairs.length, 'pair')} by` +
    ` ${model.explain.heat.positions.length} positions.`
  );
}

const heatmapNotes = () => formulaBlock('Wavelength', [['Pair i makes one full turn every', 'wavelength']]);

export default {
  name: 'heatmap',
  part: 'gap',
  title: 'Every pair at every position',
  lookfor:
    'cos(p·θᵢ) for pair i (row) at position p (column). Look for: fast pairs as thin stripes at the ' +
    'top, slow pairs as wide bands at the bottom.',
  fallback: 'Heatmap of cos(p·θᵢ), pairs by positions.',
  embed: 'pair × position heatmap',
  make: createHeatmapChart,
  data: (model) => model.explain.heat,
  caption: heatmapCaption,
  label: heatmapLabel,
  notes: heatmapNotes,
};
