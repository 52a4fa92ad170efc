// tools/serve.mjs in its own process, for the tests that check no request ends it (a crash in
// process would end the test run with it): as an unprivileged user when the tests run as root,
// so that a file's mode means what it says. Raw requests go over a socket, as a client that
// does not follow the rules sends them.

import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../lib/testlib.mjs';

const NOBODY = 65534;

/**
 * serve.mjs on `dir`, port 0: { url, port, alive(), log(), peakRss() (bytes, VmHWM), stop() }.
 */
export async function start(dir) {
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
    port: Number(new URL(url).port),
    alive: () => child.exitCode === null && child.signalCode === null,
    log: () => stderr.split('\n').filter(Boolean),
    peakRss: () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) * 1024,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A temporary folder with index.html, readable by the server's user, removed after the test. */
export function folder(t) {
  const dir = mkdtempSync(join(tmpdir(), 'ropescope-serve-errors-'));
  chmodSync(dir, 0o755);
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title><p>ok</p>\n');
  return dir;
}

/**
 * Sends `bytes` (a string is latin1; end it with a request that asks to close) to 127.0.0.1:port
 * and gives every byte the server sent back until it closed (Buffer), or null if it did not
 * close within `ms`. The socket is not half-closed: node ends a connection whose client did,
 * even with an answer still to come.
 */
export function raw(port, bytes, ms = 10000) {
  return new Promise((resolve) => {
    const chunks = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(Buffer.from(bytes, 'latin1')));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, ms);
    socket.on('data', (chunk) => chunks.push(chunk));
    // A reset after the answer (the server closing on unread bytes) still leaves the answer.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
  });
}

/**
 * An HTTP/1.1 answer read off the wire: { status, headers (lower-case names), body }, or null
 * if it is not one whole answer (a bad status line or header, a body of another length than
 * Content-Length says, bytes after it), after any 1xx. `head`: the request was HEAD (no body).
 */
export function parseAnswer(bytes, head = false) {
  // An interim answer (100 Continue, to an Expect) comes first, headers only.
  while (/^HTTP\/1\.1 1\d\d /.test(bytes.subarray(0, 13).toString('latin1'))) {
    const interim = bytes.indexOf('\r\n\r\n');
    if (interim < 0) return null;
    bytes = bytes.subarray(interim + 4);
  }
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3}) [^\r\n]*$/.exec(statusLine);
  if (!m) return null;
  const headers = {};
  for (const line of lines) {
    const h = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (!h) return null;
    headers[h[1].toLowerCase()] = h[2];
  }
  let body = bytes.subarray(end + 4);
  const status = Number(m[1]);
  if (head || status === 204 || status === 304) {
    if (body.length) return null;
  } else if (headers['transfer-encoding'] === 'chunked') {
    const parts = [];
    let at = 0;
    for (;;) {
      const eol = body.indexOf('\r\n', at);
      const size = eol < 0 ? Number.NaN : Number.parseInt(body.subarray(at, eol).toString('latin1'), 16);
      if (!Number.isInteger(size)) return null;
      at = eol + 2;
      if (size === 0) break;
      parts.push(body.subarray(at, at + size));
      at += size + 2;
    }
    if (body.subarray(at).toString('latin1') !== '\r\n') return null;
    body = Buffer.concat(parts);
  } else if ('content-length' in headers) {
    if (!/^\d+$/.test(headers['content-length']) || Number(headers['content-length']) !== body.length) return null;
  }
  return { status, headers, body };
}
