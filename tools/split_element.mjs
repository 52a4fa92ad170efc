#!/usr/bin/env node
// The <rope-scope> element for posts: OUT (web/ropescope-embed.js), the one script a post names,
// and OUT's folder beside it (web/ropescope-embed/), whose files it fetches as an element first
// needs them: what the element draws with (element/draw.js: Chart.js, the core, style.css) and
// each view's figure, a chunk each, and the code they share in shared chunks. A post showing one
// view fetches the script, the shared chunks and that view's chunk; nothing of the other views.
//
// The graph is split as ES modules first (tools/split.mjs: the entry, element.js and what it
// imports statically, in one file; each import() a chunk), then each file is made a classic
// script, since modules do not load from file:// and a classic script loads everywhere a post
// can be opened. Each chunk registers its module's body, a function, under its file name in one
// table on the window (self.ropescopeChunks); the script holds a small loader which, at an
// import(), adds a <script> for each file the chunk needs that is not here yet (from the folder
// beside it, with the script's nonce), then runs the chunk's body with the imports it asked for.
// Where the folder is: beside the script when a script tag loads it by its name; an inline copy
// of it (no src): beside the page; bundled into another script or imported as a module, the
// release at PUBLIC_URL (make's, web/gen/public_url.js), as element.js finds the explorer, unless
// the page names the folder in self.ropescopeChunksBase before an element first draws (a site
// that bundles the element and serves the folder itself).
// No eval, no blob: a host's CSP lets it run where script-src allows the script's origin and
// 'wasm-unsafe-eval' (docs/EMBEDDING.md).
//
// Beside the chunks, chunks.json: which figures each file holds, each file's static imports
// (needs) and the files it may import() later (later).
//   node tools/split_element.mjs ENTRY OUT
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { transform } from 'esbuild';
import { PUBLIC_URL } from '../web/gen/public_url.js';
import { COMPILE_HINT, minifiedCss } from './element_build.mjs';
import { split } from './split.mjs';

const [entryArg, outArg] = process.argv.slice(2);
if (!entryArg || !outArg?.endsWith('.js')) {
  console.error('usage: node tools/split_element.mjs ENTRY OUT.js');
  process.exit(2);
}
const OUT = resolve(outArg);
const DIR = basename(OUT, '.js'); // the chunks' folder, beside OUT
const CHUNKS = join(resolve(OUT, '..'), DIR);
const BANNER = '/*! ropescope-embed.js: the <rope-scope> element (MIT); its chunks include Chart.js (MIT) */';
const TABLE = 'self.ropescopeChunks';

const temp = mkdtempSync(join(tmpdir(), 'ropescope-element-'));
try {
  const { entryFile, files, entryMetafile, chunksMetafile } = await split(entryArg, temp, {
    loader: { '.css': 'text' },
    plugins: [minifiedCss],
    // The licences of what the chunks bundle (Chart.js, chartjs-chart-matrix, fflate) stay in
    // them, at the end of each file that holds their code.
    legalComments: 'eof',
  });
  // Each file's imports, static (needed before it runs) and import()s, from esbuild's metafiles.
  const outputs = {};
  for (const metafile of [entryMetafile, chunksMetafile]) {
    for (const [path, output] of Object.entries(metafile.outputs)) {
      if (!path.endsWith('.js')) continue;
      const of = (kind) => output.imports.filter((i) => i.kind === kind).map((i) => basename(i.path));
      outputs[basename(path)] = { needs: of('import-statement'), later: of('dynamic-import') };
    }
  }
  const written = readdirSync(temp).filter((file) => file.endsWith('.js'));
  if (written.sort().join() !== Object.keys(outputs).sort().join())
    throw new Error('split_element: the files written are not those esbuild listed');

  rmSync(CHUNKS, { recursive: true, force: true });
  mkdirSync(CHUNKS, { recursive: true });
  const needs = {};
  const later = {};
  let entryBody = null;
  for (const file of written) {
    const body = await classicBody(file, readFileSync(join(temp, file), 'utf8'), outputs[file]);
    if (file === entryFile) {
      entryBody = body;
      continue;
    }
    needs[file] = outputs[file].needs.filter((need) => need !== entryFile);
    later[file] = outputs[file].later;
    writeFileSync(
      join(CHUNKS, file),
      `${COMPILE_HINT}(${TABLE}=${TABLE}||{})[${JSON.stringify(file)}]=function(module,exports,require,__rs_import){${body}};\n`,
    );
  }
  // The loader knows each chunk's static imports: it fetches them together.
  writeFileSync(OUT, `${COMPILE_HINT}${BANNER}\n${loaderScript(entryFile, entryBody, needs)}`);
  const figures = Object.fromEntries(Object.entries(files).filter(([file]) => file !== entryFile));
  writeFileSync(
    join(CHUNKS, 'chunks.json'),
    `${JSON.stringify({ script: basename(OUT), entry: entryFile, needs, later, files: figures }, null, 2)}\n`,
  );
  console.log(`split_element: ${outArg} and ${written.length - 1} chunks in ${DIR}/`);
} finally {
  rmSync(temp, { recursive: true, force: true });
}

/**
 * An ES module esbuild wrote, as the body of a function (module, exports, require, __rs_import):
 * its import()s become __rs_import() (the loader's), then esbuild makes it CommonJS (static
 * imports become require(), exports module.exports, with live bindings kept as getters).
 */
async function classicBody(file, source, { later }) {
  const IMPORT_CALL = /\bimport\(("\.\/[\w.-]+\.js")\)/g;
  const calls = [...source.matchAll(IMPORT_CALL)].map((m) => JSON.parse(m[1]).slice(2));
  if ([...new Set(calls)].sort().join() !== [...new Set(later)].sort().join())
    throw new Error(`split_element: ${file}: its import()s (${calls}) are not esbuild's (${later})`);
  const renamed = source.replace(IMPORT_CALL, '__rs_import($1)');
  const { code } = await transform(renamed, { format: 'cjs', minify: true, target: 'es2020', legalComments: 'eof' });
  if (/\bimport\s*\(|\bimport\.meta\b/.test(code))
    throw new Error(`split_element: ${file}: an import() or import.meta is left in its classic form`);
  return code;
}

/** The script a post names: the loader around the entry's body, which runs at once. */
function loaderScript(entryFile, body, needs) {
  return `(function(){
var NEEDS=${JSON.stringify(needs)},own=document.currentScript,src=own&&own.src,
found=new URL(${JSON.stringify(`${DIR}/`)},!own?${JSON.stringify(PUBLIC_URL)}:!src?location.href:new URL(src).pathname.endsWith(${JSON.stringify(`/${basename(OUT)}`)})?src:${JSON.stringify(PUBLIC_URL)}).href,
nonce=own&&own.nonce||"",table=${TABLE}=${TABLE}||{},modules={},fetching={};
function name(path){return path.replace(/^\\.\\//,"")}
function fetchChunk(file){
if(table[file])return Promise.resolve();
if(fetching[file])return fetching[file];
var named=self.ropescopeChunksBase,base=found;
if(typeof named=="string")try{base=new URL(named.slice(-1)=="/"?named:named+"/",location.href).href}
catch(e){return Promise.reject(new Error("ropescopeChunksBase "+JSON.stringify(named.slice(0,100))+" is not an address"))}
return fetching[file]=new Promise(function(resolve,reject){
var script=document.createElement("script");
script.src=base+file;if(nonce)script.nonce=nonce;
script.onload=function(){script.remove();if(table[file])resolve();else failed()};
script.onerror=function(){script.remove();failed()};
function failed(){delete fetching[file];reject(new Error("could not load "+script.src+" (the ${DIR}/ folder goes beside ${basename(OUT)})"))}
(document.head||document.documentElement).appendChild(script)})}
function require(path){var file=name(path),module=modules[file];
if(!module){module=modules[file]={exports:{}};table[file](module,module.exports,require,__rs_import)}
return module.exports}
function __rs_import(path){var file=name(path),all=[file];
for(var i=0;i<all.length;i++)(NEEDS[all[i]]||[]).forEach(function(n){if(all.indexOf(n)<0)all.push(n)});
return Promise.all(all.map(fetchChunk)).then(function(){return require(file)})}
var module=modules[${JSON.stringify(entryFile)}]={exports:{}};
(function(module,exports){${body}})(module,module.exports);
})();
`;
}
