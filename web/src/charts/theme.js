// Shared look for the charts: colours come from CSS custom properties (so dark
// mode, the theme= setting and embeds follow the page). They are read once per
// document or shadow root and again only when the colour scheme changes:
// getComputedStyle on every slider step forces a style recalculation and costs
// more than the maths.

import { decadeTick, linearTick } from '../lib/format.js';
import { chartLib } from './lib.js';

let cached = new WeakMap(); // document or shadow root -> colours

/**
 * The theme's colours where `element` (a chart's canvas) sits: the page's, or those of the
 * <rope-scope> element whose shadow root holds it. The same object until refreshColors().
 * Chart modules pass their canvas (chart.canvas in plugins): it is required, since the
 * document's colours are not the ones inside a shadow root (they may not even be defined there).
 */
export function colors(element) {
  if (!element) throw new TypeError("colors(element): the figure's canvas is needed to find its theme");
  const root = element.isConnected ? element.getRootNode() : document;
  if (!cached.has(root)) cached.set(root, readColors(root === document ? document.documentElement : element));
  return cached.get(root);
}

/** Forget the cached colours (after a colour-scheme or theme change). */
export function refreshColors() {
  cached = new WeakMap();
}

function readColors(element) {
  const css = getComputedStyle(element);
  const read = (name) => css.getPropertyValue(name).trim();
  return {
    ink: read('--ink'),
    muted: read('--ink-muted'),
    grid: read('--grid'),
    surface: read('--surface'),
    rope: read('--c-rope'),
    add: read('--c-add'),
    fast: read('--c-fast'),
    slow: read('--c-slow'),
    turn: read('--c-turn'),
    mark: read('--c-mark'),
    fill: read('--c-fill'),
    addFill: read('--c-add-fill'),
    // The long-context figures' own: training bars and the scaling bands.
    trained: read('--c-trained'),
    keep: read('--c-band-keep'),
    ramp: read('--c-band-ramp'),
    divide: read('--c-band-divide'),
  };
}

/** Once, before the first chart: the page's own (system) font stack on every canvas. */
export function setupDefaults(fontSource = document.body) {
  const Chart = chartLib();
  Chart.defaults.font.family = getComputedStyle(fontSource).fontFamily;
  Chart.defaults.font.size = 12;
}

/**
 * Axis with a title; tick and grid colours from the theme. Linear axes label their ticks with
 * format.js's linearTick (Chart.js's labels, without the cost of a first Intl.NumberFormat).
 */
export function axis(c, title, extra = {}) {
  const labels = extra.type === 'linear' ? { callback: linearTick } : {};
  return {
    ...extra,
    title: { display: true, text: title, color: c.muted, font: { size: 12, weight: 'normal' } },
    ticks: { color: c.muted, ...labels, ...(extra.ticks || {}) },
    grid: { color: c.grid, ...(extra.grid || {}) },
    border: { color: c.grid },
  };
}

// Category labels wrapped at spaces into lines that fit the room each category has (about 0.55
// of the font size a character), so long names ("nolan → ended", "expanded (8 products)")
// stack instead of running into each other on a phone; every label is kept, none rotated, and
// on a narrow chart the labels are a size smaller.
const NARROW = 480;
const categoryFont = (ctx) => ({ size: ctx.chart.width < NARROW ? 10 : 12 });

function wrappedLabel(value) {
  const label = String(this.getLabelForValue(value));
  const count = Math.max(1, this.chart.data.labels?.length ?? 1);
  const perChar = 0.55 * (this.chart.width < NARROW ? 10 : 12);
  const room = Math.max(4, Math.floor((this.chart.width - 60) / count / perChar));
  if (label.length <= room) return label;
  const lines = [];
  for (const word of label.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= room) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** A category axis whose labels wrap rather than collide or rotate. */
export function categoryAxis(c, title, extra = {}) {
  return axis(c, title, {
    ...extra,
    ticks: { maxRotation: 0, autoSkip: false, callback: wrappedLabel, font: categoryFont, ...(extra.ticks || {}) },
  });
}

/** Log axis labelled at its decades only (see decadesOnly); `extra` adds range or tick settings. */
export function logAxis(c, title, extra = {}) {
  return axis(c, title, {
    ...extra,
    type: 'logarithmic',
    ticks: { callback: decadeTick, autoSkip: false, ...(extra.ticks || {}) },
    afterBuildTicks: decadesOnly,
  });
}

// Up to 512 pairs: label about a dozen of them at round steps, so the axis lays out a
// dozen ticks instead of measuring and skipping hundreds on every update.
function everyNthPair(scale) {
  const rough = scale.ticks.length / 12;
  const step = [1, 2, 4, 5, 8, 10, 16, 20, 25, 32, 40, 50].find((s) => s >= rough) || 64;
  scale.ticks = scale.ticks.filter(({ value }) => value % step === 0);
}

/** Category axis of pair indexes, about a dozen of them labelled, no vertical grid. */
export function pairAxis(c, title) {
  return axis(c, title, {
    grid: { display: false },
    ticks: { maxRotation: 0, autoSkip: false },
    afterBuildTicks: everyNthPair,
  });
}

/**
 * Options every figure shares: no animation, fills its box, themed legend and tooltip.
 * `mode` is the tooltip's interaction mode ('index': every dataset at the pointer's x).
 */
export function baseOptions(c, mode = 'nearest') {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    // The export menu (web/src/output/export.js) sits in the chart box's top right corner.
    layout: { padding: { top: 26 } },
    interaction: { mode, intersect: false },
    plugins: {
      // Legends are HTML (htmlLegend): static, accessible, and not re-laid out on every update.
      legend: { display: false },
      tooltip: {
        backgroundColor: c.surface,
        titleColor: c.ink,
        bodyColor: c.ink,
        borderColor: c.grid,
        borderWidth: 1,
      },
    },
  };
}

/** Log axes keep their decade ticks only: fewer labels to lay out, and no crowded minor lines. */
export function decadesOnly(scale) {
  scale.ticks = scale.ticks.filter(({ value }) => {
    const exponent = Math.round(Math.log10(value));
    return Math.abs(value - 10 ** exponent) <= 1e-9 * value;
  });
}

/** Re-theme an existing chart in place (after a colour-scheme change). */
export function retheme(chart, c) {
  const { options } = chart;
  Object.assign(options.plugins.tooltip, {
    backgroundColor: c.surface,
    titleColor: c.ink,
    bodyColor: c.ink,
    borderColor: c.grid,
  });
  for (const scale of Object.values(options.scales)) {
    scale.title.color = c.muted;
    scale.ticks.color = c.muted;
    scale.grid.color = c.grid;
    scale.border.color = c.grid;
  }
}
