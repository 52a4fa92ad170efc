// theme=inherit in an iframe (issue 36): the host page's resizer tells the frame its text colour,
// background, font and colour scheme; the frame follows them. In all four blog/reader pairs (a
// light or a dark blog, read in a light or a dark scheme) the figure's text is readable against
// what is really behind it (the blog's background, through the transparent frame: no opaque
// backdrop from a colour-scheme mismatch), in the blog's font.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openReady, useServerAndBrowser, waitFrameDrawn } from './harness.mjs';
import { blogHtml, explorerFrame, holdPreview, openBlog, until } from './host.mjs';

const env = useServerAndBrowser();

const BLOGS = {
  light: { css: '', background: [251, 250, 247], font: 'Georgia' },
  dark: {
    css: 'body { color: #e6e1d6; background: #16181d; font-family: "Trebuchet MS", Verdana, sans-serif; }',
    background: [22, 24, 29],
    font: 'Trebuchet MS',
  },
};

// W3C contrast ratio of two [r, g, b].
function contrast(a, b) {
  const lum = (rgb) => {
    const [r, g, bl] = rgb.map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
const rgb = (css) =>
  css
    .match(/[\d.]+/g)
    .slice(0, 3)
    .map(Number);

async function inheritSnippet() {
  const { p, page } = await openReady(env, '');
  await holdPreview(page);
  await page.selectOption('#embed-way', 'iframe');
  await page.check('#embed-auto');
  await page.selectOption('#embed-view', 'slow');
  await page.selectOption('#embed-theme', 'inherit');
  const code = await page.inputValue('#embed-code');
  await p.close();
  return code;
}

// The most common colour of the frame's box where nothing is drawn: the strip below the
// figure's credit line is not shot; its left margin (8 px wide, the figure's padding) is.
async function behindColor(page) {
  const box = await page.locator('iframe').boundingBox();
  const png = await page.screenshot({ clip: { x: box.x + 1, y: box.y + 40, width: 4, height: box.height - 80 } });
  return page.evaluate(async (b64) => {
    const blob = await (await fetch(`data:image/png;base64,${b64}`)).blob();
    const bitmap = await createImageBitmap(blob);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(bitmap, 0, 0);
    const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
    const counts = new Map();
    for (let i = 0; i < data.length; i += 4) {
      const key = `${data[i]},${data[i + 1]},${data[i + 2]}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts]
      .sort((a, b) => b[1] - a[1])[0][0]
      .split(',')
      .map(Number);
  }, png.toString('base64'));
}

test('an_inherit_iframe_should_be_readable_on_every_blog_in_every_reader_scheme', async () => {
  const code = await inheritSnippet();
  assert.match(code, /theme=inherit/);
  for (const [blog, { css, background, font }] of Object.entries(BLOGS)) {
    for (const scheme of ['light', 'dark']) {
      const what = `${blog} blog, ${scheme} reader`;
      const p = await openBlog(env.browser, blogHtml(`<p>Before.</p>${code}<p>After.</p>`, css), {
        viewport: { width: 760, height: 900 },
        colorScheme: scheme,
      });
      const { page } = p;
      const frame = await explorerFrame(page);
      await waitFrameDrawn(frame);
      await page.locator('iframe').scrollIntoViewIfNeeded();
      // The host's colours reached the frame, and the figure drew with them.
      const inner = await until(
        () =>
          frame.evaluate(() => {
            const root = document.querySelector('rope-scope').shadowRoot;
            const caption = root.querySelector('.caption, figcaption, [id^="caption-"]');
            const cs = getComputedStyle(caption);
            return {
              host: document.documentElement.dataset.hostBackground ?? null,
              color: cs.color,
              font: cs.fontFamily,
              scheme: getComputedStyle(document.documentElement).colorScheme,
            };
          }),
        (v) => v.host !== null,
        `${what}: the host's colours in the frame`,
      );
      assert.deepEqual(rgb(inner.host), background, `${what}: the background the resizer saw`);
      assert.ok(inner.font.includes(font), `${what}: the blog's font (${inner.font})`);
      const ratio = contrast(rgb(inner.color), background);
      assert.ok(ratio >= 4.5, `${what}: caption ${inner.color} on the blog's background, contrast ${ratio.toFixed(2)}`);
      // What is really behind the text: the blog's background through the frame.
      await page.waitForFunction(() => document.querySelector('[data-ropescope-picture]')?.style.display === 'none');
      const behind = await behindColor(page);
      assert.ok(
        behind.every((v, i) => Math.abs(v - background[i]) <= 2),
        `${what}: the blog's background shows through the frame (${behind}), no opaque backdrop`,
      );
      await p.assertClean(what);
      await p.context.close();
    }
  }
});
