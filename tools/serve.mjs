#!/usr/bin/env node
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
// A small static server for the page (`make serve`, the browser tests, `make bench`):
// files under one folder, on 127.0.0.1 only, GET and HEAD only, with the page's
// Content-Security-Policy (read from the <meta> of web/index.html, so it is written once)
// and X-Content-Type-Options: nosniff on every response.
// An HTML page is sent with its own stylesheets and scripts inlined (tools/inline.mjs), as
// dist/ropescope.html holds them: one response, so a cold load does not wait for a second
// round of requests (about 25 ms of the first chart on a 2-core machine). Its policy, in the
// header and in its <meta>, then lists the inline elements' hashes before 'self'.
// --as-files sends every file as it is (the page as a static host serves dist/ropescope/).
// Serving web/ (the default), it also answers the paths of the release folder make dist writes,
// which the embed builder's snippets name: /v<version>/ropescope/… and /v<version>/ropescope-embed.js (and its
// chunks, /v<version>/ropescope-embed/…)
// from web/ (make web builds it there), /v<version>/pictures/… (also without /v<version>) from dist/.
// /oembed?url=<an explorer page here>&format=json answers oEmbed (type rich: the iframe snippet
// of that page's view and settings, its picture as the thumbnail); each HTML page it inlines
// names that endpoint in a discovery <link> (tools/oembed.mjs; web/README.md, "oEmbed").
//   node tools/serve.mjs [DIR] [PORT] [--as-files]   (defaults: web, 8000; port 0 picks a free one)
// Prints "serving DIR at URL" once listening. No request ends it: a Host header that is not a
// host[:port] is a 400; only regular files are served (a FIFO, a device or a folder is a 404,
// opened without waiting for a writer); a file that cannot be read (no permission, a read error)
// is a 500 and one line on stderr; anything else that fails is a 500 and a line too.
// Files are streamed, their first chunk read before the headers go out (a file that cannot be
// read at all still gets a status); a read that fails later cuts the body, with a line on stderr.
// What a page inlines (the page and each file it names) is read whole, so each is capped at
// INLINE_LIMIT bytes: a page over it, or naming a file over it, is a 500 that says so.
import { createServer } from 'node:http';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CSP_META, inlinePage } from './inline.mjs';
import { oembed, withDiscovery } from './oembed.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WEB = join(ROOT, 'web');
const DIST = join(ROOT, 'dist');
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

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

// Most a page, or one file it names, may hold to be inlined: what is inlined is held in memory
// whole, for each request; the explorer's own files are far smaller.
export const INLINE_LIMIT = 8 * 1024 * 1024;
const CHUNK = 64 * 1024;
// O_NONBLOCK: opening a FIFO for reading would otherwise wait until something opens it to write.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
// Errors that mean "no such file here" (ERR_INVALID_ARG_VALUE: a NUL in the path).
const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP', 'ERR_INVALID_ARG_VALUE']);

// The text of the regular file `file` (`name` in messages), at most `limit` bytes; read in
// chunks up to the limit, as the file may grow after its size was taken.
function readRegular(file, name, limit = INLINE_LIMIT) {
  const fd = openSync(file, OPEN_FLAGS);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new Error(`${name} is not a regular file`);
    if (info.size > limit) throw new Error(`${name} is ${info.size} bytes, more than the ${limit} a page may inline`);
    const chunks = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const n = readSync(fd, chunk, 0, CHUNK, null);
      if (n === 0) break;
      total += n;
      if (total > limit) throw new Error(`${name} grew past the ${limit} bytes a page may inline`);
      chunks.push(chunk.subarray(0, n));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

// The page at `file` with the files it names inlined; a named file outside `base`, missing, not a
// regular file or over INLINE_LIMIT is an error. The result is kept while the page and every file
// it inlined keep their size and modification time (checked on every request, so an edit or a
// rebuild shows on the next load): writing in half a megabyte and hashing it took 10-30 ms a
// request, time a static host serving dist/ropescope.html never spends.
const inlined = new Map(); // `${base}\0${file}` -> { stamps: [[path, stamp]...], page }
const stampOf = (path) => {
  try {
    const info = statSync(path);
    return `${info.size}:${info.mtimeMs}:${info.ino}`;
  } catch {
    return null; // gone: the page is inlined again, and says what is missing
  }
};
function inlinedPage(base, file, policy) {
  const key = `${base}\0${file}`;
  const kept = inlined.get(key);
  if (kept && kept.policy === policy && kept.stamps.every(([path, stamp]) => stampOf(path) === stamp)) return kept.page;
  const stamps = [[file, stampOf(file)]];
  const html = readRegular(file, 'the page');
  const page = inlinePage(
    html,
    (name) => {
      const target = resolve(dirname(file), name);
      if (!inside(base, target)) throw new Error(`${name} is outside the served folder`);
      stamps.push([target, stampOf(target)]);
      return readRegular(target, name);
    },
    { policy, keepSelf: true },
  );
  inlined.set(key, { stamps, policy, page });
  return page;
}

// Whether `file` is a regular file (false if there is none); stat waits on no FIFO.
async function isRegular(file) {
  try {
    return (await stat(file)).isFile();
  } catch (err) {
    if (ABSENT.has(err.code)) return false;
    throw err;
  }
}

/**
 * `file` opened for reading if it is a regular file: { handle, size }; null if there is no such
 * file or it is something else (a folder, a FIFO, a device). Other errors (EACCES) are thrown.
 * The type is checked on the opened file, so a name swapped after the check cannot slip by.
 */
async function openRegular(file) {
  if (!(await isRegular(file))) return null;
  let handle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (err) {
    if (ABSENT.has(err.code)) return null;
    throw err;
  }
  try {
    const info = await handle.stat();
    if (info.isFile()) return { handle, size: info.size };
  } catch (err) {
    await handle.close();
    throw err;
  }
  await handle.close();
  return null;
}

// Resolves once `res` can take more (or is gone: a client that stops reading does not hold us).
const drained = (res) =>
  new Promise((done) => {
    const finish = () => {
      res.off('drain', finish);
      res.off('close', finish);
      done();
    };
    res.on('drain', finish);
    res.on('close', finish);
  });

/**
 * Sends the rest of an opened file after `first` (its first bytes, already read), `size` bytes in
 * all, `CHUNK` at a time; a read that fails, or a file that shrank, cuts the response (the
 * headers are out) with a line on stderr. Closes the handle.
 */
async function pump(res, handle, size, first, path) {
  let sent = 0;
  try {
    let chunk = first;
    while (!res.destroyed) {
      if (chunk.length && !res.write(chunk)) await drained(res);
      sent += chunk.length;
      if (sent >= size) break;
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK, size - sent));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, sent);
      if (bytesRead === 0) throw new Error(`the file ended at ${sent} of ${size} bytes`);
      chunk = buffer.subarray(0, bytesRead);
    }
    if (!res.destroyed) res.end();
  } catch (err) {
    console.error(`serve: cut ${path} after ${sent} of ${size} bytes: ${firstLine(err)}`);
    res.destroy();
  } finally {
    await handle.close();
  }
}

/**
 * Answers with an opened regular file ({ handle, size }): its first chunk is read before the
 * headers go out, so a file that cannot be read at all is still a 500; the rest streams (pump).
 * Closes the handle.
 */
async function sendFile(req, res, { handle, size }, headers, path, fail) {
  let first = Buffer.alloc(0);
  if (req.method !== 'HEAD') {
    try {
      // At least one byte asked for: a file that says it is empty may still fail to read.
      const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK, size)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      first = buffer.subarray(0, Math.min(bytesRead, size));
    } catch (err) {
      await handle.close();
      console.error(`serve: 500 ${path}: ${firstLine(err)}`);
      return fail(500, `could not read ${path}`);
    }
  }
  res.writeHead(200, { ...headers, 'Content-Length': size });
  if (req.method === 'HEAD') {
    await handle.close();
    return res.end();
  }
  return pump(res, handle, size, first, path);
}

const firstLine = (err) => String(err?.message ?? err).split('\n')[0];

// This server's origin as a request's Host header names it, or null for a value that is not a
// host[:port] (`a<b`, `[`, empty, or with a path, a query, credentials or a blank in it).
export function hostOrigin(host) {
  if (!/^[\x21-\x7e]+$/.test(host)) return null;
  let url;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return null;
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
  return url.origin;
}

/**
 * Where a request path lives: { base, file }, or null. Serving web/, the release folder's paths
 * (dist/v<version>/…) are answered from web/ and dist/ as make dist lays them out there.
 */
function locate(base, path, release) {
  if (release) {
    const prefix = `/v${VERSION}/`;
    const rest = path.startsWith(prefix) ? path.slice(prefix.length - 1) : null;
    if (rest?.startsWith('/ropescope/')) return { base, file: resolve(base, `.${rest.slice('/ropescope'.length)}`) };
    if (rest === '/ropescope.html') return { base, file: join(base, 'index.html') };
    if (rest === '/ropescope-resize.js' || rest === '/ropescope-embed.js' || rest?.startsWith('/ropescope-embed/'))
      return { base, file: resolve(base, `.${rest}`) };
    const own = rest ?? path;
    if (own.startsWith('/pictures/')) return { base: DIST, file: resolve(DIST, `.${own}`) };
  }
  return { base, file: resolve(base, `.${path}`) };
}

const PAGE_NAMES = new Set(['index.html', 'ropescope.html']);
// make dist's pictures.json, read afresh (a new dist shows at once); null without one.
function readPictures(dir) {
  try {
    return JSON.parse(readRegular(join(dir, 'pictures.json'), 'pictures.json'));
  } catch {
    return null;
  }
}

/**
 * Serves dir on 127.0.0.1:port, HTML pages inlined unless asFiles; resolves to
 * { url, port, policy, close() } once listening.
 */
export function serve(dir = WEB, port = 0, { asFiles = false } = {}) {
  const base = resolve(dir);
  const release = base === WEB;
  const picturesDir = release ? join(DIST, 'pictures') : join(base, 'pictures');
  const policy = metaPolicy();
  const findPage = (pathname) => {
    let path;
    try {
      path = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    if (path.endsWith('/')) path += 'index.html';
    const { base: root, file } = locate(base, path, release);
    if (!inside(root, file) || !PAGE_NAMES.has(file.slice(file.lastIndexOf(sep) + 1))) return null;
    try {
      return statSync(file).isFile() ? file : null;
    } catch {
      return null;
    }
  };
  const headers = {
    'Content-Security-Policy': policy,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
  const answer = async (req, res) => {
    const fail = (status, text) => {
      res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : `${text}\n`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405, 'method not allowed');
    // HTTP/1.0 may leave the Host out (node refuses an HTTP/1.1 request without one).
    const host = req.headers.host ?? `127.0.0.1:${server.address().port}`;
    const origin = hostOrigin(host);
    if (!origin) return fail(400, `bad request: Host must be a host[:port], not ${JSON.stringify(host.slice(0, 100))}`);
    let path;
    let requested;
    try {
      requested = new URL(req.url, 'http://localhost');
      path = decodeURIComponent(requested.pathname);
    } catch {
      return fail(400, 'bad request');
    }
    if (path === '/oembed') {
      const { status, json, text } = await oembed(requested.searchParams, origin, findPage, () =>
        readPictures(picturesDir),
      );
      if (!json) return fail(status, `oembed: ${text}`);
      const body = Buffer.from(JSON.stringify(json));
      res.writeHead(status, {
        ...headers,
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': body.length,
      });
      return res.end(req.method === 'HEAD' ? undefined : body);
    }
    if (path.endsWith('/')) path += 'index.html';
    const { base: root, file } = locate(base, path, release);
    if (!inside(root, file)) return fail(404, 'not found');
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    const inline = !asFiles && type.startsWith('text/html');
    let opened;
    try {
      // A page to inline is read whole below, where a failure names the file it was.
      opened = inline ? await isRegular(file) : await openRegular(file);
    } catch (err) {
      console.error(`serve: 500 ${path}: ${firstLine(err)}`);
      return fail(500, `could not read ${path}`);
    }
    if (!opened) return fail(404, 'not found');
    if (inline) {
      let page;
      try {
        page = inlinedPage(root, file, policy);
      } catch (err) {
        console.error(`serve: 500 ${path}: could not inline: ${firstLine(err)}`);
        return fail(500, `could not inline ${path}: ${err.message}`);
      }
      // The discovery <link> on the explorer's pages, which oEmbed answers for (not embed.html).
      const pageUrl = origin + requested.pathname + requested.search;
      const body = Buffer.from(findPage(requested.pathname) ? withDiscovery(page.html, pageUrl) : page.html);
      res.writeHead(200, {
        ...headers,
        'Content-Security-Policy': page.policy,
        'Content-Type': type,
        'Content-Length': body.length,
      });
      return res.end(req.method === 'HEAD' ? undefined : body);
    }
    return sendFile(req, res, opened, { ...headers, 'Content-Type': type }, path, fail);
  };
  // Whatever fails in answering is this request's 500 (or its cut body), never the server's end.
  const server = createServer((req, res) => {
    answer(req, res).catch((err) => {
      console.error(`serve: 500 ${String(req.url).slice(0, 200)}: ${firstLine(err)}`);
      if (res.headersSent) return res.destroy();
      res.writeHead(500, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      return res.end('internal error\n');
    });
  });
  // CONNECT is not a request this server answers; unanswered, node would drop the connection.
  server.on('connect', (req, socket) => {
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
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
  const [dir = WEB, port = '8000'] = args.filter((a) => a !== '--as-files');
  serve(dir, Number(port), { asFiles }).then(
    ({ url }) => console.log(`serving ${dir} at ${url}`),
    (err) => {
      console.error(`serve: ${err.message}`);
      process.exit(1);
    },
  );
}
