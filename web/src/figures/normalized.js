// Chapter: the normalised scalar. slot / length is bounded, but the same slot gets a different
// mark when the sequence is longer than the ones trained on.

import { axis } from '../charts/theme.js';
import { lesson_normalized } from '../core/rope.js';
import { num } from '../lib/format.js';
import { box, chapterRow, indexChart, slider } from './lesson_row.js';

function compute(i) {
  return {
    slot: i.slot,
    train: i.train,
    length: i.length,
    trained: lesson_normalized(i.slot, i.train),
    now: lesson_normalized(i.slot, i.length),
  };
}

function fill(target, data, c) {
  const [bars] = target.data.datasets;
  target.data.labels = [`trained: length ${data.train}`, `now: length ${data.length}`];
  bars.data = [data.trained, data.now];
  bars.backgroundColor = [c.rope, c.add];
}

function createNormalizedChart(canvas, data) {
  return indexChart(canvas, data, fill, {
    scales: (c) => ({
      x: axis(c, 'the sequence the slot sits in'),
      y: axis(c, 'mark = slot / length', { type: 'linear', min: 0, max: 1 }),
    }),
    datasets: [{ label: 'mark of the slot', data: [] }],
    legend: [
      { text: 'the mark the model learned for this slot', mark: 'box', color: 'var(--c-rope)' },
      { text: 'the mark the same slot gets in a longer sequence', mark: 'box', color: 'var(--c-add)' },
    ],
  });
}

export default chapterRow({
  name: 'normalized',
  title: 'Dividing by the length: bounded, but it moves',
  lookfor:
    'The slot divided by the sequence length, so the mark stays between 0 and 1. Look for: the same slot gets ' +
    'a smaller mark in a longer sequence, so what the model learned about it points at the wrong mark.',
  fallback: 'The normalised mark of one slot at two sequence lengths.',
  embed: 'slot / length',
  inputs: {
    slot: slider(256, 'slot', 1, 512),
    length: slider(1024, 'length of the sequence now', 512, 8192),
    train: box(512, 'training length', 1, 8192),
  },
  compute,
  make: createNormalizedChart,
  caption: (d) =>
    `Slot ${d.slot} is ${num(d.trained)} of a ${d.train}-long training sequence but ${num(d.now)} of a ` +
    `${d.length}-long one: the same word at the same slot gets a different mark depending on how long the whole ` +
    'sequence is. (The post: slot 256 is 0.500 of 512 and 0.25 of 1024.)',
  label: (d) => `Bar chart: slot ${d.slot} as ${num(d.trained)} of ${d.train} and ${num(d.now)} of ${d.length}.`,
});
