// The Chart.js parts each figure's chart uses (tools/chart_views.mjs), against what the charts on
// the page really use: a one-view embed script registers only its view's parts, and a part left
// out of the table would be missing there without a word (no tooltip without Tooltip). No part
// fills an area (charts/figure.js's areaFill does): a dataset with Chart.js's fill option fails.
// Then a sample of one-view embed documents (seeded: ROPE_TEST_SEED repeats it)
// draw with exactly their view's parts registered (and the element's warm-up chart's).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PART_IMPORTS, registeredParts, VIEW_PARTS } from '../../tools/chart_views.mjs';
import { FIGURE_NAMES } from '../../web/gen/figure_names.js';
import { rng, seed } from '../lib/testlib.mjs';
import { buildEverything, openPage, useServerAndBrowser, waitFrameDrawn } from './harness.mjs';

const env = useServerAndBrowser();
// What each part of tools/chart_views.mjs puts in Chart.js's registries, by their ids.
const REGISTERED = {
  bar: ['controllers:bar', 'elements:bar'],
  line: ['controllers:line', 'elements:line', 'elements:point'],
  matrix: ['controllers:matrix', 'elements:matrix'],
  category: ['scales:category'],
  linear: ['scales:linear'],
  logarithmic: ['scales:logarithmic'],
  tooltip: ['plugins:tooltip'],
};
const sorted = (list) => [...new Set(list)].sort();

test('every_chart_should_use_the_chart_js_parts_its_view_lists', async () => {
  assert.deepEqual(sorted(Object.keys(VIEW_PARTS)), sorted(FIGURE_NAMES), 'tools/chart_views.mjs lists every figure');
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  await page.waitForFunction(() => performance.getEntriesByName('ropescope:first-chart').length > 0);
  await buildEverything(page);
  // What each chart uses, read from Chart.js: its chart and dataset types, its scales' types,
  // a dataset filled (the Filler plugin's option, as the dataset's element resolved it) and the
  // tooltip on or off.
  const used = await page.evaluate(() =>
    Object.fromEntries(
      Object.values(window.Chart.instances).map((chart) => {
        const types = [chart.config.type, ...chart.data.datasets.map((d) => d.type).filter(Boolean)];
        const scales = Object.values(chart.scales).map((scale) => scale.type);
        const filled = chart.data.datasets.some((_, i) => {
          const fill = chart.getDatasetMeta(i).dataset?.options?.fill;
          return fill !== undefined && fill !== false && fill !== null;
        });
        const tooltip = chart.options.plugins?.tooltip?.enabled !== false;
        return [
          chart.canvas.id.replace(/^chart-/, ''),
          [...types, ...scales, ...(filled ? ['fill'] : []), ...(tooltip ? ['tooltip'] : [])],
        ];
      }),
    ),
  );
  assert.deepEqual(sorted(Object.keys(used)), sorted(FIGURE_NAMES), 'every figure on the page has its chart');
  for (const [view, parts] of Object.entries(used)) {
    assert.deepEqual(sorted(parts), sorted(VIEW_PARTS[view]), `${view}: the parts its chart uses`);
  }
  await p.close();
});

test('one_view_embeds_should_register_their_views_parts_alone_and_draw', async () => {
  assert.deepEqual(sorted(Object.keys(REGISTERED)), sorted(Object.keys(PART_IMPORTS)), 'every part is known here');
  const random = rng(seed('one-view Chart.js parts'));
  const views = [...FIGURE_NAMES].sort(() => random() - 0.5).slice(0, 3);
  console.log(`# one-view documents: ${views.join(' ')}`);
  const p = await openPage(env.browser, null, { viewport: { width: 700, height: 900 } });
  const { page } = p;
  for (const view of views) {
    await page.goto(`${env.server.url}embed/${view}.html`);
    await waitFrameDrawn(page);
    // The element's own Chart.js: the ids its registries hold ("controllers:bar", ...).
    const registered = await page.evaluate(() => {
      const { registry } = customElements.get('rope-scope').Chart;
      return ['controllers', 'elements', 'scales', 'plugins'].flatMap((kind) =>
        Object.keys(registry[kind].items).map((id) => `${kind}:${id}`),
      );
    });
    const want = registeredParts(view).flatMap((part) => REGISTERED[part]);
    assert.deepEqual(
      sorted(registered),
      sorted(want),
      `embed/${view}.html registers its view's parts and the warm-up chart's alone`,
    );
    await p.assertClean(`embed/${view}.html`);
  }
  await p.close();
});
