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
//   height   the figure's height in px in an embed 700 px wide (embed.js's fixedHeight adds
//            what narrower screens, slider rows and the credit line take)
//   make     the chart module's create function (canvas, data) -> handle
//   data     (model, state) -> the chart's data (plain arrays and numbers)
//   caption  (state, model) -> the caption's plain text
//   label    (state, model) -> the canvas's aria-label
import * as captions from './captions.js';
import { createAnglesChart } from './charts/angles.js';
import { createFlatnessChart } from './charts/flatness.js';
import { createSlowChart } from './charts/slow.js';

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
