// The wasm build must compute the very same doubles as the native build: the
// page's report download is promised byte-for-byte equal to the CLI's. Every
// case of build/cases.json (fresh each run) is run through web/src/core/rope.js and
// compared bit for bit with the native results that test-diff wrote.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as rope from '../../web/src/core/rope.js';

const cases = JSON.parse(readFileSync('build/cases.json', 'utf8'));
const native = JSON.parse(readFileSync('build/native_results.json', 'utf8'));
console.log(`ROPE_TEST_SEED=${cases.seed} (native results for seed ${native.seed})`);

// rope.js returns offset_sweep as { starts, rope, add }; the case files keep it planar.
function call(fn, args) {
  const result = rope[fn](...args);
  return fn === 'offset_sweep' ? [result.starts, result.rope, result.add] : result;
}

// Same bits, not merely close: Object.is tells 0 from -0 as well.
function firstDifference(got, want, path = 'result') {
  if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) return `${path}: shape differs`;
    for (let j = 0; j < want.length; j++) {
      const d = firstDifference(got[j], want[j], `${path}[${j}]`);
      if (d) return d;
    }
    return null;
  }
  return Object.is(got, want) ? null : `${path}: wasm ${got} vs native ${want}`;
}

test('wasm_should_match_native_bit_for_bit_on_every_case', () => {
  assert.equal(native.seed, cases.seed, 'native results come from another seed: run make test-diff');
  assert.equal(native.results.length, cases.cases.length);
  let compared = 0;
  const differences = [];
  cases.cases.forEach((c, index) => {
    const want = native.results[index];
    if (want === null) return; // the native call failed: test-diff reports that
    const d = firstDifference(call(c.fn, c.args), want);
    if (d) differences.push(`case ${index} ${c.fn}: ${d}`);
    compared++;
  });
  assert.ok(compared >= 1000, `only ${compared} cases compared`);
  assert.deepEqual(differences.slice(0, 10), [], `${differences.length} cases differ`);
});
