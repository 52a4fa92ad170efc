// tools/serve.mjs never dies on a file (issue 22, item 7): an unreadable file (mode 000), a
// file whose read fails after it opened, a folder, and a file removed and replaced by a folder
// while requests for it keep coming are each answered (500, 404 or the whole file) with one log
// line per failure, and the server still serves afterwards. The server runs in its own process
// (a crash would end it), as an unprivileged user when the tests run as root, so that mode 000
// means what it says. Nor on a request (issue #35): a Host header that is no host[:port] is a
// 400, a FIFO holds nothing up, and a 1.5 GB file streams in modest memory.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { rng, seed } from '../lib/testlib.mjs';
import { folder, parseAnswer, raw, start } from './serve_child.mjs';

const random = rng(seed('serve errors'));

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

// Issue #35: a Host header the URL parser refuses ended the server (TypeError: Invalid URL, in
// the discovery link of a page). Every such value gets a 400 naming it, on every path.
test('serve_should_answer_400_to_a_host_header_that_is_not_a_host_and_keep_serving', async (t) => {
  const server = await start(folder(t));
  t.after(() => server.stop());
  const hosts = ['a<b', '[', '', 'a b', 'x/y', 'a@b', 'a?b', 'a#b', 'a\\b', 'a:99999', '[::1', 'h:port', '%zz', 'é'];
  for (const host of hosts) {
    for (const path of ['/', '/index.html', '/oembed?url=x&format=json', '/nothing.js']) {
      const request = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
      const answer = parseAnswer(await raw(server.port, request));
      assert.ok(answer, `Host ${JSON.stringify(host)}, ${path}: no whole answer`);
      assert.equal(answer.status, 400, `Host ${JSON.stringify(host)}, ${path}`);
      assert.equal(answer.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(
        answer.body.toString('utf8'),
        `bad request: Host must be a host[:port], not ${JSON.stringify(host)}\n`,
        `Host ${JSON.stringify(host)}, ${path}`,
      );
      assert.ok(server.alive(), `the server died on Host ${JSON.stringify(host)}, ${path}`);
    }
  }
  const ok = parseAnswer(
    await raw(server.port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`),
  );
  assert.equal(ok.status, 200, 'still serving');
  assert.deepEqual(server.log(), [], 'a bad Host is no server error');
});

// Issue #35: a page naming a FIFO held the whole server until a writer came, and files were
// read whole (a 1.5 GB file took the server to 1.6 GB). Only regular files are served, opened
// without waiting; files stream; what a page inlines is capped.
test('serve_should_refuse_fifos_without_waiting_and_stream_large_files_in_modest_memory', async (t) => {
  const dir = folder(t);
  const GB = 1.5e9;
  execFileSync('mkfifo', [join(dir, 'pipe.js')]);
  writeFileSync(join(dir, 'fifo.html'), '<!doctype html><p>x</p><script src="pipe.js"></script>\n');
  writeFileSync(join(dir, 'big.bin'), '');
  truncateSync(join(dir, 'big.bin'), GB);
  writeFileSync(join(dir, 'big.js'), '');
  truncateSync(join(dir, 'big.js'), GB);
  writeFileSync(join(dir, 'big.html'), '<!doctype html><p>x</p><script src="big.js"></script>\n');
  writeFileSync(join(dir, 'huge.html'), '<!doctype html>');
  truncateSync(join(dir, 'huge.html'), GB);
  const server = await start(dir);
  t.after(() => server.stop());
  const get = (path) => fetch(server.url + path, { signal: AbortSignal.timeout(10000) });

  // The FIFO page and, while it is answered, the index: neither waits on the FIFO.
  const [fifoPage, index, fifo] = await Promise.all([get('fifo.html'), get(''), get('pipe.js')]);
  assert.equal(fifoPage.status, 500);
  assert.equal(await fifoPage.text(), 'could not inline /fifo.html: pipe.js is not a regular file\n');
  assert.equal(index.status, 200, 'the index is served beside it');
  assert.equal(fifo.status, 404, 'a FIFO is not a file to serve');
  assert.equal(await fifo.text(), 'not found\n');

  // A 1.5 GB file streams: its length up front, its first 64 MB read, the rest left.
  const big = await get('big.bin');
  assert.equal(big.status, 200);
  assert.equal(big.headers.get('content-length'), String(GB));
  let got = 0;
  const reader = big.body.getReader();
  while (got < 64 * 2 ** 20) {
    const { value, done } = await reader.read();
    assert.ok(!done, `the body ended at ${got} bytes`);
    assert.ok(
      value.every((b) => b === 0),
      'a sparse file reads as zeros',
    );
    got += value.length;
  }
  await reader.cancel();

  for (const [path, message] of [
    ['big.html', `big.js is ${GB} bytes, more than the 8388608 a page may inline`],
    ['huge.html', `the page is ${GB} bytes, more than the 8388608 a page may inline`],
  ]) {
    const res = await get(path);
    assert.equal(res.status, 500, path);
    assert.equal(await res.text(), `could not inline /${path}: ${message}\n`);
  }
  const peak = server.peakRss();
  console.log(`serve.mjs peak RSS: ${(peak / 2 ** 20).toFixed(1)} MB`);
  assert.ok(peak < 256 * 2 ** 20, `peak RSS ${peak} bytes`);
  assert.ok(server.alive());
  assert.equal((await get('')).status, 200, 'still serving');
});
