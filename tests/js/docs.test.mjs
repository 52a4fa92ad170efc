// The docs against the code, so a count or a limit the code outgrew fails here rather than
// misleading a reader: every path the docs cite exists, every link to a section names a heading
// that is there, and every constant they quote with a value (`ROPE_X` (value), and SPEC's table
// of limits) has that value in the C headers (through web/gen/rope_consts.js).

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import * as consts from '../../web/gen/rope_consts.js';
import { ROOT } from '../lib/testlib.mjs';

const DOCS = [
  'README.md',
  'web/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const text = Object.fromEntries(DOCS.map((doc) => [doc, readFileSync(join(ROOT, doc), 'utf8')]));
// What the build writes, which a fresh clone has only after make (and make dist).
const BUILT =
  /^(build|dist|web\/gen|web\/vendor|web\/embed)\/|^web\/(ropescope(-embed|-verify)?\.js|embed\.html|style\.min\.css|embed-pictures\.css)$/;

/** A quoted value as a number: 8388608, 2^23, 2²³, 1e10, -14, 1 GiB. */
function quotedNumber(quoted) {
  const supers = { '⁰': 0, '¹': 1, '²': 2, '³': 3, '⁴': 4, '⁵': 5, '⁶': 6, '⁷': 7, '⁸': 8, '⁹': 9 };
  const q = quoted.trim().replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹]+$/, (s) => `^${[...s].map((c) => supers[c]).join('')}`);
  const power = /^(\d+)\^(\d+)$/.exec(q);
  if (power) return Number(power[1]) ** Number(power[2]);
  return /^[-+]?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(q) ? Number(q) : null;
}

test('every_path_the_docs_cite_should_exist', () => {
  const missing = [];
  for (const [doc, body] of Object.entries(text)) {
    const cited = /(?:\]\(|`)((?:docs|c_src|web|tests|tools)\/[A-Za-z0-9_./-]*[A-Za-z0-9_/])/g;
    for (const [, raw] of body.matchAll(cited)) {
      const path = raw.replace(/\/$/, '');
      if (BUILT.test(path) || BUILT.test(`${path}/`)) continue;
      // A link is relative to its doc; a path in backticks names a file from the root.
      const fromDoc = relative(ROOT, join(ROOT, dirname(doc), path));
      // `figures/NAME.js`: a placeholder for any figure, not a file.
      const placeholder = path.split('/').some((part) => /^[A-Z]{3,}(\.[a-z]+)?$/.test(part));
      if (!placeholder && !existsSync(join(ROOT, path)) && !existsSync(join(ROOT, fromDoc))) {
        missing.push(`${doc}: ${raw}`);
      }
    }
  }
  assert.deepEqual(missing, [], 'paths the docs cite that are not in the tree');
});

/** A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as '-'. */
const anchor = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

test('every_link_to_a_section_should_name_a_heading_of_that_doc', () => {
  const broken = [];
  for (const [doc, body] of Object.entries(text)) {
    for (const [, target, section] of body.matchAll(/\]\(([^)#\s]*\.md)?#([^)\s]+)\)/g)) {
      const file = target ? relative(ROOT, join(ROOT, dirname(doc), target)) : doc;
      const other = text[file] ?? (existsSync(join(ROOT, file)) ? readFileSync(join(ROOT, file), 'utf8') : null);
      if (other === null) {
        broken.push(`${doc}: ${target}#${section} (no such doc)`);
        continue;
      }
      const anchors = [...other.matchAll(/^#{1,6} (.+)$/gm)].map(([, h]) => anchor(h));
      if (!anchors.includes(section)) broken.push(`${doc}: ${target ?? ''}#${section}`);
    }
  }
  assert.deepEqual(broken, [], 'section links whose heading is not there');
});

test('every_constant_the_docs_quote_should_have_the_value_of_the_headers', () => {
  const wrong = [];
  let checked = 0;
  for (const [doc, body] of Object.entries(text)) {
    for (const [, name, quoted] of body.matchAll(/`(ROPE_[A-Z0-9_]+)` \(([^)]{1,16})\)/g)) {
      const want = quotedNumber(quoted);
      if (want === null || !(name in consts)) continue;
      checked++;
      if (consts[name] !== want) wrong.push(`${doc}: ${name} quoted as ${quoted}, the header says ${consts[name]}`);
    }
  }
  // SPEC's table of limits: | `MAX_X` | value | meaning |, and the power of two its meaning gives.
  for (const [, name, value, meaning] of text['docs/SPEC.md'].matchAll(
    /^\| `(MAX_[A-Z_]+)` \| ([^|]+) \|([^\n]*)$/gm,
  )) {
    const have = consts[`ROPE_${name}`];
    assert.ok(have !== undefined, `docs/SPEC.md's limit ${name} has no ROPE_${name} in the headers`);
    checked++;
    if (quotedNumber(value) !== have) wrong.push(`docs/SPEC.md: ${name} is ${value.trim()}, the header says ${have}`);
    const power = /\(2([⁰¹²³⁴⁵⁶⁷⁸⁹]+)/.exec(meaning);
    if (power && quotedNumber(`2${power[1]}`) !== have)
      wrong.push(`docs/SPEC.md: ${name} said to be 2${power[1]}, is ${have}`);
  }
  assert.ok(checked >= 6, `the docs quote constants (${checked} checked)`);
  assert.deepEqual(wrong, [], 'constants the docs quote with another value than the headers');
});

test('the_headers_comments_should_quote_the_limits_they_define', () => {
  // "... : 2^23" in the comment just above a #define: the number must be the define's.
  const wrong = [];
  const dir = join(ROOT, 'c_src');
  for (const room of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const file of readdirSync(join(dir, room.name)).filter((f) => f.endsWith('.h'))) {
      const body = readFileSync(join(dir, room.name, file), 'utf8');
      for (const [, comment, name, value] of body.matchAll(
        /\/\*((?:(?!\*\/)[\s\S])*)\*\/\s*#define (ROPE_[A-Z0-9_]+) \(?(\d+)\)?/g,
      )) {
        // A power of two said as the value (": 2^23"), not a count ("2^27 starts") or a factor of a
        // product ("2^19 * pi/2").
        for (const [, base, exp] of comment.matchAll(/: (2)\^(\d+)\b(?! ?[*x×·])/g)) {
          if (Number(base) ** Number(exp) !== Number(value)) {
            wrong.push(`c_src/${room.name}/${file}: ${name} is ${value}, its comment says ${base}^${exp}`);
          }
        }
      }
    }
  }
  assert.deepEqual(wrong, [], 'header comments quoting another value than their #define');
});
