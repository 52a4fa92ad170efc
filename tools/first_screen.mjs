#!/usr/bin/env node
import { readFileSync } from 'node:fs';
// The page's first screen in headless Chromium, for the README: docs/screenshot.png (1280x900,
// light), docs/screenshot-dark.png (the same, dark) and docs/screenshot-phone.png (390x844, light
// and dark side by side). Rerun after changing the page: node tools/first_screen.mjs (after make web).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, startServer } from '../tests/browser/harness.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DOCS = join(ROOT, 'docs');

const server = await startServer(join(ROOT, 'web'));
const browser = await launchBrowser();

/** The first screen at this size and scheme, written to `out`; throws on any page error. */
async function shoot(width, height, colorScheme, out) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, colorScheme });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
  });
  await page.goto(server.url);
  await page.waitForFunction(() => window.Chart?.getChart(document.getElementById('chart-order')), null, {
    timeout: 20000,
  });
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 300)))),
  );
  await page.screenshot({ path: out });
  await context.close();
  if (errors.length) throw new Error(`page errors (${width}x${height} ${colorScheme}): ${errors.join('; ')}`);
}

try {
  await shoot(1280, 900, 'light', join(DOCS, 'screenshot.png'));
  await shoot(1280, 900, 'dark', join(DOCS, 'screenshot-dark.png'));
  const phone = [];
  for (const scheme of ['light', 'dark']) {
    const out = join(DOCS, `.phone-${scheme}.png`);
    await shoot(390, 844, scheme, out);
    phone.push(`data:image/png;base64,${readFileSync(out).toString('base64')}`);
  }
  // The two phone screens side by side, laid out and captured by the browser itself.
  const page = await browser.newPage({ viewport: { width: 800, height: 844 } });
  await page.setContent(`<body style="margin:0;background:#888;display:flex;gap:20px">
    ${phone.map((src) => `<img src="${src}" width="390" height="844" alt="">`).join('')}</body>`);
  await page.screenshot({ path: join(DOCS, 'screenshot-phone.png') });
  await page.close();
  console.log('wrote docs/screenshot.png, docs/screenshot-dark.png, docs/screenshot-phone.png');
} finally {
  await browser.close();
  await server.stop();
  const { rmSync } = await import('node:fs');
  for (const scheme of ['light', 'dark']) rmSync(join(DOCS, `.phone-${scheme}.png`), { force: true });
}
