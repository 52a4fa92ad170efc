// Figure: the angle error of position × inv_freq in lower precision, per pair, on a log axis.
// Data in: { pos, theta, errors: { f32, bf16, f16, theta_bf16, theta_f16 } } (precision_errors).
// Out (Chart.getChart(canvas).data): labels = pair indexes; datasets[0..4] (CASES' labels) = each
// case's error in radians, null where it is 0 (exact) or infinite (float16 overflowed);
// datasets[5] "θᵢ" = theta. The line at 1% of a turn is drawn, not stored.

import { num } from '../lib/format.js';
import { decadeRange, drawLevel, liveLegendChart } from './long_common.js';
import { baseOptions, colors, logAxis, pairAxis } from './theme.js';

export const TURN_SHARE = (2 * Math.PI) / 100;
/** [key of errors, label, colour] in dataset order. */
export const CASES = [
  ['f32', 'float32 (θ, p and p·θ)', 'rope'],
  ['theta_bf16', 'inv_freq stored in bfloat16', 'slow'],
  ['theta_f16', 'inv_freq stored in float16', 'mark'],
  ['bf16', 'all in bfloat16', 'fast'],
  ['f16', 'all in float16', 'add'],
];
const shown = (v) => (v > 0 && Number.isFinite(v) ? v : null);

function fill(target, data, c) {
  const sets = target.data.datasets;
  target.data.labels = data.theta.map((_, i) => i);
  CASES.forEach(([key, , color], j) => {
    sets[j].data = data.errors[key].map(shown);
    sets[j].borderColor = sets[j].backgroundColor = c[color];
  });
  sets[5].data = data.theta.slice();
  sets[5].borderColor = c.muted;
  Object.assign(
    target.options.scales.y,
    decadeRange([...CASES.map(([key]) => data.errors[key].map(shown)), data.theta], [TURN_SHARE]),
  );
}

const LEGEND = [
  ...CASES.map(([, text, color]) => ({ text, mark: 'line', color: `var(--c-${color})` })),
  { text: 'θᵢ: the angle between neighbouring positions', mark: 'dash', color: 'var(--ink-muted)' },
  { text: '1% of a turn', mark: 'dash', color: 'var(--c-turn)' },
];

export function createPrecisionChart(canvas, data) {
  return liveLegendChart(
    canvas,
    data,
    () => LEGEND,
    () => {
      const c = colors(canvas);
      const options = baseOptions(c, 'index');
      options.plugins.tooltip.callbacks = {
        title: (items) => `pair ${items[0].label}`,
        label: (item) => `${item.dataset.label}: ${num(item.raw)} rad`,
      };
      options.scales = {
        x: pairAxis(c, 'pair i  (fast pairs left, slow pairs right)'),
        y: logAxis(c, 'angle error (radians, log scale)'),
      };
      // Lines only, as the scaling figure draws them; a missing value (exact, or lost) is stepped over.
      const line = (label, extra = {}) => ({
        label,
        data: [],
        borderWidth: 1.5,
        pointRadius: 0,
        pointHoverRadius: 4,
        spanGaps: true,
        ...extra,
      });
      const config = {
        type: 'line',
        data: { labels: [], datasets: [...CASES.map(([, label]) => line(label)), line('θᵢ', { borderDash: [6, 4] })] },
        options,
        plugins: [
          { id: 'turnShare', afterDatasetsDraw: (chart) => drawLevel(chart, TURN_SHARE, colors(chart.canvas).turn) },
        ],
      };
      return { config, fill };
    },
  );
}
