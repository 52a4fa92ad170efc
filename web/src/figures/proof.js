// Chapter: the proof that RoPE keeps only the gap, written out as the post's algebra with each
// line's value at the reader's q, k, m, n and θ. The bars are the score at each step: rotate and
// dot, the eight products, collected by pairs, the identities, the final two terms; all equal.
// q and k differ by default (the cat and the cat's entries swapped), so the sin term is not 0.

import { axis, categoryAxis } from '../charts/theme.js';
import { lesson_proof } from '../core/rope.js';
import { formulaSlot } from '../formulas/mathml.js';
import { el } from '../lib/dom.js';
import { box, CAT_INPUTS, chapterRow, d4, indexChart } from './lesson_row.js';

const STEPS = ['rotate, then dot', 'expanded', 'collected by pairs', 'identities used', '(q·k) cos + (q×k) sin'];
const entry = (value, text) => box(value, text, -10, 10, 0.01);

const compute = (i) => ({
  m: i.m,
  n: i.n,
  theta: i.theta,
  ...lesson_proof([i.q1, i.q2], [i.k1, i.k2], i.m, i.n, i.theta),
});
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
      y: axis(c, 'q_m · k_n at that step', { type: 'linear' }),
    }),
    datasets: [{ label: 'score', data: [], borderWidth: 1 }],
    legend: [
      { text: 'rotated, dotted', mark: 'box', color: 'var(--c-add)' },
      { text: 'the algebra', mark: 'box', color: 'var(--c-fill)' },
      { text: 'the result: the gap alone', mark: 'box', color: 'var(--c-rope)' },
    ],
  });
}

const list = (values) =>
  values
    .map((x) => d4(x))
    .join(' + ')
    .replace(/\+ −/g, '− ');

// A value beside the algebra, id proof-NAME.
const value = (name, x) => el('span', { class: 'live', id: `proof-${name}` }, d4(x));
const line = (...parts) => el('p', {}, ...parts);

// The numbers under each line: q₁k₂ and friends are the core's products (q0k1 ...), the angle
// its gap, cos and sin its identities, the two terms its cosTerm and sinTerm.
function values(d) {
  const [q1k1, q1k2, q2k1, q2k2] = d.products.map((x) => d4(x));
  const [c, s] = d.identities.map((x) => d4(x));
  return [
    [line('= ', value('direct', d.direct))],
    [line(`= ${list(d.terms)} = `, value('expanded', d.expanded))],
    [
      line(
        'g = ',
        value('gap', d.gap),
        `: ${q1k1} × ${c} + ${q1k2} × ${s} − ${q2k1} × ${s} + ${q2k2} × ${c} = `,
        value('identified', d.identified),
      ),
    ],
    [
      line(`(${q1k1} + ${q2k2}) × ${c} = `, value('dot', d.dot), ` × ${c} = `, value('cos-term', d.cosTerm)),
      line(`(${q1k2} − ${q2k1}) × ${s} = `, value('cross', d.cross), ` × ${s} = `, value('sin-term', d.sinTerm)),
      line(`${list([d.cosTerm, d.sinTerm])} = `, value('result', d.result)),
    ],
  ];
}

// The post's lines, symbols from the build-time MathML (none for the eight products).
const LINES = [
  ['Rotate q by mθ, k by nθ; dot:', ''],
  ['Expand:', ''],
  ['Collect by q₁k₁ … q₂k₂; each bracket is cos g or ±sin g:', 'proof_collected'],
  ['so q·k and q×k weighted by the gap alone:', 'pair_score'],
];

function algebra(chapter) {
  const block = el('div', { class: 'formulas chapter-readout', id: 'proof-algebra' });
  const boxes = LINES.map(([text, formula]) => {
    const box = el('div', { 'aria-live': 'polite' });
    block.append(line(text), ...(formula ? [formulaSlot(formula)] : []), box);
    return box;
  });
  const write = (d) => values(d).forEach((nodes, j) => boxes[j].replaceChildren(...nodes));
  write(chapter.data());
  chapter.onSet(write, block);
  return [block];
}

export default chapterRow({
  name: 'proof',
  title: 'The proof, step by step, in numbers',
  lookfor:
    'The rotated query dotted with the rotated key, rewritten as in the post. Look for: equal bars; m and n left as m − n.',
  fallback: 'The score at each step of the proof.',
  embed: 'the proof in numbers',
  inputs: {
    q1: entry(0.9, 'q₁'),
    q2: entry(0.4, 'q₂'),
    k1: entry(0.4, 'k₁'),
    k2: entry(0.9, 'k₂'),
    ...CAT_INPUTS,
  },
  compute,
  make: createProofChart,
  extras: algebra,
  caption: (d) =>
    `All five are ${d4(d.result)}; the last needs only q·k, q×k and (m − n)θ = (${d.m} − ${d.n}) × ${d.theta}.`,
  label: (d) => `Bar chart: the score ${d4(d.result)} at each of five steps of the proof, all equal.`,
});
