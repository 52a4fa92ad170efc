#!/usr/bin/env node
// The one-view embed documents' scripts (OUT/<view>.js; the documents, OUT/<view>.html, are
// tools/embed_page.mjs's): each is web/src/element/element.js and what it imports, one classic
// script with Chart.js (the parts that view's chart uses: tools/chart_views.mjs), the wasm and
// style.css inside, and of the figures that view's alone: gen/figure_loaders.js keeps that view's
// loader only, so the element draws nothing for another view and says which script has it. The
// formulas' table and the model presets go only where the view uses them, and the lesson's wasm
// module is cut to the exports the view calls (web/gen/view_wasm/<view>.js, tools/view_wasm.mjs),
// with the bindings of core/rope.js that need another export left out.
// (The element for posts, web/ropescope-embed.js and its chunks, is tools/split_element.mjs's.)
//   node tools/embed_views.mjs OUT_DIR
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { HEADS } from '../web/gen/figure_heads.js';
import { FIGURE_NAMES } from '../web/gen/figure_names.js';
import { viewChartParts, warmKind } from './chart_views.mjs';
import { pruneCss, writtenNames } from './css_prune.mjs';
import { COMPILE_HINT, figureOfInput, minifyCss } from './element_build.mjs';
import { ropeSourceFor } from './view_wasm.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIGURES_DIR = join(ROOT, 'web', 'src', 'figures');
const LOADERS_FILE = join(ROOT, 'web', 'gen', 'figure_loaders.js');
const VIEW_WASM_DIR = join(ROOT, 'web', 'gen', 'view_wasm');
// The exports of a view's cut module (tools/view_wasm.mjs lists them in its file).
const heldBy = async (view) => (await import(join(VIEW_WASM_DIR, `${view}.js`))).WASM_EXPORTS;
const LOADER_LINE = /^\s*"([a-z][a-z0-9-]*)": \(\) => import\('[^']*'\),$/gm;
const BANNER = `${COMPILE_HINT}/*! ropescope-embed.js, one view: the <rope-scope> element (MIT); includes Chart.js (MIT) */`;

/** gen/figure_loaders.js for `view` alone: its module imported statically (a one-view script
 *  needs no lazy load, whose wrappers cost about 2 KB), every other view left out, so the element
 *  holds that view alone (element.js's HELD) and says which script has the others. */
function loadersFor(view) {
  const lines = [...readFileSync(LOADERS_FILE, 'utf8').matchAll(LOADER_LINE)];
  if (lines.length !== FIGURE_NAMES.length || !lines.some(([, name]) => name === view)) {
    throw new Error(`embed_views: ${LOADERS_FILE} lists ${lines.length} loaders, not one per figure`);
  }
  return (
    `import * as only from '../src/figures/${view}.js';\n` +
    `export const LOADERS = { ${JSON.stringify(view)}: () => Promise.resolve(only) };\n`
  );
}

// Likewise element.js's import() of what it draws with (draw.js), made a static import.
const DRAW_IMPORT = "import('./draw.js')";
function elementSource(path) {
  const source = readFileSync(path, 'utf8');
  if (source.split(DRAW_IMPORT).length !== 2) throw new Error(`embed_views: ${path} has no single ${DRAW_IMPORT}`);
  return `import * as drawModule from './draw.js';\n${source.replace(DRAW_IMPORT, 'Promise.resolve(drawModule)')}`;
}

// A figure that draws formulas imports formulas/mathml.js (its formulaSlot or formulaBlock); the
// formulas' table (web/gen/formulas.js, about 4.5 KB) goes only into those views' scripts. The
// others never make a formula slot, so never read the table; were one to, the element would say
// "no formula named ..." (mathml.js).
const FORMULAS_IMPORT = /from '\.\.\/formulas\/mathml\.js'/;
const figureSource = (view) => readFileSync(join(FIGURES_DIR, `${view}.js`), 'utf8');
const drawsFormulas = (view) => FORMULAS_IMPORT.test(figureSource(view));
const NO_FORMULAS =
  '// No formula in this view (tools/embed_views.mjs).\n' +
  'export const FORMULAS = Object.freeze({});\nexport const FORMULA_TEX = Object.freeze({});\n';

// Nor does a view without formulas need formulas/mathml.js: its element never makes a formula
// slot, so never asks to fill one (element.js calls fillFormulas only where a slot is).
const NO_MATHML =
  '// No formula in this view (tools/embed_views.mjs).\nexport const fillFormulas = () => Promise.resolve();\n';

// And the model presets (model/long.js, with the configs' packed text): only a long-context view
// reads them. In another view's script the element takes them from this stub, which fills in no
// preset and drops no setting from the explorer link (where a long-context setting given in the
// address then stays, as given). A module of that view importing anything else of long.js would
// stop the build (no such export).
const LONG_VIEWS = HEADS.filter((head) => head.part === 'long').map((head) => head.name);
const NO_PRESETS =
  '// No model preset in this view (tools/embed_views.mjs).\n' +
  'export const fillFromPreset = () => {};\nexport const presetValuesDropped = (state) => ({ ...state });\n';

// Each view's measured embed heights (element/heights.js, for every view): a one-view script
// needs its own, and view=all's, from which measured.js derives its fallbacks.
async function heightsFor(view, path) {
  const { EMBED_WIDTHS, EMBED_CONTENT } = await import(path);
  const kept = { [view]: EMBED_CONTENT[view], all: EMBED_CONTENT.all };
  return (
    `// The embed heights of the view ${view} and of view=all alone (tools/embed_views.mjs).\n` +
    `export const EMBED_WIDTHS = ${JSON.stringify(EMBED_WIDTHS)};\n` +
    `export const EMBED_CONTENT = ${JSON.stringify(kept)};\n`
  );
}

// The rule reads the figure's own file: a helper module that drew formulas for figures would
// escape it, so the build stops if one appears.
function checkDrawnByFiguresOnly() {
  const SRC = join(ROOT, 'web', 'src');
  const ALLOWED = new Set([
    'element/element.js',
    'element/draw.js',
    'page/app.js',
    'formulas/mathml.js',
    'charts/figure.js',
  ]);
  for (const file of readdirSync(SRC, { recursive: true })) {
    if (!file.endsWith('.js') || ALLOWED.has(file) || FIGURE_NAMES.some((name) => file === `figures/${name}.js`))
      continue;
    const text = readFileSync(join(SRC, file), 'utf8');
    if (/formulas\/mathml\.js'/.test(text)) {
      throw new Error(`embed_views: web/src/${file} draws formulas: teach drawsFormulas`);
    }
  }
}

const onlyView = (view) => ({
  name: 'only-view',
  setup(b) {
    b.onLoad({ filter: /[\\/]web[\\/]gen[\\/]figure_loaders\.js$/ }, () => ({
      contents: loadersFor(view),
      loader: 'js',
      resolveDir: dirname(LOADERS_FILE),
    }));
    b.onLoad({ filter: /[\\/]web[\\/]src[\\/]element[\\/]element\.js$/ }, ({ path }) => ({
      contents: elementSource(path),
      loader: 'js',
      resolveDir: dirname(path),
    }));
    if (!LONG_VIEWS.includes(view)) {
      b.onLoad({ filter: /[\\/]web[\\/]src[\\/]model[\\/]long\.js$/ }, () => ({ contents: NO_PRESETS, loader: 'js' }));
    }
    // The warm-up chart of the kind the view draws, or none (tools/chart_views.mjs's warmKind).
    b.onLoad({ filter: /[\\/]web[\\/]src[\\/]element[\\/]warm_kind\.js$/ }, () => ({
      contents: `// The view ${view}'s warm-up chart (tools/embed_views.mjs).\nexport const WARM_KIND = ${JSON.stringify(warmKind(view))};\n`,
      loader: 'js',
    }));
    // Chart.js with the view's parts alone registered.
    b.onLoad({ filter: /[\\/]tools[\\/]chart_parts\.mjs$/ }, ({ path }) => ({
      contents: viewChartParts(view),
      loader: 'js',
      resolveDir: dirname(path),
    }));
    // And core/rope.js without the bindings whose exports that module lacks.
    b.onLoad({ filter: /[\\/]web[\\/]src[\\/]core[\\/]rope\.js$/ }, async ({ path }) => ({
      contents: ropeSourceFor(await heldBy(view), `the view ${view}`),
      loader: 'js',
      resolveDir: dirname(path),
    }));
    // The lesson's wasm module cut to what this view calls (tools/view_wasm.mjs).
    b.onLoad({ filter: /[\\/]web[\\/]gen[\\/]rope_wasm\.js$/ }, () => ({
      contents: readFileSync(join(VIEW_WASM_DIR, `${view}.js`), 'utf8'),
      loader: 'js',
      resolveDir: VIEW_WASM_DIR,
    }));
    if (!drawsFormulas(view)) {
      b.onLoad({ filter: /[\\/]web[\\/]gen[\\/]formulas\.js$/ }, () => ({ contents: NO_FORMULAS, loader: 'js' }));
      b.onLoad({ filter: /[\\/]web[\\/]src[\\/]formulas[\\/]mathml\.js$/ }, () => ({
        contents: NO_MATHML,
        loader: 'js',
      }));
    }
    b.onLoad({ filter: /[\\/]web[\\/]src[\\/]element[\\/]heights\.js$/ }, async ({ path }) => ({
      contents: await heightsFor(view, path),
      loader: 'js',
    }));
  },
});

// style.css goes in minified and cut to the rules this script can show (tools/css_prune.mjs): the
// build holds its place with a marker, and the rules are chosen by the code around it.
const STYLE_MARK = '__ropescope_style__';
const styleSlot = {
  name: 'style-slot',
  setup(b) {
    b.onLoad({ filter: /[\\/]web[\\/]style\.css$/ }, () => ({ contents: STYLE_MARK, loader: 'text' }));
  },
};
const STYLE = await minifyCss(readFileSync(join(ROOT, 'web', 'style.css'), 'utf8'));

function withStyle(code, view) {
  const slots = [...code.matchAll(new RegExp(`(["'\`])${STYLE_MARK}\\1`, 'g'))];
  if (slots.length !== 1)
    throw new Error(`embed_views: ${view}.js holds the stylesheet ${slots.length} times, not once`);
  const [{ index, 0: literal }] = slots;
  const { css } = pruneCss(STYLE, writtenNames(code.slice(0, index) + code.slice(index + literal.length)));
  return code.slice(0, index) + JSON.stringify(css) + code.slice(index + literal.length);
}

/** The element for `view` alone, as bytes; the build stops if it holds another figure's code. */
async function bundle(view) {
  const result = await build({
    entryPoints: [join(ROOT, 'web', 'src', 'element', 'element.js')],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2020',
    legalComments: 'eof',
    loader: { '.css': 'text' },
    logLevel: 'warning',
    banner: { js: BANNER },
    plugins: [styleSlot, onlyView(view)],
    metafile: true,
    write: false,
  });
  // The figures' files in the script: the view's, and those its own file imports (post.js
  // takes a part of planes.js), nothing else.
  const { inputs } = result.metafile;
  const reached = new Set();
  const visit = (input) => {
    if (reached.has(input) || !inputs[input]) return;
    reached.add(input);
    for (const i of inputs[input].imports) if (i.kind === 'import-statement') visit(i.path);
  };
  visit(Object.keys(inputs).find((input) => figureOfInput(input) === view));
  const held = Object.keys(inputs).filter(figureOfInput).sort();
  const own = [...reached].filter(figureOfInput).sort();
  if (held.join() !== own.join() || !own.length)
    throw new Error(`embed_views: ${view}.js holds the figures ${held.map(figureOfInput).join(', ')}`);
  return withStyle(result.outputFiles[0].text, view);
}

const [out] = process.argv.slice(2);
if (!out) {
  console.error('usage: node tools/embed_views.mjs OUT_DIR');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
checkDrawnByFiguresOnly();
await Promise.all(
  FIGURE_NAMES.map((view) => bundle(view).then((bytes) => writeFileSync(join(out, `${view}.js`), bytes))),
);
console.log(`embed_views: ${FIGURE_NAMES.length} one-view scripts in ${out}`);
