// Accessibility: an axe-core audit (@axe-core/playwright) of an iframe embed with its options
// and of the <rope-scope> element on a host page: no serious or critical finding.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { openPage, settle, useServerAndBrowser, waitReady } from './harness.mjs';
import { blogHtml, openBlog } from './host.mjs';

const env = useServerAndBrowser();

async function audit(page, what) {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} -- ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
  assert.deepEqual(bad, [], `${what}: axe finds no serious or critical problem`);
  return result;
}

// The whole page is audited in both schemes by a11y.test.mjs.
test('embed_should_pass_axe', async () => {
  for (const query of ['?embed=1&view=flatness&controls=gap,dim,base', '?embed=1&theme=dark&title=0&controls=gap']) {
    const p = await openPage(env.browser, env.server.url + query, { viewport: { width: 700, height: 900 } });
    await waitReady(p.page, query.includes('view=') ? ['flatness'] : undefined);
    await audit(p.page, `the embed ${query}`);
    await p.close();
  }
});

test('element_should_pass_axe', async () => {
  const html = blogHtml(`<h1>A post</h1>
<rope-scope view="slow" controls="gap,base"></rope-scope>
<rope-scope view="angles" theme="dark"></rope-scope>
<script src="/ropescope-embed.js"></script>`);
  const p = await openBlog(env.browser, html, { viewport: { width: 800, height: 900 } });
  await p.page.waitForFunction(() =>
    [...document.querySelectorAll('rope-scope')].every(
      (el) =>
        el.drawn &&
        el.shadowRoot?.querySelector('canvas') &&
        customElements.get('rope-scope').Chart.getChart(el.shadowRoot.querySelector('canvas')),
    ),
  );
  await settle(p.page);
  await audit(p.page, 'the <rope-scope> elements');
  await p.assertClean();
  await p.context.close();
});
