// What the element's two builds share (tools/split_element.mjs, the element for posts, and
// tools/embed_views.mjs, the one-view scripts), and the pattern of a figure's file, which the
// split of the page and of the element (tools/split.mjs) reads too.
import { readFileSync } from 'node:fs';
import { transform } from 'esbuild';
import { FIGURE_NAMES } from '../web/gen/figure_names.js';

// The first line of each script asks V8 to compile every function while the script streams in,
// off the main thread, instead of each at its first call: the first element's drawing runs most
// of them, and compiling them there made its steps tasks of 50-80 ms on the host's main thread.
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/** A stylesheet's text minified (esbuild), as the page, the embeds and dist/ serve it. */
export const minifyCss = async (text) => (await transform(text, { loader: 'css', minify: true })).code;

// style.css as text in the element's scripts: minified, as the page loads it (web/style.min.css),
// so the element carries the same rules in about two thirds of the bytes. An esbuild plugin.
export const minifiedCss = {
  name: 'minified-css',
  setup(b) {
    b.onLoad({ filter: /\.css$/ }, async ({ path }) => ({
      contents: await minifyCss(readFileSync(path, 'utf8')),
      loader: 'text',
    }));
  },
};

const FIGURE_FILE = /(?:^|\/)web\/src\/figures\/([a-z][a-z0-9-]*)\.js$/;
/** The figure whose file (web/src/figures/<name>.js, a name of the figures' table) an esbuild
 *  input path is, or null. */
export function figureOfInput(input) {
  const name = FIGURE_FILE.exec(input)?.[1];
  return name && FIGURE_NAMES.includes(name) ? name : null;
}
