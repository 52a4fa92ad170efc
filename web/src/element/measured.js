// A view's measured embed heights (heights.js, written by tools/embed_heights.mjs). A figure
// added since the last measurement gets, at each width, the tallest any figure measured there,
// so a new figure needs no other file until the heights are measured again.

import { EMBED_CONTENT, EMBED_WIDTHS } from './heights.js';

export { EMBED_WIDTHS };

const figures = Object.keys(EMBED_CONTENT).filter((view) => view !== 'all');
const TALLEST = EMBED_WIDTHS.map((_, i) =>
  [0, 1].map((title) => Math.max(...figures.map((view) => EMBED_CONTENT[view][i][title]))),
);

/** [with its heading, with title=0] content heights in CSS px, one pair per width of EMBED_WIDTHS. */
export const contentHeights = (view) => EMBED_CONTENT[view] ?? TALLEST;
