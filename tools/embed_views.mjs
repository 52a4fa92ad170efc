#!/usr/bin/env node
// The <rope-scope> element's scripts, one set of esbuild options for all of them:
// WHOLE (web/ropescope-embed.js) is web/src/element/element.js and what it imports, one classic
// script with Chart.js (the parts tools/chart_parts.mjs registers), the wasm and style.css
// inside; OUT/<view>.js, one per view for the one-view embed documents (OUT/<view>.html, written
// by tools/embed_page.mjs), is the same except that figures/index.js takes every other figure's
// row as a stub (its name, no code): the view's script holds Chart.js, the core, the element and
// that view's figure alone. The element draws nothing for a stub's view and says which script
// has it.
//   node tools/embed_views.mjs WHOLE OUT_DIR
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';
import { FIGURE_NAMES } from '../web/gen/figure_names.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const INDEX = join(ROOT, 'web', 'src', 'figures', 'index.js');
const IMPORT = /^import (\w+) from '\.\/([\w-]+)\.js';$/gm;
// The first line asks V8 to compile every function while the script streams in, off the main
// thread, instead of each at its first call: the first element's drawing runs most of them, and
// compiling them there made its steps tasks of 50-80 ms on the host's main thread.
const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';
const BANNER = `${COMPILE_HINT}/*! ropescope-embed.js: the <rope-scope> element (MIT); includes Chart.js (MIT) */`;
const VIEW_BANNER = `${COMPILE_HINT}/*! ropescope-embed.js, one view: the <rope-scope> element (MIT); includes Chart.js (MIT) */`;

// A row with the fields figures/index.js checks, marked as a stub, drawing nothing.
const STUB =
  '\nfunction stubRow(name) {\n' +
  "  return { name, part: 'lesson', title: name, lookfor: '', fallback: '', embed: name, make: null,\n" +
  '    data: null, caption: null, label: null, stub: true };\n}\n';

/** figures/index.js's source with every figure import but `view`'s replaced by a stub row. */
function indexFor(view) {
  const source = readFileSync(INDEX, 'utf8');
  let stubbed = 0;
  const out = source.replace(IMPORT, (line, name, file) => {
    if (!FIGURE_NAMES.includes(file) || file === view) return line;
    stubbed += 1;
    return `const ${name} = stubRow('${file}');`;
  });
  if (stubbed !== FIGURE_NAMES.length - 1) {
    throw new Error(`embed_views: ${view}: stubbed ${stubbed} figure imports, expected ${FIGURE_NAMES.length - 1}`);
  }
  return out + STUB;
}

const onlyView = (view) => ({
  name: 'only-view',
  setup(b) {
    b.onLoad({ filter: /[\\/]web[\\/]src[\\/]figures[\\/]index\.js$/ }, () => ({
      contents: indexFor(view),
      loader: 'js',
      resolveDir: dirname(INDEX),
    }));
  },
});

// style.css comes in as text: minified, as the page loads it (web/style.min.css), so the element
// carries the same rules in about two thirds of the bytes.
const minifiedCss = {
  name: 'minified-css',
  setup(b) {
    b.onLoad({ filter: /\.css$/ }, async ({ path }) => ({
      contents: (await transform(readFileSync(path, 'utf8'), { loader: 'css', minify: true })).code,
      loader: 'text',
    }));
  },
};

/** The element bundled with the given banner and plugins, as bytes. */
const bundle = (banner, plugins) =>
  build({
    entryPoints: [join(ROOT, 'web', 'src', 'element', 'element.js')],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2020',
    legalComments: 'eof',
    loader: { '.css': 'text' },
    logLevel: 'warning',
    banner: { js: banner },
    plugins: [minifiedCss, ...plugins],
    write: false,
  }).then((result) => result.outputFiles[0].contents);

const [whole, out] = process.argv.slice(2);
if (!whole || !out) {
  console.error('usage: node tools/embed_views.mjs WHOLE OUT_DIR');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
await Promise.all([
  bundle(BANNER, []).then((bytes) => writeFileSync(whole, bytes)),
  ...FIGURE_NAMES.map((view) =>
    bundle(VIEW_BANNER, [onlyView(view)]).then((bytes) => writeFileSync(join(out, `${view}.js`), bytes)),
  ),
]);
console.log(`embed_views: ${whole}, and ${FIGURE_NAMES.length} one-view scripts in ${out}`);
