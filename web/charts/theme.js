// Shared look for the charts: colours come from CSS custom properties (so dark
// mode and embeds follow the page). They are read once and again only when the
// colour scheme changes: getComputedStyle on every slider step forces a style
// recalculation and costs more than the maths.

import { linearTick } from '../format.js';

let cached = null;

/** The theme's colours; the same object until refreshColors() is called. */
export function colors() {
  if (!cached) cached = readColors();
  return cached;
}

/** Forget the cached colours (after a colour-scheme change). */
export function refreshColors() {
  cached = null;
}

function readColors() {
  const css = getComputedStyle(document.documentElement);
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
  };
}

/** Once, before the first chart: the page's own (system) font stack on every canvas. */
export function setupDefaults() {
  window.Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  window.Chart.defaults.font.size = 12;
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

/** Options every figure shares: no animation, fills its box, themed legend and tooltip. */
export function baseOptions(c) {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    interaction: { mode: 'nearest', intersect: false },
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
    backgroundColor: c.surface, titleColor: c.ink, bodyColor: c.ink, borderColor: c.grid,
  });
  for (const scale of Object.values(options.scales)) {
    scale.title.color = c.muted;
    scale.ticks.color = c.muted;
    scale.grid.color = c.grid;
    scale.border.color = c.grid;
  }
}
