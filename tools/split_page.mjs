#!/usr/bin/env node
// The page's script as ES modules (web/split/, what web/index.html loads when served): ENTRY
// (page/app.js) and everything it imports statically in ONE file, the entry, so the first chart
// waits on one module (streamed and compiled off the main thread) rather than on a graph of small
// chunks each compiled and linked in turn (the first chart about 80 ms later so, 2-core machine);
// and every module app.js imports with import() (each figure's code, the later essays, the embed
// builder, the formulas...) as esbuild's split of its own, a chunk a figure, with the code they
// share and the entry does not hold in shared chunks.
//
// Two builds of the same modules, so that no module runs twice: the lazy chunks (the first build)
// take each module the entry holds from the entry, through `import { ... } from './app.js'`
// (the entry, built second, exports those bindings under short names, and only those the chunks
// use: live bindings, as ES modules keep them).
//
// Beside them, chunks.json: which figures each file holds (files: { file: [figure names] }), so a
// test can tell a figure's chunk from a shared one, and the files the first chart needs (first:
// the entry alone). The single file and dist/ropescope/ (opened from disk, where no module loads)
// use web/ropescope.js instead: the same modules in one classic script, its import()s inlined.
//   node tools/split_page.mjs ENTRY OUT_DIR
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { split } from './split.mjs';

const [entryArg, out] = process.argv.slice(2);
if (!entryArg || !out) {
  console.error('usage: node tools/split_page.mjs ENTRY OUT_DIR');
  process.exit(2);
}
const { entryFile, files, held, used } = await split(entryArg, out);
const summary = { entry: entryFile, first: [entryFile], files };
writeFileSync(join(out, 'chunks.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(
  `split_page: ${out}/${entryFile} (${held.size} modules, ${used.size} exports for the chunks) and ${Object.keys(files).length - 1} chunks`,
);
