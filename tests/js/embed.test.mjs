// The embed options' URL grammar (state.js) and the export formats (export.js), in Node:
// strict values, canonical order, and CSV/JSON that give back the chart's numbers exactly.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dataRows, exportName, plotSettings, toCsv, toJson } from '../../web/src/output/export.js';
import { PARAM, readQuery, writeQuery } from '../../web/src/state/state.js';
import { rng, seed } from '../lib/testlib.mjs';

test('embed_options_should_read_strictly_and_write_canonically', () => {
  const good = readQuery('?theme=dark&controls=base,gap&title=0');
  assert.deepEqual(good.problems, []);
  assert.equal(good.state.theme, 'dark');
  assert.deepEqual(good.state.controls, ['gap', 'base'], 'controls in the table order');
  assert.equal(good.state.title, false);
  assert.match(writeQuery(good.state), /&theme=dark&controls=gap,base&title=0$/);
  assert.doesNotMatch(writeQuery(readQuery('').state), /theme|controls|title/, 'defaults are not written');
  assert.deepEqual(readQuery('?controls=').state.controls, [], 'an empty list is no sliders');
  // Names are matched ignoring case and surrounding spaces (tests/js/limits.test.mjs has them all).
  assert.equal(readQuery('?theme=%20Dark').state.theme, 'dark');
  for (const [query, name] of [
    ['?theme=drak', 'theme'],
    ['?theme=', 'theme'],
    ['?theme=da%20rk', 'theme'],
    ['?title=yes', 'title'],
    ['?title=true', 'title'],
    ['?controls=gap,gap', 'controls'],
    ['?controls=gap,n', 'controls'],
    ['?controls=gap,', 'controls'],
    ['?controls=%20gap', 'controls'],
    ['?controls=__proto__', 'controls'],
    ['?theme=constructor', 'theme'],
  ]) {
    const { state, problems } = readQuery(query);
    assert.equal(problems.length, 1, `${query} is refused`);
    assert.equal(problems[0].name, name);
    assert.ok(problems[0].message.includes(name), `${query}: the message names ${name}`);
    assert.equal(
      PARAM[name].serialize(state[name]),
      PARAM[name].serialize(PARAM[name].default),
      `${query}: default kept`,
    );
  }
});

test('export_names_should_carry_the_settings', () => {
  const state = { dim: 128, base: 500000, gap: 16, from: 0, to: 4096, n: 512 };
  assert.equal(exportName('flatness', state), 'ropescope-flatness-dim128-base500000-gap16');
  assert.equal(
    exportName('slow', { ...state, gap: 0.5, to: 900, n: 256 }),
    'ropescope-slow-dim128-base500000-gap0.5-to900-n256',
  );
  assert.deepEqual(plotSettings({ ...state, theme: 'dark', embed: true }), state);
});

// Random doubles of every size, nulls and awkward labels: the CSV and JSON give them back bit for bit.
test('csv_and_json_should_round_trip_random_chart_data', () => {
  const s = seed('csv_and_json_round_trip');
  const rand = rng(s);
  const value = () => {
    const r = rand();
    if (r < 0.1) return null;
    if (r < 0.2) return -0 + Math.round(rand() * 100);
    return (rand() - 0.5) * 10 ** Math.floor(rand() * 40 - 20);
  };
  for (let round = 0; round < 50; round++) {
    const labels = Array.from({ length: 20 }, (_, i) => i);
    const data = {
      labels,
      datasets: [
        { label: 'past, one "turn"', data: labels.map(value) },
        { label: 'points', data: labels.map(() => ({ x: value() ?? 0, y: value() ?? 1 })) },
      ],
    };
    const rows = toCsv(data).trimEnd().split('\n');
    assert.equal(rows[0], 'series,x,y');
    const want = dataRows(data);
    assert.equal(rows.length - 1, want.length);
    rows.slice(1).forEach((line, i) => {
      const y = line.slice(line.lastIndexOf(',') + 1);
      const wantY = want[i][2];
      if (wantY === null) assert.equal(y, '', `seed ${s}: null as an empty cell`);
      else assert.ok(Object.is(Number(y), wantY) || (wantY === 0 && Number(y) === 0), `seed ${s}: ${y} is ${wantY}`);
    });
    assert.ok(rows[1].startsWith('"past, one ""turn""",'), 'a label with a comma and quotes is quoted');
    const back = JSON.parse(toJson('x', { dim: 2 }, data));
    assert.deepEqual(back.datasets, JSON.parse(JSON.stringify(data.datasets)), `seed ${s}: JSON round trip`);
    assert.deepEqual(back.labels, labels);
  }
});

test('readme_should_show_the_resizer_snippet_and_the_resizer_should_use_the_embed_bounds', async () => {
  const { readFileSync } = await import('node:fs');
  const { HEIGHT_MESSAGE, HEIGHT_REQUEST, HOST_MESSAGE, HOST_REQUEST, MIN_HEIGHT, MAX_HEIGHT } = await import(
    '../../web/src/element/embed.js'
  );
  // The README breaks the one-line snippet for reading: a line break and its indent stand for a space.
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\n {2,}/g, ' ');
  assert.match(
    readme,
    /<div data-ropescope-embed style="display:grid"><a href="[^"]+" data-ropescope-picture style="grid-area:1\/1;align-self:start">(<picture><source [^>]+>)?<img\s+src="[^"]+\/pictures\/[a-z]+(-[a-z0-9-]+)?-light\.png" alt="[^"]+" width="100%">(<\/picture>)?<\/a><iframe data-ropescope src="[^"]+"[^>]* frameborder="0" loading="lazy" style="grid-area:1\/1"><\/iframe><\/div><script src="[^"]+\/ropescope-resize\.js" async><\/script>/,
    'README.md "Embedding" shows the snippet the page writes: the picture, the iframe over it, the resizer',
  );
  const resizer = readFileSync(new URL('../../web/ropescope-resize.js', import.meta.url), 'utf8');
  assert.ok(resizer.includes(`var HEIGHT_MESSAGE = '${HEIGHT_MESSAGE}';`), 'the same message name');
  assert.ok(resizer.includes(`var HEIGHT_REQUEST = '${HEIGHT_REQUEST}';`), 'the same question');
  assert.ok(resizer.includes(`var HOST_MESSAGE = '${HOST_MESSAGE}';`), 'the same host message');
  assert.ok(resizer.includes(`var HOST_REQUEST = '${HOST_REQUEST}';`), 'the same question for the host');
  assert.ok(resizer.includes(`var MIN_HEIGHT = ${MIN_HEIGHT};`), 'the same lower bound');
  assert.ok(resizer.includes(`var MAX_HEIGHT = ${MAX_HEIGHT};`), 'the same upper bound');
});

// style.css writes each colour once, its light and its dark value side by side.
test('palette_should_give_every_colour_a_light_and_a_dark_value', async () => {
  const { readFileSync } = await import('node:fs');
  const css = readFileSync(new URL('../../web/style.css', import.meta.url), 'utf8');
  const root = /:root \{([^}]*)\}/.exec(css)[1];
  const colours = root.match(/--(?:bg|surface|ink|line|grid|accent|error|notice|c-)[\w-]*:[^;]+;/g);
  assert.ok(colours.length >= 24, 'the palette is found');
  for (const line of colours) assert.match(line, /^--[\w-]+: var\(--light, .+\) var\(--dark, .+\);$/, line);
  assert.equal((css.match(/#101216/g) ?? []).length, 1, 'the dark background is written once');
});

// The fixed heights come from measurements (element/heights.js, tools/embed_heights.mjs): view=all
// and every measured view has one pair per measured width, with and without its heading, and no
// entry is stale; a figure not yet measured gets, per width, the tallest figure measured there, and
// view=all grows by that for each such figure.
// A column measured gets its measured height (issue 36: no blank left where a host strips the
// resizer), one between two the taller of theirs; the heading and each slider row add to it.
test('fixed_heights_should_be_measured_for_every_view_and_follow_the_options', async () => {
  const { COLUMNS, fixedHeight } = await import('../../web/src/element/embed.js');
  const { EMBED_CONTENT, EMBED_WIDTHS } = await import('../../web/src/element/heights.js');
  const { contentHeights } = await import('../../web/src/element/measured.js');
  const { FIGURES } = await import('../../web/src/figures/index.js');
  const views = [...FIGURES.map((row) => row.name), 'all'];
  const r = rng(seed('fixed_heights'));
  for (const view of Object.keys(EMBED_CONTENT)) assert.ok(views.includes(view), `${view}: a view (not stale)`);
  assert.ok(EMBED_CONTENT.all, 'view=all is measured');
  assert.equal(EMBED_WIDTHS[0], COLUMNS[0], 'measured from the narrowest column offered');
  const measuredFigures = Object.keys(EMBED_CONTENT).filter((view) => view !== 'all');
  const unmeasured = views.filter((view) => !EMBED_CONTENT[view]);
  for (const view of [...unmeasured, 'no-such-figure']) {
    EMBED_WIDTHS.forEach((width, i) => {
      for (const title of [0, 1]) {
        let tallest = 0;
        for (const other of measuredFigures) tallest = Math.max(tallest, EMBED_CONTENT[other][i][title]);
        assert.equal(
          contentHeights(view)[i][title],
          tallest,
          `${view} (not measured): the tallest figure at ${width}px`,
        );
        if (view === 'no-such-figure') {
          const all = EMBED_CONTENT.all[i][title] + unmeasured.length * tallest;
          assert.equal(contentHeights('all')[i][title], all, `view=all at ${width}px: measured + the unmeasured`);
        }
      }
    });
  }
  console.log(`# views not measured yet: ${unmeasured.join(', ') || 'none'}`);
  for (const view of views) {
    const pairs = contentHeights(view);
    assert.equal(pairs.length, EMBED_WIDTHS.length, `${view}: one pair per width`);
    for (const [withTitle, noTitle] of pairs) {
      assert.ok(
        Number.isInteger(noTitle) && noTitle > 100 && withTitle > noTitle,
        `${view}: ${withTitle} > ${noTitle}`,
      );
    }
    const controls = ['gap', 'dim', 'base'].slice(0, Math.floor(r() * 4));
    for (let c = 0; c < COLUMNS.length; c++) {
      const [withTitle, noTitle] = pairs[c];
      assert.equal(fixedHeight(view, { column: COLUMNS[c] }), withTitle + 2, `${view}: column ${COLUMNS[c]} measured`);
      assert.equal(fixedHeight(view, { column: COLUMNS[c], title: false }), noTitle + 2, `${view}: title=0`);
      if (c === 0) continue;
      const between = Math.round((COLUMNS[c - 1] + COLUMNS[c]) / 2);
      assert.equal(
        fixedHeight(view, { column: between }),
        Math.max(pairs[c - 1][0], withTitle) + 2,
        `${view}: column ${between}, between two measured, the taller`,
      );
    }
    assert.equal(fixedHeight(view, { column: 200 }), pairs[0][0] + 2, `${view}: a column under 320 px takes 320's`);
    assert.equal(fixedHeight(view, { column: 2000 }), pairs.at(-1)[0] + 2, `${view}: a wide column takes 800's`);
    assert.equal(
      fixedHeight(view, { controls }) - fixedHeight(view),
      56 * controls.length,
      `${view}: a row per slider`,
    );
  }
});
