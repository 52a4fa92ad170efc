// Chapter: the proof that RoPE keeps only the gap, made numeric. q_m . k_n expanded into eight
// products, collected by pairs, turned into cos and sin of (m - n) theta by the identities: each
// step's total at the reader's m, n and theta, all equal, and every step written out beside it.

import { axis, categoryAxis } from '../charts/theme.js';
import { lesson_proof } from '../core/rope.js';
import { el } from '../lib/dom.js';
import { CAT_INPUTS, chapterRow, d4, indexChart } from './lesson_row.js';

const Q = [0.9, 0.4];
const STEPS = [
  'rotate, then dot',
  'expanded (8 products)',
  'collected by pairs',
  'identities used',
  '(q·k) cos + (q×k) sin',
];

const compute = (i) => ({ m: i.m, n: i.n, theta: i.theta, ...lesson_proof(Q, Q, i.m, i.n, i.theta) });
const totals = (d) => [d.direct, d.expanded, d.collected, d.identified, d.result];

function fill(target, data, c) {
  const [bars] = target.data.datasets;
  target.data.labels = STEPS;
  bars.data = totals(data);
  bars.backgroundColor = [c.add, c.fill, c.fill, c.fill, c.rope];
  bars.borderColor = c.rope;
}

function createProofChart(canvas, data) {
  return indexChart(canvas, data, fill, {
    scales: (c) => ({
      x: categoryAxis(c, 'step of the proof'),
      y: axis(c, 'q_m · k_n at that step', { type: 'linear', min: -1, max: 1 }),
    }),
    datasets: [{ label: 'score', data: [], borderWidth: 1 }],
    legend: [
      { text: 'rotated vectors dotted', mark: 'box', color: 'var(--c-add)' },
      { text: 'the steps of the algebra', mark: 'box', color: 'var(--c-fill)' },
      { text: 'the result: only the gap is left', mark: 'box', color: 'var(--c-rope)' },
    ],
  });
}

const list = (values) =>
  values
    .map((x) => d4(x))
    .join(' + ')
    .replace(/\+ −/g, '− ');

function steps(d) {
  const g = `(${d.m} − ${d.n})θ`;
  return el(
    'ol',
    { class: 'proof-steps' },
    el('li', {}, `Expand: ${list(d.terms)} = ${d4(d.expanded)}`),
    el(
      'li',
      {},
      `Collect by pairs: brackets ${d.brackets.map((x) => d4(x)).join(', ')} times q₁k₁, q₁k₂, q₂k₁, q₂k₂ ` +
        `(${d.products.map((x) => d4(x)).join(', ')}) = ${d4(d.collected)}`,
    ),
    el(
      'li',
      {},
      `Identities: the brackets are cos ${g}, sin ${g}, −sin ${g}, cos ${g} = ` +
        `${d.identities.map((x) => d4(x)).join(', ')}: ${d4(d.identified)}`,
    ),
    el(
      'li',
      {},
      `Result: (q·k) cos ${g} + (q×k) sin ${g} = ${d4(d.dot)} × ${d4(d.identities[0])} + ` +
        `${d4(d.cross)} × ${d4(d.identities[1])} = ${d4(d.result)}`,
    ),
  );
}

export default chapterRow({
  name: 'proof',
  title: 'The proof, step by step, in numbers',
  lookfor:
    'The dot product of the rotated cat, rewritten step by step as in the post. Look for: every bar is the ' +
    'same height, and the last step holds m and n only as the gap m − n.',
  fallback: 'The score at each step of the proof.',
  embed: 'the proof in numbers',
  inputs: CAT_INPUTS,
  compute,
  make: createProofChart,
  readout: steps,
  caption: (d) =>
    `All five are ${d4(d.result)}: rotating and dotting, expanding, collecting, using the identities ` +
    `and the final formula give the same score. The final form needs only q·k = ${d4(d.dot)}, q×k = ${d4(d.cross)} and ` +
    `the gap (${d.m} − ${d.n}) × ${d.theta}: move m and n together and it cannot change.`,
  label: (d) => `Bar chart: the score ${d4(d.result)} at each of five steps of the proof, all equal.`,
});
