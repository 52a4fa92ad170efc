#!/usr/bin/env node
// The page's script as ES modules split by esbuild (web/split/, what web/index.html loads when
// served): ENTRY (page/app.js) and the chunks it imports, each figure's code a chunk of its own
// (app.js loads it with import() as the reader nears the figure), and the shared code in chunks
// that several of them import. Beside them, chunks.json: which figures each file holds (files:
// { file: [figure names] }), so a test can tell a figure's chunk from a shared one, and the files
// the first chart needs (first: the entry and what it imports, the code of the figures drawn
// first among it), which the served page preloads (tools/inline.mjs) rather than
// finding each only when the file importing it arrives. The single file and dist/ropescope/ (opened from disk, where no module loads) use
// web/ropescope.js instead: the same modules in one classic script, its import()s inlined.
//   node tools/split_page.mjs ENTRY OUT_DIR
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { build } from 'esbuild';
import { FIGURE_NAMES } from '../web/gen/figure_names.js';

const [entry, out] = process.argv.slice(2);
if (!entry || !out) {
  console.error('usage: node tools/split_page.mjs ENTRY OUT_DIR');
  process.exit(2);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const { metafile } = await build({
  entryPoints: [entry],
  bundle: true,
  format: 'esm',
  splitting: true,
  minify: true,
  target: 'es2020',
  legalComments: 'none',
  logLevel: 'warning',
  outdir: out,
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  metafile: true,
});

// A figure's file: web/src/figures/<name>.js, for a name of the figures' table.
const FIGURE_FILE = /(?:^|\/)web\/src\/figures\/([a-z][a-z0-9-]*)\.js$/;
const files = {};
for (const [path, output] of Object.entries(metafile.outputs)) {
  if (!path.endsWith('.js')) continue;
  files[relative(out, path)] = Object.keys(output.inputs)
    .map((input) => FIGURE_FILE.exec(input)?.[1])
    .filter((name) => name && FIGURE_NAMES.includes(name));
}
const statics = (file) =>
  metafile.outputs[join(out, file)].imports
    .filter((i) => i.kind === 'import-statement')
    .map((i) => relative(out, i.path));
const first = [];
const need = (file) => {
  if (first.includes(file)) return;
  first.push(file);
  for (const next of statics(file)) need(next);
};
need(basename(entry)); // with the first chapter's and the summary's code (gen/figure_first.js)
const chunks = { entry: basename(entry), first, files };
writeFileSync(join(out, 'chunks.json'), `${JSON.stringify(chunks, null, 2)}\n`);
console.log(`split_page: ${out}/${basename(entry)} and ${Object.keys(files).length - 1} chunks`);
