// Shared look for the charts: colours come from CSS custom properties (so dark
// mode and embeds follow the page), read each time a chart is created or updated.

export function colors() {
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
  };
}

/** Once, before the first chart: the page's own (system) font stack on every canvas. */
export function setupDefaults() {
  window.Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  window.Chart.defaults.font.size = 12;
}

/** Axis with a title; tick and grid colours from the theme. */
export function axis(c, title, extra = {}) {
  return {
    ...extra,
    title: { display: true, text: title, color: c.muted, font: { size: 12, weight: 'normal' } },
    ticks: { color: c.muted, ...(extra.ticks || {}) },
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
      legend: {
        position: 'top',
        align: 'start',
        labels: {
          color: c.ink, boxWidth: 14, boxHeight: 8, padding: 14, usePointStyle: true,
          sort: (a, b) => a.datasetIndex - b.datasetIndex,
        },
      },
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

/** Legend entries drawn as the data look: styles[i] ('line', 'circle', 'rect') for dataset i. */
export function legendStyles(styles) {
  return (chart) => window.Chart.defaults.plugins.legend.labels.generateLabels(chart)
    .map((item) => ({ ...item, pointStyle: styles[item.datasetIndex] || 'rect' }));
}

/** Grid lines on a log axis at decades only: the minor lines would crowd the figure. */
export function decadeGrid(color) {
  return (context) => {
    const value = context.tick && context.tick.value;
    if (!(value > 0)) return color;
    const exponent = Math.round(Math.log10(value));
    return Math.abs(value - 10 ** exponent) <= 1e-9 * value ? color : 'transparent';
  };
}

/** Re-theme an existing chart in place (after a colour-scheme change). */
export function retheme(chart, c) {
  const { options } = chart;
  options.plugins.legend.labels.color = c.ink;
  Object.assign(options.plugins.tooltip, {
    backgroundColor: c.surface, titleColor: c.ink, bodyColor: c.ink, borderColor: c.grid,
  });
  for (const scale of Object.values(options.scales)) {
    scale.title.color = c.muted;
    scale.ticks.color = c.muted;
    scale.grid.color = scale.type === 'logarithmic' ? decadeGrid(c.grid) : c.grid;
    scale.border.color = c.grid;
  }
}

/** A dashed vertical guide at data value x (used for marked starts and the current gap). */
export function drawGuide(chart, x, color) {
  const { ctx, chartArea, scales } = chart;
  const px = scales.x.getPixelForValue(x);
  if (!Number.isFinite(px) || px < chartArea.left - 0.5 || px > chartArea.right + 0.5) return;
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = 1;
  ctx.setLineDash([4, 4]);
  ctx.beginPath();
  ctx.moveTo(px, chartArea.top);
  ctx.lineTo(px, chartArea.bottom);
  ctx.stroke();
  ctx.restore();
}
