#!/usr/bin/env node
// The height a figure row needs for the iframe snippet with no auto-height script: each view is
// opened in an iframe as tall as embed.js's fixedHeight makes it, at iframe widths 358 (a 390 px
// phone in a blog's padded column), 390 and 680, with and without its heading; the content's
// height is read and the row's `height` that fits the tallest, with MARGIN to spare (a message
// under an input, a readout a line longer after the reader moves a slider), is printed.
//   node tools/embed_heights.mjs [view,view,...]   (after make web; default: the lesson's chapters)
// It edits nothing: copy a printed height into its row in web/src/figures/NAME.js.
import { join } from 'node:path';
import { launchBrowser, openPage, ROOT, startServer } from '../tests/browser/harness.mjs';
import { fixedHeight } from '../web/src/element/embed.js';
import { FIGURE } from '../web/src/figures/index.js';
import { CHAPTER_FIGURES } from '../web/src/figures/lesson_row.js';

const WIDTHS = [358, 390, 680];
const MARGIN = 60;
const views = process.argv[2]?.split(',') ?? [...CHAPTER_FIGURES, 'post'];
for (const view of views) if (!FIGURE[view]) throw new Error(`embed_heights: no figure ${view}`);

const server = await startServer(join(ROOT, 'web'));
const browser = await launchBrowser();

/** The embed's content height (its body, as tests/browser/embed.test.mjs reads it). */
async function content(view, width, title) {
  const height = fixedHeight(view, { title });
  const p = await openPage(browser, null, { viewport: { width, height: 900 } });
  try {
    const src = `${server.url}?embed=1&view=${view}${title ? '' : '&title=0'}`;
    await p.page.setContent(
      `<!doctype html><body style="margin:0"><iframe src="${src}" width="${width}" height="${height}" frameborder="0"></iframe></body>`,
    );
    const frame = await (await p.page.locator('iframe').elementHandle()).contentFrame();
    await frame.waitForFunction(
      () =>
        [...document.querySelectorAll('canvas')]
          .filter((c) => c.closest('.fig').getClientRects().length)
          .every((c) => window.Chart.getChart(c)),
      null,
      { timeout: 20000 },
    );
    await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    return Math.ceil(await frame.evaluate(() => document.body.getBoundingClientRect().height));
  } finally {
    await p.page.close();
  }
}

try {
  for (const view of views) {
    let need = Number.NEGATIVE_INFINITY;
    const seen = [];
    for (const title of [true, false]) {
      for (const width of WIDTHS) {
        const h = await content(view, width, title);
        seen.push(`${title ? '' : 'title=0 '}${width}: ${h}`);
        need = Math.max(need, FIGURE[view].height + h - fixedHeight(view, { title }));
      }
    }
    const height = need + MARGIN;
    const note = height > FIGURE[view].height ? 'TOO SHORT' : '';
    console.log(`${view}: height ${FIGURE[view].height} -> ${height} ${note} (content ${seen.join(', ')})`);
  }
} finally {
  await browser.close();
  await server.stop();
}
