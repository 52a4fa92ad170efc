// The resizer as a file (issue 21, items 3 and 7) and views as bloggers type them (item 9):
//  - a host under the strictest policy the README documents for iframes (no 'unsafe-inline',
//    no style=; script-src the resizer's address, frame-src the explorer) sizes every
//    iframe[data-ropescope] to its content: one with WordPress's <br /> before the script, the
//    script loaded twice, and an iframe added after the script ran; no policy violation; and
//    a resizer that runs only after the figures drew still fits them (it asks their heights);
//  - a view typed with capitals and spaces draws that figure; a typo shows one line naming the
//    views and no figure, in an iframe and in <rope-scope>.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VIEWS } from '../../web/src/state/state.js';
import { settle, useServerAndBrowser } from './harness.mjs';
import { blogHtml, explorerFrame, openBlog } from './host.mjs';

const env = useServerAndBrowser();

function strictHost(body) {
  const explorer = env.server.url.replace(/\/$/, '');
  const policy = `default-src 'none'; script-src ${explorer}/ropescope-resize.js; frame-src ${explorer}; style-src 'none'; img-src data:`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<link rel="icon" href="data:,">
<title>A strict blog</title></head>
<body><main>${body}</main></body></html>`;
}

const frameTag = (query) =>
  `<iframe data-ropescope src="${env.server.url}index.html?embed=1&${query}" title="figure"` +
  ' width="100%" height="300" frameborder="0"></iframe>';
const script = () => `<script src="${env.server.url}ropescope-resize.js" async></script>`;

async function settledHeights(page) {
  const frames = await page.locator('iframe').count();
  const out = [];
  for (let i = 0; i < frames; i++) {
    // An iframe off screen gets no animation frames: bring each one into view first.
    await page.locator('iframe').nth(i).scrollIntoViewIfNeeded();
    const frame = await explorerFrame(page, i);
    await frame.waitForFunction(() => performance.getEntriesByName('ropescope:first-chart').length > 0, null, {
      timeout: 20000,
    });
    await page.waitForFunction((n) => document.querySelectorAll('iframe')[n].style.height !== '', i, {
      timeout: 10000,
    });
    await settle(page);
    await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await settle(page);
    const content = await frame.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
    const outer = await page
      .locator('iframe')
      .nth(i)
      .evaluate((f) => f.getBoundingClientRect().height);
    out.push({ content, outer });
  }
  return out;
}

test('the_resizer_should_fit_every_marked_iframe_under_a_strict_policy', async () => {
  const body = `<p>Text.</p>\n${frameTag('view=slow')}<br />\n${script()}\n<p>More.</p>\n${frameTag('view=angles&controls=gap')}\n${script()}`;
  const p = await openBlog(env.browser, strictHost(body), { viewport: { width: 700, height: 900 } });
  const { page } = p;
  // One added after the scripts ran, as a lazy CMS block would.
  await page.waitForFunction(() => window.ropescopeResize);
  await page.evaluate(
    (html) => document.querySelector('main').insertAdjacentHTML('beforeend', html),
    frameTag('view=decay'),
  );
  const heights = await settledHeights(page);
  assert.equal(heights.length, 3);
  for (const [i, { content, outer }] of heights.entries()) {
    assert.ok(content > 300, `iframe ${i}: content taller than the 300 px it started with (${content})`);
    assert.equal(outer, content, `iframe ${i}: as tall as its content`);
  }
  // The host page itself cannot set a height.
  await page.evaluate(() => window.postMessage({ ropescope: 'height', height: 150 }, '*'));
  await settle(page);
  assert.equal(
    await page
      .locator('iframe')
      .first()
      .evaluate((f) => f.getBoundingClientRect().height),
    heights[0].outer,
  );
  await p.assertClean('strict host');
  await p.context.close();
});

// The resizer is async: from a slow host, or behind a CMS that defers scripts, it runs after the
// figures drew and posted their heights to no one. It asks them, and fits them all the same.
test('a_resizer_that_runs_after_the_figures_drew_should_still_fit_them', async () => {
  const body = `<p>Text.</p>\n${frameTag('view=slow')}\n<p>More.</p>\n${frameTag('view=angles&controls=gap')}`;
  const p = await openBlog(env.browser, strictHost(body), { viewport: { width: 700, height: 900 } });
  const { page } = p;
  for (let i = 0; i < 2; i++) {
    await page.locator('iframe').nth(i).scrollIntoViewIfNeeded();
    const frame = await explorerFrame(page, i);
    await frame.waitForFunction(() => performance.getEntriesByName('ropescope:first-chart').length > 0, null, {
      timeout: 20000,
    });
  }
  await settle(page);
  assert.deepEqual(
    await page.evaluate(() => [...document.querySelectorAll('iframe')].map((f) => f.style.height)),
    ['', ''],
    'no resizer yet: both keep the snippet height',
  );
  await page.evaluate((src) => {
    const s = document.createElement('script');
    s.src = src;
    document.body.append(s);
  }, `${env.server.url}ropescope-resize.js`);
  const heights = await settledHeights(page);
  for (const [i, { content, outer }] of heights.entries()) {
    assert.ok(content > 300, `iframe ${i}: content taller than the 300 px it started with (${content})`);
    assert.equal(outer, content, `iframe ${i}: as tall as its content`);
  }
  await p.assertClean('late resizer');
  await p.context.close();
});

test('views_should_match_ignoring_case_and_a_typo_should_show_one_line_and_no_figure', async () => {
  const valid = `No figure shown: view "flatnes" is not a figure; use one of ${VIEWS.join(', ')}.`;
  const html =
    blogHtml(`<iframe src="${env.server.url}index.html?embed=1&view=flatnes" title="typo" width="100%" height="400"></iframe>
<rope-scope id="typo" view="flatnes"></rope-scope>
<rope-scope id="caps" view=" Flatness "></rope-scope>
<script src="/ropescope-embed.js"></script>`);
  const p = await openBlog(env.browser, html, { viewport: { width: 700, height: 900 } });
  const { page } = p;
  const frame = await explorerFrame(page);
  await frame.waitForFunction(() => document.querySelector('#notice p'));
  const inFrame = await frame.evaluate(() => ({
    lines: [...document.querySelectorAll('#notice p')].map((n) => n.textContent),
    shown: [...document.querySelectorAll('figure.fig')].filter((f) => f.getClientRects().length > 0).length,
  }));
  assert.deepEqual(inFrame, { lines: [valid], shown: 0 }, 'the iframe: one line, no figure');
  await page.waitForFunction(
    () => {
      const caps = document.getElementById('caps')?.shadowRoot?.querySelector('canvas');
      return caps && customElements.get('rope-scope').Chart.getChart(caps) && document.getElementById('caps').drawn;
    },
    null,
    { timeout: 20000 },
  );
  const inElements = await page.evaluate(() => {
    const root = (id) => document.getElementById(id).shadowRoot;
    return {
      lines: [...root('typo').querySelectorAll('.notice p')].map((n) => n.textContent),
      typoFigures: root('typo').querySelectorAll('figure').length,
      capsFigures: [...root('caps').querySelectorAll('figure')].map((f) => f.dataset.view),
      capsNotice: root('caps').querySelector('.notice').hidden,
    };
  });
  assert.deepEqual(inElements, { lines: [valid], typoFigures: 0, capsFigures: ['flatness'], capsNotice: true });
  await p.assertClean('views');
  await p.context.close();
});

// A theme with `* { box-sizing: border-box }` and a border and padding on iframes: the height
// set is the border box's, so the resizer adds the iframe's own borders and padding; else the
// frame's viewport is that much short of its content, with a scrollbar for good.
test('the_resizer_should_add_the_iframes_borders_and_padding_under_border_box', async () => {
  const css = '* { box-sizing: border-box; } iframe { border: 2px solid #999; padding: 3px 0 4px; }';
  const src = `${env.server.url}embed/slow.html?view=slow#slow`;
  const body = `<p>Text.</p>\n<iframe data-ropescope src="${src}" title="figure" width="100%" height="300"></iframe>\n${script()}`;
  const p = await openBlog(env.browser, blogHtml(body, css), { viewport: { width: 700, height: 900 } });
  const { page } = p;
  const [{ content, outer }] = await settledHeights(page);
  const frame = await explorerFrame(page);
  const inner = await frame.evaluate(() => ({
    viewport: document.documentElement.clientHeight,
    scroll: document.documentElement.scrollHeight,
  }));
  assert.ok(content > 300, `content taller than the 300 px it started with (${content})`);
  assert.equal(inner.viewport, content, "the frame's viewport is its content's height");
  assert.ok(inner.scroll <= inner.viewport, `no scrollbar (${inner.scroll} > ${inner.viewport})`);
  assert.equal(outer, content + 2 + 2 + 3 + 4, 'the border box: content, borders and padding');
  await p.assertClean('border-box host');
  await p.context.close();
});

// A host whose policy refuses the frame (its frame-src leaves the explorer out) would show the
// browser's error page: the resizer puts the snippet's picture in its place, whether it runs
// before or after the refusal, and takes nothing of the <noscript> but the link and the image.
test('a_refused_frame_should_leave_the_snippets_picture_in_its_place', async () => {
  const explorer = env.server.url.replace(/\/$/, '');
  const dot = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
  const policy = `default-src 'none'; script-src ${explorer}/ropescope-resize.js; frame-src 'none'; img-src data:`;
  const snippet =
    `<iframe data-ropescope src="${env.server.url}embed/slow.html?view=slow#slow" title="figure" width="100%" height="300" frameborder="0"></iframe>` +
    `<noscript><a href="https://example.org/rs/ropescope/index.html" onclick="alert(1)"><img src="${dot}" alt="The slow pairs (picture)" width="100%" onload="alert(2)"></a></noscript>`;
  for (const late of [false, true]) {
    const tag = late ? '' : `<script src="${explorer}/ropescope-resize.js" async></script>`;
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}"><link rel="icon" href="data:,">
<title>A post that refuses frames</title></head><body><main><p>Text.</p>${snippet}${tag}</main></body></html>`;
    const p = await openBlog(env.browser, html, { viewport: { width: 700, height: 900 } });
    const { page } = p;
    if (late) {
      await page.waitForTimeout(300);
      await page.evaluate((src) => {
        const s = document.createElement('script');
        s.src = src;
        document.body.append(s);
      }, `${explorer}/ropescope-resize.js`);
    }
    const what = late ? 'resizer run after the refusal' : 'resizer on the page';
    await page.waitForFunction(() => document.querySelector('main > a img'), null, { timeout: 10000 });
    const seen = await page.evaluate(() => {
      const img = document.querySelector('main > a img');
      return {
        frameShown: document.querySelector('iframe').getClientRects().length > 0,
        alt: img.alt,
        fills: Math.round(img.getBoundingClientRect().width) === document.querySelector('main').clientWidth,
        href: img.closest('a').getAttribute('href'),
        handlers: [img.getAttribute('onload'), img.closest('a').getAttribute('onclick')],
      };
    });
    assert.deepEqual(
      seen,
      {
        frameShown: false,
        alt: 'The slow pairs (picture)',
        fills: true,
        href: 'https://example.org/rs/ropescope/index.html',
        handlers: [null, null],
      },
      what,
    );
    await p.context.close();
  }
});
