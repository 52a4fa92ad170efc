// make dist: the page as files that open from disk (file://) or any static host.
//   dist/ropescope/     index.html + style.min.css + ropescope.js (the page's one script, built by make
//                       from web/*.js with the wasm bytes inside) + vendor/chart.js; embed.html (the
//                       iframe snippets' page: web/src/element/frame.js) + embed.css +
//                       embed-pictures.css + ropescope-embed.js; embed/<view>.html and .js (one
//                       view's document and script: tools/embed_page.mjs, tools/embed_views.mjs)
//   dist/ropescope.html everything inlined in one file (CSS, Chart.js, the page's script)
//   dist/ropescope-verify.js  the verify panel's script (web/src/verify/, its wasm inside), which
//                       the page loads beside itself at the panel's first use; also in
//                       dist/ropescope/
//   dist/ropescope-embed.js  the script defining <rope-scope> (web/src/element/element.js, split by
//                       make: tools/split_element.mjs), at most LOADER_BUDGET gzipped, and
//   dist/ropescope-embed/  the chunks it fetches from beside it (what it draws with: the wasm, the
//                       Chart.js parts in use, style.css; each view's figure), with the script at
//                       most EMBED_BUDGET bytes in all
//   dist/ropescope-resize.js  the host page's resizer for iframe embeds (web/ropescope-resize.js),
//                       also in dist/ropescope/, beside each page whose snippets name it
//   dist/pictures/      every view at its default settings, light and dark, PNG at 2x, rendered
//                       from dist/ropescope/ in embed mode (tools/pictures.mjs), and pictures.json
//   dist/oembed/<view>.json  a static oEmbed answer per view, for a host without make serve's
//                       /oembed, named by a discovery <link> in that view's embed document; the
//                       addresses in them are PUBLIC_URL's (make's, web/gen/public_url.js)
//   dist/npm/, dist/ropescope-<version>.tgz  the npm package (tools/npm_package.mjs): the element,
//                       the resizer, 1x pictures, LICENSE; under 1 MB packed
//   dist/v<version>/    all of the above again, the version from package.json: the snippets name
//                       these paths, so a published post keeps showing the release it was made with

import { copyFile, cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { FIGURE_NAMES } from '../web/gen/figure_names.js';
import { PUBLIC_URL } from '../web/gen/public_url.js';
import * as embed from '../web/src/element/embed.js';
import * as picture from '../web/src/element/picture.js';
import { FIGURE } from '../web/src/figures/index.js';
import { fillFromPreset, readerReady } from '../web/src/model/long.js';
import { readQuery } from '../web/src/state/state.js';
import { minifyCss } from './element_build.mjs';
import { classicPage, inlinePage } from './inline.mjs';
import { PACKAGE_BUDGET, writePackage } from './npm_package.mjs';
import { oembedJson } from './oembed.mjs';
import { writePictures } from './pictures.mjs';

// The snippets' alt texts are computed from every figure's code.
embed.useFigureRows((name) => FIGURE[name]);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'web');
const out = join(root, 'dist');
const folder = join(out, 'ropescope');
const pictures = join(out, 'pictures');
// What dist/v<version>/ holds: every file the snippets name, and the pages beside them.
const RELEASED = [
  'ropescope',
  'ropescope.html',
  'ropescope-verify.js',
  'ropescope-embed.js',
  'ropescope-embed',
  'ropescope-resize.js',
  'pictures',
  'oembed',
];
// The ceilings docs/PERFORMANCE.md gives, and why each is where it is; make dist (and so make
// test) fails past one. The page's rose from 470 KB to 500 KB with the lesson's essay and its
// chapter links, to 504 KB with the builder's choice of each snippet's picture (2 KB) and to 508 KB
// with the post's sub-points in the prose, the summary's words and Back and Forward (about 4 KB),
// the element's from 450 KB to 456 KB with the proof's algebra and the order
// chapter's three cases, rope.wasm's from 128 KB to 136 KB with the overflow messages that name their
// key and the lesson's proof terms (docs/PERFORMANCE.md). rope.wasm came down to 45.9 KB (48 KB)
// when the config reader, the scaling writers and the report writer moved to the files module,
// build/files.wasm (94.8 KB, 96 KB): the page and the element, one script each until the lazy
// page of issue #34 splits them, carry both modules, whose second copy of the math, the
// allocator and the plumbing they share cost 11-12 KB (page 508 -> 520 KB, element 456 -> 468 KB);
// the one-view scripts of the views without a config reader lost 52-60 KB each. The single file
// went to 530 KB (532 KB) when the page began loading each figure's code as the reader nears it:
// it carries every figure still, and with them the figures' heads (4.8 KB), one import() each
// (1.3 KB) and each module's wrapper that runs it on first use (about 2.6 KB); the served page
// fetches a figure's code only then. 533 KB (531.7 KB before) when the heatmap drew its cells
// as one picture (0.5 KB of code) instead of a rectangle per cell: its chart's update and drawing
// in 15 ms where they took 200 at the defaults (34 ms where 290 for the 8192 cells from dim 128).
// 537 KB (536.2 KB) when the first screen's miniature drew its plot itself and the served page
// began fetching Chart.js after that screen (about 4 KB of code and style).
const BUDGET = 537 * 1024;
// The element: its script and every chunk, 520 KB. It was one script of 468 KB at most; split
// (tools/split_element.mjs), each of its 47 files carries its own imports and exports, and the
// modules are minified apart, about 50 KB in all; a post fetches the script, what the element
// draws with and its views' chunks (make bench: about 134 KB gzipped for one view, against 213 KB
// for the one script). Its script alone (what every post with an element fetches first) at most
// 20 KB gzipped, issue #34's goal.
const EMBED_BUDGET = 520 * 1024;
const LOADER_BUDGET = 20 * 1024;
const WASM_BUDGET = 48 * 1024;
const FILES_WASM_BUDGET = 96 * 1024;

// What the single file holds inline, in page order; anything else would be a fetch from file://.
const INLINE = ['style.min.css', 'vendor/chart.js', 'ropescope.js'];

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  const [html, css, chart, script, elementJs, resizer, verifyJs] = await Promise.all([
    readFile(join(web, 'index.html'), 'utf8').then(classicPage),
    readFile(join(web, 'style.min.css'), 'utf8'),
    readFile(join(web, 'vendor', 'chart.js'), 'utf8'),
    readFile(join(web, 'ropescope.js'), 'utf8'),
    readFile(join(web, 'ropescope-embed.js'), 'utf8'),
    readFile(join(web, 'ropescope-resize.js'), 'utf8'),
    readFile(join(web, 'ropescope-verify.js'), 'utf8'),
  ]);

  await rm(folder, { recursive: true, force: true });
  await mkdir(join(folder, 'vendor'), { recursive: true });
  await mkdir(join(folder, 'embed'), { recursive: true });
  const written = [
    [join(folder, 'index.html'), html],
    [join(folder, 'style.min.css'), css],
    [join(folder, 'ropescope.js'), script],
    [join(folder, 'ropescope-resize.js'), resizer],
    [join(folder, 'ropescope-verify.js'), verifyJs],
    // The embed document the iframe snippets name, and what it loads beside it.
    [join(folder, 'embed.html'), await readFile(join(web, 'embed.html'), 'utf8')],
    // Minified: every embed fetches it (its comments are for whoever edits web/embed.css).
    [join(folder, 'embed.css'), await minifyCss(await readFile(join(web, 'embed.css'), 'utf8'))],
    [join(folder, 'embed-pictures.css'), await readFile(join(web, 'embed-pictures.css'), 'utf8')],
    [join(folder, 'ropescope-embed.js'), elementJs],
    // The one-view documents the snippets name and their scripts (tools/embed_page.mjs,
    // tools/embed_views.mjs), and their pictures' rules.
    [join(folder, 'embed', 'pictures.css'), await readFile(join(web, 'embed', 'pictures.css'), 'utf8')],
    ...(await Promise.all(
      FIGURE_NAMES.flatMap((view) =>
        [`${view}.html`, `${view}.js`].map(async (name) => [
          join(folder, 'embed', name),
          await readFile(join(web, 'embed', name), 'utf8'),
        ]),
      ),
    )),
  ];

  // The single file: everything inline, each inline script and the style allowed by its
  // hash (no 'unsafe-inline'), and 'self' kept for the verify panel's script beside it; the
  // rest of the policy is the page's.
  const files = { 'style.min.css': css, 'vendor/chart.js': chart, 'ropescope.js': script };
  const { html: single, inlined } = inlinePage(html, (path) => files[path] ?? '', { keepSelf: true });
  if (inlined.join() !== INLINE.join()) {
    throw new Error(`web/index.html: expected ${INLINE.join(', ')} inline, found ${inlined.join(', ') || 'none'}`);
  }
  written.push([join(out, 'ropescope.html'), single]);
  written.push([join(out, 'ropescope-verify.js'), verifyJs]);
  written.push([join(out, 'ropescope-embed.js'), elementJs]);
  // The element's chunks, beside each copy of its script.
  const chunkNames = (await readdir(join(web, 'ropescope-embed'))).filter((name) => name.endsWith('.js'));
  const chunks = await Promise.all(
    chunkNames.map(async (name) => [name, await readFile(join(web, 'ropescope-embed', name), 'utf8')]),
  );
  for (const dir of [folder, out]) {
    await rm(join(dir, 'ropescope-embed'), { recursive: true, force: true });
    await mkdir(join(dir, 'ropescope-embed'));
    for (const [name, text] of chunks) written.push([join(dir, 'ropescope-embed', name), text]);
  }
  written.push([join(out, 'ropescope-resize.js'), resizer]);

  for (const [path, text] of written) await writeFile(path, text);
  await copyFile(join(web, 'vendor', 'chart.js'), join(folder, 'vendor', 'chart.js'));

  const size = (text) => Buffer.byteLength(text);
  const rows = [
    ...written.map(([path, text]) => [path, size(text)]),
    [join(folder, 'vendor', 'chart.js'), size(chart)],
  ];
  // One line for each folder of the element's chunks, not one a chunk.
  for (const [path, bytes] of rows)
    if (!path.includes(`${sep}ropescope-embed${sep}`)) console.log(`${kb(bytes).padStart(9)}  ${relative(root, path)}`);
  for (const dir of [folder, out]) {
    const inDir = rows.filter(([path]) => dirname(path) === join(dir, 'ropescope-embed'));
    const total = inDir.reduce((a, [, b]) => a + b, 0);
    console.log(`${kb(total).padStart(9)}  ${relative(root, join(dir, 'ropescope-embed'))}/ (${inDir.length} chunks)`);
  }
  const folderTotal = rows.filter(([path]) => path.startsWith(`${folder}/`)).reduce((a, [, b]) => a + b, 0);
  const singleBytes = size(single);
  console.log(`${kb(folderTotal).padStart(9)}  dist/ropescope/ in total`);
  console.log(
    `page weight ${kb(singleBytes)} of a ${kb(BUDGET)} budget${singleBytes > BUDGET ? ' -- OVER BUDGET' : ''}`,
  );
  if (singleBytes > BUDGET) throw new Error(`dist/ropescope.html is ${kb(singleBytes)}, over its budget`);
  const wasmBytes = (await readFile(join(root, 'build', 'rope.wasm'))).length;
  console.log(`build/rope.wasm ${kb(wasmBytes)} of a ${kb(WASM_BUDGET)} budget`);
  if (wasmBytes > WASM_BUDGET) throw new Error(`build/rope.wasm is ${kb(wasmBytes)}, over its budget`);
  const filesWasmBytes = (await readFile(join(root, 'build', 'files.wasm'))).length;
  console.log(`build/files.wasm ${kb(filesWasmBytes)} of a ${kb(FILES_WASM_BUDGET)} budget`);
  if (filesWasmBytes > FILES_WASM_BUDGET) throw new Error(`build/files.wasm is ${kb(filesWasmBytes)}, over its budget`);
  const elementBytes = size(elementJs) + chunks.reduce((sum, [, text]) => sum + size(text), 0);
  console.log(`ropescope-embed.js and its ${chunks.length} chunks ${kb(elementBytes)} of a ${kb(EMBED_BUDGET)} budget`);
  if (elementBytes > EMBED_BUDGET) throw new Error(`the element is ${kb(elementBytes)} in all, over its budget`);
  const loaderBytes = gzipSync(elementJs, { level: 9 }).length;
  console.log(`ropescope-embed.js ${kb(loaderBytes)} gzipped of a ${kb(LOADER_BUDGET)} budget`);
  if (loaderBytes > LOADER_BUDGET)
    throw new Error(`dist/ropescope-embed.js is ${kb(loaderBytes)} gzipped, over its budget`);
  const oneView = written
    .filter(([path]) => path.startsWith(join(folder, 'embed') + sep) && path.endsWith('.js'))
    .map(([, text]) => size(text));
  console.log(`one-view scripts (embed/*.js): ${kb(Math.min(...oneView))} to ${kb(Math.max(...oneView))}`);

  // The pictures are files of their own: nothing of them goes into the page or its budget.
  const started = Date.now();
  const { rendered, manifest } = await writePictures(folder, pictures);
  const views = Object.values(manifest.views).flatMap((v) => [v, ...v.settings]);
  const bytes = await Promise.all(
    views.flatMap((v) => [v.light.file, v.dark.file]).map(async (f) => (await readFile(join(pictures, f))).length),
  );
  console.log(
    `${kb(bytes.reduce((a, b) => a + b, 0)).padStart(9)}  dist/pictures/: ${bytes.length} pictures ` +
      (rendered ? `rendered in ${((Date.now() - started) / 1000).toFixed(1)} s` : 'kept (the page did not change)'),
  );

  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  if (!/^\d+\.\d+\.\d+$/.test(version))
    throw new Error(`package.json: version ${JSON.stringify(version)} is not x.y.z`);

  // Static oEmbed: each view's answer at its defaults, as make serve's /oembed gives it for the
  // explorer at PUBLIC_URL, and a discovery <link> to it in the view's embed document (the
  // address a blogger pastes where the host serves dist/ as files).
  const explorer = `${PUBLIC_URL}ropescope/index.html`;
  const published = embed.releaseBase(explorer);
  await rm(join(out, 'oembed'), { recursive: true, force: true });
  await mkdir(join(out, 'oembed'));
  await readerReady();
  for (const view of FIGURE_NAMES) {
    const { state } = readQuery(`?view=${view}`);
    fillFromPreset(state);
    const json = oembedJson({ state, limits: {}, page: explorer, pictures: manifest, embed, picture, FIGURE });
    await writeFile(join(out, 'oembed', `${view}.json`), `${JSON.stringify(json)}\n`);
    const doc = join(folder, 'embed', `${view}.html`);
    const link =
      `<link rel="alternate" type="application/json+oembed" href="${published}oembed/${view}.json"` +
      ` title="ropescope: ${FIGURE[view].title.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
    await writeFile(doc, (await readFile(doc, 'utf8')).replace('</head>', `  ${link}\n</head>`));
  }
  console.log(`           dist/oembed/: ${FIGURE_NAMES.length} answers for ${published}`);
  const release = join(out, `v${version}`);
  await rm(release, { recursive: true, force: true });
  await mkdir(release);
  for (const name of RELEASED) await cp(join(out, name), join(release, name), { recursive: true });
  console.log(`           ${relative(root, release)}/: ${RELEASED.join(', ')}`);

  // The npm package (tools/npm_package.mjs): dist/npm/ packed, within its budget.
  const { tarball, bytes: packed } = await writePackage(out);
  console.log(
    `${kb(packed).padStart(9)}  ${relative(root, tarball)} (dist/npm/ packed) of a ${kb(PACKAGE_BUDGET)} budget`,
  );
}

main().catch((err) => {
  console.error(`dist: ${err.message}`);
  process.exit(1);
});
