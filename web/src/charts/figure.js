// What every chart module shares besides its look (theme.js): the HTML legend, the
// handle app.js drives (update / redraw / destroy), and the dashed guide line.
// A chart module's create function is usually one makeChart() call:
//
//   export function createXChart(canvas, data) {
//     return makeChart(canvas, { config, data, fill, legend: LEGEND, onData });
//   }

import { chartLib } from './lib.js';
import { colors, refreshColors, retheme } from './theme.js';

/**
 * A legend above the chart as plain HTML, built once: items are
 * { text, mark: 'line' | 'dash' | 'dot' | 'disc' | 'box', color: CSS colour (a var(--…) follows the theme) }.
 * Returns the inserted list, for destroy() to remove.
 */
export function htmlLegend(canvas, items) {
  const box = canvas.closest('.chart-box') || canvas;
  const list = document.createElement('ul');
  list.className = 'legend';
  for (const item of items) {
    const entry = document.createElement('li');
    const mark = document.createElement('span');
    mark.className = `mark mark-${item.mark}`;
    // CSSOM, not a style attribute: allowed under a style-src without 'unsafe-inline'.
    mark.style.setProperty('--mark', item.color);
    mark.setAttribute('aria-hidden', 'true');
    entry.append(mark, item.text);
    list.append(entry);
  }
  box.before(list);
  return list;
}

/**
 * The handle every figure returns. update(next, draw) puts new data into the chart and draws
 * it now, or, with draw false (the chart is out of view), at the next redraw(); a changed
 * colour scheme re-themes the chart first. restyle(draw) re-themes it with its last data after
 * the scheme changed under it (the reader's dark mode, printing). onData(next) lets the figure
 * keep what its plugins read. handle.chart and handle.legend (the legend items) are read by the
 * export menu. destroy() destroys the chart and removes the elements in `inserted` (its legend).
 */
// Widens a held y range to the data's least and greatest value and pins the axis to it.
function holdRange(chart, held) {
  let [lo, hi] = held.range;
  for (const set of chart.data.datasets) {
    for (const point of set.data) {
      const v = typeof point === 'number' ? point : point?.y;
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  held.range = [lo, hi];
  chart.options.scales.y.min = lo;
  chart.options.scales.y.max = hi;
}

export function chartHandle(chart, fill, data, { onData = () => {}, inserted = [], legend = [] } = {}) {
  let themed = colors(chart.canvas);
  let last = data;
  let stale = false;
  // Chart.js's 'none' update keeps the options its elements share (a bar chart's colours): after
  // a theme change the next draw is a full update, which resolves them again.
  let mode = 'none';
  let held = null; // { saved, range } while holdY(true)
  const draw = () => {
    chart.update(mode);
    mode = 'none';
  };
  return {
    // For exports (web/src/output/export.js): the chart itself and its legend items.
    chart,
    legend,
    update(next, now = true) {
      const theme = colors(chart.canvas);
      if (theme !== themed) {
        retheme(chart, theme);
        themed = theme;
        mode = 'default';
      }
      last = next;
      onData(next);
      fill(chart, next, theme);
      if (held) holdRange(chart, held);
      stale = !now;
      if (now) draw();
    },
    restyle(now = true) {
      if (colors(chart.canvas) !== themed) this.update(last, now);
    },
    redraw() {
      if (!stale) return;
      stale = false;
      draw();
    },
    // While held (Play), the y axis only widens to take new data, so the lines move and the
    // axis does not jump every frame; let go, the chart's own range comes back.
    holdY(on) {
      const y = chart.options.scales?.y;
      if (!y) return;
      if (on && !held) {
        held = { saved: [y.min, y.max], range: [chart.scales.y.min, chart.scales.y.max] };
        return;
      }
      if (!on && held) {
        [y.min, y.max] = held.saved;
        held = null;
        this.update(last);
      }
    },
    destroy() {
      chart.destroy();
      for (const element of inserted) element.remove();
    },
  };
}

/**
 * After the colour scheme changed (the reader's dark mode, print): the theme's colours read
 * again and every handle restyled, drawn now where draw(name) says so, else at its next redraw().
 */
export function restyleAll(handles, draw = () => true) {
  refreshColors();
  for (const [name, handle] of Object.entries(handles)) handle.restyle(draw(name));
}

// An axis title wider than its chart is drawn squeezed (the canvas narrows the letters to fit),
// so on a narrow chart it is broken at spaces into lines that fit; a wide one gets it whole again.
const fullTitles = new WeakMap(); // chart -> { scale id: the title as written }
const fitTitles = {
  id: 'fitTitles',
  beforeLayout(chart) {
    const full = fullTitles.get(chart) ?? {};
    fullTitles.set(chart, full);
    for (const scale of Object.values(chart.scales)) {
      const title = scale.options.title;
      if (!title?.display) continue;
      full[scale.id] ??= [title.text].flat().join(' ');
      const font = title.font ?? {};
      chart.ctx.font = `${font.size ?? 12}px ${font.family ?? chartLib().defaults.font.family}`;
      const room = (scale.isHorizontal() ? chart.width : chart.height) - 24;
      const lines = [];
      for (const word of full[scale.id].split(' ')) {
        const longer = lines.length ? `${lines[lines.length - 1]} ${word}` : null;
        if (longer !== null && chart.ctx.measureText(longer).width <= room) lines[lines.length - 1] = longer;
        else lines.push(word);
      }
      title.text = lines.length > 1 ? lines : full[scale.id];
    }
  },
};

// A chart made in steps (chartInSteps) stops its updates at the hook its canvas is given here,
// so that each part of its first drawing runs in a task of its own.
const stopAt = new WeakMap(); // canvas -> 'beforeUpdate' | 'beforeRender'
const stepper = {
  id: 'steps',
  beforeUpdate: (chart) => stopAt.get(chart.canvas) !== 'beforeUpdate',
  beforeRender: (chart) => stopAt.get(chart.canvas) !== 'beforeRender',
};

/**
 * Runs make() (which makes the chart on `canvas` and returns its handle) in three steps, one
 * for each yield: the chart's options and size; its layout and elements; its first drawing.
 * The first chart of a page runs much of Chart.js's code for the first time, and in one task it
 * was longer than the 50 ms that hold up a reader's scrolling. Returns the handle. Run at once
 * (every step in a row), the chart is the one make() alone would draw.
 */
export function* chartInSteps(canvas, make) {
  stopAt.set(canvas, 'beforeUpdate');
  try {
    const handle = make();
    if (!handle?.chart) return handle;
    yield;
    stopAt.set(canvas, 'beforeRender');
    handle.chart.update();
    yield;
    stopAt.delete(canvas);
    handle.chart.render();
    return handle;
  } finally {
    stopAt.delete(canvas);
  }
}

/**
 * The usual create function in one call: fill(config, data, colors(canvas)) fills the config
 * before construction (fill works on a chart or its config: same data/options shape),
 * the legend goes above the canvas, and the chart's handle is returned.
 */
export function makeChart(canvas, { config, data, fill, legend = [], onData = () => {} }) {
  fill(config, data, colors(canvas));
  const inserted = legend.length ? [htmlLegend(canvas, legend)] : [];
  const Chart = chartLib();
  const chart = new Chart(canvas, { ...config, plugins: [fitTitles, stepper, ...(config.plugins ?? [])] });
  return chartHandle(chart, fill, data, { onData, inserted, legend });
}

/** Gives each dataset of sets the line colour `color`, and its fill too where `fill`. */
export function paint(color, sets, fill = false) {
  for (const set of sets) {
    set.borderColor = color;
    if (fill) set.backgroundColor = color;
  }
}

/**
 * A chart's config: { type, data: { labels?, datasets }, options, plugins }. Category charts
 * pass labels ([] until fill() sets them).
 */
export function chartConfig(type, datasets, options, { plugins = [], labels } = {}) {
  return { type, data: labels ? { labels, datasets } : { datasets }, options, plugins };
}

/** Points marked over the lines, with no line between them (the report's starts, the current gap). */
export function markerSet(label, radius, extra = {}) {
  return {
    label,
    data: [],
    parsing: false,
    showLine: false,
    order: 0,
    pointRadius: radius,
    pointHoverRadius: radius + 1,
    pointBorderWidth: 2,
    ...extra,
  };
}

/** A dashed straight line on the chart's canvas from (x0, y0) to (x1, y1), in pixels. */
export function drawDashed(chart, [x0, y0, x1, y1], { color, width, dash }) {
  const { ctx } = chart;
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.setLineDash(dash);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
  ctx.restore();
}

/** A dashed vertical guide at data value x (used for marked starts and the current gap). */
export function drawGuide(chart, x, color) {
  const { chartArea, scales } = chart;
  const px = scales.x.getPixelForValue(x);
  if (!Number.isFinite(px) || px < chartArea.left - 0.5 || px > chartArea.right + 0.5) return;
  drawDashed(chart, [px, chartArea.top, px, chartArea.bottom], { color, width: 1, dash: [4, 4] });
}

/**
 * A plugin that fills, below the datasets, the area between dataset `upper`'s line and dataset
 * `lower`'s (drawn back along its points, straight segments), or with lower 'origin' between
 * `upper`'s line and the value 0, in the filling dataset's backgroundColor (`lower`'s, or
 * `upper`'s for 'origin'), clipped to the chart area. What Chart.js's Filler plugin does for the
 * two fills the figures draw (a band, an area under a stepped line), so no script carries Filler
 * (2.5 KB gzipped: a one-view embed counts every byte). upper's line is Chart.js's own path
 * (LineElement.path), stepped or not.
 */
export function areaFill(id, upper, lower) {
  return {
    id,
    beforeDatasetsDraw(chart) {
      const line = chart.getDatasetMeta(upper).dataset;
      const points = line?.points ?? [];
      const back = lower === 'origin' ? null : chart.getDatasetMeta(lower).data;
      // Nothing to fill, or two lines that do not pair up point for point.
      if (points.length < 2 || (back && back.length !== points.length)) return;
      const { ctx, chartArea } = chart;
      ctx.save();
      ctx.beginPath();
      ctx.rect(chartArea.left, chartArea.top, chartArea.width, chartArea.height);
      ctx.clip();
      ctx.beginPath();
      line.path(ctx);
      if (lower === 'origin') {
        const zero = chart.scales.y.getPixelForValue(0);
        ctx.lineTo(points[points.length - 1].x, zero);
        ctx.lineTo(points[0].x, zero);
      } else {
        for (let j = back.length - 1; j >= 0; j--) ctx.lineTo(back[j].x, back[j].y);
      }
      ctx.closePath();
      ctx.fillStyle = chart.data.datasets[lower === 'origin' ? upper : lower].backgroundColor;
      ctx.fill();
      ctx.restore();
    },
  };
}
