// The npm package (issue 36): make dist builds dist/npm/ (tools/npm_package.mjs); `npm pack` of
// it is publishable (no "private"), under 1 MB, with a LICENSE, the element, the resizer and its
// pictures. Installed from the tarball into an empty folder (offline: a local tarball with no
// dependencies) and imported through a bundler, it draws a figure whose credit links to the
// explorer's public address make was given (PUBLIC_URL).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { build } from 'esbuild';
import { FIGURE_NAMES } from '../../web/gen/figure_names.js';
import { PUBLIC_EXPLORER } from '../../web/gen/public_url.js';
import { VERSION } from '../../web/gen/version.js';
import { ROOT, useServerAndBrowser } from './harness.mjs';
import { blogFile, blogHtml, openBlog } from './host.mjs';

const env = useServerAndBrowser();
const PACKAGE = join(ROOT, 'dist/npm');
const QUIET = {
  ...process.env,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

test('npm_pack_should_give_a_publishable_package_under_1_MB_that_draws_when_imported', async (t) => {
  if (!existsSync(join(PACKAGE, 'package.json'))) return t.skip('no dist/npm/: run make dist');
  const work = mkdtempSync(join(tmpdir(), 'ropescope-pack-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const name = execFileSync('npm', ['pack', PACKAGE, '--pack-destination', work, '--offline'], {
    encoding: 'utf8',
    env: QUIET,
    stdio: ['ignore', 'pipe', 'ignore'],
  })
    .trim()
    .split('\n')
    .pop();
  const tarball = join(work, name);
  assert.equal(name, `ropescope-${VERSION}.tgz`);
  const bytes = statSync(tarball).size;
  console.log(`# ${name}: ${(bytes / 1024).toFixed(1)} KB`);
  assert.ok(bytes < 1024 * 1024, `under 1 MB (${bytes} bytes)`);
  const listed = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
  for (const file of [
    'LICENSE',
    'README.md',
    'package.json',
    'ropescope-embed.js',
    'ropescope-resize.js',
    'ropescope.html',
  ])
    assert.ok(listed.includes(`package/${file}`), `${file} in the package`);
  for (const view of FIGURE_NAMES)
    assert.ok(listed.includes(`package/pictures/${view}-light.webp`), `${view}'s picture in the package`);
  const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'));
  assert.ok(!('private' in manifest), 'publishable: not private');
  assert.equal(manifest.license, 'MIT');
  assert.match(readFileSync(join(PACKAGE, 'LICENSE'), 'utf8'), /^MIT License/);

  // Installed from the tarball into an empty project, offline.
  const project = join(work, 'blog');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), '{ "name": "a-blog", "version": "1.0.0", "private": true }\n');
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], {
    cwd: project,
    env: QUIET,
    stdio: 'ignore',
  });
  const installed = join(project, 'node_modules/ropescope');
  assert.ok(existsSync(join(installed, 'ropescope-embed.js')), 'installed');
  assert.ok(readdirSync(join(installed, 'pictures')).length > FIGURE_NAMES.length, 'with its pictures');

  // A blog's script that imports it, bundled as a bundler would.
  // The element's chunks come from where the blog serves them, copied from the package.
  writeFileSync(
    join(project, 'app.js'),
    "import 'ropescope';\nwindow.ropescopeChunksBase = '/assets/ropescope-embed/';\nconsole.info('the blog script ran');\n",
  );
  for (const file of readdirSync(join(installed, 'ropescope-embed')))
    blogFile(
      `/assets/ropescope-embed/${file}`,
      'text/javascript',
      readFileSync(join(installed, 'ropescope-embed', file)),
    );
  const bundled = await build({
    entryPoints: [join(project, 'app.js')],
    absWorkingDir: project,
    bundle: true,
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  blogFile('/assets/app.js', 'text/javascript; charset=utf-8', bundled.outputFiles[0].contents);
  const picture = readFileSync(join(installed, 'pictures/slow-light.webp'));
  blogFile('/assets/slow-light.webp', 'image/webp', picture);
  const p = await openBlog(
    env.browser,
    blogHtml(
      '<p>Before.</p><rope-scope view="slow"><img src="/assets/slow-light.webp" alt="The slow pairs" width="100%"></rope-scope>' +
        '<p>After.</p><script src="/assets/app.js"></script>',
    ),
    { viewport: { width: 760, height: 900 } },
  );
  const { page } = p;
  await page.waitForFunction(
    () => {
      const canvas = document.querySelector('rope-scope')?.shadowRoot?.querySelector('canvas');
      return (
        canvas && customElements.get('rope-scope').Chart.getChart(canvas) && document.querySelector('rope-scope').drawn
      );
    },
    null,
    { timeout: 20000 },
  );
  const credit = await page.evaluate(() =>
    document.querySelector('rope-scope').shadowRoot.querySelector('.attribution a').getAttribute('href'),
  );
  assert.ok(credit.startsWith(`${PUBLIC_EXPLORER}?`), `the credit links to the explorer's public address (${credit})`);
  assert.ok(
    PUBLIC_EXPLORER.endsWith('/ropescope.html') && existsSync(join(ROOT, 'dist/ropescope.html')),
    'make dist writes that page',
  );
  await p.assertClean('the package imported by a blog');
  await p.context.close();
});
