// The core's two WebAssembly modules: each exports exactly its list (c_src/exports.txt for the
// lesson's, build/rope.wasm; c_src/files_exports.txt for the files module, build/files.wasm), so
// the lesson's module carries no config reader, no scaling writer and no report writer, and
// files.js's ready() makes its module from the bytes the runtime inflates.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { WASM_PACKED as FILES_PACKED } from '../../web/gen/files_wasm.js';
import { WASM_PACKED as ROPE_PACKED } from '../../web/gen/rope_wasm.js';
import * as files from '../../web/src/core/files.js';
import { unpackBytes } from '../../web/src/core/packed.js';
import { ROOT } from '../lib/testlib.mjs';

const list = (file) =>
  readFileSync(join(ROOT, 'c_src', file), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

// The C functions a module exports (the linker's own, memory and the like, left out).
const exported = (packed) =>
  WebAssembly.Module.exports(new WebAssembly.Module(unpackBytes(packed)))
    .filter((e) => e.kind === 'function' && (e.name.startsWith('rope_') || e.name === 'malloc' || e.name === 'free'))
    .map((e) => e.name)
    .sort();

test('each_module_should_export_exactly_its_list', () => {
  assert.deepEqual(exported(ROPE_PACKED), list('exports.txt').sort());
  assert.deepEqual(exported(FILES_PACKED), list('files_exports.txt').sort());
});

test('the_lesson_module_should_hold_no_config_reader_or_file_writer', () => {
  const names = exported(ROPE_PACKED);
  for (const name of ['rope_config_read_json', 'rope_scaling_write', 'rope_report_write']) {
    assert.ok(!names.includes(name), `${name} is in the lesson's module`);
  }
  // jansson's and strtod's code is not linked in: the module is under half its former size.
  const bytes = unpackBytes(ROPE_PACKED).length;
  assert.ok(bytes <= 48 * 1024, `build/rope.wasm is ${bytes} B, over make dist's 48 KB`);
});

test('files_ready_should_make_the_module_and_its_functions_should_answer', async () => {
  await files.ready();
  const read = files.scaling_from_config({ head_dim: 8, rope_theta: 10000 });
  assert.equal(read.pairs.length, 4);
  assert.equal(read.pairs[0].inv_freq, 1);
  assert.match(files.build_report_markdown({ dim: 8 }), /^# ropescope report/);
  assert.throws(
    () => files.scaling_from_config('{"head_dim": 8, "rope_theta": 0.5}'),
    /rope_theta must be > 1, got 0\.5/,
  );
});
