// A line chart of a few series over consecutive integer positions: point i of every series
// sits at x = data.start0 + i. The additive breakdown and the query-length figures are this.

import { num } from '../lib/format.js';
import { chartConfig, makeChart } from './figure.js';
import { axis, baseOptions, colors } from './theme.js';

/**
 * sets: [key, label, colour, width] per series — data[key] its values, colour a key of
 * theme.js's colours ('muted' is the muted ink), width its line width. x, y: the axis titles
 * (yExtra: more y-axis settings); point(x): a tooltip's title; digits: the tooltip's digits.
 */
export function seriesChart(canvas, data, { sets, x, y, yExtra = {}, point, digits = 5 }) {
  const fill = (target, next, c) => {
    sets.forEach(([key, , color], j) => {
      const set = target.data.datasets[j];
      // Point objects reused while the count stays: a slider drag allocates nothing.
      const ys = next[key];
      if (!set.data || set.data.length !== ys.length) set.data = ys.map(() => ({ x: 0, y: 0 }));
      for (let s = 0; s < ys.length; s++) {
        set.data[s].x = next.start0 + s;
        set.data[s].y = ys[s];
      }
      set.borderColor = c[color];
      set.backgroundColor = c[color];
    });
    Object.assign(target.options.scales.x, { min: next.start0, max: next.start0 + next[sets[0][0]].length - 1 });
  };
  const c = colors(canvas);
  const options = baseOptions(c);
  options.plugins.tooltip.callbacks = {
    title: (items) => point(items[0].parsed.x),
    label: (item) => `${item.dataset.label}: ${num(item.parsed.y, digits)}`,
  };
  options.scales = {
    x: axis(c, x, { type: 'linear', ticks: { maxRotation: 0 } }),
    y: axis(c, y, { type: 'linear', grace: '5%', ...yExtra }),
  };
  const line = { parsing: false, normalized: true, pointRadius: 0, pointHoverRadius: 3, fill: false };
  const config = chartConfig(
    'line',
    sets.map(([, label, , width]) => ({ label, ...line, borderWidth: width })),
    options,
  );
  const legend = sets.map(([, text, color]) => ({
    text,
    mark: 'line',
    color: color === 'muted' ? 'var(--ink-muted)' : `var(--c-${color})`,
  }));
  return makeChart(canvas, { config, data, fill, legend });
}
