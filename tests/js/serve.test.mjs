// The page as tools/serve.mjs sends it: its stylesheets and scripts inlined (tools/inline.mjs,
// also used for dist/ropescope.html), each inline element allowed by its hash in the policy of
// both the header and the <meta>; every other file as it is; a page naming a missing file or
// one outside the folder is refused with a message that names it. Random file texts (seeded,
// the seed printed) hold the sequences an inline element must not carry as they are.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLASSIC_SCRIPT, classicPage, inlinePage, SPLIT_ENTRY } from '../../tools/inline.mjs';
import { serve } from '../../tools/serve.mjs';
import { rng, seed } from '../lib/testlib.mjs';

const random = rng(seed('serve'));
const POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; object-src 'none'";
const hash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const directive = (policy, name) =>
  policy
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name)
    .slice(1);

// Text of n pieces, some of which would end an inline element or open a comment state.
function text(n) {
  const pieces = ['a', ' ', ';', '</script>', '</SCRIPT', '<!--', '</style>', '$&', '$1', '"', "'", '\n', 'é', '→'];
  return Array.from({ length: n }, () => pieces[Math.floor(random() * pieces.length)]).join('');
}

function page({ meta = true, extra = '' } = {}) {
  return (
    `<!doctype html>\n<html><head>\n${meta ? `  <meta http-equiv="Content-Security-Policy" content="${POLICY}">\n` : ''}` +
    '  <link rel="stylesheet" href="s.css">\n  <link rel="preload" href="a.js" as="script">\n' +
    '  <link rel="preload" href="other.js" as="script">\n</head><body>\n' +
    `  <p>text</p>\n  <script src="a.js"></script>\n  <script src="sub/b.js"></script>\n${extra}</body></html>\n`
  );
}

const inlineTexts = (html, tag) =>
  [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1]);
const unescapeInline = (js) => js.replace(/<\\\/(script)/gi, '</$1').replace(/<\\!--/g, '<!--');

test('inlinePage_should_write_in_each_local_file_and_list_its_hash', () => {
  for (let round = 0; round < 20; round++) {
    const files = { 's.css': text(40), 'a.js': text(60), 'sub/b.js': text(60) };
    const remote = '  <script src="https://example.org/x.js"></script>\n  <script src="/root.js"></script>\n';
    const { html, policy, inlined } = inlinePage(page({ extra: remote }), (path) => files[path]);
    assert.deepEqual(inlined, ['s.css', 'a.js', 'sub/b.js'], 'the local files, in page order');
    const scripts = inlineTexts(html, 'script');
    assert.equal(scripts.length, 1, 'the two local scripts, one after the other, inline in one element');
    assert.deepEqual(
      scripts.map(unescapeInline),
      [`${files['a.js']}\n;\n${files['sub/b.js']}`],
      'each script whole, in order, escaped only',
    );
    for (const js of scripts) {
      assert.ok(!/<\/script/i.test(js) && !js.includes('<!--'), 'no inline script closes itself or opens a comment');
    }
    const [css] = inlineTexts(html, 'style');
    assert.equal(css.replace(/<\\\/(style)/gi, '</$1'), files['s.css']);
    assert.deepEqual(
      directive(policy, 'script-src'),
      [...scripts.map(hash), "'wasm-unsafe-eval'"],
      'script-src: the hashes, no self',
    );
    assert.deepEqual(directive(policy, 'style-src'), [hash(css)], 'style-src: the hash');
    assert.deepEqual(directive(policy, 'object-src'), ["'none'"], 'the other directives kept');
    assert.ok(html.includes(`content="${policy}"`), 'the <meta> holds the same policy');
    assert.ok(!html.includes('href="a.js" as="script"'), 'the inlined script is not preloaded');
    assert.ok(html.includes('href="other.js" as="script"'), 'a preload of another file stays');
    assert.ok(html.includes(remote), 'remote and absolute scripts are left as they are');
  }
});

// The hint pays only while a file streams in (compiled off the main thread): inline, it is dropped.
test('inlinePage_should_drop_the_compile_hint_on_a_scripts_first_line_only', () => {
  const HINT = '//# allFunctionsCalledOnLoad';
  const body = text(40);
  const files = { 's.css': 'p{}', 'a.js': `${HINT}\n${body}`, 'sub/b.js': `${body}\n${HINT}\n` };
  const { html, policy } = inlinePage(page(), (path) => files[path]);
  const scripts = inlineTexts(html, 'script').map(unescapeInline);
  assert.deepEqual(
    scripts,
    [`${body}\n;\n${files['sub/b.js']}`],
    'the first line of a.js goes; a hint further in stays',
  );
  assert.deepEqual(directive(policy, 'script-src').slice(0, 1), inlineTexts(html, 'script').map(hash));
});

// Only scripts with nothing but blanks between them share an element: the page's order stays.
test('inlinePage_should_keep_scripts_apart_when_something_stands_between_them', () => {
  const files = { 's.css': 'p{}', 'a.js': '1', 'sub/b.js': '2' };
  const split = page().replace('<script src="sub/b.js">', '<p>between</p>\n  <script src="sub/b.js">');
  const { html, inlined } = inlinePage(split, (path) => files[path]);
  assert.deepEqual(inlineTexts(html, 'script'), ['1', '2'], 'two elements, in order');
  assert.deepEqual(inlined, ['s.css', 'a.js', 'sub/b.js']);
});

// The split script (tools/split_page.mjs): its entry's preload brings the first files' preloads
// (chunks.json beside it), the module tag stays a fetch of the folder's own file; for the page
// opened from disk, classicPage puts the one classic script in its place.
test('inlinePage_should_preload_the_split_scripts_first_files_and_classicPage_should_swap_it', () => {
  const first = ['app.js', 'chunk-AB12CD34.js', 'order-X1.js'];
  const files = {
    's.css': 'p{}',
    'a.js': '1',
    'sub/b.js': '2',
    'vendor/chart.js': 'C',
    'split/chunks.json': JSON.stringify({ first }),
  };
  // As web/index.html has it: the module in <head>, no Chart.js (the split page fetches it after
  // its first screen is painted).
  const module = `<script type="module" src="${SPLIT_ENTRY}" blocking="render"></script>`;
  const split = page()
    .replace(
      '  <link rel="preload" href="other.js" as="script">\n',
      `  <link rel="modulepreload" href="${SPLIT_ENTRY}">\n  ${module}\n`,
    )
    .replace('</body>', '  <p>after</p>\n</body>');
  const { html, inlined } = inlinePage(split, (path) => {
    if (!Object.hasOwn(files, path)) throw new Error(`no ${path}`);
    return files[path];
  });
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
  assert.deepEqual(
    preloads,
    first.map((file) => `split/${file}`),
    'the entry, then the other first files, once each',
  );
  assert.ok(html.includes(module), 'the module is fetched, not inlined');
  assert.deepEqual(inlined, ['s.css', 'a.js', 'sub/b.js']);
  assert.ok(!html.includes('vendor/chart.js'), 'the split page names no Chart.js');
  assert.throws(() => inlinePage(split, (path) => (path.endsWith('.json') ? '{' : files[path])), SyntaxError);

  const classic = classicPage(split);
  assert.ok(
    classic.includes(
      `<link rel="preload" href="vendor/chart.js" as="script">\n  <link rel="preload" href="${CLASSIC_SCRIPT}" as="script">`,
    ),
    'preloads Chart.js and the classic script',
  );
  assert.ok(
    classic.includes(
      `<p>after</p>\n  <script src="vendor/chart.js"></script>\n  <script src="${CLASSIC_SCRIPT}"></script>\n</body>`,
    ),
    'loads Chart.js, then the classic script, at the end of <body>',
  );
  assert.equal(classic.split('<script src="vendor/chart.js">').length, 2, 'Chart.js once');
  assert.ok(!classic.includes('type="module"') && !classic.includes('modulepreload'), 'no module left');
  assert.throws(() => classicPage(page()), /does not load split\/app\.js/);
});

test('inlinePage_without_a_meta_should_take_the_given_policy_keep_self_if_asked_and_refuse_none', () => {
  const files = { 's.css': 'p{}', 'a.js': '1', 'sub/b.js': '2' };
  const { html, policy } = inlinePage(page({ meta: false }), (path) => files[path], { policy: POLICY, keepSelf: true });
  assert.ok(!html.includes('Content-Security-Policy'), 'no <meta> is added');
  assert.deepEqual(directive(policy, 'script-src'), [hash('1\n;\n2'), "'self'", "'wasm-unsafe-eval'"], 'self kept');
  assert.deepEqual(directive(policy, 'style-src'), [hash('p{}'), "'self'"]);
  assert.throws(() => inlinePage(page({ meta: false }), (path) => files[path]), /no Content-Security-Policy/);
  assert.throws(
    () => inlinePage(page({ meta: false }), (path) => files[path], { policy: "default-src 'self'; style-src 'self'" }),
    /no script-src/,
  );
});

test('serve_should_send_pages_inlined_and_other_files_as_they_are', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ropescope-serve-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'sub'));
  const files = { 's.css': text(30), 'a.js': text(50), 'sub/b.js': text(50) };
  for (const [path, body] of Object.entries(files)) writeFileSync(join(dir, path), body);
  writeFileSync(join(dir, 'index.html'), page());
  writeFileSync(join(dir, 'missing.html'), '<script src="gone.js"></script>\n');
  writeFileSync(join(dir, 'outside.html'), '<script src="../secret.js"></script>\n');

  const server = await serve(dir, 0);
  t.after(() => server.close());
  const res = await fetch(server.url);
  const html = await res.text();
  assert.equal(res.status, 200);
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)[1];
  assert.equal(res.headers.get('content-security-policy'), meta, "the header is the page's own policy");
  assert.deepEqual(
    directive(meta, 'script-src'),
    [...inlineTexts(html, 'script').map(hash), "'self'", "'wasm-unsafe-eval'"],
    "the inline scripts' hashes, and the folder's own files",
  );
  assert.equal(Number(res.headers.get('content-length')), Buffer.byteLength(html), 'length in bytes');
  assert.ok(!/<script src="(a|sub\/b)\.js"/.test(html), 'no local script left to fetch');

  const script = await fetch(`${server.url}a.js`);
  assert.equal(await script.text(), files['a.js'], 'a script as it is');
  assert.ok(directive(script.headers.get('content-security-policy'), 'script-src').includes("'self'"));

  for (const [path, name] of [
    ['missing.html', 'gone.js'],
    ['outside.html', '../secret.js'],
  ]) {
    const bad = await fetch(server.url + path);
    assert.equal(bad.status, 500, path);
    assert.match(await bad.text(), new RegExp(`could not inline /${path}: .*${name.replace(/[.]/g, '\\.')}`), path);
  }

  // The inlined page is kept between requests, and made again when a file it holds changes.
  assert.equal(await (await fetch(server.url)).text(), html, 'the same page again');
  const edited = `${text(20)}/*edited*/`;
  writeFileSync(join(dir, 'sub/b.js'), edited);
  const again = await (await fetch(server.url)).text();
  assert.ok(unescapeInline(inlineTexts(again, 'script')[0]).endsWith(`\n;\n${edited}`), 'an edited script shows');
  rmSync(join(dir, 'sub/b.js'));
  const gone = await fetch(server.url);
  assert.equal(gone.status, 500, 'a removed script is missed, not served from before');
  writeFileSync(join(dir, 'sub/b.js'), files['sub/b.js']);
  assert.equal(await (await fetch(server.url)).text(), html, 'and back as it was');

  const plain = await serve(dir, 0, { asFiles: true });
  t.after(() => plain.close());
  const asIs = await fetch(plain.url);
  assert.equal(await asIs.text(), page(), '--as-files: the page as it is');
});
