#!/usr/bin/env node
// The content height of every view's embed document (and of view=all), heading shown and hidden, with no
// sliders, at column widths from 320 to 800 px, written to web/src/element/heights.js, which
// embed.js's fixedHeight reads: the fixed-height snippet's iframe height for a column at least
// N px wide is the tallest content at any measured width from N up, plus a margin.
// Content is not always shorter in a wider column: a square chart (the circle, the cat, the
// clock) grows with the column up to its largest size.
//   node tools/embed_heights.mjs            (after make web; a few minutes)
//   node tools/embed_heights.mjs slot clock (those views and view=all again, the others kept as written)
// Rerun after changing a figure's text or layout: tests/browser/embed.test.mjs checks the
// fixed heights against the content in real iframes at 320, 480, 640 and 800 px.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, openPage, ROOT, startServer, waitFrameDrawn } from '../tests/browser/harness.mjs';
import { EMBED_CONTENT } from '../web/src/element/heights.js';
import { FIGURES } from '../web/src/figures/index.js';

const WIDTHS = [320, 390, 480, 560, 640, 720, 800];
const OUT = join(ROOT, 'web/src/element/heights.js');
const all = [...FIGURES.map((row) => row.name), 'all'];
const asked = process.argv.slice(2);
const unknown = asked.filter((view) => !all.includes(view));
if (unknown.length > 0) {
  console.error(`embed_heights: no such view: ${unknown.join(', ')} (views: ${all.join(' ')})`);
  process.exit(2);
}
// view=all holds every view: measured again with any of them.
const views = asked.length > 0 ? [...new Set([...asked, 'all'])] : all;

const server = await startServer(join(ROOT, 'web'));
const browser = await launchBrowser();

/** The embed's content height at a viewport `width` wide (the iframe's width in a post). */
async function content(page, view, title) {
  // The embed document, which the snippets name (web/src/element/frame.js): one <rope-scope>.
  await page.goto(`${server.url}embed.html?view=${view}${title ? '' : '&title=0'}#${view}`);
  await waitFrameDrawn(page, 60000);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return Math.ceil(await page.evaluate(() => document.body.getBoundingClientRect().height));
}

const table = Object.fromEntries(views.map((view) => [view, []]));
try {
  for (const width of WIDTHS) {
    const p = await openPage(browser, null, { viewport: { width, height: 900 } });
    for (const view of views) {
      table[view].push([await content(p.page, view, true), await content(p.page, view, false)]);
    }
    await p.close(); // throws on any page error, console error or CSP violation
    console.log(`embed_heights: ${views.length} views at ${width} px`);
  }
} finally {
  await browser.close();
  await server.stop();
}

const rows = all
  .map((view) => `  ${view}: ${JSON.stringify(table[view] ?? EMBED_CONTENT[view] ?? [])},`)
  .filter((line) => !line.endsWith(': [],'))
  .join('\n');
writeFileSync(
  OUT,
  `// Written by tools/embed_heights.mjs; do not edit. Each view's embed content height in CSS px at
// each width of EMBED_WIDTHS (the iframe's width), as [with its heading, with title=0], no sliders.
export const EMBED_WIDTHS = ${JSON.stringify(WIDTHS)};
export const EMBED_CONTENT = {
${rows}
};
`,
);
// In the house style (biome.json), so make lint passes on the written file.
execFileSync('npx', ['--no-install', 'biome', 'format', '--write', OUT], { cwd: ROOT, stdio: 'ignore' });
console.log(`embed_heights: wrote ${OUT}`);
