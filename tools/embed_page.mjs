#!/usr/bin/env node
// Writes the embed documents (web/src/element/frame.js): web/embed/<view>.html, the page an
// iframe snippet names, holding one <rope-scope> that its one-view script (embed/<view>.js:
// tools/embed_views.mjs) builds from the address's query; and web/embed.html, the same with the
// whole element, for view=all and the addresses earlier snippets wrote.
// Written by make rather than by hand for its <noscript> part: one picture per view (the
// pictures make dist renders, light and dark), each with the view's alt text and the id that
// the snippet's #fragment names, so a reader without JavaScript sees that view's picture; and
// embed-pictures.css beside it, which sets each picture where its id is the #fragment.
//   node tools/embed_page.mjs OUT   (writes OUT, and embed-pictures.css and embed/ in its folder)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FIGURE_NAMES } from '../web/gen/figure_names.js';
import { defaultAlt, VIEW_DIR } from '../web/src/element/embed.js';
import { PICTURE_DIR, pictureFile } from '../web/src/element/picture.js';

// Beside the page: the pictures' rules, loaded without JavaScript only.
const PICTURES_CSS = 'embed-pictures.css';
const escapeAttr = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

// The explorer's policy less what this page never does (frames, forms).
const POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'none'; object-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'";

// Pictures sit in ../pictures/ from the page (dist/ropescope/ beside dist/pictures/). Each view's
// is a CSS image, set only where the address's #fragment names the view: a reader without
// JavaScript loads that one picture, not every view's (browsers load <img> elements at once when
// scripts are off, lazy or not). A click opens the explorer at the view, outside the iframe.
const pictureLink = (view) =>
  `    <a class="frame-picture" id="${view}" href="index.html?view=${view}" target="_blank" rel="noopener">` +
  `<span class="frame-img" role="img" aria-label="${escapeAttr(defaultAlt(view))}"></span></a>`;

const pictureRules = (view) => {
  const url = (theme) => `../${PICTURE_DIR}/${pictureFile(view, theme)}`;
  return (
    `#${view}:target .frame-img { content: url(${url('light')}); }\n` +
    `@media (prefers-color-scheme: dark) { #${view}:target .frame-img { content: url(${url('dark')}); } }`
  );
};

const css = `/* The embed document without JavaScript: the picture the address's #fragment names. Written by
   tools/embed_page.mjs (make web); loaded only where scripts do not run (a <noscript> link). */
.frame-picture { display: none; }
.frame-picture:target { display: block; }
/* Reached by the address's #fragment, not by a key: no focus ring. */
.frame-picture:focus:not(:focus-visible) { outline: none; }
.frame-img { display: block; width: 100%; height: auto; }
${FIGURE_NAMES.map(pictureRules).join('\n')}
`;

// A one-view document's picture: an <img> (one, so only it loads), the dark one where the
// reader's scheme is dark, as the snippets' <noscript> pictures; addresses from its own folder,
// which hold when make serve inlines its stylesheets.
const onePicture = (view) => {
  const url = (theme) => `../../${PICTURE_DIR}/${pictureFile(view, theme)}`;
  return (
    `    <a class="frame-one" id="${view}" href="../index.html?view=${view}" target="_blank" rel="noopener"><picture>` +
    `<source srcset="${url('dark')}" media="(prefers-color-scheme: dark)">` +
    `<img src="${url('light')}" alt="${escapeAttr(defaultAlt(view))}"></picture></a>`
  );
};

// The document: `up` leads from its folder to the release folder's files ('' or '../');
// `pictures` is its <noscript> pictures' markup and `pictureCss` whether it needs
// embed-pictures.css; `script` is the element's script; `view`, a one-view document's view (its
// figure where the address names none).
const page = ({ up, pictures, pictureCss, script, explorer, view }) => `<!doctype html>
<!-- The embed document: written by tools/embed_page.mjs (make web). -->
<html lang="en" data-ropescope-frame${explorer ? ` data-explorer="${explorer}"` : ''}${view ? ` data-view="${view}"` : ''}>
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="${POLICY}">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <meta name="robots" content="noindex">
  <title>ropescope: a live figure</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${up}embed.css">
${pictureCss ? `  <noscript><link rel="stylesheet" href="${up}${PICTURES_CSS}"></noscript>\n` : ''}</head>
<body>
  <noscript>
    <p class="frame-nojs">This figure is live where JavaScript runs; <a href="${up}index.html" target="_blank" rel="noopener">the explorer</a> shows every figure.</p>
${pictures}
  </noscript>
  <script src="${script}"></script>
</body>
</html>
`;

const [out] = process.argv.slice(2);
if (!out) {
  console.error('usage: node tools/embed_page.mjs OUT');
  process.exit(2);
}
// embed.html: every view, the whole element (view=all, and the addresses of earlier snippets).
const all = FIGURE_NAMES.map(pictureLink).join('\n');
writeFileSync(out, page({ up: '', pictures: all, pictureCss: true, script: 'ropescope-embed.js' }));
writeFileSync(join(dirname(out), PICTURES_CSS), css);
// embed/<view>.html: one view, its one-view script (tools/embed_views.mjs), which the snippets name.
mkdirSync(join(dirname(out), VIEW_DIR), { recursive: true });
for (const view of FIGURE_NAMES) {
  writeFileSync(
    join(dirname(out), VIEW_DIR, `${view}.html`),
    page({
      up: '../',
      pictures: onePicture(view),
      pictureCss: false,
      script: `${view}.js`,
      explorer: '../index.html',
      view,
    }),
  );
}
