// The embed document (embed.html, web/src/element/frame.js), which the iframe snippets name: one
// <rope-scope> on a page of its own, in a mock blog on another origin. It draws the view alone
// (nothing of the explorer), posts its height once, after drawing, takes theme= for its own
// background, names the views for a typo, links to the explorer at its settings, and without
// JavaScript shows the picture its #fragment names.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { VERSION } from '../../web/gen/version.js';
import { openPage, ROOT, settle, useServerAndBrowser, waitFrameDrawn } from './harness.mjs';
import { blogHtml, explorerFrame, openBlog } from './host.mjs';

const env = useServerAndBrowser();
// style.css's --surface: an embed's background in each palette; its --ink-muted, the tick colour.
const SURFACE = { light: 'rgb(255, 255, 255)', dark: 'rgb(25, 28, 34)' };
const MUTED = { light: '#585f6c', dark: '#a2a9b6' };

const frameSrc = (query, view) => `${env.server.url}v${VERSION}/ropescope/embed.html?${query}#${view}`;

// Before the post's scripts: every height message the host receives, in order.
function recordHeights() {
  window.__heights = [];
  window.addEventListener('message', (e) => {
    if (e.data?.ropescope === 'height') window.__heights.push(e.data.height);
  });
}

test('embed_document_should_draw_its_view_alone_and_post_its_height_once_drawn', async () => {
  for (const [view, query] of [
    ['cat', 'view=cat&gap=5'],
    ['decay', 'view=decay&dim=128&controls=dim'],
  ]) {
    const frameTag =
      `<iframe data-ropescope src="${frameSrc(query, view).replace(/&/g, '&amp;')}" title="figure" width="100%" height="500" frameborder="0"></iframe>` +
      `\n<script src="${env.server.url}v${VERSION}/ropescope-resize.js" async></script>`;
    const p = await openBlog(env.browser, blogHtml(`<p>Before.</p>\n${frameTag}\n<p>After.</p>`), {
      viewport: { width: 700, height: 900 },
      init: recordHeights,
    });
    const { page } = p;
    const frame = await explorerFrame(page);
    await waitFrameDrawn(frame);
    await page.waitForFunction(() => window.__heights.length > 0, null, { timeout: 10000 });
    await settle(page);
    await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const seen = await frame.evaluate(() => {
      const root = document.querySelector('rope-scope').shadowRoot;
      return {
        body: Math.ceil(document.body.getBoundingClientRect().height),
        elements: document.body.querySelectorAll(':scope > :not(noscript):not(script)').length,
        figures: [...root.querySelectorAll('.fig')].map((f) => f.id),
        sliders: [...root.querySelectorAll('.embed-control input[type="range"]')].map((r) => r.id),
        link: root.querySelector('.attribution a').href,
        target: root.querySelector('.attribution a').target,
      };
    });
    const heights = await page.evaluate(() => window.__heights);
    const what = `embed.html?${query}`;
    assert.deepEqual(seen.figures, [`fig-${view}`], `${what}: that figure alone`);
    assert.equal(seen.elements, 1, `${what}: the body holds the element and nothing else of the explorer`);
    assert.deepEqual(heights, [seen.body], `${what}: one height posted, the drawn figure's (${heights})`);
    assert.ok(seen.body > 300, `${what}: a figure's height (${seen.body})`);
    assert.equal(seen.target, '_blank', `${what}: the credit opens the explorer outside the post`);
    const link = new URL(seen.link);
    assert.ok(link.pathname.endsWith(`/v${VERSION}/ropescope/index.html`), `${what}: the explorer beside it (${link})`);
    for (const [name, value] of new URLSearchParams(query)) {
      if (name !== 'view' && name !== 'controls') assert.equal(link.searchParams.get(name), value, `${what}: ${name}`);
    }
    if (view === 'decay') {
      assert.deepEqual(seen.sliders, ['dim'], `${what}: the slider asked for`);
      // A typed value applies on Enter, as on the page; the height follows if it changes.
      // The chart's first points, until they change (different ones from `old`).
      const changed = (old) => {
        const root = document.querySelector('rope-scope').shadowRoot;
        const chart = customElements.get('rope-scope').Chart.getChart(root.getElementById('chart-decay'));
        const now = JSON.stringify(chart.data.datasets.map((d) => d.data[0]));
        return now !== old && now;
      };
      const before = await frame.evaluate(changed, '');
      const frameEl = frame.locator('rope-scope');
      await frameEl.locator('#dim-num').fill('256');
      await frameEl.locator('#dim-num').press('Enter');
      await frame.waitForFunction(changed, before);
    }
    const iframeHeight = await page.locator('iframe').evaluate((f) => f.getBoundingClientRect().height);
    assert.equal(Math.round(iframeHeight), seen.body, `${what}: the resizer set the iframe to it`);
    await p.assertClean(what);
    await p.context.close();
  }
});

test('embed_document_theme_should_set_its_background_and_palette_for_either_os_scheme', async () => {
  for (const scheme of ['light', 'dark']) {
    for (const theme of ['auto', 'light', 'dark', 'inherit']) {
      const frameTag = `<iframe src="${frameSrc(`view=slow&theme=${theme}`, 'slow').replace(/&/g, '&amp;')}" title="figure" width="100%" height="700"></iframe>`;
      const p = await openBlog(env.browser, blogHtml(frameTag), { colorScheme: scheme });
      const frame = await explorerFrame(p.page);
      await waitFrameDrawn(frame);
      const seen = await frame.evaluate(() => {
        const root = document.querySelector('rope-scope').shadowRoot;
        const wrapper = root.querySelector('.rs-body');
        const chart = customElements.get('rope-scope').Chart.getChart(root.getElementById('chart-slow'));
        return {
          page: getComputedStyle(document.documentElement).backgroundColor,
          figure: getComputedStyle(wrapper).backgroundColor,
          ticks: chart.options.scales.x.ticks.color,
          muted: getComputedStyle(wrapper).getPropertyValue('--ink-muted').trim(),
        };
      });
      const what = `theme=${theme} under a ${scheme} scheme`;
      const palette = theme === 'light' || theme === 'dark' ? theme : scheme;
      const background = theme === 'inherit' ? 'rgba(0, 0, 0, 0)' : SURFACE[palette];
      assert.equal(seen.page, background, `${what}: the page's background`);
      assert.equal(seen.figure, background, `${what}: the figure's background, the same`);
      assert.equal(seen.muted, MUTED[palette], `${what}: the ${palette} palette`);
      assert.equal(seen.ticks, seen.muted, `${what}: the chart draws in it`);
      await p.assertClean(what);
      await p.context.close();
    }
  }
});

test('embed_document_should_name_the_views_for_a_typo_in_one_line', async () => {
  const frameTag = `<iframe src="${frameSrc('view=flatnes', 'flatnes')}" title="figure" width="100%" height="400"></iframe>`;
  const p = await openBlog(env.browser, blogHtml(frameTag));
  const frame = await explorerFrame(p.page);
  await frame.waitForFunction(() => document.querySelector('rope-scope')?.shadowRoot?.querySelector('.notice p'));
  const seen = await frame.evaluate(() => {
    const root = document.querySelector('rope-scope').shadowRoot;
    return {
      lines: [...root.querySelectorAll('.notice p')].map((line) => line.textContent),
      canvases: root.querySelectorAll('canvas').length,
      height: document.body.getBoundingClientRect().height,
    };
  });
  assert.equal(seen.lines.length, 1, `one line: ${seen.lines}`);
  assert.match(seen.lines[0], /^No figure shown: view "flatnes" is not a figure; use one of all, flatness, /);
  assert.equal(seen.canvases, 0, 'no figure drawn');
  assert.ok(seen.height < 250, `a short box, not every figure (${seen.height} px)`);
  await p.assertClean();
  await p.context.close();
});

test('embed_document_without_javascript_should_show_the_picture_its_fragment_names', async () => {
  for (const scheme of ['light', 'dark']) {
    for (const view of ['decay', 'flatness']) {
      // Scripts off in the frame through its sandbox (no allow-scripts), as a CMS may set it: the
      // browser-wide switch reaches a cross-origin frame's process only now and then.
      const frameTag =
        `<iframe src="${frameSrc(`view=${view}`, view)}" title="figure" width="100%" height="900"` +
        ' sandbox="allow-same-origin allow-popups"></iframe>';
      const p = await openBlog(env.browser, blogHtml(frameTag), { colorScheme: scheme });
      const frame = await explorerFrame(p.page);
      // The frame runs no script: poll from here until the picture has its size (at most 10 s).
      const visible = () =>
        frame.evaluate(() =>
          [...document.querySelectorAll('.frame-img')]
            .filter((img) => img.getClientRects().length > 0)
            .map((img) => {
              const box = img.getBoundingClientRect();
              return {
                content: getComputedStyle(img).content,
                label: img.getAttribute('aria-label'),
                width: box.width,
                height: box.height,
              };
            }),
        );
      let shown = [];
      for (let tries = 0; tries < 100; tries++) {
        shown = await visible();
        if (shown.length > 0 && shown[0].height > 300) break;
        await p.page.waitForTimeout(100);
      }
      const pictures = await frame.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => new URL(entry.name).pathname)
          .filter((path) => path.includes('/pictures/')),
      );
      const what = `#${view}, ${scheme} scheme, JavaScript off`;
      assert.equal(shown.length, 1, `${what}: one picture shown (${JSON.stringify(shown)})`);
      assert.ok(
        shown[0].content.includes(`/v${VERSION}/pictures/${view}-${scheme}.png`),
        `${what}: ${shown[0].content}`,
      );
      assert.ok(
        shown[0].width > 600 && shown[0].height > 300,
        `${what}: drawn at its size (${shown[0].width}x${shown[0].height})`,
      );
      assert.ok(shown[0].label.length > 20, `${what}: with its alt text`);
      assert.deepEqual(
        pictures,
        [`/v${VERSION}/pictures/${view}-${scheme}.png`],
        `${what}: that picture is the only one fetched`,
      );
      // The browser reports the script it did not run; nothing else may fail.
      const problems = p.problems.filter((line) => !/Blocked script execution in .* is sandboxed/.test(line));
      assert.deepEqual(problems, [], `${what}: nothing failed`);
      await p.context.close();
    }
  }
});

// make dist's copy, from disk (a reader who saved it, a static host): the embed document draws
// there, and without JavaScript it shows the picture from dist/pictures/.
test('dist_embed_document_should_work_from_file_urls_with_and_without_javascript', async () => {
  const address = `${pathToFileURL(join(ROOT, `dist/v${VERSION}/ropescope/embed.html`)).href}?view=slow&gap=64#slow`;
  const live = await openPage(env.browser, address, { viewport: { width: 700, height: 900 } });
  await waitFrameDrawn(live.page.mainFrame());
  const link = await live.page.evaluate(
    () => document.querySelector('rope-scope').shadowRoot.querySelector('.attribution a').href,
  );
  assert.ok(link.startsWith(pathToFileURL(join(ROOT, `dist/v${VERSION}/ropescope/index.html`)).href), link);
  assert.equal(new URL(link).searchParams.get('gap'), '64', 'the explorer at the same settings');
  await live.assertClean('dist embed.html from file://');

  const still = await openPage(env.browser, address, {
    viewport: { width: 700, height: 900 },
    javaScriptEnabled: false,
  });
  await still.page.waitForFunction(
    () => document.querySelector('#slow .frame-img')?.getBoundingClientRect().height > 300,
  );
  const content = await still.page.evaluate(() => getComputedStyle(document.querySelector('#slow .frame-img')).content);
  assert.ok(content.includes(`/dist/v${VERSION}/pictures/slow-light.png`), content);
  assert.deepEqual(still.problems, [], 'nothing failed without JavaScript');
  await still.context.close();
});
