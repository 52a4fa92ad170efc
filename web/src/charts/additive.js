// Figure: the additive score split into its four terms over consecutive starts.
// Data in: { start0, qk, q_pn, pm_k, pm_pn, total } — plain arrays and a number.
import { seriesChart } from './series.js';

const PARTS = [
  ['qk', 'q·k (content only)', 'muted', 1.5],
  ['q_pn', 'q·P[n] (key position)', 'fast', 1.5],
  ['pm_k', 'P[m]·k (query position)', 'mark', 1.5],
  ['pm_pn', 'P[m]·P[n] (gap only)', 'slow', 1.5],
  ['total', 'additive score (the sum)', 'add', 2.5],
];

export function createAdditiveChart(canvas, data) {
  return seriesChart(canvas, data, {
    sets: PARTS,
    x: 'start position n, every one (key at n, query at m = n + gap)',
    y: 'term of the additive score',
    point: (x) => `start ${x}`,
  });
}
