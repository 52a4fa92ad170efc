#!/usr/bin/env node
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
// A small static server for the page (`make serve`, the browser tests, `make bench`):
// files under one folder, on 127.0.0.1 only, GET and HEAD only, with the page's
// Content-Security-Policy (read from the <meta> of web/index.html, so it is written once)
// and X-Content-Type-Options: nosniff on every response.
// An HTML page is sent with its own stylesheets and scripts inlined (tools/inline.mjs), as
// dist/ropescope.html holds them: one response, so a cold load does not wait for a second
// round of requests (about 25 ms of the first chart on a 2-core machine). Its policy, in the
// header and in its <meta>, then lists the inline elements' hashes before 'self'.
// --as-files sends every file as it is (the page as a static host serves dist/ropescope/).
//   node tools/serve.mjs [DIR] [PORT] [--as-files]   (defaults: web, 8000; port 0 picks a free one)
// Prints "serving DIR at URL" once listening. A file that cannot be read (no permission, removed
// or replaced by a folder after it was found, a read error) is a 500 and one line on stderr;
// the server goes on.
// Files are read whole before the headers go out: the page's files are small, and a read that
// fails half-way can then still be answered with a status instead of a cut body.
import { createServer } from 'node:http';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CSP_META, inlinePage } from './inline.mjs';

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
  const match = CSP_META.exec(html);
  if (!match) throw new Error(`${htmlPath}: no Content-Security-Policy <meta>`);
  return match[1];
}

// Whether `file` (resolved) lies inside the folder `base`.
const inside = (base, file) => file === base || file.startsWith(base + sep);

// The page at `file` with the files it names inlined, read afresh on every request (an edit or
// a rebuild shows on the next load); a named file outside `base` or missing is an error.
function inlinedPage(base, file, policy) {
  const html = readFileSync(file, 'utf8');
  return inlinePage(
    html,
    (name) => {
      const target = resolve(dirname(file), name);
      if (!inside(base, target)) throw new Error(`${name} is outside the served folder`);
      return readFileSync(target, 'utf8');
    },
    { policy, keepSelf: true },
  );
}

/**
 * Serves dir on 127.0.0.1:port, HTML pages inlined unless asFiles; resolves to
 * { url, port, policy, close() } once listening.
 */
export function serve(dir = join(ROOT, 'web'), port = 0, { asFiles = false } = {}) {
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
    if (!inside(base, file)) return fail(404, 'not found');
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return fail(404, 'not found');
    }
    if (!stat.isFile()) return fail(404, 'not found');
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    if (!asFiles && type.startsWith('text/html')) {
      let page;
      try {
        page = inlinedPage(base, file, policy);
      } catch (err) {
        console.error(`serve: 500 ${path}: could not inline: ${String(err.message).split('\n')[0]}`);
        return fail(500, `could not inline ${path}: ${err.message}`);
      }
      const body = Buffer.from(page.html);
      res.writeHead(200, {
        ...headers,
        'Content-Security-Policy': page.policy,
        'Content-Type': type,
        'Content-Length': body.length,
      });
      return res.end(req.method === 'HEAD' ? undefined : body);
    }
    readFile(file).then(
      (body) => {
        res.writeHead(200, { ...headers, 'Content-Type': type, 'Content-Length': body.length });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (err) => {
        console.error(`serve: 500 ${path}: ${String(err.message).split('\n')[0]}`);
        fail(500, `could not read ${path}`);
      },
    );
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
        close: () =>
          new Promise((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const asFiles = args.includes('--as-files');
  const [dir = join(ROOT, 'web'), port = '8000'] = args.filter((a) => a !== '--as-files');
  serve(dir, Number(port), { asFiles }).then(
    ({ url }) => console.log(`serving ${dir} at ${url}`),
    (err) => {
      console.error(`serve: ${err.message}`);
      process.exit(1);
    },
  );
}
