// Chapter: the order-blind machine. Two word sticks scored against each other as dot products,
// in "nolan ended" and in "ended nolan": with no position anywhere every score is the same in
// both orders; with added marks or RoPE the swap moves them. The sticks are the reader's to edit.

import { axis, categoryAxis } from '../charts/theme.js';
import { lesson_order } from '../core/rope.js';
import { el } from '../lib/dom.js';
import { num } from '../lib/format.js';
import { chapterRow, indexChart } from './lesson_row.js';

const MAX_WIDTH = 16;

// "2, 1, 1, 0" -> [2, 1, 1, 0], or a message naming the stick.
export function parseStick(text, name) {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  const values = parts.map(Number);
  if (!parts.length || parts.length > MAX_WIDTH || values.some((x) => !Number.isFinite(x) || Math.abs(x) > 1e6)) {
    return { error: `the stick of “${name}” must be 1 to ${MAX_WIDTH} numbers (each within ±1e6), got “${text}”` };
  }
  return { values };
}

const pairs = (i) => [`${i.a} → ${i.a}`, `${i.a} → ${i.b}`, `${i.b} → ${i.a}`, `${i.b} → ${i.b}`];
// The three cases, in the core's block order: nothing, added marks, rotation.
const CASES = [
  ['plain', 'no position'],
  ['added', 'marks added'],
  ['rotated', 'RoPE'],
];

function compute(i) {
  return { ...lesson_order(i.stickA, i.stickB, 0), pairs: pairs(i), a: i.a, b: i.b };
}

// Twelve groups, the four pairs under each case; the two bars of a group are the two orders.
function fill(target, data) {
  const [first, second] = target.data.datasets;
  target.data.labels = CASES.flatMap(([, name]) => data.pairs.map((pair) => `${pair} | ${name}`));
  first.data = CASES.flatMap(([key]) => data[key].ab);
  second.data = CASES.flatMap(([key]) => data[key].ba);
  first.label = `in “${data.a} ${data.b}”`;
  second.label = `in “${data.b} ${data.a}”`;
}

// "nolan → ended | RoPE" as three short lines, the case named once under its four pairs, where
// twelve such labels fit (75 px each); else only the cases (the tooltip and the grid below name
// every pair).
function tick(value, index) {
  const [pair, name] = this.getLabelForValue(value).split(' | ');
  const last = index % 4 === 1 ? name : '';
  return this.chart.width < 900 ? last : [...pair.split(' → ').map((word, j) => (j ? word : `${word} →`)), last];
}

function createOrderChart(canvas, data) {
  return indexChart(canvas, data, fill, {
    scales: (c) => ({
      x: categoryAxis(c, 'who looks at whom, in three cases', { ticks: { callback: tick } }),
      y: axis(c, 'score (dot product of the two sticks)', { type: 'linear' }),
    }),
    datasets: [
      { label: '', data: [], color: 'rope', key: 'the words in their first order' },
      { label: '', data: [], color: 'add', key: 'the words swapped' },
    ],
  });
}

// The post's grids: a score is the looking word's WANT tag against the other's HAVE tag. With no
// learned grids the tags are the sticks (marked or turned by slot), so the table is the scores.
function grid(d) {
  const cell = (tag, text) => el(tag, {}, text);
  const words = [d.a, d.b];
  const rows = d.pairs.map((_, j) =>
    el(
      'tr',
      {},
      cell('th', `${words[j >> 1]}.WANT · ${words[j & 1]}.HAVE`),
      ...CASES.flatMap(([key]) => [cell('td', num(d[key].ab[j])), cell('td', num(d[key].ba[j]))]),
    ),
  );
  const head = CASES.flatMap(([, name]) => [cell('th', `${name}, “${d.a} ${d.b}”`), cell('th', `“${d.b} ${d.a}”`)]);
  return el(
    'div',
    { class: 'table-scroll', role: 'region', tabindex: '0', 'aria-label': 'every score as WANT · HAVE' },
    el('table', { class: 'pairs', id: 'order-grid' }, el('tr', {}, cell('th', ''), ...head), ...rows),
  );
}

function stickInput(chapter, key, nameKey, id) {
  const msg = el('p', { id: `${id}-msg`, class: 'msg', role: 'alert' });
  const box = el('input', {
    type: 'text',
    id,
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': `${id}-msg`,
  });
  box.value = chapter.inputs[key].join(', ');
  box.addEventListener('change', () => {
    const { values, error } = parseStick(box.value, chapter.inputs[nameKey]);
    const other = chapter.inputs[key === 'stickA' ? 'stickB' : 'stickA'];
    const problem =
      error ??
      (values.length !== other.length
        ? `both sticks must have the same width: this one has ${values.length} numbers, the other ${other.length}`
        : '');
    msg.textContent = problem;
    if (problem) {
      box.setAttribute('aria-invalid', 'true');
      return;
    }
    box.removeAttribute('aria-invalid');
    chapter.set({ [key]: values });
  });
  return el('div', { class: 'control' }, el('label', { for: id }, `stick of “${chapter.inputs[nameKey]}”`), box, msg);
}

const row = chapterRow({
  name: 'order',
  title: 'Attention alone cannot see word order',
  lookfor:
    'Two words’ sticks score each other by dot product. ' +
    'Look for: with no position each bar pair is equal; marks or RoPE part them.',
  fallback: 'Scores of two words in both orders.',
  embed: 'attention cannot see order',
  inputs: { a: 'nolan', b: 'ended', stickA: [2, 1, 1, 0], stickB: [0, 1, 2, 1] },
  compute,
  make: createOrderChart,
  extras: (chapter) => [stickInput(chapter, 'stickA', 'a', 'order-a'), stickInput(chapter, 'stickB', 'b', 'order-b')],
  readout: grid,
  caption: (d, i) =>
    `With no position the swap changes no score (largest change ${num(d.plain.diff)}): “${i.a}” looking at ` +
    `“${i.b}” scores ${num(d.plain.ab[1])} in both orders. Marked by slot, the swap shows: up to ` +
    `${num(d.added.diff)} with added marks, ${num(d.rotated.diff)} with RoPE.`,
  label: (d, i) =>
    `Bar chart: the scores of “${i.a}” and “${i.b}” in both orders; a swap changes them by up to ` +
    `${num(d.plain.diff)} with no position, ${num(d.added.diff)} with added marks, ${num(d.rotated.diff)} with RoPE.`,
});

export default row;
