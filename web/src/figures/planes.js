// Chapter: 512 dimensions as 256 rotation planes. The post's random token (NumPy's
// default_rng(seed).normal(size=512), drawn bit for bit by the core) scored against itself at
// 3 vs 7 and at 10 vs 14: each plane's share of the score, the same at both pairs of positions.
// The post prints 22.3814 for that score; the true value is shown beside it.

import { axis, pairAxis } from '../charts/theme.js';
import { pair_terms, planes_example } from '../core/rope.js';
import { num } from '../lib/format.js';
import { box, chapterRow, d4, indexChart } from './lesson_row.js';

const DIM = 512;
/** The score the post prints for both pairs of positions (its "Sample output"). */
export const POST_SCORE = { text: '22.3814', value: 22.3814, decimals: 4 };
/** Whether a value is the post's printed score at its rounding (half a unit of the 4th decimal). */
export const postScoreMatches = (value) => Math.abs(value - POST_SCORE.value) <= 0.00005;

function compute(i) {
  const { token, score } = planes_example(i.seed, DIM, 10000, i.m, i.n);
  const moved = planes_example(i.seed, DIM, 10000, i.m + i.shift, i.n + i.shift).score;
  const first = pair_terms(token, token, i.m, i.n);
  const second = pair_terms(token, token, i.m + i.shift, i.n + i.shift);
  const lengthSq = planes_example(i.seed, DIM, 10000, 0, 0).score; // no turn: the token dotted with itself
  const post = planes_example(42, DIM, 10000, 3, 7).score;
  return {
    seed: i.seed,
    m: i.m,
    n: i.n,
    shift: i.shift,
    score,
    moved,
    lengthSq,
    post,
    terms: first.terms,
    movedTerms: second.terms,
  };
}

function fill(target, data) {
  const [bars, line] = target.data.datasets;
  target.data.labels = data.terms.map((_, j) => j);
  bars.data = data.terms;
  line.data = data.movedTerms;
  bars.label = `plane’s share at ${data.m} vs ${data.n}`;
  line.label = `at ${data.m + data.shift} vs ${data.n + data.shift}`;
}

function createPlanesChart(canvas, data) {
  const dots = { type: 'line', showLine: false, pointRadius: 2, pointHoverRadius: 4, order: 1 };
  return indexChart(canvas, data, fill, {
    scales: (c) => ({
      x: pairAxis(c, 'rotation plane i (dimensions 2i and 2i + 1): fast on the left, slow on the right'),
      y: axis(c, 'the plane’s share of the score', { type: 'linear' }),
    }),
    datasets: [
      { type: 'bar', label: '', data: [], order: 2, color: 'rope', key: 'each plane’s share, query at m, key at n' },
      { ...dots, label: '', data: [], color: 'add', key: 'the same with both moved along (dots)' },
    ],
  });
}

const verdict = (d) => (postScoreMatches(d.score) ? '✓' : `✗ (true value ${d4(d.score)})`);

export default chapterRow({
  name: 'planes',
  title: '512 dimensions: 256 planes, each turning at its own speed',
  lookfor:
    'A random 512-number token scored against itself, the query at m and the key at n: one bar per rotation plane. ' +
    'Look for: moving both positions along leaves every plane’s share, and so the total, where it was.',
  fallback: 'Each rotation plane’s share of the score of a 512-dimension token.',
  embed: '512 dimensions, 256 planes',
  inputs: {
    seed: box(42, 'random seed', 0, 2 ** 32 - 1),
    m: box(3, 'query position m', 0, 10000),
    n: box(7, 'key position n', 0, 10000),
    shift: box(7, 'move both by', 0, 10000),
  },
  compute,
  make: createPlanesChart,
  readout: (d) =>
    `Score at ${d.m} vs ${d.n}: ${d4(d.score)}; at ${d.m + d.shift} vs ${d.n + d.shift}: ${d4(d.moved)}.` +
    (d.seed === 42 && d.m === 3 && d.n === 7 ? ` The post prints ${POST_SCORE.text} for both ${verdict(d)}.` : ''),
  caption: (d) =>
    `Same token, same gap, same score: ${d4(d.score)} at ${d.m} vs ${d.n} and ${d4(d.moved)} at ` +
    `${d.m + d.shift} vs ${d.n + d.shift}. The slow planes (right) barely turn over a gap of ${Math.abs(d.m - d.n)}, ` +
    'so each keeps almost its whole length squared; the fast ones (left) turn a lot. ' +
    `For seed 42 at 3 vs 7 the post prints ${POST_SCORE.text}; the true score is ${d4(d.post)}. ` +
    `A token dotted with itself turned a little stays near its length squared (${d4(d.lengthSq)} for this one), never near 22.`,
  label: (d) =>
    `Bar chart: 256 planes’ shares of the score ${num(d.score)} of seed ${d.seed}'s token at ${d.m} vs ${d.n}.`,
});
