// The single-file builds opened straight from disk (file://, no server):
// dist/ropescope.html and dist/ropescope/index.html draw the same numbers as
// the reference, answer a slider, and log no errors. `make dist` writes them.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  afterUpdate,
  CHARTS,
  checkCaptions,
  checkCharts,
  DEFAULTS,
  launchBrowser,
  openPage,
  ROOT,
  typeInto,
  waitReady,
} from './harness.mjs';

let browser;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

for (const file of ['dist/ropescope.html', 'dist/ropescope/index.html']) {
  test(`${file}_should_work_from_file_urls`, async () => {
    const path = join(ROOT, file);
    assert.ok(existsSync(path), `${file} is missing (make dist writes it)`);
    const url = pathToFileURL(path).href;
    const p = await openPage(browser, url);
    const { page } = p;
    await waitReady(page);
    for (const id of CHARTS) assert.ok(await page.locator(`#chart-${id}`).isVisible(), `${file}: #chart-${id} visible`);
    let checked = await checkCharts(page, DEFAULTS);
    await checkCaptions(page, DEFAULTS, checked);

    await afterUpdate(page, () => page.fill('#gap', '2')); // log slider: gap 100
    let state = { ...DEFAULTS, gap: 100 };
    checked = await checkCharts(page, state);
    await checkCaptions(page, state, checked);

    await afterUpdate(page, () => page.fill('#dim', '256'));
    await afterUpdate(page, () => typeInto(page, '#base-num', '500000'));
    state = { ...state, dim: 256, base: 500000 };
    checked = await checkCharts(page, state);
    await checkCaptions(page, state, checked);

    // The file itself needs nothing else from disk or network.
    const external = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((name) => !name.startsWith('data:') && !name.startsWith('blob:')),
    );
    if (file === 'dist/ropescope.html') assert.deepEqual(external, [], `${file} loads no other file`);
    await p.close();
  });
}
