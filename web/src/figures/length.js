// Figure: the query's length at each position, turned by RoPE (level) and with the additive mark
// added (wobbling).
import { seriesChart } from '../charts/series.js';
import * as rope from '../core/rope.js';
import { lowHigh, num, position } from '../lib/format.js';
import { memo } from '../model/model.js';

// The chart: the length of the query q placed at position m, for consecutive positions m:
// turned by RoPE, ‖R(m)q‖, and with the additive position mark, ‖q + P[m]‖.
// Data in: { start0, rope, add } — per position start0 + i, the two lengths (plain arrays):
// the square roots of q's scores against itself at offset 0 (offset_sweep(q, q, 0, …)).
function createLengthChart(canvas, data) {
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

const last = (data) => data.start0 + data.rope.length - 1;

export function lengthCaption(state, model, data) {
  const [ropeLo, ropeHi] = lowHigh(data.rope);
  const [addLo, addHi] = lowHigh(data.add);
  return (
    `The query q (${state.seed === 0 ? 'the demo vector' : `random, seed ${state.seed}`}, length` +
    ` ${num(model.norm.q)}) at the ${data.rope.length} positions m = ${position(data.start0)} to` +
    ` ${position(last(data))}. Turned by RoPE it keeps its length: ‖R(m)q‖ is ${num(ropeLo)} everywhere,` +
    ` the greatest minus the least ${num(ropeHi - ropeLo)} (rounding only), since a rotation turns each` +
    ` pair without stretching it. With the position mark added, ‖q + P[m]‖ runs from ${num(addLo)} to` +
    ` ${num(addHi)}: every mark is as long as the others, but its angle to q changes with m. Each length` +
    ' is the square root of q scored against itself.'
  );
}

export function lengthLabel(state, model, data) {
  const [addLo, addHi] = lowHigh(data.add);
  return (
    `Line chart: length of the query at positions ${position(data.start0)} to ${position(last(data))};` +
    ` RoPE stays at ${num(Math.min(...data.rope))}, additive runs from ${num(addLo)} to ${num(addHi)}.`
  );
}

export default {
  name: 'length',
  part: 'why',
  uses: ['from'],
  title: 'Rotation keeps length; adding a position mark does not',
  lookfor:
    'The query q placed at position m: RoPE turns it by R(m), the additive method adds the mark P[m]. ' +
    'Look for: the RoPE length stays level, the additive length rises and falls from one position to the next.',
  fallback: 'Length of the query at each position: turned by RoPE, and with the additive position mark added.',
  embed: 'length of the query at each position',
  make: createLengthChart,
  // Every position from `from`, 256 of them; q scored against itself at offset 0 is its
  // squared length, for both methods at once.
  data: (model, state) =>
    memo('length', [state.dim, state.seed, state.base, Math.ceil(state.from)], () => {
      const start0 = Math.ceil(state.from);
      const squared = rope.offset_sweep(model.q, model.q, 0, start0, 1, 256, state.base);
      return { start0, rope: Array.from(squared.rope, Math.sqrt), add: Array.from(squared.add, Math.sqrt) };
    }),
  caption: lengthCaption,
  label: lengthLabel,
};
