// Figure: cos(p·θᵢ) for every pair at every position.
import { createHeatmapChart } from '../charts/heatmap.js';
import { count, num } from '../lib/format.js';
import * as teach from './teach.js';

export function heatmapCaption(state, model) {
  const h = model.explain.heat;
  const shown =
    model.pairs === 1
      ? 'the only pair'
      : h.pairs.length === model.pairs
        ? `all ${model.pairs} pairs`
        : `${h.pairs.length} of the ${model.pairs} pairs, evenly spaced`;
  const width = h.positions.length;
  const last = h.pairs[h.pairs.length - 1];
  const wavelength = (2 * Math.PI) / h.thetas[h.thetas.length - 1];
  const slow =
    last === 0
      ? ''
      : wavelength > width
        ? ` Pair ${last} has a wavelength of ${num(wavelength)} positions, so it keeps nearly one colour across` +
          ' the whole width.'
        : ` Even pair ${last}, the slowest, turns once every ${num(wavelength)} positions: at this dim and base` +
          ` no pair stays one colour across ${width} positions.`;
  return (
    `Rows: ${shown}; columns: positions ${h.positions[0]} to ${h.positions[width - 1]}.` +
    ' Pair 0 turns 1 rad per position and changes colour every few columns (wavelength 2π ≈ 6.283).' +
    `${slow} Fast pairs tell neighbouring positions apart; slow pairs tell far ones apart.`
  );
}

export function heatmapLabel(state, model) {
  return (
    `Heatmap of cos(p·θᵢ): ${count(model.explain.heat.pairs.length, 'pair')} by` +
    ` ${model.explain.heat.positions.length} positions.`
  );
}

export default {
  name: 'heatmap',
  part: 'gap',
  title: 'Every pair at every position',
  lookfor:
    'cos(p·θᵢ) for pair i (row) at position p (column). Look for: fast pairs as thin stripes at the ' +
    'top, slow pairs as wide bands at the bottom.',
  fallback: 'Heatmap of cos(p·θᵢ), pairs by positions.',
  embed: 'pair × position heatmap',
  make: createHeatmapChart,
  data: (model) => model.explain.heat,
  caption: heatmapCaption,
  label: heatmapLabel,
  notes: teach.heatmapNotes,
};
