// The hostile config corpus (tests/data/hostile, made by its make_corpus.py): every file gets
// the same verdict from `ropescope scaling --config FILE` and from the page's reader
// (rope.scaling_json_text on the file's bytes, as the panel hands a dropped file over):
// ok-*.json are read, giving byte for byte the same JSON; bad-*.json are refused, the CLI's one
// line ending in the page's message, word for word.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { scaling_json_text } from '../../web/src/core/files.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'build', 'ropescope');
const CORPUS = path.join(ROOT, 'tests', 'data', 'hostile');
const FILES = fs
  .readdirSync(CORPUS)
  .filter((name) => name.endsWith('.json'))
  .sort();

function page(bytes) {
  try {
    return { ok: true, text: scaling_json_text(bytes) };
  } catch (err) {
    return { ok: false, kind: err.constructor.name, message: err.message };
  }
}

test('hostile_corpus_should_hold_both_kinds_of_case', () => {
  assert.ok(FILES.filter((f) => f.startsWith('bad-')).length >= 40, 'at least 40 files to refuse');
  assert.ok(FILES.filter((f) => f.startsWith('ok-')).length >= 8, 'at least 8 files to read');
  assert.deepEqual(
    FILES.filter((f) => !/^(bad|ok)-/.test(f)),
    [],
    'every file says what it expects',
  );
});

for (const name of FILES) {
  test(`hostile_${name}_should_get_one_verdict_from_the_cli_and_the_page`, () => {
    const file = path.join(CORPUS, name);
    const bytes = new Uint8Array(fs.readFileSync(file));
    const cli = spawnSync(CLI, ['scaling', '--config', file, '--format', 'json'], { encoding: 'buffer' });
    const got = page(bytes);
    const stderr = cli.stderr.toString('utf8');
    const wanted = name.startsWith('ok-');
    assert.equal(cli.status === 0, wanted, `CLI verdict on ${name}: exit ${cli.status}, ${stderr}`);
    assert.equal(got.ok, wanted, `page verdict on ${name}: ${got.message ?? 'read'}`);
    if (wanted) {
      assert.equal(Buffer.compare(cli.stdout, Buffer.from(got.text, 'utf8')), 0, 'the same JSON, byte for byte');
      return;
    }
    assert.equal(cli.stdout.length, 0, 'nothing on stdout');
    const lines = stderr.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, `one line: ${stderr}`);
    assert.ok(
      lines[0].startsWith('ropescope: ') && lines[0].endsWith(`: ${got.message}`),
      `CLI line "${lines[0]}" ends in the page's message "${got.message}"`,
    );
    assert.ok(['TypeError', 'RangeError'].includes(got.kind), `a named error, got ${got.kind}`);
    assert.ok(Buffer.from(stderr, 'utf8').equals(cli.stderr), 'the CLI line is valid UTF-8');
  });
}
