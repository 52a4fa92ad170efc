// The figures table (web/src/figures/) drives the page: every row gets its section, chart,
// caption, aria-label and embed option, in table order, and a chart handle's destroy()
// removes everything its create function inserted.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPage, useServerAndBrowser, waitReady } from './harness.mjs';

const env = useServerAndBrowser();

test('every_figures_table_row_should_have_its_section_chart_caption_and_embed_option', async () => {
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  const rows = await page.evaluate(async () => {
    const { FIGURES } = await import('./src/figures/index.js');
    return FIGURES.map(({ name, title, number }) => ({ name, title, number }));
  });
  assert.ok(rows.length >= 3, 'the table has the three figures');
  await waitReady(
    page,
    rows.map((r) => r.name),
  );
  const page_ = await page.evaluate(() => ({
    sections: [...document.querySelectorAll('figure.fig')].map((f) => f.id),
    options: [...document.querySelectorAll('#embed-view option')].map((o) => o.value),
  }));
  assert.deepEqual(
    page_.sections,
    rows.map((r) => `fig-${r.name}`),
    'one section per row, in table order',
  );
  assert.deepEqual(page_.options, ['all', ...rows.map((r) => r.name)], 'one embed option per row');
  for (const row of rows) {
    const heading = await page.locator(`#title-${row.name}`).innerText();
    assert.ok(heading.includes(row.title) && heading.startsWith(String(row.number)), `#title-${row.name}: ${heading}`);
    assert.ok((await page.locator(`#caption-${row.name}`).innerText()).length > 20, `#caption-${row.name} is written`);
    const label = await page.locator(`#chart-${row.name}`).getAttribute('aria-label');
    assert.ok(label && label.length > 20, `#chart-${row.name} has an aria-label`);
    assert.equal(
      await page.evaluate((n) => Boolean(window.Chart.getChart(document.getElementById(`chart-${n}`))), row.name),
      true,
      `#chart-${row.name} holds a chart`,
    );
  }
  await p.close();
});

test('chart_handle_destroy_should_remove_what_create_inserted', async () => {
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  await waitReady(page);
  const results = await page.evaluate(async () => {
    const { FIGURES } = await import('./src/figures/index.js');
    const { computeModel } = await import('./src/model/model.js');
    const model = computeModel(window.ropescope.state);
    const out = [];
    for (const row of FIGURES) {
      const host = document.createElement('div');
      host.innerHTML = '<div class="chart-box"><canvas></canvas></div>';
      document.body.append(host);
      const canvas = host.querySelector('canvas');
      const before = host.innerHTML;
      const handle = row.make(canvas, row.data(model, window.ropescope.state));
      const made = Boolean(window.Chart.getChart(canvas)) && host.querySelectorAll('.legend').length === 1;
      handle.update(row.data(model, window.ropescope.state));
      handle.destroy();
      out.push({
        name: row.name,
        made,
        chartLeft: Boolean(window.Chart.getChart(canvas)),
        legendsLeft: host.querySelectorAll('.legend').length,
        childrenBefore: before.split('<').length,
        childrenAfter: host.innerHTML.split('<').length,
      });
      host.remove();
    }
    return out;
  });
  for (const r of results) {
    assert.ok(r.made, `${r.name}: create made a chart and one legend`);
    assert.equal(r.chartLeft, false, `${r.name}: destroy() destroyed the chart`);
    assert.equal(r.legendsLeft, 0, `${r.name}: destroy() removed the legend`);
    assert.equal(r.childrenAfter, r.childrenBefore, `${r.name}: nothing else left behind`);
  }
  await p.close();
});

// "Figures 2–4 and 7" -> [2, 3, 4, 7]
const numbersIn = (text) =>
  (text.match(/\d+(?:–\d+)?/g) ?? []).flatMap((run) => {
    const [a, b = a] = run.split('–').map(Number);
    return Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });

test('figure_numbers_in_the_page_text_should_follow_the_table', async () => {
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  await waitReady(page, ['flatness']);
  const rows = await page.evaluate(async () =>
    (await import('./src/figures/index.js')).FIGURES.map(({ part, uses, number }) => ({
      part,
      uses: uses ?? [],
      number,
    })),
  );
  const named = await page.evaluate(() =>
    [...document.querySelectorAll('[data-figures], [data-figures-using]')].map((node) => ({
      part: node.dataset.figures,
      using: node.dataset.figuresUsing,
      text: node.textContent,
    })),
  );
  // The header and the guide name the summary (the claim) wherever they speak of it.
  assert.deepEqual(
    [...new Set(named.filter((n) => n.part).map((n) => n.part))].sort(),
    ['claim', 'gap', 'lesson', 'long', 'why'],
    'the guide "How to read this page" numbers every part: the claim, the chapters, going deeper, long context',
  );
  assert.ok(
    named.some((n) => n.using === 'from'),
    "the start positions' hint names its figures",
  );
  for (const { part, using, text } of named) {
    const want = rows.filter((r) => (part ? r.part === part : r.uses.includes(using))).map((r) => r.number);
    assert.deepEqual(numbersIn(text), want, `${part ? `part ${part}` : `using ${using}`}: "${text}"`);
    assert.match(text, want.length === 1 ? /^[Ff]igure \d/ : /^[Ff]igures \d/, `"${text}" agrees in number`);
  }
  await p.close();
});
