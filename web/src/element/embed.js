// Embeds of the page (?embed=1, the iframe snippets' address before the embed document,
// embed.html: frame.js) and the snippet builder that writes them.
//   In an embed: the theme= colours, the controls= sliders (the page's own, the rest hidden),
//   title=0 (no headings), no figure numbers, an attribution line linking to the full
//   explorer at the same settings, and the content height posted to the host page.
//   On the page: the "Embed on your page" builder: the way (iframe or <rope-scope>), figure,
//   sliders, title, theme, auto-height, the snippet (the live embed around its picture, every
//   address in the release's folder dist/v<version>/) and a live preview.

import { VERSION } from '../../gen/version.js';
import { FIGURE, FIGURES } from '../figures/index.js';
import { el } from '../lib/dom.js';
import { fillFromPreset, presetValuesDropped } from '../model/long.js';
import { apart, computeModel } from '../model/model.js';
import { EMBED_CONTROLS, PARAM, readQuery, THEMES, writeQuery } from '../state/state.js';
import { contentHeights, EMBED_WIDTHS } from './measured.js';
import { pictureAlt, pictureHtml, pictureView } from './picture.js';

const $ = (id) => document.getElementById(id);

/** The message an embed posts to its host: { ropescope: 'height', height } (CSS px). */
export const HEIGHT_MESSAGE = 'height';
/** The host's question, { ropescope: 'height?' }: answered with HEIGHT_MESSAGE at once. */
export const HEIGHT_REQUEST = 'height?';
// Heights the host accepts: anything else is a page that is not ours or a broken one.
export const MIN_HEIGHT = 100;
export const MAX_HEIGHT = 40000;

/** The page's address without query or hash. */
export const pageAddress = () => window.location.href.split(/[?#]/)[0];

/** The full explorer at the numbers of `state` (embed options dropped); `page`: its address. */
export function explorerLink(state, page = pageAddress()) {
  return (
    page +
    writeQuery({
      ...presetValuesDropped(state),
      embed: false,
      view: 'all',
      theme: 'auto',
      controls: PARAM.controls.default,
      title: true,
    })
  );
}

/** The theme= setting on the root element (style.css: :root[data-theme=...]). inherit keeps the
 *  reader's scheme (an iframe cannot see its host's colours) on a transparent background. */
export function applyTheme(theme, root = document.documentElement) {
  if (theme === 'auto' || theme === 'inherit') delete root.dataset.theme;
  else root.dataset.theme = theme;
  if (theme === 'inherit') root.dataset.inherit = '';
  else delete root.dataset.inherit;
}

// ---- inside an embed ----

let attribution = null;

/**
 * Embed mode: called once at start, before the first chart (so charts read the right theme).
 * Marks the chosen controls' rows (the CSS hides the others), drops the figure numbers and,
 * with title=0, the headings, adds the attribution line, and posts the content height.
 */
export function setupEmbed(state) {
  document.body.classList.add('embed');
  for (const name of state.controls) $(name).closest('.control').classList.add('embed-control');
  document.body.classList.toggle('embed-controls', state.controls.length > 0);
  document.body.classList.toggle('embed-notitle', !state.title);
  for (const figure of document.querySelectorAll('.fig')) embedFigure(figure);

  attribution = document.createElement('p');
  attribution.className = 'attribution';
  const link = document.createElement('a');
  link.target = '_blank';
  link.rel = 'noopener';
  link.textContent = 'open the full explorer ↗';
  attribution.append('Live figure by ropescope · ', link);
  document.body.append(attribution);
  updateEmbed(state);
  reportHeight();
}

/** A figure section in an embed: without its number (the embed shows it apart from the page). */
export function embedFigure(section) {
  for (const num of section.querySelectorAll('.fig-num')) num.remove();
}

/** After every accepted change: the attribution link follows the settings. */
export function updateEmbed(state) {
  attribution?.querySelector('a').setAttribute('href', explorerLink(state));
}

/**
 * Posts the content's height to the host page, now and whenever it changes (in a frame only):
 * the explorer's embed mode and the embed document (frame.js). The body is a flow root
 * (style.css, embed.css) and nothing in an embed is sized by the viewport, so this height does
 * not follow the iframe's: growing the iframe to it settles at once.
 */
export function reportHeight() {
  if (window.parent === window) return;
  let last = -1;
  const post = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    // The height is public: any host may read it ('*'); the host checks who sent it.
    window.parent.postMessage({ ropescope: HEIGHT_MESSAGE, height }, '*');
  };
  new ResizeObserver(post).observe(document.body);
  // A resizer that runs after the content settled (an async script from a slow host, a CMS
  // that defers scripts) missed every post: it asks, and gets the height again.
  window.addEventListener('message', (e) => {
    if (e.source !== window.parent || e.data?.ropescope !== HEIGHT_REQUEST) return;
    last = -1;
    post();
  });
  post();
}

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

// The snippet's iframe height where no script resizes it: the tallest content measured for the
// view (measured.js: heights.js, by tools/embed_heights.mjs) at any width from the post's column up to 800 px,
// with room to spare for a caption a line longer at other settings, and a slider row per slider.
// One height for every column from 320 px leaves much blank in a wide one: the builder asks
// the column's width (COLUMNS), and tests/browser/embed.test.mjs checks each choice.
export const COLUMNS = [320, 480, 640];
const SLACK = 1.02;
const MARGIN = 30;
const CONTROL_ROW = 56; // one slider row (one per line): 53 px at 390 px, measured

/** The snippet's fixed iframe height for a view and options; column: the post's column is at least that wide. */
export function fixedHeight(view, { controls = [], title = true, column = COLUMNS[0] } = {}) {
  const measured = contentHeights(view);
  const from = EMBED_WIDTHS.findIndex((width) => width >= column);
  const pairs = measured.slice(from < 0 ? -1 : from);
  const tallest = Math.max(...pairs.map(([withTitle, noTitle]) => (title ? withTitle : noTitle)));
  return Math.ceil(tallest * SLACK) + MARGIN + controls.length * CONTROL_ROW;
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
 * view, embed.html; the query as the page's own, and #<view>, which picks the picture shown
 * where JavaScript does not run.
 */
export function frameAddress(release, settings, options) {
  const query = writeQuery({ ...settings, ...options, embed: false });
  const doc = options.view === 'all' ? 'embed.html' : `${VIEW_DIR}/${options.view}.html`;
  return `${release}ropescope/${doc}${query === '?' ? '' : query}#${pictureView(options.view)}`;
}

const escapeAttr = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

// Each view's alt text at the default settings, which its picture shows (tools/pictures.mjs
// writes the same text into pictures.json): computed once, apart from the page's numbers.
const alts = new Map();
export function defaultAlt(view) {
  const row = FIGURE[pictureView(view)];
  if (!alts.has(row.name)) {
    const text = apart(() => {
      const { state } = readQuery('');
      fillFromPreset(state);
      const model = computeModel(state);
      return pictureAlt(row.title, row.caption(state, model, row.data(model, state)));
    });
    alts.set(row.name, text);
  }
  return alts.get(row.name);
}

// A value of each embed slider's setting other than its default, far enough from it that a
// view reading the setting shows something else.
const OTHER = Object.freeze({ gap: 37, dim: 128, base: 500000 });

// The sliders each view takes, measured once per view at the default settings: those whose
// other value changes its chart, caption or label. A view with a chapter's own inputs reads
// none of them; an embed slider it does not read would do nothing.
const taken = new Map();
export function viewControls(view) {
  if (view === 'all') return EMBED_CONTROLS;
  const row = FIGURE[view];
  if (!taken.has(view)) {
    const shown = (changes) =>
      apart(() => {
        const { state } = readQuery('');
        Object.assign(state, changes);
        if (row.part === 'long') fillFromPreset(state);
        const model = computeModel(state);
        const data = row.data(model, state);
        return JSON.stringify([data, row.caption(state, model, data), row.label(state, model, data)]);
      });
    const plain = shown({});
    taken.set(
      view,
      EMBED_CONTROLS.filter((name) => shown({ [name]: OTHER[name] }) !== plain),
    );
  }
  return taken.get(view);
}

/** <rope-scope>'s attribute for a setting: title= is the heading's flag, heading= on the element,
 *  since a title attribute is the host's tooltip over the whole element. */
export const elementAttribute = (name) => (name === 'title' ? 'heading' : name);

/**
 * The snippet for the page's state and the builder's options, around the view's picture, on
 * one line (WordPress's wpautop turns a line break between its parts into a blank line):
 *   way 'iframe': the iframe of the embed document (frameAddress), the picture in <noscript>
 *   after it, and (auto) the resizer;
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
  const picture = pictureHtml({
    base: release,
    view,
    theme,
    alt: defaultAlt(view),
    href: explorerLink(state, releasePage(release)),
    lazy: way === 'element',
  });
  if (way === 'element') {
    const query = new URLSearchParams(writeQuery({ ...settings, ...options, embed: false }));
    const attributes = [...query].map(([name, value]) => ` ${elementAttribute(name)}="${escapeAttr(value)}"`).join('');
    // async: the script never holds up the post's parsing; the elements upgrade when it runs.
    return `<rope-scope${attributes}>${picture}</rope-scope><script src="${escapeAttr(`${release}ropescope-embed.js`)}" async></script>`;
  }
  const src = frameAddress(release, settings, options);
  const label = view === 'all' ? 'all figures' : FIGURE[view].title;
  // No style= (a host's style-src may refuse it): width and frameborder as attributes.
  const frame =
    `<iframe${auto ? ' data-ropescope' : ''} src="${escapeAttr(src)}" title="ropescope: ${escapeAttr(label)}"` +
    ` width="100%" height="${height ?? fixedHeight(view, { ...options, column })}" frameborder="0" loading="lazy"></iframe>` +
    `<noscript>${picture}</noscript>`;
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
          ...COLUMNS.map((width, i) =>
            el('option', { value: String(width) }, `${width} px ${i ? 'or wider' : 'and up (any)'}`),
          ),
        ),
      ),
    ),
    el(
      'p',
      { class: 'hint', id: 'embed-column-hint' },
      'Without the auto-height script an iframe keeps the snippet’s height: the narrowest your post’s column gets sets it.',
    ),
  );
  // One figure rather than all of them (tens of thousands of pixels): the one a view= link
  // shows, else the summary (the flatness measurement: the page's claim in one figure).
  const { view } = getState();
  $('embed-view').value = FIGURE[view] ? view : (FIGURES.find((row) => row.part === 'claim') ?? FIGURES[0]).name;
  $('embed-view').after(options);
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
