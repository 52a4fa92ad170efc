// The first screen and the phone's controls: the first viewport (desktop 1280x900, phone
// 390x844, light and dark) names the blog post the page companions, poses its question and shows
// the live miniature of the answer (the post's cat at 3 and 7, then both moved: RoPE's score kept,
// the additive one drifting), its numbers the core's after a seeded random drag of its slider,
// and its plot (both scores over the slider's range, the slider's shift marked) drawn from them;
// the first chapter follows, with no gap, dim or base slider on screen (they drive none of it);
// the summary (the flatness figure) comes after the proof, its sliders beside it (desktop) or in
// the bar above it (phone); on the phone every control of the lesson is reachable without a box
// that scrolls inside itself, Play on one line, formulas inside their own box, nothing past the
// right edge.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lesson_cat, ready } from '../../web/src/core/rope.js';
import { rng, seed } from '../lib/testlib.mjs';
import { close, openPage, settle, useServerAndBrowser, waitReady } from './harness.mjs';

const env = useServerAndBrowser();
const SLIDERS = ['gap', 'dim', 'base'];

/** The summary's canvas and plot area, the first chapter's and the proof's boxes, and each main
 *  slider's and box's box (hit: seen and uncovered), where the page is scrolled now. */
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
      chapter: rect(document.getElementById('essay-order')),
      proof: rect(document.getElementById('fig-proof')),
      summary: rect(document.getElementById('essay-flatness')),
      controls: Object.fromEntries(
        sliders.flatMap((name) =>
          [name, `${name}-num`].map((id) => {
            const el = document.getElementById(id);
            const seen = el.getClientRects().length > 0;
            const r = rect(el);
            const onScreen = seen && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
            return [id, { ...r, hit: seen && hit(el), onScreen }];
          }),
        ),
      ),
    };
  }, SLIDERS);
}

const inside = (r, [w, h]) => r.top >= 0 && r.left >= 0 && r.bottom <= h && r.right <= w;

const SEED = seed('first screen (browser)');
const random = rng(SEED);
const POST = 'The Mark That Tells a Transformer Where It Is';

/** The miniature as shown: its box, each score cell (text, data-value, seen), the positions and
 *  its plot (each line's points and marker dot, the marker's x, its box and accessible name). */
function miniature(page) {
  return page.evaluate(() => {
    const mini = document.getElementById('mini');
    const cell = (id) => {
      const el = document.getElementById(id);
      const r = el.getBoundingClientRect();
      const under = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return { text: el.textContent, value: Number(el.dataset.value), seen: el === under || el.contains(under) };
    };
    const r = mini.getBoundingClientRect();
    const svg = document.getElementById('mini-plot');
    const line = (name) => ({
      points: svg
        .querySelector(`polyline.${name}`)
        .getAttribute('points')
        .split(' ')
        .map((pair) => pair.split(',').map(Number)),
      dot: ['cx', 'cy'].map((key) => Number(svg.querySelector(`circle.${name}`).getAttribute(key))),
    });
    const plotBox = svg.getBoundingClientRect();
    return {
      box: { top: r.top, bottom: r.bottom, left: r.left, right: r.right },
      plot: {
        rope: line('spark-rope'),
        add: line('spark-add'),
        rule: Number(svg.querySelector('.spark-rule').getAttribute('x1')),
        box: { top: plotBox.top, bottom: plotBox.bottom, left: plotBox.left, right: plotBox.right },
        name: document.getElementById(svg.getAttribute('aria-labelledby')).textContent,
        role: svg.getAttribute('role'),
      },
      shift: Number(document.getElementById('mini-shift').value),
      rows: [...mini.querySelectorAll('tbody th')].map((th) => th.textContent),
      title: mini.querySelector('h2').textContent,
      cells: Object.fromEntries(['rope', 'add', 'rope2', 'add2'].map((id) => [id, cell(`mini-${id}`)])),
      header: document.querySelector('.site-header').textContent.replace(/\s+/g, ' '),
    };
  });
}

/** The miniature's numbers equal the core's for the cat at 3 and 7 and at 3 + s and 7 + s. */
async function checkMiniature(got) {
  await ready();
  const cat = [0.9, 0.4];
  const want = {
    rope: lesson_cat(cat, cat, 3, 7, 0.1).direct,
    add: lesson_cat(cat, cat, 3, 7, 0.1).added,
    rope2: lesson_cat(cat, cat, 3 + got.shift, 7 + got.shift, 0.1).direct,
    add2: lesson_cat(cat, cat, 3 + got.shift, 7 + got.shift, 0.1).added,
  };
  assert.ok(close(want.rope, 0.8934, 5e-5), `the core gives the post's 0.8934 (${want.rope})`);
  for (const [id, value] of Object.entries(want)) {
    const shown = got.cells[id];
    assert.ok(close(shown.value, value), `#mini-${id} holds the core's ${value}: ${JSON.stringify(shown)}`);
    assert.equal(shown.text, value.toFixed(4).replace('-', '−'), `#mini-${id} shows it to 4 decimals`);
  }
  assert.deepEqual(got.rows, ['3 and 7', `${3 + got.shift} and ${7 + got.shift}`]);
  assert.ok(close(want.rope2, want.rope), 'RoPE keeps the score when both words move');
  checkPlot(got, cat);
}

/** The plot draws the core's two scores at every shift 0..60 and marks the slider's. Its y is
 *  the score scaled: each line's points lie on one straight map from score to y (to the 0.1 px
 *  the plot rounds to), higher scores higher up, and the RoPE line is flat. */
function checkPlot(got, cat) {
  const { plot, shift } = got;
  const shifts = Array.from({ length: 61 }, (_, s) => s);
  const scores = shifts.map((s) => lesson_cat(cat, cat, 3 + s, 7 + s, 0.1));
  const add = scores.map((x) => x.added);
  const rope = scores.map((x) => x.direct);
  for (const [name, line] of Object.entries({ rope: plot.rope, add: plot.add })) {
    assert.equal(line.points.length, 61, `the ${name} line has a point per shift 0..60`);
    const xs = line.points.map(([x]) => x);
    assert.ok(
      xs.every((x, i) => i === 0 || x > xs[i - 1]),
      `the ${name} line runs left to right`,
    );
    assert.deepEqual(line.dot, line.points[shift], `the ${name} dot sits on its line at the shift ${shift}`);
  }
  assert.equal(plot.rule, plot.add.points[shift][0], 'the marker stands at the slider’s shift');
  // The map from score to y, from the added line's highest and lowest points.
  const [hi, lo] = [add.indexOf(Math.max(...add)), add.indexOf(Math.min(...add))];
  const [yHi, yLo] = [plot.add.points[hi][1], plot.add.points[lo][1]];
  assert.ok(yHi < yLo, 'a higher score is drawn higher');
  const y = (v) => yLo + ((yHi - yLo) * (v - add[lo])) / (add[hi] - add[lo]);
  for (const [name, values] of [
    ['add', add],
    ['rope', rope],
  ]) {
    values.forEach((v, i) => {
      const drawn = plot[name].points[i][1];
      assert.ok(
        Math.abs(drawn - y(v)) <= 0.15,
        `${name} at shift ${i}: the core's ${v} drawn at y ${drawn}, want ${y(v)}`,
      );
    });
  }
  assert.equal(new Set(plot.rope.points.map(([, py]) => py)).size, 1, 'the RoPE line is flat');
  assert.equal(plot.role, 'img');
  assert.match(
    plot.name,
    new RegExp(`Marked: moved by ${shift}, RoPE 0\\.8934`),
    `the plot's name says what is marked: ${plot.name}`,
  );
}

/** Drags the miniature's slider to a seeded random point of its track with the mouse. */
async function dragMiniature(page) {
  const box = await page.locator('#mini-shift').boundingBox();
  const y = box.y + box.height / 2;
  const to = box.x + 4 + random() * (box.width - 8);
  await page.mouse.move(box.x + box.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(to, y, { steps: 5 });
  await page.mouse.up();
  await settle(page);
}

for (const [width, height] of [
  [1280, 900],
  [390, 844],
]) {
  for (const scheme of ['light', 'dark']) {
    test(`first_screen_should_name_the_post_and_show_the_live_miniature_at_${width}x${height}_${scheme}`, async () => {
      const p = await openPage(env.browser, env.server.url, { viewport: { width, height } });
      await p.page.emulateMedia({ colorScheme: scheme });
      await waitReady(p.page, ['order']);
      await settle(p.page);
      let got = await miniature(p.page);
      const seen = JSON.stringify(got);
      assert.ok(got.header.includes(POST) && got.header.includes('Rahul’s ML Blog'), `the post is named: ${seen}`);
      assert.match(got.header, /What mark tells attention where a word sits/, 'the post’s question is asked');
      assert.equal(got.title, 'The post’s “cat” [0.9, 0.4] as query and key, θ = 0.1');
      assert.ok(inside(got.box, [width, height]), `the miniature is in the first viewport: ${seen}`);
      assert.ok(inside(got.plot.box, [width, height]), `its plot is in the first viewport: ${seen}`);
      for (const [id, cell] of Object.entries(got.cells)) assert.ok(cell.seen, `#mini-${id} is uncovered: ${seen}`);
      await checkMiniature(got);
      await dragMiniature(p.page);
      got = await miniature(p.page);
      console.log(`miniature dragged to a shift of ${got.shift} (ROPE_TEST_SEED=${SEED})`);
      await checkMiniature(got);
      await p.close();
    });
  }
}

/** Waits until the main sliders' bar or panel has settled after a scroll (markBar, its slide). */
async function barSettled(page) {
  await settle(page);
  await page.waitForFunction(() => document.querySelector('.panel-main').getAnimations().length === 0);
}

for (const scheme of ['light', 'dark']) {
  test(`first_screen_should_lead_into_the_first_chapter_and_keep_the_sliders_for_the_summary_at_1280x900_${scheme}`, async () => {
    const p = await openPage(env.browser, env.server.url);
    await p.page.emulateMedia({ colorScheme: scheme });
    await waitReady(p.page, ['order']);
    await barSettled(p.page);
    let got = await firstScreen(p.page);
    const mini = (await miniature(p.page)).box;
    let seen = JSON.stringify(got);
    assert.equal(got.scrollY, 0);
    assert.ok(
      got.title.bottom <= got.chapter.top && mini.bottom <= got.chapter.top,
      `the question and miniature come first: ${seen}`,
    );
    assert.ok(got.chapter.top < got.viewport[1], `the first chapter starts in the first viewport: ${seen}`);
    assert.ok(!got.guide.open && got.guide.bottom <= got.chapter.top, `the reading guide is closed, above it: ${seen}`);
    // Nothing on the first screen reads gap, dim or base: their sliders are not offered there.
    for (const [id, box] of Object.entries(got.controls)) assert.ok(!box.onScreen, `#${id} is not offered: ${seen}`);
    // The summary comes where the argument reaches it, after the proof; its sliders beside it.
    await p.page.evaluate(() => document.getElementById('essay-flatness').scrollIntoView({ block: 'start' }));
    await p.page.waitForFunction(() => !document.body.classList.contains('bar-away'), null, { timeout: 15000 });
    await p.page.waitForFunction(() => window.Chart.getChart(document.getElementById('chart-flatness')));
    await barSettled(p.page);
    got = await firstScreen(p.page);
    seen = JSON.stringify(got);
    assert.ok(got.proof.bottom <= got.summary.top && got.summary.bottom <= got.canvas.top, `after the proof: ${seen}`);
    for (const [id, box] of Object.entries(got.controls)) {
      assert.ok(inside(box, got.viewport) && box.hit, `#${id} is on screen, uncovered: ${seen}`);
      // Beside the chart's figure: to its left, level with it.
      assert.ok(box.right < got.plot.left, `#${id} sits beside the chart: ${seen}`);
      assert.ok(box.top < got.canvas.bottom, `#${id} is level with the chart: ${seen}`);
    }
    await p.close();
  });
}

test('summary_and_its_slider_bar_should_follow_the_proof_not_the_miniature_at_390x844', async () => {
  const p = await openPage(env.browser, env.server.url, { viewport: { width: 390, height: 844 } });
  await waitReady(p.page, ['order']);
  await barSettled(p.page);
  const mini = (await miniature(p.page)).box;
  // At the top: the guide and the first chapter right under the miniature, no slider bar (it
  // would drive nothing there) and no hole where it was.
  const top = await firstScreen(p.page);
  let seen = JSON.stringify({ mini, top });
  assert.ok(top.guide.top >= mini.bottom && top.guide.top - mini.bottom < 40, `the guide follows: ${seen}`);
  assert.ok(top.chapter.top - top.guide.bottom < 60, `then the first chapter: ${seen}`);
  for (const [id, box] of Object.entries(top.controls)) assert.ok(!box.onScreen, `#${id} is not offered: ${seen}`);
  await p.page.evaluate(() => document.getElementById('fig-flatness').scrollIntoView({ block: 'start' }));
  await p.page.waitForFunction(() => document.querySelector('.panel-main').getBoundingClientRect().top === 0, null, {
    timeout: 15000,
  });
  await p.page.waitForFunction(() => window.Chart.getChart(document.getElementById('chart-flatness')));
  await barSettled(p.page);
  const got = await firstScreen(p.page);
  seen = JSON.stringify(got);
  assert.ok(got.proof.bottom <= got.summary.top, `the summary follows the proof: ${seen}`);
  assert.ok(inside(got.canvas, got.viewport), `the summary's whole chart fits one screen: ${seen}`);
  for (const [id, box] of Object.entries(got.controls)) {
    assert.ok(inside(box, got.viewport) && box.hit, `#${id} is on screen, uncovered: ${seen}`);
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
    // A control of the slider bar: the bar, slid away over the chapters, comes back once the
    // summary is near (app.js's markBar); the reader sees it after that slide.
    await page.waitForFunction(
      (x) =>
        !document.querySelector('.panel-main').contains(document.getElementById(x)) ||
        (!document.body.classList.contains('bar-away') &&
          document.querySelector('.panel-main').getAnimations().length === 0),
      id,
      { timeout: 15000 },
    );
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
  // Away: slid up out of the screen, or (before the summary) not reached yet, below it.
  const barAt = (where) =>
    page.waitForFunction(
      (w) => {
        const r = document.querySelector('.panel-main').getBoundingClientRect();
        return w === 'away' ? r.bottom <= 0 || r.top >= innerHeight : r.top === 0 && r.height > 100;
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
