// web/src/core/packed.js's two ways to unpack what tools/pack.mjs packed: fflate (unpackBytes) and the
// runtime's DecompressionStream (unpackBytesNative, with fflate behind it where the stream is
// missing or refuses 'deflate-raw'); and rope.js's ready(), which makes the core from the latter.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pack } from '../../tools/pack.mjs';
import { WASM_PACKED } from '../../web/gen/rope_wasm.js';
import { unpackBytes, unpackBytesNative } from '../../web/src/core/packed.js';
import * as rope from '../../web/src/core/rope.js';
import { close, rng, seed } from '../lib/testlib.mjs';

// Random bytes of random length, half of them runs (which deflate shrinks), half noise.
function randomBytes(r) {
  const bytes = new Uint8Array(Math.floor(r() * 200000));
  for (let i = 0; i < bytes.length; ) {
    const run = 1 + Math.floor(r() * 64);
    const value = Math.floor(r() * 256);
    for (let j = 0; j < run && i < bytes.length; j++, i++) bytes[i] = r() < 0.5 ? value : Math.floor(r() * 256);
  }
  return bytes;
}

// Runs fn with globalThis.DecompressionStream replaced (undefined: removed), then restores it.
async function withDecompressionStream(replacement, fn) {
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'DecompressionStream');
  try {
    if (replacement === undefined) delete globalThis.DecompressionStream;
    else
      Object.defineProperty(globalThis, 'DecompressionStream', {
        value: replacement,
        configurable: true,
        writable: true,
      });
    return await fn();
  } finally {
    if (saved) Object.defineProperty(globalThis, 'DecompressionStream', saved);
  }
}

test('ready_should_make_the_core_before_the_first_call', async () => {
  // Nothing in this file has called the core yet: ready() makes it from the natively inflated bytes.
  assert.equal(typeof globalThis.DecompressionStream, 'function', 'this Node has DecompressionStream');
  await rope.ready();
  await rope.ready(); // a second call changes nothing
  const d = 16;
  const base = 10000;
  const thetas = rope.thetas(d, base);
  assert.equal(thetas.length, d / 2);
  // θ_i = base^(-2i/d), computed here without the core.
  thetas.forEach((theta, i) => assert.ok(close(theta, base ** ((-2 * i) / d)), `theta ${i}: ${theta}`));
});

test('the_wasm_module_should_unpack_to_the_same_valid_bytes_both_ways', async () => {
  const slow = unpackBytes(WASM_PACKED);
  const fast = await unpackBytesNative(WASM_PACKED);
  assert.ok(WebAssembly.validate(fast), 'the natively inflated bytes are a valid wasm module');
  assert.deepEqual(fast, slow);
});

test('unpack_bytes_native_should_return_what_pack_was_given', async () => {
  const r = rng(seed('packed'));
  for (let i = 0; i < 20; i++) {
    const bytes = randomBytes(r);
    const packed = pack(bytes);
    assert.deepEqual(await unpackBytesNative(packed), bytes, `input ${i}: ${bytes.length} bytes`);
    assert.deepEqual(unpackBytes(packed), bytes, `input ${i}: ${bytes.length} bytes (fflate)`);
  }
  assert.deepEqual(await unpackBytesNative(pack(new Uint8Array(0))), new Uint8Array(0), 'no bytes');
});

test('unpack_bytes_native_should_fall_back_to_fflate', async () => {
  const expected = unpackBytes(WASM_PACKED);
  // A runtime without DecompressionStream.
  assert.deepEqual(await withDecompressionStream(undefined, () => unpackBytesNative(WASM_PACKED)), expected);
  // One whose DecompressionStream does not know 'deflate-raw' (older browsers).
  class OnlyGzip {
    constructor(format) {
      if (format !== 'gzip') throw new TypeError(`Unsupported compression format: '${format}'`);
    }
  }
  assert.deepEqual(await withDecompressionStream(OnlyGzip, () => unpackBytesNative(WASM_PACKED)), expected);
});
