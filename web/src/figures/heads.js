// The page's figures table: every figure's head (web/gen/figure_heads.js, made from
// figures/index.js by make). The page numbers its guide, fills the embed menu, lays out where
// each section goes and reads every chapter's inputs from a link with the heads alone; a
// figure's code (its title and text, chart, data, caption and controls) is loaded as the reader
// nears it (page/app.js), so a split build fetches it then.

import { CHAPTER_ORDER, HEADS } from '../../gen/figure_heads.js';
import { FIGURE_NAMES } from '../../gen/figure_names.js';

/** The figures' heads in page order, each frozen (name, number, part, embed, uses, before, inputs). */
export const FIGURES = Object.freeze(HEADS.map((head) => Object.freeze(head)));

/** Head by name, as a null-prototype table (a name like "constructor" finds nothing). */
export const FIGURE = Object.freeze(
  Object.assign(Object.create(null), Object.fromEntries(FIGURES.map((head) => [head.name, head]))),
);

if (FIGURES.map((head) => head.name).join() !== FIGURE_NAMES.join()) {
  throw new Error('figures: web/gen/figure_heads.js is older than web/gen/figure_names.js: run make web');
}

/** Every chapter and its inputs ({ key, default, spec }), in the order a link lists them. */
export const CHAPTERS = Object.freeze(CHAPTER_ORDER.map((name) => ({ name, inputs: FIGURE[name].inputs })));
