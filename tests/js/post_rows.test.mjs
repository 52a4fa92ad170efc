// The post's numbers are a table (c_src/lesson/post_numbers.txt) that the build writes as C rows
// with tools/post_rows.awk. The rows' values are checked against an independent reference in
// tests/diff/diff_lesson.py; here, the step between: every table line becomes one C row with the
// same seven fields, and a line of another shape stops the build naming its file and line.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../lib/testlib.mjs';

const TABLE = join(ROOT, 'c_src/lesson/post_numbers.txt');
const AWK = join(ROOT, 'tools/post_rows.awk');
const rowsOf = (path) => spawnSync('awk', ['-f', AWK, path], { encoding: 'utf8' });

test('every_line_of_the_post_table_should_become_one_c_row_with_its_fields', () => {
  const lines = readFileSync(TABLE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'));
  const run = rowsOf(TABLE);
  assert.equal(run.status, 0, run.stderr);
  const rows = run.stdout.trimEnd().split('\n');
  assert.equal(rows.length, lines.length, 'one C row a table line');
  assert.ok(rows.length >= 100, `the post prints over a hundred numbers (${rows.length} rows)`);
  const ids = new Set();
  rows.forEach((row, i) => {
    const fields = lines[i].split('|').map((field) => field.trim());
    const [id, label, printed, ...names] = fields;
    assert.equal(row, `{"${id}\\0" "${label}\\0" "${printed}", ${names.join(', ')}},`, `row ${i + 1}`);
    assert.ok(!ids.has(id), `the id ${id} is used once`);
    ids.add(id);
    assert.match(printed, /^-?\d+(\.\d+)?$/, `${id}: the printed number is a decimal`);
  });
});

test('a_malformed_post_table_line_should_stop_the_build_naming_file_and_line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'post-rows-'));
  try {
    const good = 'a.b | a label | 0.5 | CH_SLOT | SRC_SLOT | 0 | IN_SLOT_1';
    const cases = [
      ['a.b | a label | 0.5 | CH_SLOT | SRC_SLOT | 0', 'got 6'],
      ['a.b | a "label" | 0.5 | CH_SLOT | SRC_SLOT | 0 | IN_SLOT_1', 'column 2 must be text'],
      ['a.b | a label\\0 | 0.5 | CH_SLOT | SRC_SLOT | 0 | IN_SLOT_1', 'column 2 must be text'],
      ['a.b | a label | 0.5 | CH_SLOT); x( | SRC_SLOT | 0 | IN_SLOT_1', 'column 4 must be a C name'],
      ['a.b |  | 0.5 | CH_SLOT | SRC_SLOT | 0 | IN_SLOT_1', 'column 2 must be text'],
    ];
    for (const [bad, message] of cases) {
      const path = join(dir, 'table.txt');
      writeFileSync(path, `# a comment\n${good}\n${bad}\n`);
      const run = rowsOf(path);
      assert.equal(run.status, 1, `refused: ${bad}`);
      assert.ok(run.stderr.startsWith(`${path}:3: `), `names the file and line 3: ${run.stderr}`);
      assert.ok(run.stderr.includes(message), `says "${message}": ${run.stderr}`);
    }
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '# only a comment\n');
    const run = rowsOf(empty);
    assert.equal(run.status, 1, 'a table with no rows is refused');
    assert.match(run.stderr, /no rows/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
