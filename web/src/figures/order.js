// Chapter: the order-blind machine. Two word sticks scored against each other as plain dot
// products, in "nolan ended" and in "ended nolan": with no position anywhere, every score is
// the same in both orders. The sticks are the reader's to edit.

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

function compute(i) {
  return { ...lesson_order(i.stickA, i.stickB, 0), labels: pairs(i), a: i.a, b: i.b };
}

function fill(target, data) {
  const [first, second] = target.data.datasets;
  target.data.labels = data.labels;
  first.data = data.plain.ab;
  second.data = data.plain.ba;
  first.label = `in “${data.a} ${data.b}”`;
  second.label = `in “${data.b} ${data.a}”`;
}

function createOrderChart(canvas, data) {
  return indexChart(canvas, data, fill, {
    scales: (c) => ({
      x: categoryAxis(c, 'which word looks at which'),
      y: axis(c, 'score (dot product of the two sticks)', { type: 'linear' }),
    }),
    datasets: [
      { label: '', data: [], color: 'rope', key: 'the words in their first order' },
      { label: '', data: [], color: 'add', key: 'the words swapped' },
    ],
  });
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
    'Two words, each a short list of numbers (its stick), score each other with a dot product. ' +
    'Look for: the two bars of every pair are the same height, so “nolan ended” and “ended nolan” look identical.',
  fallback: 'Scores of two words in both orders.',
  embed: 'attention cannot see order',
  inputs: { a: 'nolan', b: 'ended', stickA: [2, 1, 1, 0], stickB: [0, 1, 2, 1] },
  compute,
  make: createOrderChart,
  extras: (chapter) => [stickInput(chapter, 'stickA', 'a', 'order-a'), stickInput(chapter, 'stickB', 'b', 'order-b')],
  readout: (d) => [
    `Largest change when the words swap: ${num(d.plain.diff)} with no position; `,
    `${num(d.added.diff)} once each word carries a sinusoidal position mark; ${num(d.rotated.diff)} once each is rotated (RoPE).`,
  ],
  caption: (d, i) =>
    `Swapping the words changes no score: every bar pair is equal (largest difference ${num(d.plain.diff)}). ` +
    `“${i.a}” [${i.stickA.join(', ')}] looking at “${i.b}” [${i.stickB.join(', ')}] scores ${num(d.plain.ab[1])} in both orders. ` +
    'The fix has to change the sticks by position before attention scores them.',
  label: (d, i) =>
    `Bar chart: the four scores of “${i.a}” and “${i.b}” in both orders, equal pair by pair ` +
    `(largest difference ${num(d.plain.diff)}).`,
});

export default row;
