// Bounded page input (issue 22, item 6): a link is read up to MAX_LINK_PARAMS parameters,
// with one problem saying so, however long it is; a notice lists at most NOTICE_LINES
// problems and counts the rest.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundedLines, NOTICE_LINES } from '../../web/src/lib/dom.js';
import { MAX_LINK_PARAMS, readQuery, unknownViewLine, VIEWS } from '../../web/src/state/state.js';
import { rng, seed } from '../lib/testlib.mjs';

const r = rng(seed('limits'));

test('readQuery_should_stop_at_the_stated_number_of_parameters', () => {
  for (const count of [MAX_LINK_PARAMS + 1, 1000 + Math.floor(r() * 9000), 70000]) {
    const dim = 2 * (1 + Math.floor(r() * 500));
    const query = [`dim=${dim}`, ...Array.from({ length: count - 2 }, (_, i) => `junk${i}=1`), 'gap=77'].join('&');
    const started = performance.now();
    const { state, problems } = readQuery(query);
    const ms = performance.now() - started;
    assert.ok(ms < 1000, `${count} parameters took ${ms.toFixed(0)} ms`);
    assert.equal(state.dim, dim, 'a setting among the first ones is read');
    assert.equal(state.gap, 2, 'a setting past the limit is not read');
    const whole = problems.filter((p) => p.whole);
    assert.equal(whole.length, 1);
    assert.equal(whole[0].message, `The link has ${count} parameters; only the first ${MAX_LINK_PARAMS} were read`);
    // The unknown names among the first MAX_LINK_PARAMS, and nothing past them.
    assert.equal(problems.length, 1 + MAX_LINK_PARAMS - 1);
  }
  const { problems } = readQuery(Array.from({ length: MAX_LINK_PARAMS }, (_, i) => `x${i}=1`).join('&'));
  assert.equal(problems.filter((p) => p.whole).length, 0, 'exactly at the limit: all read, no limit problem');
  assert.equal(problems.length, MAX_LINK_PARAMS);
});

test('boundedLines_should_keep_a_handful_and_count_the_rest', () => {
  for (const n of [0, 1, NOTICE_LINES, NOTICE_LINES + 1, 70000]) {
    const lines = Array.from({ length: n }, (_, i) => `problem ${i}`);
    const out = boundedLines(lines);
    if (n <= NOTICE_LINES) {
      assert.deepEqual(out, lines);
    } else {
      assert.equal(out.length, NOTICE_LINES + 1);
      assert.deepEqual(out.slice(0, NOTICE_LINES), lines.slice(0, NOTICE_LINES));
      assert.equal(
        out[NOTICE_LINES],
        `… and ${n - NOTICE_LINES} more ${n - NOTICE_LINES === 1 ? 'problem' : 'problems'}.`,
      );
    }
  }
});

test('view_and_theme_should_match_ignoring_case_and_spaces_and_a_typo_should_name_the_views', () => {
  const spaced = (text) => `${' '.repeat(Math.floor(r() * 3))}${text}${' '.repeat(Math.floor(r() * 3))}`;
  const mixed = (text) => [...text].map((ch) => (r() < 0.5 ? ch.toUpperCase() : ch)).join('');
  for (const view of VIEWS) {
    const typed = spaced(mixed(view));
    const { state, problems } = readQuery(new URLSearchParams({ view: typed, theme: spaced(mixed('dark')) }));
    assert.deepEqual([state.view, state.theme, problems], [view, 'dark', []], JSON.stringify(typed));
  }
  const { state, problems } = readQuery('embed=1&view=flatnes');
  assert.equal(state.view, 'all');
  assert.equal(problems.length, 1);
  assert.equal(
    unknownViewLine(problems[0]),
    `No figure shown: view "flatnes" is not a figure; use one of ${VIEWS.join(', ')}.`,
  );
});
