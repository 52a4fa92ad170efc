// The pictures (issue 21, "a picture first"): make dist writes every view, light and dark, as a
// PNG at 2x (dist/pictures/ and dist/v<version>/pictures/); the builder's snippets, both ways,
// carry the view's picture with its alt text; a reader with JavaScript off sees that picture,
// a drawn <rope-scope> hides it, and one under a policy that refuses WebAssembly shows it again.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FIGURE_NAMES } from '../../web/gen/figure_names.js';
import { VERSION } from '../../web/gen/version.js';
import { defaultAlt, useFigureRows } from '../../web/src/element/embed.js';
import { PICTURE_SCALE, PICTURE_THEMES, PICTURE_WIDTH, pictureFile } from '../../web/src/element/picture.js';
import { FIGURE } from '../../web/src/figures/index.js';
import { openPage, ROOT, settle, useServerAndBrowser, waitReady } from './harness.mjs';
import { blogHtml, holdPreview, openBlog } from './host.mjs';

useFigureRows((name) => FIGURE[name]);

const env = useServerAndBrowser();
const PICTURES = join(ROOT, 'dist/pictures');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function manifest() {
  const path = join(PICTURES, 'pictures.json');
  assert.ok(existsSync(path), 'dist/pictures/pictures.json is missing: run make dist');
  return JSON.parse(readFileSync(path, 'utf8'));
}

test('dist_should_write_every_view_light_and_dark_as_a_png_at_2x', () => {
  const { views, scale } = manifest();
  assert.equal(scale, PICTURE_SCALE);
  assert.deepEqual(Object.keys(views), [...FIGURE_NAMES], 'one entry per view, in page order');
  for (const view of FIGURE_NAMES) {
    for (const theme of PICTURE_THEMES) {
      const file = pictureFile(view, theme);
      const bytes = readFileSync(join(PICTURES, file));
      const what = `dist/pictures/${file}`;
      assert.deepEqual(bytes.subarray(0, 8), PNG_SIGNATURE, `${what}: a PNG`);
      assert.equal(bytes.toString('latin1', 12, 16), 'IHDR', `${what}: its header chunk first`);
      const width = bytes.readUInt32BE(16);
      const height = bytes.readUInt32BE(20);
      assert.equal(width, PICTURE_WIDTH * PICTURE_SCALE, `${what}: ${PICTURE_WIDTH} CSS px at 2x`);
      // A title, a 300 px chart and a caption at 2x, and not a whole page.
      assert.ok(height > 2 * 400 && height < 2 * 2000, `${what}: height ${height} px`);
      assert.ok(bytes.length > 20_000 && bytes.length < 1_000_000, `${what}: ${bytes.length} bytes`);
      assert.deepEqual(views[view][theme], { file, width, height }, `${what}: pictures.json gives its size`);
      const released = readFileSync(join(ROOT, `dist/v${VERSION}/pictures`, file));
      assert.ok(released.equals(bytes), `dist/v${VERSION}/pictures/${file} is the same file`);
    }
    // The alt text the builder writes is the picture's own: title and caption at the defaults.
    assert.equal(views[view].alt, defaultAlt(view), `${view}: the builder's alt text is the picture's`);
    assert.ok(views[view].alt.length < 400, `${view}: a short alt text`);
  }
});

/** The builder's snippet for `view` with options: { way, theme, auto }. */
async function builderSnippet(page, view, { way = 'iframe', theme = 'auto', auto = true } = {}) {
  await page.selectOption('#embed-way', way);
  await page.selectOption('#embed-view', view);
  await page.selectOption('#embed-theme', theme);
  if (way === 'iframe') await (auto ? page.check('#embed-auto') : page.uncheck('#embed-auto'));
  return page.inputValue('#embed-code');
}

async function openBuilder() {
  const p = await openPage(env.browser, env.server.url);
  await waitReady(p.page);
  await holdPreview(p.page);
  return p;
}

const decode = (text) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<');

test('snippets_should_carry_the_views_picture_with_its_alt_text', async () => {
  const { views } = manifest();
  const p = await openBuilder();
  const { page } = p;
  const release = `${env.server.url}v${VERSION}/`;
  for (const view of ['flatness', 'circle', 'scaling']) {
    const alt = views[view].alt;
    for (const way of ['iframe', 'element']) {
      for (const theme of ['light', 'dark', 'auto']) {
        const code = await builderSnippet(page, view, { way, theme });
        const what = `${view}, ${way}, theme ${theme}`;
        const imgs = [...code.matchAll(/<img src="([^"]+)" alt="([^"]+)" width="100%"( loading="lazy")?>/g)];
        assert.equal(imgs.length, 1, `${what}: one <img>: ${code}`);
        const [, src, altText, lazy] = imgs[0];
        // Inside the element the picture is fetched only where the figure cannot draw.
        assert.equal(Boolean(lazy), way === 'element', `${what}: loading="lazy" inside the element alone`);
        assert.equal(decode(altText), alt, `${what}: the alt text is the picture's`);
        assert.equal(src, `${release}pictures/${view}-${theme === 'dark' ? 'dark' : 'light'}.png`, `${what}: src`);
        if (theme === 'auto') {
          assert.ok(
            code.includes(`<source srcset="${release}pictures/${view}-dark.png" media="(prefers-color-scheme: dark)">`),
            `${what}: the dark picture for a dark scheme`,
          );
        }
        const link = /<a href="([^"]+)"/.exec(code)[1];
        assert.ok(decode(link).startsWith(`${release}ropescope/index.html?`), `${what}: linked to the explorer`);
        if (way === 'iframe') {
          assert.match(
            code,
            /^<div data-ropescope-embed style="display:grid"><a href="[^"]+" data-ropescope-picture style="grid-area:1\/1;align-self:start"><(picture>|img ).*<\/a><iframe [^>]* style="grid-area:1\/1"><\/iframe><\/div>/,
            `${what}: the picture, then the iframe over it in the same grid cell`,
          );
          assert.ok(
            code.includes(`src="${release}ropescope/embed/${view}.html?`),
            `${what}: the iframe names the release's document of the view`,
          );
          assert.ok(code.includes(`<script src="${release}ropescope-resize.js" async>`), `${what}: the resizer`);
        } else {
          assert.match(
            code,
            new RegExp(`^<rope-scope [^>]*view="${view}"[^>]*><a href=`),
            `${what}: the picture inside`,
          );
          assert.ok(code.endsWith(`</a></rope-scope><script src="${release}ropescope-embed.js" async></script>`), what);
        }
      }
    }
  }
  await p.close();
});

// Every way, with JavaScript off: the reader sees the picture (loaded, its alt text, a size).
test('with_javascript_off_every_snippet_should_show_its_picture', async () => {
  const b = await openBuilder();
  const snippets = {
    'iframe, auto height': await builderSnippet(b.page, 'slow', { theme: 'light' }),
    'iframe, fixed height': await builderSnippet(b.page, 'angles', { theme: 'dark', auto: false }),
    element: await builderSnippet(b.page, 'decay', { way: 'element', theme: 'auto' }),
  };
  await b.close();
  const { views } = manifest();
  const want = { 'iframe, auto height': 'slow', 'iframe, fixed height': 'angles', element: 'decay' };
  for (const [way, code] of Object.entries(snippets)) {
    for (const scheme of ['light', 'dark']) {
      const p = await openBlog(env.browser, blogHtml(`<p>Before.</p>\n${code}\n<p>After.</p>`), {
        viewport: { width: 700, height: 900 },
        colorScheme: scheme,
        javaScriptEnabled: false,
      });
      const { page } = p;
      const img = page.locator('main a > img, main a > picture > img');
      await img.scrollIntoViewIfNeeded();
      await page.waitForFunction(() => document.querySelector('main img')?.complete, null, { polling: 100 });
      const seen = await img.evaluate((node) => {
        const box = node.getBoundingClientRect();
        return {
          alt: node.alt,
          natural: node.naturalWidth,
          current: node.currentSrc,
          width: box.width,
          height: box.height,
        };
      });
      const view = want[way];
      const what = `${way}, ${scheme} scheme, JavaScript off`;
      assert.equal(seen.alt, views[view].alt, `${what}: alt text`);
      assert.equal(seen.natural, PICTURE_WIDTH * PICTURE_SCALE, `${what}: the picture loaded`);
      const theme = way === 'iframe, auto height' ? 'light' : way === 'element' ? scheme : 'dark';
      assert.ok(seen.current.endsWith(`/pictures/${view}-${theme}.png`), `${what}: ${seen.current}`);
      assert.ok(seen.width > 600 && seen.height > 300, `${what}: shown (${seen.width}x${seen.height})`);
      assert.deepEqual(p.problems, [], `${what}: no failed request or error`);
      await p.context.close();
    }
  }
});

test('a_drawn_element_should_hide_its_picture_and_show_it_where_webassembly_is_refused', async () => {
  const b = await openBuilder();
  const code = await builderSnippet(b.page, 'slow', { way: 'element', theme: 'light' });
  await b.close();
  // The blog's copy of the element script (host.mjs serves dist/ropescope-embed.js there).
  const local = code.replace(
    /<script src="[^"]+" async><\/script>$/,
    '<script src="/ropescope-embed.js" async></script>',
  );
  assert.ok(local.endsWith('<script src="/ropescope-embed.js" async></script>'), local);
  const drawn = await openBlog(env.browser, blogHtml(local), { viewport: { width: 700, height: 900 } });
  await drawn.page.waitForFunction(() => {
    const canvas = document.querySelector('rope-scope')?.shadowRoot?.querySelector('canvas');
    return (
      canvas && customElements.get('rope-scope').Chart.getChart(canvas) && document.querySelector('rope-scope').drawn
    );
  });
  await settle(drawn.page);
  const hidden = await drawn.page.evaluate(() => ({
    img: document.querySelector('rope-scope img').getClientRects().length,
    slotHidden: document.querySelector('rope-scope').shadowRoot.querySelector('slot').hidden,
  }));
  assert.deepEqual(hidden, { img: 0, slotHidden: true }, 'the drawn element shows its figure, not the picture');
  await drawn.assertClean('a drawn element');
  await drawn.context.close();

  const explorer = env.server.url.replace(/\/$/, '');
  const policy = `default-src 'none'; script-src 'self'; img-src data: blob: ${explorer}`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}"><link rel="icon" href="data:,">
<title>A strict post</title></head><body><main>${local}</main></body></html>`;
  const p = await openBlog(env.browser, html, { viewport: { width: 700, height: 900 } });
  const { page } = p;
  await page.waitForFunction(() => {
    const notice = document.querySelector('rope-scope')?.shadowRoot?.querySelector('.notice');
    return notice && !notice.hidden;
  });
  await page.waitForFunction(() => document.querySelector('rope-scope img').complete);
  const seen = await page.evaluate(() => {
    const host = document.querySelector('rope-scope');
    const img = host.querySelector('img');
    const box = img.getBoundingClientRect();
    return {
      notice: host.shadowRoot.querySelector('.notice').textContent,
      figures: host.shadowRoot.querySelector('.figures').getClientRects().length,
      natural: img.naturalWidth,
      shown: box.width > 600 && box.height > 300,
    };
  });
  assert.match(seen.notice, /does not allow WebAssembly/);
  assert.equal(seen.figures, 0, 'no empty chart boxes');
  assert.equal(seen.natural, PICTURE_WIDTH * PICTURE_SCALE, 'the picture loaded');
  assert.ok(seen.shown, 'the picture shows under the notice');
  assert.deepEqual(p.problems, []);
  await p.context.close();
});
