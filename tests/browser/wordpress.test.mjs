// WordPress's oEmbed path (issue 36): a pasted explorer address becomes the answer's markup inside
// an iframe of WordPress's own with sandbox="allow-scripts", where downloads and new tabs are
// refused without a word. The figure says so and offers no exports there, gives the explorer's
// address as text, and the iframe is fitted to the 680 px column WordPress asks for (maxwidth).
// A static host's answer: make dist's oembed/<view>.json, named by the embed document's
// discovery <link>.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FIGURE_NAMES } from '../../web/gen/figure_names.js';
import { PUBLIC_URL } from '../../web/gen/public_url.js';
import { VERSION } from '../../web/gen/version.js';
import { ROOT, useServerAndBrowser, waitFrameDrawn } from './harness.mjs';
import { blogHtml, openBlog, until } from './host.mjs';

const env = useServerAndBrowser();
const COLUMN = 680;

const escapeAttr = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

test('a_sandboxed_oembed_should_explain_its_exports_and_fit_the_column', async () => {
  const address = `${env.server.url}?view=slow&gap=16`;
  const res = await fetch(
    `${env.server.url}oembed?url=${encodeURIComponent(address)}&format=json&maxwidth=${COLUMN}&maxheight=2000`,
  );
  assert.equal(res.status, 200);
  const answer = await res.json();
  assert.equal(answer.width, COLUMN);
  // What WordPress writes for a provider it does not know: the markup in a sandboxed frame.
  const inner = `<!doctype html><style>body { margin: 0; }</style>${answer.html}`;
  const wrapped = `<iframe sandbox="allow-scripts" srcdoc="${escapeAttr(inner)}" width="${answer.width}" height="${answer.height}" frameborder="0" title="ropescope"></iframe>`;
  const p = await openBlog(env.browser, blogHtml(wrapped, `main { max-width: ${COLUMN}px; padding: 0; }`), {
    viewport: { width: COLUMN + 40, height: 900 },
  });
  const { page } = p;
  const frame = await until(
    async () => page.frames().find((f) => f.url().includes('/embed/slow.html')) ?? null,
    (f) => f !== null,
    'the figure inside the sandbox',
  );
  await waitFrameDrawn(frame);
  const seen = await frame.evaluate(() => {
    const root = document.querySelector('rope-scope').shadowRoot;
    return {
      origin: window.origin,
      note: root.querySelector('.sandbox-note')?.textContent ?? '',
      exports: root.querySelectorAll('.export').length,
      links: root.querySelectorAll('.attribution a').length,
      address: root.querySelector('.sandbox-address')?.textContent ?? '',
      content: Math.ceil(document.body.getBoundingClientRect().height),
      width: document.documentElement.clientWidth,
    };
  });
  assert.equal(seen.origin, 'null', 'an opaque origin: the sandbox');
  assert.match(seen.note, /sandbox, which refuses downloads and new tabs: no exports here/);
  assert.equal(seen.exports, 0, 'no export buttons that would do nothing');
  assert.equal(seen.links, 0, 'no link that would not open');
  const link = new URL(seen.address);
  assert.ok(link.pathname.endsWith(`/v${VERSION}/ropescope/index.html`), `the explorer's address (${seen.address})`);
  assert.equal(link.searchParams.get('gap'), '16', 'at the settings');
  assert.equal(seen.width, COLUMN, 'the column WordPress asked for');
  const blank = answer.height - seen.content;
  assert.ok(blank >= 0, `the figure fits (${seen.content} of ${answer.height} px)`);
  assert.ok(blank <= 0.05 * answer.height, `little blank at ${COLUMN} px: ${blank} of ${answer.height} px`);
  await p.context.close();
});

test('dist_should_write_a_static_oembed_answer_per_view_named_by_its_embed_document', async (t) => {
  const folder = join(ROOT, `dist/v${VERSION}`);
  if (!existsSync(join(folder, 'oembed'))) return t.skip('no dist/oembed/: run make dist');
  const release = `${PUBLIC_URL}v${VERSION}/`;
  for (const view of FIGURE_NAMES) {
    const answer = JSON.parse(readFileSync(join(folder, 'oembed', `${view}.json`), 'utf8'));
    assert.equal(answer.type, 'rich', view);
    assert.ok(answer.html.includes(`src="${release}ropescope/embed/${view}.html?`), `${view}: its embed document`);
    assert.doesNotMatch(answer.html, /<script/, `${view}: no script`);
    assert.ok(answer.height > 300 && answer.height < 2500, `${view}: a figure's height (${answer.height})`);
    const doc = readFileSync(join(folder, 'ropescope/embed', `${view}.html`), 'utf8');
    const links = [...doc.matchAll(/<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/g)];
    assert.deepEqual(
      links.map((m) => m[1]),
      [`${release}oembed/${view}.json`],
      `${view}: one discovery link, in the head`,
    );
    assert.ok(doc.indexOf(links[0][0]) < doc.indexOf('</head>'));
  }
});
