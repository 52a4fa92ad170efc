// The rooms of web/src import one another one way only: no room reaches, through others, back
// into itself, and no module imports itself through others. A circle between rooms is what keeps
// a chunk from loading alone (a figure's chunk that needs the page needs every figure the page
// imports), so it fails here, named with the files that close it.
//
// Every `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')` with a literal
// path in web/src/**/*.js is read; a relative path is resolved against its file. A file's room is
// its first folder under web/src. Imports that leave web/src (web/gen, web/vendor, packages) are
// left out: generated and vendored modules, not rooms.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../lib/testlib.mjs';

const SRC = join(ROOT, 'web/src');

/** Every .js file under dir, as paths relative to web/src with '/' separators. */
function modules(dir = SRC) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...modules(path));
    else if (entry.name.endsWith('.js')) found.push(relative(SRC, path).split('\\').join('/'));
  }
  return found.sort();
}

/** The literal specifiers a module's source imports, statically or dynamically. */
function specifiers(source) {
  // Comments out first, so a commented-out import is not one; a line comment only where it
  // starts a line or follows code after whitespace, so '//' inside a URL string stays.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
  const found = [];
  const fixed = /^\s*(?:import|export)\s+(?:[\w$*{},\s]+?\s+from\s*)?(['"])([^'"\n]+)\1/gm;
  for (const match of code.matchAll(fixed)) found.push(match[2]);
  for (const match of code.matchAll(/\bimport\(\s*(['"`])([^'"`$\n]+)\1\s*\)/g)) found.push(match[2]);
  return found;
}

/** file -> the files under web/src it imports (relative paths only; the rest are leaves). */
function fileGraph() {
  const graph = new Map();
  const dangling = [];
  for (const file of modules()) {
    const targets = new Set();
    for (const spec of specifiers(readFileSync(join(SRC, file), 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = relative(SRC, resolve(SRC, dirname(file), spec))
        .split('\\')
        .join('/');
      if (target.startsWith('..')) continue;
      if (!existsSync(join(SRC, target))) dangling.push(`${file} imports ${spec}`);
      else targets.add(target);
    }
    graph.set(file, targets);
  }
  return { graph, dangling };
}

const roomOf = (file) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '.');

/**
 * The circles of a directed graph (Map node -> Set of nodes): in each strongly connected part
 * with more than one node or a self-edge, the shortest circle through each of its nodes, as a
 * node list that starts at its first node in sort order and comes back to it ([a, b, a]).
 */
function circles(graph) {
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flatMap((s) => [...s])])].sort();
  const next = (n) => [...(graph.get(n) ?? [])].sort();
  // Tarjan's strongly connected components, iterative so a deep chain cannot overflow the stack.
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const parts = [];
  let counter = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work = [[root, 0]];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      const out = next(node);
      if (i < out.length) {
        frame[1]++;
        const to = out[i];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push([to, 0]);
        } else if (onStack.has(to)) {
          low.set(node, Math.min(low.get(node), index.get(to)));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const part = [];
        let top;
        do {
          top = stack.pop();
          onStack.delete(top);
          part.push(top);
        } while (top !== node);
        parts.push(part.sort());
      }
    }
  }
  const found = new Map();
  for (const part of parts) {
    if (part.length === 1 && !next(part[0]).includes(part[0])) continue;
    const inside = new Set(part);
    for (const start of part) {
      // Breadth first inside the part, from start back to start: the shortest circle through it.
      const from = new Map();
      const queue = [start];
      let closing = null;
      while (queue.length && closing === null) {
        const node = queue.shift();
        for (const to of next(node)) {
          if (!inside.has(to)) continue;
          if (to === start) {
            closing = node;
            break;
          }
          if (!from.has(to)) {
            from.set(to, node);
            queue.push(to);
          }
        }
      }
      const path = [start];
      for (let n = closing; n !== start; n = from.get(n)) path.splice(1, 0, n);
      // The same circle found from another of its nodes is told once, from its first node.
      const first = path.indexOf([...path].sort()[0]);
      const turned = [...path.slice(first), ...path.slice(0, first)];
      found.set(turned.join('\0'), [...turned, turned[0]]);
    }
  }
  return [...found.keys()].sort().map((key) => found.get(key));
}

/** A room circle in words, each step with the first import (file -> file) that makes it. */
function describe(circle, graph) {
  const via = [];
  for (let i = 0; i + 1 < circle.length; i++) {
    const [a, b] = [circle[i], circle[i + 1]];
    const edge = [...graph]
      .flatMap(([file, targets]) => [...targets].map((to) => [file, to]))
      .find(([file, to]) => roomOf(file) === a && roomOf(to) === b);
    via.push(`${edge[0]} -> ${edge[1]}`);
  }
  return `${circle.join(' -> ')}, via ${via.join(' and ')}`;
}

test('circles_should_find_a_circle_through_other_nodes_and_none_in_a_chain', () => {
  // 'a>b b>c' is the graph a -> b, b -> c.
  const g = (edges) => {
    const map = new Map();
    for (const [a, b] of edges.split(' ').map((edge) => edge.split('>'))) map.set(a, (map.get(a) ?? new Set()).add(b));
    return map;
  };
  assert.deepEqual(circles(g('a>b b>c c>d')), []);
  assert.deepEqual(circles(g('a>b b>c c>a c>d')), [['a', 'b', 'c', 'a']]);
  assert.deepEqual(circles(g('x>x')), [['x', 'x']]);
  // Two separate parts are both reported, with the shortest circle through each node.
  const two = circles(g('p>q q>p q>r r>s s>r p>z z>q'));
  assert.deepEqual(two, [
    ['p', 'q', 'p'],
    ['p', 'z', 'q', 'p'],
    ['r', 's', 'r'],
  ]);
});

test('specifiers_should_read_every_import_form_and_skip_comments', () => {
  const source = [
    "import { a, b as c } from './one.js';",
    'import * as all from "../two/two.js";',
    "import './three.js';",
    'import {',
    '  d,',
    '  e,',
    "} from './four.js';",
    "export { f } from './five.js';",
    "export * from './six.js';",
    "const later = () => import('./seven.js');",
    "// import { gone } from './commented.js';",
    "/* import x from './block.js'; */",
    "const url = 'https://example.org/x'; // a URL, not an import",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
    'const dynamic = import(`./${name}.js`);',
    "const notAnImport = Array.from('abc');",
  ].join('\n');
  assert.deepEqual(specifiers(source), [
    './one.js',
    '../two/two.js',
    './three.js',
    './four.js',
    './five.js',
    './six.js',
    './seven.js',
  ]);
});

test('every_relative_import_in_web_src_should_name_a_file', () => {
  const { graph, dangling } = fileGraph();
  assert.ok(graph.size > 50, `only ${graph.size} modules found under web/src`);
  assert.deepEqual(dangling, [], 'imports that name no file');
});

test('rooms_of_web_src_should_not_import_each_other_in_a_circle', () => {
  const { graph } = fileGraph();
  const rooms = new Map();
  for (const [file, targets] of graph) {
    const from = roomOf(file);
    if (!rooms.has(from)) rooms.set(from, new Set());
    for (const to of targets) if (roomOf(to) !== from) rooms.get(from).add(roomOf(to));
  }
  assert.ok(rooms.size >= 5, `only ${rooms.size} rooms found under web/src`);
  const found = circles(rooms).map((circle) => describe(circle, graph));
  assert.deepEqual(found, [], `rooms that import each other in a circle:\n  ${found.join('\n  ')}`);
});

test('modules_of_web_src_should_not_import_each_other_in_a_circle', () => {
  const { graph } = fileGraph();
  const found = circles(graph).map((circle) => circle.join(' -> '));
  // One circle through each module of a knot can be many: the first ten tell where to look.
  const shown = found.length > 10 ? [...found.slice(0, 10), `and ${found.length - 10} more`] : found;
  assert.equal(found.length, 0, `modules that import each other in a circle:\n  ${shown.join('\n  ')}`);
});
