// Per-figure exports, on the page and in the <rope-scope> element: every figure's chart box
// holds buttons data-export="png|csv|json"; the CSV rows equal Chart.getChart(canvas).data
// number for number, the JSON round-trips to it with the settings, the PNG decodes at twice
// the chart's CSS size on the theme's background; file names carry the settings.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { chartData, downloadedFile, openPage, settle, useServerAndBrowser, waitReady } from './harness.mjs';
import { blogHtml, openBlog } from './host.mjs';

const env = useServerAndBrowser();
const SURFACE = { light: [255, 255, 255], dark: [25, 28, 34] }; // style.css --surface
const SWEEP = { from: 0, to: 4096, n: 512 };

// Chromium takes at most 10 download requests a second from one frame and drops the rest
// without a word (its "throttle url download requests from a RenderFrame"); no reader clicks
// that fast, but this test saves three files a figure, so it paces its clicks.
const SAVE_SPACING_MS = 110; // at most 9 a second
let lastSave = 0;

async function save(page, button) {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastSave + SAVE_SPACING_MS - Date.now())));
  lastSave = Date.now();
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const path = await downloadedFile(file);
  return { name: file.suggestedFilename(), bytes: readFileSync(path) };
}

// A small CSV reader: quoted fields with doubled quotes, commas, no line breaks inside fields.
function parseCsv(text) {
  assert.ok(text.endsWith('\n'), 'the CSV ends with a newline');
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => {
      const cells = [];
      let i = 0;
      while (i <= line.length) {
        if (line[i] === '"') {
          let cell = '';
          i += 1;
          while (i < line.length) {
            if (line[i] === '"' && line[i + 1] === '"') {
              cell += '"';
              i += 2;
            } else if (line[i] === '"') {
              i += 1;
              break;
            } else {
              cell += line[i];
              i += 1;
            }
          }
          cells.push(cell);
          i += 1;
        } else {
          const end = line.indexOf(',', i) === -1 ? line.length : line.indexOf(',', i);
          cells.push(line.slice(i, end));
          i = end + 1;
        }
      }
      return cells;
    });
}

// The chart's data as rows [series, x, y] (x: the label on a category chart).
function expectedRows(data) {
  const rows = [];
  for (const ds of data.datasets) {
    ds.data.forEach((p, i) => {
      if (p !== null && typeof p === 'object') rows.push([ds.label, p.x, p.y]);
      else rows.push([ds.label, data.labels[i], p]);
    });
  }
  return rows;
}

function checkCsv(text, data, what) {
  const [header, ...rows] = parseCsv(text);
  assert.deepEqual(header, ['series', 'x', 'y'], `${what}: header line`);
  const want = expectedRows(data);
  assert.equal(rows.length, want.length, `${what}: one row per plotted value`);
  rows.forEach(([series, x, y], i) => {
    const [s, wx, wy] = want[i];
    assert.equal(series, s, `${what} row ${i}: series`);
    // A category chart's x is its label: a number, or words (the lesson's "nolan → ended").
    if (typeof wx === 'string') assert.equal(x, wx, `${what} row ${i}: x`);
    else assert.ok(Object.is(Number(x), wx), `${what} row ${i}: x ${x} is ${wx} exactly`);
    if (wy === null) assert.equal(y, '', `${what} row ${i}: an empty y for null`);
    else assert.ok(Object.is(Number(y), wy), `${what} row ${i}: y ${y} is ${wy} exactly`);
  });
}

/** The PNG's size and first pixel, decoded by the browser. */
// A PNG holds a chart when it has more than this many colours (a blank one has one or two).
const MANY_COLOURS = 20;

function decodePng(page, bytes) {
  return page.evaluate(
    async ([b64, many]) => {
      const blob = new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type: 'image/png' });
      const bitmap = await createImageBitmap(blob);
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(bitmap, 0, 0);
      const corner = Array.from(ctx.getImageData(1, 1, 1, 1).data.slice(0, 3));
      const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
      // Colours counted until more than `many` are seen: the check asks no more.
      const colours = new Set();
      for (let i = 0; i < data.length && colours.size <= many; i += 4)
        colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      return { width: bitmap.width, height: bitmap.height, corner, colours: colours.size };
    },
    [bytes.toString('base64'), MANY_COLOURS],
  );
}

/**
 * Clicks every export button of figure `name` (root: the document or a <rope-scope>'s shadow
 * root, via `host`) and checks the three files against the chart's data and the settings.
 */
async function checkExports(page, name, settings, { host = null, theme = 'light' } = {}) {
  const scope = host ? page.locator(host) : page;
  const box = scope.locator(`#chart-${name}`).locator('xpath=..');
  const canvasBox = await scope.locator(`#chart-${name}`).evaluate((c) => ({
    w: c.getBoundingClientRect().width,
    h: c.getBoundingClientRect().height,
    pw: c.width,
    ph: c.height,
  }));
  const data = await chartData(page, name, host);
  const stem = `ropescope-${name}-dim${settings.dim}-base${settings.base}-gap${settings.gap}`;
  const what = `${host ?? 'page'} ${name}`;

  const csv = await save(page, box.locator('[data-export="csv"]'));
  assert.equal(csv.name, `${stem}.csv`, `${what}: CSV file name`);
  checkCsv(csv.bytes.toString('utf8'), data, `${what} CSV`);

  const json = await save(page, box.locator('[data-export="json"]'));
  assert.equal(json.name, `${stem}.json`, `${what}: JSON file name`);
  const parsed = JSON.parse(json.bytes.toString('utf8'));
  assert.equal(parsed.figure, name);
  assert.deepEqual(parsed.settings, settings, `${what}: JSON settings (the figures' inputs)`);
  assert.deepEqual(
    { labels: parsed.labels, datasets: parsed.datasets },
    { labels: data.labels?.length ? data.labels : undefined, datasets: data.datasets },
    `${what}: JSON data equals the chart's`,
  );
  assert.deepEqual(JSON.parse(JSON.stringify(parsed)), parsed, `${what}: JSON round-trips`);

  const png = await save(page, box.locator('[data-export="png"]'));
  assert.equal(png.name, `${stem}.png`, `${what}: PNG file name`);
  assert.deepEqual([...png.bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], `${what}: a PNG signature`);
  const image = await decodePng(page, png.bytes);
  assert.equal(image.width, Math.round(canvasBox.w * 2), `${what}: PNG width is twice the chart's CSS width`);
  assert.ok(
    image.height > Math.round(canvasBox.h * 2) && image.height <= Math.round((canvasBox.h + 100) * 2),
    `${what}: PNG height is twice the chart's plus the legend (${image.height} for ${canvasBox.h} CSS px)`,
  );
  assert.deepEqual(image.corner, SURFACE[theme], `${what}: PNG background in the ${theme} theme`);
  assert.ok(image.colours > MANY_COLOURS, `${what}: the PNG holds a chart`);
  const after = await scope.locator(`#chart-${name}`).evaluate((c) => ({ pw: c.width, ph: c.height }));
  assert.deepEqual(after, { pw: canvasBox.pw, ph: canvasBox.ph }, `${what}: the chart is back at screen density`);
}

const NAMES = async (page) =>
  page.evaluate(async () => (await import('./src/figures/index.js')).FIGURES.map((r) => r.name));

test('every_figure_on_the_page_should_export_png_csv_and_json_of_its_data', async () => {
  const p = await openPage(env.browser, `${env.server.url}?dim=128&base=500000&gap=16`);
  const { page } = p;
  await waitReady(page);
  const names = await NAMES(page);
  for (const name of names) {
    const kinds = await page
      .locator(`#chart-${name}`)
      .evaluate((c) =>
        [...c.closest('.chart-box').querySelectorAll('button[data-export]')].map((b) => b.dataset.export),
      );
    assert.deepEqual(kinds, ['png', 'csv', 'json'], `#chart-${name}'s box holds the three export buttons`);
    await checkExports(page, name, { ...SWEEP, dim: 128, base: 500000, gap: 16 });
  }
  await p.assertClean();
  await p.context.close();
});

test('exports_should_follow_the_theme_and_the_sweep_settings', async () => {
  const p = await openPage(env.browser, `${env.server.url}?theme=dark&from=100&to=900&n=256&gap=0.5`);
  const { page } = p;
  await waitReady(page);
  await page.locator('#chart-flatness').scrollIntoViewIfNeeded();
  await settle(page);
  const data = await chartData(page, 'flatness');
  const box = page.locator('#fig-flatness');
  const csv = await save(page, box.locator('[data-export="csv"]'));
  assert.equal(
    csv.name,
    'ropescope-flatness-dim64-base10000-gap0.5-from100-to900-n256.csv',
    'sweep settings in the name',
  );
  checkCsv(csv.bytes.toString('utf8'), data, 'flatness CSV (dark, sweep)');
  const png = await save(page, box.locator('[data-export="png"]'));
  assert.deepEqual((await decodePng(page, png.bytes)).corner, SURFACE.dark, 'the PNG is drawn in the dark theme');
  await p.assertClean();
  await p.context.close();
});

test('the_element_should_export_its_figures_too', async () => {
  const html = blogHtml(`<rope-scope id="e" view="angles" dim="32" gap="300" theme="dark"></rope-scope>
<script src="/ropescope-embed.js"></script>`);
  const p = await openBlog(env.browser, html, { viewport: { width: 800, height: 900 } });
  const { page } = p;
  await page.waitForFunction(
    () =>
      document.querySelector('#e').drawn &&
      customElements
        .get('rope-scope')
        ?.Chart.getChart(document.querySelector('#e').shadowRoot?.getElementById('chart-angles')),
  );
  await settle(page);
  await checkExports(page, 'angles', { ...SWEEP, dim: 32, base: 10000, gap: 300 }, { host: '#e', theme: 'dark' });
  await p.assertClean();
  await p.context.close();
});
