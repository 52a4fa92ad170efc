// Figure: the proof made numeric: the RoPE score as one term per pair, each holding only the gap.
import { chartConfig, makeChart } from '../charts/figure.js';
import { axis, baseOptions, colors } from '../charts/theme.js';
import { formulaBlock } from '../formulas/mathml.js';
import { count, lowHigh, num, position } from '../lib/format.js';

// The chart: the proof made numeric. Each pair's term (q·k)ᵢcos(rθᵢ) + (q×k)ᵢsin(rθᵢ) at
// the current gap r; their sum is the rotated dot product (the caption shows both).
// Data in: { terms, sum, score } — plain arrays and numbers.
function fill(target, data, c) {
  const [bars] = target.data.datasets;
  // New labels only when the pair count changes: a new labels array rebuilds the category axis.
  if (!target.data.labels || target.data.labels.length !== data.terms.length) {
    target.data.labels = data.terms.map((_, i) => i);
  }
  bars.data = Array.from(data.terms);
  bars.backgroundColor = c.rope;
}

function createTermsChart(canvas, data) {
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

/** The derivation beside the per-pair terms. */
const termsNotes = () =>
  formulaBlock('Why only the gap is left', [
    ['A rotation transposed is the rotation backwards, so two rotations meet as one:', 'relative'],
    ['so the rotated dot product depends on the gap alone (n − m is −r):', 'score_derivation'],
    ['Multiplied out, pair i gives the bar in the chart:', 'pair_score'],
    ['and the score is their sum:', 'score_sum'],
  ]);

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
  notes: termsNotes,
};
