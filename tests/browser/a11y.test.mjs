// An accessibility audit of the whole page with axe-core (@axe-core/playwright): every
// figure made and drawn, the explainer's controls and formulas in place, in the light and
// dark colour schemes. No serious or critical finding is allowed.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { mainFigures, openPage, useServerAndBrowser, waitReady } from './harness.mjs';

const env = useServerAndBrowser();

function describe(violations) {
  return violations
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n` +
        v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ')}`)
          .join('\n'),
    )
    .join('\n');
}

for (const scheme of ['light', 'dark']) {
  test(`axe_should_find_nothing_serious_on_the_whole_page_${scheme}`, async () => {
    const p = await openPage(env.browser, env.server.url);
    const { page } = p;
    await page.emulateMedia({ colorScheme: scheme });
    await waitReady(page, ['flatness']);
    await page.evaluate(() => window.ropescope.drawAll());
    await waitReady(page, await mainFigures(page));
    await page.waitForFunction(() => !document.querySelector('.formula-slot:empty'), null, { timeout: 10000 });
    // A bad typed value and a pending one: their messages are part of the page too.
    await page.fill('#gap-num', 'abc');
    await page.press('#gap-num', 'Enter');
    await page.fill('#to-num', '50');
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.equal(serious.length, 0, `axe (${scheme}) found:\n${describe(serious)}`);
    assert.ok(results.passes.length > 10, 'axe ran its rules');
    await p.close();
  });
}
