// The snippet's picture as every reader meets it (issue 36): the iframe snippet holds its picture
// and the iframe in one grid cell, the iframe on top. A feed reader that renders with scripts on
// but drops the snippet's script and iframe (as sanitizers do) shows the picture and its link
// once; one that keeps the iframe shows the live figure over it, nothing twice; a browser with
// JavaScript off shows the frame's copy of the same picture over it, once. The picture is the
// one rendered at the snippet's settings, and the builder says when there is none.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { VERSION } from '../../web/gen/version.js';
import { defaultAlt, useFigureRows } from '../../web/src/element/embed.js';
import { PICTURE_SCALE, PICTURE_WIDTH, pictureFile } from '../../web/src/element/picture.js';
import { FIGURE } from '../../web/src/figures/index.js';
import { LAUNCH_ARGS, openReady, ROOT, TEST_CHROMIUM, useServerAndBrowser, waitFrameDrawn } from './harness.mjs';
import { blogHtml, explorerFrame, holdPreview, openBlog } from './host.mjs';

useFigureRows((name) => FIGURE[name]);

const env = useServerAndBrowser();
const SETTINGS = { dim: 128, base: 500000, gap: 16 };
const QUERY = '?dim=128&base=500000&gap=16';
const VIEW = 'flatness';

const manifest = () => JSON.parse(readFileSync(join(ROOT, 'dist/pictures/pictures.json'), 'utf8'));

/** The builder's snippet for VIEW at `query`, with options; and the builder's note on its picture. */
async function builderSnippet(query, { way = 'iframe', theme = 'light', auto = true, view = VIEW } = {}) {
  const { p, page } = await openReady(env, query);
  await holdPreview(page);
  await page.selectOption('#embed-way', way);
  await page.selectOption('#embed-view', view);
  await page.selectOption('#embed-theme', theme);
  if (way === 'iframe') await (auto ? page.check('#embed-auto') : page.uncheck('#embed-auto'));
  const code = await page.inputValue('#embed-code');
  const note = await page.locator('#embed-picture-note').innerText();
  await p.close();
  return { code, note };
}

// What a sanitizing reader leaves of a snippet: no <script>, and (stripped: true) no <iframe>.
const sanitized = (code, { stripFrames = true } = {}) =>
  code.replace(/<script [^>]*><\/script>/g, '').replace(stripFrames ? /<iframe [^>]*><\/iframe>/g : /^$/, '');

// In the host page: every <img> of the post that is rendered, with what it shows.
const shownImages = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main img')]
      .filter((img) => img.getClientRects().length > 0)
      .map((img) => {
        const box = img.getBoundingClientRect();
        return {
          src: img.currentSrc,
          natural: img.naturalWidth,
          alt: img.alt,
          width: box.width,
          height: box.height,
          href: img.closest('a')?.href ?? null,
        };
      }),
  );

test('a_scripted_feed_reader_should_show_the_picture_and_its_link_once', async () => {
  const file = pictureFile(VIEW, 'light', SETTINGS);
  for (const way of ['iframe', 'element']) {
    const { code } = await builderSnippet(QUERY, { way });
    const post = sanitized(code);
    assert.doesNotMatch(post, /<script|<iframe/, `${way}: the reader's copy has no script and no frame`);
    const p = await openBlog(env.browser, blogHtml(`<p>Before.</p>${post}<p>After.</p>`), {
      viewport: { width: 760, height: 900 },
    });
    await p.page.locator('main img').scrollIntoViewIfNeeded();
    await p.page.waitForFunction(() => [...document.querySelectorAll('main img')].every((i) => i.complete));
    const seen = await shownImages(p.page);
    const what = `${way} snippet in a scripted reader`;
    assert.equal(seen.length, 1, `${what}: one picture (${JSON.stringify(seen)})`);
    const [img] = seen;
    assert.ok(img.src.endsWith(`/v${VERSION}/pictures/${file}`), `${what}: the picture at its settings (${img.src})`);
    assert.equal(img.natural, PICTURE_WIDTH * PICTURE_SCALE, `${what}: loaded`);
    assert.ok(img.width > 600 && img.height > 300, `${what}: shown (${img.width}x${img.height})`);
    assert.equal(img.alt, defaultAlt(VIEW, SETTINGS), `${what}: alt text`);
    const link = new URL(img.href);
    assert.ok(link.pathname.endsWith(`/v${VERSION}/ropescope/index.html`), `${what}: linked to the explorer`);
    for (const [name, value] of Object.entries(SETTINGS))
      assert.equal(link.searchParams.get(name), String(value), `${what}: the link keeps ${name}`);
    await p.assertClean(what);
    await p.context.close();
  }
});

test('a_reader_that_keeps_the_frame_but_not_the_script_should_show_the_live_figure_over_the_picture', async () => {
  const { code } = await builderSnippet(QUERY, { auto: true });
  const p = await openBlog(
    env.browser,
    blogHtml(`<p>Before.</p>${sanitized(code, { stripFrames: false })}<p>After.</p>`),
    {
      viewport: { width: 760, height: 900 },
    },
  );
  const { page } = p;
  await waitFrameDrawn(await explorerFrame(page));
  await page.locator('iframe').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('main img').complete);
  const seen = await page.evaluate(() => {
    const img = document.querySelector('main img').getBoundingClientRect();
    const frame = document.querySelector('iframe').getBoundingClientRect();
    const top = document.elementFromPoint(img.left + img.width / 2, Math.max(img.top, 0) + 20);
    return { covered: top?.tagName, inside: img.top >= frame.top - 0.5 && img.bottom <= frame.bottom + 0.5 };
  });
  assert.deepEqual(seen, { covered: 'IFRAME', inside: true }, 'the picture lies under the live figure, within it');
  await p.assertClean('a reader without the resizer');
  await p.context.close();
});

test('with_javascript_off_the_picture_should_show_once_at_the_snippets_settings', async (t) => {
  // A browser with JavaScript off from the start, in every frame: the per-context switch reaches
  // a cross-origin frame's process only once it is attached, after it may have parsed its page.
  const off = await chromium.launch({
    executablePath: TEST_CHROMIUM,
    args: [...LAUNCH_ARGS, '--blink-settings=scriptEnabled=false'],
  });
  t.after(() => off.close());
  for (const auto of [true, false]) {
    const { code } = await builderSnippet(QUERY, { auto });
    const file = pictureFile(VIEW, 'light', SETTINGS);
    const p = await openBlog(off, blogHtml(`<p>Before.</p>${code}<p>After.</p>`), {
      viewport: { width: 760, height: 900 },
      javaScriptEnabled: false,
    });
    const { page } = p;
    const what = `JavaScript off, ${auto ? 'auto' : 'fixed'} height`;
    await page.locator('iframe').scrollIntoViewIfNeeded();
    const frame = await explorerFrame(page);
    await frame.waitForFunction(
      () => document.querySelector('.frame-picture:target .frame-img')?.getBoundingClientRect().height > 300,
      null,
      { polling: 100 }, // on a timer: a page that runs no script may paint no frame to poll on
    );
    const inner = await frame.evaluate(() => ({
      shown: [...document.querySelectorAll('.frame-img')]
        .filter((i) => i.getClientRects().length > 0)
        .map((i) => getComputedStyle(i).content),
      label: document.querySelector('.frame-picture:target .frame-img').getAttribute('aria-label'),
      height: document.querySelector('.frame-picture:target').getBoundingClientRect().height,
    }));
    assert.equal(inner.shown.length, 1, `${what}: one picture in the frame (${inner.shown})`);
    assert.ok(inner.shown[0].includes(`/pictures/${file}`), `${what}: the snippet's own picture (${inner.shown[0]})`);
    assert.equal(inner.label, defaultAlt(VIEW, SETTINGS), `${what}: its alt text`);
    const host = await page.evaluate(() => {
      const img = document.querySelector('main img').getBoundingClientRect();
      const frame = document.querySelector('iframe').getBoundingClientRect();
      const top = document.elementFromPoint(img.left + img.width / 2, Math.max(img.top, 0) + 20);
      return { covered: top?.tagName, inside: img.top >= frame.top - 0.5 && img.bottom <= frame.bottom + 0.5 };
    });
    assert.deepEqual(host, { covered: 'IFRAME', inside: true }, `${what}: the host's copy lies under the frame`);
    assert.ok(inner.height > 300, `${what}: the frame's picture is shown (${inner.height} px)`);
    assert.deepEqual(p.problems, [], `${what}: no failed request or error`);
    await p.context.close();
  }
});

test('the_snippets_picture_should_be_rendered_at_its_settings_and_the_builder_should_name_a_missing_one', async () => {
  const { views } = manifest();
  const entry = views[VIEW].settings.find((s) => JSON.stringify(s.settings) === JSON.stringify(SETTINGS));
  assert.ok(entry, `pictures.json has ${VIEW} at ${QUERY}`);
  // What the page held when it drew the picture, read from the page by tools/pictures.mjs.
  assert.deepEqual(entry.drawn, SETTINGS, 'the picture was drawn at those settings');
  assert.deepEqual(views[VIEW].drawn, { dim: 64, base: 10000, gap: 2 }, 'the default picture at the defaults');
  assert.equal(entry.light.file, pictureFile(VIEW, 'light', SETTINGS));
  assert.equal(entry.alt, defaultAlt(VIEW, SETTINGS), "the builder's alt text is the picture's");
  const pictures = join(ROOT, 'dist/pictures');
  assert.ok(
    !readFileSync(join(pictures, entry.light.file)).equals(readFileSync(join(pictures, views[VIEW].light.file))),
    'another picture than the default one',
  );

  const exact = await builderSnippet(QUERY);
  assert.ok(exact.code.includes(`/pictures/${entry.light.file}"`), 'the snippet carries it');
  assert.ok(exact.code.includes(`#${VIEW}-dim128-base500000-gap16"`), "the frame's address names it");
  assert.match(exact.note, /see its picture, at these settings/);

  // dim 96 has no picture: the nearest (dim 128 with the same base and gap), and the builder says so.
  const near = await builderSnippet('?dim=96&base=500000&gap=16');
  assert.ok(near.code.includes(`/pictures/${entry.light.file}"`), 'the nearest picture');
  assert.equal(near.note, 'No picture at dim 96: readers without JavaScript (feeds, mail) see the one at dim 128.');
  // A view that does not read dim keeps its one picture, which is exact.
  const chapter = await builderSnippet('?dim=96', { view: 'order' });
  assert.ok(chapter.code.includes('/pictures/order-light.png"'), "the chapter's picture");
  assert.match(chapter.note, /at these settings/);
  // The rotating pair's own inputs are its settings too.
  const pair = await builderSnippet('?pair=3', { view: 'circle' });
  assert.ok(pair.code.includes('/pictures/circle-light.png"'), "the pair's default picture");
  assert.match(pair.note, /^No picture at pair i 3: .* the one at pair i 0\.$/);
});
