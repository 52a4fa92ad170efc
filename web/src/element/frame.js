// The embed document, embed/<view>.html?view=…&gap=…: the address the iframe snippets name. It
// is one <rope-scope> on a page of its own, with nothing of the explorer to load or to flash:
// the view's one-view script (Chart.js, the core, that figure: tools/embed_views.mjs) and a few
// lines of CSS (web/embed.css). embed.html is the same with the whole element (view=all, and the
// addresses earlier snippets wrote).
// The query is read as the page reads its own (state.js), so an old index.html?embed=1 link's
// query means the same here. Once the figure has drawn, the page posts its height to the host
// (as the explorer's embed mode does: embed.js), then again whenever it changes.
// Without JavaScript the page shows the snippet's picture: the snippet's address ends in
// #<picture> (the view and the picture's settings), and the <noscript> stylesheet shows the
// picture that carries that id (tools/embed_page.mjs). With theme=inherit the host's resizer
// tells the page the host's colours (applyHost).

import { readQuery } from '../state/state.js';
import { HOST_MESSAGE, HOST_REQUEST, reportHeight } from './height.js';

const STABLE_MS = 500;
// How long a theme=inherit figure waits for its host's colours before it draws as on a light page
// (embed.css; a host without the resizer never answers; one whose resizer comes late answers then,
// and the figure draws again).
const HOST_WAIT_MS = 1500;
const COLOR = /^rgba?\([\d.,\s/%]+\)$/;
const SCHEMES = ['normal', 'light', 'dark', 'light dark', 'dark light', 'only light', 'only dark'];

/**
 * theme=inherit in an iframe: the host page's resizer (ropescope-resize.js) tells the frame its
 * text colour, background, font and colour scheme (HOST_MESSAGE); the document takes them (the
 * text colour and font on its body, which <rope-scope theme="inherit"> reads as its host's, the
 * colour scheme on its root: the iframe's own, so the browser paints no opaque backdrop behind
 * a page whose scheme differs from its host's), on a transparent background. Values are taken
 * only from the parent window, only in the forms a computed style gives them.
 */
export function applyHost(d, root = document.documentElement, body = document.body) {
  if (!d || d.ropescope !== HOST_MESSAGE) return false;
  if (typeof d.color !== 'string' || !COLOR.test(d.color)) return false;
  const scheme = SCHEMES.includes(d.scheme) ? d.scheme : 'normal';
  // 'normal' is a light page to the browser, whatever the reader's scheme: so is the frame.
  root.style.colorScheme = scheme === 'normal' ? 'light' : scheme;
  body.style.color = d.color;
  if (typeof d.font === 'string' && d.font.length < 500) body.style.fontFamily = d.font;
  if (typeof d.background === 'string' && COLOR.test(d.background)) root.dataset.hostBackground = d.background;
  return true;
}

/** The event <rope-scope> sends each time it has built its figures (element.js). */
export const DRAWN = 'rope-scope-drawn';

/** Whether this document is the embed document (embed.html marks its root). */
export const isFrame = () => document.documentElement.hasAttribute('data-ropescope-frame');

/**
 * Puts one <rope-scope> in the embed document, its attributes from the address's query (the
 * names in `attributes`; anything else, embed=1 included, is left out), its explorer link to
 * index.html beside the document, and starts posting the height once it has drawn.
 */
export function startFrame(attributes) {
  const query = new URLSearchParams(window.location.search);
  // A one-view document (embed/<view>.html) names its view on its root: an address without
  // view= shows that figure, not every figure (which its script does not hold).
  const own = document.documentElement.dataset.view;
  if (own && !query.has('view')) query.set('view', own);
  const element = document.createElement('rope-scope');
  for (const name of attributes) {
    const value = query.get(name);
    if (value !== null) element.setAttribute(name, value);
  }
  // The explorer beside the release's documents: a one-view document (embed/<view>.html) names
  // it on its root, as ../index.html.
  const explorer = document.documentElement.dataset.explorer ?? 'index.html';
  element.setAttribute('explorer', new URL(explorer, window.location.href).href);
  element.setAttribute('loading', 'eager');
  // The document's own background follows the theme (embed.css), below a figure shorter than
  // its iframe; a theme the reader refuses is the element's to name, and leaves the default.
  const { theme } = readQuery(window.location.search).state;
  document.documentElement.dataset.theme = theme;
  // The mark the explorer sets at its first chart (app.js), for make bench and the tests: the
  // charts draw as they are made (no animation), so the first build has drawn them.
  element.addEventListener(DRAWN, () => performance.mark('ropescope:first-chart'), { once: true });
  // The height goes to the host once the layout is stable, so the iframe is resized once: not
  // before the first drawing (the element holds only a box of about its height), and not in
  // the drawing's own task (the formulas' boxes settle by the next frame). A frame out of sight
  // may get no animation frames for a while: then its height goes after STABLE_MS.
  element.addEventListener(
    DRAWN,
    () => {
      let started = false;
      const start = () => {
        if (started) return;
        started = true;
        reportHeight();
      };
      requestAnimationFrame(start);
      setTimeout(start, STABLE_MS);
    },
    { once: true },
  );
  if (theme !== 'inherit' || window.parent === window) {
    document.body.append(element);
    return;
  }
  // inherit: the host's colours first, then the figure; colours that come later redraw it.
  let placed = false;
  const place = () => {
    if (placed) return;
    placed = true;
    document.body.append(element);
  };
  window.addEventListener('message', (e) => {
    if (e.source !== window.parent || !applyHost(e.data)) return;
    if (placed) element.setAttribute('theme', 'inherit');
    else place();
  });
  window.parent.postMessage({ ropescope: HOST_REQUEST }, '*');
  setTimeout(place, HOST_WAIT_MS);
}
