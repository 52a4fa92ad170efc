// What the two long-context charts share: decade bounds for a log axis, the one-turn line,
// a legend that can change with the data, and a handle that skips unchanged data.

import { drawDashed, htmlLegend, makeChart } from './figure.js';
import { colors } from './theme.js';

/** Decade bounds holding every positive value (and `also`); [0.1, 10] when there is none. */
export function decadeRange(lists, also = []) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const values of [...lists, also]) {
    for (const v of values ?? []) {
      if (!(v > 0) || !Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (lo === Infinity) return { min: 0.1, max: 10 };
  const min = 10 ** Math.floor(Math.log10(lo) - 1e-9);
  let max = 10 ** Math.ceil(Math.log10(hi * 1.5));
  if (max <= min) max = min * 10;
  return { min, max };
}

/** A dashed horizontal line across the plot at data value y. */
export function drawLevel(chart, y, color) {
  const { chartArea, scales } = chart;
  const py = scales.y.getPixelForValue(y);
  if (!Number.isFinite(py) || py < chartArea.top - 0.5 || py > chartArea.bottom + 0.5) return;
  drawDashed(chart, [chartArea.left, py, chartArea.right, py], { color, width: 2, dash: [6, 4] });
}

/** A legend rebuilt only when its items change; remove() takes it off the page. */
export function liveLegend(canvas) {
  let list = null;
  let shown = '';
  let current = [];
  return {
    /** The items shown now (the export menu draws them into the PNG). */
    items: () => current,
    set(items) {
      const key = JSON.stringify(items);
      if (key === shown) return;
      shown = key;
      current = items;
      const next = htmlLegend(canvas, items);
      if (list) {
        list.replaceWith(next);
      }
      list = next;
    },
    remove() {
      list?.remove();
    },
  };
}

/**
 * Wraps a chart handle: the same data object under the same theme is not put in again
 * (the long figures' data are cached while the main sliders move), only drawn if pending.
 */
export function skipUnchanged(handle, extraDestroy = () => {}, live = null) {
  let last = null;
  let theme = null;
  const palette = () => colors(handle.chart.canvas);
  return {
    ...handle, // chart and legend, which the export menu reads
    get legend() {
      return live ? live.items() : handle.legend;
    },
    update(next, draw = true) {
      if (next === last && palette() === theme) {
        if (draw) handle.redraw();
        return;
      }
      last = next;
      theme = palette();
      handle.update(next, draw);
    },
    redraw: () => handle.redraw(),
    destroy() {
      handle.destroy();
      extraDestroy();
    },
  };
}

/**
 * A long figure whose legend follows its data: legendOf(data) gives the legend items.
 * build(current) returns { config, fill }; current() is the data shown now (for tooltips
 * and plugins). The handle skips unchanged data and removes the legend on destroy().
 */
export function liveLegendChart(canvas, data, legendOf, build) {
  let now = data;
  const legend = liveLegend(canvas);
  legend.set(legendOf(data));
  const { config, fill } = build(() => now);
  const onData = (next) => {
    now = next;
    legend.set(legendOf(next));
  };
  return skipUnchanged(makeChart(canvas, { config, data, fill, onData }), () => legend.remove(), legend);
}
