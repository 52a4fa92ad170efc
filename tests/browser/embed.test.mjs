// Iframe embeds on a mock blog (another origin): the snippets the page's builder writes, with
// and without the auto-height lines, for every view at 700 and 390 px; the host lines' checks;
// theme=, controls=, title=, the attribution link and the missing figure numbers.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_COLUMN, MAX_HEIGHT } from '../../web/src/element/embed.js';
import { EMBED_CONTENT } from '../../web/src/element/heights.js';
import { rng, seed } from '../lib/testlib.mjs';
import { afterUpdate, checkCharts, DEFAULTS, openPage, settle, useServerAndBrowser, waitReady } from './harness.mjs';
import { blogHtml, distinctColors, explorerFrame, holdPreview, nextPost, openBlog } from './host.mjs';

const env = useServerAndBrowser();
// Each fitting test loads a seeded sample of the builder's snippets, not all ~50 of them (two
// thirds of the browser suite's time), so every snippet is loaded over a few runs; the seed is
// printed and ROPE_TEST_SEED repeats a run's sample. ROPE_EMBED_SAMPLE=all loads every one.
const random = rng(seed('embed snippets'));
const SAMPLE = process.env.ROPE_EMBED_SAMPLE === 'all' ? Number.POSITIVE_INFINITY : 8;
function sample(keys, what) {
  const pool = [...keys];
  const picked = [];
  while (pool.length > 0 && picked.length < SAMPLE) picked.push(...pool.splice(Math.floor(random() * pool.length), 1));
  console.log(`# ${what}: ${picked.length} of ${keys.length} snippets: ${picked.join(' ')}`);
  return picked;
}
const WIDTHS = [700, 390];
// style.css's --surface: the embed's background in each palette.
const SURFACE = { light: 'rgb(255, 255, 255)', dark: 'rgb(25, 28, 34)' };

/** The page open, its first chart drawn and its embed builder set up (after the first paint):
 *  what the builder's tests use, without building every figure as waitReady does. */
async function openBuilder(query = '') {
  const p = await openPage(env.browser, env.server.url + query);
  await p.page.waitForFunction(
    () =>
      performance.getEntriesByName('ropescope:first-chart').length > 0 &&
      document.getElementById('embed-column') !== null &&
      document.getElementById('embed-code').value !== '',
    null,
    { timeout: 30000 },
  );
  return p;
}

/** The builder's snippets for every view at the page's defaults, for each post column in
 *  `columns` (the fixed ones are the column's): { column: { view: { auto, fixed } } }, from one
 *  page. Each option is set as selectOption and check do (the value, then input and change),
 *  inside the page: one round trip for a column's snippets instead of four for each. */
async function builderSnippets(columns) {
  const p = await openBuilder();
  const { page } = p;
  await holdPreview(page);
  const read = (controls) =>
    page.evaluate(
      ({ controls, columns }) => {
        const $ = (id) => document.getElementById(id);
        const choose = (id, value) => {
          $(id).value = value;
          for (const type of ['input', 'change']) $(id).dispatchEvent(new Event(type, { bubbles: true }));
        };
        const tick = (id, on) => {
          if ($(id).checked !== on) $(id).click();
        };
        const views = [...$('embed-view').options].map((o) => o.value);
        // The tallest options: every slider in the embed, with the heading (each view's snippet
        // then holds the ones it reads). The boxes are offered where a view reads them: all
        // figures does.
        if (controls) {
          choose('embed-view', 'all');
          for (const name of ['gap', 'dim', 'base']) tick(`embed-control-${name}`, true);
        }
        const out = {};
        for (const column of columns) {
          choose('embed-column', String(column));
          out[column] = {};
          for (const view of controls ? views.filter((v) => v !== 'all') : views) {
            choose('embed-view', view);
            tick('embed-auto', true);
            const auto = $('embed-code').value;
            tick('embed-auto', false);
            out[column][controls ? `${view}&controls=gap,dim,base` : view] = { auto, fixed: $('embed-code').value };
          }
        }
        return out;
      },
      { controls, columns },
    );
  // The plain snippets of every column first, then, with the sliders ticked, those with them.
  const plain = await read(false);
  const withControls = await read(true);
  await p.close();
  return Object.fromEntries(columns.map((c) => [c, { ...plain[c], ...withControls[c] }]));
}

// The fixed-height tests' post columns (below) and the builder's default.
const FIXED = [320, 480, 640, 800];
let allSnippets;
async function snippetsAt(column = DEFAULT_COLUMN) {
  allSnippets ??= await builderSnippets([...new Set([DEFAULT_COLUMN, ...FIXED])]);
  return allSnippets[column];
}
async function snippetsFor(view) {
  return (await snippetsAt())[view];
}

// The snippets name the embed document (embed/<view>.html: one <rope-scope>, its canvases in the
// shadow root); the explorer in embed mode (index.html?embed=1) draws in the document itself.
// Both set the 'ropescope:first-chart' mark.
async function frameReady(frame) {
  await frame.waitForFunction(
    () => {
      const element = document.querySelector('rope-scope');
      const root = element?.shadowRoot ?? document;
      const Chart = element ? customElements.get('rope-scope').Chart : window.Chart;
      const canvases = [...root.querySelectorAll('canvas')];
      return (
        performance.getEntriesByName('ropescope:first-chart').length > 0 &&
        canvases.length > 0 &&
        canvases.every((c) => Chart.getChart(c))
      );
    },
    null,
    { timeout: 20000 },
  );
}

/** The frame's content height and overflow, and the iframe's height in the host. */
async function measure(page, frame) {
  const inner = await frame.evaluate(() => ({
    content: Math.ceil(document.body.getBoundingClientRect().height),
    scrollHeight: document.documentElement.scrollHeight,
    clientHeight: document.documentElement.clientHeight,
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
    // The figures shown (with view=NAME the others are display: none).
    canvases: [...(document.querySelector('rope-scope')?.shadowRoot ?? document).querySelectorAll('canvas')]
      .filter((c) => c.closest('.fig').getClientRects().length)
      .map((c) => {
        const r = c.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, width: r.width, height: r.height };
      }),
  }));
  const outer = await page.locator('iframe').evaluate((f) => f.getBoundingClientRect().height);
  return { ...inner, iframe: outer };
}

function assertNoInnerScroll(m, what) {
  assert.ok(m.scrollHeight <= m.clientHeight, `${what}: no vertical scrollbar (${m.scrollHeight} > ${m.clientHeight})`);
  assert.ok(m.scrollWidth <= m.clientWidth, `${what}: no horizontal scrollbar (${m.scrollWidth} > ${m.clientWidth})`);
  assert.ok(m.canvases.length >= 1, `${what}: a figure`);
  for (const c of m.canvases) {
    assert.ok(c.width > 200 && c.height > 150, `${what}: the chart has a size (${c.width}x${c.height})`);
    assert.ok(
      c.top >= 0 && c.bottom <= m.clientHeight,
      `${what}: the chart lies inside the iframe (${c.top}..${c.bottom} of ${m.clientHeight})`,
    );
  }
}

for (const width of WIDTHS) {
  test(`auto_height_iframes_should_fit_their_content_at_${width}px`, async () => {
    const snippets = await snippetsAt();
    // One window for the sample's posts, each loaded in it in turn.
    let p = null;
    for (const view of sample(Object.keys(snippets), `auto height at ${width}px`)) {
      const { auto } = snippets[view];
      assert.match(
        auto,
        /^<div data-ropescope-embed [^>]*><a [^>]+>.*<\/a><iframe data-ropescope [^>]*><\/iframe><\/div><script src="[^"]*\/ropescope-resize\.js" async><\/script>$/,
        'the auto snippet: its picture for readers without the live figure, the iframe over it, and the resizer',
      );
      const post = blogHtml(`<p>Before the figure.</p>\n${auto}\n<p>After it.</p>`);
      if (p) await nextPost(p.page, post);
      else p = await openBlog(env.browser, post, { viewport: { width, height: 900 } });
      const { page } = p;
      const frame = await explorerFrame(page);
      await frameReady(frame);
      // The host resizes the iframe to the height the embed posts, and that settles.
      await page.waitForFunction(() => document.querySelector('iframe').style.height !== '', null, { timeout: 10000 });
      await settle(page);
      await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await settle(page);
      const m = await measure(page, frame);
      const what = `view=${view} at ${width}px, auto-height`;
      assert.equal(m.iframe, m.content, `${what}: the iframe is as tall as its content`);
      assertNoInnerScroll(m, what);
      await page.locator('iframe').scrollIntoViewIfNeeded();
      assert.ok((await distinctColors(page, page.locator('iframe'))) > 20, `${what}: the figure shows in a screenshot`);
      await p.assertClean(what);
    }
    await p?.context.close();
  });
}

// The fixed-height snippet (no script) for a column choice of the builder, in a post column that
// wide: the whole embed shows, with no scrollbar, and (issue 36, a host that strips the resizer)
// at most 8 px of the iframe blank below it. A slider row is an estimate (embed.js's
// CONTROL_ROW): snippets with sliders are held to fitting only.
// The blog's column is its viewport less 32 px of padding.
const MOST_BLANK = 8;
for (const column of FIXED) {
  test(`fixed_height_iframes_for_a_${column}px_column_should_show_the_whole_figure_with_no_blank`, async () => {
    const fixedSnippets = await snippetsAt(column);
    let p = null; // one window for the sample's posts
    for (const view of sample(Object.keys(fixedSnippets), `fixed height, ${column}px column`)) {
      const { fixed } = fixedSnippets[view];
      assert.doesNotMatch(fixed, /<script/, 'the fixed snippet is the iframe and its picture alone');
      const height = Number(/height="(\d+)"/.exec(fixed)[1]);
      // The mock blog's column stops at 700 px: a wider one lifts that.
      const css = column > 700 ? 'main { max-width: none; }' : '';
      if (p) await nextPost(p.page, blogHtml(fixed, css));
      else p = await openBlog(env.browser, blogHtml(fixed, css), { viewport: { width: column + 32, height: 900 } });
      const { page } = p;
      const frame = await explorerFrame(page);
      await frameReady(frame);
      await settle(page);
      const m = await measure(page, frame);
      const what = `view=${view} in a ${column}px column, fixed height ${height}`;
      const frameWidth = await page.locator('iframe').evaluate((f) => f.getBoundingClientRect().width);
      assert.equal(Math.round(frameWidth), column, `${what}: the iframe is the column's width`);
      assert.equal(Math.round(m.iframe), height, `${what}: the iframe keeps the snippet's height`);
      console.log(`# ${what}: content ${m.content}px`);
      assert.ok(m.content <= height, `${what}: content ${m.content}px fits (rerun tools/embed_heights.mjs)`);
      // A figure not measured yet takes the tallest figure's heights (element/measured.js): it
      // fits, and is held to the blank once tools/embed_heights.mjs has measured it.
      if (!view.includes('&controls') && EMBED_CONTENT[view]) {
        assert.ok(height - m.content <= MOST_BLANK, `${what}: ${height - m.content}px blank, at most ${MOST_BLANK}`);
      }
      assertNoInnerScroll(m, what);
      await p.assertClean(what);
    }
    await p?.context.close();
  });
}

test('host_lines_should_take_heights_only_from_their_iframe_within_bounds', async () => {
  const { auto } = await snippetsFor('slow');
  const p = await openBlog(env.browser, blogHtml(auto), { viewport: { width: 700, height: 900 } });
  const { page } = p;
  const frame = await explorerFrame(page);
  await frameReady(frame);
  await page.waitForFunction(() => document.querySelector('iframe').style.height !== '');
  await settle(page);
  const frameEl = page.locator('iframe').first();
  const good = await frameEl.evaluate((f) => f.style.height);
  // Not from the iframe's window: the host page itself, and another frame of another origin.
  await page.evaluate(() => window.postMessage({ ropescope: 'height', height: 300 }, '*'));
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        const other = document.createElement('iframe');
        other.srcdoc = "<script>parent.postMessage({ ropescope: 'height', height: 310 }, '*')</script>";
        other.onload = () => resolve();
        document.body.append(other);
      }),
  );
  // From the iframe, but not a number within bounds.
  for (const height of ['300', 1e9, -5, 99, MAX_HEIGHT + 1, null, Number.NaN]) {
    await frame.evaluate((h) => parent.postMessage({ ropescope: 'height', height: h }, '*'), height);
  }
  await frame.evaluate(() => parent.postMessage({ height: 300 }, '*'));
  await settle(page);
  assert.equal(await frameEl.evaluate((f) => f.style.height), good, 'every bad message was ignored');
  // A good one from the iframe is taken.
  await frame.evaluate(() => parent.postMessage({ ropescope: 'height', height: 777 }, '*'));
  await page.waitForFunction(() => document.querySelector('iframe').style.height === '777px');
  await p.assertClean();
  await p.context.close();
});

test('theme_should_set_the_embed_background_for_either_os_scheme', async () => {
  // One page, loaded again for each scheme and theme.
  const p = await openPage(env.browser, null, { viewport: { width: 700, height: 600 } });
  const { page } = p;
  for (const scheme of ['light', 'dark']) {
    for (const theme of ['auto', 'light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${env.server.url}?embed=1&view=slow&theme=${theme}`);
      await waitReady(page, ['slow']);
      const want = theme === 'auto' ? scheme : theme;
      const seen = await page.evaluate(() => ({
        background: getComputedStyle(document.body).backgroundColor,
        ticks: window.Chart.getChart(document.getElementById('chart-slow')).options.scales.x.ticks.color,
        muted: getComputedStyle(document.documentElement).getPropertyValue('--ink-muted').trim(),
      }));
      assert.equal(seen.background, SURFACE[want], `theme=${theme} under a ${scheme} OS scheme: ${want} background`);
      assert.equal(seen.ticks, seen.muted, `theme=${theme}, ${scheme} OS: the chart uses the theme's colours`);
      await p.assertClean(`theme=${theme}, ${scheme} OS`);
    }
  }
  await p.close();
});

test('embed_options_should_show_chosen_sliders_credit_the_explorer_and_drop_figure_numbers', async () => {
  const p = await openPage(
    env.browser,
    `${env.server.url}?embed=1&view=flatness&controls=gap,dim&title=0&dim=128&gap=16`,
  );
  const { page } = p;
  await waitReady(page, ['flatness']);
  const seen = await page.evaluate(() => {
    const shown = (sel) => {
      const el = document.querySelector(sel);
      return Boolean(el) && el.getClientRects().length > 0;
    };
    const link = document.querySelector('.attribution a');
    return {
      gap: shown('#gap'),
      dim: shown('#dim'),
      base: shown('#base'),
      n: shown('#n'),
      from: shown('#from-num'),
      heading: shown('#title-flatness'),
      numbers: document.querySelectorAll('.fig-num').length,
      href: link.href,
      target: link.target,
      rel: link.rel,
      text: document.body.innerText,
    };
  });
  assert.deepEqual(
    [seen.gap, seen.dim, seen.base, seen.n, seen.from],
    [true, true, false, false, false],
    'controls=gap,dim shows those two sliders only',
  );
  assert.equal(seen.heading, false, 'title=0 hides the heading');
  assert.equal(seen.numbers, 0, 'no figure numbers in an embed');
  assert.equal(seen.target, '_blank');
  assert.equal(seen.rel, 'noopener');
  const link = new URL(seen.href);
  assert.equal(link.origin + link.pathname, env.server.url, 'the link goes to the explorer');
  assert.deepEqual(
    Object.fromEntries(link.searchParams),
    { dim: '128', base: '10000', gap: '16', from: '0', to: '4096', n: '512' },
    'at the same settings, no embed options',
  );

  // The slider in the embed is live: the chart and the link follow it.
  // The gap slider holds log10(gap) since the long-context branch: 2.477 is gap 300.
  await afterUpdate(page, () => page.fill('#gap', '2.477'));
  await checkCharts(page, { ...DEFAULTS, dim: 128, gap: 300 }, ['flatness']);
  assert.equal(new URL(await page.locator('.attribution a').getAttribute('href')).searchParams.get('gap'), '300');

  // With the title: no number before it either.
  await page.goto(`${env.server.url}?embed=1&view=angles`);
  await waitReady(page, ['angles']);
  // The heading is laid out with its figure: wait for its text before reading it.
  await page.waitForFunction(() => document.getElementById('title-angles')?.innerText.trim() !== '', null, {
    timeout: 15000,
  });
  const heading = await page.locator('#title-angles').innerText();
  assert.ok(/^[A-Z]/.test(heading), `the heading starts with its text, not a number: "${heading}"`);
  await p.close();
});

test('builder_should_write_options_into_the_snippet_and_show_a_live_preview', async () => {
  const p = await openBuilder();
  const { page } = p;
  await page.selectOption('#embed-view', 'slow');
  await page.check('#embed-control-base');
  await page.check('#embed-control-gap');
  await page.uncheck('#embed-title');
  await page.selectOption('#embed-theme', 'dark');
  const code = await page.inputValue('#embed-code');
  const src = new URL(/<iframe [^>]*src="([^"]+)"/.exec(code)[1].replace(/&amp;/g, '&'));
  assert.ok(src.pathname.endsWith('/ropescope/embed/slow.html'), `the snippet names the view's embed document: ${src}`);
  assert.deepEqual(
    ['embed', 'view', 'controls', 'title', 'theme'].map((k) => src.searchParams.get(k)),
    [null, 'slow', 'gap,base', '0', 'dark'],
    `the snippet's address carries the options: ${src}`,
  );
  assert.equal(src.hash, '#slow', "the fragment names the view's picture, shown without JavaScript");
  await page.locator('#embed-preview').scrollIntoViewIfNeeded();
  const preview = page.frameLocator('#embed-preview iframe');
  await preview.locator('#chart-slow').waitFor();
  await page.waitForFunction(
    () => {
      const f = document.querySelector('#embed-preview iframe');
      return (
        f?.contentDocument?.documentElement?.dataset.theme === 'dark' &&
        f.contentDocument.querySelector('rope-scope')?.shadowRoot?.querySelector('#base')?.getClientRects().length > 0
      );
    },
    null,
    { timeout: 10000 },
  );
  // Live: a change on the page reaches the preview (a typed value applies on Enter since the explainer branch).
  // The panel shows its sliders beside the figures they drive: back at figure 1 to use them.
  await page.locator('#chart-flatness').scrollIntoViewIfNeeded();
  await page.locator('#gap-num').fill('64');
  await page.press('#gap-num', 'Enter');
  // The settings sit at the top of the page and the builder in the tools after the lesson: the
  // preview reloads when it is on screen again.
  await page.locator('#embed-preview').scrollIntoViewIfNeeded();
  await page.waitForFunction(
    () =>
      document
        .querySelector('#embed-preview iframe')
        ?.contentDocument?.querySelector('rope-scope')
        ?.shadowRoot?.querySelector('#gap-num')?.value === '64',
    null,
    { timeout: 10000 },
  );
  await p.close();
});

// The sliders each view reads (issue #36 lists the views where gap, dim and base did nothing).
const TAKES = {
  flatness: 'gap,dim,base',
  terms: 'gap,dim,base',
  additive: 'gap,dim,base',
  angles: 'gap,dim,base',
  slow: 'gap,dim,base',
  length: 'dim,base',
  decay: 'dim,base',
  heatmap: 'dim,base',
};

test('builder_should_offer_only_the_sliders_a_view_takes_on_one_line_for_one_figure', async () => {
  const p = await openBuilder();
  const { page } = p;
  await holdPreview(page);
  assert.equal(await page.inputValue('#embed-view'), 'flatness', 'one figure by default: the summary');
  for (const name of ['gap', 'dim', 'base']) await page.check(`#embed-control-${name}`);
  const views = await page.$$eval('#embed-view option', (options) => options.map((o) => o.value));
  for (const way of ['iframe', 'element']) {
    await page.selectOption('#embed-way', way);
    for (const view of views.filter((v) => v !== 'all')) {
      await page.selectOption('#embed-view', view);
      const offered = await page.$$eval('#embed-controls input', (boxes) =>
        boxes.filter((b) => b.getClientRects().length).map((b) => b.id.replace('embed-control-', '')),
      );
      const code = (await page.inputValue('#embed-code')).replace(/&amp;/g, '&');
      const what = `${way}, view ${view}`;
      assert.equal(offered.join(','), TAKES[view] ?? '', `${what}: the sliders offered`);
      assert.equal(/controls="?([a-z,]*)/.exec(code)?.[1] ?? '', TAKES[view] ?? '', `${what}: the snippet's sliders`);
      assert.equal(await page.locator('#embed-controls').isVisible(), Boolean(TAKES[view]), `${what}: the group`);
      assert.doesNotMatch(code, /\n/, `${what}: one line, which wpautop leaves whole`);
    }
  }
  // title=0 on the element is heading="0": a title attribute would be a "0" tooltip over it.
  await page.uncheck('#embed-title');
  const code = await page.inputValue('#embed-code');
  assert.match(code, /^<rope-scope [^>]*heading="0"/, code.slice(0, 200));
  assert.doesNotMatch(code, /<rope-scope [^>]*\btitle=/, 'no title attribute on the element');
  await p.close();
  // A link to one figure: the builder starts at it.
  const q = await openPage(env.browser, `${env.server.url}?view=angles`);
  await waitReady(q.page, ['angles']);
  await q.page.waitForSelector('#embed-column'); // the builder, set up once every figure's code is here
  assert.equal(await q.page.inputValue('#embed-view'), 'angles', 'the figure the link shows');
  await q.close();
});

// The builder's theme follows the way until the blogger picks one: the element inherits the
// post's look, an iframe follows the reader's scheme; a picked theme stays whatever the way.
test('builder_theme_should_default_to_inherit_for_the_element_until_one_is_picked', async () => {
  const p = await openBuilder();
  const { page } = p;
  const theme = async () => ({
    select: await page.inputValue('#embed-theme'),
    code: /theme[=]"?([a-z]+)/.exec((await page.inputValue('#embed-code')).replace(/&amp;/g, '&'))?.[1] ?? 'auto',
  });
  assert.deepEqual(await theme(), { select: 'auto', code: 'auto' }, "an iframe: the reader's scheme");
  await page.selectOption('#embed-way', 'element');
  assert.deepEqual(await theme(), { select: 'inherit', code: 'inherit' }, "the element: the post's look");
  await page.selectOption('#embed-way', 'iframe');
  assert.deepEqual(await theme(), { select: 'auto', code: 'auto' }, 'back to an iframe');
  await page.selectOption('#embed-theme', 'dark');
  await page.selectOption('#embed-way', 'element');
  assert.deepEqual(await theme(), { select: 'dark', code: 'dark' }, 'a picked theme stays');
  await p.close();
});

// theme=inherit in an iframe: the page cannot read its host's colours, so the reader's scheme
// picks the palette, and the background is transparent for the post's to show through.
test('iframe_theme_inherit_should_have_a_transparent_background', async () => {
  const p = await openPage(env.browser, null);
  for (const scheme of ['light', 'dark']) {
    await p.page.emulateMedia({ colorScheme: scheme });
    await p.page.goto(`${env.server.url}?embed=1&view=slow&theme=inherit`);
    await waitReady(p.page, ['slow']);
    const got = await p.page.evaluate(() => ({
      background: getComputedStyle(document.body).backgroundColor,
      root: getComputedStyle(document.documentElement).backgroundColor,
      inherit: 'inherit' in document.documentElement.dataset,
      muted: getComputedStyle(document.documentElement).getPropertyValue('--ink-muted').trim(),
    }));
    assert.equal(got.background, 'rgba(0, 0, 0, 0)', `${scheme}: body transparent`);
    assert.equal(got.root, 'rgba(0, 0, 0, 0)', `${scheme}: root transparent`);
    assert.equal(got.inherit, true);
    assert.equal(got.muted, scheme === 'dark' ? '#a2a9b6' : '#585f6c', `${scheme}: the reader's palette`);
    await p.assertClean(`theme=inherit, ${scheme} OS`);
  }
  await p.close();
});
