// Figure: the additive score split into its four terms over consecutive starts.
// Data in: { start0, qk, q_pn, pm_k, pm_pn, total } — plain arrays and a number.
import { axis, baseOptions, colors } from './theme.js';
import { chartConfig, makeChart } from './figure.js';
import { num } from '../format.js';

const PARTS = [
  ['qk', 'q·k (content only)', 'muted'],
  ['q_pn', 'q·P[n] (key position)', 'fast'],
  ['pm_k', 'P[m]·k (query position)', 'mark'],
  ['pm_pn', 'P[m]·P[n] (gap only)', 'slow'],
  ['total', 'additive score (the sum)', 'add'],
];

function fill(target, data, c) {
  PARTS.forEach(([key, , color], j) => {
    const set = target.data.datasets[j];
    // Point objects reused while the count stays: a gap drag allocates nothing.
    const ys = data[key];
    if (!set.data || set.data.length !== ys.length) set.data = ys.map(() => ({ x: 0, y: 0 }));
    for (let s = 0; s < ys.length; s++) {
      set.data[s].x = data.start0 + s;
      set.data[s].y = ys[s];
    }
    set.borderColor = c[color];
    set.backgroundColor = c[color];
  });
  Object.assign(target.options.scales.x, { min: data.start0, max: data.start0 + data.total.length - 1 });
}

export function createAdditiveChart(canvas, data) {
  const c = colors();
  const options = baseOptions(c);
  options.plugins.tooltip.callbacks = {
    title: (items) => `start ${items[0].parsed.x}`,
    label: (item) => `${item.dataset.label}: ${num(item.parsed.y, 5)}`,
  };
  options.scales = {
    x: axis(c, 'start position n, every one (key at n, query at m = n + gap)', { type: 'linear', ticks: { maxRotation: 0 } }),
    y: axis(c, 'term of the additive score', { type: 'linear', grace: '5%' }),
  };
  const line = { parsing: false, normalized: true, pointRadius: 0, pointHoverRadius: 3, borderWidth: 1.5, fill: false };
  const datasets = PARTS.map(([, label], j) => ({ label, ...line, borderWidth: j === 4 ? 2.5 : 1.5 }));
  const config = chartConfig('line', datasets, options);
  const legend = PARTS.map(([, text, color]) => ({
    text, mark: 'line', color: color === 'muted' ? 'var(--ink-muted)' : `var(--c-${color})`,
  }));
  return makeChart(canvas, { config, data, fill, legend });
}
