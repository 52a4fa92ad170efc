// Figure (long context): the two pairing layouts, rotate_half's (i, i + d/2) and interleaved
// (2i, 2i + 1), and what a mismatch does to the score at a fixed gap across start positions.
import { seriesChart } from '../charts/series.js';
import * as files from '../core/files.js';
import { demo_vectors, layout_pairs, layout_scores, random_vectors } from '../core/rope.js';
import { el } from '../lib/dom.js';
import { num, position } from '../lib/format.js';
import { longModel, useReader } from '../model/long.js';

// The chart: the score of q at start + gap against k at start, for consecutive starts, when the
// pairing layout of the rotation meets the layout the weights were trained with.
// Data in: { start0, same, swapped, table } (layout_scores), one score per start.
function createLayoutChart(canvas, data) {
  return seriesChart(canvas, data, {
    sets: [
      ['same', 'table and rotation in the weights’ layout (RoPE)', 'rope', 2.5],
      ['swapped', 'both in the other layout', 'slow', 2],
      ['table', 'cos/sin table in one layout, rotation in the other', 'add', 1.5],
    ],
    x: 'start position (key at start, query at start + gap)',
    y: 'score q·k',
    point: (x) => `start ${x}`,
  });
}

// The config reader behind longModel comes with this figure (model/long.js).
useReader(files);

// Starts 0 .. STARTS - 1, every one; the gap is the long-context part's.
const STARTS = 256;
// The diagram's small head: pairs of a d = 8 vector.
const SHOWN_PAIRS = 4;
const cache = new WeakMap(); // long model -> its data for a seed

function layoutData(long, seed) {
  if (!long) return null;
  const hit = cache.get(long);
  if (hit?.seed === seed) return hit;
  const theta = long.main.pairs.map((p) => p.inv_freq_scaled);
  const d = 2 * theta.length;
  const [q, k] = seed === 0 ? demo_vectors(d) : random_vectors(d, seed);
  const { layout, layout_from: from } = long.preset.read.model;
  const gap = long.state['target-gap'];
  const data = { long, seed, layout, from, gap, start0: 0, ...layout_scores(q, k, theta, layout, gap, 0, 1, STARTS) };
  cache.set(long, data);
  return data;
}

const spread = (values) => Math.max(...values) - Math.min(...values);
const range = (values) => `${num(Math.min(...values))} to ${num(Math.max(...values))}`;

export function layoutCaption(state, model, data) {
  if (!data) return '';
  const other = data.layout === 'interleaved' ? 'rotate_half' : 'interleaved';
  return (
    'Both q and k in the other layout keep the score a function of the gap, but not the one the model' +
    ' learned; a cos/sin table of one layout turned by the other’s rotation is no rotation, and the score' +
    ` depends on where the words sit. ${data.long.preset.name} pairs ${data.layout} (${data.from}). Gap` +
    ` ${position(data.gap)}, starts 0 to ${STARTS - 1}: ${data.layout}, ${num(data.same[0])} (moves by` +
    ` ${num(spread(data.same))}); ${other} for both, ${num(data.swapped[0])} (moves by ${num(spread(data.swapped))});` +
    ` table in ${data.layout} and rotation in ${other}, ${range(data.table)}.`
  );
}

export function layoutLabel(state, model, data) {
  if (!data) return '';
  return (
    `Line chart: the score at gap ${position(data.gap)} for starts 0 to ${STARTS - 1}; flat at ${num(data.same[0])}` +
    ` in the weights' layout, flat at ${num(data.swapped[0])} in the other, from ${range(data.table)} when mixed.`
  );
}

// Which pair each dimension of a d = 8 vector belongs to, in both layouts (the core's rule).
function pairsTable() {
  const dims = Array.from({ length: 2 * SHOWN_PAIRS }, (_, j) => el('th', { scope: 'col' }, String(j)));
  const row = (layout) =>
    el(
      'tr',
      {},
      el('th', { scope: 'row' }, layout),
      ...layout_pairs(layout, SHOWN_PAIRS).map((p) => el('td', { class: `p${p}` }, String(p))),
    );
  return el(
    'table',
    { class: 'pairs' },
    el('caption', {}, 'The pair of each dimension of a d = 8 vector'),
    el('tr', {}, el('th', { scope: 'col' }, 'dimension'), ...dims),
    row('rotate_half'),
    row('interleaved'),
  );
}

export default {
  name: 'layout',
  part: 'long',
  title: 'Which dimensions form a pair?',
  lookfor:
    'The table shows the two ways to pair a vector’s dimensions; the chart, the score at a fixed gap as both ' +
    'words move along. Look for: with the weights’ own layout the line is flat (RoPE); mix the layouts and ' +
    'it is not.',
  fallback: 'The score at a fixed gap across start positions, with the pairing layouts matched and mixed.',
  embed: 'pairing layouts and a mismatch',
  before: 'check',
  make: createLayoutChart,
  data: (model, state) => layoutData(longModel(state), state.seed),
  caption: layoutCaption,
  label: layoutLabel,
  controls: pairsTable,
};
