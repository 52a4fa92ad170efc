// Bounded page input (issue 22, item 6): a link with 70,000 parameters still draws every
// chart, and its notice says the link was cut plus a handful of problems and "… and N more";
// an element with many bad attributes lists a handful too.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NOTICE_LINES } from '../../web/src/lib/dom.js';
import { MAX_LINK_PARAMS } from '../../web/src/state/state.js';
import { openPage, settle, useServerAndBrowser, waitReady } from './harness.mjs';
import { blogHtml, openBlog } from './host.mjs';

const env = useServerAndBrowser();

test('a_link_with_70000_parameters_should_draw_the_page_with_a_short_notice', async () => {
  const query = ['dim=32', ...Array.from({ length: 70000 }, (_, i) => `p${i}=${i}`)].join('&');
  const p = await openPage(env.browser, null);
  // A real server refuses a 600 KB request line (Node's header limit is 16 KB): the page itself
  // is fetched at its short address and handed to the browser under the long one.
  await p.page.route(
    (url) => url.search.length > 10000,
    async (route) => {
      const response = await route.fetch({ url: env.server.url });
      await route.fulfill({ response });
    },
  );
  await p.page.goto(`${env.server.url}?${query}`);
  await waitReady(p.page);
  const lines = await p.page.locator('#notice p').allInnerTexts();
  assert.equal(lines.length, NOTICE_LINES + 1, lines.join('\n'));
  assert.equal(lines[0], `The link has 70001 parameters; only the first ${MAX_LINK_PARAMS} were read.`);
  assert.equal(lines[1], "Link parameter ignored: 'p0' is not a setting.");
  assert.equal(lines[NOTICE_LINES], `… and ${MAX_LINK_PARAMS - 1 - (NOTICE_LINES - 1)} more problems.`);
  assert.equal(await p.page.inputValue('#dim-num'), '32', 'the settings before the cut are applied');
  await p.close();
});

test('an_element_with_many_bad_attributes_should_list_a_handful', async () => {
  const bad = [
    'dim="3"',
    'base="x"',
    'gap="-1"',
    'from="y"',
    'to="z"',
    'n="1"',
    'seed="q"',
    'pair="w"',
    'qm="e"',
    'kn="r"',
    'lock="2"',
  ].join(' ');
  const p = await openBlog(
    env.browser,
    blogHtml(`<rope-scope id="e" view="angles" ${bad}></rope-scope>
<script src="/ropescope-embed.js"></script>`),
  );
  await p.page.waitForFunction(() => document.getElementById('e')?.shadowRoot?.querySelector('.notice p'));
  await settle(p.page);
  const lines = await p.page.evaluate(() =>
    [...document.getElementById('e').shadowRoot.querySelectorAll('.notice p')].map((node) => node.textContent),
  );
  assert.equal(lines.length, NOTICE_LINES + 1, lines.join('\n'));
  assert.match(lines[0], /^Attribute ignored: dim must be/);
  assert.equal(lines[NOTICE_LINES], '… and 3 more problems.');
  await p.close();
});

// Every setting at its extreme at once (dim 1024, from 0 to 65536, 4096 points): each figure
// is drawn, with no notice (the envelope's own work limit, docs/SPEC.md "Limits").
test('the_widest_settings_should_draw_every_figure_without_a_notice', async () => {
  const p = await openPage(env.browser, `${env.server.url}?dim=1024&from=0&to=65536&n=4096`);
  await waitReady(p.page);
  await p.page.evaluate(() => window.ropescope.drawAll());
  await settle(p.page);
  const notice = (await p.page.locator('#notice').innerText()).trim();
  assert.equal(notice, '', `no notice: ${notice}`);
  assert.equal(await p.page.inputValue('#dim-num'), '1024');
  assert.equal(await p.page.inputValue('#to-num'), '65536');
  await p.close(); // and no console error, page error or CSP violation
});
