// tools/serve.mjs under random requests (issue #35): hostile Host and other header values,
// paths (traversal, percent-encodings, NUL, very long), query strings for /oembed and the pages,
// methods and HTTP versions, sent raw over a socket to two servers in their own processes (web/,
// and a folder holding a FIFO, a page naming it, an unreadable file and a page over the inline
// cap). Each request must get one whole HTTP answer with a status in ALLOWED, both servers must
// live on, and a 5xx only comes where it is documented: a page that cannot be inlined, a file
// that cannot be read (500, one stderr line each), an oEmbed format other than json (501).
// Seeded by ROPE_TEST_SEED (printed); SERVE_FUZZ_REQUESTS sets the count (2,000).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { INLINE_LIMIT } from '../../tools/serve.mjs';
import { VERSION } from '../../web/gen/version.js';
import { ROOT, rng, seed } from '../lib/testlib.mjs';
import { folder, parseAnswer, raw, start } from './serve_child.mjs';

const SEED = seed('serve fuzz');
const random = rng(SEED);
const REQUESTS = Number(process.env.SERVE_FUZZ_REQUESTS ?? 2000);
const CONCURRENCY = 8;

// Statuses the server gives (200, 400, 404, 405, 500, 501) and node's own parser does: 400 for
// a request it cannot read, 417 for an Expect it does not know, 431 for headers over 16 KB.
const ALLOWED = new Set([200, 400, 404, 405, 417, 431, 500, 501]);
// The documented 500s of the fixture folder: pages that cannot be inlined, a file not readable.
const DOCUMENTED_500 = /^could not (inline \/(.*\/)?(fifo|missing|huge)\.html: .+|read \/(.*\/)?locked\.js)\n$/;

const pick = (list) => list[Math.floor(random() * list.length)];
const chance = (p) => random() < p;
const int = (n) => Math.floor(random() * n);
// A string of n characters from `alphabet` (a string; latin1 when sent).
const run = (alphabet, n) => Array.from({ length: n }, () => alphabet[int(alphabet.length)]).join('');
const VISIBLE = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).join('');
const HOSTILE = `${VISIBLE} \t\0\x01\x7f\x80\xe9\xff`;

const HOSTILE_HOSTS = ['a<b', '[', '', 'a b', 'x/y', 'a@b', 'a?b', 'a#b', 'a\\b', 'a:99999', '[::1', '%zz', '\xe9'];
const FIXTURE_FILES = ['index.html', 'a.js', 's.css', 'sub/b.js', 'data.bin', 'empty.txt'];
const FIXTURE_BAD = ['pipe.js', 'fifo.html', 'missing.html', 'huge.html', 'locked.js', 'sub', 'sub/'];
const WEB_FILES = ['', 'index.html', 'embed.html', 'embed/slow.html', 'style.min.css', 'ropescope.js', 'nothing.js'];
const RELEASE = [`v${VERSION}/ropescope/`, `v${VERSION}/ropescope-embed.js`, `v${VERSION}/pictures/x.png`, 'pictures/'];
const TRAVERSAL = ['../', '..%2f', '%2e%2e/', '%2E%2E%2F', '..\\', '..%5c', '.%2e/', '%c0%af', '//', '/./'];
const ENCODINGS = ['%', '%zz', '%00', '%ff', '%c3%a9', '%2f', '%25', '%u0041', '\xe9', '\0', '%0d%0a', ' ', '#x'];

/** A random path (the request target without its query). */
function path(files) {
  if (chance(0.4)) return `/${pick(files)}`;
  const parts = [];
  for (let n = 1 + int(3); n > 0; n--) {
    const roll = random();
    if (roll < 0.4) parts.push(pick(files));
    else if (roll < 0.6) parts.push(pick(TRAVERSAL));
    else if (roll < 0.75) parts.push(pick(ENCODINGS));
    else if (roll < 0.85) parts.push(pick(RELEASE));
    else if (roll < 0.95) parts.push(run(VISIBLE, 1 + int(12)));
    else parts.push('a'.repeat(pick([255, 300, 4096, 20000])));
  }
  return `/${parts.join(chance(0.5) ? '/' : '')}`;
}

// A random value for a query parameter: plausible, hostile or huge.
function value(origin) {
  return pick([
    () => `${origin}/?view=${pick(['slow', 'all', 'flatness', 'nope', ''])}&dim=${pick(['128', '-1', '1e999', 'x'])}`,
    () => `${origin}/${pick(['index.html', 'embed.html', 'nothing/index.html', `v${VERSION}/ropescope/index.html`])}`,
    () => pick(['javascript:alert(1)', 'data:text/html,<p>', `blob:${origin}/`, 'file:///etc/passwd', 'mailto:a@b']),
    () => pick(['https://example.org/', 'http://[::1]/', 'http://a<b/', '//x/', '/index.html', 'not a url']),
    () => pick(['json', 'xml', '', 'JSON', '0', '-3', '12.5', '999999', '1000000', '1e3', ' 7', '0x10']),
    () => run(HOSTILE, int(40)),
    () => 'x'.repeat(pick([201, 5000])),
  ])();
}

const enc = (text) => (chance(0.7) ? encodeURIComponent(text) : text);

/** A random query string (with its '?'), for /oembed or a page. */
function query(origin, oembed) {
  const keys = oembed
    ? ['url', 'format', 'maxwidth', 'maxheight', 'x']
    : ['view', 'dim', 'base', 'gap', 'theme', 'embed'];
  const pairs = [];
  for (let n = int(5); n > 0; n--) {
    if (chance(0.1)) pairs.push(pick(['', '=', '&', '==', run(HOSTILE, 3)]));
    else pairs.push(`${chance(0.9) ? pick(keys) : run(VISIBLE, 4)}=${enc(value(origin))}`);
  }
  return pairs.length || chance(0.5) ? `?${pairs.join('&')}` : '';
}

/** A random request: { bytes, head: whether it is a HEAD }. Always asks to close. */
function request(port, files) {
  const origin = `http://127.0.0.1:${port}`;
  const method = chance(0.8)
    ? pick(['GET', 'GET', 'GET', 'HEAD'])
    : pick(['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT', 'BREW', 'get', 'G\0T', run(VISIBLE, 5)]);
  const oembed = chance(0.25);
  const target = (oembed ? '/oembed' : path(files)) + (chance(0.6) ? query(origin, oembed) : '');
  const version = chance(0.95) ? 'HTTP/1.1' : pick(['HTTP/1.0', 'HTTP/2.0', 'HTTP/1.2', 'HTTX/1.1', '']);
  const lines = [`${method} ${target} ${version}`];
  const roll = random();
  if (roll < 0.75) lines.push(`Host: 127.0.0.1:${port}`);
  else if (roll < 0.9) lines.push(`Host: ${pick(HOSTILE_HOSTS)}`);
  else if (roll < 0.97) lines.push(`Host: ${run(HOSTILE, int(30))}`);
  for (let n = chance(0.3) ? 1 + int(2) : 0; n > 0; n--) {
    lines.push(
      pick([
        () => `X-${run('abcdefgh', 4)}: ${run(chance(0.5) ? VISIBLE : HOSTILE, int(60))}`,
        () => `User-Agent: ${'u'.repeat(pick([10, 9000, 17000]))}`,
        () => `Expect: ${pick(['100-continue', 'nonsense'])}`,
        () => `Accept: ${run(HOSTILE, 20)}`,
        () => `${run(HOSTILE.replace(':', ''), 1 + int(8))}: x`,
      ])(),
    );
  }
  let body = '';
  if (chance(0.05)) {
    body = run(VISIBLE, int(100));
    lines.push(`Content-Length: ${body.length}`);
  }
  lines.push('Connection: close');
  return { bytes: `${lines.join('\r\n')}\r\n\r\n${body}`, head: method === 'HEAD' };
}

// The fixture folder: readable files, and each kind of file the server must refuse.
function fixture(t) {
  const dir = folder(t);
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><head></head><p>ok</p><script src="a.js"></script>\n');
  writeFileSync(join(dir, 'a.js'), 'console.log(1);\n');
  writeFileSync(join(dir, 's.css'), 'p{}\n');
  writeFileSync(join(dir, 'sub/b.js'), '2;\n');
  writeFileSync(join(dir, 'data.bin'), Buffer.from(Array.from({ length: 200000 }, () => int(256))));
  writeFileSync(join(dir, 'empty.txt'), '');
  execFileSync('mkfifo', [join(dir, 'pipe.js')]);
  writeFileSync(join(dir, 'fifo.html'), '<script src="pipe.js"></script>\n');
  writeFileSync(join(dir, 'missing.html'), '<script src="gone.js"></script>\n');
  writeFileSync(join(dir, 'huge.html'), '');
  truncateSync(join(dir, 'huge.html'), INLINE_LIMIT + 1);
  writeFileSync(join(dir, 'locked.js'), 'secret();\n');
  chmodSync(join(dir, 'locked.js'), 0o000);
  return dir;
}

// One request's answer, checked: the problem as a sentence, or null.
function problem(bytes, head, answer) {
  if (!answer) return 'no answer within 10 s';
  const got = parseAnswer(answer, head);
  if (!got) return `not one whole HTTP answer: ${JSON.stringify(answer.subarray(0, 300).toString('latin1'))}`;
  const text = got.body.toString('utf8');
  if (!ALLOWED.has(got.status)) return `status ${got.status}: ${text.slice(0, 200)}`;
  if (got.status === 500 && !head && !DOCUMENTED_500.test(text)) return `an undocumented 500: ${text.slice(0, 200)}`;
  if (got.status === 501 && !(bytes.includes(' /oembed') && (head || /^oembed: format: /.test(text))))
    return `a 501 that is not oEmbed's format: ${text.slice(0, 200)}`;
  // The server's own answers carry its headers; node's parser's (an empty 400, 417, 431) do not.
  if (got.headers['content-security-policy'] && got.headers['x-content-type-options'] !== 'nosniff')
    return 'an answer without X-Content-Type-Options: nosniff';
  return null;
}

// The defects of issue #35 as named requests: [name, server ('web' or 'fixture'), request, status].
const NAMED = [
  ['Host a<b on a page', 'web', 'GET / HTTP/1.1\r\nHost: a<b', 400],
  ['Host [ on a page', 'web', 'GET /index.html HTTP/1.1\r\nHost: [', 400],
  ['empty Host on oEmbed', 'web', 'GET /oembed?url=x HTTP/1.1\r\nHost: ', 400],
  ['a page naming a FIFO', 'fixture', 'GET /fifo.html HTTP/1.1\r\nHost: 127.0.0.1', 500],
  ['a FIFO', 'fixture', 'GET /pipe.js HTTP/1.1\r\nHost: 127.0.0.1', 404],
  ['a page over the inline cap', 'fixture', 'GET /huge.html HTTP/1.1\r\nHost: 127.0.0.1', 500],
  ['oEmbed of javascript:', 'web', 'GET /oembed?url=javascript%3Aalert(1) HTTP/1.1\r\nHost: 127.0.0.1:PORT', 404],
];

test('serve_should_answer_every_random_request_and_stay_up', async (t) => {
  const servers = { web: await start(join(ROOT, 'web')), fixture: await start(fixture(t)) };
  t.after(() => Promise.all(Object.values(servers).map((s) => s.stop())));
  const where = (name) => `${name} (ROPE_TEST_SEED=${SEED})`;

  for (const [name, which, head, status] of NAMED) {
    const server = servers[which];
    const bytes = `${head.replace('PORT', server.port)}\r\nConnection: close\r\n\r\n`;
    const answer = await raw(server.port, bytes);
    assert.equal(problem(bytes, false, answer), null, where(name));
    assert.equal(parseAnswer(answer).status, status, where(name));
    assert.ok(server.alive(), where(`${name}: the server died`));
  }

  const tally = {};
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      const i = next++;
      const which = chance(0.5) ? 'web' : 'fixture';
      const server = servers[which];
      const { bytes, head } = request(server.port, which === 'web' ? WEB_FILES : [...FIXTURE_FILES, ...FIXTURE_BAD]);
      const answer = await raw(server.port, bytes);
      const found = problem(bytes, head, answer);
      assert.equal(found, null, where(`request ${i} to ${which}: ${JSON.stringify(bytes.slice(0, 500))}`));
      assert.ok(
        server.alive(),
        where(`the ${which} server died on request ${i}: ${JSON.stringify(bytes.slice(0, 500))}`),
      );
      const status = parseAnswer(answer, head).status;
      tally[status] = (tally[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  console.log(`serve fuzz: ${REQUESTS} requests, statuses ${JSON.stringify(tally)}`);

  for (const [which, server] of Object.entries(servers)) {
    const answer = parseAnswer(
      await raw(server.port, `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    );
    assert.equal(answer?.status, 200, where(`${which}: still serving`));
    for (const line of server.log())
      assert.match(
        line,
        /^serve: 500 \/(.*\/)?((fifo|missing|huge)\.html: could not inline|locked\.js): /,
        where(which),
      );
  }
});
