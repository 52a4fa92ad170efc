// The page's split script (web/split/, tools/split_page.mjs): each figure's code sits in a chunk
// that holds no other figure (but code one figure imports from another), the files the first
// chart needs hold the first chapter and the summary alone, and the first screen (the page, its
// stylesheet and those files, gzipped; not Chart.js, which the page fetches after its first screen
// is painted) stays within its goal (docs/PERFORMANCE.md).
// tests/browser/page.test.mjs checks that a load fetches exactly those files before its chart.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { HEADS } from '../../web/gen/figure_heads.js';
import { ROOT } from '../lib/testlib.mjs';

const WEB = join(ROOT, 'web');
const chunks = JSON.parse(readFileSync(join(WEB, 'split/chunks.json'), 'utf8'));
// The figures drawn before the first chart whatever the link: the first chapter and the summary.
const FIRST = [HEADS.find((h) => h.part === 'lesson').name, HEADS.find((h) => h.part === 'claim').name];
// The first screen's goal, gzipped (issue #34; docs/PERFORMANCE.md).
const FIRST_SCREEN_BUDGET = 90 * 1024;

test('each_figure_should_be_in_a_chunk_of_its_own_and_the_first_files_should_hold_the_first_figures', () => {
  assert.equal(chunks.entry, 'app.js');
  const holders = Object.fromEntries(HEADS.map((h) => [h.name, []]));
  for (const [file, names] of Object.entries(chunks.files)) for (const name of names) holders[name].push(file);
  for (const [name, files] of Object.entries(holders)) assert.equal(files.length, 1, `figure ${name} in ${files}`);
  // The first figures come in the entry; every other figure in a chunk of its own, named after it
  // (tools/split_page.mjs names a lazy module's chunk by its file; a figure another imports, as
  // the post's table imports the planes, has its code in a chunk the two share).
  for (const { name } of HEADS.filter((h) => !FIRST.includes(h.name))) {
    const own = Object.keys(chunks.files).find((file) => file.startsWith(`${name}-`));
    assert.ok(own, `figure ${name} has a chunk of its own`);
  }
  // The first chart waits on one file: the entry, which imports nothing statically.
  assert.deepEqual(chunks.first, ['app.js'], 'the entry is the one first file');
  const held = [...new Set(chunks.first.flatMap((file) => chunks.files[file]))].sort();
  assert.deepEqual(held, [...FIRST].sort(), 'the first files hold the first figures alone');
  for (const file of chunks.first) assert.ok(Object.hasOwn(chunks.files, file), `${file} is one of the build's`);
});

test('the_first_screen_should_stay_within_its_budget', () => {
  const gz = (path) => gzipSync(readFileSync(join(WEB, path))).length;
  const parts = {
    'index.html': gz('index.html'),
    'style.min.css': gz('style.min.css'),
    'split/ (first)': chunks.first.reduce((sum, file) => sum + gz(`split/${file}`), 0),
  };
  const total = Object.values(parts).reduce((a, b) => a + b, 0);
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `# first screen ${kb(total)} gzipped: ${Object.entries(parts)
      .map(([k, v]) => `${k} ${kb(v)}`)
      .join(', ')}`,
  );
  const page = readFileSync(join(WEB, 'index.html'), 'utf8');
  assert.ok(!page.includes('vendor/chart.js'), 'the page names no Chart.js: page/chartjs.js fetches it');
  assert.ok(total <= FIRST_SCREEN_BUDGET, `the first screen is ${kb(total)} gzipped, over ${kb(FIRST_SCREEN_BUDGET)}`);
});
