// Shared pieces of the browser tests: a static server for web/, headless
// Chromium through playwright-core, a page wrapper that records every console
// error/warning, page error and dialog, chart-data readers, and the Python
// reference (tests/ref/reference.py --batch) for expected values.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { metaPolicy } from '../../tools/serve.mjs';
import {
  ROPE_REPORT_DEFAULT_NORM_POSITIONS as NORM_POSITIONS,
  ROPE_REPORT_DEFAULT_STARTS as REPORT_STARTS,
} from '../../web/gen/rope_consts.js';
import { ABS_TOL, close, PYTHON } from '../lib/testlib.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB = join(ROOT, 'web');
export const CLI = join(ROOT, 'build/ropescope');
export const CHARTS = ['angles', 'flatness', 'slow'];
export const DEFAULTS = Object.freeze({ dim: 64, base: 10000, gap: 2, from: 0, to: 4096, n: 512 });
// The report's starts and norm positions: report.h's, through the generated constants.
export {
  ROPE_REPORT_DEFAULT_NORM_POSITIONS as NORM_POSITIONS,
  ROPE_REPORT_DEFAULT_STARTS as REPORT_STARTS,
} from '../../web/gen/rope_consts.js';
export { ABS_TOL, cliReport, close, REL_TOL } from '../lib/testlib.mjs';

const TWO_PI = 2 * Math.PI;

// The browser the tests run in: Chromium's headless shell, the same Blink, V8 and Skia as the
// browser (Debian builds both from one source, at one version) without the browser's window and
// its interface: no address bar, no window per context. On a 2-core machine that is half the CPU
// of a new context (0.3 core-seconds against 0.6) and 9% of the browser suite's (1,355 against
// 1,495 core-seconds). The benchmarks time what a reader's browser does: READER_CHROMIUM.
// ROPE_TEST_CHROMIUM=/usr/bin/chromium runs the tests in the browser.
export const TEST_CHROMIUM = process.env.ROPE_TEST_CHROMIUM ?? '/usr/bin/chromium-headless-shell';
export const READER_CHROMIUM = '/usr/bin/chromium';

export const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// ---- server and browser ----

/**
 * tools/serve.mjs in its own process (as `make serve` runs it) on a free port, serving dir with
 * the page's CSP headers, its HTML pages inlined (asFiles: every file as it is, as a static
 * host serves dist/ropescope/); stop() ends that process. Its own process keeps the serving off
 * the event loop that drives the browser (timings in make bench stay those of a real server).
 */
export async function startServer(dir = WEB, { asFiles = false } = {}) {
  const child = spawn(process.execPath, [join(ROOT, 'tools/serve.mjs'), dir, '0', ...(asFiles ? ['--as-files'] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`tools/serve.mjs did not start: ${output}`)), 10000);
    const read = (chunk) => {
      output = (output + chunk).slice(-4000);
      const match = /serving .* at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`tools/serve.mjs exited ${code}: ${output}`));
    });
  });
  return {
    url,
    port: Number(new URL(url).port),
    policy: metaPolicy(),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One server and one browser for the calling test file, started before its tests and stopped after. */
export function useServerAndBrowser() {
  const env = {};
  before(async () => {
    env.server = await startServer();
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

// Chromium 156 starts, for every new browser context (a window), a renderer for the address
// bar's dropdown (the omnibox popup, a WebUI page of about 300 modules) that keeps a core busy for
// one to two seconds: on a 2-core machine, through every cold load make bench times, the floor's
// as well as the page's, and in every browser test (a test file makes a context for most tests:
// about a second of CPU each, in a suite of several hundred). A reader's browser pays it once per
// window, not per page loaded.
// Chromium keeps only the last --disable-features, so this one repeats Playwright's own list
// (playwright-core's chromiumSwitches, 1.65) before the popup's three features.
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];
const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'];
export const QUIET_UI_ARGS = [
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES].join(',')}`,
];

/**
 * Headless Chromium, without the address bar's popup renderer unless quietUi is false: one for
 * each test file (tools/test_browser.mjs runs several files at a time, each with its own).
 * executablePath: TEST_CHROMIUM unless told (make bench: READER_CHROMIUM).
 */
export function launchBrowser({ quietUi = true, executablePath = TEST_CHROMIUM } = {}) {
  return chromium.launch({
    executablePath,
    args: [...LAUNCH_ARGS, ...(quietUi ? QUIET_UI_ARGS : [])],
  });
}

// CSP violations the page has seen (window.__cspViolations, filled by the init script).
async function collectCsp(page, problems) {
  if (page.isClosed()) return;
  const seen = await page
    .evaluate(() => window.__cspViolations ?? ['no CSP listener: the init script did not run'])
    .catch((err) => [`could not read the CSP violations: ${err.message}`]);
  for (const v of seen) problems.push(`CSP violation: ${v}`);
}

/**
 * A fresh context and page. Every console error or warning, uncaught page
 * error, dialog and failed request is recorded in `problems`; call
 * assertClean() (or close()) at the end of each test.
 */
export async function openPage(
  browser,
  url,
  { viewport = { width: 1280, height: 900 }, javaScriptEnabled = true } = {},
) {
  const context = await browser.newContext({ viewport, acceptDownloads: true, javaScriptEnabled });
  // Every Content-Security-Policy violation from the first byte on, for the clean check.
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'}` + ` (${e.sourceFile || ''}:${e.lineNumber || 0})`,
      );
    });
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') {
      problems.push(`console ${msg.type()}: ${msg.text()} (${msg.location()?.url ?? ''})`);
    }
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog ${dialog.type()}: ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  // Each frame's document loads so far, and the count when each request was made: a file a
  // document asked for (a chunk of figure code fetched at idle) is cancelled when a newer
  // document replaces it in its frame (a test's next goto or reload), which no reader sees.
  // A document may still ask for a file after its replacement's load has started (an idle
  // callback), so a request is also tagged with its frame's documents committed so far.
  const loads = new WeakMap(); // frame -> document loads started
  const commits = new WeakMap(); // frame -> documents committed (and same-document navigations)
  const madeAt = new WeakMap(); // request -> [its frame's loads, commits] when it was made
  page.on('framenavigated', (frame) => commits.set(frame, (commits.get(frame) ?? 0) + 1));
  const frameOf = (req) => {
    try {
      return req.frame();
    } catch {
      return null; // a navigation issued before its frame existed
    }
  };
  page.on('request', (req) => {
    const frame = frameOf(req);
    if (!frame) return;
    if (req.isNavigationRequest()) loads.set(frame, (loads.get(frame) ?? 0) + 1);
    else madeAt.set(req, [loads.get(frame) ?? 0, commits.get(frame) ?? 0]);
  });
  // A file's request cancelled (ERR_ABORTED), judged when the test asks whether the page was clean:
  // the old document's requests are cancelled as the new one commits, and that cancellation can
  // reach this process before the commit does (framenavigated), which is counted by then.
  const cancelled = []; // [request, its frame, the message]
  const judgeCancelled = () => {
    for (const [req, frame, message] of cancelled.splice(0)) {
      const made = madeAt.get(req);
      const replaced = made !== undefined && (made[0] < (loads.get(frame) ?? 0) || made[1] < (commits.get(frame) ?? 0));
      if (!replaced) problems.push(message);
    }
  };
  page.on('requestfailed', (req) => {
    // A download navigation is cancelled by design once the file is saved, and so is a frame's
    // document load that a newer one replaced (the embed builder's live preview reloads on every
    // option: on a busy machine the previous load is still under way), and a file asked for by a
    // document since replaced in its frame.
    if (req.url().startsWith('blob:')) return;
    const message = `request failed: ${req.url()} ${req.failure()?.errorText}`;
    const aborted = req.failure()?.errorText === 'net::ERR_ABORTED';
    const frame = frameOf(req);
    if (!aborted || frame === null) problems.push(message);
    else if (req.isNavigationRequest()) {
      if (frame === page.mainFrame()) problems.push(message);
    } else cancelled.push([req, frame, message]);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  if (url) await page.goto(url);
  return {
    page,
    context,
    // What went wrong so far, cancelled requests judged (a test reading it directly).
    get problems() {
      judgeCancelled();
      return problems;
    },
    async assertClean(what = url) {
      await collectCsp(page, problems);
      judgeCancelled();
      assert.deepEqual(problems, [], `${what}: console errors, page errors, dialogs or CSP violations`);
    },
    async close() {
      await collectCsp(page, problems);
      judgeCancelled();
      await context.close();
      assert.deepEqual(problems, [], `${url}: console errors, page errors, dialogs or CSP violations`);
    },
  };
}

/** Waits for the 'ropescope:first-chart' mark and a Chart on every named canvas. */
/** The figures outside the long-context part (made at the first render), as the page built them from its table. */
export const mainFigures = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('figure.fig')].filter((fig) => !fig.closest('#long')).map((fig) => fig.dataset.view),
  );

export async function waitReady(page, charts = CHARTS) {
  await page.waitForFunction(() => performance.getEntriesByName('ropescope:first-chart').length > 0, null, {
    timeout: 30000,
  });
  await buildEverything(page);
  await page.waitForFunction(
    (ids) =>
      typeof window.Chart === 'function' &&
      ids.every((id) => window.Chart.getChart(document.getElementById(`chart-${id}`))),
    charts,
    { timeout: 30000 },
  );
  if (charts.includes('flatness')) await atSummary(page);
}

/**
 * Every figure built and every chart made at once, as the page does before printing (its
 * beforeprint handler; afterprint follows, as after a print): a fifth of the time of reading the
 * page through (readThrough), which lazy.test.mjs does to check that a reader scrolling gets
 * every figure built and every chart made.
 */
export async function buildEverything(page) {
  // A figure built by the first print has its data from the render after it: print again until
  // every figure's canvas has its chart (an embed or a view= page hides the others' sections).
  await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))));
    const shown = () => [...document.querySelectorAll('canvas[id^="chart-"]')].filter((c) => c.getClientRects().length);
    // Every figure's code first (the page fetches it at idle after the first chart; printing
    // builds the figures whose code is here).
    await window.ropescope?.loadAll?.();
    for (let round = 0; round < 20; round++) {
      window.dispatchEvent(new Event('beforeprint'));
      window.dispatchEvent(new Event('afterprint'));
      await frame();
      if (typeof window.Chart === 'function' && shown().every((c) => window.Chart.getChart(c))) return;
    }
  });
}

/**
 * Reads the page through as a reader would: scrolls down a screen at a time, a frame or two each,
 * to the end, then back to the top. The page builds each figure below the first screen, and makes
 * its chart, as the reader nears it (app.js, buildNear), so afterwards every figure is on the page
 * and every chart made. An embed or a view= page builds all at once; there it changes nothing.
 */
export async function readThrough(page) {
  const read = page.evaluate(async () => {
    // Each wait has a deadline that fails with what it waited on, not a test that never ends.
    const within = (promise, what) =>
      Promise.race([
        promise,
        new Promise((_, reject) => setTimeout(() => reject(new Error(`readThrough: ${what()} after 30 s`)), 30000)),
      ]);
    const frame = () =>
      within(
        new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0)))),
        () => `no animation frame (document ${document.visibilityState})`,
      );
    // Every figure's code first, as the page fetches it at idle after the first chart: a reader
    // scrolls slower than this loop, whose steps would outrun the fetches.
    await within(Promise.resolve(window.ropescope?.loadAll?.()), () => "every figure's code not loaded");
    const start = window.scrollY;
    let last = -1;
    // Until the bottom is reached and stays put (a figure built below grows the page).
    for (let step = 0, still = 0; step < 2000 && still < 3; step++) {
      window.scrollBy(0, window.innerHeight);
      await frame();
      const bottom = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
      still = bottom && window.scrollY === last ? still + 1 : 0;
      last = window.scrollY;
    }
    window.scrollTo(0, start);
    await frame();
  });
  // The page's own timers cannot fire if its main thread is stuck: this one is the test's.
  let timer;
  const stuck = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('readThrough: the page did not answer within 120 s')), 120000);
  });
  try {
    await Promise.race([read, stuck]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * On the page (not an embed), scrolls to the summary (the flatness figure, after the proof) and
 * waits until the settings panel offers its sliders there: the page shows gap, dim and base only
 * beside the figures they drive, so a test that works them goes where a reader would.
 */
export async function atSummary(page) {
  const onPage = await page.evaluate(() => {
    const summary = document.getElementById('fig-flatness');
    const shown = summary && summary.getClientRects().length > 0; // not hidden by a view=
    if (document.body.classList.contains('embed') || !shown || !document.querySelector('main .panel')) return false;
    summary.scrollIntoView({ block: 'start' });
    return true;
  });
  if (!onPage) return;
  await page.waitForFunction(() => !document.body.classList.contains('bar-away'), null, { timeout: 15000 });
  await page.waitForFunction(() => document.querySelector('.panel-main').getAnimations().length === 0);
}

/** Waits in the embed document (embed.html), a page or a frame, until its <rope-scope> has drawn
 *  every chart it holds. */
export async function waitFrameDrawn(frame, timeout = 20000) {
  await frame.waitForFunction(
    () => {
      const root = document.querySelector('rope-scope')?.shadowRoot;
      const canvases = [...(root?.querySelectorAll('canvas') ?? [])];
      return (
        performance.getEntriesByName('ropescope:first-chart').length > 0 &&
        canvases.length > 0 &&
        canvases.every((c) => customElements.get('rope-scope').Chart.getChart(c))
      );
    },
    null,
    { timeout },
  );
}

/** Number of 'ropescope:update' measures so far. */
export function updateCount(page) {
  return page.evaluate(() => performance.getEntriesByName('ropescope:update').length);
}

/** Lets pending input handlers and animation frames run. */
export async function settle(page) {
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 30)))),
  );
}

/** The served page at `query`, open with `charts` drawn: { p, page } (p.close() when done). */
export async function openReady(env, query = '', charts = CHARTS) {
  const p = await openPage(env.browser, env.server.url + query);
  await waitReady(p.page, charts);
  return { p, page: p.page };
}

/**
 * The served page at `query`, opened at figure `name`'s anchor (#fig-NAME) as a link to it opens,
 * with its chart made: the page builds the figures up to it (app.js, buildForFragment) and the
 * rest as the reader nears them, not every figure as waitReady does. For a test of that figure
 * (and those before it) alone. { p, page } (p.close() when done).
 */
export async function openAt(env, query, name) {
  const p = await openPage(env.browser, `${env.server.url}${query}#fig-${name}`);
  await p.page.waitForFunction(
    (n) =>
      performance.getEntriesByName('ropescope:first-chart').length > 0 &&
      typeof window.Chart === 'function' &&
      window.Chart.getChart(document.getElementById(`chart-${n}`)),
    name,
    { timeout: 30000 },
  );
  return { p, page: p.page };
}

/** Runs action, then waits until at least one more update was measured. */
export async function afterUpdate(page, action) {
  const before = await updateCount(page);
  await action();
  await page.waitForFunction((n) => performance.getEntriesByName('ropescope:update').length > n, before, {
    timeout: 10000,
  });
  await settle(page);
}

/**
 * A finished download's local path: saveAs() copies it into a folder of this process's own,
 * which outlives the context (the browser's copy goes with it).
 */
let downloadDir = null;
let downloadCount = 0;
export async function downloadedFile(download) {
  if (downloadDir === null) {
    downloadDir = mkdtempSync(join(tmpdir(), 'rope-downloads-'));
    process.once('exit', () => rmSync(downloadDir, { recursive: true, force: true }));
  }
  const path = join(downloadDir, `${++downloadCount}-${download.suggestedFilename() || 'download'}`);
  await download.saveAs(path);
  return path;
}

// ---- reading the page ----

/**
 * Chart.getChart(canvas).data as plain JSON: labels and each dataset's label and data.
 * host: a CSS selector of a <rope-scope> element: its shadow root's canvas, read with the
 * element's own Chart.js (RopeScope.Chart).
 */
export async function chartData(page, id, host = null) {
  return page.evaluate(
    ([canvasId, hostSelector]) => {
      const root = hostSelector ? document.querySelector(hostSelector).shadowRoot : document;
      const Chart = hostSelector ? customElements.get('rope-scope').Chart : window.Chart;
      const chart = Chart.getChart(root.getElementById(canvasId));
      if (!chart) return null;
      const plain = (v) => (v !== null && typeof v === 'object' ? { x: v.x, y: v.y } : v);
      const nonFinite = (v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v);
      return {
        labels: chart.data.labels ? Array.from(chart.data.labels) : undefined,
        datasets: chart.data.datasets.map((ds) => ({
          label: ds.label,
          // NaN and Infinity would turn into null in transfer: keep them visible as strings.
          data: Array.from(ds.data, (v) => {
            const p = plain(v);
            return p !== null && typeof p === 'object' ? { x: nonFinite(p.x), y: nonFinite(p.y) } : nonFinite(p);
          }),
        })),
      };
    },
    [`chart-${id}`, host],
  );
}

export async function allCharts(page) {
  const out = {};
  for (const id of CHARTS) out[id] = await chartData(page, id);
  return out;
}

/** The page's address once its pending URL update (throttled while sliders move) is written. */
export async function pageUrl(page) {
  await page.waitForFunction(() => !window.ropescope?.urlPending?.(), null, { timeout: 15000 });
  return page.url();
}

/** The settings the page shows, read from its query string (the page's written state). */
export function stateFromUrl(url) {
  const q = new URL(url).searchParams;
  const state = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS)) if (q.has(key)) state[key] = Number(q.get(key));
  return state;
}

export async function controlValues(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      ['dim', 'dim-num', 'base', 'base-num', 'gap', 'gap-num', 'from-num', 'to-num', 'n', 'n-num'].map((id) => [
        id,
        document.getElementById(id)?.value ?? null,
      ]),
    ),
  );
}

export const text = (page, selector) => page.locator(selector).innerText();

// ---- the reference ----

export function reference(calls) {
  const run = spawnSync(PYTHON, [join(ROOT, 'tests/ref/reference.py'), '--batch'], {
    input: JSON.stringify(calls),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (run.status !== 0) throw new Error(`tests/ref/reference.py --batch failed: ${run.stderr}`);
  const out = JSON.parse(run.stdout);
  out.forEach((r, i) => {
    if (r && typeof r === 'object' && !Array.isArray(r) && r.error) {
      throw new Error(`reference ${calls[i].fn}: ${r.error}`);
    }
  });
  return out;
}

const vectorCache = new Map();
export function demoVectors(dim) {
  if (!vectorCache.has(dim)) vectorCache.set(dim, reference([{ fn: 'demo_vectors', args: [dim] }])[0]);
  return vectorCache.get(dim);
}

function assertClose(actual, expected, what) {
  assert.ok(close(actual, expected), `${what}: expected ${expected}, got ${actual}`);
}

// The reference is plain Python: with many bins, score a spread-out subset of them.
const MAX_SCORED_BINS = 40;
export function sampleIndexes(n, most = MAX_SCORED_BINS) {
  if (n <= most) return Array.from({ length: n }, (_, j) => j);
  const picked = new Set([0, n - 1]);
  for (let i = 0; i < most - 2; i++) picked.add(Math.round((i * (n - 1)) / (most - 3)));
  return [...picked].sort((a, b) => a - b);
}

export const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

/**
 * Figure 1's bins (web/README.md, docs/EXPLAIN.md offset_envelope): the c integer starts in
 * [from, to] in bins = min(c, n) runs; start index i is in bin floor(i * bins / c).
 */
export function sweepBins(from, to, n) {
  const lo = Math.ceil(from);
  const c = Math.floor(to) - lo + 1;
  const bins = Math.min(c, n);
  const firstIndex = (j) => Math.ceil((j * c) / bins);
  return { starts: c, bins, first: (j) => lo + firstIndex(j), last: (j) => lo + firstIndex(j + 1) - 1 };
}

/** Every pair's angle from chart-angles data (each pair is in one of its two datasets). */
export function anglesOf(chart) {
  return chart.labels.map((_, i) => chart.datasets[0].data[i] ?? chart.datasets[1].data[i]);
}

/** Fails on any NaN, Infinity or non-number in any chart dataset (null marks "no bar"). */
export function assertFiniteData(charts) {
  for (const [id, chart] of Object.entries(charts)) {
    if (!chart) continue;
    chart.datasets.forEach((ds, i) =>
      ds.data.forEach((p, j) => {
        if (p === null && id === 'angles') return;
        const values = p !== null && typeof p === 'object' ? [p.x, p.y] : [p];
        for (const v of values) {
          assert.ok(
            typeof v === 'number' && Number.isFinite(v),
            `chart-${id} dataset ${i} (${ds.label}) point ${j} is ${JSON.stringify(p)}, not finite numbers`,
          );
        }
      }),
    );
  }
}

/**
 * Checks every chart against web/README.md and the reference for state
 * {dim, base, gap, from, to, n} (host: in that <rope-scope> element). Returns the data read.
 */
export async function checkCharts(page, state, charts = CHARTS, host = null) {
  const { dim, base, gap, from, to, n } = state;
  const got = {};
  for (const id of charts) got[id] = await chartData(page, id, host);
  assertFiniteData(got);
  const [q, k] = demoVectors(dim);
  const calls = [];
  const at = {};
  const push = (name, fn, args) => {
    at[name] = calls.length;
    calls.push({ fn, args });
  };
  push('angles', 'pair_angles', [dim, gap, base]);
  push('norm', 'norm', [q]);
  push('norm_gaps', 'norm_gaps', [q, NORM_POSITIONS, base]);
  push('report', 'offset_scan', [q, k, gap, REPORT_STARTS, base]);
  // Figure 1: every integer start in [from, to], in bins (README); a sample of bins is scored in full.
  const plan = sweepBins(from, to, n);
  const scoredBins = got.flatness ? sampleIndexes(plan.bins, MAX_SCORED_BINS) : [];
  if (got.flatness) {
    const starts = scoredBins.flatMap((j) => range(plan.first(j), plan.last(j)));
    push('sweep', 'offset_scan', [q, k, gap, starts, base]);
  }
  if (got.slow) push('slow', 'slow_pairs_batch', [dim, got.slow.datasets[0].data.map((p) => p.x), base]);
  push('slow_now', 'slow_pairs', [dim, gap, base]);
  const ref = reference(calls);
  const where = `(dim ${dim}, base ${base}, gap ${gap}, from ${from}, to ${to}, n ${n})`;

  if (got.angles) {
    const { labels, datasets } = got.angles;
    const expected = ref[at.angles];
    assert.equal(datasets[0].label, 'past one turn');
    assert.equal(datasets[1].label, 'under one turn');
    assert.deepEqual(
      labels,
      expected.map((_, i) => i),
      `chart-angles labels ${where}`,
    );
    assert.equal(datasets[0].data.length, dim / 2, `chart-angles has one bar per pair ${where}`);
    assert.equal(datasets[1].data.length, dim / 2);
    expected.forEach((want, i) => {
      const [fast, slow] = [datasets[0].data[i], datasets[1].data[i]];
      assert.ok((fast === null) !== (slow === null), `chart-angles pair ${i} is in exactly one dataset ${where}`);
      assertClose(fast ?? slow, want, `chart-angles pair ${i} ${where}`);
      // The split is by turns = angle / 2π; right at one turn either side is fine.
      if (Math.abs(want / TWO_PI - 1) > 1e-9) {
        assert.equal(
          fast !== null,
          want >= TWO_PI,
          `chart-angles pair ${i} coloured as ${fast !== null ? 'fast' : 'slow'} ${where}`,
        );
      }
    });
  }
  if (got.flatness) {
    const [ropeMax, ropeMin, addMax, addMin, marks] = got.flatness.datasets;
    assert.deepEqual(
      got.flatness.datasets.map((d) => d.label),
      ['RoPE', 'RoPE least', 'additive', 'additive least', 'report starts'],
    );
    for (const set of [ropeMax, ropeMin, addMax, addMin]) {
      assert.equal(set.data.length, plan.bins, `chart-flatness has min(starts, n) = ${plan.bins} points ${where}`);
    }
    ropeMax.data.forEach((p, j) => {
      assertClose(p.x, (plan.first(j) + plan.last(j)) / 2, `chart-flatness bin ${j} x ${where}`);
    });
    const scored = ref[at.sweep];
    let at0 = 0;
    for (const j of scoredBins) {
      const rows = scored.slice(at0, at0 + plan.last(j) - plan.first(j) + 1);
      at0 += rows.length;
      const what = `chart-flatness bin ${j} (starts ${plan.first(j)}..${plan.last(j)}) ${where}`;
      assertClose(ropeMax.data[j].y, Math.max(...rows.map((r) => r[1])), `${what}: greatest RoPE score`);
      assertClose(ropeMin.data[j].y, Math.min(...rows.map((r) => r[1])), `${what}: least RoPE score`);
      assertClose(addMax.data[j].y, Math.max(...rows.map((r) => r[2])), `${what}: greatest additive score`);
      assertClose(addMin.data[j].y, Math.min(...rows.map((r) => r[2])), `${what}: least additive score`);
    }
    const inRange = ref[at.report].filter(([s]) => s >= from && s <= to);
    assert.equal(marks.data.length, inRange.length, `report starts in [${from}, ${to}] ${where}`);
    marks.data.forEach((p, i) => {
      assert.equal(p.x, inRange[i][0], 'report start');
      assertClose(p.y, inRange[i][2], `additive score at report start ${p.x} ${where}`);
    });
  }
  if (got.slow) {
    const [curve, now] = got.slow.datasets;
    assert.deepEqual([curve.label, now.label], ['pairs not yet wrapped', 'current gap']);
    const xs = curve.data.map((p) => p.x);
    assert.ok(xs.length >= 10, 'chart-slow has a curve');
    assertClose(xs[0], 1, 'chart-slow starts at gap 1');
    assertClose(xs[xs.length - 1], 1e6, 'chart-slow ends at gap 1e6');
    const ratio = Math.log(xs[1] / xs[0]);
    xs.forEach((x, i) => {
      if (i > 0) {
        assert.ok(
          Math.abs(Math.log(x / xs[i - 1]) - ratio) < 1e-6 * Math.max(1, ratio) + 1e-9,
          `chart-slow x is log-spaced (point ${i}: ${xs[i - 1]} -> ${x})`,
        );
      }
    });
    assert.deepEqual(
      curve.data.map((p) => p.y),
      ref[at.slow],
      `chart-slow counts ${where}`,
    );
    if (gap < 1) {
      assert.deepEqual(now.data, [], `chart-slow current gap is empty below 1 ${where}`);
    } else {
      assert.equal(now.data.length, 1, 'chart-slow marks the current gap');
      assertClose(now.data[0].x, gap, 'chart-slow current gap x');
      assert.equal(now.data[0].y, ref[at.slow_now], `chart-slow current count ${where}`);
    }
  }
  return { charts: got, norm: ref[at.norm], normGaps: ref[at.norm_gaps], report: ref[at.report] };
}

// ---- numbers in text ----

/** Every number written in text, with the half-unit of its last digit. */
export function numbersIn(textValue) {
  const out = [];
  const re = /[-−]?\d+(?:\.\d+)?(?:e[-−+]?\d+)?/gi;
  for (const m of textValue.replace(/(\d),(\d{3})/g, '$1$2').matchAll(re)) {
    const token = m[0].replace(/−/g, '-');
    const value = Number(token);
    if (!Number.isFinite(value)) continue;
    const [mantissa, exponent = '0'] = token.toLowerCase().split('e');
    const decimals = mantissa.includes('.') ? mantissa.split('.')[1].length : 0;
    out.push({ value, half: 0.5 * 10 ** (Number(exponent) - decimals) });
  }
  return out;
}

/** True when text writes value, rounded to the digits the text shows. */
export function shows(textValue, value, slack = 0) {
  return numbersIn(textValue).some(
    ({ value: v, half }) => Math.abs(v - value) <= half * 1.000001 + slack + 1e-12 * Math.abs(value),
  );
}

export function assertShows(textValue, value, what, slack = 0) {
  assert.ok(shows(textValue, value, slack), `${what}: expected the number ${value} in "${textValue}"`);
}

const spread = (ys) => Math.max(...ys) - Math.min(...ys);

/** Captions and readout against what the chart data implies. */
export async function checkCaptions(page, state, checked) {
  const { charts } = checked;
  if (charts.angles && state.gap > 0) {
    const caption = await text(page, '#caption-angles');
    const angles = anglesOf(charts.angles);
    const slow = angles.filter((a) => a < TWO_PI).length;
    assertShows(caption, state.gap, '#caption-angles shows the gap');
    assertShows(caption, slow, '#caption-angles shows the number of slow pairs');
    if (slow < angles.length)
      assertShows(caption, angles.length - slow, '#caption-angles shows the pairs past one turn');
    assertShows(caption, angles[0], '#caption-angles shows the angle of pair 0');
  }
  if (charts.flatness) {
    const caption = await text(page, '#caption-flatness');
    const [ropeMax, ropeMin, addMax, addMin] = charts.flatness.datasets;
    const ys = (set) => set.data.map((p) => p.y);
    const ropeSpread = Math.max(...ys(ropeMax)) - Math.min(...ys(ropeMin));
    const addSpread = Math.max(...ys(addMax)) - Math.min(...ys(addMin));
    assertShows(caption, ropeSpread, '#caption-flatness shows the RoPE spread of the chart');
    assertShows(caption, addSpread, '#caption-flatness shows the additive spread of the chart');
    assertShows(
      caption,
      sweepBins(state.from, state.to, state.n).starts,
      '#caption-flatness shows the number of starts',
    );
    const reportAdd = spread(checked.report.map((r) => r[2]));
    assertShows(caption, reportAdd, "#caption-flatness shows the additive spread at the report's starts");
    assert.ok(ropeSpread < 1e-6 * addSpread, `RoPE spread ${ropeSpread} is not tiny next to ${addSpread}`);
  }
  if (charts.slow && state.gap >= 1) {
    const caption = await text(page, '#caption-slow');
    assertShows(caption, charts.slow.datasets[1].data[0].y, '#caption-slow shows the count at the current gap');
  }
  const readout = await text(page, '#norm-readout');
  assertShows(readout, checked.norm, '#norm-readout shows |q|');
  const maxGap = Math.max(...checked.normGaps);
  assert.ok(
    numbersIn(readout).some(({ value }) => Math.abs(value - maxGap) <= ABS_TOL),
    `#norm-readout shows the largest norm change (about ${maxGap}): "${readout}"`,
  );
}

// ---- controls ----

/** Types text into a box the way a user does, then leaves it (input + change). */
export async function typeInto(page, selector, value) {
  const box = page.locator(selector);
  const numeric = value.trim() !== '' && Number.isFinite(Number(value));
  if (numeric || (await box.getAttribute('type')) !== 'number') {
    await box.fill(value);
  } else {
    // A number box takes no letters: what reaches the page is the empty, invalid box.
    await box.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(value);
  }
  await box.press('Tab');
}

/** Types each { selector: text } into its box in order, waiting for the update after each. */
export async function typeEach(page, entries) {
  for (const [selector, value] of Object.entries(entries))
    await afterUpdate(page, () => typeInto(page, selector, value));
}
