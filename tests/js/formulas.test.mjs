// The build-time formulas (tools/formulas.mjs -> web/gen/formulas.js): every
// formula is MathML with no error node, its tags nest, it loads nothing from
// anywhere (file:// works), and the generated module is what temml gives now.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { render, TEX } from '../../tools/formulas.mjs';
import { FORMULA_TEX, FORMULAS } from '../../web/gen/formulas.js';

// The formulas the explainer figures show (issue 9).
const REQUIRED = [
  'rotation',
  'pair_rotation',
  'relative',
  'pair_score',
  'score_sum',
  'theta',
  'additive',
  'roformer_bound',
  'wavelength',
  'demo_vectors',
];

// Element names in order; throws on a close tag that does not match its open tag.
function checkNesting(markup) {
  const stack = [];
  for (const [, close, name, selfClose] of markup.matchAll(/<(\/?)([a-zA-Z][\w-]*)[^>]*?(\/?)>/g)) {
    if (selfClose) continue;
    if (!close) stack.push(name);
    else if (stack.pop() !== name) throw new Error(`</${name}> closes the wrong element`);
  }
  if (stack.length) throw new Error(`unclosed <${stack.join('>, <')}>`);
}

test('formulas_should_render_every_name_to_mathml_without_errors', () => {
  for (const name of REQUIRED) assert.ok(name in FORMULAS, `formula ${name} is missing`);
  assert.deepEqual(Object.keys(FORMULAS), Object.keys(TEX));
  for (const [name, markup] of Object.entries(FORMULAS)) {
    assert.match(markup, /^<math[\s>]/, name);
    assert.match(markup, /<\/math>$/, name);
    assert.doesNotMatch(markup, /merror|temml-error|ParseError/, `${name} holds an error node`);
    assert.doesNotMatch(markup, /\b(href|src)=|url\(|@import/, `${name} refers to a resource`);
    assert.doesNotThrow(() => checkNesting(markup), name);
    assert.equal(FORMULA_TEX[name], TEX[name]);
  }
});

test('formulas_module_should_be_what_temml_renders_now', () => {
  assert.deepEqual(FORMULAS, render());
});

test('formulas_should_refuse_bad_tex_at_build_time', () => {
  assert.throws(() => render({ broken: String.raw`\frac{1}{` }), /ParseError|Expected/);
});
