// The page in embed mode (?embed=1, the iframe snippets' address before the embed document,
// embed.html: frame.js): the theme= colours, the controls= sliders (the page's own, the rest
// hidden), title=0 (no headings), no figure numbers, an attribution line linking to the full
// explorer at the same settings, and the content height posted to the host page. The page's
// first script carries this; the builder that writes the snippets (embed.js) comes later.

import { PARAM, writeQuery } from '../state/state.js';
import { reportHeight } from './height.js';

const $ = (id) => document.getElementById(id);

// The explorer link leaves out the long-context settings equal to their preset's values
// (model/long.js's presetValuesDropped). The page's first screen does not carry the presets:
// until they are registered here (page/long.js, the builder), the link keeps such settings as
// set, which opens the same figures.
let dropPresetValues = (state) => ({ ...state });
/** `fn` (state) -> the state without the settings equal to their preset's values. */
export function usePresets(fn) {
  dropPresetValues = fn;
}

/** The page's address without query or hash. */
export const pageAddress = () => window.location.href.split(/[?#]/)[0];

/** The full explorer at the numbers of `state` (embed options dropped); `page`: its address. */
export function explorerLink(state, page = pageAddress()) {
  return (
    page +
    writeQuery({
      ...dropPresetValues(state),
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
