// Captions and canvas labels of the explainer figures: each reads its figure's own
// numbers out loud. Plain text only; every number comes from model.js.
import { num, position, count } from '../lib/format.js';
import { ACCURATE_UP_TO, DECAY_SAMPLES } from '../model/model.js';

const range = (values) => [Math.min(...values), Math.max(...values)];
const long = (x) => String(Number(x.toPrecision(10)));

export function circleCaption(state, model) {
  const r = model.explain.rotating;
  const wavelength = (2 * Math.PI) / r.theta;
  return `Pair ${r.pair} turns by θ${sub(r.pair)} = ${num(r.theta)} rad per position (one full turn every` +
    ` ${num(wavelength)} positions: its wavelength). q at m = ${position(state.qm)} is turned by` +
    ` mθ = ${num(r.angle_m)} rad, k at n = ${position(state.kn)} by nθ = ${num(r.angle_n)} rad. Their` +
    ` difference (m − n)θ = ${num(r.angle_gap)} rad is the angle between the two arrows, and the pair's` +
    ` score is ${num(r.direct)}. Tick "keep the gap" and move m: both arrows turn, the angle between them` +
    ' and the score stay.';
}

export function circleLabel(state, model) {
  const r = model.explain.rotating;
  return `Unit circle: pair ${r.pair} of q turned to position ${position(state.qm)} and of k to position` +
    ` ${position(state.kn)}; angle between them ${num(r.angle_gap)} rad, pair score ${num(r.direct)}.`;
}

const SUBSCRIPT = '₀₁₂₃₄₅₆₇₈₉';
const sub = (i) => String(i).split('').map((d) => SUBSCRIPT[Number(d)]).join('');

export function termsCaption(state, model) {
  const { terms, sum, score } = model.explain.terms;
  const pairs = terms.length;
  const [lo, hi] = range(terms);
  return `At gap r = ${position(state.gap)} (q at m = ${position(state.gap)}, k at n = 0; any start gives` +
    ` the same bars), the ${count(pairs, 'pair term')} add up to ${long(sum)}; the rotated dot product` +
    ` (R(mθ)q)·(R(nθ)k) computed directly is ${long(score)}.` +
    (sum === score ? ' They are exactly equal.' : ` They differ by ${num(Math.abs(sum - score))}.`) +
    ` The terms run from ${num(lo)} to ${num(hi)}; no term holds m or n alone, only r.`;
}

export function termsLabel(state, model) {
  const { terms, score } = model.explain.terms;
  return `Bar chart: each of ${count(terms.length, 'pair')}'s share of the RoPE score at gap ${position(state.gap)};` +
    ` they sum to ${num(score)}.`;
}

export function additiveCaption(state, model) {
  const a = model.explain.additive;
  const last = a.start0 + a.total.length - 1;
  const [pnLo, pnHi] = range(a.q_pn);
  const [mkLo, mkHi] = range(a.pm_k);
  const [tLo, tHi] = range(a.total);
  return `Every start from ${a.start0} to ${last}. q·k stays at ${num(a.qk[0])} (no position in it) and` +
    ` P[m]·P[n] at ${num(a.pm_pn[0])} (it depends on the gap only). The cross terms move with the start:` +
    ` q·P[n] from ${num(pnLo)} to ${num(pnHi)}, P[m]·k from ${num(mkLo)} to ${num(mkHi)}. So their sum,` +
    ` the additive score, moves from ${num(tLo)} to ${num(tHi)} at a fixed gap. Its level is set by` +
    ` P[m]·P[n] = ${num(a.pm_pn[0])}: one cosine per pair, close to 1 for every pair not yet wrapped at this` +
    ` gap, so it grows with the number of pairs (${model.pairs} here). The RoPE score at this gap is` +
    ` ${num(model.explain.terms.score)}.`;
}

export function additiveLabel(state, model) {
  const a = model.explain.additive;
  return `Line chart: the four terms of the additive score over starts ${a.start0} to` +
    ` ${a.start0 + a.total.length - 1} at gap ${position(state.gap)}.`;
}

export function decayCaption(state, model) {
  const d = model.explain.decay;
  const at = (r) => d.distances.findIndex((x) => x >= r * 0.999999);
  const [i1, i3, i6] = [at(1), at(1000), d.distances.length - 1];
  const vectors = state.seed === 0 ? 'the demo vectors' : `the random q, k of seed ${state.seed}`;
  return `Mean over ${DECAY_SAMPLES} random vectors, each scored against itself (a key that matches its` +
    ` query): ${num(d.mean[i1])} at distance 1, ${num(d.mean[i3])} at 1000, ${num(d.mean[i6])} at 10⁶.` +
    ` RoFormer's bound: ${num(d.bound[i1])} at distance 1, ${num(d.bound[i3])} at 1000,` +
    ` ${num(d.bound[i6])} at 10⁶. Both fall because the fast pairs' cosines lose step with each other and` +
    ' cancel; only the slow pairs keep adding up. With' +
    ` ${vectors} (not matched) the score only swings around 0. Past position ~${ACCURATE_UP_TO} the angles` +
    ' carry the rounding error of floating point.';
}

export function decayLabel(state, model) {
  const d = model.explain.decay;
  return `Line chart, log x axis: score against distance from 1 to one million; mean over random matched` +
    ` vectors falls from ${num(d.mean[0])} to ${num(d.mean[d.mean.length - 1])}.`;
}

export function heatmapCaption(state, model) {
  const h = model.explain.heat;
  const shown = model.pairs === 1 ? 'the only pair'
    : h.pairs.length === model.pairs ? `all ${model.pairs} pairs`
      : `${h.pairs.length} of the ${model.pairs} pairs, evenly spaced`;
  const width = h.positions.length;
  const last = h.pairs[h.pairs.length - 1];
  const wavelength = (2 * Math.PI) / h.thetas[h.thetas.length - 1];
  const slow = last === 0 ? ''
    : wavelength > width
      ? ` Pair ${last} has a wavelength of ${num(wavelength)} positions, so it keeps nearly one colour across` +
        ' the whole width.'
      : ` Even pair ${last}, the slowest, turns once every ${num(wavelength)} positions: at this dim and base` +
        ` no pair stays one colour across ${width} positions.`;
  return `Rows: ${shown}; columns: positions ${h.positions[0]} to ${h.positions[width - 1]}.` +
    ' Pair 0 turns 1 rad per position and changes colour every few columns (wavelength 2π ≈ 6.283).' +
    `${slow} Fast pairs tell neighbouring positions apart; slow pairs tell far ones apart.`;
}

export function heatmapLabel(state, model) {
  return `Heatmap of cos(p·θᵢ): ${count(model.explain.heat.pairs.length, 'pair')} by` +
    ` ${model.explain.heat.positions.length} positions.`;
}
