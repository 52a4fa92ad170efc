// The quick browser check of `make check`: the served page draws its first charts (the first
// chapter's, then the summary's as the reader reaches it) with finite numbers, and a one-view embed document draws its figure, each without a console error, page
// error or CSP violation. The full suites (make test-browser) test everything else.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPage, useServerAndBrowser, waitFrameDrawn } from './harness.mjs';

const env = useServerAndBrowser();

/** Every dataset value of every chart in root (a document or a shadow root) as numbers. */
const chartNumbers = (root, Chart) =>
  [...root.querySelectorAll('canvas')]
    .map((c) => Chart.getChart(c))
    .filter(Boolean)
    .flatMap((chart) =>
      chart.data.datasets.flatMap((ds) => Array.from(ds.data, (v) => (v !== null && typeof v === 'object' ? v.y : v))),
    );

test('the_page_should_draw_its_first_charts_with_finite_numbers', async () => {
  const p = await openPage(env.browser, env.server.url);
  await p.page.waitForFunction(
    () => performance.getEntriesByName('ropescope:first-chart').length > 0 && typeof window.Chart === 'function',
    null,
    { timeout: 20000 },
  );
  // The summary (the flatness figure, below the first screen) makes its chart as the reader nears it.
  await p.page.evaluate(() => document.getElementById('fig-flatness').scrollIntoView());
  await p.page.waitForFunction(() => window.Chart.getChart(document.getElementById('chart-flatness')), null, {
    timeout: 20000,
  });
  const numbers = await p.page.evaluate(`(${chartNumbers})(document, window.Chart)`);
  assert.ok(numbers.length > 100, `the first charts hold data (${numbers.length} values)`);
  const bad = numbers.filter((v) => v !== null && !Number.isFinite(v));
  assert.deepEqual(bad, [], 'no NaN or Infinity on a chart');
  await p.close();
});

test('a_one_view_embed_should_draw_its_figure', async () => {
  const p = await openPage(env.browser, `${env.server.url}embed/flatness.html?view=flatness`, {
    viewport: { width: 700, height: 900 },
  });
  await waitFrameDrawn(p.page);
  const numbers = await p.page.evaluate(
    `(${chartNumbers})(document.querySelector('rope-scope').shadowRoot, customElements.get('rope-scope').Chart)`,
  );
  assert.ok(numbers.length > 10, `the embed's chart holds data (${numbers.length} values)`);
  assert.deepEqual(
    numbers.filter((v) => v !== null && !Number.isFinite(v)),
    [],
    'no NaN or Infinity on the chart',
  );
  await p.close();
});
