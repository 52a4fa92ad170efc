// Figure: the additive score split into its four terms across start positions.
import { seriesChart } from '../charts/series.js';
import { formulaBlock } from '../formulas/mathml.js';
import { lowHigh, num, position } from '../lib/format.js';

// The chart: the additive score split into its four terms over consecutive starts.
// Data in: { start0, qk, q_pn, pm_k, pm_pn, total } — plain arrays and a number.
const PARTS = [
  ['qk', 'q·k (content only)', 'muted', 1.5],
  ['q_pn', 'q·P[n] (key position)', 'fast', 1.5],
  ['pm_k', 'P[m]·k (query position)', 'mark', 1.5],
  ['pm_pn', 'P[m]·P[n] (gap only)', 'slow', 1.5],
  ['total', 'additive score (the sum)', 'add', 2.5],
];

function createAdditiveChart(canvas, data) {
  return seriesChart(canvas, data, {
    sets: PARTS,
    x: 'start position n, every one (key at n, query at m = n + gap)',
    y: 'term of the additive score',
    point: (x) => `start ${x}`,
  });
}

export function additiveCaption(state, model) {
  const a = model.explain.additive;
  const last = a.start0 + a.total.length - 1;
  const [pnLo, pnHi] = lowHigh(a.q_pn);
  const [mkLo, mkHi] = lowHigh(a.pm_k);
  const [tLo, tHi] = lowHigh(a.total);
  return (
    `Every start from ${a.start0} to ${last}. q·k stays at ${num(a.qk[0])} (no position in it) and` +
    ` P[m]·P[n] at ${num(a.pm_pn[0])} (it depends on the gap only). The cross terms move with the start:` +
    ` q·P[n] from ${num(pnLo)} to ${num(pnHi)}, P[m]·k from ${num(mkLo)} to ${num(mkHi)}. So their sum,` +
    ` the additive score, moves from ${num(tLo)} to ${num(tHi)} at a fixed gap. Its level is set by` +
    ` P[m]·P[n] = ${num(a.pm_pn[0])}: one cosine per pair, close to 1 for every pair not yet wrapped at this` +
    ` gap, so it grows with the number of pairs (${model.pairs} here). The RoPE score at this gap is` +
    ` ${num(model.explain.terms.score)}.`
  );
}

export function additiveLabel(state, model) {
  const a = model.explain.additive;
  return (
    `Line chart: the four terms of the additive score over starts ${a.start0} to` +
    ` ${a.start0 + a.total.length - 1} at gap ${position(state.gap)}.`
  );
}

const additiveNotes = () =>
  formulaBlock('The additive score, multiplied out', [
    ['Position marks (sinusoidal positional encoding):', 'sin_pos'],
    ['The score has four terms:', 'additive'],
    ['Only the last depends on the gap alone:', 'additive_gap'],
  ]);

export default {
  name: 'additive',
  part: 'why',
  uses: ['from'],
  title: 'Why the additive score wobbles',
  lookfor:
    'The chapters show the additive score drifting; this splits it into its four terms. Look for: the two ' +
    'cross terms move with every start, the other two stay put.',
  fallback: 'The four terms of the additive score across start positions.',
  embed: 'the additive score’s four terms',
  make: createAdditiveChart,
  data: (model) => model.explain.additive,
  caption: additiveCaption,
  label: additiveLabel,
  notes: additiveNotes,
};
