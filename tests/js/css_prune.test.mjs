// tools/css_prune.mjs, which cuts style.css to the rules a one-view embed script can show: what
// it keeps and drops, on small stylesheets whose answer is known. (tests/browser/frame.test.mjs
// checks the real scripts: every rule matching an element of a view's shadow root is kept.)

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pruneCss, selectorsOf, writtenNames } from '../../tools/css_prune.mjs';

test('written_names_should_be_the_codes_words_and_the_names_it_completes', () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the string is code, as the tool reads it
  const written = writtenNames("el('div', { class: 'fig', id: `chart-${name}` }); td.className = `p${j}`; 'row-' + k;");
  for (const name of ['fig', 'chart-flatness', 'p12', 'row-3', 'div']) assert.ok(written(name), name);
  for (const name of ['figure', 'guide', 'mini-plot', 'q1']) assert.ok(!written(name), name);
  // A completed name is taken at its widest: every name that begins with p may be written.
  assert.ok(written('panel'));
});

test('prune_css_should_drop_a_rule_only_when_no_selector_can_match', () => {
  const written = (name) => ['a', 'b', 'live'].includes(name);
  const css =
    ':root{--x:1}button{y:2}.a,.gone{z:3}.gone .a{w:4}#live{v:5}#dead{u:6}' +
    '.a:not(.gone){t:7}:is(.gone,.b) p{s:8}@media (max-width:600px){.gone{r:9}.b{q:10}}' +
    '@media print{.gone{p:11}}@keyframes k{0%{o:0}to{o:1}}';
  const { css: out, dropped } = pruneCss(css, written);
  assert.equal(
    out,
    ':root{--x:1}button{y:2}.a{z:3}#live{v:5}.a:not(.gone){t:7}:is(.gone,.b) p{s:8}' +
      '@media (max-width:600px){.b{q:10}}@keyframes k{0%{o:0}to{o:1}}',
  );
  assert.deepEqual(dropped, ['.gone .a', '#dead', '.gone', '.gone']);
});

test('selectors_of_should_list_every_style_rules_selectors', () => {
  assert.deepEqual(selectorsOf('.a,.b>p{x:1}@media print{:not(.c,.d){y:2}}@font-face{z:3}'), [
    '.a',
    '.b>p',
    ':not(.c,.d)',
  ]);
});

test('prune_css_should_refuse_a_brace_inside_a_string_or_an_open_block', () => {
  assert.throws(() => pruneCss('.a:before{content:"{"}', () => true), /a brace inside a string/);
  assert.throws(() => pruneCss('.a{x:1', () => true), /is not closed/);
  assert.equal(pruneCss('.a:before{content:"\\"x"}', () => true).css, '.a:before{content:"\\"x"}');
});
