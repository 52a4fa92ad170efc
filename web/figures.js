// The figures table: one row per figure, in page order. app.js builds each figure's
// <figure> section and its embed option from the row, computes its data, draws it and
// writes its caption and aria-label; nothing else lists the figures.
//
// Adding a figure: write web/charts/<name>.js (a create function taking (canvas, data)
// and returning the handle of charts/figure.js), its caption and label in captions.js,
// and one row here. Row fields:
//   name     the id stem (fig-<name>, chart-<name>, caption-<name>) and the ?view= value
//   title    the figure's heading
//   lookfor  the line under the heading: what to look for
//   fallback text inside the canvas (shown when canvas is not supported)
//   embed    the embed menu's short description (after "figure N: ")
//   height   iframe height in px for ?embed=1&view=<name>
//   make     the chart module's create function (canvas, data) -> handle
//   data     (model, state) -> the chart's data (plain arrays and numbers)
//   caption  (state, model) -> the caption's plain text
//   label    (state, model) -> the canvas's aria-label
//   before   (optional) id of the element the section goes before; default 'take'
//
// The long-context rows draw from their own model (long.js: longModel(state), cached by
// the long settings); their caption and label functions take that model too.
import * as captions from './captions.js';
import { createAnglesChart } from './charts/angles.js';
import { createFlatnessChart } from './charts/flatness.js';
import { createSlowChart } from './charts/slow.js';
import { createRangeChart } from './charts/range.js';
import { createScalingChart } from './charts/scaling.js';
import * as longCaptions from './long_captions.js';
import { longModel } from './long_model.js';

// A long-context caption or label, empty until the part has started.
const whenLong = (state, write) => {
  const long = longModel(state);
  return long ? write(state, long) : '';
};

const ROWS = [
  {
    name: 'flatness',
    title: 'Same gap, anywhere in the sequence',
    lookfor: 'Slide a query–key pair along the sequence at a fixed gap. Look for: the RoPE line ' +
      'stays flat, the additive line wanders with the absolute position.',
    fallback: 'Score against start position for RoPE and additive embedding.',
    embed: 'same gap, anywhere',
    height: 480,
    make: createFlatnessChart,
    data: (model, state) => ({ ...model.sweep, marked: model.marked, from: state.from, to: state.to }),
    caption: captions.flatnessCaption,
    label: captions.flatnessLabel,
  },
  {
    name: 'angles',
    title: 'How far each pair rotates over the gap',
    lookfor: 'Pair i turns by gap × θᵢ. Look for: low pairs spin past one full turn (the dashed ' +
      '2π line), high pairs barely move, and nothing here depends on where the pair sits.',
    fallback: 'Rotation angle of every pair at the current gap.',
    embed: 'angle of every pair',
    height: 480,
    make: createAnglesChart,
    data: (model) => ({ angles: model.angles, turns: model.turns }),
    caption: captions.anglesCaption,
    label: captions.anglesLabel,
  },
  {
    name: 'slow',
    title: 'Which pairs are left for long distances',
    lookfor: 'A pair under one turn still tells distances apart; one past a turn repeats itself. ' +
      'Look for: as the gap grows, pairs wrap one by one and only the slow ones remain.',
    fallback: 'Number of slow pairs against the gap.',
    embed: 'slow pairs by gap',
    height: 480,
    make: createSlowChart,
    data: (model, state) => ({ ...model.slow, pairs: model.pairs, gap: state.gap }),
    caption: captions.slowCaption,
    label: captions.slowLabel,
  },
  {
    name: 'range',
    title: 'Which angles has each pair seen?',
    lookfor: 'A bar is the angle a pair reached over the training length; a dot is the angle it meets at the ' +
      'gap. Look for: pairs right of the one-turn line never turned fully in training, so a dot above their ' +
      'bar is an angle the model never saw — unless the scaling pulls it back inside.',
    fallback: 'Per pair: the angle reached in training and the angle at the gap after scaling.',
    embed: 'angles seen in training',
    height: 520,
    before: 'check',
    make: createRangeChart,
    data: (model, state) => longModel(state)?.range ?? null,
    caption: (state) => whenLong(state, longCaptions.rangeCaption),
    label: (state) => whenLong(state, longCaptions.rangeLabel),
  },
  {
    name: 'scaling',
    title: 'What the method does to each pair',
    lookfor: 'The ratio of each pair’s scaled frequency to its original one: 1 keeps it, 1/factor divides it. ' +
      'Look for: which pairs a method leaves alone (the fast ones, which turned many times in training) and ' +
      'which it slows down, compared with the other methods at the same factor.',
    fallback: 'Per pair: scaled frequency over original frequency, with the bands shaded.',
    embed: 'what the scaling does',
    height: 520,
    before: 'check',
    make: createScalingChart,
    data: (model, state) => longModel(state)?.scaling ?? null,
    caption: (state) => whenLong(state, longCaptions.scalingCaption),
    label: (state) => whenLong(state, longCaptions.scalingLabel),
  },
];

const FIELDS = ['name', 'title', 'lookfor', 'fallback', 'embed', 'height', 'make', 'data', 'caption', 'label'];

function checkRow(row, index) {
  for (const field of FIELDS) {
    if (!Object.hasOwn(row, field)) throw new Error(`figures.js: row ${index} has no ${field}`);
  }
  if (!/^[a-z][a-z0-9-]*$/.test(row.name) || row.name === 'all') {
    throw new Error(`figures.js: row ${index}: bad name ${JSON.stringify(row.name)}`);
  }
  return Object.freeze({ ...row, number: index + 1 });
}

/** The figures in page order; each row frozen, with its 1-based number added. */
export const FIGURES = Object.freeze(ROWS.map(checkRow));

/** Row by name, as a null-prototype table (a name like "constructor" finds nothing). */
export const FIGURE = Object.freeze(Object.assign(Object.create(null),
  Object.fromEntries(FIGURES.map((row) => [row.name, row]))));

/** The ?view= values: every figure's name, and 'all'. */
export const VIEWS = Object.freeze(['all', ...FIGURES.map((row) => row.name)]);

/** The <figure> section of a row, built with DOM calls (no HTML strings). */
export function figureElement(row) {
  const el = (tag, props = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) node.setAttribute(key, value);
    node.append(...children);
    return node;
  };
  const { name } = row;
  return el('figure', { class: 'fig', id: `fig-${name}`, 'data-view': name, 'aria-labelledby': `title-${name}` },
    el('div', { class: 'fig-head' },
      el('h2', { id: `title-${name}` }, el('span', { class: 'fig-num' }, String(row.number)), row.title),
      el('p', { class: 'lookfor' }, row.lookfor)),
    el('div', { class: 'chart-box' },
      el('canvas', { id: `chart-${name}`, role: 'img', 'aria-describedby': `caption-${name}` }, row.fallback)),
    el('figcaption', { id: `caption-${name}`, class: 'caption' }));
}

/** The embed menu's option for a row. */
export function embedOption(row) {
  const option = document.createElement('option');
  option.value = row.name;
  option.textContent = `figure ${row.number}: ${row.embed}`;
  return option;
}

/** iframe height for a view: one figure's height, or all of them stacked. */
export function embedHeight(view) {
  if (view !== 'all') return FIGURE[view].height;
  return FIGURES.reduce((sum, row) => sum + row.height, 0) - 20 * (FIGURES.length - 1);
}
