// Per-figure exports: a small menu inside each figure's chart box (the element holding its
// canvas) with PNG, CSV and JSON of exactly what the chart plots. Everything comes from the
// chart handle (charts/figure.js: handle.chart, handle.legend), so every row of the figures
// table gets the menu, on the page and in embeds, without code of its own.
//   PNG   the chart redrawn at 2x pixel density in the current theme, on the theme's surface
//         colour (theme=inherit: the background it is seen on), with the figure's legend drawn
//         above the plot.
//   CSV   "series,x,y": one line per plotted value, numbers written as JavaScript's shortest
//         round-trip form (Number(text) gives back the same double); an empty y is a gap (null).
//   JSON  { figure, settings, labels?, datasets: [{ label, data }] }: the chart's data as is.
// File names carry the settings: ropescope-flatness-dim128-base500000-gap16.csv.

import { colors } from '../charts/theme.js';
import { saveBlob, saveText } from '../lib/save.js';
import { PARAM } from '../state/state.js';

export const EXPORT_SCALE = 2;
// The settings every figure depends on, always in the name; the sweep's only when changed.
const NAME_ALWAYS = ['dim', 'base', 'gap'];
const NAME_IF_CHANGED = ['from', 'to', 'n'];

/** ropescope-<figure>-dim..-base..-gap..[-from..-to..-n..] (no extension). */
export function exportName(figure, settings) {
  const parts = [`ropescope-${figure}`];
  for (const key of NAME_ALWAYS) parts.push(`${key}${settings[key]}`);
  for (const key of NAME_IF_CHANGED) {
    if (settings[key] !== PARAM[key].default) parts.push(`${key}${settings[key]}`);
  }
  return parts.join('-');
}

/** The numeric settings (the figures' inputs) out of a state object. */
export function plotSettings(state) {
  return Object.fromEntries([...NAME_ALWAYS, ...NAME_IF_CHANGED].map((key) => [key, state[key]]));
}

const cell = (value) => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The chart's data as one row per plotted value: [series, x, y]; x is the label for category charts. */
export function dataRows(data) {
  const rows = [];
  for (const dataset of data.datasets) {
    dataset.data.forEach((point, i) => {
      if (point !== null && typeof point === 'object') rows.push([dataset.label, point.x, point.y]);
      else rows.push([dataset.label, data.labels?.[i] ?? i, point]);
    });
  }
  return rows;
}

export function toCsv(data) {
  const lines = ['series,x,y', ...dataRows(data).map((row) => row.map(cell).join(','))];
  return `${lines.join('\n')}\n`;
}

/** The chart's data as plain JSON values ({x, y} points copied, nothing else of Chart.js's). */
export function plainData(data) {
  const copy = (v) => (v !== null && typeof v === 'object' ? { x: v.x, y: v.y } : v);
  const out = {};
  if (data.labels?.length) out.labels = Array.from(data.labels);
  out.datasets = data.datasets.map((d) => ({ label: d.label, data: Array.from(d.data, copy) }));
  return out;
}

export function toJson(figure, settings, data) {
  return `${JSON.stringify({ figure, settings, ...plainData(data) }, null, 1)}\n`;
}

// ---- PNG ----

const LEGEND_ROW = 22; // CSS px per legend line
const LEGEND_PAD = 8;

// A legend colour is a CSS value, usually var(--name): resolve it where the canvas sits.
function resolveColor(canvas, value) {
  const match = /^var\((--[\w-]+)\)$/.exec(value.trim());
  return match ? getComputedStyle(canvas).getPropertyValue(match[1]).trim() : value;
}

// Lays the legend items out in lines that fit `width`; returns [{ item, x, line }] and the line count.
function legendLayout(ctx, items, width) {
  const placed = [];
  let x = LEGEND_PAD;
  let line = 0;
  for (const item of items) {
    const w = 24 + ctx.measureText(item.text).width + 18;
    if (x + w > width - LEGEND_PAD && x > LEGEND_PAD) {
      line += 1;
      x = LEGEND_PAD;
    }
    placed.push({ item, x, line });
    x += w;
  }
  return { placed, lines: items.length ? line + 1 : 0 };
}

function drawLegend(ctx, canvas, items, width, font, ink) {
  ctx.font = `13px ${font}`;
  const { placed, lines } = legendLayout(ctx, items, width);
  ctx.textBaseline = 'middle';
  for (const { item, x, line } of placed) {
    const y = LEGEND_PAD + line * LEGEND_ROW + LEGEND_ROW / 2;
    const color = resolveColor(canvas, item.color);
    ctx.strokeStyle = color;
    ctx.fillStyle = color;
    ctx.lineWidth = 2.5;
    ctx.setLineDash(item.mark === 'dash' ? [4, 3] : []);
    if (item.mark === 'line' || item.mark === 'dash') {
      ctx.beginPath();
      ctx.moveTo(x, y);
      ctx.lineTo(x + 18, y);
      ctx.stroke();
    } else if (item.mark === 'box') {
      ctx.fillRect(x + 3, y - 5, 12, 10);
    } else {
      ctx.beginPath();
      ctx.arc(x + 9, y, 5, 0, 2 * Math.PI);
      if (item.mark === 'disc') ctx.fill();
      else ctx.stroke();
    }
    ctx.setLineDash([]);
    ctx.fillStyle = ink;
    ctx.fillText(item.text, x + 24, y);
  }
  return lines ? lines * LEGEND_ROW + LEGEND_PAD * 2 : 0;
}

/** Legend height in CSS px for the PNG of a chart `width` px wide (for tests and the layout). */
export function pngLegendHeight(handle) {
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `13px ${handle.chart.options.font?.family ?? 'sans-serif'}`;
  const { lines } = legendLayout(ctx, handle.legend, handle.chart.width);
  return lines ? lines * LEGEND_ROW + LEGEND_PAD * 2 : 0;
}

const opaque = (color) => color && color !== 'transparent' && !/^rgba\(.*,\s*0\)$/.test(color);

/**
 * The PNG's background: the theme's surface, or, where that is transparent (theme=inherit, the
 * host's background showing through), the first opaque background behind the canvas, through
 * a <rope-scope>'s shadow root to its host's page; else the browser's own canvas colour for the
 * palette's scheme, so the image is never dark ink on nothing.
 */
function background(canvas, theme) {
  if (opaque(theme.surface)) return theme.surface;
  for (let node = canvas; node; node = node.parentElement ?? node.getRootNode().host ?? null) {
    const color = getComputedStyle(node).backgroundColor;
    if (opaque(color)) return color;
  }
  // The scheme of the palette in use: light ink is the dark palette's.
  const probe = document.createElement('div');
  probe.style.color = theme.ink;
  document.body.append(probe);
  const [r, g, b] = getComputedStyle(probe)
    .color.match(/[\d.]+/g)
    .map(Number);
  probe.style.colorScheme = 0.299 * r + 0.587 * g + 0.114 * b > 128 ? 'dark' : 'light';
  probe.style.background = 'Canvas';
  const color = getComputedStyle(probe).backgroundColor;
  probe.remove();
  return color;
}

/**
 * The chart as a PNG blob: redrawn at EXPORT_SCALE x its CSS size (so the image is sharp, not an
 * upscaled screen copy), on the theme's surface colour, the legend above. The chart is back at
 * the screen's density before this returns; nothing is painted in between. Synchronous (toDataURL,
 * not toBlob), so the download starts inside the click: an awaited encode can outlast the click's
 * user activation on a busy machine, and the browser then holds the download back.
 */
export function toPngBlob(handle) {
  const { chart } = handle;
  const { canvas } = chart;
  handle.redraw();
  const theme = colors(canvas);
  const before = chart.options.devicePixelRatio;
  const width = chart.width;
  const height = chart.height;
  const font = chart.options.font?.family ?? getComputedStyle(canvas).fontFamily;
  const legendHeight = pngLegendHeight(handle);
  const out = document.createElement('canvas');
  out.width = Math.round(width * EXPORT_SCALE);
  out.height = Math.round((height + legendHeight) * EXPORT_SCALE);
  const ctx = out.getContext('2d');
  try {
    chart.options.devicePixelRatio = EXPORT_SCALE;
    chart.resize(width, height);
    ctx.fillStyle = background(canvas, theme);
    ctx.fillRect(0, 0, out.width, out.height);
    ctx.save();
    ctx.scale(EXPORT_SCALE, EXPORT_SCALE);
    drawLegend(ctx, canvas, handle.legend, width, font, theme.ink);
    ctx.restore();
    ctx.drawImage(canvas, 0, Math.round(legendHeight * EXPORT_SCALE), out.width, Math.round(height * EXPORT_SCALE));
  } finally {
    chart.options.devicePixelRatio = before;
    chart.resize();
  }
  const [head, base64] = out.toDataURL('image/png').split(',');
  if (head !== 'data:image/png;base64') throw new Error('the browser could not encode the PNG');
  return new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'image/png' });
}

// ---- the menu ----

const KINDS = [
  ['png', 'PNG', 'image of this chart at 2x'],
  ['csv', 'CSV', 'the plotted data'],
  ['json', 'JSON', 'the plotted data and settings'],
];

/**
 * Puts the export menu into the chart box of `handle`'s canvas. figure: the row name;
 * settings(): the current state (read at click time); onError(message) reports a failure.
 * Returns the menu (the handle's destroy() does not know it: remove it with the figure).
 */
export function addExportMenu(handle, { figure, settings, onError = () => {} }) {
  const { canvas } = handle.chart;
  const box = canvas.closest('.chart-box') ?? canvas.parentElement;
  const menu = document.createElement('div');
  menu.className = 'export';
  menu.setAttribute('role', 'group');
  menu.setAttribute('aria-label', 'Download this figure');
  for (const [kind, text, what] of KINDS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.export = kind;
    button.textContent = text;
    // The visible text starts the accessible name (what speech input users say).
    button.title = `${text}: ${what}`;
    button.setAttribute('aria-label', `${text}: download ${what}`);
    button.addEventListener('click', () => {
      const state = settings();
      const values = plotSettings(state);
      const name = exportName(figure, values);
      try {
        handle.redraw();
        const data = handle.chart.data;
        if (kind === 'csv') saveText(`${name}.csv`, toCsv(data), 'text/csv', menu);
        else if (kind === 'json') saveText(`${name}.json`, toJson(figure, values, data), 'application/json', menu);
        else saveBlob(`${name}.png`, toPngBlob(handle), menu);
      } catch (err) {
        onError(`Could not export ${name}.${kind}: ${err.message}`);
      }
    });
    menu.append(button);
  }
  box.append(menu);
  return menu;
}
