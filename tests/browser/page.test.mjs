// The page as served over http: default load against the reference, captions,
// URL round trip, embed and single-figure views, hostile query strings,
// accessible labels, a screenshot (build/screenshot.png), and how the core is made
// (the first render before any later task; no DecompressionStream; no WebAssembly).

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  afterUpdate,
  allCharts,
  CHARTS,
  chartData,
  checkCaptions,
  checkCharts,
  controlValues,
  DEFAULTS,
  openPage,
  pageUrl,
  ROOT,
  readThrough,
  settle,
  startServer,
  stateFromUrl,
  text,
  typeEach,
  typeInto,
  useServerAndBrowser,
  WEB,
  waitReady,
} from './harness.mjs';

const env = useServerAndBrowser();

const INPUTS = ['dim', 'dim-num', 'base', 'base-num', 'gap', 'gap-num', 'from-num', 'to-num', 'n', 'n-num'];

test('page_should_load_the_defaults_and_match_the_reference', async () => {
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  await waitReady(page);
  for (const id of CHARTS) {
    assert.ok(await page.locator(`#chart-${id}`).isVisible(), `#chart-${id} is visible`);
  }
  assert.deepEqual(stateFromUrl(await pageUrl(page)), DEFAULTS, 'no query string means the defaults');
  const controls = await controlValues(page);
  assert.deepEqual(
    {
      dim: controls['dim-num'],
      base: controls['base-num'],
      gap: controls['gap-num'],
      from: controls['from-num'],
      to: controls['to-num'],
      n: controls['n-num'],
    },
    { dim: '64', base: '10000', gap: '2', from: '0', to: '4096', n: '512' },
  );
  assert.equal(controls.dim, '64');
  assert.equal(Number(controls.base), 4);
  assert.ok(Math.abs(Number(controls.gap) - Math.log10(2)) <= 0.001, `#gap holds log10 of gap 2, got ${controls.gap}`);
  assert.equal(controls.n, '512');
  const checked = await checkCharts(page, DEFAULTS);
  await checkCaptions(page, DEFAULTS, checked);
  // The report's four starts: RoPE agrees to ~1e-13, the additive spread is ~13.84.
  const marks = checked.charts.flatness.datasets[4].data;
  assert.deepEqual(
    marks.map((m) => m.x),
    [3, 10, 100, 4000],
  );
  assert.equal(await page.locator('#notice').isVisible(), false, '#notice is hidden without bad params');
  assert.equal(await page.locator('#notice').getAttribute('role'), 'status');
  for (const name of ['dim', 'base', 'gap', 'from', 'to', 'n']) {
    assert.equal(await page.locator(`#${name}-msg`).getAttribute('role'), 'alert', `#${name}-msg role`);
    assert.equal((await text(page, `#${name}-msg`)).trim(), '', `#${name}-msg is empty`);
  }
  const timing = await page.evaluate(() => ({
    first: performance.getEntriesByName('ropescope:first-chart').length,
    updates: performance.getEntriesByName('ropescope:update').filter((e) => e.entryType === 'measure').length,
  }));
  assert.equal(timing.first, 1, 'one ropescope:first-chart mark');
  assert.ok(timing.updates >= 1, 'the first render is measured as ropescope:update');
  await p.close();
});

test('url_state_should_round_trip_into_a_fresh_page', async () => {
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  await waitReady(page);
  await typeEach(page, {
    '#dim-num': '48',
    '#base-num': '2500',
    '#gap-num': '12.25',
    '#from-num': '10',
    '#to-num': '3000',
  });
  await afterUpdate(page, () => page.fill('#n', '768'));
  const url = await pageUrl(page);
  const expected = { dim: 48, base: 2500, gap: 12.25, from: 10, to: 3000, n: 768 };
  assert.deepEqual(stateFromUrl(url), expected, `the query string holds every setting: ${url}`);
  const charts = await allCharts(page);
  const controls = await controlValues(page);
  await p.close();

  const fresh = await openPage(env.browser, url);
  await waitReady(fresh.page);
  assert.deepEqual(await controlValues(fresh.page), controls, `controls after opening ${url}`);
  assert.deepEqual(await allCharts(fresh.page), charts, `charts after opening ${url}`);
  const checked = await checkCharts(fresh.page, expected);
  await checkCaptions(fresh.page, expected, checked);
  assert.equal(await fresh.page.locator('#notice').isVisible(), false);
  await fresh.close();
});

// Charts out of view take new data at once but draw it when scrolled into view.
test('offscreen_chart_should_draw_its_current_data_when_scrolled_into_view', async () => {
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  await waitReady(page);
  const below = await page.evaluate(
    () => document.getElementById('chart-slow').getBoundingClientRect().top > window.innerHeight + 100,
  );
  assert.ok(below, '#chart-slow starts below the fold at 1280x900');
  await afterUpdate(page, () => typeInto(page, '#dim-num', '256'));
  const fresh = await chartData(page, 'slow');
  await page.locator('#chart-slow').scrollIntoViewIfNeeded();
  await page.waitForFunction(
    () => {
      const chart = Chart.getChart(document.getElementById('chart-slow'));
      return chart.scales.y.max >= 128; // drawn for dim 256: 128 pairs
    },
    null,
    { timeout: 15000 },
  );
  const drawn = await page.evaluate(() => {
    const chart = Chart.getChart(document.getElementById('chart-slow'));
    return chart.getDatasetMeta(0).data.map((point) => chart.scales.y.getValueForPixel(point.y));
  });
  const counts = fresh.datasets[0].data.map((point) => point.y);
  assert.equal(drawn.length, counts.length, 'every point is drawn');
  drawn.forEach((y, i) => assert.ok(Math.abs(y - counts[i]) < 0.5, `point ${i}: drawn ${y}, data ${counts[i]}`));
  await p.close();
});

test('embed_should_show_only_the_figures', async () => {
  const p = await openPage(env.browser, `${env.server.url}?embed=1`);
  const { page } = p;
  await waitReady(page);
  for (const id of CHARTS) assert.ok(await page.locator(`#chart-${id}`).isVisible(), `#chart-${id} visible in embed`);
  for (const id of [...INPUTS, 'download-json', 'download-md']) {
    assert.equal(await page.locator(`#${id}`).isVisible(), false, `#${id} is hidden in embed mode`);
  }
  for (const header of await page.locator('header, h1').all()) {
    assert.equal(await header.isVisible(), false, 'the page header is hidden in embed mode');
  }
  await checkCharts(page, DEFAULTS);
  await p.close();
});

// An embed that shows no long-context figure and is given no long-context setting never reads
// that part: neither its code nor the config reader (the files module) is fetched, nor the real
// models' menu filled. A long-context figure, or such a setting, brings them.
test('embed_outside_the_long_context_part_should_fetch_neither_its_code_nor_the_config_reader', async () => {
  const p = await openPage(env.browser, null);
  const { page } = p;
  const fetched = [];
  page.on('response', (res) => fetched.push(new URL(res.url()).pathname));
  const PART = /^\/split\/long-[\w-]+\.js$/; // page/long.js, the part's own chunk
  for (const [query, view, wanted] of [
    ['?embed=1&view=flatness', 'flatness', false],
    ['?embed=1&view=range', 'range', true],
    ['?embed=1&view=flatness&target-gap=5000', 'flatness', true],
  ]) {
    fetched.length = 0;
    await page.goto(`${env.server.url}${query}`);
    // Its chart drawn, as a reader sees it (waitReady prints, which fetches the formulas too).
    await page.waitForFunction((v) => window.Chart?.getChart(document.getElementById(`chart-${v}`)), view);
    await page.waitForLoadState('networkidle');
    await settle(page);
    const split = fetched.filter((path) => path.startsWith('/split/'));
    assert.equal(
      split.some((path) => PART.test(path)),
      wanted,
      `${query}: the part's code ${JSON.stringify(split)}`,
    );
    // The summary's code is in the entry: without the part, the entry is all of the split script.
    if (!wanted) assert.deepEqual(split, ['/split/app.js'], `${query}: the entry alone`);
    await p.assertClean(query);
  }
  await p.close();
});

for (const view of CHARTS) {
  test(`view_${view}_should_show_that_figure_alone`, async () => {
    const p = await openPage(env.browser, null); // one window, loaded again for each query
    const { page } = p;
    for (const query of [`?embed=1&view=${view}`, `?view=${view}&gap=300`]) {
      await page.goto(`${env.server.url}${query}`);
      await waitReady(page, [view]);
      for (const id of CHARTS) {
        assert.equal(
          await page.locator(`#chart-${id}`).isVisible(),
          id === view,
          `${query}: #chart-${id} ${id === view ? 'visible' : 'hidden'}`,
        );
      }
      if (query.startsWith('?embed')) {
        for (const id of INPUTS)
          assert.equal(await page.locator(`#${id}`).isVisible(), false, `${query}: #${id} hidden`);
        await checkCharts(page, DEFAULTS, [view]);
      } else {
        await checkCharts(page, { ...DEFAULTS, gap: 300 }, [view]);
      }
      await p.assertClean(query);
    }
    await p.close();
  });
}

const HOSTILE = [
  {
    query: '?dim=abc&base=-1&gap=<script>alert(1)</script>&n=1e99&from=NaN&to=Infinity',
    names: ['dim', 'base', 'gap', 'n', 'from', 'to'],
    shown: ['abc', '-1', '<script>alert(1)</script>', '1e99', 'NaN', 'Infinity'],
  },
  {
    query: '?dim=1e308&base=1e400&gap=99999999999999999999999&n=-4096&from=1e309&to=-1e308',
    names: ['dim', 'base', 'gap', 'n', 'from', 'to'],
    shown: ['1e308', '1e400', '-4096', '1e309', '-1e308'],
  },
  {
    query:
      `?gap=${encodeURIComponent('<img src=x onerror="window.__pwned=1">')}` +
      `&dim=${encodeURIComponent('"><script>window.__pwned=2</script>')}&base=1e-5&n=256.5&view=<b>x</b>&embed=2`,
    names: ['gap', 'dim', 'base', 'n', 'view', 'embed'],
    shown: ['<img src=x', '1e-5', '256.5'],
  },
  { query: '?dim=3&gap=-1&from=5000&to=100', names: ['dim', 'gap', 'from'], shown: ['3', '-1', '5000'] },
  // Prototype names are not values, and numbers follow the CLI's grammar.
  { query: '?embed=constructor&view=toString', names: ['embed', 'view'], shown: ['constructor', 'toString'] },
  { query: '?embed=__proto__&view=hasOwnProperty', names: ['embed', 'view'], shown: ['__proto__', 'hasOwnProperty'] },
  { query: '?embed=valueOf', names: ['embed'], shown: ['valueOf'] },
  {
    query: '?gap=0x40&dim=0b1010&base=%2010000&n=512.0&from=1e-400&to=Infinity',
    names: ['gap', 'dim', 'base', 'n', 'from', 'to'],
    shown: ['0x40', '0b1010', ' 10000', '512.0', '1e-400', 'Infinity'],
  },
];

test('hostile_query_strings_should_fall_back_to_defaults_and_say_so', async () => {
  // One window: the clean page, then each query loaded in it in turn.
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  await waitReady(page);
  const scripts = await page.evaluate(() => document.scripts.length);
  await p.assertClean();

  for (const { query, names, shown } of HOSTILE) {
    await page.goto(env.server.url + query);
    await waitReady(page);
    const controls = await controlValues(page);
    const expected = { ...DEFAULTS };
    // Only the bad ones fall back: in the last case, to=100 is a good value on its own.
    if (query.includes('to=100')) expected.to = 100;
    assert.deepEqual(
      {
        dim: controls['dim-num'],
        base: controls['base-num'],
        gap: controls['gap-num'],
        from: controls['from-num'],
        to: controls['to-num'],
        n: controls['n-num'],
      },
      Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, String(v)])),
      `${query}: the controls show the defaults`,
    );
    await checkCharts(page, expected);
    const notice = page.locator('#notice');
    assert.ok(await notice.isVisible(), `${query}: #notice is visible`);
    const said = await notice.innerText();
    for (const name of names) {
      assert.match(said, new RegExp(`\\b${name}\\b`), `${query}: #notice names ${name}: "${said}"`);
    }
    for (const value of shown) assert.ok(said.includes(value), `${query}: #notice shows ${value}: "${said}"`);
    const dom = await page.evaluate(() => ({
      scripts: document.scripts.length,
      pwned: window.__pwned ?? null,
      injected: document.querySelectorAll('img[src="x"], [onerror], #notice script, #notice img, #notice b').length,
    }));
    assert.deepEqual(
      dom,
      { scripts, pwned: null, injected: 0 },
      `${query}: nothing from the query string became markup`,
    );
    await p.assertClean(query);
  }
  await p.close();
});

test('every_control_should_have_an_accessible_label', async () => {
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  await waitReady(page);
  const unlabeled = await page.evaluate(() => {
    const named = (el) => {
      const byLabels = Array.from(el.labels ?? [])
        .map((l) => l.textContent.trim())
        .join(' ');
      const byAria = el.getAttribute('aria-label')?.trim() ?? '';
      const byIds = (el.getAttribute('aria-labelledby') ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => document.getElementById(id)?.textContent.trim() ?? '')
        .join(' ');
      const own = el.tagName === 'BUTTON' ? el.textContent.trim() : '';
      return `${byLabels} ${byAria} ${byIds} ${own}`.trim();
    };
    return Array.from(document.querySelectorAll('input, select, textarea, button'))
      .filter((el) => !named(el))
      .map((el) => el.id || el.outerHTML.slice(0, 80));
  });
  assert.deepEqual(unlabeled, [], 'controls without an accessible name');
  for (const id of INPUTS) {
    const snapshot = await page.locator(`#${id}`).ariaSnapshot();
    assert.match(snapshot, /^- \w+ "[^"]+"/, `#${id} has an accessible name in the accessibility tree: ${snapshot}`);
  }
  for (const [label, id] of [
    ['dim', 'dim'],
    ['base', 'base'],
    ['gap', 'gap'],
    ['from', 'from-num'],
    ['to', 'to-num'],
    ['points drawn', 'n'],
  ]) {
    const byLabel = page.getByLabel(new RegExp(`^${label}\\b`));
    const ids = await byLabel.evaluateAll((els) => els.map((el) => el.id));
    assert.ok(ids.includes(id), `getByLabel(/^${label}/) finds #${id} (found ${ids})`);
  }
  await p.close();
});

test('page_should_save_a_screenshot', async () => {
  const p = await openPage(env.browser, env.server.url);
  await waitReady(p.page);
  mkdirSync(join(ROOT, 'build'), { recursive: true });
  const path = join(ROOT, 'build/screenshot.png');
  const png = await p.page.screenshot({ path, fullPage: true });
  assert.ok(png.length > 10000, `screenshot of ${png.length} bytes`);
  await p.close();
});

// rope.js's ready(): the browser inflates the wasm, and that settles in the microtask checkpoint
// after the page script, so the first render starts before any task queued by that script runs.
test('first_render_should_start_in_the_page_scripts_microtasks', async () => {
  const p = await openPage(env.browser, null);
  await p.context.addInitScript(() => {
    const mark = performance.mark.bind(performance);
    performance.mark = (name, ...rest) => {
      if (name === 'ropescope:app-start')
        setTimeout(() => {
          window.__nextTask = performance.now();
        }, 0);
      return mark(name, ...rest);
    };
  });
  await p.page.goto(env.server.url);
  await waitReady(p.page);
  const { render, nextTask } = await p.page.evaluate(() => ({
    render: performance.getEntriesByName('ropescope:update-start')[0].startTime,
    nextTask: window.__nextTask,
  }));
  assert.ok(render < nextTask, `first render at ${render} ms, the script's next task at ${nextTask} ms`);
  await p.close();
});

test('page_should_draw_where_the_browser_has_no_decompression_stream', async () => {
  const p = await openPage(env.browser, null);
  await p.context.addInitScript(() => {
    delete window.DecompressionStream;
  });
  await p.page.goto(env.server.url);
  await waitReady(p.page);
  assert.equal(await p.page.evaluate(() => typeof window.DecompressionStream), 'undefined');
  await checkCharts(p.page, DEFAULTS);
  await p.close();
});

test('page_should_say_so_when_the_browser_runs_no_webassembly', async () => {
  const p = await openPage(env.browser, null);
  await p.context.addInitScript(() => {
    delete window.WebAssembly;
  });
  await p.page.goto(env.server.url);
  await p.page.locator('#notice').waitFor({ state: 'visible' });
  assert.match(await text(p.page, '#notice'), /computed by WebAssembly, which this browser did not run/);
  assert.equal(
    await p.page.evaluate(() => performance.getEntriesByName('ropescope:update-start').length),
    0,
    'no render was tried',
  );
  for (const selector of ['main', '#long']) {
    assert.equal(
      await p.page.locator(selector).isVisible(),
      false,
      `${selector} (controls that could do nothing) is hidden`,
    );
  }
  assert.ok(await p.page.locator('h1').isVisible(), 'the page text stays');
  await p.close();
});

// Every figure the split script holds.
const chunksFigures = (chunks) => Object.values(chunks.files).flat().length;

// Served (tools/serve.mjs), the page is one response with its stylesheet inline, its split script
// (web/split/, tools/split_page.mjs) preloaded: before the first chart (the first screen's
// miniature plot) it fetches the entry, which holds the code of the figures drawn first
// (chunks.json's first), and no chunk of a figure below the fold; Chart.js, which draws the
// figures, only once that screen is painted.
test('served_page_should_fetch_only_the_first_figures_code_before_its_first_chart', async () => {
  const chunks = JSON.parse(readFileSync(join(WEB, 'split/chunks.json'), 'utf8'));
  const first = ['order', 'flatness']; // the first chapter, and the summary, which places the sliders
  assert.deepEqual(
    [...new Set(chunks.first.flatMap((file) => chunks.files[file]))].sort(),
    [...first].sort(),
    'the first files hold the first figures alone',
  );
  // One load, watched from its first request (a reload would abort the first load's fetches).
  const p = await openPage(env.browser, null);
  const { page } = p;
  const responses = [];
  page.on('response', (res) => responses.push(new URL(res.url()).pathname));
  await page.goto(env.server.url);
  await page.waitForFunction(() => performance.getEntriesByName('ropescope:first-chart').length > 0);
  const { before, chartJs } = await page.evaluate(() => {
    const at = (name) => performance.getEntriesByName(name)[0].startTime;
    const plot = at('ropescope:first-plot');
    const resources = performance.getEntriesByType('resource');
    const chart = resources.find((e) => new URL(e.name).pathname === '/vendor/chart.js');
    return {
      before: resources.filter((e) => e.startTime < plot).map((e) => new URL(e.name).pathname),
      chartJs: chart && { start: chart.startTime, end: chart.responseEnd, plot, figure: at('ropescope:first-chart') },
    };
  });
  assert.ok(chartJs, 'Chart.js fetched, as a file of its own');
  assert.ok(
    chartJs.start > chartJs.plot && chartJs.end < chartJs.figure,
    `Chart.js asked for after the miniature's plot and here before the first figure's chart: ${JSON.stringify(chartJs)}`,
  );
  const split = before.filter((path) => path.startsWith('/split/')).map((path) => path.slice('/split/'.length));
  assert.deepEqual(
    before.filter((path) => !path.startsWith('/split/')),
    [],
    'nothing but the page and its split script before the first chart',
  );
  assert.deepEqual([...split].sort(), [...chunks.first].sort(), 'exactly the first files, preloaded');
  for (const file of split) {
    const held = chunks.files[file] ?? [`not one of the build's files: ${file}`];
    for (const name of held) assert.ok(first.includes(name), `${file} holds figure ${name}, below the fold`);
  }
  // Reading on loads the others as they near, each its own chunk, and builds every figure.
  await readThrough(page);
  assert.equal(await page.evaluate(() => document.querySelectorAll('figure.fig').length), chunksFigures(chunks));
  assert.ok(responses.includes('/'), 'the page itself');
  assert.deepEqual(
    await page.evaluate(() => [...document.querySelectorAll('script[src]:not([type="module"])')].map((s) => s.src)),
    [new URL('vendor/chart.js', env.server.url).href],
    'no classic script but Chart.js',
  );
  assert.equal(await page.evaluate(() => document.querySelectorAll('link[rel="stylesheet"]').length), 0);
  await p.assertClean();
  await p.close();
});

// Chart.js comes after the first screen, as a file: where it cannot load, the first screen is
// whole (its plot is the page's own), the notice says which file did not come, and no error is
// thrown; the config checker says it cannot draw rather than failing.
test('served_page_without_chart_js_should_keep_its_first_screen_and_say_why_no_chart_is_drawn', async () => {
  const p = await openPage(env.browser, null);
  const { page } = p;
  await page.route('**/vendor/chart.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(env.server.url);
  await page.waitForFunction(() => document.getElementById('notice').textContent.includes('vendor/chart.js'));
  const seen = await page.evaluate(() => ({
    notice: document.getElementById('notice').textContent,
    plot: document.querySelectorAll('#mini-plot polyline').length,
    rope: document.getElementById('mini-rope').textContent,
    charts: typeof window.Chart,
  }));
  assert.match(
    seen.notice,
    /The charts could not be drawn: vendor\/chart\.js did not load\. Reload the page to try again\./,
  );
  assert.equal(seen.plot, 2, 'the miniature plots both scores');
  assert.equal(seen.rope, '0.8934');
  assert.equal(seen.charts, 'undefined');
  await page.click('#verify-open');
  await page.waitForFunction(() =>
    /Chart\.js, which did not load/.test(document.getElementById('verify-open').nextElementSibling.textContent),
  );
  // The browser's own report of the missing file, and nothing else.
  assert.deepEqual(
    p.problems.filter((line) => !line.includes('vendor/chart.js')),
    [],
    'no error but the missing file',
  );
  await p.context.close(); // its problems, the missing file's, were read above
});

// The same page opened from a static host, as dist/ropescope/ holds it: its code arrives as two
// scripts, both preloaded, Chart.js and web/ropescope.js (the same modules in one classic
// script, wasm inside, which also runs from disk, where no module loads); no module is fetched.
test('page_as_files_should_load_two_preloaded_scripts_and_no_modules', async (t) => {
  const files = await startServer(join(ROOT, 'dist/ropescope'), { asFiles: true });
  t.after(() => files.stop());
  const p = await openPage(env.browser, files.url);
  const { page } = p;
  await waitReady(page);
  const { loaded, preloaded } = await page.evaluate(() => ({
    loaded: performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname)
      .filter((path) => path.endsWith('.js')),
    preloaded: [...document.querySelectorAll('link[rel="preload"][as="script"]')].map((l) => new URL(l.href).pathname),
  }));
  assert.deepEqual(loaded.sort(), ['/ropescope.js', '/vendor/chart.js'], 'scripts the page loaded');
  assert.deepEqual(preloaded.sort(), ['/ropescope.js', '/vendor/chart.js'], 'scripts the page preloads');
  await p.close();
});
