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
// Serving web/ (the default), it also answers the paths of the release folder make dist writes,
// which the embed builder's snippets name: /v<version>/ropescope/… and /v<version>/ropescope-embed.js
// from web/ (make web builds it there), /v<version>/pictures/… (also without /v<version>) from dist/.
// /oembed?url=<an explorer page here>&format=json answers oEmbed (type rich: the iframe snippet
// of that page's view and settings, its picture as the thumbnail); each HTML page it inlines
// names that endpoint in a discovery <link> (web/README.md, "oEmbed").
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
 * Where a request path lives: { base, file }, or null. Serving web/, the release folder's paths
 * (dist/v<version>/…) are answered from web/ and dist/ as make dist lays them out there.
 */
function locate(base, path, release) {
  if (release) {
    const prefix = `/v${VERSION}/`;
    const rest = path.startsWith(prefix) ? path.slice(prefix.length - 1) : null;
    if (rest?.startsWith('/ropescope/')) return { base, file: resolve(base, `.${rest.slice('/ropescope'.length)}`) };
    if (rest === '/ropescope.html') return { base, file: join(base, 'index.html') };
    if (rest === '/ropescope-resize.js' || rest === '/ropescope-embed.js')
      return { base, file: resolve(base, `.${rest}`) };
    const own = rest ?? path;
    if (own.startsWith('/pictures/')) return { base: DIST, file: resolve(DIST, `.${own}`) };
  }
  return { base, file: resolve(base, `.${path}`) };
}

const PAGE_NAMES = new Set(['index.html', 'ropescope.html']);
const WHOLE = /^[1-9]\d{0,5}$/;

/**
 * The oEmbed answer for a request's query: { status, json } or { status, text } (a message
 * naming the parameter). `origin`: this server's, as the client reached it.
 */
async function oembed(query, origin, findPage, pictures) {
  const format = query.get('format') ?? 'json';
  if (format !== 'json') return { status: 501, text: `format: only json is offered, not ${JSON.stringify(format)}` };
  const url = query.get('url');
  if (!url) return { status: 400, text: 'url: missing (the address of an explorer page on this server)' };
  let target;
  try {
    target = new URL(url);
  } catch {
    return { status: 400, text: `url: ${JSON.stringify(url.slice(0, 200))} is not an absolute address` };
  }
  if (target.origin !== origin)
    return { status: 404, text: `url: ${JSON.stringify(target.origin)} is not this server (${origin})` };
  const limits = {};
  for (const name of ['maxwidth', 'maxheight']) {
    const value = query.get(name);
    if (value === null) continue;
    if (!WHOLE.test(value))
      return {
        status: 400,
        text: `${name}: must be a whole number of pixels from 1 to 999999, not ${JSON.stringify(value.slice(0, 40))}`,
      };
    limits[name] = Number(value);
  }
  if (!findPage(target.pathname)) return { status: 404, text: `url: ${target.pathname} is not an explorer page here` };
  // The page's own modules: the same URL reader, figures table and snippet as the builder's.
  const [{ readQuery }, { fillFromPreset }, { FIGURE }, embed, picture] = await Promise.all([
    import('../web/src/state/state.js'),
    import('../web/src/model/long.js'),
    import('../web/src/figures/index.js'),
    import('../web/src/element/embed.js'),
    import('../web/src/element/picture.js'),
  ]);
  const { state, problems } = readQuery(target.search);
  const badView = problems.find((p) => p.name === 'view');
  if (badView) return { status: 404, text: `url: ${badView.message}` };
  try {
    fillFromPreset(state);
  } catch {
    // a preset the reader refuses: the embed says so, as the page does
  }
  const page = origin + target.pathname;
  const options = { view: state.view, controls: state.controls, title: state.title, theme: state.theme, auto: false };
  const fixed = embed.fixedHeight(state.view, options);
  const width = Math.min(limits.maxwidth ?? picture.PICTURE_WIDTH, picture.PICTURE_WIDTH);
  const height = Math.min(limits.maxheight ?? fixed, fixed);
  const json = {
    type: 'rich',
    version: '1.0',
    title: state.view === 'all' ? 'ropescope: every figure' : FIGURE[state.view].title,
    provider_name: 'ropescope',
    provider_url: `${origin}/`,
    html: embed.snippet(state, { ...options, height }, page),
    width,
    height,
  };
  // The thumbnail: the view's picture in the snippet's theme, if make dist wrote it and it fits.
  const theme = state.theme === 'dark' ? 'dark' : 'light';
  const entry = pictures()?.views?.[picture.pictureView(state.view)]?.[theme];
  if (entry && entry.width <= (limits.maxwidth ?? Infinity) && entry.height <= (limits.maxheight ?? Infinity)) {
    Object.assign(json, {
      thumbnail_url: `${embed.releaseBase(page)}${picture.PICTURE_DIR}/${entry.file}`,
      thumbnail_width: entry.width,
      thumbnail_height: entry.height,
    });
  }
  return { status: 200, json };
}

// make dist's pictures.json, read afresh (a new dist shows at once); null without one.
function readPictures(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'pictures.json'), 'utf8'));
  } catch {
    return null;
  }
}

const escapeAttr = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The oEmbed discovery <link> for the page at `pageUrl`, put at the end of its <head>. */
export function withDiscovery(html, pageUrl) {
  const origin = new URL(pageUrl).origin;
  const href = `${origin}/oembed?url=${encodeURIComponent(pageUrl)}&format=json`;
  const link = `<link rel="alternate" type="application/json+oembed" href="${escapeAttr(href)}" title="ropescope">`;
  return html.replace('</head>', `  ${link}\n</head>`);
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
    let requested;
    try {
      requested = new URL(req.url, 'http://localhost');
      path = decodeURIComponent(requested.pathname);
    } catch {
      return fail(400, 'bad request');
    }
    const origin = `http://${req.headers.host ?? `127.0.0.1:${server.address().port}`}`;
    if (path === '/oembed') {
      oembed(requested.searchParams, origin, findPage, () => readPictures(picturesDir)).then(
        ({ status, json, text }) => {
          if (!json) return fail(status, `oembed: ${text}`);
          const body = Buffer.from(JSON.stringify(json));
          res.writeHead(status, {
            ...headers,
            'Content-Type': 'application/json; charset=utf-8',
            'Content-Length': body.length,
          });
          return res.end(req.method === 'HEAD' ? undefined : body);
        },
        (err) => {
          console.error(`serve: 500 /oembed: ${String(err.message).split('\n')[0]}`);
          fail(500, 'oembed: could not answer');
        },
      );
      return undefined;
    }
    if (path.endsWith('/')) path += 'index.html';
    const { base: root, file } = locate(base, path, release);
    if (!inside(root, file)) return fail(404, 'not found');
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
        page = inlinedPage(root, file, policy);
      } catch (err) {
        console.error(`serve: 500 ${path}: could not inline: ${String(err.message).split('\n')[0]}`);
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
  const [dir = WEB, port = '8000'] = args.filter((a) => a !== '--as-files');
  serve(dir, Number(port), { asFiles }).then(
    ({ url }) => console.log(`serving ${dir} at ${url}`),
    (err) => {
      console.error(`serve: ${err.message}`);
      process.exit(1);
    },
  );
}
