// oEmbed from make serve (tools/serve.mjs): /oembed?url=<an explorer page>&format=json answers
// type rich with the builder's iframe snippet for that page's view and settings; the pages it
// sends name the endpoint in a discovery <link>; bad requests get 400, 404 or 501 and a message
// naming the parameter; maxwidth and maxheight are honoured; the release's paths are answered.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { SANDBOX_ROOM } from '../../tools/oembed.mjs';
import { serve } from '../../tools/serve.mjs';
import { FIGURE_NAMES } from '../../web/gen/figure_names.js';
import { VERSION } from '../../web/gen/version.js';
import { defaultAlt, fixedHeight, useFigureRows } from '../../web/src/element/embed.js';
import { PICTURE_WIDTH } from '../../web/src/element/picture.js';
import { FIGURE } from '../../web/src/figures/index.js';
import { ROOT } from '../lib/testlib.mjs';

useFigureRows((name) => FIGURE[name]);

let server;
before(async () => {
  server = await serve();
});
after(() => server?.close());

const ask = async (query) => {
  const res = await fetch(`${server.url}oembed?${query}`);
  const type = res.headers.get('content-type');
  return { status: res.status, type, body: type.startsWith('application/json') ? await res.json() : await res.text() };
};
const about = (pageUrl, extra = '') => `url=${encodeURIComponent(pageUrl)}&format=json${extra}`;
const decode = (text) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<');

test('oembed_should_answer_rich_with_the_iframe_snippet_of_the_views_settings', async () => {
  const page = `${server.url}?dim=128&base=500000&gap=16&view=Slow&theme=dark&controls=gap`;
  const { status, type, body } = await ask(about(page));
  assert.equal(status, 200);
  assert.equal(type, 'application/json; charset=utf-8');
  assert.equal(body.type, 'rich');
  assert.equal(body.version, '1.0');
  assert.equal(body.provider_name, 'ropescope');
  assert.equal(body.title, FIGURE.slow.title);
  const options = { view: 'slow', controls: ['gap'], title: true, theme: 'dark' };
  assert.equal(body.width, PICTURE_WIDTH);
  // The height measured for the column, and room for the sandbox's line (tools/oembed.mjs).
  assert.equal(body.height, fixedHeight('slow', { ...options, column: PICTURE_WIDTH }) + SANDBOX_ROOM);
  const src = new URL(decode(/<iframe src="([^"]+)"/.exec(body.html)[1]));
  assert.equal(
    src.origin + src.pathname,
    `${server.url}v${VERSION}/ropescope/embed/slow.html`,
    "the release's embed document of the view",
  );
  assert.deepEqual(
    ['dim', 'base', 'gap', 'embed', 'view', 'theme', 'controls'].map((k) => src.searchParams.get(k)),
    ['128', '500000', '16', null, 'slow', 'dark', 'gap'],
    `the page's view and settings: ${src}`,
  );
  assert.equal(src.hash, '#slow-dim128-base500000-gap16', 'the picture at the settings, without JavaScript');
  assert.ok(body.html.includes(`height="${body.height}"`), 'the iframe is as tall as the answer says');
  assert.doesNotMatch(body.html, /<script/, 'no script: a consumer may strip it');
  const settings = { dim: 128, base: 500000, gap: 16 };
  assert.ok(decode(body.html).includes(`alt="${defaultAlt('slow', settings)}"`), 'the picture with its alt text');
  assert.ok(body.html.includes('/pictures/slow-dim128-base500000-gap16-dark.png"'), 'the picture at the settings');
  // The iframe's address is served (from web/, as the release folder).
  const frame = await fetch(src);
  assert.equal(frame.status, 200);
  assert.match(frame.headers.get('content-type'), /^text\/html/);
});

test('oembed_should_honour_maxwidth_and_maxheight', async () => {
  const page = `${server.url}v${VERSION}/ropescope/index.html?view=decay`;
  const full = (await ask(about(page))).body;
  const { status, body } = await ask(about(page, '&maxwidth=400&maxheight=300'));
  assert.equal(status, 200);
  assert.ok(full.height > 300, 'the figure is taller than the limit');
  assert.equal(body.width, 400);
  assert.equal(body.height, 300);
  assert.ok(body.html.includes('height="300"'));
  for (const key of ['thumbnail_url', 'thumbnail_width', 'thumbnail_height'])
    assert.ok(!(key in body), `${key}: the 2x picture does not fit 400 x 300, so none is offered`);
});

// WordPress asks with maxwidth, its content column: the height measured for that column.
test('oembed_should_fit_the_height_to_the_column_maxwidth_gives', async () => {
  const page = `${server.url}?view=decay`;
  for (const column of [320, 480, 640, 680, 800]) {
    const { body } = await ask(about(page, `&maxwidth=${column}`));
    const width = Math.min(column, PICTURE_WIDTH);
    assert.equal(body.width, width, `maxwidth=${column}`);
    const want = fixedHeight('decay', { controls: [], title: true, theme: 'auto', column: width }) + SANDBOX_ROOM;
    assert.equal(body.height, want, `maxwidth=${column}: the height measured for that column`);
    assert.ok(body.html.includes(`height="${want}"`), `maxwidth=${column}: the iframe's`);
  }
  const narrow = (await ask(about(page, '&maxwidth=320'))).body.height;
  const wide = (await ask(about(page, '&maxwidth=680'))).body.height;
  assert.ok(wide < narrow, `a wider column, a shorter iframe (${wide} < ${narrow})`);
});

// The explorer's "Copy link" has no view=: the figure the link points at, or the first.
test('oembed_should_embed_one_figure_for_an_address_without_view', async () => {
  const first = (await ask(about(server.url))).body;
  const name = FIGURE_NAMES[0];
  assert.equal(first.title, FIGURE[name].title, 'the first figure');
  assert.ok(decode(first.html).includes(`/embed/${name}.html`), `the first figure's document, embed/${name}.html`);
  const pointed = (await ask(about(`${server.url}?gap=16#fig-decay`))).body;
  assert.equal(pointed.title, FIGURE.decay.title, 'the figure #fig-NAME points at');
  assert.match(decode(pointed.html), /\/embed\/decay\.html\?[^"#]*gap=16[^"#]*&view=decay#/);
  // theme=inherit needs the resizer, which a consumer strips: the reader's scheme instead.
  const inherit = (await ask(about(`${server.url}?view=slow&theme=inherit`))).body;
  assert.doesNotMatch(decode(inherit.html), /theme=inherit/);
});

test('oembed_should_offer_the_views_picture_as_thumbnail_when_make_dist_wrote_it', async (t) => {
  const manifest = join(ROOT, 'dist/pictures/pictures.json');
  if (!existsSync(manifest)) return t.skip('no dist/pictures/: run make dist');
  const { views } = JSON.parse(readFileSync(manifest, 'utf8'));
  for (const theme of ['light', 'dark']) {
    const { body } = await ask(about(`${server.url}?view=angles&theme=${theme}`));
    const entry = views.angles[theme];
    assert.equal(body.thumbnail_url, `${server.url}v${VERSION}/pictures/${entry.file}`);
    assert.equal(body.thumbnail_width, entry.width);
    assert.equal(body.thumbnail_height, entry.height);
    const png = await fetch(body.thumbnail_url);
    assert.equal(png.status, 200);
    assert.equal(png.headers.get('content-type'), 'image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    assert.ok(bytes.equals(readFileSync(join(ROOT, 'dist/pictures', entry.file))), 'the dist file');
  }
});

test('pages_should_name_their_oembed_answer_in_a_discovery_link', async () => {
  for (const path of ['?view=circle&gap=7', `v${VERSION}/ropescope/index.html?view=heatmap`]) {
    const html = await (await fetch(server.url + path)).text();
    const links = [...html.matchAll(/<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"[^>]*>/g)];
    assert.equal(links.length, 1, `${path}: one discovery link`);
    assert.ok(html.indexOf(links[0][0]) < html.indexOf('</head>'), 'in the head');
    const href = new URL(decode(links[0][1]));
    assert.equal(href.searchParams.get('url'), server.url + path, 'it names the page itself');
    const answer = await (await fetch(href)).json();
    assert.equal(answer.type, 'rich');
    const view = new URLSearchParams(path.split('?')[1]).get('view');
    assert.equal(answer.title, FIGURE[view].title);
  }
});

test('oembed_should_refuse_bad_requests_naming_the_parameter', async () => {
  const here = server.url;
  const origin = here.slice(0, -1).replace(/[.]/g, '\\.');
  const cases = [
    [about(here).replace('format=json', 'format=xml'), 501, /^oembed: format: only json is offered, not "xml"/],
    ['format=json', 400, /^oembed: url: missing/],
    ['url=&format=json', 400, /^oembed: url: missing/],
    [about('not a url'), 400, /^oembed: url: "not a url" is not an absolute address/],
    [about('https://example.org/?view=slow'), 404, /^oembed: url: "https:\/\/example.org" is not this server/],
    // Issue #35: an address with no origin was answered '"null" is not this server'.
    [
      about('javascript:alert(1)'),
      404,
      new RegExp(
        `^oembed: url: "javascript:alert\\(1\\)" is not an http\\(s\\) address of this server \\(${origin}\\)\n$`,
      ),
    ],
    [
      about('data:text/html,<p>'),
      404,
      /^oembed: url: "data:text\/html,<p>" is not an http\(s\) address of this server/,
    ],
    [about(`blob:${here}index.html`), 404, /^oembed: url: "blob:http:.*" is not an http\(s\) address of this server/],
    [about(`${here}style.min.css`), 404, /^oembed: url: \/style.min.css is not an explorer page here/],
    [about(`${here}nothing/index.html`), 404, /^oembed: url: \/nothing\/index.html is not an explorer page here/],
    [about(`${here}?view=flatnes`), 404, /^oembed: url: view .*flatnes/],
    [about(here, '&maxwidth=0'), 400, /^oembed: maxwidth: must be a whole number of pixels/],
    [about(here, '&maxheight=12.5'), 400, /^oembed: maxheight: must be a whole number of pixels/],
    [about(here, '&maxwidth=-3'), 400, /^oembed: maxwidth: .*"-3"/],
  ];
  for (const [query, status, message] of cases) {
    const got = await ask(query);
    assert.equal(got.status, status, `${query}: ${got.body}`);
    assert.match(got.type, /^text\/plain/);
    assert.match(got.body, message, query);
  }
});

test('serve_should_answer_the_release_folders_paths', async () => {
  const release = `${server.url}v${VERSION}/`;
  const same = async (path, file) => {
    const res = await fetch(release + path);
    assert.equal(res.status, 200, path);
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(ROOT, file))), `${path} is ${file}`);
  };
  await same('ropescope-resize.js', 'web/ropescope-resize.js');
  await same('ropescope/style.min.css', 'web/style.min.css');
  if (existsSync(join(ROOT, 'dist/ropescope-embed.js'))) await same('ropescope-embed.js', 'dist/ropescope-embed.js');
  for (const path of ['v0.0.0/ropescope/index.html', `v${VERSION}/ropescope/../../package.json`, `v${VERSION}/x.js`]) {
    assert.equal((await fetch(server.url + path)).status, 404, path);
  }
});
