// style.css as text in the element's scripts: minified, as the page loads it (web/style.min.css),
// so the element carries the same rules in about two thirds of the bytes. An esbuild plugin, for
// tools/embed_views.mjs and tools/split_element.mjs.
import { readFileSync } from 'node:fs';
import { transform } from 'esbuild';

export const minifiedCss = {
  name: 'minified-css',
  setup(b) {
    b.onLoad({ filter: /\.css$/ }, async ({ path }) => ({
      contents: (await transform(readFileSync(path, 'utf8'), { loader: 'css', minify: true })).code,
      loader: 'text',
    }));
  },
};
