// One number grammar: the page's URL parser (web/src/state/state.js parseDecimal) and the C core's
// (c_src/core/parse.c, asked through rope.js's decimal_form, the wasm's rope_decimal_form) must accept and refuse
// exactly the same texts. rope_decimal_form answers the grammar only (1: a nonzero
// mantissa, 0: all zeros, < 0: refused); the size of a double is then JS's Number, as the
// page reads it, with docs/SPEC.md's rules: finite, and a nonzero mantissa must not read 0.
// Thousands of random strings over the grammar's alphabet plus hand-picked edge cases.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimal_form } from '../../web/src/core/rope.js';
import { parseDecimal } from '../../web/src/state/state.js';
import { rng, seed } from '../lib/testlib.mjs';

// The C grammar's verdict on text, with the page's reading of the value.
function cAccepts(text) {
  const form = decimal_form(text);
  if (form < 0) return false;
  const value = Number(text);
  return Number.isFinite(value) && !(form === 1 && value === 0);
}

const HAND_PICKED = [
  '',
  '0',
  '-0',
  '+0',
  '00',
  '007',
  '1',
  '-1',
  '+1',
  '1.5',
  '-1.5',
  '.5',
  '5.',
  '-.5',
  '+.5',
  '1e5',
  '1E5',
  '1e+5',
  '1e-5',
  '1e',
  'e5',
  '1e5.5',
  '1.2.3',
  '--1',
  '+-1',
  '1-',
  ' 1',
  '1 ',
  '1,2',
  '0x10',
  '0X1F',
  '0b1',
  '1_000',
  'inf',
  'Infinity',
  '-Infinity',
  'nan',
  'NaN',
  '1e308',
  '1e309',
  '-1e309',
  '1.7976931348623157e308',
  '1.7976931348623159e308',
  '1e-320',
  '1e-400',
  '0e-400',
  '0.0e999',
  '0.000e-99999',
  '4.9e-324',
  '2.4e-324',
  '2.5e-324',
  '1e0',
  '1e-0',
  '1e+0',
  '١',
  '１',
  '1\n',
  '\t1',
  '1d',
  '1f',
  '+',
  '-',
  '.',
  'e',
  '1.e5',
  '1.0e5',
  '12345678901234567890123',
  '-9'.repeat(5),
];

const ALPHABET = ['0', '1', '5', '9', '0', '7', '.', '.', 'e', 'E', '+', '-', ' ', 'x', ',', 'n'];

function randomText(r) {
  const length = Math.floor(r() * 12);
  let text = '';
  for (let j = 0; j < length; j++) text += ALPHABET[Math.floor(r() * ALPHABET.length)];
  // Sometimes a well-formed number with extreme exponents, to reach the size rules.
  if (r() < 0.3) {
    const sign = ['', '-', '+'][Math.floor(r() * 3)];
    const mantissa = r() < 0.2 ? '0.000' : String(Math.floor(r() * 1e6) / 10 ** Math.floor(r() * 4));
    text = `${sign}${mantissa}e${Math.floor(r() * 800) - 400}`;
  }
  return text;
}

test('url_grammar_should_match_the_c_grammar_on_random_and_hand_picked_texts', () => {
  const s = seed('grammar');
  const r = rng(s);
  const texts = [...HAND_PICKED];
  for (let j = 0; j < 5000; j++) texts.push(randomText(r));
  let accepted = 0;
  for (const text of texts) {
    const c = cAccepts(text);
    const page = parseDecimal(text).ok;
    assert.equal(
      page,
      c,
      `${JSON.stringify(text)}: state.js ${page ? 'accepts' : 'refuses'}, ` +
        `the C grammar ${c ? 'accepts' : 'refuses'} [ROPE_TEST_SEED=${s}]`,
    );
    accepted += c;
  }
  // Both sides of the grammar were exercised.
  assert.ok(accepted > 500 && accepted < texts.length - 500, `${accepted} of ${texts.length} accepted`);
  console.log(`grammar: ${texts.length} texts, ${accepted} accepted by both, ROPE_TEST_SEED=${s}`);
});

test('decimal_form_should_refuse_a_non_string_naming_text', () => {
  assert.throws(
    () => decimal_form(5),
    (e) => e instanceof TypeError && /text must be a string, got 5/.test(e.message),
  );
  assert.equal(decimal_form('1\u00002'), decimal_form('x'), 'a NUL inside is outside the grammar');
});
