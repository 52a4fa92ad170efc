// The snippet builder that writes the page's embeds, and what it computes them from (the page in
// embed mode itself is embed_mode.js, which this re-exports).
//   On the page: the "Embed on your page" builder: the way (iframe or <rope-scope>), figure,
//   sliders, title, theme, auto-height, the snippet (the live embed around its picture, every
//   address in the release's folder dist/v<version>/) and a live preview.

import { VERSION } from '../../gen/version.js';
import { FIGURE, FIGURES } from '../figures/heads.js';
import { el } from '../lib/dom.js';
import { fillFromPreset, presetValuesDropped } from '../model/long.js';
import { apart, computeModel } from '../model/model.js';
import { EMBED_CONTROLS, PARAM, PARAMS, readQuery, THEMES, writeQuery } from '../state/state.js';
import { explorerLink, pageAddress, usePresets } from './embed_mode.js';
import { HEIGHT_MESSAGE, MAX_HEIGHT, MIN_HEIGHT } from './height.js';
import { contentHeights, EMBED_WIDTHS } from './measured.js';
import { PICTURE_SETTINGS, pictureAlt, pictureHtml, pictureKey, pictureStem, pictureView } from './picture.js';

const $ = (id) => document.getElementById(id);

// The page in embed mode (embed_mode.js: the page's first script holds it, not this builder).
export { applyTheme, embedFigure, explorerLink, pageAddress, setupEmbed, updateEmbed } from './embed_mode.js';

// The builder's links, and the page's from now on, leave out the settings equal to the preset's.
usePresets(presetValuesDropped);

// The height messages and their bounds, and the embed's side of them (height.js: the embed
// document's script, frame.js, needs no more of this module).
export {
  HEIGHT_MESSAGE,
  HEIGHT_REQUEST,
  HOST_MESSAGE,
  HOST_REQUEST,
  MAX_HEIGHT,
  MIN_HEIGHT,
  reportHeight,
} from './height.js';

// ---- the host side: resizing the iframe ----

// These lines are ours, written for ropescope: the usual library, @iframe-resizer, is GPL-3.0
// since v5 (pasting it would put that licence on every blog that embeds a figure) and its MIT
// 4.x line is no longer maintained. The host accepts a height only from the iframe's own
// window and origin, only as a number within bounds. The snippet loads web/ropescope-resize.js
// (the same checks, for every iframe[data-ropescope] of the host page); followHeight below is
// them as a function, for the page's own preview.

/** The resizer script beside the page: ropescope-resize.js (make dist copies it next to the page). */
export const resizerAddress = () => new URL(RESIZER, pageAddress()).href;
const RESIZER = 'ropescope-resize.js';

/** The iframe's own borders and padding, which a border-box height holds besides the content
 *  (ropescope-resize.js's boxExtra). */
export function boxExtra(frame) {
  const cs = getComputedStyle(frame);
  if (cs.boxSizing !== 'border-box') return 0;
  return ['borderTopWidth', 'borderBottomWidth', 'paddingTop', 'paddingBottom'].reduce(
    (sum, side) => sum + (Number.parseFloat(cs[side]) || 0),
    0,
  );
}

/** followHeight(frame, on): ropescope-resize.js's listener for one frame (while on() is true). */
export function followHeight(frame, on = () => true) {
  const listener = (e) => {
    if (!on()) return;
    if (e.source !== frame.contentWindow || e.origin !== new URL(frame.src, window.location.href).origin) return;
    const d = e.data;
    if (!d || d.ropescope !== HEIGHT_MESSAGE || typeof d.height !== 'number') return;
    if (!(d.height >= MIN_HEIGHT && d.height <= MAX_HEIGHT)) return;
    frame.style.height = `${Math.ceil(d.height) + boxExtra(frame)}px`;
  };
  window.addEventListener('message', listener);
}

// ---- the fixed height ----

// The snippet's iframe height where no script resizes it: the content measured for the view
// (measured.js: heights.js, by tools/embed_heights.mjs) at the post's column width, which the
// builder asks (COLUMNS, the widths measured), so a host that strips the resizer leaves at most
// a few pixels blank there (tests/browser/embed.test.mjs); a column between two measured widths
// takes the taller of the two. Measured at the default settings: a caption a line longer at
// others scrolls by that line. Plus a slider row per slider.
export const COLUMNS = EMBED_WIDTHS;
/** The builder's column until the blogger picks one: a common post column. */
export const DEFAULT_COLUMN = 640;
const ROUNDING = 2; // the measured heights are rounded up; sub-pixel layout differs by a pixel
const CONTROL_ROW = 56; // one slider row (one per line): 53 px at 390 px, measured

/** The content height measured for a view at a column width (the taller of the measured widths
 *  around it; the narrowest below it), with or without its heading. */
export function heightAt(view, column, title = true) {
  const measured = contentHeights(view).map(([withTitle, noTitle]) => (title ? withTitle : noTitle));
  const above = EMBED_WIDTHS.findIndex((width) => width >= column);
  if (above <= 0) return measured[above < 0 ? measured.length - 1 : 0];
  if (EMBED_WIDTHS[above] === column) return measured[above];
  return Math.max(measured[above - 1], measured[above]);
}

/** The snippet's fixed iframe height for a view and options; column: the post's column width. */
export function fixedHeight(view, { controls = [], title = true, column = DEFAULT_COLUMN } = {}) {
  return heightAt(view, column, title) + ROUNDING + controls.length * CONTROL_ROW;
}

// ---- the snippet builder (on the page) ----

/**
 * The release's folder for a page at `page`: make dist writes dist/v<version>/ beside
 * dist/ropescope/ and dist/ropescope.html, with the same files, and the snippets name those, so
 * a published post keeps the release it was made with. The page is <root>/ropescope/index.html
 * (or <root>/v<version>/ropescope/index.html, or <root>/ropescope.html); make serve answers the
 * same paths from web/ and dist/ (tools/serve.mjs).
 */
export function releaseBase(page = pageAddress()) {
  const url = new URL(page);
  const root = new URL(url.pathname.endsWith('/ropescope.html') ? './' : '../', url);
  const folder = `v${VERSION}/`;
  return root.pathname.endsWith(`/${folder}`) ? root.href : new URL(folder, root).href;
}

/** The explorer page in a release folder. */
export const releasePage = (release) => `${release}ropescope/index.html`;

/** The folder of the one-view embed documents (embed/<view>.html, beside their scripts). */
export const VIEW_DIR = 'embed';

/**
 * The embed document's address for settings and options (web/src/element/frame.js): in the
 * release folder, the view's own document (only its code: embed/<view>.html) or, for every
 * view, embed.html; the query as the page's own, and #<picture> (pictureStem: the view, and
 * the picture's settings off their defaults), which picks the picture shown where JavaScript
 * does not run: the snippet's own (snippetPicture).
 */
export function frameAddress(release, settings, options) {
  const query = writeQuery({ ...settings, ...options, embed: false });
  const doc = options.view === 'all' ? 'embed.html' : `${VIEW_DIR}/${options.view}.html`;
  const picture = snippetPicture(options.view, settings).settings;
  return `${release}ropescope/${doc}${query === '?' ? '' : query}#${pictureStem(options.view, picture)}`;
}

// state with its preset's values, where the config reader could be made; else as it is (the long
// figures then show no data, as on the page, which says why).
function presetFilled(state) {
  try {
    fillFromPreset(state);
  } catch {
    // the files module could not be made
  }
  return state;
}

// The figures' code (a row's data, caption and label), which a view's alt text and the sliders
// it reads are computed from: the page's rows (it sets the builder up once every figure's code
// is here), or every row (figures/index.js) for the build tools.
let rowOf = null;
/** row(name) -> the figure's row, or undefined while its code is not loaded. */
export function useFigureRows(row) {
  rowOf = row;
}
function codeOf(view) {
  const row = rowOf?.(view);
  if (!row) throw new Error(`embed: the code of figure ${view} is not loaded (useFigureRows)`);
  return row;
}

const escapeAttr = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

// Each view's alt text at the default settings, or at a picture's settings (PICTURE_SETTINGS),
// which its picture shows (tools/pictures.mjs writes the same text into pictures.json):
// computed once, apart from the page's numbers.
const alts = new Map();
export function defaultAlt(view, settings = {}) {
  const row = codeOf(pictureView(view));
  const key = `${row.name} ${pictureKey(settings)}`;
  if (!alts.has(key)) {
    const text = apart(() => {
      const { state } = readQuery('');
      Object.assign(state, settings);
      // Only a long-context view reads the preset (and its config reader, the files module).
      if (row.part === 'long') presetFilled(state);
      const model = computeModel(state);
      return pictureAlt(row.title, row.caption(state, model, row.data(model, state)));
    });
    alts.set(key, text);
  }
  return alts.get(key);
}

// A value of each lesson setting other than its default, far enough from it that a view
// reading the setting shows something else (valid with every other setting at its default).
// The worked example's (wq0 … wsh) are left out: they are the page's, after figure 14, which no
// view draws.
const OTHER = Object.freeze({
  gap: 37,
  dim: 128,
  base: 500000,
  from: 100,
  to: 2000,
  n: 256,
  seed: 7,
  pair: 3,
  qm: 9,
  kn: 4,
});

// Whether a view reads a setting, measured once per view and setting at the default settings:
// whether its other value changes the view's chart, caption or label.
const reads = new Map();
function viewReads(view, name) {
  const row = codeOf(pictureView(view));
  const shown = (changes) =>
    apart(() => {
      const { state } = readQuery('');
      Object.assign(state, changes);
      if (row.part === 'long') presetFilled(state);
      const model = computeModel(state);
      const data = row.data(model, state);
      return JSON.stringify([data, row.caption(state, model, data), row.label(state, model, data)]);
    });
  const key = `${row.name} ${name}`;
  if (!reads.has(row.name)) reads.set(row.name, shown({}));
  if (!reads.has(key)) reads.set(key, shown({ [name]: OTHER[name] }) !== reads.get(row.name));
  return reads.get(key);
}

// The sliders each view takes: those it reads. A view with a chapter's own inputs reads none of
// them; an embed slider it does not read would do nothing.
export function viewControls(view) {
  if (view === 'all') return EMBED_CONTROLS;
  return EMBED_CONTROLS.filter((name) => viewReads(view, name));
}

/** The settings a view's pictures are rendered at: the defaults ({}), then each of
 *  PICTURE_SETTINGS cut down to the sliders the view reads (none twice, none empty). */
export function viewPictures(view) {
  const takes = viewControls(pictureView(view));
  const found = new Map([['', {}]]);
  for (const settings of PICTURE_SETTINGS) {
    const own = Object.fromEntries(Object.entries(settings).filter(([name]) => takes.includes(name)));
    if (!found.has(pictureKey(own))) found.set(pictureKey(own), own);
  }
  return [...found.values()];
}

const LESSON_SETTINGS = Object.keys(OTHER);
const same = (name, a, b) => PARAM[name].serialize(a) === PARAM[name].serialize(b);

/**
 * The picture a snippet at `settings` (the page's state) carries for `view`: of the view's
 * pictures (viewPictures), one whose every setting the view reads is the snippet's (exact),
 * else the one differing in the fewest (the defaults first). Returns { settings: the picture's,
 * exact, differs: [[name, the snippet's value, the picture's value]] }. A long-context view's
 * pictures are at its default preset: any long-context setting off it has no picture.
 */
export function snippetPicture(view, settings) {
  const own = pictureView(view);
  const row = FIGURE[own];
  const longDiffers = [];
  if (row.part === 'long') {
    for (const param of PARAMS) {
      if (param.part !== 'long') continue;
      const value = settings[param.name];
      if (value !== null && value !== undefined && !same(param.name, value, param.default))
        longDiffers.push([param.name, value, param.default]);
    }
  }
  let best = null;
  for (const picture of viewPictures(own)) {
    const differs = LESSON_SETTINGS.filter((name) => {
      const value = settings[name] ?? PARAM[name].default;
      const theirs = picture[name] ?? PARAM[name].default;
      return !same(name, value, theirs) && viewReads(own, name);
    }).map((name) => [name, settings[name], picture[name] ?? PARAM[name].default]);
    differs.push(...longDiffers);
    if (!best || differs.length < best.differs.length) best = { settings: picture, differs };
    if (differs.length === 0) break;
  }
  return { ...best, exact: best.differs.length === 0 };
}

/** What the builder says of a snippet's picture (snippetPicture's answer). */
export function pictureNote({ exact, differs }) {
  if (exact) return 'Readers without JavaScript (feeds, mail) see its picture, at these settings.';
  const at = (which) => differs.map(([name, ...values]) => `${PARAM[name].label ?? name} ${values[which]}`).join(', ');
  return `No picture at ${at(0)}: readers without JavaScript (feeds, mail) see the one at ${at(1)}.`;
}

/** <rope-scope>'s attribute for a setting: title= is the heading's flag, heading= on the element,
 *  since a title attribute is the host's tooltip over the whole element. */
export const elementAttribute = (name) => (name === 'title' ? 'heading' : name);

/** The iframe snippet's box: the picture and the iframe in one grid cell, the iframe on top. */
export const SNIPPET_GRID = 'display:grid';
export const SNIPPET_CELL = 'grid-area:1/1';

/**
 * The snippet for the page's state and the builder's options, around the view's picture at
 * the snippet's settings (snippetPicture), on one line (WordPress's wpautop turns a line break
 * between its parts into a blank line):
 *   way 'iframe': a <div data-ropescope-embed> holding the picture, linked to the explorer, and
 *   the iframe of the embed document (frameAddress) in one grid cell, the iframe on top: a reader
 *   that drops iframes (feeds, mail) shows the picture alone; a browser shows the iframe over it
 *   (the picture beneath until the frame paints, and the frame's own copy of it where JavaScript
 *   is off); the resizer (auto) hides the picture once the figure has drawn. The grid is a
 *   style= attribute, as a host's style-src without 'unsafe-inline' ignores it, the resizer
 *   sets it again through the CSSOM.
 *   way 'element': <rope-scope> holding the picture (lazy: fetched only where the element
 *   cannot draw, as where the host refuses WebAssembly, or where no script runs), then the
 *   element's script, async.
 * `page`: the explorer's address (tools/serve.mjs's oEmbed passes the one it was asked about);
 * `height`: the iframe's, in place of fixedHeight's (oEmbed's maxheight).
 */
export function snippet(
  state,
  { view, controls, title, theme, auto, way = 'iframe', height, column },
  page = pageAddress(),
) {
  const release = releaseBase(page);
  const settings = presetValuesDropped(state);
  const options = { view, controls, title, theme };
  const shown = snippetPicture(view, settings).settings;
  const picture = pictureHtml({
    base: release,
    view,
    theme,
    settings: shown,
    alt: defaultAlt(view, shown),
    href: explorerLink(state, releasePage(release)),
    lazy: way === 'element',
    attributes: way === 'element' ? '' : ` data-ropescope-picture style="${SNIPPET_CELL};align-self:start"`,
  });
  if (way === 'element') {
    const query = new URLSearchParams(writeQuery({ ...settings, ...options, embed: false }));
    const attributes = [...query].map(([name, value]) => ` ${elementAttribute(name)}="${escapeAttr(value)}"`).join('');
    // async: the script never holds up the post's parsing; the elements upgrade when it runs.
    return `<rope-scope${attributes}>${picture}</rope-scope><script src="${escapeAttr(`${release}ropescope-embed.js`)}" async></script>`;
  }
  const src = frameAddress(release, settings, options);
  const label = view === 'all' ? 'all figures' : codeOf(view).title;
  const frame =
    `<div data-ropescope-embed style="${SNIPPET_GRID}">${picture}` +
    `<iframe${auto ? ' data-ropescope' : ''} src="${escapeAttr(src)}" title="ropescope: ${escapeAttr(label)}"` +
    ` width="100%" height="${height ?? fixedHeight(view, { ...options, column })}" frameborder="0" loading="lazy"` +
    ` style="${SNIPPET_CELL}"></iframe></div>`;
  // The resizer once per page: a second copy of the script on the page does nothing.
  return auto ? `${frame}<script src="${escapeAttr(`${release}ropescope-resize.js`)}" async></script>` : frame;
}

function checkbox(id, text, checked) {
  const input = el('input', { type: 'checkbox', id });
  input.checked = checked;
  return el('label', { for: id, class: 'opt' }, input, text);
}

let builder = null;

/** Builds the builder's options and preview after #embed-view; getState() reads the page's state. */
export function setupEmbedBuilder(getState) {
  const options = el(
    'fieldset',
    { class: 'embed-options' },
    el('legend', {}, 'Embed options'),
    el(
      'div',
      { class: 'checks' },
      el(
        'label',
        { for: 'embed-way', class: 'opt' },
        'way ',
        el(
          'select',
          { id: 'embed-way' },
          el('option', { value: 'iframe' }, 'iframe'),
          el('option', { value: 'element' }, 'script tag, <rope-scope>'),
        ),
      ),
    ),
    el(
      'div',
      { class: 'checks', id: 'embed-controls', role: 'group', 'aria-label': 'sliders inside the embed' },
      el('span', { class: 'hint' }, 'sliders:'),
      ...EMBED_CONTROLS.map((name) => checkbox(`embed-control-${name}`, name, false)),
    ),
    el(
      'div',
      { class: 'checks' },
      checkbox('embed-title', 'title', true),
      checkbox('embed-auto', 'auto-height script', true),
      el(
        'label',
        { for: 'embed-theme', class: 'opt' },
        'theme ',
        el('select', { id: 'embed-theme' }, ...THEMES.map((t) => el('option', { value: t }, t))),
      ),
      el(
        'label',
        { for: 'embed-column', class: 'opt' },
        'post column ',
        el(
          'select',
          { id: 'embed-column', 'aria-describedby': 'embed-column-hint' },
          ...COLUMNS.map((width) => el('option', { value: String(width) }, `${width} px`)),
        ),
      ),
    ),
    el(
      'p',
      { class: 'hint', id: 'embed-column-hint' },
      'Without the auto-height script an iframe keeps the snippet’s height, measured for a column this wide: pick your post’s.',
    ),
    // Which picture the snippet carries: its settings' own, or the nearest (snippetPicture).
    el('p', { class: 'hint', id: 'embed-picture-note', 'aria-live': 'polite' }),
  );
  // One figure rather than all of them (tens of thousands of pixels): the one a view= link
  // shows, else the summary (the flatness measurement: the page's claim in one figure).
  const { view } = getState();
  $('embed-view').value = FIGURE[view] ? view : (FIGURES.find((row) => row.part === 'claim') ?? FIGURES[0]).name;
  $('embed-view').after(options);
  $('embed-column').value = String(DEFAULT_COLUMN);
  const preview = el(
    'div',
    { class: 'embed-preview', id: 'embed-preview' },
    el('p', { class: 'hint' }, 'Preview (live):'),
  );
  $('copy-embed').closest('.buttons').after(preview);
  // Until the blogger picks a theme, each way has its own default: the element takes the post's
  // colours and font (inherit), an iframe (a page of its own) the reader's scheme. Set before
  // the listeners below write the snippet.
  let themePicked = false;
  $('embed-theme').addEventListener('change', () => {
    themePicked = true;
  });
  $('embed-way').addEventListener('change', () => {
    if (!themePicked) $('embed-theme').value = $('embed-way').value === 'element' ? 'inherit' : 'auto';
  });
  for (const input of options.querySelectorAll('input, select'))
    input.addEventListener('change', () => updateEmbedCode());
  $('embed-view').addEventListener('change', () => updateEmbedCode());
  builder = { getState, preview, frame: null, timer: null, visible: false };
  // The preview loads a second copy of the page: only once the builder is on screen.
  new IntersectionObserver((entries) => {
    builder.visible = entries.some((e) => e.isIntersecting);
    if (builder.visible) schedulePreview();
  }).observe(preview);
  updateEmbedCode();
}

/** The builder's current options. */
export function builderOptions() {
  const view = $('embed-view').value;
  return {
    view,
    controls: viewControls(view).filter((name) => $(`embed-control-${name}`).checked),
    title: $('embed-title').checked,
    theme: $('embed-theme').value,
    auto: $('embed-auto').checked,
    way: $('embed-way').value,
    column: Number($('embed-column').value),
  };
}

/** Rewrites the snippet (and, soon after, the preview) for the page's state and the options. */
export function updateEmbedCode() {
  if (!builder) return;
  const options = builderOptions();
  // The auto-height script is the iframe's.
  $('embed-auto').disabled = options.way !== 'iframe';
  $('embed-column').disabled = options.way !== 'iframe';
  // An iframe takes its host's colours from the resizer (ropescope-resize.js): without it,
  // inherit has nothing to inherit, and is not offered.
  const noInherit = options.way === 'iframe' && !options.auto;
  $('embed-theme').querySelector('option[value="inherit"]').disabled = noInherit;
  if (noInherit && options.theme === 'inherit') {
    $('embed-theme').value = 'auto';
    options.theme = 'auto';
  }
  $('embed-picture-note').textContent = pictureNote(
    snippetPicture(options.view, presetValuesDropped(builder.getState())),
  );
  // Only the sliders the view reads.
  const takes = viewControls(options.view);
  for (const name of EMBED_CONTROLS) $(`embed-control-${name}`).closest('label').hidden = !takes.includes(name);
  $('embed-controls').hidden = takes.length === 0;
  $('embed-code').value = snippet(builder.getState(), options);
  schedulePreview();
}

// Slider drags change the state many times a second: the preview reloads once they pause.
const PREVIEW_DELAY_MS = 400;

function schedulePreview() {
  if (!builder.visible) return;
  clearTimeout(builder.timer);
  builder.timer = setTimeout(showPreview, builder.frame ? PREVIEW_DELAY_MS : 0);
}

function showPreview() {
  const opts = builderOptions();
  const src = frameAddress(releaseBase(), presetValuesDropped(builder.getState()), opts);
  if (!builder.frame) {
    builder.frame = el('iframe', { title: 'embed preview', loading: 'lazy' });
    builder.preview.append(builder.frame);
    followHeight(builder.frame, () => builderOptions().auto);
  }
  builder.frame.height = String(fixedHeight(opts.view, opts));
  if (!opts.auto) builder.frame.style.removeProperty('height');
  if (builder.frame.getAttribute('src') !== src) builder.frame.src = src;
}
