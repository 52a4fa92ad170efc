// Figure: the proof made numeric: the RoPE score as one term per pair, each holding only the gap.
import { createTermsChart } from '../charts/terms.js';
import { count, lowHigh, num, position } from '../lib/format.js';
import * as teach from './teach.js';

// Ten significant digits: enough to show the sum and the direct score agree.
const long = (x) => String(Number(x.toPrecision(10)));

export function termsCaption(state, model) {
  const { terms, sum, score } = model.explain.terms;
  const pairs = terms.length;
  const [lo, hi] = lowHigh(terms);
  return (
    `At gap r = ${position(state.gap)} (q at m = ${position(state.gap)}, k at n = 0; any start gives` +
    ` the same bars), the ${count(pairs, 'pair term')} add up to ${long(sum)}; the rotated dot product` +
    ` (R(mθ)q)·(R(nθ)k) computed directly is ${long(score)}.` +
    (sum === score ? ' They are exactly equal.' : ` They differ by ${num(Math.abs(sum - score))}.`) +
    ` The terms run from ${num(lo)} to ${num(hi)}; no term holds m or n alone, only r.`
  );
}

export function termsLabel(state, model) {
  const { terms, score } = model.explain.terms;
  return (
    `Bar chart: each of ${count(terms.length, 'pair')}'s share of the RoPE score at gap ${position(state.gap)};` +
    ` they sum to ${num(score)}.`
  );
}

export default {
  name: 'terms',
  part: 'why',
  title: 'The proof over every pair',
  lookfor:
    'The proof chapter checked one pair; a real score is the sum over all dim/2 pairs, each term holding ' +
    'only the gap r = m − n. Look for: the caption’s sum of the bars equals the rotated dot product.',
  fallback: 'Each pair’s term of the RoPE score at the current gap.',
  embed: 'the proof, per pair',
  make: createTermsChart,
  data: (model) => ({
    terms: model.explain.terms.terms,
    sum: model.explain.terms.sum,
    score: model.explain.terms.score,
  }),
  caption: termsCaption,
  label: termsLabel,
  notes: teach.termsNotes,
};
