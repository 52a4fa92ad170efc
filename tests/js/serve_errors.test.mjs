// tools/serve.mjs never dies on a file (issue 22, item 7): an unreadable file (mode 000), a
// file whose read fails after it opened, a folder, and a file removed and replaced by a folder
// while requests for it keep coming are each answered (500, 404 or the whole file) with one log
// line per failure, and the server still serves afterwards. The server runs in its own process
// (a crash would end it), as an unprivileged user when the tests run as root, so that mode 000
// means what it says.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT, rng, seed } from '../lib/testlib.mjs';

const random = rng(seed('serve errors'));
const NOBODY = 65534;

async function start(dir) {
  const asRoot = process.getuid?.() === 0;
  const child = spawn(process.execPath, [join(ROOT, 'tools/serve.mjs'), dir, '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve.mjs exited ${code}: ${stderr}`)));
  });
  return {
    url,
    alive: () => child.exitCode === null && child.signalCode === null,
    log: () => stderr.split('\n').filter(Boolean),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function folder(t) {
  const dir = mkdtempSync(join(tmpdir(), 'ropescope-serve-errors-'));
  chmodSync(dir, 0o755);
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title><p>ok</p>\n');
  return dir;
}

test('serve_should_answer_500_for_unreadable_files_and_404_for_folders_and_keep_running', async (t) => {
  const dir = folder(t);
  writeFileSync(join(dir, 'locked.js'), 'secret();\n');
  chmodSync(join(dir, 'locked.js'), 0o000);
  writeFileSync(join(dir, 'locked.html'), '<p>locked</p>\n');
  chmodSync(join(dir, 'locked.html'), 0o000);
  // A regular file by stat whose first read fails (EIO): an error after the file opened.
  symlinkSync('/proc/self/mem', join(dir, 'fails.bin'));
  mkdirSync(join(dir, 'sub.js'));
  const server = await start(dir);
  t.after(() => server.stop());
  const cases = [
    ['GET', 'locked.js', 500, /^could not read \/locked\.js\n$/],
    ['HEAD', 'locked.js', 500, /^$/],
    ['GET', 'locked.html', 500, /^could not inline \/locked\.html: /],
    ['GET', 'fails.bin', 500, /^could not read \/fails\.bin\n$/],
    ['GET', 'sub.js', 404, /^not found\n$/],
    ['GET', 'sub.js/', 404, /^not found\n$/],
  ];
  for (const [method, path, status, body] of cases) {
    const res = await fetch(server.url + path, { method });
    assert.equal(res.status, status, `${method} ${path}`);
    assert.match(await res.text(), body, `${method} ${path}`);
    assert.ok(server.alive(), `the server died on ${method} ${path}`);
  }
  const ok = await fetch(server.url);
  assert.equal(ok.status, 200, 'still serving');
  const log = server.log();
  assert.deepEqual(
    log.map((line) => `${line.split(':')[0]}:${line.split(':')[1].split(' ').slice(0, 3).join(' ')}`),
    ['serve: 500 /locked.js', 'serve: 500 /locked.js', 'serve: 500 /locked.html', 'serve: 500 /fails.bin'],
    log.join('\n'),
  );
  assert.match(log[0], /^serve: 500 \/locked\.js: EACCES: permission denied, open '.*locked\.js'$/);
  assert.match(log[3], /^serve: 500 \/fails\.bin: EIO: /);
});

test('serve_should_survive_a_file_removed_and_replaced_by_a_folder_while_it_is_read', async (t) => {
  const dir = folder(t);
  const body = 'x'.repeat(200000 + Math.floor(random() * 100000));
  const path = join(dir, 'flip.js');
  writeFileSync(path, body);
  const server = await start(dir);
  t.after(() => server.stop());
  // Flip the name between a file, nothing and a folder as fast as the loop runs, while requests come.
  let flipping = true;
  const flipper = (async () => {
    let n = 0;
    while (flipping) {
      const step = n++ % 3;
      rmSync(path, { recursive: true, force: true });
      if (step === 0) {
        writeFileSync(`${path}.tmp`, body);
        renameSync(`${path}.tmp`, path);
      } else if (step === 2) {
        mkdirSync(path);
      }
      await new Promise((r) => setImmediate(r));
    }
  })();
  const seen = { 200: 0, 404: 0, 500: 0 };
  for (let i = 0; i < 300; i++) {
    const res = await fetch(`${server.url}flip.js`);
    const text = await res.text();
    assert.ok(res.status in seen, `status ${res.status}`);
    if (res.status === 200) assert.equal(text, body, 'a 200 carries the whole file');
    seen[res.status]++;
  }
  flipping = false;
  await flipper;
  console.log(`flip.js: ${JSON.stringify(seen)}`);
  assert.ok(server.alive(), 'the server is still running');
  assert.equal((await fetch(server.url)).status, 200);
  for (const line of server.log()) assert.match(line, /^serve: 500 \/flip\.js: E[A-Z]+: [^\n]+$/);
  assert.equal(server.log().length, seen[500], 'one log line per 500');
});
