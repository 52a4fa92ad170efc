// Figure: the length of the query q placed at position m, for consecutive positions m:
// turned by RoPE, ‖R(m)q‖, and with the additive position mark, ‖q + P[m]‖.
// Data in: { start0, rope, add } — per position start0 + i, the two lengths (plain arrays):
// the square roots of q's scores against itself at offset 0 (offset_sweep(q, q, 0, …)).
import { seriesChart } from './series.js';

export function createLengthChart(canvas, data) {
  return seriesChart(canvas, data, {
    sets: [
      ['rope', 'RoPE: ‖R(m)q‖, q turned to position m', 'rope', 2.5],
      ['add', 'additive: ‖q + P[m]‖, the mark of position m added to q', 'add', 1.5],
    ],
    x: 'position m of the query, every one',
    y: 'length of the query',
    yExtra: { beginAtZero: true },
    point: (x) => `position m = ${x}`,
    digits: 6,
  });
}
