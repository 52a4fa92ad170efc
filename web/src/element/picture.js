// The pictures: a static image of every view at its default settings, light and dark, and of
// the views that read dim, base or gap at a few common settings besides (PICTURE_SETTINGS),
// which make dist renders from the page itself (tools/pictures.mjs) into dist/pictures/, and the
// markup that puts one inside a snippet as its fallback. A reader without JavaScript, a feed
// reader or a mail client (no script, no iframe), print, or a host whose policy refuses
// WebAssembly sees the picture where the live figure cannot run.
// No DOM here: tools/pictures.mjs, tools/serve.mjs (oEmbed) and the builder share these.

/** The pictures' folder, beside ropescope-embed.js (dist/pictures/, dist/v<version>/pictures/). */
export const PICTURE_DIR = 'pictures';
export const PICTURE_THEMES = Object.freeze(['light', 'dark']);
/** The column the pictures are rendered in, in CSS px; the PNGs are twice as wide (2x). */
export const PICTURE_WIDTH = 680;
export const PICTURE_SCALE = 2;
/** What each picture says under its figure in place of the live embed's credit line. */
export const PICTURE_CREDIT = 'Figure by ropescope, at its default settings';
/**
 * The settings pictures are rendered at besides the defaults, for a view that reads them (each
 * cut down to the settings the view reads; embed.js's viewPictures): a longer gap, and a
 * Llama-3-like head (dim 128, base 500000), apart and together. Others get the nearest picture,
 * and the builder says which.
 */
export const PICTURE_SETTINGS = Object.freeze([
  Object.freeze({ gap: 16 }),
  Object.freeze({ dim: 128, base: 500000 }),
  Object.freeze({ dim: 128, base: 500000, gap: 16 }),
]);
// The order a picture's settings are named in, in its file name and its credit line.
const SETTING_ORDER = ['dim', 'base', 'gap'];
const named = (settings) => SETTING_ORDER.filter((name) => settings[name] !== undefined);

/** A picture's settings as a name: '' for the defaults, else e.g. dim128-base500000-gap16. */
export const pictureKey = (settings = {}) =>
  named(settings)
    .map((name) => `${name}${settings[name]}`)
    .join('-');

/** The credit line of a picture at `settings` (the defaults: PICTURE_CREDIT). */
export const pictureCredit = (settings = {}) =>
  pictureKey(settings)
    ? `Figure by ropescope, at ${named(settings)
        .map((name) => `${name} ${settings[name]}`)
        .join(', ')}`
    : PICTURE_CREDIT;
// view=all has no picture of its own (every figure, thousands of pixels tall): it falls back
// to figure 1's, the claim the whole page argues.
const ALL_FALLBACK = 'flatness';
const MAX_SENTENCE = 240;

/** The view whose picture stands for `view`. */
export const pictureView = (view) => (view === 'all' ? ALL_FALLBACK : view);

/** A picture's name without its theme: <view>, or <view>-<key> at other settings. It is also the
 *  embed document's #fragment, which picks the picture shown where JavaScript does not run. */
export const pictureStem = (view, settings = {}) =>
  pictureKey(settings) ? `${pictureView(view)}-${pictureKey(settings)}` : pictureView(view);

/** A picture's file name: <view>-<theme>.png, or <view>-<key>-<theme>.png at other settings. */
export const pictureFile = (view, theme, settings = {}) => `${pictureStem(view, settings)}-${theme}.png`;

/**
 * The first sentence of a caption: up to the first '.', '!' or '?' that ends the text or is
 * followed by a space and a capital, digit or opening mark (so 0.5, e.g. and 2.1e-4 do not
 * end it); cut at a word, with an ellipsis, past MAX_SENTENCE characters.
 */
export function firstSentence(text) {
  const clean = String(text).replace(/\s+/g, ' ').trim();
  const end = /[.!?](?=$|\s+[A-Z0-9‘“"'(¹²³⁰-⁹−-])/.exec(clean);
  const sentence = end ? clean.slice(0, end.index + 1) : clean;
  if (sentence.length <= MAX_SENTENCE) return sentence;
  const cut = sentence.slice(0, MAX_SENTENCE);
  return `${cut.slice(0, cut.lastIndexOf(' '))}…`;
}

/** A picture's alt text: the figure's title, then its caption's first sentence. */
export function pictureAlt(title, caption) {
  const head = String(title).replace(/\s+/g, ' ').trim();
  return `${head}${/[.!?]$/.test(head) ? '' : ':'} ${firstSentence(caption)}`;
}

const escapeAttr = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The markup of a view's picture, linked to the full explorer: for theme light or dark that
 * picture; for auto and inherit both, the dark one where the reader's scheme is dark. `base`
 * is the folder holding pictures/ (ending in '/'). The image fills its column (width="100%",
 * a presentational hint that needs no style= and that mail clients honour), so its 2x pixels
 * stay sharp up to a 680 px column. settings: the picture's (pictureKey); attributes: more
 * attributes of the link, as markup. lazy: loading="lazy", for a picture inside <rope-scope>,
 * which does not render it while it draws, so the browser never fetches it (where scripts do
 * not run, or the element cannot draw, it is fetched as any image).
 */
export function pictureHtml({ base, view, theme, alt, href, lazy = false, settings = {}, attributes = '' }) {
  const url = (t) => escapeAttr(`${base}${PICTURE_DIR}/${pictureFile(view, t, settings)}`);
  const img = (t) => `<img src="${url(t)}" alt="${escapeAttr(alt)}" width="100%"${lazy ? ' loading="lazy"' : ''}>`;
  const picture =
    theme === 'light' || theme === 'dark'
      ? img(theme)
      : `<picture><source srcset="${url('dark')}" media="(prefers-color-scheme: dark)">${img('light')}</picture>`;
  return `<a href="${escapeAttr(href)}"${attributes}>${picture}</a>`;
}
