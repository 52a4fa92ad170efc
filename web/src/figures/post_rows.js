// The post's printed numbers as the lesson's chapters quote them (the core's table of them,
// lesson_post): a module of its own, so a chapter that quotes none (and its one-view embed
// script, whose wasm then needs no table: tools/view_wasm.mjs) does not import the table.
import { lesson_post } from '../core/rope.js';

let postById = null;
/** The post's row `id` as lesson_post() gives it (its printed text and the true value). */
export function postRow(id) {
  postById ??= new Map(lesson_post().map((row) => [row.id, row]));
  return postById.get(id);
}
/** The post's printed text of row `id`, with a real minus sign. */
export const printed = (id) => postRow(id).text.replace('-', '−');
/** "the post says −0.398 ✗": the post's number with its check. */
export const said = (id) => `the post says ${printed(id)} ${postRow(id).match ? '✓' : '✗'}`;
