// The figures table: one row per figure, in page order. app.js builds each figure's
// <figure> section and its embed option from the row, computes its data, draws it and
// writes its caption and aria-label, and numbers the page's guide from the rows' parts;
// nothing else lists the figures.
//
// Adding a figure: write web/charts/<name>.js (a create function taking (canvas, data)
// and returning the handle of charts/figure.js; its caption and label may live there too)
// and add one row here. Row fields:
//   name     the id stem (fig-<name>, chart-<name>, caption-<name>) and the ?view= value
//   part     where the figure belongs: 'claim', 'why' or 'gap' (the parts the guide "How to
//            read this page" numbers: index.html's [data-figures] elements), or 'long'
//   title    the figure's heading
//   lookfor  the line under the heading: what to look for
//   fallback text inside the canvas (shown when canvas is not supported)
//   embed    the embed menu's short description (after "figure N: ")
//   height   the figure's height in px in an embed 700 px wide (embed.js's fixedHeight adds
//            what narrower screens, slider rows and the credit line take)
//   make     the chart module's create function (canvas, data) -> handle
//   data     (model, state) -> the chart's data (plain arrays and numbers); return the same
//            object while its inputs stay (model.js's memo), so a chart is redrawn only when
//            its data changed
//   caption  (state, model, data) -> the caption's plain text (data: what `data` returned)
//   label    (state, model, data) -> the canvas's aria-label
// Optional fields:
//   controls () -> an element of the figure's own settings, above the chart
//   notes    () -> an element beside the chart (formulas), after the caption
//   after    () -> an element placed right after the figure's section
//   before   id of the element the section goes before; default 'take'
//   uses     settings of the panel whose hint names the figures that read them (index.html's
//            [data-figures-using="from"]): ['from'] puts the figure's number in that hint
import * as captions from './captions.js';
import { createAnglesChart } from '../charts/angles.js';
import { createFlatnessChart } from '../charts/flatness.js';
import { createSlowChart } from '../charts/slow.js';
import { createRangeChart } from '../charts/range.js';
import { createScalingChart } from '../charts/scaling.js';
import { createCircleChart } from '../charts/circle.js';
import { createTermsChart } from '../charts/terms.js';
import { createAdditiveChart } from '../charts/additive.js';
import { createDecayChart } from '../charts/decay.js';
import { createHeatmapChart } from '../charts/heatmap.js';
import { createLengthChart, lengthCaption, lengthLabel } from '../charts/length.js';
import * as longCaptions from './long_captions.js';
import { longModel } from '../model/long.js';
import { list } from '../lib/format.js';
import { memo } from '../model/model.js';
import * as rope from '../core/rope.js';
import * as teach from '../page/teach.js';
import * as words from './teach_captions.js';
import { el } from '../lib/dom.js';

// The long-context rows draw from their own model (long_model.js: longModel(state), cached by
// the long settings), null until the part has started; their caption and label take that model
// (empty until then). Their sections go before the config checker.
function longRow(key, make, caption, label) {
  const whenLong = (write) => (state) => {
    const long = longModel(state);
    return long ? write(state, long) : '';
  };
  return {
    part: 'long', height: 520, before: 'check', make,
    data: (model, state) => longModel(state)?.[key] ?? null,
    caption: whenLong(caption),
    label: whenLong(label),
  };
}

const ROWS = [
  {
    name: 'flatness',
    part: 'claim',
    uses: ['from', 'to', 'n'],
    title: 'Same gap, anywhere in the sequence',
    lookfor: 'A query at position m = n + gap and a key at n, slid along the sequence at a fixed gap. ' +
      'Look for: the RoPE line stays flat, the additive band wanders with the absolute position.',
    fallback: 'Score against start position for RoPE and additive embedding.',
    embed: 'same gap, anywhere',
    height: 610,
    make: createFlatnessChart,
    data: (model, state) => ({ ...model.sweep, marked: model.marked, from: state.from, to: state.to }),
    caption: captions.flatnessCaption,
    label: captions.flatnessLabel,
  },
  {
    name: 'circle',
    part: 'why',
    title: 'One pair, rotating',
    lookfor: 'RoPE splits q and k into pairs of numbers and turns each pair like a clock hand. Look for: ' +
      'the angle between the two arrows is (m − n)·θᵢ, so with the gap kept it never changes.',
    fallback: 'Pair i of q and k on the plane, rotated to positions m and n.',
    embed: 'one pair, rotating',
    height: 980,
    make: createCircleChart,
    data: (model) => ({
      circle: model.explain.circle, q: model.explain.rotating.q, k: model.explain.rotating.k,
      q_m: model.explain.rotating.q_m, k_n: model.explain.rotating.k_n,
    }),
    caption: words.circleCaption,
    label: words.circleLabel,
    controls: teach.circleControls,
    notes: teach.circleNotes,
    after: teach.workedSection,
  },
  {
    name: 'terms',
    part: 'why',
    title: 'The proof, made numeric',
    lookfor: 'The RoPE score is a sum of one term per pair, and each term holds only the gap r = m − n. ' +
      'Look for: the caption’s sum of the bars equals the rotated dot product.',
    fallback: 'Each pair’s term of the RoPE score at the current gap.',
    embed: 'the proof, per pair',
    height: 710,
    make: createTermsChart,
    data: (model) => ({ terms: model.explain.terms.terms, sum: model.explain.terms.sum, score: model.explain.terms.score }),
    caption: words.termsCaption,
    label: words.termsLabel,
    notes: teach.termsNotes,
  },
  {
    name: 'additive',
    part: 'why',
    uses: ['from'],
    title: 'Why the additive score wobbles',
    lookfor: 'Adding position marks P[m] and P[n] to the vectors gives four terms. Look for: the two cross ' +
      'terms move with every start, the other two stay put.',
    fallback: 'The four terms of the additive score across start positions.',
    embed: 'the additive score’s four terms',
    height: 730,
    make: createAdditiveChart,
    data: (model) => model.explain.additive,
    caption: words.additiveCaption,
    label: words.additiveLabel,
    notes: teach.additiveNotes,
  },
  {
    name: 'length',
    part: 'why',
    uses: ['from'],
    title: 'Rotation keeps length; adding a position mark does not',
    lookfor: 'The query q placed at position m: RoPE turns it by R(m), the additive method adds the mark P[m]. ' +
      'Look for: the RoPE length stays level, the additive length rises and falls from one position to the next.',
    fallback: 'Length of the query at each position: turned by RoPE, and with the additive position mark added.',
    embed: 'length of the query at each position',
    height: 540,
    make: createLengthChart,
    // Every position from `from`, 256 of them; q scored against itself at offset 0 is its
    // squared length, for both methods at once.
    data: (model, state) => memo('length', [state.dim, state.seed, state.base, Math.ceil(state.from)], () => {
      const start0 = Math.ceil(state.from);
      const squared = rope.offset_sweep(model.q, model.q, 0, start0, 1, 256, state.base);
      return { start0, rope: Array.from(squared.rope, Math.sqrt), add: Array.from(squared.add, Math.sqrt) };
    }),
    caption: lengthCaption,
    label: lengthLabel,
  },
  {
    name: 'angles',
    part: 'gap',
    title: 'How far each pair rotates over the gap',
    lookfor: 'Pair i turns by gap × θᵢ. Its pair frequency θᵢ falls from 1 (pair 0, fast) to nearly 0 (the last ' +
      'pair, slow). Look for: fast pairs pass one full turn (the dashed 2π line), slow pairs barely move, and ' +
      'nothing depends on where the pair sits.',
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
    part: 'gap',
    title: 'Which pairs are left for long distances',
    lookfor: 'A pair that has not yet wrapped (turned under one full turn) still tells distances apart; one ' +
      'past a turn repeats itself. Look for: as the gap grows, pairs wrap one by one, fastest first.',
    fallback: 'Number of pairs not yet wrapped against the gap.',
    embed: 'unwrapped pairs by gap',
    height: 480,
    make: createSlowChart,
    data: (model, state) => ({ ...model.slow, pairs: model.pairs, gap: state.gap }),
    caption: captions.slowCaption,
    label: captions.slowLabel,
  },
  {
    name: 'decay',
    part: 'gap',
    title: 'Long-range decay',
    lookfor: 'A key that matches its query scores high when close; RoPE lowers that score as the distance ' +
      'grows. Look for: the mean and RoFormer’s bound fall on this log axis up to a million positions.',
    fallback: 'Score against distance on a log axis: these vectors, the mean over random vectors, RoFormer’s bound.',
    embed: 'long-range decay',
    height: 700,
    make: createDecayChart,
    data: (model) => model.explain.decay,
    caption: words.decayCaption,
    label: words.decayLabel,
    notes: teach.decayNotes,
  },
  {
    name: 'heatmap',
    part: 'gap',
    title: 'Every pair at every position',
    lookfor: 'cos(p·θᵢ) for pair i (row) at position p (column). Look for: fast pairs as thin stripes at the ' +
      'top, slow pairs as wide bands at the bottom.',
    fallback: 'Heatmap of cos(p·θᵢ), pairs by positions.',
    embed: 'pair × position heatmap',
    height: 600,
    make: createHeatmapChart,
    data: (model) => model.explain.heat,
    caption: words.heatmapCaption,
    label: words.heatmapLabel,
    notes: teach.heatmapNotes,
  },
  {
    name: 'range',
    title: 'Which angles has each pair seen?',
    lookfor: 'A bar is the angle a pair reached over the training length; a dot is the angle it meets at the ' +
      'gap. Look for: pairs right of the one-turn line never turned fully in training, so a dot above their ' +
      'bar is an angle the model never saw — unless the scaling pulls it back inside.',
    fallback: 'Per pair: the angle reached in training and the angle at the gap after scaling.',
    embed: 'angles seen in training',
    ...longRow('range', createRangeChart, longCaptions.rangeCaption, longCaptions.rangeLabel),
  },
  {
    name: 'scaling',
    title: 'What the method does to each pair',
    lookfor: 'The ratio of each pair’s scaled frequency to its original one: 1 keeps it, 1/factor divides it. ' +
      'Look for: which pairs a method leaves alone (the fast ones, which turned many times in training) and ' +
      'which it slows down, compared with the other methods at the same factor.',
    fallback: 'Per pair: scaled frequency over original frequency, with the bands shaded.',
    embed: 'what the scaling does',
    ...longRow('scaling', createScalingChart, longCaptions.scalingCaption, longCaptions.scalingLabel),
  },
];

const PARTS = ['claim', 'why', 'gap', 'long'];
const FIELDS = ['name', 'part', 'title', 'lookfor', 'fallback', 'embed', 'height', 'make', 'data', 'caption', 'label'];

function checkRow(row, index) {
  for (const field of FIELDS) {
    if (!Object.hasOwn(row, field)) throw new Error(`figures.js: row ${index} has no ${field}`);
  }
  if (!/^[a-z][a-z0-9-]*$/.test(row.name) || row.name === 'all') {
    throw new Error(`figures.js: row ${index}: bad name ${JSON.stringify(row.name)}`);
  }
  if (!PARTS.includes(row.part)) throw new Error(`figures.js: row ${index}: bad part ${JSON.stringify(row.part)}`);
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
  const { name } = row;
  return el('figure', { class: 'fig', id: `fig-${name}`, 'data-view': name, 'aria-labelledby': `title-${name}` },
    el('div', { class: 'fig-head' },
      el('h2', { id: `title-${name}` }, el('span', { class: 'fig-num' }, String(row.number)), row.title),
      el('p', { class: 'lookfor' }, row.lookfor)),
    ...(row.controls ? [row.controls()] : []),
    el('div', { class: 'chart-box' },
      el('canvas', { id: `chart-${name}`, role: 'img', 'aria-describedby': `caption-${name}` }, row.fallback)),
    el('figcaption', { id: `caption-${name}`, class: 'caption' }),
    ...(row.notes ? [row.notes()] : []));
}

/** The embed menu's option for a row. */
export function embedOption(row) {
  const option = document.createElement('option');
  option.value = row.name;
  option.textContent = `figure ${row.number}: ${row.embed}`;
  return option;
}

/**
 * Writes the figure numbers the page's text names, from the table: "Figures 2–4" in each
 * [data-figures="PART"] (the guide), "figures 1 and 4" in each [data-figures-using="SETTING"]
 * (a setting's hint: the rows whose `uses` name it).
 */
export function numberGuide(root = document) {
  for (const node of root.querySelectorAll('[data-figures], [data-figures-using]')) {
    const { figures: part, figuresUsing: using } = node.dataset;
    const runs = [];
    for (const { number } of FIGURES.filter((row) => (part ? row.part === part : row.uses?.includes(using)))) {
      const last = runs[runs.length - 1];
      if (last && last[1] === number - 1) last[1] = number;
      else runs.push([number, number]);
    }
    if (!runs.length) continue;
    const noun = runs.length === 1 && runs[0][0] === runs[0][1] ? 'igure' : 'igures';
    // A run of three or more is a range ("2–4"); "4 and 5" stay two numbers.
    const items = runs.flatMap(([a, b]) => (b - a >= 2 ? [`${a}–${b}`] : b > a ? [a, b] : [a]));
    node.textContent = `${part ? 'F' : 'f'}${noun} ${list(items)}`;
  }
}
