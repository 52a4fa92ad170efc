#!/usr/bin/env node
// docs/long-context.png: the long-context part of the page (controls and both figures) in
// headless Chromium, for the README. Rerun after changing the page: node tools/screenshot.mjs
// [query] (default: the Llama 3.1 preset at its defaults).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, startServer } from '../tests/browser/harness.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const query = process.argv[2] ?? '?preset=llama-3.1-8b';
const out = process.argv[3] ?? join(ROOT, 'docs/long-context.png');

const server = await startServer(join(ROOT, 'web'));
const browser = await launchBrowser();
try {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 1500 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
  });
  // The page builds its figures, and makes their charts, as the reader nears them: a link to the
  // later one builds both, and the part scrolled to the top (its sticky settings panel then sits
  // in its place) brings both charts on screen.
  await page.goto(`${server.url}${query}#fig-scaling`);
  await page.evaluate(() =>
    window.scrollTo(0, document.getElementById('long').getBoundingClientRect().top + window.scrollY),
  );
  await page.waitForFunction(
    () => ['range', 'scaling'].every((id) => window.Chart?.getChart(document.getElementById(`chart-${id}`))),
    null,
    { timeout: 20000 },
  );
  // The part's other figures, each brought into view until its chart is made, then back to the top.
  for (const id of await page.evaluate(() =>
    [...document.querySelectorAll('#long ~ figure canvas, #long canvas')].map((c) => c.id).filter(Boolean),
  )) {
    await page.evaluate((canvasId) => document.getElementById(canvasId).scrollIntoView({ block: 'center' }), id);
    await page.waitForFunction((canvasId) => window.Chart?.getChart(document.getElementById(canvasId)), id, {
      timeout: 20000,
    });
  }
  await page.evaluate(() =>
    window.scrollTo(0, document.getElementById('long').getBoundingClientRect().top + window.scrollY),
  );
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 200)))),
  );
  // Page coordinates of the part: from its heading to the top of the config checker.
  const [top, bottom] = await page.evaluate(() =>
    ['long', 'check'].map((id) => document.getElementById(id).getBoundingClientRect().top + window.scrollY),
  );
  await page.screenshot({ path: out, fullPage: true, clip: { x: 0, y: top, width: 1280, height: bottom - top } });
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.stop();
}
