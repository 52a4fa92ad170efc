// The single-file builds opened straight from disk (file://, no server):
// dist/ropescope.html and dist/ropescope/index.html draw the same numbers as
// the reference, answer a slider, and log no errors. `make dist` writes them, and the package
// npm pack makes of them.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  afterUpdate,
  CHARTS,
  checkCaptions,
  checkCharts,
  DEFAULTS,
  launchBrowser,
  openPage,
  ROOT,
  typeInto,
  waitReady,
} from './harness.mjs';

let browser;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

for (const file of ['dist/ropescope.html', 'dist/ropescope/index.html']) {
  test(`${file}_should_work_from_file_urls`, async () => {
    const path = join(ROOT, file);
    assert.ok(existsSync(path), `${file} is missing (make dist writes it)`);
    const url = pathToFileURL(path).href;
    const p = await openPage(browser, url);
    const { page } = p;
    await waitReady(page);
    for (const id of CHARTS) assert.ok(await page.locator(`#chart-${id}`).isVisible(), `${file}: #chart-${id} visible`);
    let checked = await checkCharts(page, DEFAULTS);
    await checkCaptions(page, DEFAULTS, checked);

    await afterUpdate(page, () => page.fill('#gap', '2')); // log slider: gap 100
    let state = { ...DEFAULTS, gap: 100 };
    checked = await checkCharts(page, state);
    await checkCaptions(page, state, checked);

    await afterUpdate(page, () => page.fill('#dim', '256'));
    await afterUpdate(page, () => typeInto(page, '#base-num', '500000'));
    state = { ...state, dim: 256, base: 500000 };
    checked = await checkCharts(page, state);
    await checkCaptions(page, state, checked);

    // The file itself needs nothing else from disk or network.
    const external = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((name) => !name.startsWith('data:') && !name.startsWith('blob:')),
    );
    if (file === 'dist/ropescope.html') assert.deepEqual(external, [], `${file} loads no other file`);
    await p.close();
  });
}

// npm pack (a dry run) of the package make dist builds (dist/npm/, tools/npm_package.mjs): the
// element's classic script, the resizer, each view's picture, LICENSE and README; its exports
// name them where they are. The repository's own package.json is the development tree's, private.
test('npm_pack_should_ship_the_element_the_resizer_and_the_pictures', () => {
  const run = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', join(ROOT, 'dist/npm')], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  assert.equal(run.status, 0, `npm pack --dry-run: ${run.stderr}`);
  const [{ files }] = JSON.parse(run.stdout);
  const paths = files.map((f) => f.path).sort();
  const manifest = JSON.parse(readFileSync(join(ROOT, 'dist/npm/pictures/pictures.json'), 'utf8'));
  const pictures = Object.values(manifest.views).map((v) => v.light.file);
  assert.equal(pictures.length, Object.keys(manifest.views).length, 'a picture per view');
  assert.deepEqual(
    paths,
    [
      'LICENSE',
      'README.md',
      ...[...pictures, 'pictures.json'].map((f) => `pictures/${f}`),
      'ropescope-embed.js',
      ...readdirSync(join(ROOT, 'dist/ropescope-embed')).map((f) => `ropescope-embed/${f}`),
      'ropescope-resize.js',
      'ropescope.html',
      'package.json',
    ].sort(),
    'the package holds these files and no others',
  );
  const pkg = JSON.parse(readFileSync(join(ROOT, 'dist/npm/package.json'), 'utf8'));
  for (const [name, target] of Object.entries(pkg.exports)) {
    const file = target
      .replace('./', '')
      .replace(
        '*',
        target.includes('pictures') ? pictures[0] : paths.find((p) => p.startsWith('ropescope-embed/')).split('/')[1],
      );
    assert.ok(paths.includes(file), `exports["${name}"] -> ${target}: ${file} is in the package`);
  }
  // The element is a classic script: no import or export statement at its top level.
  const element = readFileSync(join(ROOT, 'dist/npm/ropescope-embed.js'), 'utf8');
  // Its first line asks V8 to compile it while it streams in; its licence comment comes next.
  assert.match(element, /^\/\/# allFunctionsCalledOnLoad\n\/\*! ropescope-embed\.js/);
  assert.doesNotMatch(element.slice(0, 2000), /^\s*(import|export)\s/m);
  assert.ok(pkg.exports['.'] === './ropescope-embed.js', 'the package itself is the element');
  assert.equal(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).private, true, 'the tree stays private');
});

// README.md's "Embedding" names files of a served dist/ (https://example.org/rs/ stands for it):
// every one of them is there, the release folder's included.
test('readme_embed_section_should_name_only_files_that_make_dist_writes', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Embedding'), readme.indexOf('## Development'));
  const paths = [...section.matchAll(/https:\/\/example\.org\/rs\/([^"\s?<>`)]*)/g)].map((m) => m[1]);
  assert.ok(paths.length >= 8, `the section names its files (${paths.length} addresses)`);
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  assert.ok(
    paths.some((p) => p.startsWith(`v${version}/`)),
    `the addresses name the release folder v${version}/`,
  );
  // A folder is named as a page's (its index.html) or as a CSP source (the element's chunks).
  for (const path of paths.filter((p) => p !== '')) {
    const file = join(
      ROOT,
      'dist',
      path.endsWith('/') && !path.endsWith('/ropescope-embed/') ? `${path}index.html` : path,
    );
    assert.ok(existsSync(file), `README names https://example.org/rs/${path}: dist/${path} exists`);
  }
});
