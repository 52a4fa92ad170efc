// rope.js reads every input once (issue 22, item 1):
//  - an array argument's length and each element are read exactly once, into a snapshot that
//    every check, allocation and copy uses: a Proxy whose length or elements change between
//    reads gives the same numbers as the plain array it first showed;
//  - a getter or Proxy trap that throws is refused naming the parameter ("q: could not be read");
//  - an input that grows wasm memory is copied in after the growth (no detached views);
//  - a trap inside the core throws a clear error and the next calls are right again.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as files from '../../web/src/core/files.js';
import * as core from '../../web/src/core/rope.js';

// The two modules' bindings: the lesson's (rope.js) and the files module's (files.js).
const rope = { ...core, ...files };

import { close, rng, seed } from '../lib/testlib.mjs';

const s = seed('snapshot');
const r = rng(s);
const vector = (d) => Array.from({ length: d }, () => r() * 2 - 1);
const positions = (count, hi) => Array.from({ length: count }, () => Math.floor(r() * hi));

/**
 * A Proxy over `values` that lies after its first answers: the first read of length is the true
 * length, every later one 15000; the first read of element j is values[j], later ones 1e300.
 * reads: how often length and each index were read.
 */
function liar(values) {
  const reads = { length: 0, index: new Map() };
  const proxy = new Proxy(values, {
    get(target, key, receiver) {
      if (key === 'length') return reads.length++ === 0 ? target.length : 15000;
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        const seen = reads.index.get(key) ?? 0;
        reads.index.set(key, seen + 1);
        return seen === 0 ? target[key] : 1e300;
      }
      return Reflect.get(target, key, receiver);
    },
  });
  return { proxy, reads };
}

const D = 2 * (2 + Math.floor(r() * 15));
const [Q, K, V] = [vector(D), vector(D), vector(D)];
const STARTS = positions(1 + Math.floor(r() * 6), 5000);
const POS = positions(1 + Math.floor(r() * 6), 5000);

// [name, call(arrays...), the plain arrays it takes]: every rope.js function with an array argument.
const CALLS = [
  ['dot', (a, b) => rope.dot(a, b), [Q, K]],
  ['norm', (v) => rope.norm(v), [V]],
  ['apply_rope', (v) => rope.apply_rope(v, 37, 500), [V]],
  ['rope_score', (q, k) => rope.rope_score(q, k, 9, 4), [Q, K]],
  ['add_score', (q, k) => rope.add_score(q, k, 9, 4), [Q, K]],
  ['offset_scan', (q, k, st) => rope.offset_scan(q, k, 5, st), [Q, K, STARTS]],
  ['offset_sweep', (q, k) => rope.offset_sweep(q, k, 5, 0, 3, 40), [Q, K]],
  ['slow_pairs_batch', (ds) => rope.slow_pairs_batch(D, ds), [POS]],
  ['norm_gaps', (v, ps) => rope.norm_gaps(v, ps), [V, POS]],
  ['pair_example', (q, k) => rope.pair_example(q, k, 3, 7, 0.1), [Q.slice(0, 2), K.slice(0, 2)]],
  ['pair_terms', (q, k) => rope.pair_terms(q, k, 11, 2), [Q, K]],
  ['add_terms', (q, k, st) => rope.add_terms(q, k, 5, st), [Q, K, STARTS]],
  ['add_terms_sweep', (q, k) => rope.add_terms_sweep(q, k, 5, 0, 2, 30), [Q, K]],
  ['decay', (q, k, ds) => rope.decay(q, k, ds, 4, 7), [Q, K, POS]],
  ['cos_grid', (ps) => rope.cos_grid(D, ps), [POS]],
  ['offset_envelope', (q, k) => rope.offset_envelope(q, k, 5, 0, 300, 10), [Q, K]],
  [
    'build_report',
    (st, ds, ns) => rope.build_report({ dim: 8, starts: st, deltas: ds, norm_positions: ns }),
    [STARTS, POS, POS.slice(0, 2)],
  ],
];

for (const [name, call, arrays] of CALLS) {
  test(`${name}_should_read_each_array_once_and_ignore_later_lies`, () => {
    const expected = call(...arrays);
    const liars = arrays.map((a) => liar(a));
    const got = call(...liars.map((l) => l.proxy));
    assert.deepEqual(got, expected, `${name}: a lying array changed the result`);
    liars.forEach(({ reads }, i) => {
      assert.equal(reads.length, 1, `${name}: argument ${i}'s length read ${reads.length} times`);
      assert.equal(reads.index.size, arrays[i].length, `${name}: argument ${i}: not every element read`);
      for (const [key, count] of reads.index)
        assert.equal(count, 1, `${name}: argument ${i}[${key}] read ${count} times`);
    });
  });
}

test('dot_and_norm_of_a_lying_array_should_be_those_of_its_first_reading', () => {
  // The case that once gave 15008.5 and 15009.
  assert.equal(rope.dot(liar([1, 2]).proxy, liar([3, 4]).proxy), 11);
  assert.ok(close(rope.norm(liar([3, 4]).proxy), 5));
  const dot = Q.reduce((sum, q, i) => sum + q * K[i], 0);
  assert.ok(close(rope.dot(liar(Q).proxy, liar(K).proxy), dot, 1e-12), 'independent dot');
});

test('a_throwing_getter_should_be_refused_naming_the_parameter', () => {
  const boom = () => {
    throw new Error('boom');
  };
  const badLength = new Proxy([1, 2], { get: (t, k) => (k === 'length' ? boom() : t[k]) });
  const badElement = Object.defineProperty([1, 2], 1, { get: boom });
  const { proxy: revoked, revoke } = Proxy.revocable([1, 2], {});
  revoke();
  const cases = [
    [() => rope.rope_score(badLength, [1, 2], 1, 0), /^q: could not be read: boom$/],
    [() => rope.rope_score([1, 2], badElement, 1, 0), /^k: could not be read: boom$/],
    [() => rope.norm(revoked), /^vec: could not be read: /],
    [() => rope.offset_scan([1, 2], [1, 2], 1, badElement), /^starts: could not be read: boom$/],
    [
      () =>
        rope.build_report({
          get dim() {
            return boom();
          },
        }),
      /^options\.dim: could not be read: boom$/,
    ],
    [() => rope.build_report({ starts: badLength }), /^starts: could not be read: boom$/],
  ];
  for (const [call, message] of cases) {
    assert.throws(call, (err) => err instanceof TypeError && message.test(err.message), String(message));
  }
  // A length that is not a length is refused, not looped over.
  const huge = new Proxy([], { get: (t, k) => (k === 'length' ? 2 ** 40 : t[k]) });
  assert.throws(() => rope.norm(huge), /vec must have 0 to \d+ elements, got 1099511627776/);
  const odd = new Proxy([], { get: (t, k) => (k === 'length' ? 1.5 : t[k]) });
  assert.throws(() => rope.norm(odd), /vec must be an array of numbers, got a length of 1\.5/);
});

test('a_trap_should_throw_a_clear_error_and_leave_the_module_usable', () => {
  const before = rope.offset_scan(Q, K, 5, STARTS);
  // A pointer far beyond memory: the core traps, as a heap overrun once did.
  const trap = () => rope._callCore('probe', (w) => w.rope_norm(0x7ffffff0, 4, 0x7ffffff0));
  assert.throws(
    trap,
    (err) =>
      err.name === 'CoreTrapError' && /^probe: the WebAssembly core stopped \(.+\); it was restarted/.test(err.message),
  );
  assert.equal(rope.dot([1, 2], [3, 4]), 11);
  assert.ok(close(rope.norm([3, 4]), 5));
  assert.deepEqual(rope.offset_scan(Q, K, 5, STARTS), before);
  // Again, twice in a row, then the report (many buffers) still matches the CLI's defaults.
  assert.throws(trap, /restarted/);
  assert.throws(trap, /restarted/);
  assert.deepEqual(rope.offset_scan(Q, K, 5, STARTS), before);
  assert.equal(rope.build_report().dim, 64);
});

test('inputs_that_grow_memory_should_be_copied_after_the_growth', () => {
  // A fresh instance (its memory not grown yet), then inputs larger than its whole memory.
  assert.throws(() => rope._callCore('probe', (w) => w.rope_norm(0x7ffffff0, 4, 0x7ffffff0)), /restarted/);
  const digits = 24e6 + Math.floor(r() * 1e6);
  assert.equal(rope.decimal_form(`1${'0'.repeat(digits)}`), 1);
  assert.equal(rope.decimal_form(`0.${'0'.repeat(digits)}`), 0);
  assert.equal(rope.decimal_form(`1${'0'.repeat(digits)}x`), rope.decimal_form('1x'));
  // Numbers after growth: big output then small calls, all right.
  const grid = rope.cos_grid(1024, positions(4096, 1e5));
  assert.equal(grid.length, 512);
  assert.equal(rope.dot(Q, K), rope.dot(liar(Q).proxy, K));
});
