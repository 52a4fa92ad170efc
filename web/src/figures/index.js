// The figures table: one row per figure, in page order. app.js builds each figure's
// <figure> section from the row, computes its data, draws it and writes its caption and
// aria-label; nothing else lists the figures. The page itself imports each row's file only as
// the reader nears it: make web writes the rows' heads (gen/figure_heads.js: number, part, embed
// text, ...; figures/heads.js), from which it numbers the guide and fills the embed menu, and one
// import() per row (gen/figure_loaders.js). The <rope-scope> element and the tools read this table.
//
// Adding a figure: write web/src/figures/<name>.js, whose default export is the figure's row
// (its chart maker, its data from the model, its caption and label, its embed text and its
// own controls), import it here (default import, named as its file) and put it in ROWS where it
// belongs on the page; add its test. make web reads ROWS for the URL reader's list of names
// (gen/figure_names.js, which loads no chart code) and for the heads and loaders above, and a view whose embed heights are not yet
// measured (element/heights.js) gets the tallest figure's. Row fields:
//   name     the id stem (fig-<name>, chart-<name>, caption-<name>) and the ?view= value
//   part     where the figure belongs: 'lesson' (the chapters that follow the blog post, built
//            with lesson_row.js's chapterRow), 'claim' (the flatness measurement, the summary the
//            chapters reach), 'why' or 'gap' (going deeper), or 'long';
//            the guide "How to read this page" numbers every part (index.html's [data-figures])
//   title    the figure's heading
//   lookfor  the line under the heading: what to look for
//   fallback text inside the canvas (shown when canvas is not supported)
//   embed    the embed menu's short description (after "figure N: ")
//   make     the chart module's create function (canvas, data) -> handle
//   data     (model, state) -> the chart's data (plain arrays and numbers); return the same
//            object while its inputs stay (model.js's memo), so a chart is redrawn only when
//            its data changed
//   caption  (state, model, data) -> the caption's plain text (data: what `data` returned)
//   label    (state, model, data) -> the canvas's aria-label
// Optional fields:
//   controls () -> an element above the chart: the figure's own settings, or a diagram it needs
//   notes    () -> an element beside the chart (formulas), after the caption
//   after    () -> an element placed right after the figure's section
//   before   id of the element the section goes before; default 'take'
//   uses     settings of the panel whose hint names the figures that read them (index.html's
//            [data-figures-using="from"]): ['from'] puts the figure's number in that hint

import { FIGURE_NAMES } from '../../gen/figure_names.js';
import additive from './additive.js';
import angles from './angles.js';
import cat from './cat.js';
import circle from './circle.js';
import clock from './clock.js';
import decay from './decay.js';
import extrapolate from './extrapolate.js';
import flatness from './flatness.js';
import heatmap from './heatmap.js';
import identity from './identity.js';
import layout from './layout.js';
import length from './length.js';
import marks from './marks.js';
import normalized from './normalized.js';
import order from './order.js';
import planes from './planes.js';
import post from './post.js';
import precision from './precision.js';
import proof from './proof.js';
import range from './range.js';
import scaling from './scaling.js';
import slot from './slot.js';
import slow from './slow.js';
import temperature from './temperature.js';
import terms from './terms.js';
import weights from './weights.js';

// The figures in page order: the post's argument chapter by chapter, the claim measured over
// every start where the argument reaches it (after the proof and the planes: the score depends on
// the gap alone), the chapters on long range and the post's numbers checked, then the figures that
// go deeper, then the long-context tools' figures.
const ROWS = [
  order,
  slot,
  normalized,
  marks,
  extrapolate,
  identity,
  cat,
  proof,
  planes,
  flatness,
  clock,
  weights,
  post,
  circle,
  terms,
  additive,
  length,
  angles,
  slow,
  decay,
  heatmap,
  range,
  scaling,
  precision,
  layout,
  temperature,
];

const PARTS = ['lesson', 'claim', 'why', 'gap', 'long'];
const FIELDS = ['name', 'part', 'title', 'lookfor', 'fallback', 'embed', 'make', 'data', 'caption', 'label'];

function checkRow(row, index) {
  for (const field of FIELDS) {
    if (!Object.hasOwn(row, field)) throw new Error(`figures: row ${index} has no ${field}`);
  }
  if (!/^[a-z][a-z0-9-]*$/.test(row.name) || row.name === 'all') {
    throw new Error(`figures: row ${index}: bad name ${JSON.stringify(row.name)}`);
  }
  if (!PARTS.includes(row.part)) throw new Error(`figures: row ${index}: bad part ${JSON.stringify(row.part)}`);
  return Object.freeze({ ...row, number: index + 1 });
}

/** The figures in page order; each row frozen, with its 1-based number added. */
export const FIGURES = Object.freeze(ROWS.map(checkRow));

/** Row by name, as a null-prototype table (a name like "constructor" finds nothing). */
export const FIGURE = Object.freeze(
  Object.assign(Object.create(null), Object.fromEntries(FIGURES.map((row) => [row.name, row]))),
);

/** The ?view= values: every figure's name, and 'all'. */
export const VIEWS = Object.freeze(['all', ...FIGURES.map((row) => row.name)]);
if (VIEWS.join() !== ['all', ...FIGURE_NAMES].join()) {
  throw new Error(
    `figures: the rows' names (${VIEWS.slice(1).join(', ')}) are not their files' (gen/figure_names.js: ${FIGURE_NAMES.join(', ')})`,
  );
}

// A row's <figure> section and the guide's figure numbers (section.js, shared with the page,
// which reads the rows' heads: web/src/figures/heads.js).
export { embedOption, figureElement } from './section.js';
