// Figure (long context): what the scaling method does to each pair's frequency.
import { chartLib } from '../charts/lib.js';
import { decadeRange, liveLegendChart } from '../charts/long_common.js';
import { baseOptions, colors, logAxis, pairAxis } from '../charts/theme.js';
import { list, num, plural } from '../lib/format.js';
import { METHOD } from '../model/methods.js';
import { longRow } from './long_row.js';

// The chart: what the method does to each pair. θ′ᵢ/θᵢ per pair on a log axis, the bands
// (keep / ramp / divide) shaded behind, other methods at the same factor as dashed lines.
// Data in: { method, ratio, bands, compare: [{ method, ratio, color }] } — one entry per pair;
// color is a comparison line's theme colour name (charts/theme.js), from the methods' table.
// Out (Chart.getChart(canvas).data): labels = pair indexes; datasets[0] (label = the
// method) data = ratio; datasets[1..] (label = each compared method) data = its ratio.
// The bands are drawn from the core's band of each pair, not stored as data.
const SHADED = ['keep', 'ramp', 'divide'];
const lineSet = (label) => ({
  label,
  data: [],
  borderWidth: 2,
  pointRadius: 0,
  pointHoverRadius: 4,
  tension: 0,
  spanGaps: true,
});

function fill(target, data, c) {
  target.data.labels = data.ratio.map((_, i) => i);
  const sets = [
    { ...lineSet(data.method), data: data.ratio.slice(), borderColor: c.rope, backgroundColor: c.rope, order: 0 },
  ];
  for (const other of data.compare) {
    const color = c[other.color] ?? c.muted;
    sets.push({
      ...lineSet(other.method),
      data: other.ratio.slice(),
      borderColor: color,
      backgroundColor: color,
      borderDash: [6, 4],
      borderWidth: 1.5,
      order: 1,
    });
  }
  // Same datasets as before: change them in place, so Chart.js keeps its elements.
  const current = target.data.datasets;
  if (current.length === sets.length && current.every((ds, i) => ds.label === sets[i].label)) {
    current.forEach((ds, i) => Object.assign(ds, sets[i]));
  } else {
    target.data.datasets = sets;
  }
  Object.assign(target.options.scales.y, decadeRange([data.ratio, ...data.compare.map((o) => o.ratio)], [1]));
}

// Contiguous runs of pairs in one band: [{ band, from, to }].
function runs(bands) {
  const out = [];
  bands.forEach((band, i) => {
    const last = out[out.length - 1];
    if (last && last.band === band) last.to = i;
    else out.push({ band, from: i, to: i });
  });
  return out.filter((run) => SHADED.includes(run.band));
}

function drawBands(chart, bands) {
  const { ctx, chartArea, scales } = chart;
  const palette = colors(chart.canvas);
  const half = bands.length > 1 ? Math.abs(scales.x.getPixelForValue(1) - scales.x.getPixelForValue(0)) / 2 : 0;
  ctx.save();
  ctx.font = `600 12px ${chartLib().defaults.font.family}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const run of runs(bands)) {
    const left = Math.max(chartArea.left, scales.x.getPixelForValue(run.from) - half);
    const right = Math.min(chartArea.right, scales.x.getPixelForValue(run.to) + half);
    if (!(right > left)) continue;
    ctx.fillStyle = palette[run.band];
    ctx.fillRect(left, chartArea.top, right - left, chartArea.bottom - chartArea.top);
    if (right - left > 36) {
      ctx.fillStyle = palette.muted;
      ctx.fillText(run.band, (left + right) / 2, chartArea.top + 4);
    }
  }
  ctx.restore();
}

function legendItems(data) {
  const items = [{ text: `${data.method}: θ′/θ`, mark: 'line', color: 'var(--c-rope)' }];
  for (const other of data.compare) {
    items.push({ text: other.method, mark: 'dash', color: `var(--c-${other.color})` });
  }
  const shown = new Set(data.bands);
  for (const band of SHADED) {
    if (shown.has(band)) items.push({ text: `band: ${band}`, mark: 'box', color: `var(--c-band-${band})` });
  }
  return items;
}

function createScalingChart(canvas, data) {
  return liveLegendChart(canvas, data, legendItems, (now) => {
    const c = colors(canvas);
    const options = baseOptions(c, 'index');
    options.plugins.tooltip.callbacks = {
      title: (items) => `pair ${items[0].label}: ${now().bands[items[0].dataIndex]}`,
      label: (item) => `${item.dataset.label}: θ′/θ = ${num(item.raw)}`,
    };
    options.scales = {
      x: pairAxis(c, 'pair i  (fast pairs left, slow pairs right)'),
      y: logAxis(c, 'θ′/θ, scaled over original frequency (log scale)'),
    };
    const config = {
      type: 'line',
      data: { labels: [], datasets: [] },
      options,
      plugins: [
        {
          id: 'scalingBands',
          beforeDatasetsDraw(chart) {
            drawBands(chart, now().bands);
          },
        },
      ],
    };
    return { config, fill };
  });
}

export function scalingCaption(state, model) {
  const { main, compare } = model;
  const n = main.pairs.length;
  const b = main.bands;
  const label = METHOD[state.method].label;
  let text;
  if (state.method === 'default') {
    text = `No scaling: every pair keeps its frequency (ratio 1 for all ${n}).`;
  } else if (b.ratio === 0) {
    const factor = num(main.factor);
    text =
      `${label} at factor ${factor} keeps ${plural(b.keep, 'pair')} of ${n} (θ′ = θ), ramps ${b.ramp}` +
      ` and divides ${b.divide} by ${factor}.`;
    const range = main.resolved.correction_range;
    if (range) text += ` YaRN’s correction range: pairs ${num(range[0])} to ${num(range[1])}.`;
  } else {
    const ratio = main.pairs.map((p) => p.ratio);
    text = `${label}: the ratio θ′/θ goes from ${num(ratio[0])} at pair 0 to ${num(ratio[n - 1])} at pair ${n - 1}`;
    text += main.resolved.base_used !== main.base ? ` (the base used is ${num(main.resolved.base_used)}).` : '.';
  }
  text += ` Attention factor ${num(main.attention_factor)}`;
  text += main.softmax_multiplier !== 1 ? `, softmax multiplier ${num(main.softmax_multiplier)}.` : '.';
  if (compare.length) {
    text += ` Dashed for comparison at factor ${num(compare[0].factor)}: ${list(compare.map((c) => METHOD[c.method].label))}.`;
  }
  if (main.warnings.length) {
    text += ` The config reader notes ${plural(main.warnings.length, 'warning')}, listed beside the method.`;
  }
  return text;
}

export function scalingLabel(state, model) {
  const b = model.main.bands;
  return (
    `Line chart, log scale: θ′/θ for each of ${model.main.pairs.length} pairs under ${state.method};` +
    ` ${b.keep} kept, ${b.ramp} ramped, ${b.divide} divided.`
  );
}

export default {
  name: 'scaling',
  title: 'What the method does to each pair',
  lookfor:
    'The ratio of each pair’s scaled frequency to its original one: 1 keeps it, 1/factor divides it. ' +
    'Look for: which pairs a method leaves alone (the fast ones, which turned many times in training) and ' +
    'which it slows down, compared with the other methods at the same factor.',
  fallback: 'Per pair: scaled frequency over original frequency, with the bands shaded.',
  embed: 'what the scaling does',
  ...longRow('scaling', createScalingChart, scalingCaption, scalingLabel),
};
