// make dist's npm package: dist/npm/, packed into dist/ropescope-<version>.tgz, under 1 MB.
// The repository's own package.json stays private (it is the development tree: tests, tools,
// devDependencies); the package is a folder of its own with only what a page that installs it
// uses:
//   ropescope-embed.js   the element (dist/ropescope-embed.js), a classic script that also works
//                        imported (import 'ropescope'): its credit then names the explorer at
//                        PUBLIC_URL (make's, web/gen/public_url.js), as it cannot find itself
//   ropescope-embed/     the chunks it fetches from beside it (tools/split_element.mjs); imported,
//                        from PUBLIC_URL, or where the page's self.ropescopeChunksBase says
//   ropescope-resize.js  the iframe embeds' resizer
//   ropescope.html       the full explorer in one file (dist/ropescope.html): the credit's page
//                        where the package itself is served (make's default PUBLIC_URL, unpkg)
//   pictures/            every view's picture at its defaults, light, 680 px wide (1x) as WebP
//                        (the release's, light and dark at 2x as PNG, are 11 MB; both themes
//                        even at 1x WebP would be 1.5 MB),
//                        with pictures.json (each view's alt text and the pictures' sizes), for
//                        an element's child: what readers without JavaScript see
//   LICENSE              MIT, with the licences of what the element bundles (Chart.js,
//                        chartjs-chart-matrix, fflate)
//   README.md, package.json
//   writePackage(dist) -> { tarball, bytes }

import { execFileSync } from 'node:child_process';
import { copyFile, cp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { FIGURE_NAMES } from '../web/gen/figure_names.js';
import { PUBLIC_EXPLORER, PUBLIC_URL } from '../web/gen/public_url.js';
import { PICTURE_SCALE, pictureFile } from '../web/src/element/picture.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// The WebP pictures are encoded by Chromium's headless shell (the same bytes as the browser's).
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium-headless-shell';
export const PACKAGE_BUDGET = 1024 * 1024;
const WEBP_QUALITY = 0.5;
const THEMES = ['light'];
const BUNDLED = [
  ['Chart.js', 'node_modules/chart.js/LICENSE.md'],
  ['chartjs-chart-matrix', 'node_modules/chartjs-chart-matrix/LICENSE'],
  ['fflate', 'node_modules/fflate/LICENSE'],
];

const readme = (version) => `# ropescope

Live figures from [ropescope](${PUBLIC_EXPLORER}), the explorer that shows in measured numbers
why rotary position embedding (RoPE) encodes relative position: the \`<rope-scope>\` element,
one small script, which fetches from the \`ropescope-embed/\` folder beside it what the figures
on the page draw with (the WebAssembly core, Chart.js, the styles) and each one's code.

\`\`\`html
<rope-scope view="flatness" dim="128" base="500000" gap="16" controls="gap"><img
  src="node_modules/ropescope/pictures/flatness-light.webp" alt="…" width="100%"></rope-scope>
<script src="node_modules/ropescope/ropescope-embed.js" async></script>
\`\`\`

or, with a bundler, \`import 'ropescope';\` once: every \`<rope-scope>\` on the page, now or
later, upgrades. Its chunks then come from the published release (${PUBLIC_URL}ropescope-embed/),
unless your site serves a copy of \`ropescope/ropescope-embed/\` and says where, before an element
first draws: \`window.ropescopeChunksBase = '/assets/ropescope-embed/';\`. Its child (a picture from \`ropescope/pictures/\`, \`pictures.json\` giving each
one's alt text) is what readers without JavaScript and feed readers see; the element does not
render it while it draws. The credit line links to the explorer at ${PUBLIC_EXPLORER} (an
\`explorer="…"\` attribute names another). The attributes, the \`--rs-*\` custom properties
and the parts: ${PUBLIC_URL}ropescope/ ("Embed on your page"), and the project's
web/README.md. \`ropescope-resize.js\` fits iframe embeds of the explorer to their figures;
\`ropescope.html\` is the explorer itself, in one file.

Version ${version}. MIT (LICENSE, with the licences of the bundled Chart.js,
chartjs-chart-matrix and fflate).
`;

/** Each PNG of `files` (absolute paths) at 1x as WebP bytes, through headless Chromium. */
async function toWebp(files) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox'] });
  try {
    const page = await browser.newPage();
    const out = [];
    for (const file of files) {
      const b64 = (await readFile(file)).toString('base64');
      const webp = await page.evaluate(
        async ([data, scale, quality]) => {
          const blob = await (await fetch(`data:image/png;base64,${data}`)).blob();
          const bitmap = await createImageBitmap(blob);
          const width = Math.round(bitmap.width / scale);
          const height = Math.round(bitmap.height / scale);
          const canvas = new OffscreenCanvas(width, height);
          const ctx = canvas.getContext('2d');
          ctx.imageSmoothingQuality = 'high';
          ctx.drawImage(bitmap, 0, 0, width, height);
          const encoded = await canvas.convertToBlob({ type: 'image/webp', quality });
          const bytes = new Uint8Array(await encoded.arrayBuffer());
          let text = '';
          for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
          return { b64: btoa(text), width, height, type: encoded.type };
        },
        [b64, PICTURE_SCALE, WEBP_QUALITY],
      );
      if (webp.type !== 'image/webp') throw new Error(`npm package: Chromium encoded ${webp.type}, not WebP`);
      out.push({ bytes: Buffer.from(webp.b64, 'base64'), width: webp.width, height: webp.height });
    }
    return out;
  } finally {
    await browser.close();
  }
}

/** Writes dist/npm/ and packs it into dist/ropescope-<version>.tgz (npm pack, offline). */
export async function writePackage(dist) {
  const { version, description } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
  const manifest = JSON.parse(await readFile(join(dist, 'pictures', 'pictures.json'), 'utf8'));
  const out = resolve(dist, 'npm');
  await rm(out, { recursive: true, force: true });
  await mkdir(join(out, 'pictures'), { recursive: true });
  await copyFile(join(dist, 'ropescope-embed.js'), join(out, 'ropescope-embed.js'));
  await cp(join(dist, 'ropescope-embed'), join(out, 'ropescope-embed'), { recursive: true });
  await copyFile(join(dist, 'ropescope-resize.js'), join(out, 'ropescope-resize.js'));
  await copyFile(join(dist, 'ropescope.html'), join(out, 'ropescope.html'));
  const notices = await Promise.all(
    BUNDLED.map(async ([name, path]) => `\n---\n\n${name}:\n\n${await readFile(join(ROOT, path), 'utf8')}`),
  );
  await writeFile(join(out, 'LICENSE'), (await readFile(join(ROOT, 'LICENSE'), 'utf8')) + notices.join(''));
  await writeFile(join(out, 'README.md'), readme(version));

  const sources = FIGURE_NAMES.flatMap((view) => THEMES.map((theme) => [view, theme]));
  const converted = await toWebp(sources.map(([view, theme]) => join(dist, 'pictures', pictureFile(view, theme))));
  const views = {};
  for (const [i, [view, theme]] of sources.entries()) {
    const file = pictureFile(view, theme).replace(/\.png$/, '.webp');
    const { bytes, width, height } = converted[i];
    await writeFile(join(out, 'pictures', file), bytes);
    views[view] ??= { title: manifest.views[view].title, alt: manifest.views[view].alt };
    views[view][theme] = { file, width, height };
  }
  await writeFile(join(out, 'pictures', 'pictures.json'), `${JSON.stringify({ views }, null, 1)}\n`);

  const pkg = {
    name: 'ropescope',
    version,
    description,
    license: 'MIT',
    homepage: PUBLIC_EXPLORER,
    keywords: ['rope', 'rotary position embedding', 'web component', 'custom element', 'visualization'],
    main: './ropescope-embed.js',
    browser: './ropescope-embed.js',
    exports: {
      '.': './ropescope-embed.js',
      './ropescope-embed.js': './ropescope-embed.js',
      './ropescope-embed/*': './ropescope-embed/*',
      './ropescope-resize.js': './ropescope-resize.js',
      './ropescope.html': './ropescope.html',
      './pictures/*': './pictures/*',
      './package.json': './package.json',
    },
    // Importing it defines <rope-scope>: a bundler must keep it.
    sideEffects: true,
    files: [
      'ropescope-embed.js',
      'ropescope-embed/',
      'ropescope-resize.js',
      'ropescope.html',
      'pictures/',
      'LICENSE',
      'README.md',
    ],
  };
  await writeFile(join(out, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const name = execFileSync('npm', ['pack', out, '--pack-destination', resolve(dist), '--offline', '--silent'], {
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
  }).trim();
  const tarball = join(dist, name.split('\n').pop());
  const { size } = await stat(tarball);
  if (size > PACKAGE_BUDGET)
    throw new Error(`${tarball} is ${(size / 1024).toFixed(1)} KB, over the package's ${PACKAGE_BUDGET / 1024} KB`);
  return { tarball, bytes: size };
}
