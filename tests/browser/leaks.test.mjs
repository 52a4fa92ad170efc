// Nothing built for a view outlives it (issue 22, item 6): 300 attribute changes of one
// <rope-scope> (view angles <-> flatness <-> a view that is no figure), view="all" left for one
// figure, and 60 elements created and removed, leave the page's DOM nodes and event listeners where they were (Chromium's own
// counters, Memory.getDOMCounters, after a forced garbage collection).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { settle, useServerAndBrowser } from './harness.mjs';
import { blogHtml, openBlog } from './host.mjs';

const env = useServerAndBrowser();

// DOM nodes and JS event listeners of the page after a full garbage collection.
async function counters(cdp) {
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  const { nodes, jsEventListeners } = await cdp.send('Memory.getDOMCounters');
  return { nodes, listeners: jsEventListeners };
}

// Listeners on window itself (print and colour-scheme watchers live there).
async function windowListeners(cdp) {
  const { result } = await cdp.send('Runtime.evaluate', { expression: 'window' });
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
  await cdp.send('Runtime.releaseObject', { objectId: result.objectId });
  return listeners.length;
}

// Resolves once the element #e has a chart on each of its canvases (or, for a view that is no
// figure, its one line).
const drawn = (page) =>
  page.waitForFunction(
    () => {
      const el = document.getElementById('e');
      const Chart = customElements.get('rope-scope')?.Chart;
      const canvases = [...(el?.shadowRoot?.querySelectorAll('canvas') ?? [])];
      if (Chart && el?.getAttribute('view') === 'nonsense') {
        return /^No figure shown/.test(el.shadowRoot?.querySelector('.notice p')?.textContent ?? '');
      }
      return Chart && canvases.length > 0 && canvases.every((c) => Chart.getChart(c));
    },
    null,
    { timeout: 20000 },
  );

/** A mock post with one <rope-scope view="flatness">: the page and a CDP session to count with. */
async function openFlatnessElement() {
  const p = await openBlog(
    env.browser,
    blogHtml(`<rope-scope id="e" view="flatness"></rope-scope>
<script src="/ropescope-embed.js"></script>`),
  );
  return { p, page: p.page, cdp: await p.page.context().newCDPSession(p.page) };
}

test('attribute_changes_should_leave_dom_nodes_and_listeners_flat', async () => {
  const { p, page, cdp } = await openFlatnessElement();
  await drawn(page);
  // Views of one figure each: view="all" (every figure, 26 times the work) is left once in the
  // next test, which finds what it leaves behind without 75 rounds of it.
  const views = ['angles', 'flatness', 'nonsense', 'flatness'];
  const change = async (from, to) => {
    for (let i = from; i < to; i++) {
      await page.evaluate((view) => document.getElementById('e').setAttribute('view', view), views[i % views.length]);
      await drawn(page);
    }
  };
  await change(0, 20);
  await settle(page);
  const before = { ...(await counters(cdp)), window: await windowListeners(cdp) };
  await change(20, 300);
  await settle(page);
  const after = { ...(await counters(cdp)), window: await windowListeners(cdp) };
  console.log(`after 20 changes: ${JSON.stringify(before)}; after 300: ${JSON.stringify(after)}`);
  // The same view as at the first count (300 and 20 are both multiples of the cycle).
  assert.ok(after.nodes <= before.nodes + 50, `DOM nodes grew from ${before.nodes} to ${after.nodes}`);
  assert.ok(after.listeners <= before.listeners + 10, `listeners grew from ${before.listeners} to ${after.listeners}`);
  assert.equal(after.window, before.window, 'listeners on window');
  await p.close();
});

// Issue #35: after view="all" went back to flatness, 2,443 DOM nodes and 141 listeners of the
// old figures stayed, held by what the lesson chapters and the precision figure keep per page
// (each drawing's canvas, readouts, sliders) until that figure was drawn again.
test('a_view_left_should_leave_none_of_its_dom_nodes_or_listeners', async () => {
  const { p, page, cdp } = await openFlatnessElement();
  const show = async (view) => {
    await page.evaluate((v) => document.getElementById('e').setAttribute('view', v), view);
    await drawn(page);
    await settle(page);
  };
  await drawn(page);
  await show('angles');
  await show('flatness');
  const before = await counters(cdp);
  await show('all');
  const during = await counters(cdp);
  await show('flatness');
  const after = await counters(cdp);
  console.log(
    `flatness: ${JSON.stringify(before)}; all: ${JSON.stringify(during)}; flatness again: ${JSON.stringify(after)}`,
  );
  assert.ok(during.nodes > before.nodes + 1000, 'view="all" builds every figure');
  assert.ok(after.nodes <= before.nodes + 50, `DOM nodes: ${before.nodes} before view="all", ${after.nodes} after`);
  assert.ok(
    after.listeners <= before.listeners + 10,
    `listeners: ${before.listeners} before view="all", ${after.listeners} after`,
  );
  await p.close();
});

test('elements_created_and_removed_should_leave_no_listeners', async () => {
  const p = await openBlog(env.browser, blogHtml('<div id="slot"></div><script src="/ropescope-embed.js"></script>'));
  const { page } = p;
  const cdp = await page.context().newCDPSession(page);
  const cycle = (n) =>
    page.evaluate(async (count) => {
      for (let i = 0; i < count; i++) {
        const el = document.createElement('rope-scope');
        el.id = 'e';
        el.setAttribute('view', i % 2 ? 'angles' : 'flatness');
        document.getElementById('slot').append(el);
        await new Promise((r) => requestAnimationFrame(r));
        el.remove();
      }
    }, n);
  await page.waitForFunction(() => customElements.get('rope-scope'));
  await cycle(10);
  await settle(page);
  const before = { ...(await counters(cdp)), window: await windowListeners(cdp) };
  await cycle(60);
  await settle(page);
  const after = { ...(await counters(cdp)), window: await windowListeners(cdp) };
  console.log(`after 10 elements: ${JSON.stringify(before)}; after 70: ${JSON.stringify(after)}`);
  assert.ok(after.nodes <= before.nodes + 50, `DOM nodes grew from ${before.nodes} to ${after.nodes}`);
  assert.ok(after.listeners <= before.listeners + 10, `listeners grew from ${before.listeners} to ${after.listeners}`);
  assert.equal(after.window, before.window, 'listeners on window');
  await p.close();
});
