#!/usr/bin/env node
// Every lesson chapter, its opening paragraphs and its figure, in headless Chromium, as a reader sees it: desktop (1280 wide)
// and phone (390 wide), light and dark, into docs/screens/lesson/<chapter>-<width>-<scheme>.png.
// On a phone the main sliders' bar steps aside over a chapter (app.js's markBar), so no shot is
// covered. Rerun after changing a chapter: node tools/lesson_screens.mjs (after make web). Throws on any
// page error, console error or CSP violation.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, openPage, startServer } from '../tests/browser/harness.mjs';
import { CHAPTER_FIGURES } from '../web/src/figures/lesson_row.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'docs', 'screens', 'lesson');
const SIZES = [
  [1280, 900],
  [390, 844],
];

const server = await startServer(join(ROOT, 'web'));
const browser = await launchBrowser();
mkdirSync(OUT, { recursive: true });

try {
  for (const [width, height] of SIZES) {
    for (const colorScheme of ['light', 'dark']) {
      // The tests' page opener: it collects console errors, page errors and CSP violations.
      const p = await openPage(browser, null, { viewport: { width, height } });
      const { page } = p;
      await page.emulateMedia({ colorScheme });
      await page.goto(server.url);
      await page.waitForFunction(() => window.ropescope?.drawAll, null, { timeout: 20000 });
      await page.evaluate(() => window.ropescope.drawAll());
      // The chapters drawn as figures (figures/lesson_row.js), and the post's checked numbers.
      const chapters = [...CHAPTER_FIGURES, 'post'];
      for (const view of chapters) {
        const fig = page.locator(`figure.fig[data-view="${view}"]`).first();
        await fig.scrollIntoViewIfNeeded();
        // A chapter taller than the phone's screen is captured beyond the viewport, where the
        // sticky gap/dim/base bar would land mid-chapter; a reader sees it slide away over a
        // chapter (app.js markBar), so the shot leaves it out.
        if (width < 700) {
          await page.evaluate(() =>
            document.querySelector('.panel-main').style.setProperty('visibility', 'hidden', 'important'),
          );
        }
        await page.evaluate(
          () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 400)))),
        );
        // The chapter as read: its opening paragraphs (lesson_row.js's essay) and its figure.
        const clip = await page.evaluate((v) => {
          const boxes = [document.getElementById(`essay-${v}`), document.getElementById(`fig-${v}`)]
            .filter(Boolean)
            .map((el) => el.getBoundingClientRect());
          const top = Math.min(...boxes.map((b) => b.top));
          const left = Math.min(...boxes.map((b) => b.left));
          const right = Math.max(...boxes.map((b) => b.right));
          const bottom = Math.max(...boxes.map((b) => b.bottom));
          return { x: left + scrollX, y: top + scrollY, width: right - left, height: bottom - top };
        }, view);
        await page.screenshot({ path: join(OUT, `${view}-${width}-${colorScheme}.png`), clip, fullPage: true });
      }
      await p.close(); // throws on any problem the page reported
      console.log(`lesson_screens: ${chapters.length} chapters at ${width} px, ${colorScheme}`);
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
