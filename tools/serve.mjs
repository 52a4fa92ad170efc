#!/usr/bin/env node
// A small static server for the page (`make serve`, the browser tests, `make bench`):
// files under one folder, on 127.0.0.1 only, GET and HEAD only, with the page's
// Content-Security-Policy (read from the <meta> of web/index.html, so it is written once)
// and X-Content-Type-Options: nosniff on every response.
//   node tools/serve.mjs [DIR] [PORT]      (defaults: web, 8000; port 0 picks a free one)
// Prints "serving DIR at URL" once listening.
import { createServer } from 'node:http';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** The policy in the Content-Security-Policy <meta> of an HTML file. */
export function metaPolicy(htmlPath = join(ROOT, 'web/index.html')) {
  const html = readFileSync(htmlPath, 'utf8');
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
  if (!match) throw new Error(`${htmlPath}: no Content-Security-Policy <meta>`);
  return match[1];
}

/** Serves dir on 127.0.0.1:port; resolves to { url, port, close() } once listening. */
export function serve(dir = join(ROOT, 'web'), port = 0) {
  const base = resolve(dir);
  const policy = metaPolicy();
  const server = createServer((req, res) => {
    const headers = {
      'Content-Security-Policy': policy,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    };
    const fail = (status, text) => {
      res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : `${text}\n`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405, 'method not allowed');
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      return fail(400, 'bad request');
    }
    if (path.endsWith('/')) path += 'index.html';
    const file = resolve(base, `.${path}`);
    if (file !== base && !file.startsWith(base + sep)) return fail(404, 'not found');
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return fail(404, 'not found');
    }
    if (!stat.isFile()) return fail(404, 'not found');
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    res.writeHead(200, { ...headers, 'Content-Type': type, 'Content-Length': stat.size });
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).pipe(res);
    return undefined;
  });
  return new Promise((resolveServer, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const actual = server.address().port;
      resolveServer({
        url: `http://127.0.0.1:${actual}/`,
        port: actual,
        policy,
        close: () => new Promise((done) => {
          server.closeAllConnections?.();
          server.close(() => done());
        }),
      });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? join(ROOT, 'web');
  const port = Number(process.argv[3] ?? 8000);
  serve(dir, port).then(({ url }) => console.log(`serving ${dir} at ${url}`), (err) => {
    console.error(`serve: ${err.message}`);
    process.exit(1);
  });
}
