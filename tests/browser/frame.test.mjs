// The embed document (embed.html, web/src/element/frame.js), which the iframe snippets name: one
// <rope-scope> on a page of its own, in a mock blog on another origin. It draws the view alone
// (nothing of the explorer), posts its height once, after drawing, takes theme= for its own
// background, names the views for a typo, links to the explorer at its settings, and without
// JavaScript shows the picture its #fragment names.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { selectorsOf } from '../../tools/css_prune.mjs';
import { FIGURE_NAMES } from '../../web/gen/figure_names.js';
import { VERSION } from '../../web/gen/version.js';
import { rng, seed } from '../lib/testlib.mjs';
import { openPage, ROOT, settle, useServerAndBrowser, waitFrameDrawn } from './harness.mjs';
import { blogHtml, elementChunksFor, explorerFrame, openBlog, turnCircle } from './host.mjs';

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

test('the_rotating_pairs_own_inputs_should_work_in_both_embed_documents', async () => {
  for (const doc of ['embed/circle.html', 'embed.html']) {
    const src = `${env.server.url}v${VERSION}/ropescope/${doc}?view=circle#circle`;
    const p = await openBlog(
      env.browser,
      blogHtml(`<iframe src="${src}" title="figure" width="100%" height="900" frameborder="0"></iframe>`),
    );
    const frame = await explorerFrame(p.page);
    await waitFrameDrawn(frame);
    await turnCircle(frame.locator('rope-scope'), doc);
    await p.assertClean(doc);
    await p.context.close();
  }
});

test('a_one_view_document_without_view_should_show_its_own_figure', async () => {
  const { FIGURES } = await import('../../web/src/figures/index.js');
  const random = rng(seed('frame, no view='));
  const other = FIGURES[Math.floor(random() * FIGURES.length)].name;
  for (const [view, query] of [
    ['circle', ''],
    [other, '?gap=7'],
  ]) {
    const what = `embed/${view}.html${query}`;
    const p = await openPage(env.browser, `${env.server.url}v${VERSION}/ropescope/${what}#${view}`, {
      viewport: { width: 700, height: 900 },
    });
    await waitFrameDrawn(p.page.mainFrame());
    const seen = await p.page.evaluate(() => {
      const root = document.querySelector('rope-scope').shadowRoot;
      return {
        shown: [...root.querySelectorAll('.fig')].map((f) => f.dataset.view),
        notice: root.querySelector('.notice').textContent,
      };
    });
    assert.deepEqual(seen, { shown: [view], notice: '' }, `${what}: its own figure, no notice`);
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
      // inherit with no resizer to name the host's colours: a light page, as a host that names
      // no scheme is (frame.js), so the browser paints no backdrop of the reader's scheme.
      const palette = theme === 'light' || theme === 'dark' ? theme : theme === 'inherit' ? 'light' : scheme;
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
  // Every view, in the page's order.
  assert.equal(
    seen.lines[0],
    `No figure shown: view "flatnes" is not a figure; use one of all, ${FIGURE_NAMES.join(', ')}.`,
  );
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
  await live.context.close();

  const still = await openPage(env.browser, address, {
    viewport: { width: 700, height: 900 },
    javaScriptEnabled: false,
  });
  // Polled on a timer: a page that runs no script of its own may paint no new frame to poll on.
  await still.page.waitForFunction(
    () => document.querySelector('#slow .frame-img')?.getBoundingClientRect().height > 300,
    null,
    { polling: 100, timeout: 30000 },
  );
  const content = await still.page.evaluate(() => getComputedStyle(document.querySelector('#slow .frame-img')).content);
  assert.ok(content.includes(`/dist/v${VERSION}/pictures/slow-light.png`), content);
  assert.deepEqual(still.problems, [], 'nothing failed without JavaScript');
  await still.context.close();
});

// esbuild writes a bundle's strings in ASCII: a title's other characters as \xHH (up to 0xff)
// or \uHHHH escapes, in capitals.
const asBundled = (text) =>
  text.replace(/[^\x20-\x7e]/g, (c) => {
    const hex = c.charCodeAt(0).toString(16).toUpperCase();
    return hex.length <= 2 ? `\\x${hex.padStart(2, '0')}` : `\\u${hex.padStart(4, '0')}`;
  });

test('embed_document_should_load_only_its_view_code', async () => {
  const { FIGURES, FIGURE } = await import('../../web/src/figures/index.js');
  // The element for posts: its script and every chunk beside it.
  const chunkDir = join(ROOT, 'web', 'ropescope-embed');
  const whole = ['ropescope-embed.js', ...readdirSync(chunkDir).map((f) => `ropescope-embed/${f}`)]
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(ROOT, 'web', file), 'utf8'))
    .join('\n');
  // Each one-view script holds its own figure's words and no other figure's (post.js quotes the
  // 512-dimension chapter's score, so its script holds that chapter's row too), and is smaller.
  const borrowed = { post: ['planes'] };
  for (const row of FIGURES) {
    const code = readFileSync(join(ROOT, 'web', 'embed', `${row.name}.js`), 'utf8');
    assert.ok(code.includes(asBundled(row.title)), `embed/${row.name}.js holds its title "${row.title}"`);
    assert.ok(code.length < 0.85 * whole.length, `embed/${row.name}.js (${code.length} B) is smaller than the whole`);
    for (const other of FIGURES) {
      if (other === row || borrowed[row.name]?.includes(other.name)) continue;
      assert.ok(!code.includes(asBundled(other.lookfor)), `embed/${row.name}.js holds nothing of ${other.name}`);
    }
  }
  for (const other of FIGURES) assert.ok(whole.includes(asBundled(other.lookfor)), `the whole has ${other.name}`);

  // A view's own document (dist's, from disk: every file a request) loads its one-view script
  // alone; embed.html, the whole element, for every view or an earlier snippet's address. The
  // credit links to the explorer beside the documents.
  const random = rng(seed('frame (browser)'));
  const first = Math.floor(random() * FIGURES.length);
  const view = FIGURES[first].name;
  const other = FIGURES[(first + 1 + Math.floor(random() * (FIGURES.length - 1))) % FIGURES.length].name;
  const refused = `No figure shown: this script holds one view; view="${other}" needs ropescope-embed.js.`;
  for (const [doc, query, script, figures, notice] of [
    [`embed/${view}.html`, `view=${view}&gap=7`, `embed/${view}.js`, [view], ''],
    [`embed/${view}.html`, `view=%20${view.toUpperCase()}%20`, `embed/${view}.js`, [view], ''],
    [`embed/${view}.html`, `view=${other}`, `embed/${view}.js`, [], refused],
    ['embed.html', `view=${view}`, 'ropescope-embed.js', [view], ''],
    ['embed.html', 'view=all', 'ropescope-embed.js', FIGURES.map((r) => r.name), ''],
  ]) {
    // The element for posts fetches, beside its script, the chunks of what it draws with and of
    // its views, nothing more; a one-view script is all there is.
    const chunks = script === 'ropescope-embed.js' ? elementChunksFor(figures) : { must: [], may: [] };
    const inFolder = (files) => [script, ...files.map((file) => `ropescope-embed/${file}`)];
    const what = `${doc}?${query}`;
    const folder = pathToFileURL(join(ROOT, 'dist', 'ropescope')).href;
    const p = await openPage(env.browser, null, { viewport: { width: 700, height: 900 } });
    const scripts = [];
    p.page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url().replace(`${folder}/`, ''));
    });
    await p.page.goto(`${folder}/${doc}?${query}`);
    await p.page.waitForFunction(
      () => document.querySelector('rope-scope')?.shadowRoot?.querySelector('.notice'),
      null,
      { timeout: 20000 },
    );
    if (figures.length) await waitFrameDrawn(p.page.mainFrame());
    const seen = await p.page.evaluate(() => {
      const root = document.querySelector('rope-scope').shadowRoot;
      return {
        shown: [...root.querySelectorAll('.fig')].map((f) => f.dataset.view),
        notice: root.querySelector('.notice').textContent,
        link: root.querySelector('.attribution a')?.href ?? null,
      };
    });
    const loaded = new Set(scripts);
    for (const file of inFolder(chunks.must)) assert.ok(loaded.has(file), `${what} loads ${file}`);
    for (const file of scripts) assert.ok(inFolder(chunks.may).includes(file), `${what} loads ${file}, its own`);
    assert.equal(loaded.size, scripts.length, `${what} loads each file once`);
    assert.deepEqual(seen.shown, figures, `${what} shows ${figures.join(', ') || 'no figure'}`);
    assert.equal(seen.notice, notice, `${what}: notice`);
    assert.equal(new URL(seen.link).pathname, new URL(`${folder}/index.html`).pathname, `${what}: explorer link`);
    await p.assertClean();
    await p.context.close();
  }
  assert.ok(FIGURE[other], 'the other view is a figure');

  // Without JavaScript a view's own document shows that view's picture, the only one it loads.
  const folder = pathToFileURL(join(ROOT, 'dist', 'ropescope')).href;
  for (const scheme of ['light', 'dark']) {
    const p = await openPage(env.browser, null, { viewport: { width: 700, height: 900 }, javaScriptEnabled: false });
    await p.page.emulateMedia({ colorScheme: scheme });
    const images = [];
    p.page.on('request', (r) => {
      if (r.resourceType() === 'image') images.push(r.url().split('/').pop());
    });
    await p.page.goto(`${folder}/embed/${view}.html?view=${view}#${view}`);
    await p.page.waitForFunction(
      () => document.querySelector('.frame-picture:target .frame-img')?.getBoundingClientRect().height > 300,
      null,
      { polling: 100 }, // on a timer: a page that runs no script may paint no frame to poll on
    );
    const seen = await p.page.evaluate(() => {
      const img = document.querySelector('.frame-picture:target .frame-img');
      const box = img.getBoundingClientRect();
      return {
        width: box.width,
        height: box.height,
        alt: img.getAttribute('aria-label'),
        shown: [...document.querySelectorAll('.frame-img')].filter((i) => i.getClientRects().length).length,
      };
    });
    const what = `embed/${view}.html, ${scheme}, JavaScript off`;
    assert.deepEqual(images, [`${view}-${scheme}.png`], `${what}: its one picture (${images})`);
    assert.equal(seen.shown, 1, `${what}: one picture shown`);
    assert.ok(seen.height > 300 && seen.width > 600, `${what}: shown (${seen.width}x${seen.height} px)`);
    assert.ok(seen.alt.startsWith(FIGURE[view].title), `${what}: alt text ${seen.alt}`);
    await p.context.close();
  }
});

// The stylesheet's rules that match an element of the shadow root (`selectors`: every selector
// of style.css, as tools/css_prune.mjs reads them), with the element's own renames (:root and
// body become its wrappers) and each pseudo-class or pseudo-element left out (so :hover's rule
// counts where its element is).
function matchedRules(selectors) {
  const root = document.querySelector('rope-scope').shadowRoot;
  const PSEUDO = '::?[\\w-]+(?:\\((?:[^()]|\\([^()]*\\))*\\))?';
  return selectors.filter((selector) => {
    if (selector.includes(':host')) return false;
    const query = selector
      .replace(/:root/g, '.rs-root')
      .replace(/(^|[\s,>+~(])(?:html|body)(?=[\s.:[,)>+~]|$)/g, '$1.rs-body')
      .replace(new RegExp(`(^|[\\s>+~])${PSEUDO}`, 'g'), '$1*')
      .replace(new RegExp(PSEUDO, 'g'), '');
    try {
      return root.querySelector(query) !== null;
    } catch {
      return false;
    }
  });
}

// Each view's own document carries the lesson's wasm module cut to what that view calls
// (tools/view_wasm.mjs): every one of them draws, at random settings of the three sliders, with
// no notice and nothing in the console (a call to an export its module lacks would say so). Its
// stylesheet is cut to the rules its code can show (tools/css_prune.mjs): each rule of the whole
// that matches an element of its shadow root is in its script.
test('every_view_document_should_draw_with_its_cut_core_at_random_settings', async () => {
  const selectors = selectorsOf(readFileSync(join(ROOT, 'web', 'style.min.css'), 'utf8'));
  const random = rng(seed('frame (browser), cut cores'));
  const folder = pathToFileURL(join(ROOT, 'dist', 'ropescope')).href;
  const p = await openPage(env.browser, null, { viewport: { width: 700, height: 900 } });
  for (const view of FIGURE_NAMES) {
    const dim = 2 * (1 + Math.floor(random() * 256));
    const base = Math.round(100 * 10 ** (random() * 4));
    const gap = Math.round(random() * 500) / 10;
    const query = `view=${view}&dim=${dim}&base=${base}&gap=${gap}&controls=gap,dim,base`;
    await p.page.goto(`${folder}/embed/${view}.html?${query}`);
    // Drawn, or a notice saying why not (then failed below with its text).
    await p.page.waitForFunction(
      () => {
        const root = document.querySelector('rope-scope')?.shadowRoot;
        const canvases = [...(root?.querySelectorAll('canvas') ?? [])];
        return (
          root?.querySelector('.notice')?.textContent ||
          (canvases.length > 0 && canvases.every((c) => customElements.get('rope-scope').Chart?.getChart(c)))
        );
      },
      null,
      { timeout: 20000, polling: 100 },
    );
    const seen = await p.page.evaluate(() => {
      const root = document.querySelector('rope-scope').shadowRoot;
      return {
        notice: root.querySelector('.notice').textContent,
        caption: root.querySelector('figcaption.caption')?.textContent ?? '',
      };
    });
    assert.equal(seen.notice, '', `embed/${view}.html?${query}: notice`);
    assert.ok(seen.caption.length > 20, `embed/${view}.html?${query}: a caption (${seen.caption})`);
    const code = readFileSync(join(ROOT, 'dist', 'ropescope', 'embed', `${view}.js`), 'utf8');
    const matched = await p.page.evaluate(matchedRules, selectors);
    assert.ok(matched.length > 50, `embed/${view}.html: ${matched.length} rules matched`);
    for (const selector of matched) {
      const written = JSON.stringify(selector).slice(1, -1);
      assert.ok(
        code.includes(`${written}{`) || code.includes(`${written},`),
        `embed/${view}.js lacks the rule ${selector}, which matches its shadow root`,
      );
    }
  }
  await p.assertClean('the views at random settings');
  await p.context.close();
});

// A view's own document draws what the element for posts draws: the same pixels, though its
// script holds that view alone, the Chart.js parts its chart uses and the wasm module cut to what
// it calls. A seeded sample of views (flatness, what most posts carry, always) in both schemes,
// at a column's width and a phone's; a failure names the view, scheme and width.
test('a_view_document_should_draw_the_same_pixels_as_the_element_for_posts', async () => {
  const random = rng(seed('frame (browser), same pixels'));
  const others = FIGURE_NAMES.filter((view) => view !== 'flatness');
  const views = ['flatness'];
  while (views.length < 5) {
    const view = others[Math.floor(random() * others.length)];
    if (!views.includes(view)) views.push(view);
  }
  const folder = pathToFileURL(join(ROOT, 'dist', 'ropescope')).href;
  const shot = async (page, url) => {
    await page.goto(url);
    await waitFrameDrawn(page.mainFrame());
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    return page.locator('rope-scope').screenshot();
  };
  for (const [scheme, width] of [
    ['light', 700],
    ['dark', 700],
    ['light', 390],
  ]) {
    const p = await openPage(env.browser, null, { viewport: { width, height: 900 } });
    await p.page.emulateMedia({ colorScheme: scheme });
    for (const view of views) {
      const query = `view=${view}&gap=5&controls=gap,dim`;
      const own = await shot(p.page, `${folder}/embed/${view}.html?${query}#${view}`);
      const whole = await shot(p.page, `${folder}/embed.html?${query}#${view}`);
      assert.ok(own.equals(whole), `${view}, ${scheme}, ${width} px: embed/${view}.html differs from embed.html`);
    }
    await p.assertClean(`${scheme}, ${width} px`);
    await p.context.close();
  }
});

// Issue #34's goal: a one-view embed fetches at most 90 KB, every response gzipped (as make
// bench's iframe counts them): the claim's figure's document as dist/ serves it, which loads its
// stylesheet and its one script and nothing else (embed_document_should_load_only_its_view_code).
test('the_claims_view_document_should_fetch_at_most_90_kb_gzipped', () => {
  const folder = join(ROOT, 'dist', 'ropescope');
  const files = ['embed/flatness.html', 'embed.css', 'embed/flatness.js'];
  const bytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(join(folder, file))).length, 0);
  assert.ok(bytes <= 90 * 1024, `embed/flatness.html fetches ${(bytes / 1024).toFixed(1)} KB gzipped, over 90`);
  const html = readFileSync(join(folder, 'embed', 'flatness.html'), 'utf8');
  for (const file of ['../embed.css', 'flatness.js'])
    assert.ok(html.includes(`"${file}"`), `the document loads ${file}`);
});

// The areas the figures fill (charts/figure.js's areaFill, not Chart.js's Filler): flatness's
// band between the additive method's least and greatest score, and the area under the slow
// pairs' steps. With the filling dataset's colour made one no other mark uses, the chart redrawn
// holds a wide patch of it, and none once the colour is transparent.
test('the_filled_areas_should_be_drawn', async () => {
  const folder = pathToFileURL(join(ROOT, 'dist', 'ropescope')).href;
  const p = await openPage(env.browser, null, { viewport: { width: 700, height: 900 } });
  for (const [view, set] of [
    ['flatness', 3],
    ['slow', 0],
  ]) {
    await p.page.goto(`${folder}/embed/${view}.html?view=${view}&gap=300`);
    await waitFrameDrawn(p.page.mainFrame());
    const counts = await p.page.evaluate(
      ([name, index]) => {
        const canvas = document.querySelector('rope-scope').shadowRoot.getElementById(`chart-${name}`);
        const chart = customElements.get('rope-scope').Chart.getChart(canvas);
        const marked = (color) => {
          chart.data.datasets[index].backgroundColor = color;
          chart.update('none');
          // Read from a copy, whose context is made for reading (the chart's is not).
          const copy = new OffscreenCanvas(canvas.width, canvas.height).getContext('2d', { willReadFrequently: true });
          copy.drawImage(canvas, 0, 0);
          const { data } = copy.getImageData(0, 0, canvas.width, canvas.height);
          let n = 0;
          for (let i = 0; i < data.length; i += 4) {
            if (data[i] === 1 && data[i + 1] === 2 && data[i + 2] === 3 && data[i + 3] === 255) n++;
          }
          return n;
        };
        return {
          filled: marked('rgb(1, 2, 3)'),
          share: marked('rgb(1, 2, 3)') / (canvas.width * canvas.height),
          none: marked('transparent'),
        };
      },
      [view, set],
    );
    assert.ok(counts.share > 0.02, `${view}: the area covers ${(100 * counts.share).toFixed(1)}% of the chart`);
    assert.equal(counts.none, 0, `${view}: nothing of that colour once the area is transparent`);
  }
  await p.assertClean('the filled areas');
  await p.context.close();
});
