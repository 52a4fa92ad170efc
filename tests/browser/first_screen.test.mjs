// The first screen and the phone's controls: figure 1's plot and its gap, dim and base sliders
// inside the first viewport (desktop 1280x900 beside each other; phone 390x844 the plot), and on
// the phone every control of the lesson reachable without a box that scrolls inside itself,
// Play on one line, formulas inside their own box, nothing past the right edge.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPage, settle, useServerAndBrowser, waitReady } from './harness.mjs';

const env = useServerAndBrowser();
const SLIDERS = ['gap', 'dim', 'base'];

/** Figure 1's canvas and plot area, and each main slider's and box's box, at the scroll top. */
function firstScreen(page) {
  return page.evaluate((sliders) => {
    const rect = (el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    };
    // Seen and not covered: the element itself is what is under its centre.
    const hit = (el) => {
      const r = el.getBoundingClientRect();
      return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === el;
    };
    const canvas = document.getElementById('chart-flatness');
    const area = window.Chart.getChart(canvas).chartArea;
    const box = rect(canvas);
    return {
      scrollY: window.scrollY,
      viewport: [innerWidth, innerHeight],
      canvas: box,
      plot: {
        top: box.top + area.top,
        bottom: box.top + area.bottom,
        left: box.left + area.left,
        right: box.left + area.right,
      },
      title: rect(document.querySelector('h1')),
      guide: { ...rect(document.getElementById('guide')), open: document.getElementById('guide').open },
      controls: Object.fromEntries(
        sliders.flatMap((name) =>
          [name, `${name}-num`].map((id) => {
            const el = document.getElementById(id);
            return [id, { ...rect(el), hit: hit(el) }];
          }),
        ),
      ),
    };
  }, SLIDERS);
}

const inside = (r, [w, h]) => r.top >= 0 && r.left >= 0 && r.bottom <= h && r.right <= w;

for (const scheme of ['light', 'dark']) {
  test(`first_screen_should_hold_figure_1_and_its_sliders_at_1280x900_${scheme}`, async () => {
    const p = await openPage(env.browser, env.server.url);
    await p.page.emulateMedia({ colorScheme: scheme });
    await waitReady(p.page, ['flatness']);
    await settle(p.page);
    const got = await firstScreen(p.page);
    const seen = JSON.stringify(got);
    assert.equal(got.scrollY, 0);
    assert.ok(inside(got.canvas, got.viewport), `figure 1's whole chart is in the first viewport: ${seen}`);
    assert.ok(got.title.bottom <= got.canvas.top, 'the title comes first');
    for (const [id, box] of Object.entries(got.controls)) {
      assert.ok(inside(box, got.viewport) && box.hit, `#${id} is in the first viewport, uncovered: ${seen}`);
      // Beside the chart: to its left, level with the figure.
      assert.ok(box.right < got.plot.left, `#${id} sits beside the chart: ${seen}`);
      assert.ok(box.top < got.canvas.bottom, `#${id} is level with the chart: ${seen}`);
    }
    assert.ok(!got.guide.open && got.guide.top >= got.canvas.bottom, 'the reading guide is closed, below figure 1');
    await p.close();
  });
}

test('first_screen_should_hold_figure_1s_plot_and_the_slider_bar_at_390x844', async () => {
  const p = await openPage(env.browser, env.server.url, { viewport: { width: 390, height: 844 } });
  await waitReady(p.page, ['flatness']);
  await settle(p.page);
  const got = await firstScreen(p.page);
  const seen = JSON.stringify(got);
  assert.ok(inside(got.canvas, got.viewport), `figure 1's whole chart is on the first screen: ${seen}`);
  for (const [id, box] of Object.entries(got.controls)) {
    assert.ok(inside(box, got.viewport) && box.hit, `#${id} is on the first screen, uncovered: ${seen}`);
    assert.ok(box.bottom <= got.canvas.top, `#${id} is in the bar above the chart: ${seen}`);
  }
  await p.close();
});

test('phone_controls_should_be_reachable_without_a_scrolling_strip', async () => {
  const p = await openPage(env.browser, env.server.url, { viewport: { width: 390, height: 844 } });
  const { page } = p;
  await waitReady(page, ['flatness']);
  await page.evaluate(() => window.ropescope.drawAll());
  await settle(page);
  // The lesson's controls (the tools after it have their own, tested with their part).
  const ids = await page.evaluate(() => {
    const all = [...document.querySelectorAll('#lesson :is(input, select, button, textarea, summary)')];
    return all.map((el, i) => {
      if (!el.id) el.id = `ctl-${i}`;
      return el.id;
    });
  });
  assert.ok(ids.length > 20, `the lesson has its controls: ${ids.length}`);
  const stuck = [];
  for (const id of ids) {
    await page.evaluate((x) => document.getElementById(x).scrollIntoView({ block: 'center' }), id);
    await settle(page);
    const got = await page.evaluate((x) => {
      const el = document.getElementById(x);
      const r = el.getBoundingClientRect();
      // Any ancestor that scrolls inside itself (a strip) holding the control.
      let strip = null;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const { overflowY } = getComputedStyle(a);
        if (/(auto|scroll)/.test(overflowY) && a.scrollHeight > a.clientHeight + 1) strip = a.className || a.id;
      }
      const under = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return {
        strip,
        hit: under === el || el.contains(under) || (el.labels && [...el.labels].includes(under)),
        inside: r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth,
        size: [r.width, r.height],
      };
    }, id);
    if (got.strip || !got.hit || !got.inside) stuck.push(`${id} ${JSON.stringify(got)}`);
  }
  assert.deepEqual(stuck, [], 'every control scrolls into view uncovered, in no scrolling strip');

  const layout = await page.evaluate(() => {
    const play = document.getElementById('play');
    const range = document.createRange();
    range.selectNodeContents(play);
    const lineHeight = parseFloat(getComputedStyle(play).lineHeight) || 20;
    return {
      playLines: Math.round(range.getBoundingClientRect().height / lineHeight),
      scrollWidth: document.documentElement.scrollWidth,
      // A formula is inside its own box, or that box scrolls sideways.
      formulas: [...document.querySelectorAll('#lesson :is(.formula, math)')]
        .filter((f) => {
          const box = f.closest('.formulas, .method, .caption, p, dd') ?? document.body;
          const b = box.getBoundingClientRect();
          const r = f.getBoundingClientRect();
          const scrolls = /(auto|scroll)/.test(getComputedStyle(box).overflowX);
          return !scrolls && (r.right > b.right + 1 || r.right > innerWidth + 1);
        })
        .map((f) => f.textContent.slice(0, 40)),
      // Text cut: a box narrower than its text that hides the rest.
      cut: [...document.querySelectorAll('#lesson :is(label, legend, h2, h3, p, li, dt, dd, button, summary)')]
        .filter(
          (el) =>
            el.getClientRects().length > 0 &&
            getComputedStyle(el).overflowX !== 'visible' &&
            el.scrollWidth > el.clientWidth + 1,
        )
        .map((el) => el.id || el.textContent.slice(0, 40)),
      guide: document.getElementById('guide').textContent,
    };
  });
  assert.equal(layout.playLines, 1, 'Play reads on one line');
  assert.ok(layout.scrollWidth <= 390, `no sideways scrolling (${layout.scrollWidth} px)`);
  assert.deepEqual(layout.formulas, [], 'formulas stay inside their box');
  assert.deepEqual(layout.cut, [], 'no text is cut');
  assert.doesNotMatch(layout.guide, /on the left/, 'the guide does not point to the left on a phone');
  await p.close();
});

test('phone_slider_bar_should_step_aside_for_the_chapters_and_return_for_its_figures', async () => {
  const p = await openPage(env.browser, env.server.url, { viewport: { width: 390, height: 844 } });
  const { page } = p;
  await waitReady(page, ['flatness']);
  await page.evaluate(() => window.ropescope.drawAll());
  const bar = () => page.evaluate(() => document.querySelector('.panel-main').getBoundingClientRect().toJSON());
  const scrollTo = (view) =>
    page.evaluate(
      (v) => document.querySelector(`figure.fig[data-view="${v}"]`).scrollIntoView({ block: 'start' }),
      view,
    );
  const barAt = (where) =>
    page.waitForFunction(
      (w) => {
        const r = document.querySelector('.panel-main').getBoundingClientRect();
        return w === 'away' ? r.bottom <= 0 : r.top === 0 && r.height > 100;
      },
      where,
      { timeout: 15000 },
    );
  // A chapter: its inputs are its own, and the bar leaves the top of the screen to it.
  await scrollTo('cat');
  await barAt('away');
  const heading = await page.evaluate(() => {
    const h = document.querySelector('figure.fig[data-view="cat"] h2, figure.fig[data-view="cat"] h3');
    const r = h.getBoundingClientRect();
    return h.contains(document.elementFromPoint(r.left + 10, r.top + r.height / 2));
  });
  assert.ok(heading, `the chapter's heading is uncovered (bar at ${JSON.stringify(await bar())})`);
  // A figure that reads gap, dim and base: the bar is back at the top.
  await scrollTo('circle');
  await barAt('shown');
  // Back in a chapter, a key taking the focus into the bar brings it back.
  await scrollTo('weights');
  await barAt('away');
  await page.focus('#gap-num');
  await barAt('shown');
  await p.close();
});
