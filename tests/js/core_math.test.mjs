// Every RoPE number on the page comes from the C core (docs/SPEC.md): the page's own modules
// compute no angle, sine, cosine or power. The built bundles (ropescope.js, ropescope-embed.js,
// embed/*.js) do hold Math.sin, cos and pow, all of them Chart.js's own drawing (easing, colour
// conversion, point shapes, tick steps): web/src holds none, so a bundle can only get them from
// node_modules. Screen geometry is not RoPE math and stays allowed: Math.atan2 of pixel offsets,
// Math.log10 of an axis range, powers of ten or two (log axes, seeds), and the two places below.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../lib/testlib.mjs';

const SOURCES = join(ROOT, 'web/src');
const ROPE_MATH = /\bMath\.(sin|cos|tan|pow|exp|expm1|log|log1p|log2)\s*\(|(?<!\b(?:10|2n?)\s)\*\*/g;
// Powers that are not RoPE's: log-spaced sample positions of a figure, and sRGB's gamma.
const ALLOWED = new Set([
  'web/src/figures/temperature.js: Math.round(FAR ** (j / SAMPLES))',
  'web/src/element/inherit.js: ((c + 0.055) / 1.055) ** 2.4',
]);

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.js')) yield path;
  }
}

// Comments may name the functions they do not call.
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

test('the_page_modules_should_leave_the_rope_math_to_the_c_core', () => {
  const found = [];
  let read = 0;
  for (const path of files(SOURCES)) {
    read += 1;
    const lines = code(readFileSync(path, 'utf8')).split('\n');
    const name = relative(ROOT, path);
    lines.forEach((line, i) => {
      if ([...ALLOWED].some((a) => a.startsWith(`${name}: `) && line.includes(a.slice(name.length + 2)))) return;
      for (const match of line.matchAll(ROPE_MATH)) found.push(`${name}:${i + 1}: ${match[0]}`);
    });
  }
  assert.ok(read > 50, `only ${read} modules read under web/src`);
  assert.deepEqual(found, [], 'sines, cosines and powers belong in c_src/');
});

test('the_check_should_catch_a_sine_or_a_power', () => {
  for (const text of ['const s = Math.sin(p * theta);', 'x = Math.pow(base, -2 * i / d)', 'y = base ** e']) {
    assert.ok([...code(text).matchAll(ROPE_MATH)].length > 0, `found in ${text}`);
  }
  for (const text of [
    'Math.atan2(dy, dx)',
    'Math.log10(range)',
    '10 ** k',
    '2 ** 32 - 1',
    '// Math.sin is the core’s',
  ]) {
    assert.equal([...code(text).matchAll(ROPE_MATH)].length, 0, `allowed: ${text}`);
  }
});
