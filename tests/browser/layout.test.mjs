// Layouts: print (every figure drawn with the current data, no controls, nothing past the
// right edge), phones (the main sliders stay at hand while a figure is looked at; tick labels
// do not overlap; legends wrap), wide screens (figures side by side), and the mock blog post
// at desktop and phone width, saved as PNGs to look at (build/screenshots/).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIGURE } from '../../web/src/figures/index.js';
import {
  afterUpdate,
  checkCharts,
  DEFAULTS,
  openPage,
  settle,
  typeInto,
  useServerAndBrowser,
  waitFrameDrawn,
  waitReady,
} from './harness.mjs';
import { blogHtml, explorerFrame, holdPreview, openBlog, shotPath } from './host.mjs';

const env = useServerAndBrowser();

// The figures in page order, as the page built them from its figures table.
const figureNames = (page) =>
  page.evaluate(() => [...document.querySelectorAll('figure.fig')].map((f) => f.dataset.view));

/** Per figure: whether the chart's drawn (parsed) values are its current data's. */
function drawnState(page, names) {
  return page.evaluate(
    (list) =>
      Object.fromEntries(
        list.map((name) => {
          const chart = window.Chart.getChart(document.getElementById(`chart-${name}`));
          const ok = chart.data.datasets.every((ds, i) => {
            const parsed = chart.getDatasetMeta(i)._parsed;
            if (parsed.length !== ds.data.length) return false;
            return ds.data.every((v, j) => {
              const y = v !== null && typeof v === 'object' ? v.y : v;
              return (parsed[j]?.y ?? null) === (y ?? null);
            });
          });
          return [name, ok];
        }),
      ),
    names,
  );
}

test('print_should_draw_every_figure_with_the_current_data_inside_the_page', async () => {
  // A short window: only the first figure is on screen, the others wait to be drawn.
  const p = await openPage(env.browser, env.server.url, { viewport: { width: 1100, height: 500 } });
  const { page } = p;
  await waitReady(page);
  const names = await figureNames(page);
  await settle(page);
  // The charts off screen wait to be drawn once the page's IntersectionObserver has said which
  // they are; on a busy machine its first report can come after the first change, which then
  // draws every chart: the next gap is typed until one waits.
  let gap = 777;
  let before = {};
  for (; gap < 780; gap++) {
    await afterUpdate(page, () => typeInto(page, '#gap-num', String(gap)));
    before = await drawnState(page, names);
    if (Object.values(before).some((ok) => !ok)) break;
    await settle(page);
  }
  assert.ok(
    Object.values(before).some((ok) => !ok),
    `some off-screen chart waits to be drawn: ${JSON.stringify(before)}`,
  );

  // The page's own print path: print media, then the beforeprint event the browser sends.
  await page.setViewportSize({ width: 700, height: 1000 });
  await page.emulateMedia({ media: 'print' });
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  await settle(page);
  const after = await drawnState(page, names);
  assert.deepEqual(after, Object.fromEntries(names.map((n) => [n, true])), 'every figure drawn with the current data');
  await checkCharts(
    page,
    { ...DEFAULTS, gap },
    names.filter((n) => ['angles', 'flatness', 'slow'].includes(n)),
  );

  const layout = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const shown = (sel) => [...document.querySelectorAll(sel)].some((el) => el.getClientRects().length > 0);
    return {
      width,
      scrollWidth: document.documentElement.scrollWidth,
      overflow: [...document.querySelectorAll('.fig, .fig canvas, .caption, .legend')]
        .map((el) => ({ id: el.id || el.className, right: el.getBoundingClientRect().right }))
        .filter((r) => r.right > width + 0.5),
      controls: shown('.panel') || shown('.take') || shown('[data-export]'),
    };
  });
  assert.deepEqual(layout.overflow, [], `nothing past the right edge of a ${layout.width} px page`);
  assert.ok(layout.scrollWidth <= layout.width, 'no horizontal overflow in print');
  assert.equal(layout.controls, false, 'no controls on paper');
  // A page some 33,000 px tall: on a busy machine its picture takes longer than the usual 30 s.
  await page.screenshot({ path: shotPath('print.png'), fullPage: true, timeout: 120000 });
  await p.close();
});

/** Tick labels of every scale that overlap their neighbours (drawn labels, measured; a wrapped
 *  label by its widest line). */
function overlappingTicks(page, names) {
  return page.evaluate((list) => {
    const out = [];
    const ctx = document.createElement('canvas').getContext('2d');
    for (const name of list) {
      const chart = window.Chart.getChart(document.getElementById(`chart-${name}`));
      for (const [id, scale] of Object.entries(chart.scales)) {
        const items = scale.getLabelItems();
        // An empty label draws nothing, so it overlaps nothing.
        const drawn = items.filter((item) => [].concat(item.label).some((line) => String(line ?? '') !== ''));
        const boxes = drawn.map((item) => {
          ctx.font = item.font.string;
          const lines = Array.isArray(item.label) ? item.label : [item.label];
          const w = Math.max(...lines.map((line) => ctx.measureText(String(line)).width));
          const h = item.font.lineHeight * lines.length;
          const [x, y] = item.options.translation;
          const left = item.options.textAlign === 'right' ? x - w : item.options.textAlign === 'left' ? x : x - w / 2;
          return { label: lines.join(' '), left, right: left + w, top: y - h / 2, bottom: y + h / 2 };
        });
        for (let i = 0; i < boxes.length; i++) {
          for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i];
            const b = boxes[j];
            if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
              out.push(`${name} ${id}: "${a.label}" overlaps "${b.label}"`);
            }
          }
        }
      }
    }
    return out;
  }, names);
}

test('phone_layout_should_keep_the_slider_bar_at_hand_and_the_charts_readable', async () => {
  const p = await openPage(env.browser, `${env.server.url}?dim=1024&gap=4096`, {
    viewport: { width: 390, height: 844 },
  });
  const { page } = p;
  await waitReady(page);
  const names = await figureNames(page);
  for (const name of names) {
    await page.locator(`#fig-${name}`).scrollIntoViewIfNeeded();
    await page.locator(`#chart-${name}`).evaluate((c) => c.scrollIntoView({ block: 'end' }));
    await settle(page);
    // The bar slides away over the chapters and back for the figures that read it (app.js's
    // markBar): wait until that slide is over.
    await page.waitForFunction(() => document.querySelector('.panel-main').getAnimations().length === 0, null, {
      timeout: 15000,
    });
    const seen = await page.evaluate((n) => {
      const reachable = (id) => {
        const r = document.getElementById(id).getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return r.top >= 0 && r.bottom <= innerHeight && hit === document.getElementById(id);
      };
      const chart = document.getElementById(`chart-${n}`).getBoundingClientRect();
      return {
        away: document.body.classList.contains('bar-away'),
        // The main sliders drive the main figures; the long-context figures (after the main
        // part, since that branch) and the lesson's chapters (while the bar is away) have their
        // own settings beside them.
        sliders:
          document.getElementById('figures').contains(document.getElementById(`fig-${n}`)) &&
          !document.body.classList.contains('bar-away')
            ? ['gap', 'dim', 'base'].map((id) => [id, reachable(id)])
            : [
                ['gap', true],
                ['dim', true],
                ['base', true],
              ],
        // Below the bar where it is on screen (before the summary it is further down the page).
        chartVisible:
          chart.bottom <= innerHeight + 1 &&
          chart.top >=
            (({ top, bottom }) => (top < innerHeight && bottom > 0 ? bottom : 0))(
              document.querySelector('.panel-main').getBoundingClientRect(),
            ) -
              1,
        chart: [
          chart.top,
          chart.bottom,
          innerHeight,
          document.querySelector('.panel-main').getBoundingClientRect().bottom,
        ],
        scrollWidth: document.documentElement.scrollWidth,
        legends: [...document.querySelectorAll('.legend')].filter((l) => l.scrollWidth > l.clientWidth + 1).length,
      };
    }, name);
    if (['claim', 'why', 'gap'].includes(FIGURE[name].part)) {
      assert.equal(seen.away, false, `${name} reads gap, dim and base: the bar stays`);
    }
    assert.deepEqual(
      seen.sliders,
      [
        ['gap', true],
        ['dim', true],
        ['base', true],
      ],
      `${name}: the sliders stay on screen and uncovered`,
    );
    assert.ok(seen.chartVisible, `${name}: the chart shows whole below the slider bar ${JSON.stringify(seen)}`);
    assert.ok(seen.scrollWidth <= 390, `no sideways scrolling (${seen.scrollWidth} px)`);
    assert.equal(seen.legends, 0, 'legends wrap instead of overflowing');
  }
  // Dragging the sticky slider while a lower figure is in view redraws it.
  await afterUpdate(page, () => page.locator('#gap').fill('1.204')); // log slider (long-context branch): gap 16
  await checkCharts(page, { ...DEFAULTS, dim: 1024, gap: 16 }, ['slow']);
  assert.deepEqual(await overlappingTicks(page, names), [], 'no tick labels overlap at 390 px');
  await p.close();
});

// Issue #32: at 390 px the post's table hid its check column, figure 14's formula ran past its
// box and figure 10's axis title was squeezed. Over the whole page, every figure built: nothing
// ends past the viewport's right edge unless it is inside a box that scrolls sideways on purpose
// (overflow-x auto or scroll); a table that scrolls is a keyboard region (the config's pairs);
// a formula box's line of text is not cut; every axis title's lines fit their chart.
test('phone_should_cut_nothing_past_the_right_edge_on_the_whole_page', async () => {
  const p = await openPage(env.browser, env.server.url, { viewport: { width: 390, height: 844 } });
  const { page } = p;
  await waitReady(page, ['flatness']);
  const names = await figureNames(page);
  for (const name of names) {
    await page.locator(`#chart-${name}`).scrollIntoViewIfNeeded();
    await page.waitForFunction((n) => window.Chart.getChart(document.getElementById(`chart-${n}`)), name, {
      timeout: 20000,
    });
  }
  // The formulas load as they near the screen: wait for every slot to be filled.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.formula-slot')].every((s) => s.querySelector('math')),
  );
  await settle(page);
  const found = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (el) => /(auto|scroll)/.test(getComputedStyle(el).overflowX);
    const inScroller = (el) => {
      for (let a = el.parentElement; a; a = a.parentElement) if (scrolls(a)) return a;
      return null;
    };
    const shown = (el) => {
      const r = el.getBoundingClientRect();
      return el.getClientRects().length > 0 && r.width > 1 && getComputedStyle(el).visibility !== 'hidden';
    };
    const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} in #${el.closest('[id]')?.id}`;
    const all = [...document.querySelectorAll('body *')].filter(shown);
    return {
      past: all
        .filter((el) => el.getBoundingClientRect().right > width + 0.5 && !inScroller(el))
        .map((el) => `${name(el)} ends at ${Math.round(el.getBoundingClientRect().right)}`),
      tables: [...document.querySelectorAll('table')]
        .filter((t) => shown(t) && inScroller(t) && inScroller(t).scrollWidth > inScroller(t).clientWidth + 1)
        .filter((t) => !inScroller(t).matches('[role=region][tabindex="0"]'))
        .map(name),
      formulaText: [...document.querySelectorAll('.formulas')]
        .filter((f) => shown(f) && scrolls(f) && f.scrollWidth > f.clientWidth + 1)
        .map(name),
      // The proof's algebra fits as it is: no formula of it scrolls sideways or ends past its box.
      proof: [...document.querySelectorAll('#proof-algebra math')].map((m) => {
        const box = document.getElementById('proof-algebra').getBoundingClientRect();
        const r = m.getBoundingClientRect();
        let widest = r.right;
        for (const cell of m.querySelectorAll('*')) widest = Math.max(widest, cell.getBoundingClientRect().right);
        return {
          text: m.textContent.slice(0, 30),
          fits: shown(m) && m.scrollWidth <= m.clientWidth + 1 && widest <= box.right + 0.5 && r.left >= box.left - 0.5,
        };
      }),
      titles: [...document.querySelectorAll('canvas')].flatMap((canvas) => {
        const chart = window.Chart.getChart(canvas);
        if (!chart) return [];
        return Object.values(chart.scales)
          .filter((scale) => scale.options.title?.display)
          .flatMap((scale) => {
            const { title } = scale.options;
            chart.ctx.font = `${title.font.size}px ${title.font.family}`;
            const room = scale.isHorizontal() ? chart.width : chart.height;
            return [title.text]
              .flat()
              .filter((line) => chart.ctx.measureText(line).width > room)
              .map((line) => `${canvas.id} ${scale.id}: "${line}" is wider than ${room} px`);
          });
      }),
    };
  });
  assert.deepEqual(found.past, [], 'nothing ends past the right edge outside a sideways scroller');
  assert.deepEqual(found.tables, [], 'a table too wide for its box is a scrollable keyboard region');
  assert.deepEqual(found.formulaText, [], 'a formula box does not cut its lines: a wide formula scrolls alone');
  assert.deepEqual(found.titles, [], 'every axis title fits its chart');
  assert.equal(found.proof.length, 2, 'the proof writes its two lines of algebra');
  for (const { text, fits } of found.proof) assert.ok(fits, `the proof's “${text}…” fits 390 px without scrolling`);
  await p.close();
});

test('wide_screens_should_put_figures_side_by_side', async () => {
  const p = await openPage(env.browser, env.server.url, { viewport: { width: 1700, height: 1000 } });
  const { page } = p;
  await waitReady(page);
  // The summary (the flatness figure) and the card after it (the two methods) side by side.
  const boxes = await page.evaluate(() =>
    ['fig-flatness', 'methods'].map((id) => {
      const r = document.getElementById(id).getBoundingClientRect();
      return { top: r.top, left: r.left, right: r.right };
    }),
  );
  assert.ok(
    Math.abs(boxes[0].top - boxes[1].top) < 2 && boxes[1].left > boxes[0].right,
    `the summary and the card after it side by side: ${JSON.stringify(boxes)}`,
  );
  assert.equal(
    await page.evaluate(() => document.getElementById('fig-flatness').nextElementSibling.id),
    'methods',
    'the two methods follow the summary',
  );
  assert.deepEqual(await overlappingTicks(page, await figureNames(page)), [], 'no tick labels overlap');
  await page.screenshot({ path: shotPath('wide-1700.png') });
  await p.close();
});

// The mock blog post: text, the auto-height iframe snippet from the builder, and the element.
test('mock_blog_post_should_fit_desktop_and_phone_width_and_be_saved_as_png', async () => {
  const page0 = await openPage(env.browser, `${env.server.url}?dim=128&base=500000&gap=16`);
  await waitReady(page0.page);
  await holdPreview(page0.page);
  await page0.page.selectOption('#embed-view', 'flatness');
  await page0.page.check('#embed-control-gap');
  const snippet = await page0.page.inputValue('#embed-code');
  await page0.close();
  const post = `<h1>Why RoPE only sees the gap</h1>
<p>Rotary position embedding rotates each pair of a query and a key by an angle proportional to its
position. Slide the pair along the sequence below: the RoPE score stays flat.</p>
${snippet}
<p>Each pair turns at its own speed. Low pairs spin past a full turn quickly; high pairs barely move:</p>
<rope-scope view="angles" dim="128" base="500000" gap="16" controls="gap"></rope-scope>
<p>That is the whole trick: the angle depends on the gap alone.</p>
<script src="/ropescope-embed.js"></script>`;
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ]) {
    const p = await openBlog(env.browser, blogHtml(post), { viewport });
    const { page } = p;
    // Two waits, so a failure's line says which: the iframe fitted, the element drawn.
    await page.waitForFunction(() => document.querySelector('iframe').style.height !== '', null, { timeout: 20000 });
    await page.waitForFunction(
      () =>
        document.querySelector('rope-scope').drawn &&
        customElements
          .get('rope-scope')
          ?.Chart.getChart(document.querySelector('rope-scope').shadowRoot?.querySelector('canvas')),
      null,
      { timeout: 20000 },
    );
    // The picture is saved to be looked at: wait for the iframe's figure too, or the shot can
    // catch the post half painted.
    await waitFrameDrawn(await explorerFrame(page));
    await page.locator('iframe').scrollIntoViewIfNeeded();
    await page.locator('rope-scope').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, 0));
    await settle(page);
    const fits = await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth);
    assert.ok(fits, `${label}: the post does not scroll sideways`);
    await page.screenshot({ path: shotPath(`blog-${label}.png`), fullPage: true });
    await p.assertClean(`mock blog post (${label})`);
    await p.context.close();
  }
});
