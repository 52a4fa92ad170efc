// The page's scaling methods (web/src/model/methods.js) follow the C methods' table
// (c_src/scaling/methods.c, through web/gen/methods.js): each menu row's factor column is the
// table's, and the sentence naming a method says "at factor N" only for a method that scales by a
// factor, so a method without one never reads "at factor null".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { METHOD, METHODS, methodPhrase } from '../../web/src/model/methods.js';

// The table's rows from the C source: name, type, required, optional, own, factor.
function tableFactors() {
  const text = readFileSync(new URL('../../c_src/scaling/methods.c', import.meta.url), 'utf8');
  const body = text.slice(text.indexOf('const rope_method rope_methods[] ='));
  const out = new Map();
  for (const m of body.matchAll(/\{"([a-z0-9_]+)",\s*ROPE_SCALING_[A-Z0-9_]+,[\s\S]*?,\s*([01]),\s*([01])\s*PAGE\(/g))
    out.set(m[1], m[3] === '1');
  return out;
}

test('methods_should_carry_the_tables_factor_column', () => {
  const table = tableFactors();
  assert.ok(table.size >= METHODS.length, `read ${table.size} rows from methods.c`);
  for (const m of METHODS) {
    assert.ok(table.has(m.value), `${m.value} is a row of methods.c`);
    assert.equal(m.factor, table.get(m.value), `${m.value}'s factor column`);
  }
  assert.equal(METHOD.default.factor, false);
  assert.equal(METHOD.base_change.factor, false);
  assert.equal(METHOD.llama3.factor, true);
});

test('method_phrase_should_name_a_factor_only_where_the_method_has_one', () => {
  const resolved = { base_used: 500000, factor_list: 'long' };
  for (const m of METHODS) {
    const phrase = methodPhrase({
      main: { base: 10000, factor: m.factor ? 8 : null, resolved },
      state: { method: m.value },
    });
    assert.doesNotMatch(phrase, /null|undefined|NaN/, `${m.value}: ${phrase}`);
    if (m.factor && m.value !== 'longrope') assert.equal(phrase, `with ${m.value} at factor 8`);
    if (!m.factor) assert.doesNotMatch(phrase, /at factor/, `${m.value}: ${phrase}`);
  }
  // A factor the model could not give (null) is not printed, nor is a method outside the menu's
  // table given a factor.
  assert.equal(
    methodPhrase({ main: { factor: null, resolved }, state: { method: 'linear' } }),
    `with ${METHOD.linear.label}`,
  );
  assert.equal(methodPhrase({ main: { factor: 4, resolved }, state: { method: 'proportional' } }), 'with proportional');
});
