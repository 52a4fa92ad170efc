// The <rope-scope> element for posts (web/ropescope-embed.js and the chunks beside it,
// tools/split_element.mjs): its script stays within 20 KB gzipped; each chunk is a classic script
// that registers itself under its own name; the script's table of what each chunk needs is the
// build's; and a view's chunk, with all it needs, holds no other view's figure, so a post showing
// one view fetches nothing of the others (tests/browser/element.test.mjs watches a post do so),
// and a view that shows no model preset fetches none of their data.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { HEADS } from '../../web/gen/figure_heads.js';
import { FIGURE_NAMES } from '../../web/gen/figure_names.js';
import { closureOf, ROOT } from '../lib/testlib.mjs';

const WEB = join(ROOT, 'web');
const DIR = join(WEB, 'ropescope-embed');
const SCRIPT = readFileSync(join(WEB, 'ropescope-embed.js'), 'utf8');
const chunks = JSON.parse(readFileSync(join(DIR, 'chunks.json'), 'utf8'));
const LOADER_BUDGET = 20 * 1024; // issue #34's goal, gzipped

/** `files` and every file they need, in turn. */
const closure = (files) => closureOf(files, (file) => chunks.needs[file]);

test('the_elements_script_should_stay_within_20_kb_gzipped', () => {
  const bytes = gzipSync(SCRIPT, { level: 9 }).length;
  assert.ok(bytes <= LOADER_BUDGET, `ropescope-embed.js is ${(bytes / 1024).toFixed(1)} KB gzipped`);
  // It is the small part: no Chart.js, no wasm, no figure.
  assert.ok(!SCRIPT.includes('chart.js v'), 'no Chart.js in the script');
  assert.ok(bytes < 40 * 1024 && SCRIPT.length < 120 * 1024, 'no wasm in the script');
});

test('every_chunk_should_register_itself_and_the_scripts_table_should_be_the_builds', () => {
  const files = readdirSync(DIR).filter((file) => file.endsWith('.js'));
  assert.deepEqual(files.sort(), Object.keys(chunks.needs).sort(), 'chunks.json lists every chunk');
  for (const file of files) {
    const text = readFileSync(join(DIR, file), 'utf8');
    assert.ok(
      text.includes(`(self.ropescopeChunks=self.ropescopeChunks||{})[${JSON.stringify(file)}]=function(`),
      `${file} registers itself under its name`,
    );
    assert.ok(!/\bimport\s*\(|\bimport\.meta\b|^\s*(import|export)\s/m.test(text), `${file} is a classic script`);
    for (const need of chunks.needs[file])
      assert.ok(existsSync(join(DIR, need)), `${file} needs ${need}, which is there`);
  }
  const table = /var NEEDS=(\{.*?\}),own=/.exec(SCRIPT);
  assert.ok(table, "the script holds the chunks' table");
  assert.deepEqual(JSON.parse(table[1]), chunks.needs, "the script's table is chunks.json's");
});

test('a_views_chunk_and_all_it_needs_should_hold_no_other_views_figure', () => {
  const holders = Object.fromEntries(FIGURE_NAMES.map((name) => [name, []]));
  for (const [file, names] of Object.entries(chunks.files)) for (const name of names) holders[name].push(file);
  const draw = Object.keys(chunks.needs).find((file) => file.startsWith('draw-'));
  assert.ok(draw, 'what the element draws with is a chunk of its own');
  assert.deepEqual(chunks.files[draw], [], 'and holds no figure');
  for (const name of FIGURE_NAMES) {
    const own = Object.keys(chunks.files).find((file) => file.startsWith(`${name}-`));
    assert.ok(own, `view ${name} has a chunk of its own`);
    const figures = [...new Set(closure([draw, own]).flatMap((file) => chunks.files[file] ?? []))].sort();
    // A figure another imports (the post's table takes a part of the planes) comes with it.
    const source = readFileSync(join(WEB, 'src', 'figures', `${name}.js`), 'utf8');
    const imported = [...source.matchAll(/from '\.\/([a-z][a-z0-9-]*)\.js'/g)].map((m) => m[1]);
    const allowed = [name, ...imported.filter((other) => FIGURE_NAMES.includes(other))].sort();
    assert.deepEqual(figures, allowed, `view ${name}: the figures a post showing it fetches`);
  }
});

test('a_view_that_shows_no_preset_should_fetch_no_presets_data', () => {
  // The model configs' packed text (web/gen/models.js), a piece of it long enough to be unique.
  const packed = /const PACKED = '([^']{60})/.exec(readFileSync(join(WEB, 'gen', 'models.js'), 'utf8'))[1];
  const holding = Object.keys(chunks.needs).filter((file) => readFileSync(join(DIR, file), 'utf8').includes(packed));
  assert.equal(holding.length, 1, `one chunk holds the presets' data (${holding})`);
  assert.ok(!SCRIPT.includes(packed), 'not the script');
  const draw = Object.keys(chunks.needs).find((file) => file.startsWith('draw-'));
  const shown = HEADS.filter((head) => head.part !== 'long');
  assert.ok(shown.length > 20, 'the lesson and the other views');
  for (const { name } of shown) {
    const own = Object.keys(chunks.files).find((file) => file.startsWith(`${name}-`));
    assert.ok(!closure([draw, own]).includes(holding[0]), `view ${name} fetches no presets`);
  }
});
