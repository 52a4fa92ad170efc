#!/usr/bin/env node
// The <rope-scope> element's scripts, one set of esbuild options for all of them:
// WHOLE (web/ropescope-embed.js) is web/src/element/element.js and what it imports, one classic
// script with Chart.js (the parts tools/chart_parts.mjs registers), the wasm and style.css
// inside; OUT/<view>.js, one per view for the one-view embed documents (OUT/<view>.html, written
// by tools/embed_page.mjs), is the same except that figures/index.js takes every other figure's
// row as a stub (its name, no code): the view's script holds Chart.js, the core, the element and
// that view's figure alone, and the formulas' table and the matrix chart only where the view
// draws them. The element draws nothing for a stub's view and says which script has it.
//   node tools/embed_views.mjs WHOLE OUT_DIR
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

// A figure that draws formulas imports formulas/mathml.js (its formulaSlot or formulaBlock); the
// formulas' table (web/gen/formulas.js, about 4.5 KB) goes only into those views' scripts. The
// others never make a formula slot, so never read the table; were one to, the element would say
// "no formula named ..." (mathml.js).
const FORMULAS_IMPORT = /from '\.\.\/formulas\/mathml\.js'/;
const figureSource = (view) => readFileSync(join(dirname(INDEX), `${view}.js`), 'utf8');
const drawsFormulas = (view) => FORMULAS_IMPORT.test(figureSource(view));
const NO_FORMULAS =
  '// No formula in this view (tools/embed_views.mjs).\n' +
  'export const FORMULAS = Object.freeze({});\nexport const FORMULA_TEX = Object.freeze({});\n';

// Likewise the heatmap's matrix chart (chartjs-chart-matrix), which tools/chart_parts.mjs
// registers only where it is present.
const MATRIX_CHART = /chartConfig\('matrix'/;
const drawsMatrix = (view) => MATRIX_CHART.test(figureSource(view));
const NO_MATRIX = 'export const MatrixController = undefined;\nexport const MatrixElement = undefined;\n';

// Both rules read the figure's own file: a helper module that drew formulas or a matrix for
// figures would escape them, so the build stops if one appears.
function checkDrawnByFiguresOnly() {
  const SRC = join(ROOT, 'web', 'src');
  const ALLOWED = new Set(['element/element.js', 'page/app.js', 'formulas/mathml.js', 'charts/figure.js']);
  for (const file of readdirSync(SRC, { recursive: true })) {
    if (!file.endsWith('.js') || ALLOWED.has(file) || FIGURE_NAMES.some((name) => file === `figures/${name}.js`))
      continue;
    const text = readFileSync(join(SRC, file), 'utf8');
    if (/formulas\/mathml\.js'/.test(text) || MATRIX_CHART.test(text)) {
      throw new Error(`embed_views: web/src/${file} draws formulas or a matrix: teach drawsFormulas/drawsMatrix`);
    }
  }
}

const onlyView = (view) => ({
  name: 'only-view',
  setup(b) {
    b.onLoad({ filter: /[\\/]web[\\/]src[\\/]figures[\\/]index\.js$/ }, () => ({
      contents: indexFor(view),
      loader: 'js',
      resolveDir: dirname(INDEX),
    }));
    if (!drawsMatrix(view)) {
      b.onResolve({ filter: /^chartjs-chart-matrix$/ }, () => ({ path: 'no-matrix', namespace: 'only-view' }));
      b.onLoad({ filter: /^no-matrix$/, namespace: 'only-view' }, () => ({ contents: NO_MATRIX, loader: 'js' }));
    }
    if (!drawsFormulas(view)) {
      b.onLoad({ filter: /[\\/]web[\\/]gen[\\/]formulas\.js$/ }, () => ({ contents: NO_FORMULAS, loader: 'js' }));
    }
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
checkDrawnByFiguresOnly();
await Promise.all([
  bundle(BANNER, []).then((bytes) => writeFileSync(whole, bytes)),
  ...FIGURE_NAMES.map((view) =>
    bundle(VIEW_BANNER, [onlyView(view)]).then((bytes) => writeFileSync(join(out, `${view}.js`), bytes)),
  ),
]);
console.log(`embed_views: ${whole}, and ${FIGURE_NAMES.length} one-view scripts in ${out}`);
