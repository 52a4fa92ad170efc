#!/usr/bin/env node
// docs/screens/posts/: three mock blog posts, each holding the three embed ways as the builder
// writes them (the self-sizing iframe, the fixed-height iframe, <rope-scope>), on an origin of
// their own: a light 680 px serif column with hostile CSS, a dark blog, and the light post on a
// 390 px phone. Full-page PNGs, for looking at; tests/browser/ checks what they show.
//   node tools/post_screens.mjs   (after make dist)
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { launchBrowser, ROOT, startServer } from '../tests/browser/harness.mjs';
import { snippet, useFigureRows } from '../web/src/element/embed.js';
import { FIGURE } from '../web/src/figures/index.js';
import { fillFromPreset, readerReady } from '../web/src/model/long.js';
import { readQuery } from '../web/src/state/state.js';

useFigureRows((name) => FIGURE[name]); // the snippets' alt texts come from the figures' code

const OUT = join(ROOT, 'docs/screens/posts');
const POSTS = [
  { name: 'light', scheme: 'light', viewport: { width: 1000, height: 900 }, dark: false },
  { name: 'dark', scheme: 'dark', viewport: { width: 1000, height: 900 }, dark: true },
  { name: 'phone', scheme: 'light', viewport: { width: 390, height: 844 }, dark: false },
];

// A post's look: a serif column whose CSS reaches for every img, iframe, p and canvas, or a dark
// blog's own colours and font.
const style = (dark) => `
body { margin: 0; font: 19px/1.7 Georgia, "Times New Roman", serif; ${dark ? 'color: #e6e1d6; background: #16181d;' : 'color: #222; background: #fbfaf7;'} }
main { max-width: 680px; margin: 0 auto; padding: 24px 16px 64px; }
h1 { font-size: 34px; line-height: 1.2; }
h2 { font-size: 22px; margin-top: 48px; }
p { margin: 0 0 18px; text-indent: 1.5em; letter-spacing: 0.01em; }
img, iframe, canvas { max-width: 100%; border: 0; }
a { color: ${dark ? '#f0b860' : '#a33'}; }`;

const server = await startServer(join(ROOT, 'web'));
const { state } = readQuery('?dim=128&base=500000&gap=16');
await readerReady();
fillFromPreset(state);
const page = `${server.url}ropescope/index.html`;
const base = { view: 'flatness', controls: ['gap'], title: true, column: 640 };
const ways = () => [
  ['The self-sizing iframe', snippet(state, { ...base, theme: 'auto', auto: true, way: 'iframe' }, page)],
  [
    'The fixed-height iframe',
    snippet(state, { ...base, view: 'cat', controls: [], theme: 'auto', auto: false, way: 'iframe' }, page),
  ],
  ['One script tag', snippet(state, { ...base, view: 'clock', controls: [], theme: 'inherit', way: 'element' }, page)],
];
const post = (dark) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>A post about position embeddings</title><link rel="icon" href="data:,">
<style>${style(dark)}</style></head>
<body><main>
<h1>Why RoPE only sees the gap</h1>
<p>Rotary position embedding turns each pair of numbers in a query and a key by an angle that grows with
its position. Three figures below, each pasted the way the explorer's builder writes it.</p>
${ways()
  .map(
    ([title, code]) =>
      `<h2>${title}</h2>\n<p>The figure, then the text goes on.</p>\n${code}\n<p>After the figure.</p>`,
  )
  .join('\n')}
</main></body></html>`;

const blog = createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(post(new URL(req.url, 'http://localhost').searchParams.get('dark') === '1'));
});
await new Promise((done) => blog.listen(0, '127.0.0.1', done));
// localhost for the post, 127.0.0.1 for the explorer: two origins.
const blogUrl = `http://localhost:${blog.address().port}/`;

mkdirSync(OUT, { recursive: true });
const browser = await launchBrowser();
try {
  for (const { name, scheme, viewport, dark } of POSTS) {
    const context = await browser.newContext({ viewport, colorScheme: scheme, deviceScaleFactor: 1 });
    const tab = await context.newPage();
    const problems = [];
    tab.on('pageerror', (e) => problems.push(e.message));
    tab.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    await tab.goto(`${blogUrl}?dark=${dark ? 1 : 0}`);
    // Scroll through, so every lazy iframe and element loads and draws.
    const height = await tab.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y <= height; y += 400) {
      await tab.evaluate((top) => window.scrollTo(0, top), y);
      await tab.waitForTimeout(300);
    }
    await tab.waitForFunction(
      () =>
        document.querySelectorAll('iframe').length === 2 &&
        [...document.querySelectorAll('iframe')].every((f) => {
          try {
            return f.getBoundingClientRect().height > 200;
          } catch {
            return false;
          }
        }) &&
        document.querySelector('rope-scope').drawn &&
        customElements
          .get('rope-scope')
          ?.Chart.getChart(document.querySelector('rope-scope').shadowRoot?.querySelector('canvas')),
      null,
      { timeout: 30000 },
    );
    // The whole post in the window, so every frame is on screen and paints (a cross-origin frame
    // out of sight may not), then the shot.
    await tab.evaluate(() => window.scrollTo(0, 0));
    const full = await tab.evaluate(() => document.documentElement.scrollHeight);
    await tab.setViewportSize({ width: viewport.width, height: full });
    await tab.waitForTimeout(1500);
    await tab.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
    if (problems.length) throw new Error(`${name}: ${problems.join('; ')}`);
    console.log(`post_screens: ${join('docs/screens/posts', `${name}.png`)}`);
    await context.close();
  }
} finally {
  await browser.close();
  blog.close();
  await server.stop();
}
