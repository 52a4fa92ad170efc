// One module graph as ES modules in OUT_DIR: the entry and everything it imports statically in
// ONE file, and every module it imports with import() as esbuild's split of its own, a chunk each,
// with the code they share and the entry does not hold in shared chunks. Used for the page
// (tools/split_page.mjs) and the <rope-scope> element (tools/split_element.mjs).
//
// Why one entry file: the first chart waits on one module (streamed and compiled off the main
// thread) rather than on a graph of small chunks each compiled and linked in turn (about 80 ms
// later so, 2-core machine).
//
// Two builds of the same modules, so that no module runs twice: the lazy chunks (the first build)
// take each module the entry holds from the entry, through `import { ... } from './<entry>'`
// (the entry, built second, exports those bindings under short names, and only those the chunks
// use: live bindings, as ES modules keep them).
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { figureOfInput } from './element_build.mjs';

/**
 * Splits `entryArg`'s graph into `outArg` (emptied first); `extra`: more esbuild options
 * (loaders, plugins, legalComments) for both builds. Returns { entryFile, files, held, used, entryMetafile,
 * chunksMetafile }: files maps each written file (relative to outArg) to the figures it holds.
 */
export async function split(entryArg, outArg, extra = {}) {
  const ENTRY = resolve(entryArg);
  const out = outArg;
  const ENTRY_FILE = basename(ENTRY); // app.js
  const OPTIONS = {
    legalComments: 'none',
    ...extra,
    bundle: true,
    format: 'esm',
    minify: true,
    target: 'es2020',
    logLevel: 'warning',
  };
  const abs = (path) => resolve(path);

  // ---- what the entry holds: its static closure, and the modules it imports with import() ----

  const { metafile: graph } = await build({
    ...OPTIONS,
    entryPoints: [ENTRY],
    metafile: true,
    write: false,
    outdir: out,
  });
  const inputs = Object.fromEntries(Object.entries(graph.inputs).map(([path, input]) => [abs(path), input]));
  const held = new Set(); // absolute paths of the modules in the entry's file
  const lazy = new Set(); // absolute paths of the modules it imports with import()
  (function hold(path) {
    if (held.has(path)) return;
    held.add(path);
    for (const i of inputs[path].imports) {
      if (i.external) continue;
      if (i.kind === 'import-statement') hold(abs(i.path));
      else if (i.kind === 'dynamic-import') lazy.add(abs(i.path));
    }
  })(ENTRY);
  for (const path of held) lazy.delete(path); // imported both ways: the entry has it

  // Each held module's exports (a build of each file alone lists them).
  const { metafile: own } = await build({
    entryPoints: [...held],
    bundle: false,
    format: 'esm',
    metafile: true,
    write: false,
    outdir: '/nonexistent',
    outbase: dirname(dirname(ENTRY)),
    logLevel: 'warning',
  });
  const exportsOf = new Map();
  for (const output of Object.values(own.outputs)) {
    if (output.entryPoint) exportsOf.set(abs(output.entryPoint), output.exports);
  }
  // A short, stable name for each held module's export, as the entry exports it: a, b, ... Z, aa,
  // ab, ... (export names are the entry's alone: they clash with no local name).
  const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const shortName = (n) =>
    n < LETTERS.length ? LETTERS[n] : shortName(Math.floor(n / LETTERS.length) - 1) + LETTERS[n % LETTERS.length];
  const alias = new Map(); // `${path}\0${name}` -> its short name
  for (const path of [...held].sort()) {
    for (const name of exportsOf.get(path) ?? []) alias.set(`${path}\0${name}`, shortName(alias.size));
  }

  // ---- the lazy chunks: each held module taken from the entry ----

  const FROM_ENTRY = 'ropescope-split-entry';
  const fromEntry = {
    name: 'from-entry',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${FROM_ENTRY}$`) }, () => ({ path: `./${ENTRY_FILE}`, external: true }));
      b.onResolve({ filter: /^\./ }, async (args) => {
        if (args.pluginData === 'inner') return undefined;
        const found = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: 'inner' });
        if (found.errors.length || !held.has(abs(found.path))) return undefined;
        return { path: abs(found.path), namespace: 'held' };
      });
      b.onLoad({ filter: /.*/, namespace: 'held' }, ({ path }) => {
        const names = exportsOf.get(path) ?? [];
        const list = names.map((name) => `${alias.get(`${path}\0${name}`)} as ${name}`);
        return { contents: `export { ${list.join(', ')} } from '${FROM_ENTRY}';\n`, loader: 'js' };
      });
    },
  };

  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const chunks = await build({
    ...OPTIONS,
    entryPoints: [...lazy],
    splitting: true,
    outdir: out,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    metafile: true,
    plugins: [...(extra.plugins ?? []), fromEntry],
  });
  // The file each lazy module became, and the entry's exports the chunks use. Every chunk that
  // imports the entry must be read here: a form of import the pattern missed would leave the entry
  // without an export a chunk needs.
  const lazyFile = new Map();
  const used = new Set();
  const IMPORT = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*"\\./${ENTRY_FILE.replace('.', '\\.')}"`, 'g');
  for (const [path, output] of Object.entries(chunks.metafile.outputs)) {
    if (output.entryPoint) lazyFile.set(abs(output.entryPoint), basename(path));
    const found = [...readFileSync(path, 'utf8').matchAll(IMPORT)];
    for (const [, names] of found) {
      for (const part of names.split(',')) used.add(part.trim().split(/\s+as\s+/)[0]);
    }
    const takes = output.imports.some((i) => i.external && i.path === `./${ENTRY_FILE}`);
    if (takes && found.length === 0) {
      throw new Error(`split: ${basename(path)} imports ${ENTRY_FILE} in a form this tool does not read`);
    }
  }
  for (const path of lazy) if (!lazyFile.has(path)) throw new Error(`split: no chunk for ${relative('.', path)}`);

  // ---- the entry: the page's script, exporting what the chunks take from it ----

  const reexports = [];
  for (const path of [...held].sort()) {
    const names = (exportsOf.get(path) ?? []).filter((name) => used.has(alias.get(`${path}\0${name}`)));
    if (names.length) {
      const list = names.map((name) => `${name} as ${alias.get(`${path}\0${name}`)}`).join(', ');
      reexports.push(`export { ${list} } from ${JSON.stringify(path)};`);
    }
  }
  const toChunks = {
    name: 'to-chunks',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === 'inner') return undefined;
        const found = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: 'inner' });
        const file = found.errors.length ? undefined : lazyFile.get(abs(found.path));
        return file ? { path: `./${file}`, external: true } : undefined;
      });
    },
  };
  const entry = await build({
    ...OPTIONS,
    // The entry's own module first, so every module runs in the order app.js imports them.
    stdin: {
      contents: `import ${JSON.stringify(ENTRY)};\n${reexports.join('\n')}\n`,
      resolveDir: dirname(ENTRY),
      sourcefile: 'split-entry.js', // not app.js: the metafile would take it for the module it imports
      loader: 'js',
    },
    outfile: join(out, ENTRY_FILE),
    metafile: true,
    plugins: [...(extra.plugins ?? []), toChunks],
  });

  // ---- chunks.json ----

  const figuresIn = (output) => Object.keys(output.inputs).map(figureOfInput).filter(Boolean);
  const files = {};
  for (const metafile of [entry.metafile, chunks.metafile]) {
    for (const [path, output] of Object.entries(metafile.outputs)) {
      if (path.endsWith('.js')) files[relative(abs(out), abs(path))] = figuresIn(output);
    }
  }
  const entryOutput = Object.entries(entry.metafile.outputs).find(
    ([path]) => abs(path) === abs(join(out, ENTRY_FILE)),
  )[1];
  const staticImports = entryOutput.imports.filter((i) => i.kind === 'import-statement');
  if (staticImports.length) throw new Error(`split: the entry imports ${staticImports.map((i) => i.path)} statically`);

  return { entryFile: ENTRY_FILE, files, held, used, entryMetafile: entry.metafile, chunksMetafile: chunks.metafile };
}
