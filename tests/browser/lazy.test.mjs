// The lazy page: a figure below the first screen is built (its section, its controls, its chart)
// only as the reader nears it, never at load; scrolling down builds each one before it can come
// into view; a link to a lower chapter (a fresh page, a #fragment followed on the page, Back)
// shows that chapter in its place with the state the link carries; printing builds every figure.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIGURE_NAMES } from '../../web/gen/figure_names.js';
import { openPage, settle, useServerAndBrowser } from './harness.mjs';

const env = useServerAndBrowser();

/** The figures on the page now, and those whose chart is made. */
const builtNow = (page) =>
  page.evaluate(() => {
    const figures = [...document.querySelectorAll('figure.fig')].map((fig) => fig.dataset.view);
    const charts = figures.filter((name) => window.Chart.getChart(document.getElementById(`chart-${name}`)));
    return { figures, charts };
  });

async function loaded(page) {
  await page.waitForFunction(() => performance.getEntriesByName('ropescope:first-chart').length > 0, null, {
    timeout: 30000,
  });
  // The first paint's work and a few frames after it: what the page builds without a reader.
  await settle(page);
  await page.waitForTimeout(500);
  await settle(page);
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  const size = `${viewport.width}x${viewport.height}`;
  test(`figures below the fold should be built only as the reader nears them at ${size}`, async () => {
    const p = await openPage(env.browser, env.server.url, { viewport });
    try {
      const { page } = p;
      await loaded(page);
      const atLoad = await builtNow(page);
      // What the first screen holds (the first chapter, the summary) and what lies within a screen
      // below it; never the chapters further down, the going-deeper figures or the long-context ones.
      assert.ok(atLoad.figures.includes('order'), `the first chapter is built: ${atLoad.figures}`);
      assert.ok(
        atLoad.figures.length <= 6,
        `at load only the figures within a screen of the first are built, not ${atLoad.figures.join(', ')}`,
      );
      for (const name of ['clock', 'post', 'circle', 'heatmap', 'range', 'temperature']) {
        assert.ok(!atLoad.figures.includes(name), `${name} is far below the fold: built at load`);
      }
      // Each built at load (but the first chapter and the summary, which the first screen's layout
      // is built around) began, with its opening paragraphs, within a screen below the viewport.
      const far = await page.evaluate(
        (names) => {
          const limit = 2 * window.innerHeight;
          return names.filter((name) => {
            const start = document.getElementById(`essay-${name}`) ?? document.getElementById(`fig-${name}`);
            return start.getBoundingClientRect().top > limit;
          });
        },
        atLoad.figures.filter((name) => name !== 'order' && name !== 'flatness'),
      );
      assert.deepEqual(far, [], 'a figure built at load begins more than a screen below the viewport');
      // Scrolling down a screen at a time: no figure is missing where the reader can see (the
      // lesson's end, or a long-context figure's place, comes into view only once every figure
      // before it is built), and each chart on screen is made.
      for (let step = 0; step < 200; step++) {
        const seen = await page.evaluate(() => {
          window.scrollBy(0, window.innerHeight);
          return new Promise((r) =>
            requestAnimationFrame(() =>
              requestAnimationFrame(() =>
                setTimeout(() => {
                  const built = new Set([...document.querySelectorAll('figure.fig')].map((f) => f.dataset.view));
                  const end = document.getElementById('lesson-end').previousElementSibling.getBoundingClientRect();
                  const bottom = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
                  r({ built: [...built], endInView: end.bottom < window.innerHeight, bottom });
                }, 0),
              ),
            ),
          );
        });
        if (seen.endInView) {
          const lesson = FIGURE_NAMES.slice(0, FIGURE_NAMES.indexOf('heatmap') + 1);
          const missing = lesson.filter((name) => !seen.built.includes(name));
          assert.deepEqual(missing, [], `the lesson's end is in view with figures not built (step ${step})`);
        }
        if (seen.bottom) break;
      }
      await settle(page);
      const atEnd = await builtNow(page);
      assert.deepEqual([...atEnd.figures].sort(), [...FIGURE_NAMES].sort(), 'every figure built once read through');
      await p.assertClean();
    } finally {
      await p.close();
    }
  });
}

test('a link to a lower chapter should open at that chapter, in its state, and print every figure', async () => {
  const p = await openPage(env.browser, `${env.server.url}?clock.gap=70000#fig-clock`);
  try {
    const { page } = p;
    await loaded(page);
    const clock = await page.evaluate(() => {
      const fig = document.getElementById('fig-clock');
      return {
        top: fig.getBoundingClientRect().top,
        gap: document.getElementById('clock-gap-num')?.value ?? document.getElementById('clock-gap')?.value,
        chart: Boolean(window.Chart.getChart(document.getElementById('chart-clock'))),
        caption: document.getElementById('caption-clock').textContent,
      };
    });
    assert.ok(Math.abs(clock.top) <= 2, `the linked chapter is at the top of the window, not at ${clock.top}`);
    assert.ok(clock.chart, 'the linked chapter has drawn its chart');
    assert.equal(clock.gap, '70000', "the linked chapter shows the link's gap");
    assert.ok(clock.caption.length > 0, 'the linked chapter has its caption');
    const { figures } = await builtNow(page);
    assert.ok(!figures.includes('temperature'), 'figures far below the linked chapter are not built');

    // A #fragment followed on the page, to a figure not built yet: built and scrolled to; Back
    // returns to the chapter it left.
    const before = await page.evaluate(() => window.scrollY);
    await page.evaluate(() => {
      window.location.hash = '#fig-layout';
    });
    await page.waitForFunction(() => {
      const fig = document.getElementById('fig-layout');
      return fig && Math.abs(fig.getBoundingClientRect().top) <= 2;
    });
    await page.goBack();
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) <= 2, before);

    // Printing: every figure built and every chart drawn first.
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    const printed = await builtNow(page);
    assert.deepEqual([...printed.figures].sort(), [...FIGURE_NAMES].sort(), 'every figure built for printing');
    assert.deepEqual([...printed.charts].sort(), [...FIGURE_NAMES].sort(), 'every chart made for printing');
    await p.assertClean();
  } finally {
    await p.close();
  }
});
