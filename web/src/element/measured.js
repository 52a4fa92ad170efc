// A view's measured embed heights (heights.js, written by tools/embed_heights.mjs). A figure
// added since the last measurement gets, at each width, the tallest any figure measured there,
// and view=all grows by that much for each such figure, so a new figure needs no other file
// until the heights are measured again.

import { FIGURE_NAMES } from '../../gen/figure_names.js';
import { EMBED_CONTENT, EMBED_WIDTHS } from './heights.js';

export { EMBED_WIDTHS };

const measured = FIGURE_NAMES.filter((view) => EMBED_CONTENT[view]);
const missing = FIGURE_NAMES.length - measured.length;
const TALLEST = EMBED_WIDTHS.map((_, i) =>
  [0, 1].map((title) => Math.max(...measured.map((view) => EMBED_CONTENT[view][i][title]))),
);
const ALL = EMBED_CONTENT.all.map((pair, i) => pair.map((height, title) => height + missing * TALLEST[i][title]));

/** [with its heading, with title=0] content heights in CSS px, one pair per width of EMBED_WIDTHS. */
export const contentHeights = (view) => (view === 'all' ? ALL : (EMBED_CONTENT[view] ?? TALLEST));
