// The lesson's wasm module cut to each view (web/gen/view_wasm/<view>.js, tools/view_wasm.mjs),
// which that view's one-view embed script carries: each exports what its view calls at any
// setting, and the cut is real. The build found the exports on fixed states; here each view runs
// on fresh random ones (the seed printed), in a process of its own, against the module's real
// exports (read from its bytes, not from the list the build wrote).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { ALWAYS, allExports } from '../../tools/view_wasm.mjs';
import { FIGURE_NAMES } from '../../web/gen/figure_names.js';
import { WASM_PACKED as WHOLE } from '../../web/gen/rope_wasm.js';
import { cutModule } from '../../web/src/core/cut.js';
import { unpackBytes } from '../../web/src/core/packed.js';
import { wasmModule } from '../../web/src/core/wasm.js';
import { ROOT, rng, seed } from '../lib/testlib.mjs';

const TOOL = join(ROOT, 'tools', 'view_wasm.mjs');
const STATES = 25;

const exported = (packed) =>
  WebAssembly.Module.exports(new WebAssembly.Module(unpackBytes(packed)))
    .filter((e) => e.kind === 'function' && (e.name.startsWith('rope_') || e.name === 'malloc' || e.name === 'free'))
    .map((e) => e.name)
    .sort();

const cut = (view) => import(`../../web/gen/view_wasm/${view}.js`);

test('each_view_module_should_export_what_its_view_calls_on_random_states', async () => {
  const random = rng(seed('view_wasm'));
  for (const view of FIGURE_NAMES) {
    const viewSeed = Math.floor(random() * 2 ** 31);
    const called = JSON.parse(
      execFileSync(process.execPath, [TOOL, 'trace', view, String(viewSeed), String(STATES)], { encoding: 'utf8' }),
    );
    const has = exported((await cut(view)).WASM_PACKED);
    const missing = called.filter((name) => !has.includes(name));
    assert.deepEqual(missing, [], `${view} (seed ${viewSeed}) calls exports its module lacks`);
    for (const name of ALWAYS) assert.ok(has.includes(name), `${view}'s module lacks ${name}`);
  }
});

test('each_view_module_should_be_cut_to_less_than_the_whole', async () => {
  const whole = unpackBytes(WHOLE).length;
  const all = allExports();
  const sizes = {};
  for (const view of FIGURE_NAMES) {
    const { WASM_PACKED, WASM_CUT } = await cut(view);
    const names = exported(WASM_PACKED);
    assert.ok(names.length < all.length, `${view}: ${names.length} exports of ${all.length}`);
    for (const name of names) assert.ok(all.includes(name), `${view} exports ${name}, not in c_src/exports.txt`);
    assert.equal(typeof WASM_CUT, 'function', `${view}'s module is not guarded`);
    sizes[view] = unpackBytes(WASM_PACKED).length;
    assert.ok(sizes[view] < whole, `${view}: ${sizes[view]} B of ${whole}`);
  }
  // The claim's figure, the embed most posts carry, needs about a quarter; the largest (planes,
  // with NumPy's generator) two thirds.
  assert.ok(sizes.flatness < whole / 3, `flatness: ${sizes.flatness} B of ${whole}`);
  assert.ok(Math.max(...Object.values(sizes)) < (whole * 3) / 4, JSON.stringify(sizes));
});

test('a_call_to_an_export_a_cut_module_lacks_should_say_which_and_why', async () => {
  const { WASM_PACKED, WASM_CUT } = await cut('flatness');
  let exports = null;
  const module = wasmModule(
    WASM_PACKED,
    'core',
    (e) => {
      exports = e;
    },
    WASM_CUT,
  );
  // What it holds works through the guard.
  const ptr = module.callCore('malloc', (w) => w.malloc(16));
  assert.ok(ptr > 0);
  module.release('free', exports, [ptr]);
  assert.equal(typeof exports.rope_offset_envelope, 'function');
  assert.equal('rope_lesson_cat' in exports, false);
  assert.throws(
    () => module.callCore('lesson_cat', (w) => w.rope_lesson_cat(0, 0)),
    (err) =>
      /rope_lesson_cat is not in this script's WebAssembly core, which holds what the view flatness calls/.test(
        err.message,
      ),
  );
  // The guard alone: only rope_ names are refused; anything else reads through.
  const guarded = cutModule({ rope_a: 1 }, 'core', 'the view x');
  assert.equal(guarded.rope_a, 1);
  assert.equal(guarded.other, undefined);
  assert.throws(
    () => guarded.rope_b,
    /rope_b is not in this script's WebAssembly core, which holds what the view x calls/,
  );
});
