// Figure: the proof made numeric. Each pair's term (q·k)ᵢcos(rθᵢ) + (q×k)ᵢsin(rθᵢ) at
// the current gap r; their sum is the rotated dot product (the caption shows both).
// Data in: { terms, sum, score } — plain arrays and numbers.

import { num } from '../lib/format.js';
import { chartConfig, makeChart } from './figure.js';
import { axis, baseOptions, colors } from './theme.js';

function fill(target, data, c) {
  const [bars] = target.data.datasets;
  // New labels only when the pair count changes: a new labels array rebuilds the category axis.
  if (!target.data.labels || target.data.labels.length !== data.terms.length) {
    target.data.labels = data.terms.map((_, i) => i);
  }
  bars.data = Array.from(data.terms);
  bars.backgroundColor = c.rope;
}

export function createTermsChart(canvas, data) {
  const c = colors(canvas);
  const options = baseOptions(c);
  options.plugins.tooltip.callbacks = {
    title: (items) => `pair ${items[0].label}`,
    label: (item) => `term ${num(item.parsed.y, 6)}`,
  };
  options.scales = {
    x: axis(c, 'pair i (fast pairs, large θᵢ, on the left; slow on the right)', {
      type: 'category',
      ticks: { maxRotation: 0, autoSkipPadding: 8 },
    }),
    y: axis(c, 'pair i’s share of the score', { type: 'linear', grace: '5%' }),
  };
  const config = chartConfig(
    'bar',
    [{ label: 'pair term', data: [], barPercentage: 0.9, categoryPercentage: 1 }],
    options,
    { labels: [] },
  );
  const legend = [{ text: '(q·k)ᵢ cos(r·θᵢ) + (q×k)ᵢ sin(r·θᵢ)', mark: 'box', color: 'var(--c-rope)' }];
  return makeChart(canvas, { config, data, fill, legend });
}
