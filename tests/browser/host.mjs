// Host pages for the embed tests: a mock blog on its own origin (a second local server, with
// no CSP of ours, so an iframe of the explorer is cross-origin as on a real blog; a local one,
// since Chromium blocks a public page from framing 127.0.0.1), serving the page under test
// at /post-N.html and dist/ropescope-embed.js at /ropescope-embed.js.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after } from 'node:test';
import { closureOf } from '../lib/testlib.mjs';
import { openPage, ROOT } from './harness.mjs';
export const ELEMENT_JS = join(ROOT, 'dist/ropescope-embed.js');
export const ELEMENT_CHUNKS = join(ROOT, 'dist/ropescope-embed');
export const SHOTS = join(ROOT, 'build/screenshots');
/** The font /late-font.ttf serves: one the browser has under no other name (DejaVu, which
 *  Chromium's Linux packages depend on). */
export const LATE_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';

/** The element's chunk files (dist/ropescope-embed/) a page showing `views` fetches (web/
 *  ropescope-embed/chunks.json): `must`, what the element draws with, each view's chunk and all
 *  they need; `may`, those, the presets' reader, and what their code may import() as it runs,
 *  with all that needs. */
export function elementChunksFor(views) {
  const { needs, later, files } = JSON.parse(readFileSync(join(ROOT, 'web/ropescope-embed/chunks.json'), 'utf8'));
  const chunkOf = (name) => Object.keys(files).find((file) => file.startsWith(`${name}-`));
  const closure = (roots, follow) => closureOf(roots, follow).sort();
  const roots = [chunkOf('draw'), ...views.map(chunkOf)];
  return {
    must: closure(roots, (file) => needs[file]),
    // The presets' reader (element/presets.js), which the element loads for a long-context view.
    may: closure([...roots, chunkOf('presets')], (file) => [...needs[file], ...later[file]]),
  };
}

/** A blog page around `body` (HTML), with `css` in its <head>; the element script at /ropescope-embed.js. */
export function blogHtml(body, css = '') {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>A post about position embeddings</title>
<link rel="icon" href="data:,">
<style>
body { margin: 0; font: 18px/1.6 Georgia, serif; color: #222; background: #fbfaf7; }
main { max-width: 700px; margin: 0 auto; padding: 0 16px; }
${css}
</style></head>
<body><main>${body}</main></body></html>`;
}

const pages = new Map();
const files = new Map();
let blog = null;

/** Serves `body` at `path` of the blog (as `type`): a script a test page loads, say. */
export function blogFile(path, type, body) {
  files.set(path, { type, body });
}

function startBlog() {
  blog ??= new Promise((resolve, reject) => {
    const server = createServer((req, res) => {
      const path = new URL(req.url, 'http://localhost').pathname;
      if (path === '/ropescope-embed.js') {
        res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
        return res.end(readFileSync(ELEMENT_JS));
      }
      // The element's chunks, from beside it (dist/ropescope-embed/).
      const chunk = /^\/ropescope-embed\/([\w-]+\.js)$/.exec(path);
      if (chunk && existsSync(join(ELEMENT_CHUNKS, chunk[1]))) {
        res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
        return res.end(readFileSync(join(ELEMENT_CHUNKS, chunk[1])));
      }
      // A web font that arrives late (after ?ms=), as from a slow font host.
      if (path === '/late-font.ttf') {
        const ms = Number(new URL(req.url, 'http://localhost').searchParams.get('ms') ?? 0);
        setTimeout(() => {
          res.writeHead(200, { 'Content-Type': 'font/ttf', 'Access-Control-Allow-Origin': '*' });
          res.end(readFileSync(LATE_FONT));
        }, ms);
        return undefined;
      }
      if (files.has(path)) {
        res.writeHead(200, { 'Content-Type': files.get(path).type });
        return res.end(files.get(path).body);
      }
      if (pages.has(path)) {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        return res.end(pages.get(path));
      }
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      return res.end('not found');
    });
    server.once('error', reject);
    // localhost, where the explorer is at 127.0.0.1: another origin on this machine.
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://localhost:${server.address().port}` }));
  });
  return blog;
}

after(async () => {
  if (!blog) return;
  const { server } = await blog;
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

/**
 * Opens `html` at http://localhost:PORT/post-N.html (openPage's recorder: any console error, page
 * error or dialog, in the host or its frames, fails assertClean). colorScheme: 'light' | 'dark';
 * init: a function run in the page before any of its scripts; javaScriptEnabled: false for a
 * reader with JavaScript off (no CSP listener then: read `problems`, not assertClean);
 * waitUntil: page.goto's ('load': a font still loading holds it back).
 */
export async function openBlog(
  browser,
  html,
  {
    viewport = { width: 1000, height: 900 },
    colorScheme = 'light',
    init = null,
    javaScriptEnabled = true,
    waitUntil = 'load',
  } = {},
) {
  if (!existsSync(ELEMENT_JS)) throw new Error('dist/ropescope-embed.js is missing: run make dist');
  const p = await openPage(browser, null, { viewport, javaScriptEnabled });
  await p.page.emulateMedia({ colorScheme });
  if (init) await p.page.addInitScript(init);
  await nextPost(p.page, html, { waitUntil });
  return p;
}

/** Loads `html` as a new post of the blog in a page openBlog opened (its window, its cache, the
 *  recorder's problems so far): the next of several posts a test reads one after another. */
export async function nextPost(page, html, { waitUntil = 'load' } = {}) {
  const { url } = await startBlog();
  const path = `/post-${pages.size + 1}.html`;
  pages.set(path, html);
  await page.goto(url + path, { waitUntil });
}

/** The explorer's frame in the host page (the n-th iframe). */
export async function explorerFrame(page, n = 0) {
  const handle = await page.locator('iframe').nth(n).elementHandle();
  return handle.contentFrame();
}

/**
 * Colours seen in an element's screenshot (decoded in the page): how many distinct ones. An
 * element taller than the window (an embed of every figure) is shot where the reader sees it:
 * its part inside the window, as Chromium cannot shoot tens of thousands of pixels at once.
 */
export async function distinctColors(page, locator) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  const view = page.viewportSize();
  const shot =
    box && box.height > view.height
      ? page.screenshot({
          clip: { x: box.x, y: Math.max(box.y, 0), width: box.width, height: view.height - Math.max(box.y, 0) },
        })
      : locator.screenshot();
  const png = (await shot).toString('base64');
  return page.evaluate(async (b64) => {
    const blob = await (await fetch(`data:image/png;base64,${b64}`)).blob();
    const bitmap = await createImageBitmap(blob);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(bitmap, 0, 0);
    const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
    const seen = new Set();
    for (let i = 0; i < data.length; i += 16) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return seen.size;
  }, png);
}

export function shotPath(name) {
  mkdirSync(SHOTS, { recursive: true });
  return join(SHOTS, name);
}

/**
 * Keeps the builder's live preview from loading while a test only reads the snippet: a
 * preview reloading under option changes aborts its previous load, which the harness counts
 * as a failed request. (The preview has its own test.) Waits for the builder first: the page
 * sets it up once every figure's code is here, at idle after the first chart.
 */
export async function holdPreview(page) {
  await page.waitForSelector('#embed-preview', { state: 'attached', timeout: 30000 });
  await page.evaluate(() => {
    document.getElementById('embed-preview').hidden = true;
  });
}

/** Polls `read` (async) until `ok(value)`; fails naming `what` and the last value after 15 s. */
export async function until(read, ok, what, timeout = 15000) {
  const end = Date.now() + timeout;
  let value = await read();
  while (!ok(value)) {
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeout} ms`);
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
}

/**
 * The rotating pair's own inputs inside `scope` (a locator of its <rope-scope>) as a reader uses
 * them: the boxes and sliders start at the settings, a typed pair and an arrow key on m's slider
 * each change the caption and the chart, and with the gap kept m's box steps n too.
 */
export async function turnCircle(scope, what) {
  const caption = () => scope.locator('#caption-circle').innerText();
  const chart = () =>
    scope
      .locator('#chart-circle')
      .evaluate((canvas) => JSON.stringify(customElements.get('rope-scope').Chart.getChart(canvas).data.datasets));
  const values = () =>
    Promise.all(['pair-num', 'pair', 'qm-num', 'qm', 'kn-num', 'kn'].map((id) => scope.locator(`#${id}`).inputValue()));
  assert.deepEqual(await values(), ['0', '0', '5', '5', '2', '2'], `${what}: the inputs show the settings`);
  let drawn = await chart();
  await scope.locator('#pair-num').fill('3');
  await scope.locator('#pair-num').press('Enter');
  await until(caption, (text) => text.startsWith('Pair 3 turns by θ₃'), `${what}: caption after typing pair 3`);
  assert.notEqual(await chart(), drawn, `${what}: the chart follows the typed pair`);
  assert.equal(await scope.locator('#pair').inputValue(), '3', `${what}: the pair slider follows its box`);
  drawn = await chart();
  await scope.locator('#qm').focus();
  await scope.locator('#qm').press('ArrowRight');
  await until(caption, (text) => / q at m = 6 is turned/.test(text), `${what}: caption after ArrowRight on m`);
  assert.notEqual(await chart(), drawn, `${what}: the chart follows the arrow key`);
  assert.equal(await scope.locator('#qm-num').inputValue(), '6', `${what}: m's box follows its slider`);
  await scope.locator('#lock').check();
  await scope.locator('#qm-num').press('ArrowUp');
  await until(values, (v) => v[2] === '7' && v[4] === '3', `${what}: with the gap kept, m 7 moves n to 3`);
  assert.match(await caption(), / q at m = 7 is turned .* k at n = 3 by /, `${what}: caption with the gap kept`);
}
