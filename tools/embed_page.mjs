#!/usr/bin/env node
// Writes the embed documents (web/src/element/frame.js): web/embed/<view>.html, the page an
// iframe snippet names, holding one <rope-scope> that its one-view script (embed/<view>.js:
// tools/embed_views.mjs) builds from the address's query; and web/embed.html, the same with the
// whole element, for view=all and the addresses earlier snippets wrote.
// Written by make rather than by hand for its <noscript> part: one link per picture (the
// pictures make dist renders, light and dark, of each view at its defaults and at the common
// settings it reads), each with its alt text and the id that the snippet's #fragment names, so
// a reader without JavaScript sees the snippet's own picture; and embed-pictures.css beside it
// (embed/pictures.css for the one-view documents), which sets each picture where its id is the
// #fragment.
//   node tools/embed_page.mjs OUT   (writes OUT, and embed-pictures.css and embed/ in its folder)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FIGURE_NAMES } from '../web/gen/figure_names.js';
import { defaultAlt, useFigureRows, VIEW_DIR, viewPictures } from '../web/src/element/embed.js';
import { PICTURE_DIR, pictureFile, pictureStem } from '../web/src/element/picture.js';
import { FIGURE } from '../web/src/figures/index.js';

useFigureRows((name) => FIGURE[name]); // the alt texts and pictures come from every figure's code

// Beside the page: the pictures' rules, loaded without JavaScript only; the one-view
// documents' own in their folder (their addresses lead from there).
const PICTURES_CSS = 'embed-pictures.css';
const VIEW_PICTURES_CSS = 'pictures.css';
const escapeAttr = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

// The explorer's policy less what this page never does (frames, forms).
const POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'none'; object-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'";

// Every picture of a view (embed.js's viewPictures: the defaults and the common settings it
// reads), as [view, settings].
const picturesOf = (view) => viewPictures(view).map((settings) => [view, settings]);

// Each picture is a CSS image, set only where the address's #fragment names it (pictureStem:
// the snippet writes its own picture's): a reader without JavaScript loads that one picture, not
// every one (browsers load <img> elements at once when scripts are off, lazy or not). A click
// opens the explorer at the picture's settings, outside the iframe. `up`: from the document to
// the explorer's folder.
const pictureLink = ([view, settings], up) => {
  const query = new URLSearchParams({ view, ...settings }).toString();
  return (
    `    <a class="frame-picture" id="${pictureStem(view, settings)}" href="${up}index.html?${query}" target="_blank" rel="noopener">` +
    `<span class="frame-img" role="img" aria-label="${escapeAttr(defaultAlt(view, settings))}"></span></a>`
  );
};

// `pictures`: the pictures' folder from the stylesheet (which is where the document is too:
// make serve inlines it, and the addresses still hold).
const pictureRule = ([view, settings], pictures) => {
  const url = (theme) => `${pictures}${PICTURE_DIR}/${pictureFile(view, theme, settings)}`;
  const id = pictureStem(view, settings);
  return (
    `#${id}:target .frame-img { content: url(${url('light')}); }\n` +
    `@media (prefers-color-scheme: dark) { #${id}:target .frame-img { content: url(${url('dark')}); } }`
  );
};

const css = (
  pictures,
  up,
) => `/* The embed document without JavaScript: the picture the address's #fragment names. Written by
   tools/embed_page.mjs (make web); loaded only where scripts do not run (a <noscript> link). */
.frame-picture { display: none; }
.frame-picture:target { display: block; }
/* Reached by the address's #fragment, not by a key: no focus ring. */
.frame-picture:focus:not(:focus-visible) { outline: none; }
.frame-img { display: block; width: 100%; height: auto; }
${pictures.map((p) => pictureRule(p, up)).join('\n')}
`;

// The document: `up` leads from its folder to the release folder's files ('' or '../');
// `pictures` is its <noscript> pictures' markup and `pictureCss` their stylesheet; `script` is the element's script; `view`, a one-view document's view (its
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
  <noscript><link rel="stylesheet" href="${pictureCss}"></noscript>
</head>
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
const every = FIGURE_NAMES.flatMap(picturesOf);
writeFileSync(
  out,
  page({
    up: '',
    pictures: every.map((p) => pictureLink(p, '')).join('\n'),
    pictureCss: PICTURES_CSS,
    script: 'ropescope-embed.js',
  }),
);
writeFileSync(join(dirname(out), PICTURES_CSS), css(every, '../'));
// embed/<view>.html: one view, its one-view script (tools/embed_views.mjs), which the snippets
// name; its pictures' rules in embed/pictures.css.
mkdirSync(join(dirname(out), VIEW_DIR), { recursive: true });
writeFileSync(join(dirname(out), VIEW_DIR, VIEW_PICTURES_CSS), css(every, '../../'));
for (const view of FIGURE_NAMES) {
  writeFileSync(
    join(dirname(out), VIEW_DIR, `${view}.html`),
    page({
      up: '../',
      pictures: picturesOf(view)
        .map((p) => pictureLink(p, '../'))
        .join('\n'),
      pictureCss: VIEW_PICTURES_CSS,
      script: `${view}.js`,
      explorer: '../index.html',
      view,
    }),
  );
}
