// How <rope-scope> shares the host's main thread (issue #36: no long task of the element's): an
// element's drawing is split over several tasks (its DOM, the first element's Chart.js warm-up,
// its numbers and caption, its chart made in steps, shown once its chart is drawn), two elements never build in
// the same task, and an element far below the fold builds only once it nears the viewport.
// Nothing here is timed: a task counter tells tasks apart. A MessageChannel posts itself a
// message again and again, counting its tasks; what the element changes in its shadow root is
// recorded (a MutationObserver, whose callback runs in the task that made the change) with the
// count at that moment. Two changes with different counts were made in different tasks, as a
// message task ran between them; work done in one task shares one count.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useServerAndBrowser } from './harness.mjs';
import { blogHtml, openBlog } from './host.mjs';

const env = useServerAndBrowser();

// Runs in the post before its scripts. The element waits between its steps with scheduler.yield
// where the browser has it, whose continuations go before ordinary tasks (the counter's
// messages among them): without it the element waits with setTimeout, which lets a pending
// message run first, so every step boundary shows in the count.
function countTasks() {
  Object.defineProperty(window, 'scheduler', { value: undefined, configurable: true });
  let tick = 0;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    tick += 1;
    if (!window.stopCounting) channel.port2.postMessage(0);
  };
  channel.port2.postMessage(0);
  window.records = [];
  const kindOf = (m) => {
    const added = [...m.addedNodes].filter((n) => n.nodeType === 1);
    const removed = [...m.removedNodes].filter((n) => n.nodeType === 1);
    const scratch = (n) => n.localName === 'div' && n.querySelector('canvas:not([id])');
    if (m.type === 'childList' && added.some((n) => n.classList.contains('rs-body'))) return 'body';
    if (m.type === 'childList' && added.some(scratch)) return 'warm-in';
    if (m.type === 'childList' && removed.some(scratch)) return 'warm-out';
    if (m.type === 'childList' && m.target.id?.startsWith('caption-')) return 'caption';
    // Chart.js sizes its canvas (its aria-label comes with the caption).
    const sized = ['style', 'width', 'height'].includes(m.attributeName);
    if (sized && m.target.localName === 'canvas' && m.target.id.startsWith('chart-')) return 'chart';
    if (m.type === 'attributes' && m.target.classList?.contains('rs-body') && !m.target.style.visibility)
      return 'shown';
    return null;
  };
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    new MutationObserver((list) => {
      for (const m of list) {
        const kind = kindOf(m);
        if (!kind) continue;
        const record = { host: this.id, kind, tick, top: this.getBoundingClientRect().top, view: innerHeight };
        // Whether every chart's canvas has been drawn on when the figure is shown.
        if (kind === 'shown')
          record.painted = [...root.querySelectorAll('canvas[id^="chart-"]')].every((canvas) =>
            canvas
              .getContext('2d')
              .getImageData(0, 0, canvas.width, canvas.height)
              .data.some((byte, i) => i % 4 === 3 && byte > 0),
          );
        window.records.push(record);
      }
    }).observe(root, { childList: true, subtree: true, attributes: true });
    return root;
  };
}

/** The first record of each kind for element `id`: { kind: { tick, top, view } }. */
async function firstRecords(page, id) {
  const records = await page.evaluate((host) => window.records.filter((r) => r.host === host), id);
  const first = {};
  for (const r of records) first[r.kind] ??= r;
  return { first, ticks: new Set(records.map((r) => r.tick)) };
}

const shown = (page, id) =>
  page.waitForFunction((host) => window.records.some((r) => r.host === host && r.kind === 'shown'), id);

/** The element's build in order, each part in a later task than the one before; its chart is
 *  made in tasks of its own (sized in one, drawn in a later one), and the figure is shown only
 *  once its chart is drawn. */
function assertSplit(first, id, parts) {
  const all = [...parts, 'chart', 'shown'];
  for (const kind of all) assert.ok(first[kind], `${id}: ${kind} happened`);
  for (let i = 1; i < all.length; i++)
    assert.ok(
      first[all[i - 1]].tick < first[all[i]].tick,
      `${id}: ${all[i]} comes in a later task than ${all[i - 1]} (${JSON.stringify(first)})`,
    );
  assert.equal(first.shown.painted, true, `${id}: the figure is shown with its chart drawn`);
}

test('an_elements_drawing_should_be_split_over_tasks_one_element_at_a_time_and_wait_for_the_viewport', async () => {
  const body =
    '<h1>Three figures</h1>\n<rope-scope id="a" view="flatness"></rope-scope>\n<p>Between the two.</p>\n' +
    '<rope-scope id="b" view="slow"></rope-scope>\n<p style="height: 4000px">A long stretch of the post.</p>\n' +
    '<rope-scope id="c" view="cat"></rope-scope>\n<script src="/ropescope-embed.js" async></script>';
  const p = await openBlog(env.browser, blogHtml(body), { viewport: { width: 1000, height: 900 }, init: countTasks });
  const { page } = p;
  await shown(page, 'a');
  await shown(page, 'b');

  const a = await firstRecords(page, 'a');
  const b = await firstRecords(page, 'b');
  // The first element warms Chart.js up over tasks of its own before its numbers and its chart.
  assertSplit(a.first, 'a', ['body', 'warm-in', 'warm-out', 'caption']);
  assertSplit(b.first, 'b', ['body', 'caption']);
  assert.equal(b.first['warm-in'], undefined, 'b: Chart.js is warmed up once a page');
  assert.ok(a.ticks.size >= 5, `a: built over at least five tasks (${a.ticks.size})`);
  const shared = [...a.ticks].filter((tick) => b.ticks.has(tick));
  assert.deepEqual(shared, [], 'no task builds parts of both elements');
  assert.ok(a.first.shown.tick < b.first.body.tick, 'the elements are built one after the other');

  // The far element builds once it comes near the viewport (600 px ahead of it), not before.
  await page.locator('#c').scrollIntoViewIfNeeded();
  await shown(page, 'c');
  const c = await firstRecords(page, 'c');
  assertSplit(c.first, 'c', ['body', 'caption']);
  const { top, view } = c.first.body;
  assert.ok(top <= view + 600 + 1, `c: built when its top was within 600 px of the viewport (at ${top}, view ${view})`);
  await page.evaluate(() => {
    window.stopCounting = true;
  });
  await p.assertClean();
  await p.context.close();
});

// Runs in the post before its scripts: when the element's chart has been made (Chart.js sizes
// its canvas) but not yet drawn, the reader prints: beforeprint is sent then, between two of the
// build's tasks, and what the element shows right after it is recorded.
function printMidBuild() {
  window.printed = null;
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    const observer = new MutationObserver((list) => {
      const sized = list.some(
        (m) => m.type === 'attributes' && m.target.localName === 'canvas' && m.target.id.startsWith('chart-'),
      );
      if (!sized || window.printed) return;
      observer.disconnect();
      const canvas = root.querySelector('canvas[id^="chart-"]');
      const before = this.drawn;
      window.dispatchEvent(new Event('beforeprint'));
      window.printed = {
        before,
        drawn: this.drawn,
        shown: !root.querySelector('.rs-body').style.visibility,
        painted: canvas
          .getContext('2d')
          .getImageData(0, 0, canvas.width, canvas.height)
          .data.some((byte, i) => i % 4 === 3 && byte > 0),
      };
    });
    observer.observe(root, { subtree: true, attributes: true });
    return root;
  };
}

test('printing_while_an_element_draws_should_print_its_chart_whole', async () => {
  const body =
    '<h1>One figure</h1>\n<rope-scope view="slow"></rope-scope>\n<script src="/ropescope-embed.js" async></script>';
  const p = await openBlog(env.browser, blogHtml(body), {
    viewport: { width: 1000, height: 900 },
    init: printMidBuild,
  });
  const { page } = p;
  await page.waitForFunction(() => window.printed);
  const printed = await page.evaluate(() => window.printed);
  assert.deepEqual(
    printed,
    { before: false, drawn: true, shown: true, painted: true },
    'beforeprint between the chart being made and drawn ends the build: the chart is drawn and shown',
  );
  await p.assertClean();
  await p.context.close();
});
