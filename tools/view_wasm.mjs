#!/usr/bin/env node
// The lesson's wasm module cut to one view, for that view's one-view embed script
// (tools/embed_views.mjs): build/rope.wasm exports every function of c_src/exports.txt (47 KB),
// of which a view calls a handful; linked again with those alone, the linker keeps only what
// they reach (the claim's view: 12 KB, a quarter of the bytes gzipped).
//
// What a view calls is found two ways, and its module exports both:
//  - run: the view's figure computes its data, caption and label from the model, on the
//    defaults and on TRACE_STATES random states (a fixed seed: the build is reproducible), in a
//    Node process of its own with the whole module, which records every export read
//    (`trace VIEW`). The model computes only what a figure reads (model/model.js's getters), so
//    this is the part a reading of the source cannot tell.
//  - read: every binding of core/rope.js that the view's own files import (the figure's file and
//    the figure files it imports, which may call the core from a drag or a click), with the
//    exports each binding's code reaches in rope.js.
// Plus ALWAYS: what the element and the bindings may call at any setting (the rules' checks,
// both kinds of vectors, the error text, malloc and free).
// A call to an export a view's module lacks throws an error that names it (core/cut.js);
// tests/js/view_wasm.test.mjs runs every view on fresh random states against its module, with
// the seed printed. ropeSourceFor gives the script core/rope.js without the bindings its module
// cannot serve.
//   node tools/view_wasm.mjs OUT_DIR EMCC_COMMAND... -- OBJECTS...   (make: web/gen/view_wasm/,
//                                                                    the modules in build/views/)
//   node tools/view_wasm.mjs trace VIEW [SEED [STATES]]              (prints the exports called)
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from '../tests/lib/testlib.mjs';
import { pack } from './pack.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'web', 'src');
const ROPE_JS = join(SRC, 'core', 'rope.js');
// The linked modules (the packed ones are OUT_DIR's).
const WASM_DIR = join(ROOT, 'build', 'views');
export const TRACE_STATES = 40;
const BUILD_SEED = 34;
export const ALWAYS = [
  'malloc',
  'free',
  'rope_strerror',
  'rope_check_base',
  'rope_check_rotating',
  'rope_check_work',
  'rope_check_envelope_work',
  'rope_demo_vectors',
  'rope_random_vectors',
];

/** Every name c_src/exports.txt lists (the whole module's exports). */
export function allExports() {
  return readFileSync(join(ROOT, 'c_src', 'exports.txt'), 'utf8')
    .split('\n')
    .filter(Boolean);
}

// ---- read: the bindings a view's own files import ----

const DECLARATION = /^(export )?(?:async )?(function\*? |const |let )([A-Za-z_$][\w$]*)/gm;

/** rope.js's top-level functions and constants: name -> { wasm: exports named, uses: names,
 *  start, end (its text, up to the next declaration), exported, fn }. With `code` true, comments
 *  are left out of what a declaration names (a comment calls nothing). */
function ropeChunks({ code = false } = {}) {
  const text = readFileSync(ROPE_JS, 'utf8');
  const starts = [...text.matchAll(DECLARATION)];
  const chunks = new Map();
  starts.forEach((m, j) => {
    const end = j + 1 < starts.length ? starts[j + 1].index : text.length;
    chunks.set(m[3], { start: m.index, end, exported: Boolean(m[1]), fn: m[2].startsWith('function') });
  });
  const names = [...chunks.keys()];
  const table = new Map();
  for (const [name, chunk] of chunks) {
    let body = text.slice(chunk.start, chunk.end);
    if (code) body = body.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const wasm = [...body.matchAll(/\bwasm\.(rope_\w+|malloc|free)\b/g)].map((m) => m[1]);
    const uses = names.filter((other) => other !== name && new RegExp(`\\b${other}\\b`).test(body));
    table.set(name, { ...chunk, wasm, uses });
  }
  return table;
}

// What every binding may call, whatever it computes: the allocator, the error text, the rules.
const GENERIC = new Set([
  'malloc',
  'free',
  'rope_strerror',
  ...ALWAYS.filter((name) => name.startsWith('rope_check_')),
]);

/**
 * core/rope.js for a script whose wasm module holds `held` alone: each exported function whose
 * code reaches exports of its own (not only the allocator, the error text and the rules) and
 * none of them in the module, so that any call to it would fail, becomes a function that throws
 * saying so (one shared maker, cutBinding); the helpers only it used then fall out of the bundle
 * (tools/embed_views.mjs).
 */
export function ropeSourceFor(held, what) {
  const text = readFileSync(ROPE_JS, 'utf8');
  const table = ropeChunks({ code: true });
  const has = new Set(held);
  let out = '';
  let at = 0;
  for (const [name, chunk] of table) {
    if (!chunk.exported || !chunk.fn) continue;
    const own = new Set();
    for (const fn of reachedBy(table, name)) for (const w of table.get(fn).wasm) if (!GENERIC.has(w)) own.add(w);
    if (own.size === 0 || [...own].some((w) => has.has(w))) continue;
    out += `${text.slice(at, chunk.start)}export const ${name} = /* @__PURE__ */ cutBinding('${name}');\n\n`;
    at = chunk.end;
  }
  const thrower =
    `\nfunction cutBinding(name) {\n  return () => {\n` +
    `    throw new Error(\`\${name}: not in this script, which holds what ${what} calls; the explorer has every figure\`);\n` +
    '  };\n}\n';
  return out + text.slice(at) + thrower;
}

/** The exports binding `name`'s code reaches, through the rope.js functions it calls. */
function reachedBy(table, name, seen = new Set()) {
  if (seen.has(name) || !table.has(name)) return seen;
  seen.add(name);
  for (const other of table.get(name).uses) reachedBy(table, other, seen);
  return seen;
}

// The view's own files: its figure's file and the files of web/src it imports, except the
// model (model/), whose generic getters the run finds, and the core itself.
function ownFiles(view) {
  const files = new Set();
  const visit = (path) => {
    if (files.has(path)) return;
    files.add(path);
    const text = readFileSync(path, 'utf8');
    for (const [, spec] of text.matchAll(/^import[^;]*?from '(\.[^']+)'/gms)) {
      const next = resolve(dirname(path), spec);
      const rel = relative(SRC, next);
      if (rel.startsWith('..') || rel.startsWith('core/') || rel.startsWith('model/')) continue;
      visit(next);
    }
  };
  visit(join(SRC, 'figures', `${view}.js`));
  return [...files];
}

/** The exports the bindings that `view`'s own files import from core/rope.js reach. */
export function readExports(view) {
  const table = ropeChunks();
  const bindings = new Set();
  for (const path of ownFiles(view)) {
    const text = readFileSync(path, 'utf8');
    for (const m of text.matchAll(/^import \{([^}]*)\} from '[./]*core\/rope\.js'/gm)) {
      for (const name of m[1].split(',')) bindings.add(name.trim().split(/\s+as\s+/)[0]);
    }
    const star = /^import \* as (\w+) from '[./]*core\/rope\.js'/m.exec(text);
    // rope.X for a namespace import (a comment's 'rope.js' names nothing rope.js defines).
    if (star) {
      for (const m of text.matchAll(new RegExp(`\\b${star[1]}\\.(\\w+)`, 'g'))) if (table.has(m[1])) bindings.add(m[1]);
    }
  }
  const reached = new Set();
  for (const name of bindings) {
    if (!table.has(name)) throw new Error(`view_wasm: ${view} imports ${name}, which core/rope.js does not define`);
    for (const fn of reachedBy(table, name)) for (const w of table.get(fn).wasm) reached.add(w);
  }
  return [...reached];
}

// ---- run: what the view's figure calls while it computes ----

// A random value of a parameter of the settings' table: log-uniform over a wide range, a whole
// number where it is one, dim even.
function randomValue(row, random) {
  if (row.type === 'choice') return row.values ? row.values[Math.floor(random() * row.values.length)] : row.default;
  const lo = Math.max(row.min, 0);
  const wide = row.max > 100 * Math.max(lo, 1);
  let v =
    wide && random() < 0.7
      ? Math.max(lo, 1) * (row.max / Math.max(lo, 1)) ** random()
      : row.min + random() * (row.max - row.min);
  if (row.type === 'int') v = Math.floor(v);
  if (row.name === 'dim') v -= v % 2;
  return Math.min(row.max, Math.max(row.min, v));
}

/** The exports `view` reads while it computes, on the defaults and `states` random states. */
export async function traceExports(view, seed = BUILD_SEED, states = TRACE_STATES) {
  const called = new Set();
  const Instance = WebAssembly.Instance;
  WebAssembly.Instance = function traced(module, imports) {
    const instance = new Instance(module, imports);
    const { exports } = instance;
    // The files module (a long-context view's config reader) is not the one cut here.
    if (!('rope_lesson_cat' in exports)) return instance;
    const watched = new Proxy(exports, {
      get(target, key) {
        if (typeof target[key] === 'function') called.add(key);
        return target[key];
      },
    });
    return { exports: watched };
  };
  try {
    const { computeModel } = await import('../web/src/model/model.js');
    const { defaults, PARAMS } = await import('../web/src/state/state.js');
    const figure = (await import(`../web/src/figures/${view}.js`)).default;
    // A long-context view computes from the preset's reading (the element's fillFromPreset).
    const long = figure.part === 'long' ? await import('../web/src/model/long.js') : null;
    await long?.readerReady();
    const random = rng(seed);
    const moved = PARAMS.filter(
      (row) => ['dim', 'base', 'gap', 'seed', 'from', 'to', 'n'].includes(row.name) || figure.uses?.includes(row.name),
    );
    for (let j = 0; j <= states; j++) {
      const state = { ...defaults(), view };
      if (j > 0) {
        for (const row of moved) if (random() < 0.6) state[row.name] = randomValue(row, random);
        if (state.from > state.to) [state.from, state.to] = [state.to, state.from];
        if (random() < 0.4) state.seed = 0;
      }
      try {
        long?.fillFromPreset(state);
        const model = computeModel(state);
        const data = figure.data(model, state);
        figure.caption(state, model, data);
        figure.label(state, model, data);
      } catch {
        // A setting the page would refuse: the run goes on to the next state.
      }
    }
  } finally {
    WebAssembly.Instance = Instance;
  }
  const known = new Set(allExports());
  return [...called].filter((name) => known.has(name)).sort();
}

/** What `view`'s module exports: ALWAYS, what it reads and what it calls (a child process). */
function viewExports(view) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'trace', view], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('close', (code) => {
      if (code !== 0) return fail(new Error(`view_wasm: tracing ${view} failed (${code})`));
      const run = JSON.parse(out);
      done([...new Set([...ALWAYS, ...readExports(view), ...run])].sort());
    });
  });
}

// Two at a time, as the machine's two cores allow.
async function inTurns(items, work, width = 2) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const j = next++;
      results[j] = await work(items[j], j);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === 'trace') {
    const [, view, seed, states] = args;
    const names = await traceExports(view, seed ? Number(seed) : BUILD_SEED, states ? Number(states) : TRACE_STATES);
    process.stdout.write(JSON.stringify(names));
    return;
  }
  const cut = args.indexOf('--');
  if (args.length < 3 || cut < 2) {
    console.error('usage: node tools/view_wasm.mjs OUT_DIR EMCC_COMMAND... -- OBJECTS...');
    process.exit(2);
  }
  const [out, emcc, ...flags] = args.slice(0, cut);
  const objects = args.slice(cut + 1);
  const { FIGURE_NAMES } = await import('../web/gen/figure_names.js');
  mkdirSync(out, { recursive: true });
  mkdirSync(WASM_DIR, { recursive: true });
  const sets = await inTurns(FIGURE_NAMES, viewExports);
  // Views that call the same exports share one link.
  const linked = new Map();
  await inTurns(FIGURE_NAMES, async (view, j) => {
    const key = sets[j].join(',');
    if (!linked.has(key)) {
      const wasm = join(WASM_DIR, `${view}.wasm`);
      linked.set(
        key,
        new Promise((done, fail) => {
          const exported = `-sEXPORTED_FUNCTIONS=${sets[j].map((name) => `_${name}`).join(',')}`;
          const child = spawn(emcc, [...flags, exported, '-o', wasm, ...objects], { stdio: 'inherit' });
          child.on('close', (code) =>
            code === 0 ? done(readFileSync(wasm)) : fail(new Error(`view_wasm: linking ${view} failed`)),
          );
        }),
      );
    }
    const bytes = await linked.get(key);
    writeFileSync(
      join(out, `${view}.js`),
      `// Generated by make (tools/view_wasm.mjs): the lesson's wasm module cut to the view ${view}; do not edit.\n` +
        `/** The module's ${bytes.length} bytes, deflated, in base64 (web/src/core/packed.js unpacks them). */\n` +
        `export const WASM_PACKED =\n  '${pack(bytes)}';\n` +
        `import { cutModule } from '../../src/core/cut.js';\n` +
        `/** A call to an export this module lacks throws an error naming it and the view (core/cut.js). */\n` +
        `export const WASM_CUT = (exports, what) => cutModule(exports, what, ${JSON.stringify(`the view ${view}`)});\n` +
        `/** The exports it has: ${sets[j].length} of ${allExports().length}. */\n` +
        `export const WASM_EXPORTS = ${JSON.stringify(sets[j])};\n`,
    );
  });
  const sizes = FIGURE_NAMES.map((view) => readFileSync(join(out, `${view}.js`)).length);
  console.log(
    `view_wasm: ${FIGURE_NAMES.length} views, ${linked.size} modules, ${Math.min(...sizes)}-${Math.max(...sizes)} B of JS each in ${out}`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
