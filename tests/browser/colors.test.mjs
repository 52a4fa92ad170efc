// The same colours everywhere (issue 21, item 1): every figure drawn on the page, in an iframe
// embed and in <rope-scope>, under a light and a dark reader scheme and with theme=dark under
// a light one, has the same chart colours (axes, grid, tooltip, datasets, all non-empty and
// those of the scheme); the iframe's and the element's canvases, of one size, also look alike
// pixel for pixel once shrunk to 32 x 16 (the bands and lines a plugin draws are in no option).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIGURES } from '../../web/src/figures/index.js';
import { openPage, readThrough, settle, useServerAndBrowser } from './harness.mjs';
import { blogHtml, explorerFrame, openBlog, shotPath } from './host.mjs';

const env = useServerAndBrowser();
const NAMES = FIGURES.map((row) => row.name);
// style.css's --ink-muted (axis text) in each scheme.
const MUTED = { light: '#585f6c', dark: '#a2a9b6' };
// [reader's scheme, theme=]: the scheme the figures must show is the theme's, else the reader's.
const CASES = [
  ['light', 'auto'],
  ['dark', 'auto'],
  ['light', 'dark'],
];
const shown = (scheme, theme) => (theme === 'auto' ? scheme : theme);
const themeQuery = (theme) => (theme === 'auto' ? '' : `&theme=${theme}`);

// Runs in the page or frame: per figure, its chart's colours and a 32 x 16 shrunk picture.
function readFigures({ names, host }) {
  const root = host ? document.querySelector(host).shadowRoot : document;
  const Chart = host ? customElements.get('rope-scope').Chart : window.Chart;
  // One spelling per colour (the page's minified CSS writes .09 where style.css has 0.09);
  // an empty or missing colour stays visibly empty.
  const paint = document.createElement('canvas').getContext('2d');
  const canonical = (c) => {
    if (typeof c !== 'string' || c.trim() === '') return `empty(${String(c)})`;
    paint.fillStyle = '#010203';
    paint.fillStyle = c;
    return paint.fillStyle;
  };
  const colour = (c) => (Array.isArray(c) ? `${c.slice(0, 4).map(canonical).join('|')}..${c.length}` : canonical(c));
  const out = {};
  for (const name of names) {
    const canvas = root.getElementById(`chart-${name}`);
    const chart = canvas && Chart.getChart(canvas);
    if (!chart) {
      out[name] = null;
      continue;
    }
    const { options } = chart;
    const scales = Object.keys(options.scales)
      .sort()
      .map((key) => {
        const s = options.scales[key];
        return [key, colour(s.ticks.color), colour(s.grid.color), colour(s.title.color), colour(s.border.color)];
      });
    const tip = options.plugins.tooltip;
    const small = document.createElement('canvas');
    small.width = 32;
    small.height = 16;
    const ctx = small.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(canvas, 0, 0, 32, 16);
    out[name] = {
      scales,
      tooltip: [tip.backgroundColor, tip.titleColor, tip.bodyColor, tip.borderColor].map(colour),
      sets: chart.data.datasets.map((ds) => [ds.label, colour(ds.borderColor), colour(ds.backgroundColor)]),
      size: [canvas.width, canvas.height],
      pixels: Array.from(ctx.getImageData(0, 0, 32, 16).data),
    };
  }
  return out;
}

async function scrollThrough(page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += 800) {
      window.scrollTo(0, y);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
    window.scrollTo(0, 0);
  });
  await settle(page);
}

async function waitCharts(target, host) {
  await target.waitForFunction(
    ({ names, hostSel }) => {
      const root = hostSel ? document.querySelector(hostSel)?.shadowRoot : document;
      const Chart = hostSel ? customElements.get('rope-scope')?.Chart : window.Chart;
      return (
        root &&
        Chart &&
        (!hostSel || document.querySelector(hostSel).drawn) &&
        names.every((n) => root.getElementById(`chart-${n}`) && Chart.getChart(root.getElementById(`chart-${n}`)))
      );
    },
    { names: NAMES, hostSel: host },
    { timeout: 20000 },
  );
}

async function onPage(scheme, theme) {
  const p = await openPage(env.browser, null, { viewport: { width: 1000, height: 900 } });
  await p.page.emulateMedia({ colorScheme: scheme });
  await p.page.goto(`${env.server.url}?view=all${themeQuery(theme)}`);
  // Each figure is built, and its chart made, as the reader nears it: read the page through first.
  await p.page.waitForFunction(() => performance.getEntriesByName('ropescope:first-chart').length > 0, null, {
    timeout: 30000,
  });
  await readThrough(p.page);
  await waitCharts(p.page, null);
  const figures = await p.page.evaluate(readFigures, { names: NAMES, host: null });
  await p.close();
  return figures;
}

async function inFrame(scheme, theme) {
  const src = `${env.server.url}?embed=1&view=all${themeQuery(theme)}`;
  const p = await openBlog(
    env.browser,
    blogHtml(`<iframe src="${src}" title="figures" width="100%" height="9000"></iframe>`),
    { colorScheme: scheme },
  );
  const frame = await explorerFrame(p.page);
  await waitCharts(frame, null);
  await scrollThrough(p.page);
  const figures = await frame.evaluate(readFigures, { names: NAMES, host: null });
  await p.close();
  return figures;
}

async function inElement(scheme, theme) {
  const attr = theme === 'auto' ? '' : ` theme="${theme}"`;
  const p = await openBlog(
    env.browser,
    blogHtml(`<rope-scope id="e" view="all"${attr}></rope-scope>
<script src="/ropescope-embed.js"></script>`),
    { colorScheme: scheme },
  );
  // The element draws every figure at once, on screen or not.
  await waitCharts(p.page, '#e');
  await settle(p.page);
  if (scheme !== theme)
    await p.page.locator('#e').screenshot({ path: shotPath(`colors-element-${scheme}-${theme}.png`) });
  const figures = await p.page.evaluate(readFigures, { names: NAMES, host: '#e' });
  await p.close();
  return figures;
}

// How many distinct colours a shrunk picture holds (a blank canvas has one).
function distinct(pixels) {
  const seen = new Set();
  for (let i = 0; i < pixels.length; i += 4) seen.add(pixels.slice(i, i + 4).join());
  return seen.size;
}

// Mean absolute difference of two shrunk pictures, per channel (0..255).
function pictureGap(a, b) {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

for (const [scheme, theme] of CASES) {
  test(`every_figure_should_have_the_same_colours_on_the_page_in_an_iframe_and_in_the_element (${scheme} reader, theme=${theme})`, async () => {
    const ways = {
      page: await onPage(scheme, theme),
      iframe: await inFrame(scheme, theme),
      element: await inElement(scheme, theme),
    };
    const want = MUTED[shown(scheme, theme)];
    for (const name of NAMES) {
      for (const [way, figures] of Object.entries(ways)) {
        const f = figures[name];
        assert.ok(f, `${way}: no chart for ${name}`);
        for (const [axis, ...colours] of f.scales) {
          assert.ok(
            colours.every((c) => !c.includes('empty(')),
            `${way} ${name} axis ${axis}: an empty colour ${colours}`,
          );
          assert.equal(
            colours[0],
            want,
            `${way} ${name} axis ${axis}: tick colour of the ${shown(scheme, theme)} scheme`,
          );
        }
        assert.ok(
          f.tooltip.every((c) => !c.includes('empty(')),
          `${way} ${name}: empty tooltip colour`,
        );
        for (const [label, ...colours] of f.sets) {
          // A dataset may leave one of its two colours to Chart.js (undefined), never an empty string.
          assert.ok(
            colours.every((c) => c !== 'empty()' && !c.includes('empty()|')),
            `${way} ${name} "${label}": empty colour ${colours}`,
          );
        }
      }
      const strip = ({ scales, tooltip, sets }) => ({ scales, tooltip, sets });
      assert.deepEqual(strip(ways.iframe[name]), strip(ways.page[name]), `${name}: iframe and page colours differ`);
      assert.deepEqual(strip(ways.element[name]), strip(ways.page[name]), `${name}: element and page colours differ`);
      assert.deepEqual(ways.element[name].size, ways.iframe[name].size, `${name}: element and iframe canvas sizes`);
      for (const way of ['iframe', 'element']) {
        assert.ok(distinct(ways[way][name].pixels) >= 8, `${way} ${name}: the canvas looks blank`);
      }
      const gap = pictureGap(ways.element[name].pixels, ways.iframe[name].pixels);
      assert.ok(gap < 6, `${name}: the element's picture differs from the iframe's by ${gap.toFixed(1)} per channel`);
    }
  });
}
