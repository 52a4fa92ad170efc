// The pictures of make dist (web/src/element/picture.js): every view at its default settings,
// and the views reading dim, base or gap at the common settings of PICTURE_SETTINGS too
// (embed.js's viewPictures: 88 pictures), light and dark, as PNG at 2x, rendered by headless Chromium from the built page in embed mode
// (dist/ropescope/ served as files, index.html?embed=1&view=NAME&theme=T), never drawn apart
// from it. Each shows the figure's title, its chart, its caption's first sentence and the credit
// line (naming the settings off their defaults); the figure's own sliders, the look-for line,
// the formulas and the export buttons, which a still image cannot use, are hidden.
// pictures.json lists each view's title, and each picture's settings, alt text, size and the
// dim, base and gap the page drew it at (`drawn`, read from the page), with a hash of what it was rendered from: a dist whose page did not change keeps its
// pictures instead of rendering them again (about a second each on a busy 2-core machine).
//   writePictures(site, out) -> { rendered, manifest }

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { FIGURE_NAMES } from '../web/gen/figure_names.js';
import { useFigureRows, viewPictures } from '../web/src/element/embed.js';
import {
  firstSentence,
  PICTURE_CREDIT,
  PICTURE_SCALE,
  PICTURE_THEMES,
  PICTURE_WIDTH,
  pictureAlt,
  pictureCredit,
  pictureFile,
  pictureKey,
} from '../web/src/element/picture.js';
import { FIGURE } from '../web/src/figures/index.js';
import { EMBED_CONTROLS, PARAM } from '../web/src/state/state.js';
import { serve } from './serve.mjs';

useFigureRows((name) => FIGURE[name]); // each view's pictures come from its figure's code

const HERE = fileURLToPath(import.meta.url);
// Chromium's headless shell, as the browser tests use (tests/browser/harness.mjs): the same
// pixels as the browser's, byte for byte in every picture (checked on 2026-12-07), in less time.
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium-headless-shell';
// The browser tests' flags (tests/browser/harness.mjs): headless, no network of its own.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// What the page draws from: a change to any of them (or to this file) renders the pictures again.
const SOURCES = ['index.html', 'style.min.css', 'ropescope.js', 'vendor/chart.js'];
const MANIFEST = 'pictures.json';

async function sourceHash(site) {
  const hash = createHash('sha256');
  for (const name of SOURCES) hash.update(await readFile(join(site, name)));
  hash.update(await readFile(HERE));
  for (const name of ['picture.js', 'embed.js'])
    hash.update(await readFile(join(dirname(HERE), '../web/src/element', name)));
  return hash.digest('hex');
}

/** A PNG's size in pixels, from its IHDR chunk (after the 8-byte signature). */
export function pngSize(bytes) {
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

// In the page: the figure drawn (every visible canvas has its chart, fonts loaded, two frames).
async function drawn(page) {
  await page.waitForFunction(
    () =>
      performance.getEntriesByName('ropescope:first-chart').length > 0 &&
      [...document.querySelectorAll('canvas')]
        .filter((c) => c.getClientRects().length > 0)
        .every((c) => window.Chart.getChart(c)),
    null,
    { timeout: 30000 },
  );
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}

// The embed made still: what cannot be used hidden (through the CSSOM, which the page's
// style-src allows), the caption cut to its first sentence, the credit line in place of the link.
async function still(page, view, credit) {
  const caption = await page.locator(`#caption-${view}`).innerText();
  const title = await page.locator(`#title-${view}`).innerText();
  const sentence = firstSentence(caption);
  await page.evaluate(
    ([name, text, line]) => {
      for (const node of document.querySelectorAll('.fig .lookfor, .fig .fig-controls, .fig .formulas, .export'))
        node.style.display = 'none';
      document.getElementById(`caption-${name}`).textContent = text;
      document.querySelector('.attribution').textContent = line;
    },
    [view, sentence, credit],
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return { title, caption };
}

async function renderTheme(browser, url, theme, out) {
  const context = await browser.newContext({
    viewport: { width: PICTURE_WIDTH, height: 1200 },
    deviceScaleFactor: PICTURE_SCALE,
    colorScheme: theme,
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(err.message));
  const seen = {};
  try {
    for (const view of FIGURE_NAMES) {
      const [first, ...others] = viewPictures(view);
      for (const settings of [first, ...others]) {
        if (settings === first) {
          const query = new URLSearchParams({ embed: '1', view, theme, ...settings });
          await page.goto(`${url}index.html?${query}`);
          await drawn(page);
        } else {
          // The same page at other settings (a page load costs most of a picture): the state
          // set as the URL would set it, from the defaults, and every chart drawn again.
          const changes = { ...Object.fromEntries(EMBED_CONTROLS.map((n) => [n, PARAM[n].default])), ...settings };
          await page.evaluate((values) => {
            Object.assign(window.ropescope.state, values);
            window.ropescope.render();
          }, changes);
        }
        const notice = await page.locator('#notice').evaluate((n) => (n.hidden ? '' : n.innerText.trim()));
        if (notice || problems.length) {
          throw new Error(`${view} ${pictureKey(settings)}: ${[notice, ...problems].filter(Boolean).join('; ')}`);
        }
        // The settings the page drew at, as it holds them: what pictures.json says of the picture.
        const drew = await page.evaluate(() => {
          const { dim, base, gap } = window.ropescope.state;
          return { dim, base, gap };
        });
        const text = { ...(await still(page, view, pictureCredit(settings))), drew };
        const png = await page.locator('body').screenshot({ animations: 'disabled' });
        const file = pictureFile(view, theme, settings);
        await writeFile(join(out, file), png);
        seen[`${view} ${pictureKey(settings)}`] = { ...text, file, ...pngSize(png) };
      }
    }
  } finally {
    await context.close();
  }
  return seen;
}

/**
 * Renders every picture of the page in `site` (dist/ropescope/) into `out` (dist/pictures/),
 * unless pictures.json there says they were rendered from the same files. Resolves to
 * { rendered: boolean, manifest }.
 */
export async function writePictures(site, out) {
  const hash = await sourceHash(site);
  const manifestPath = join(out, MANIFEST);
  if (existsSync(manifestPath)) {
    const old = JSON.parse(await readFile(manifestPath, 'utf8'));
    const files = Object.values(old.views ?? {}).flatMap((v) => PICTURE_THEMES.map((t) => v[t]?.file));
    if (old.source === hash && files.length && files.every((f) => f && existsSync(join(out, f))))
      return { rendered: false, manifest: old };
  }
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const server = await serve(site, 0, { asFiles: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    // One browser; the two themes side by side, each one page reused for every view.
    const [light, dark] = await Promise.all(PICTURE_THEMES.map((t) => renderTheme(browser, server.url, t, out)));
    const byTheme = { light, dark };
    const views = {};
    // Each view: its title, alt text and pictures at the defaults, then `settings`, one entry per
    // picture at other settings ({ settings, alt, light, dark }).
    const entry = (view, settings) => {
      const key = `${view} ${pictureKey(settings)}`;
      const { title, caption, drew } = light[key];
      const one = { alt: pictureAlt(title, caption), drawn: drew };
      for (const theme of PICTURE_THEMES) {
        const { file, width, height } = byTheme[theme][key];
        one[theme] = { file, width, height };
      }
      return { title, one };
    };
    for (const view of FIGURE_NAMES) {
      const [, ...others] = viewPictures(view);
      const { title, one } = entry(view, {});
      views[view] = { title, ...one, settings: others.map((settings) => ({ settings, ...entry(view, settings).one })) };
    }
    const manifest = { source: hash, scale: PICTURE_SCALE, credit: PICTURE_CREDIT, views };
    await writeFile(manifestPath, `${JSON.stringify(manifest, null, 1)}\n`);
    return { rendered: true, manifest };
  } finally {
    await browser.close();
    await server.close();
  }
}
