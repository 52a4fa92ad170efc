// Figure: what the method does to each pair. θ′ᵢ/θᵢ per pair on a log axis, the bands
// (keep / ramp / divide) shaded behind, other methods at the same factor as dashed lines.
// Data in: { method, ratio, bands, compare: [{ method, ratio, color }] } — one entry per pair;
// color is a comparison line's theme colour name (charts/theme.js), from the methods' table.
// Out (Chart.getChart(canvas).data): labels = pair indexes; datasets[0] (label = the
// method) data = ratio; datasets[1..] (label = each compared method) data = its ratio.
// The bands are drawn from the core's band of each pair, not stored as data.

import { num } from '../lib/format.js';
import { chartLib } from './lib.js';
import { decadeRange, liveLegendChart } from './long_common.js';
import { baseOptions, colors, logAxis, pairAxis } from './theme.js';

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

export function createScalingChart(canvas, data) {
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
