// Figure: the score of q at start + gap against k at start, for consecutive starts, when the
// pairing layout of the rotation meets the layout the weights were trained with.
// Data in: { start0, same, swapped, table } (layout_scores), one score per start.
import { seriesChart } from './series.js';

export function createLayoutChart(canvas, data) {
  return seriesChart(canvas, data, {
    sets: [
      ['same', 'table and rotation in the weights’ layout (RoPE)', 'rope', 2.5],
      ['swapped', 'both in the other layout', 'slow', 2],
      ['table', 'cos/sin table in one layout, rotation in the other', 'add', 1.5],
    ],
    x: 'start position (key at start, query at start + gap)',
    y: 'score q·k',
    point: (x) => `start ${x}`,
  });
}
