// Shared look for the charts: colours come from CSS custom properties (so dark
// mode and embeds follow the page). They are read once and again only when the
// colour scheme changes: getComputedStyle on every slider step forces a style
// recalculation and costs more than the maths.

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

/**
 * A legend above the chart as plain HTML, built once: items are
 * { text, mark: 'line' | 'dash' | 'dot' | 'disc' | 'box', color: CSS colour (a var(--…) follows the theme) }.
 */
export function htmlLegend(canvas, items) {
  const box = canvas.closest('.chart-box');
  const list = document.createElement('ul');
  list.className = 'legend';
  for (const item of items) {
    const entry = document.createElement('li');
    const mark = document.createElement('span');
    mark.className = `mark mark-${item.mark}`;
    mark.style.setProperty('--mark', item.color);
    mark.setAttribute('aria-hidden', 'true');
    entry.append(mark, item.text);
    list.append(entry);
  }
  box.before(list);
  return list;
}

/** Log axes keep their decade ticks only: fewer labels to lay out, and no crowded minor lines. */
export function decadesOnly(scale) {
  scale.ticks = scale.ticks.filter(({ value }) => {
    const exponent = Math.round(Math.log10(value));
    return Math.abs(value - 10 ** exponent) <= 1e-9 * value;
  });
}

/**
 * The handle every figure returns. update(next, draw) puts new data into the chart and draws
 * it now, or, with draw false (the chart is out of view), at the next redraw(); a changed
 * colour scheme re-themes the chart first. onData(next) lets the figure keep what its plugins
 * read.
 */
export function chartHandle(chart, fill, onData = () => {}) {
  let themed = colors();
  let stale = false;
  return {
    update(next, draw = true) {
      const theme = colors();
      if (theme !== themed) {
        retheme(chart, theme);
        themed = theme;
      }
      onData(next);
      fill(chart, next, theme);
      stale = !draw;
      if (draw) chart.update('none');
    },
    redraw() {
      if (!stale) return;
      stale = false;
      chart.update('none');
    },
    destroy() {
      chart.destroy();
    },
  };
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
