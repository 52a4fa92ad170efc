// Chapter: the first idea, adding the slot number to every component of the stick. The bars
// show the word's own stick against the stick with the slot added: past a few slots the word
// is a sliver on top of the slot.

import { axis, categoryAxis } from '../charts/theme.js';
import { lesson_slot } from '../core/rope.js';
import { num } from '../lib/format.js';
import { chapterRow, indexChart, logSlider } from './lesson_row.js';

const STICK = [2, 1, 1, 0];

function compute(i) {
  return { ...lesson_slot(STICK, i.slot), stick: STICK, slot: i.slot };
}

function fill(target, data) {
  const [word, added] = target.data.datasets;
  target.data.labels = data.stick.map((_, j) => `component ${j}`);
  word.data = data.stick;
  added.data = data.sum;
}

function createSlotChart(canvas, data) {
  return indexChart(canvas, data, fill, {
    scales: (c) => ({
      x: categoryAxis(c, 'component of the stick'),
      y: axis(c, 'value', { type: 'linear', beginAtZero: true }),
    }),
    datasets: [
      { label: 'the word “nolan” [2, 1, 1, 0]', data: [], color: 'rope', key: 'the word “nolan” alone' },
      { label: 'the word plus the slot number', data: [], color: 'add', key: 'the word plus its slot number' },
    ],
  });
}

const share = (d) => `${num(100 * d.share, 3)}%`;

const POST_CASES =
  'The post’s cases: slot 1 gives [3, 2, 2, 1], slot 5 gives [7, 6, 6, 5]; slot 50,000 adds a number training never saw.';

// What the chosen slot does to the word: at slot 0 nothing; the sum turns towards [1, 1, 1, 1],
// "almost straight" along it only once the cosine is that close.
function slotWords(d) {
  if (d.slot === 0) return `At slot 0 nothing is added: the stick is the word itself, [${d.sum.join(', ')}].`;
  const along = d.cos_pos >= 0.99 ? 'points almost straight along' : 'leans towards';
  return (
    `At slot ${d.slot} the stick is [${d.sum.join(', ')}]. The slot part is ${num(d.pos_norm)} long and the word ` +
    `${num(d.stick_norm)}, so the slot is ${share(d)} of the two lengths added; the sum ${along} ` +
    `[1, 1, 1, 1] (cosine ${num(d.cos_pos)}), and more so the larger the slot, whatever the word.`
  );
}

export default chapterRow({
  name: 'slot',
  title: 'Adding the slot number drowns the word',
  lookfor:
    'The word “nolan” = [2, 1, 1, 0] with its slot number added to every component. ' +
    'Look for: as the slot grows, all four bars become the same height; the word’s own shape disappears.',
  fallback: 'The word stick with and without its slot number added.',
  embed: 'adding the slot number',
  inputs: { slot: logSlider(5, 'slot number', 0, 50000, { hint: 'log scale, up to 50,000', marks: [1, 5, 50000] }) },
  compute,
  make: createSlotChart,
  readout: (d) =>
    `[2, 1, 1, 0] + ${d.slot} = [${d.sum.join(', ')}]; ` +
    `the slot’s part is ${share(d)} of the two lengths added (the word ${num(d.stick_norm)} long, the slot’s part ${num(d.pos_norm)}); ` +
    `direction kept from the word: cosine ${num(d.cos)}.`,
  caption: (d) => `${slotWords(d)} ${POST_CASES}`,
  label: (d) =>
    `Bar chart: the stick [2, 1, 1, 0] and the stick plus slot ${d.slot}; the slot is ${share(d)} of the two lengths added.`,
});
