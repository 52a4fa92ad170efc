// The <rope-scope> element of dist/ropescope-embed.js on a mock blog: two elements with
// different settings draw the reference's numbers without touching each other; hostile host
// CSS leaves them as they were; hostile attributes are refused with a message and run nothing;
// theme= against both OS schemes.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { FIGURE_NAMES } from '../../web/gen/figure_names.js';
import { PYTHON, rng, seed } from '../lib/testlib.mjs';
import {
  chartData,
  checkCharts,
  close,
  DEFAULTS,
  downloadedFile,
  ROOT,
  settle,
  useServerAndBrowser,
} from './harness.mjs';
import {
  blogFile,
  blogHtml,
  ELEMENT_JS,
  elementChunksFor,
  LATE_FONT,
  nextPost,
  openBlog,
  turnCircle,
  until,
} from './host.mjs';

const env = useServerAndBrowser();
const SCRIPT = '<script src="/ropescope-embed.js"></script>';
const SURFACE = { light: 'rgb(255, 255, 255)', dark: 'rgb(25, 28, 34)' }; // style.css --surface

/** Waits until every <rope-scope> on the page, each scrolled to in turn, has a chart on each of
 *  its canvases (or, given a view that is no figure, shows its one line instead). */
async function elementsReady(page) {
  // An element draws once it comes near the viewport: bring each one there, as a reader would.
  const count = await page.locator('rope-scope').count();
  for (let i = 0; i < count; i++) await page.locator('rope-scope').nth(i).scrollIntoViewIfNeeded();
  await page.waitForFunction(
    () => {
      const RopeScope = customElements.get('rope-scope');
      const all = [...document.querySelectorAll('rope-scope')];
      return (
        RopeScope &&
        all.length &&
        all.every((el) => {
          const canvases = [...(el.shadowRoot?.querySelectorAll('canvas') ?? [])];
          if (!canvases.length)
            return /^No figure shown: /.test(el.shadowRoot?.querySelector('.notice p')?.textContent ?? '');
          return el.drawn && canvases.every((c) => RopeScope.Chart.getChart(c));
        })
      );
    },
    null,
    { timeout: 15000 },
  );
  await settle(page);
}

/** What an element shows, read from its shadow root. */
function shadowInfo(page, selector) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const root = el.shadowRoot;
    const box = (node) => {
      const r = node.getBoundingClientRect();
      return { width: Math.round(r.width), height: Math.round(r.height) };
    };
    const canvas = root.querySelector('canvas');
    const font = (node) => (node ? getComputedStyle(node).fontSize : null);
    return {
      notice: root.querySelector('.notice').hidden ? '' : root.querySelector('.notice').innerText,
      canvas: canvas ? box(canvas) : null,
      canvasDisplay: canvas ? getComputedStyle(canvas).display : null,
      captionFont: font(root.querySelector('.caption')),
      headingFont: font(root.querySelector('h2')),
      legendFont: font(root.querySelector('.legend')),
      element: box(el),
      background: getComputedStyle(root.querySelector('.rs-body')).backgroundColor,
      controls: [...root.querySelectorAll('input[type=range]')].map((r) => r.id),
      numbers: root.querySelectorAll('.fig-num').length,
    };
  }, selector);
}

const TWO = `<h1>Two figures</h1>
<p>Flatness at dim 128 with a gap slider:</p>
<rope-scope id="a" view="flatness" dim="128" base="500000" gap="16" controls="gap"></rope-scope>
<p>And the angles at another setting:</p>
<rope-scope id="b" view="angles" dim="32" base="10000" gap="300" theme="dark"></rope-scope>
${SCRIPT}`;

test('two_elements_should_draw_their_own_settings_and_not_interfere', async () => {
  // Counts the wasm instances the page makes.
  const init = () => {
    const Original = WebAssembly.Instance;
    window.__wasmInstances = 0;
    WebAssembly.Instance = function Instance(...args) {
      window.__wasmInstances += 1;
      return new Original(...args);
    };
  };
  const p = await openBlog(env.browser, blogHtml(TWO), { viewport: { width: 900, height: 900 }, init });
  const { page } = p;
  await elementsReady(page);
  assert.equal(await page.evaluate(() => window.__wasmInstances), 1, 'both elements share one wasm instance');
  const a = { ...DEFAULTS, dim: 128, base: 500000, gap: 16 };
  const b = { ...DEFAULTS, dim: 32, base: 10000, gap: 300 };
  await checkCharts(page, a, ['flatness'], '#a');
  await checkCharts(page, b, ['angles'], '#b');
  const info = await shadowInfo(page, '#a');
  assert.equal(info.notice, '', 'no message for good attributes');
  assert.deepEqual(info.controls, ['gap'], 'controls="gap": one slider');
  assert.equal(info.numbers, 0, 'no figure numbers');
  // One wasm instance, one Chart.js: the host's window.Chart is untouched.
  assert.equal(await page.evaluate(() => typeof window.Chart), 'undefined', 'no global Chart.js is set');

  // The slider of #a moves #a alone.
  const before = await chartData(page, 'angles', '#b');
  await page.evaluate(() => {
    const range = document.querySelector('#a').shadowRoot.getElementById('gap');
    range.value = '3'; // the gap slider holds log10(gap): gap 1000
    range.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await settle(page);
  await checkCharts(page, { ...a, gap: 1000 }, ['flatness'], '#a');
  assert.deepEqual(await chartData(page, 'angles', '#b'), before, '#b did not change');

  // The credit links to the explorer beside the script, at the element's numbers, in a new tab.
  const link = await page.evaluate(() => {
    const a = document.querySelector('#a').shadowRoot.querySelector('.attribution a');
    return { href: a.href, target: a.target, rel: a.rel };
  });
  assert.deepEqual(link, {
    href: new URL('/ropescope.html?dim=128&base=500000&gap=1000&from=0&to=4096&n=512', page.url()).href,
    target: '_blank',
    rel: 'noopener',
  });
  await page.evaluate(() => document.querySelector('#a').setAttribute('explorer', 'https://example.org/rs/'));
  await elementsReady(page);
  assert.equal(
    await page.evaluate(() => document.querySelector('#a').shadowRoot.querySelector('.attribution a').href),
    'https://example.org/rs/?dim=128&base=500000&gap=16&from=0&to=4096&n=512',
    'explorer= sets the link',
  );

  // Responsive inside the shadow root: a narrower column, a narrower chart.
  const wide = (await shadowInfo(page, '#a')).canvas.width;
  await page.evaluate(() => {
    document.querySelector('main').style.maxWidth = '420px';
  });
  await page.waitForFunction(
    (w) => document.querySelector('#a').shadowRoot.querySelector('canvas').getBoundingClientRect().width < w - 200,
    wide,
    { timeout: 15000 },
  );

  // A changed attribute redraws that element with the new settings.
  await page.evaluate(() => document.querySelector('#b').setAttribute('gap', '7'));
  await elementsReady(page);
  await checkCharts(page, { ...b, gap: 7 }, ['angles'], '#b');
  await p.assertClean();
  await p.context.close();
});

test('hostile_host_css_should_leave_the_element_unaffected', async () => {
  const plain = await openBlog(env.browser, blogHtml(TWO), { viewport: { width: 900, height: 900 } });
  await elementsReady(plain.page);
  const want = await shadowInfo(plain.page, '#a');
  await plain.assertClean();
  await plain.context.close();

  const hostile = `* { font-size: 40px !important; line-height: 3 !important; letter-spacing: 4px; color: red !important; }
canvas { display: none !important; }
div, p, ul, li, figure, h2 { margin: 50px !important; padding: 30px !important; border: 5px solid lime; }
button { display: none; }
:root { --surface: red; --ink: red; --c-rope: red; }`;
  const p = await openBlog(env.browser, blogHtml(TWO, hostile), { viewport: { width: 900, height: 900 } });
  const { page } = p;
  await elementsReady(page);
  const got = await shadowInfo(page, '#a');
  assert.equal(got.canvasDisplay, 'block', 'the canvas is shown');
  for (const key of ['canvas', 'captionFont', 'headingFont', 'legendFont', 'background', 'notice']) {
    assert.deepEqual(got[key], want[key], `${key} is the same under hostile host CSS`);
  }
  assert.equal(
    await page.evaluate(() => getComputedStyle(document.querySelector('p')).fontSize),
    '40px',
    'the hostile CSS does apply to the host page itself',
  );
  await checkCharts(page, { ...DEFAULTS, dim: 128, base: 500000, gap: 16 }, ['flatness'], '#a');
  await p.assertClean();
  await p.context.close();
});

test('hostile_attributes_should_be_refused_with_a_message_and_run_nothing', async () => {
  const bad = [
    ['dim', '<img src=x onerror="window.__pwned=1">'],
    ['gap', 'NaN'],
    ['base', '1e400'],
    ['dim', '99999999999999999999'],
    ['gap', '"><script>window.__pwned=2</script>'],
    ['view', 'javascript:alert(1)'],
    ['controls', 'gap,<b>'],
    ['theme', 'expression(alert(1))'],
    ['from', '-1'],
    ['n', '1e9'],
    ['explorer', 'javascript:window.__pwned=3'],
  ];
  const attr = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const body = bad
    .map(([name, value], i) => `<rope-scope id="x${i}" ${name}="${attr(value)}"></rope-scope>`)
    .join('\n');
  const p = await openBlog(env.browser, blogHtml(`${body}\n${SCRIPT}`), { viewport: { width: 900, height: 900 } });
  const { page } = p;
  await elementsReady(page);
  for (const [i, [name, value]] of bad.entries()) {
    const info = await shadowInfo(page, `#x${i}`);
    assert.ok(info.notice.includes(name), `${name}="${value}": the message names the attribute ("${info.notice}")`);
    if (name !== 'explorer') {
      assert.ok(
        info.notice.includes(value.slice(0, 20)) || info.notice.includes('...'),
        `${name}: the message shows the refused value as text`,
      );
    }
  }
  // Refused values fall back to their defaults: the first element draws the default flatness.
  await checkCharts(page, DEFAULTS, ['flatness'], '#x0');
  const clean = await page.evaluate(() => ({
    pwned: window.__pwned ?? null,
    injected: [...document.querySelectorAll('rope-scope')].some((el) => el.shadowRoot.querySelector('img, script, b')),
    links: [...document.querySelectorAll('rope-scope')]
      .map((el) => el.shadowRoot.querySelector('.attribution a')?.href ?? '')
      .filter((href) => href.startsWith('javascript:')),
  }));
  assert.deepEqual(clean, { pwned: null, injected: false, links: [] }, 'no script ran, nothing was parsed as HTML');
  await p.assertClean();
  await p.context.close();
});

test('element_theme_should_set_its_background_for_either_os_scheme', async () => {
  const body = ['auto', 'light', 'dark']
    .map((t) => `<rope-scope id="t-${t}" view="slow" theme="${t}"></rope-scope>`)
    .join('\n');
  for (const scheme of ['light', 'dark']) {
    const p = await openBlog(env.browser, blogHtml(`${body}\n${SCRIPT}`), {
      viewport: { width: 800, height: 900 },
      colorScheme: scheme,
    });
    const { page } = p;
    await elementsReady(page);
    for (const theme of ['auto', 'light', 'dark']) {
      const info = await shadowInfo(page, `#t-${theme}`);
      const want = theme === 'auto' ? scheme : theme;
      assert.equal(info.background, SURFACE[want], `theme="${theme}" under a ${scheme} OS scheme: ${want}`);
    }
    await p.assertClean();
    await p.context.close();
  }
});

// theme="inherit": the post's background shows through, the text takes the post's colour and
// font, and the palette follows the post's text (dark text: light palette; light text: dark),
// whatever the reader's OS scheme; the charts' ticks take that palette too.
test('element_theme_inherit_should_take_the_posts_colours_and_font', async () => {
  const MUTED = { light: '#585f6c', dark: '#a2a9b6' }; // style.css --ink-muted
  const posts = [
    { name: 'light', css: '', ink: 'rgb(34, 34, 34)', palette: 'light' },
    {
      name: 'dark',
      css: 'body { color: #e8e6e3; background: #15171a; font-family: "Courier New", monospace; }',
      ink: 'rgb(232, 230, 227)',
      palette: 'dark',
    },
  ];
  for (const post of posts) {
    for (const scheme of ['light', 'dark']) {
      const p = await openBlog(
        env.browser,
        blogHtml(`<rope-scope id="i" view="slow" theme="inherit"></rope-scope>\n${SCRIPT}`, post.css),
        { viewport: { width: 800, height: 900 }, colorScheme: scheme },
      );
      const { page } = p;
      await elementsReady(page);
      const got = await page.evaluate(() => {
        const host = document.getElementById('i');
        const root = host.shadowRoot;
        const body = root.querySelector('.rs-body');
        const chart = host.charts.slow.chart;
        return {
          background: getComputedStyle(body).backgroundColor,
          color: getComputedStyle(root.querySelector('.caption')).color,
          font: getComputedStyle(body).fontFamily,
          hostFont: getComputedStyle(host).fontFamily,
          tick: Object.values(chart.options.scales)[0].ticks.color,
        };
      });
      const what = `${post.name} post, ${scheme} OS scheme`;
      assert.equal(got.background, 'rgba(0, 0, 0, 0)', `${what}: the post's background shows through`);
      assert.equal(got.color, post.ink, `${what}: the post's text colour`);
      assert.equal(got.font, got.hostFont, `${what}: the post's font`);
      assert.equal(got.tick, MUTED[post.palette], `${what}: the ${post.palette} palette`);
      await p.assertClean();
      await p.context.close();
    }
  }
});

// A host restyles the element with --rs-NAME custom properties (element.js's hostTokens): the
// accent, the RoPE line's colour and the font change, inside the shadow root and on the chart,
// and an element without them keeps the palette.
test('element_should_take_rs_custom_properties_from_its_host', async () => {
  const css =
    'rope-scope.branded { --rs-c-rope: rgb(1, 2, 3); --rs-accent: rgb(200, 10, 20); --rs-font: Georgia, serif; }';
  const p = await openBlog(
    env.browser,
    blogHtml(
      `<rope-scope class="branded" id="a" view="flatness" theme="light"></rope-scope>\n<rope-scope id="b" view="flatness" theme="light"></rope-scope>\n${SCRIPT}`,
      css,
    ),
    { viewport: { width: 800, height: 900 } },
  );
  const { page } = p;
  await elementsReady(page);
  const read = (id) =>
    page.evaluate((x) => {
      const host = document.getElementById(x);
      const root = host.shadowRoot;
      const chart = host.charts.flatness.chart;
      return {
        lines: chart.data.datasets.map((d) => d.borderColor),
        accent: getComputedStyle(root.querySelector('.caption')).borderLeftColor,
        font: getComputedStyle(root.querySelector('.rs-body')).fontFamily,
      };
    }, id);
  const branded = await read('a');
  const plain = await read('b');
  assert.ok(branded.lines.includes('rgb(1, 2, 3)'), `the RoPE line takes --rs-c-rope: ${branded.lines}`);
  assert.ok(!plain.lines.includes('rgb(1, 2, 3)'), `an element without it keeps the palette: ${plain.lines}`);
  assert.equal(branded.accent, 'rgb(200, 10, 20)', "the caption's rule takes --rs-accent");
  assert.equal(plain.accent, 'rgb(40, 86, 216)', "the palette's accent (#2856d8) otherwise");
  assert.match(branded.font, /^Georgia/, 'the font takes --rs-font');
  assert.doesNotMatch(plain.font, /Georgia/);
  await p.assertClean();
  await p.context.close();
});

// The element under a host's strictest policy: its own script and 'wasm-unsafe-eval', no
// style-src at all (its stylesheet is a constructed one), and nothing else: it draws, with no
// violation. Without 'wasm-unsafe-eval' it says so in one line and links to the explorer.
function strictPost(policy, body) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<link rel="icon" href="data:,">
<title>A strict post</title></head>
<body><main><p>Text of the post.</p>${body}</main>${SCRIPT}</body></html>`;
}

test('element_should_draw_under_a_policy_with_no_style_src', async () => {
  const policy = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; img-src data: blob:";
  const p = await openBlog(
    env.browser,
    strictPost(
      policy,
      '<rope-scope id="s" view="slow" controls="gap" explorer="https://example.org/rs/"></rope-scope>',
    ),
  );
  const { page } = p;
  await elementsReady(page);
  const info = await shadowInfo(page, '#s');
  assert.equal(info.notice, '', 'no notice');
  assert.ok(info.canvas && info.canvas.height > 100, 'the chart is drawn');
  assert.equal(info.background, SURFACE.light, 'its own stylesheet applies');
  await p.assertClean('a host with no style-src');
  await p.context.close();
});

test('element_should_name_a_policy_that_refuses_webassembly', async () => {
  const policy = "default-src 'none'; script-src 'self'; img-src data: blob:";
  const p = await openBlog(
    env.browser,
    strictPost(policy, '<rope-scope id="s" view="slow" explorer="https://example.org/rs/"></rope-scope>'),
  );
  const { page } = p;
  await page.waitForFunction(() => {
    const notice = document.getElementById('s')?.shadowRoot?.querySelector('.notice');
    return notice && !notice.hidden && notice.textContent !== '';
  });
  const got = await page.evaluate(() => {
    const root = document.getElementById('s').shadowRoot;
    return {
      lines: [...root.querySelectorAll('.notice p')].map((n) => n.textContent),
      link: root.querySelector('.attribution a')?.href ?? null,
    };
  });
  assert.deepEqual(got.lines, [
    "This site's Content-Security-Policy does not allow WebAssembly, which computes this figure (its script-src needs 'wasm-unsafe-eval'); the full explorer shows it.",
  ]);
  assert.ok(got.link?.startsWith('https://example.org/rs/'), `the explorer link: ${got.link}`);
  // The refusal is caught: no page error, no console error (the policy's own violation report
  // is the host's, and not collected here).
  assert.deepEqual(p.problems, []);
  await p.context.close();
});

// The element's script is a small loader (tools/split_element.mjs): a post fetches, beside it,
// what the element draws with and the chunks of the views it shows, nothing of the others; under
// a nonce policy the chunks take the script's nonce; where the chunks cannot load, the element
// says so and shows its picture.
test('a_post_should_fetch_the_chunks_of_its_views_alone', async () => {
  const random = rng(seed('element chunks'));
  const views = FIGURE_NAMES.slice()
    .sort(() => random() - 0.5)
    .slice(0, 2);
  const body = views.map((view, i) => `<rope-scope id="v${i}" view="${view}"></rope-scope>`).join('\n');
  const p = await openBlog(env.browser, blogHtml(`<h1>Two views</h1>${body}${SCRIPT}`), {
    init: () => {
      window.__chunks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.name.includes('/ropescope-embed/')) window.__chunks.push(e.name);
      }).observe({ type: 'resource', buffered: true });
    },
  });
  const { page } = p;
  await elementsReady(page);
  const fetched = await page.evaluate(() => window.__chunks.map((url) => url.split('/').pop()));
  const { must, may } = elementChunksFor(views);
  for (const file of must) assert.ok(fetched.includes(file), `views ${views}: ${file} fetched`);
  for (const file of fetched) assert.ok(may.includes(file), `views ${views}: ${file} is theirs`);
  assert.equal(new Set(fetched).size, fetched.length, 'each chunk fetched once');
  await p.assertClean();
  await p.context.close();
});

test('the_elements_chunks_should_take_the_scripts_nonce', async () => {
  const policy = "default-src 'none'; script-src 'nonce-r0pe' 'wasm-unsafe-eval'; img-src data: blob:";
  const p = await openBlog(
    env.browser,
    `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}"><link rel="icon" href="data:,">
<title>A post with a nonce</title></head><body><main>
<rope-scope id="s" view="flatness" explorer="https://example.org/rs/"></rope-scope></main>
<script nonce="r0pe" src="/ropescope-embed.js"></script></body></html>`,
  );
  await elementsReady(p.page);
  const info = await shadowInfo(p.page, '#s');
  assert.ok(info.canvas && info.canvas.height > 100, 'the chart is drawn');
  await p.assertClean('a host whose policy allows scripts by nonce');
  await p.context.close();
});

test('an_element_whose_chunks_are_missing_should_say_so_and_show_its_picture', async () => {
  // The script alone, without its folder beside it.
  blogFile('/alone/ropescope-embed.js', 'text/javascript', readFileSync(ELEMENT_JS));
  const picture =
    '<img id="pic" alt="the flatness figure" width="300" height="150" src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==">';
  const p = await openBlog(
    env.browser,
    blogHtml(
      `<rope-scope id="s" view="flatness">${picture}</rope-scope><script src="/alone/ropescope-embed.js"></script>`,
    ),
  );
  const { page } = p;
  await page.waitForFunction(() => document.getElementById('s')?.shadowRoot?.querySelector('[part=notice]'), null, {
    timeout: 15000,
  });
  const seen = await page.evaluate(() => ({
    notice: document.getElementById('s').shadowRoot.querySelector('[part=notice]').textContent,
    picture: document.getElementById('pic').getBoundingClientRect().height,
  }));
  assert.match(
    seen.notice,
    /^Could not load this figure's code: could not load http:\/\/localhost:\d+\/alone\/ropescope-embed\/[\w-]+\.js \(the ropescope-embed\/ folder goes beside ropescope-embed\.js\)\. The full explorer shows it\.$/,
  );
  assert.equal(seen.picture, 150, 'the picture is shown');
  // What the browser reports of the missing file, and nothing else.
  const others = p.problems.filter((line) => !line.includes('/alone/ropescope-embed/'));
  assert.deepEqual(others, []);
  assert.ok(p.problems.length > 0, 'the missing chunk was requested');
  // One round of requests, each chunk asked for once, and the element does not count as drawn.
  const missing = p.problems.filter((line) => line.startsWith('HTTP 404'));
  assert.equal(new Set(missing).size, missing.length, `each chunk asked for once: ${missing}`);
  assert.ok(missing.length <= elementChunksFor(['flatness']).must.length, `one round: ${missing.length} requests`);
  assert.equal(await page.evaluate(() => document.getElementById('s').drawn), false, 'not drawn');

  // A site that names the chunks' folder with something that is no address is told so.
  p.problems.length = 0;
  await nextPost(
    page,
    blogHtml(
      `<script>window.ropescopeChunksBase = 'http://[';</script><rope-scope id="s" view="flatness">${picture}</rope-scope>${SCRIPT}`,
    ),
  );
  await page.waitForFunction(() => document.getElementById('s')?.shadowRoot?.querySelector('[part=notice]'), null, {
    timeout: 15000,
  });
  const named = await page.evaluate(
    () => document.getElementById('s').shadowRoot.querySelector('[part=notice]').textContent,
  );
  assert.equal(
    named,
    'Could not load this figure\'s code: ropescopeChunksBase "http://[" is not an address. The full explorer shows it.',
  );
  assert.deepEqual(p.problems, []);
  await p.context.close();
});

// The element's controls behave as the page's (controls/wire.js): arrow keys step the gap as on
// the page, and a typed value is applied on Enter only, never on a keystroke.
test('element_controls_should_take_arrow_keys_and_typed_values_as_the_page_does', async () => {
  const p = await openBlog(
    env.browser,
    blogHtml(`<rope-scope id="c" view="angles" controls="gap,dim"></rope-scope>\n${SCRIPT}`),
  );
  const { page } = p;
  await elementsReady(page);
  const inside = (selector) => page.locator('#c').locator(selector);
  const caption = () => inside('.caption').first().innerText();
  await inside('#gap').focus();
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  await settle(page);
  // The page's integer log step: 2 -> 3 -> ... one whole position a press while that is more.
  assert.equal(await inside('#gap-num').inputValue(), '12', '10 presses from gap 2');
  assert.match(await caption(), /^At gap 12,/);
  const renders = await page.evaluate(() => {
    const host = document.getElementById('c');
    const seen = [];
    const render = host.render.bind(host);
    host.render = () => {
      seen.push(host.state.dim);
      render();
    };
    window.__dims = seen;
    return seen.length;
  });
  assert.equal(renders, 0);
  await inside('#dim-num').fill('');
  await inside('#dim-num').pressSequentially('1000');
  await settle(page);
  assert.deepEqual(await page.evaluate(() => window.__dims), [], 'no keystroke applies a prefix');
  assert.match(await inside('.pending').first().innerText(), /^Not applied yet: press Enter or leave the box/);
  await inside('#dim-num').press('Enter');
  await settle(page);
  assert.deepEqual(await page.evaluate(() => window.__dims), [1000], 'Enter applies 1000 once');
  assert.equal(await inside('.pending').first().innerText(), '');
  await inside('#dim-num').press('ArrowUp');
  await settle(page);
  assert.equal(await inside('#dim-num').inputValue(), '1002', 'ArrowUp in the box steps dim by 2');
  await p.assertClean();
  await p.context.close();
});

test('the_rotating_pairs_own_inputs_should_work_inside_the_element', async () => {
  const p = await openBlog(env.browser, blogHtml(`<rope-scope id="r" view="circle"></rope-scope>\n${SCRIPT}`));
  const { page } = p;
  await elementsReady(page);
  await turnCircle(page.locator('#r'), '<rope-scope view="circle">');
  await p.assertClean();
  await p.context.close();
});

test('elements_should_upgrade_whenever_the_async_script_runs_and_not_fetch_the_pictures_they_replace', async () => {
  const VIEWS = ['flatness', 'cat', 'clock', 'slow', 'decay', 'marks'];
  const picture = (n) =>
    `<a href="#x"><img src="/picture-${n}.png" alt="Figure ${n} (picture)" width="100%" loading="lazy"></a>`;
  const figures = VIEWS.map((view, n) => `<rope-scope view="${view}">${picture(n)}</rope-scope>`);
  // The script first, async (it may run before or after the elements are parsed), the figures
  // two screens below the fold, past the browser's distance for fetching a lazy picture.
  const body =
    '<script src="/ropescope-embed.js" async></script>\n<p style="height: 5000px">The post.</p>\n' +
    `${figures.join('\n<p style="height: 600px">More of the post.</p>\n')}`;
  const p = await openBlog(env.browser, blogHtml(body), {
    viewport: { width: 900, height: 800 },
    init: () => {
      // In the task that defines the element (its microtasks run before that task ends): what
      // each element already in the post holds. Its start, a layout, waits for a task of its own.
      customElements.whenDefined('rope-scope').then(() => {
        window.__atDefine = [...document.querySelectorAll('rope-scope')].map((e) => e.shadowRoot.childNodes.length);
      });
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__longTasks.push(Math.round(entry.duration));
      }).observe({ type: 'longtask', buffered: true });
    },
  });
  const { page } = p;
  const pictures = [];
  page.on('request', (r) => {
    if (/\/picture-\d\.png$/.test(r.url())) pictures.push(r.url());
  });
  await elementsReady(page);
  // One added after the script ran: it upgrades and draws too.
  await page.evaluate(
    (html) => document.querySelector('main').insertAdjacentHTML('beforeend', html),
    `<rope-scope id="late" view="angles">${picture(6)}</rope-scope>`,
  );
  await elementsReady(page);
  assert.equal(await page.locator('rope-scope').count(), 7);
  assert.deepEqual(pictures, [], 'no element fetched the picture its figure replaces');
  const atDefine = await page.evaluate(() => window.__atDefine);
  assert.ok(
    atDefine.length > 0 && atDefine.every((n) => n === 0),
    `no element started in the defining task (${atDefine})`,
  );
  console.log(`# long tasks (ms): ${await page.evaluate(() => window.__longTasks.join(', '))}`);
  await p.assertClean();
  await p.context.close();
});

test('heading_0_should_hide_the_headings_with_no_tooltip_and_a_bad_heading_be_named', async () => {
  const p = await openBlog(
    env.browser,
    blogHtml(
      `<rope-scope id="a" view="slow" heading="0"></rope-scope>\n<rope-scope id="b" view="slow" heading="maybe"></rope-scope>\n${SCRIPT}`,
    ),
  );
  const { page } = p;
  await elementsReady(page);
  const seen = (id) =>
    page.evaluate((sel) => {
      const host = document.querySelector(sel);
      const h2 = host.shadowRoot.querySelector('h2');
      return {
        heading: h2.getClientRects().length > 0,
        tooltip: host.title,
        notice: host.shadowRoot.querySelector('.notice').innerText,
      };
    }, `#${id}`);
  assert.deepEqual(await seen('a'), { heading: false, tooltip: '', notice: '' }, 'heading="0": no heading, no tooltip');
  assert.deepEqual(
    await seen('b'),
    {
      heading: true,
      tooltip: '',
      notice: `Attribute ignored: heading must be one of 0, 1, got 'maybe'; using the default heading="1".`,
    },
    'a bad heading= is named as written',
  );
  await p.assertClean();
  await p.context.close();
});

test('a_web_font_that_arrives_after_the_charts_drew_should_reach_them', {
  skip: existsSync(LATE_FONT) ? false : `no ${LATE_FONT} to serve`,
}, async () => {
  // The post's font comes 6 s late; the element takes it (theme=inherit) for its charts too.
  const css = '@font-face { font-family: Late; src: url(/late-font.ttf?ms=6000); } main { font-family: Late, serif; }';
  const p = await openBlog(
    env.browser,
    blogHtml(`<p>The post's text.</p>\n<rope-scope id="f" view="angles" theme="inherit"></rope-scope>\n${SCRIPT}`, css),
    { waitUntil: 'domcontentloaded' },
  );
  const { page } = p;
  await elementsReady(page);
  const pixels = () => page.evaluate(() => document.querySelector('#f').shadowRoot.querySelector('canvas').toDataURL());
  assert.equal(await page.evaluate(() => document.fonts.check('12px Late')), false, 'drawn before the font came');
  const before = await pixels();
  await page.waitForFunction(() => document.fonts.check('12px Late'), null, { timeout: 20000 });
  await until(pixels, (now) => now !== before, 'the chart drawn again in the font, once loaded');
  await p.assertClean();
  await p.context.close();
});

test('an_inherit_elements_png_should_be_drawn_on_the_background_it_is_seen_on', async () => {
  // The blog's background (#fbfaf7), and, where nothing behind the element is opaque, the
  // browser's light canvas colour for the light palette (the blog's text is dark).
  for (const [css, want] of [
    ['', [251, 250, 247]],
    ['body { background: transparent; }', [255, 255, 255]],
  ]) {
    const p = await openBlog(
      env.browser,
      blogHtml(`<rope-scope id="e" view="slow" theme="inherit"></rope-scope>\n${SCRIPT}`, css),
    );
    const { page } = p;
    await elementsReady(page);
    const button = page.locator('#e').locator('[data-export="png"]');
    const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
    const b64 = readFileSync(await downloadedFile(file)).toString('base64');
    const corner = await page.evaluate(async (data) => {
      const blob = new Blob([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], { type: 'image/png' });
      const bitmap = await createImageBitmap(blob);
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d');
      ctx.drawImage(bitmap, 0, 0);
      return Array.from(ctx.getImageData(1, 1, 1, 1).data);
    }, b64);
    assert.deepEqual(corner, [...want, 255], `host CSS "${css}": the PNG's background`);
    await p.assertClean();
    await p.context.close();
  }
});

test('elements_should_draw_only_near_the_viewport_holding_their_height_until_then', async () => {
  const filler = '<p style="height: 3000px">A long stretch of the post.</p>';
  const body =
    '<rope-scope id="near" view="slow"></rope-scope>\n' +
    `${filler}\n<rope-scope id="far" view="cat"><a href="#x"><img alt="The cat, rotated (picture)" width="300" height="200" src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"></a></rope-scope>\n` +
    SCRIPT;
  const p = await openBlog(env.browser, blogHtml(body), { viewport: { width: 900, height: 800 } });
  const { page } = p;
  const drawn = (id) =>
    page.evaluate((sel) => {
      const canvas = document.querySelector(sel).shadowRoot.querySelector('canvas');
      return Boolean(
        canvas && customElements.get('rope-scope').Chart.getChart(canvas) && document.querySelector(sel).drawn,
      );
    }, `#${id}`);
  await page.waitForFunction(() => {
    const canvas = document.querySelector('#near').shadowRoot?.querySelector('canvas');
    return canvas && customElements.get('rope-scope')?.Chart.getChart(canvas) && document.querySelector('#near').drawn;
  });
  await page.waitForTimeout(300);
  assert.equal(await drawn('far'), false, 'the element 3000 px below the fold has not drawn');
  const waiting = await page.evaluate(() => {
    const far = document.querySelector('#far');
    const img = far.querySelector('img');
    return {
      imgShown: img.getClientRects().length > 0 && img.getBoundingClientRect().height > 100,
      height: far.getBoundingClientRect().height,
    };
  });
  assert.ok(!waiting.imgShown, 'until it draws, its children (the picture the figure replaces) wait unseen');
  assert.ok(waiting.height >= 300, `it keeps about the figure's height meanwhile (${waiting.height}px)`);
  await page.locator('#far').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => {
    const canvas = document.querySelector('#far').shadowRoot.querySelector('canvas');
    return canvas && customElements.get('rope-scope').Chart.getChart(canvas) && document.querySelector('#far').drawn;
  });
  assert.equal(
    await page.evaluate(() => document.querySelector('#far img').getClientRects().length),
    0,
    'once drawn, its children are hidden behind the figure',
  );
  await p.assertClean();
  await p.context.close();
});

/** ref_lesson.py's function fn on args (the independent reference of the lesson's chapters). */
function lessonReference(fn, args) {
  const script =
    'import sys, json; sys.path.insert(0, "tests/ref"); sys.dont_write_bytecode = True\n' +
    'import ref_lesson as r\n' +
    'fn, args = json.load(sys.stdin)\n' +
    'print(json.dumps(getattr(r, fn)(*args)))';
  const run = spawnSync(PYTHON, ['-c', script], { cwd: ROOT, input: JSON.stringify([fn, args]), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

test('chapter_inputs_inside_elements_should_redraw_every_copy_with_its_caption_and_label', async () => {
  const SEED = seed('element chapters');
  const random = rng(SEED);
  const p = await openBlog(
    env.browser,
    blogHtml(
      '<rope-scope id="a" view="normalized"></rope-scope>\n<p>The same chapter again:</p>\n' +
        `<rope-scope id="b" view="normalized" theme="dark"></rope-scope>\n<rope-scope id="c" view="clock"></rope-scope>\n${SCRIPT}`,
    ),
  );
  const { page } = p;
  await elementsReady(page);
  const shown = (host, name) =>
    page.evaluate(
      ([id, view]) => {
        const root = document.getElementById(id).shadowRoot;
        const canvas = root.getElementById(`chart-${view}`);
        return {
          data: customElements.get('rope-scope').Chart.getChart(canvas).data.datasets[0].data,
          caption: root.getElementById(`caption-${view}`).textContent,
          label: canvas.getAttribute('aria-label'),
        };
      },
      [host, name],
    );
  // The slider inside the first element: both copies of the chapter follow it.
  const slot = 1 + Math.floor(random() * 512);
  await page.locator('#a').locator('#normalized-slot').fill(String(slot));
  await settle(page);
  const [trained] = lessonReference('normalized', [slot, 512]);
  const [now] = lessonReference('normalized', [slot, 1024]);
  for (const host of ['a', 'b']) {
    const { data, caption, label } = await shown(host, 'normalized');
    const what = `element #${host} after #a's slot moved to ${slot}`;
    assert.ok(close(data[0], trained) && close(data[1], now), `${what}: chart ${data}, reference ${trained}, ${now}`);
    assert.match(caption, new RegExp(`^Slot ${slot} is `), `${what}: caption ${caption}`);
    assert.match(label, new RegExp(`^Bar chart: slot ${slot} as `), `${what}: label ${label}`);
    assert.equal(await page.locator(`#${host}`).locator('#normalized-slot-num').inputValue(), String(slot), what);
  }
  // A box typed in the second element, and a checkbox in another chapter.
  await page.locator('#b').locator('#normalized-length-num').fill('2048');
  await page.locator('#b').locator('#normalized-length-num').press('Enter');
  await settle(page);
  for (const host of ['a', 'b']) {
    assert.match((await shown(host, 'normalized')).caption, /but [0-9.]+ of a 2048-long one/, `#${host} length 2048`);
  }
  assert.match(
    (await shown('c', 'clock')).caption,
    /^The dot is outside the training range: (?!.* with divided by 8 )/,
  );
  await page.locator('#c').locator('#clock-divide').check();
  await settle(page);
  const clock = await shown('c', 'clock');
  assert.match(clock.caption, /^The dot is inside the training range: .* with divided by 8 /, clock.caption);
  assert.match(clock.label, /inside the training range/, clock.label);
  await p.assertClean();
  await p.context.close();
});
