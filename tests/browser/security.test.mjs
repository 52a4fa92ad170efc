// The page's Content-Security-Policy: the same policy in web/index.html's <meta>, in the
// server's header for every file (tools/serve.mjs, with nosniff) and, with hashes for its inline
// elements, in dist/ropescope.html and in the page the server sends (header and <meta> alike); no
// 'unsafe-inline' for scripts; and the harness's clean check
// really sees a violation (every other browser test asserts there is none).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openPage, ROOT, useServerAndBrowser, waitReady } from './harness.mjs';

const env = useServerAndBrowser();
const META = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/;

const directives = (policy) =>
  Object.fromEntries(
    policy
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/)[0], d.split(/\s+/).slice(1)]),
  );

function checkPolicy(policy, what) {
  const d = directives(policy);
  assert.deepEqual(d['default-src'], ["'self'"], `${what}: default-src`);
  assert.deepEqual(d['object-src'], ["'none'"], `${what}: object-src`);
  assert.deepEqual(d['base-uri'], ["'none'"], `${what}: base-uri`);
  assert.ok(d['script-src'].includes("'wasm-unsafe-eval'"), `${what}: script-src allows wasm`);
  for (const bad of ["'unsafe-inline'", "'unsafe-eval'", '*', 'data:', 'blob:', 'http:', 'https:']) {
    assert.ok(!d['script-src'].includes(bad), `${what}: script-src has ${bad}`);
    assert.ok(!d['style-src'].includes(bad), `${what}: style-src has ${bad}`);
  }
  return d;
}

test('every_page_should_carry_the_policy_and_the_server_should_send_it', async () => {
  const source = readFileSync(join(ROOT, 'web/index.html'), 'utf8');
  const policy = META.exec(source)?.[1];
  assert.ok(policy, 'web/index.html has a CSP <meta>');
  checkPolicy(policy, 'web/index.html');
  assert.ok(source.indexOf(META.exec(source)[0]) < source.indexOf('<script'), 'the <meta> comes before any script');
  assert.ok(!/\sstyle="/.test(source), 'web/index.html has no style attributes');

  for (const path of ['src/page/app.js', 'src/core/rope.js', 'style.css', 'no-such-file']) {
    const res = await fetch(env.server.url + path);
    await res.arrayBuffer();
    assert.equal(res.headers.get('content-security-policy'), policy, `/${path}: the CSP header is the <meta>'s`);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `/${path}: nosniff`);
  }
  // The page itself comes with its stylesheet inlined and no inline script (Chart.js, the split
  // script's files and the verify panel's script are the folder's own, fetched under 'self'): its
  // header and its <meta> are the page's policy with the inline style's hash before 'self'.
  const { createHash } = await import('node:crypto');
  const hash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const ownHashes = (html, tag) =>
    [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => hash(m[1]));
  const d0 = directives(policy);
  for (const path of ['', 'index.html']) {
    const res = await fetch(env.server.url + path);
    const html = await res.text();
    const served = META.exec(html)?.[1];
    const d = checkPolicy(served, `/${path}`);
    assert.deepEqual(d['script-src'], [...ownHashes(html, 'script'), ...d0['script-src']], `/${path}: script-src`);
    assert.deepEqual(d['style-src'], [...ownHashes(html, 'style'), ...d0['style-src']], `/${path}: style-src`);
    assert.equal(ownHashes(html, 'script').length, 0, `/${path}: no inline script`);
    assert.equal(ownHashes(html, 'style').length, 1, `/${path}: the stylesheet inline`);
    for (const name of Object.keys(d0)) {
      if (name !== 'script-src' && name !== 'style-src')
        assert.deepEqual(d[name], d0[name], `/${path}: ${name} as the page's`);
    }
    assert.equal(res.headers.get('content-security-policy'), served, `/${path}: the CSP header is its <meta>'s`);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `/${path}: nosniff`);
  }
  const folder = readFileSync(join(ROOT, 'dist/ropescope/index.html'), 'utf8');
  assert.equal(META.exec(folder)?.[1], policy, 'dist/ropescope/index.html has the same policy');

  const single = readFileSync(join(ROOT, 'dist/ropescope.html'), 'utf8');
  const d = checkPolicy(META.exec(single)[1], 'dist/ropescope.html');
  const texts = [...single.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  const inline = texts.map(hash);
  // Chart.js and the page's script, one after the other in index.html, share one element.
  assert.equal(inline.length, 1, 'Chart.js and the page script are inline, in one element');
  const [both] = texts;
  assert.ok(both.includes('ropescope:app-start') && both.includes('window.Chart'), 'Chart.js and the page script both');
  assert.ok(both.indexOf('window.Chart') < both.indexOf('ropescope:app-start'), 'Chart.js first');
  assert.deepEqual(
    d['script-src'].filter((s) => s.startsWith("'sha256-")),
    inline,
    "script-src lists exactly the inline scripts' hashes",
  );
  // Outside the inline scripts' own text (the embed builder writes a <script src=...> snippet).
  const markup = single.replace(/<script>[\s\S]*?<\/script>/g, '<script></script>');
  assert.ok(!/<script src=/.test(markup), 'no external script in the single file');
});

test('the_clean_check_should_catch_a_csp_violation', async () => {
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  await waitReady(page);
  const seen = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.__ran = true';
    document.body.append(script);
    await new Promise((r) => setTimeout(r, 100));
    const found = [...window.__cspViolations];
    window.__cspViolations.length = 0; // handled here: the close() check stays clean
    return { found, ran: window.__ran === true };
  });
  assert.equal(seen.ran, false, 'the inline script was blocked');
  assert.ok(
    seen.found.some((v) => v.startsWith('script-src')),
    `a script-src violation was recorded: ${seen.found}`,
  );
  p.problems.length = 0; // the console error Chromium logs for the blocked script
  await p.close();
});
