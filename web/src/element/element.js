// The entry of dist/ropescope-embed.js: one script tag, no iframe. It defines
//   <rope-scope view="flatness" dim="128" base="500000" gap="16" controls="gap"></rope-scope>
// which draws the figures of the page in its own shadow DOM: the host's CSS cannot reach in,
// ours cannot leak out. Every element on a page shares the one wasm instance (rope.js) and the
// one Chart.js it loads (tools/chart_parts.mjs; never the host's window.Chart). Attributes are read exactly like
// the page's URL (state.js: the same table and parser); a bad one falls back to its default and
// a message inside the element names it. The figures, charts, captions and export menu are the
// page's own modules (figures/, charts/, output/export.js); style.css comes in as text.
//
// This module is the element's small part: it reads attributes and holds each element's place.
// What it draws with (draw.js: Chart.js, the core, style.css) and each view's figure
// (gen/figure_loaders.js) are import()s, made at the first build that needs them: in the split
// element (tools/split_element.mjs) each is a chunk fetched from beside the script then, so a
// post pays for the views it shows.
import { LOADERS } from '../../gen/figure_loaders.js';
import { FIGURE_NAMES } from '../../gen/figure_names.js';
import { PUBLIC_EXPLORER } from '../../gen/public_url.js';
import { controlParts } from '../controls/controls.js';
import { figureElement } from '../figures/section.js';
import { boundedLines, el } from '../lib/dom.js';
import { EMBED_CONTROLS, PARAM, PARAMS, readQuery, unknownViewLine, writeQuery } from '../state/state.js';
import { DRAWN, isFrame, startFrame } from './frame.js';
import { inheritHost } from './inherit.js';
import { contentHeights, EMBED_WIDTHS } from './measured.js';
import { drawLater, forget, isWaiting, prepareWith } from './schedule.js';
import { wireSettings } from './settings.js';

// A load that failed stays failed (every element asking for it is told at once, with one round
// of requests) until an attribute changes: then each is tried again.
let failedLoads = [];
function tryAgain() {
  for (const forget of failedLoads) forget();
  failedLoads = [];
}
/** () -> make()'s promise, made at the first call and kept; a failed one until tryAgain(). */
function loadOnce(make) {
  let promise = null;
  return () => {
    promise ??= make().catch((error) => {
      failedLoads.push(() => {
        promise = null;
      });
      throw error;
    });
    return promise;
  };
}

// What the element draws with (draw.js), once loaded; null before. Once it has failed, no view's
// code is asked for until an attribute changes: the browser does not keep a failed module, so a
// view's chunk asked for then would fetch the chunks it shares with draw.js a second time.
let draw = null;
let drawFailed = false;
const loadDraw = loadOnce(() =>
  import('./draw.js')
    .catch((error) => {
      drawFailed = true;
      failedLoads.push(() => {
        drawFailed = false;
      });
      throw error;
    })
    .then((module) => {
      draw = module;
      // Every connected element's charts, as one name -> handle table for printing.
      draw.watchPrint(() =>
        Object.fromEntries(
          [...elements].flatMap((element, n) =>
            Object.entries(element.charts).map(([name, handle]) => [`${n}:${name}`, handle]),
          ),
        ),
      );
      return draw;
    }),
);

// The model presets' reader and data (presets.js, from model/long.js), loaded only by an
// element that shows a long-context figure or is given a long-context setting.
let long = null;
const loadLong = loadOnce(() =>
  import('./presets.js').then((module) => {
    long = module;
  }),
);
/** Whether `state` sets a long-context setting whose default is the preset's value. */
const presetSettingSet = (state) =>
  PARAMS.some((row) => row.part === 'long' && row.default === null && state[row.name] !== null);

// Each view's row (its chart maker, data, caption, controls), once its code is here; for each
// view this script holds, the loader of its row.
const ROWS = Object.create(null);
const ROW_LOADS = Object.fromEntries(
  Object.entries(LOADERS).map(([name, load]) => [
    name,
    loadOnce(() =>
      load().then((module) => {
        ROWS[name] ??= Object.freeze({ ...module.default, number: FIGURE_NAMES.indexOf(name) + 1 });
      }),
    ),
  ]),
);
const loadRow = (name) => ROW_LOADS[name]();

// The views this script can draw: every figure's, or in a one-view script (the embed
// document's: tools/embed_views.mjs) that view's alone.
const HELD = FIGURE_NAMES.filter((name) => LOADERS[name]);

// Before the first element draws, once: draw.js, then the core, inflated by the browser and
// compiled off the main thread. Where either cannot load, the drawing that follows says so.
prepareWith(() => loadDraw().then((module) => module.ready({ apart: true })));

/** A view's embed height (measured.js, heading shown) at the measured width nearest `width`. */
function waitingHeight(view, width) {
  const measured = contentHeights(view);
  let near = 0;
  EMBED_WIDTHS.forEach((w, i) => {
    if (Math.abs(w - width) < Math.abs(EMBED_WIDTHS[near] - width)) near = i;
  });
  return measured[near][0];
}

// A host restyles the element through custom properties, which cross the shadow boundary by
// inheritance: --rs-NAME set on rope-scope (or any ancestor) replaces the token --NAME of
// style.css's first :root block (--rs-accent, --rs-font, --rs-c-rope...; web/README.md lists them).
const hostTokens = (css) =>
  css.replace(
    /:root\s*\{([^}]*)\}/,
    (_, body) =>
      `:root{${body
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(
          /(^|;)\s*--([\w-]+)\s*:([^;]*)/g,
          (__, sep, name, value) => `${sep}--${name}: var(--rs-${name}, ${value.trim()})`,
        )}}`,
  );

// The page's stylesheet in the shadow root: the document's html/:root and body become the
// element's wrapper, so the same rules (palette, theme, embed layout) apply inside. The wrapper
// first resets every inherited property (all: initial), so nothing of the host's text styles
// gets in through inheritance, and rem (relative to the host's root font size) becomes px at
// the browser's default 16 px.
const shadowCss = (CSS) => `.rs-body { all: initial; display: block; }\n${hostTokens(CSS)
  .replace(/(\d*\.?\d+)rem\b/g, (_, n) => `${Number((Number(n) * 16).toFixed(3))}px`)
  .replace(/:root/g, '.rs-root')
  .replace(/(^|[\s,>+~(}])(?:html|body)(?=[\s.{:[,)])/g, '$1.rs-body')}
:host { display: block; }
:host([hidden]) { display: none; }
.figures[hidden], slot[hidden] { display: none; }
slot { display: block; margin: 8px 0; }`;

// One constructed stylesheet shared by every element: a host's style-src does not apply to it
// (it is not a <style> element), so the element needs no style-src at all. A <style> element
// where constructed sheets are missing.
let sheet = null;
let SHADOW_CSS = null;
function adoptStyles(root) {
  SHADOW_CSS ??= shadowCss(draw.CSS);
  if ('adoptedStyleSheets' in ShadowRoot.prototype && 'replaceSync' in CSSStyleSheet.prototype) {
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(SHADOW_CSS);
    }
    root.adoptedStyleSheets = [sheet];
    return;
  }
  root.append(el('style', {}, SHADOW_CSS));
}

// Where the host's CSP refuses WebAssembly, which computes every number, the element says so in
// one line and points to the full explorer.
const WASM_REFUSED =
  "This site's Content-Security-Policy does not allow WebAssembly, which computes this figure " +
  "(its script-src needs 'wasm-unsafe-eval'); the full explorer shows it.";
const wasmRefused = (err) =>
  err instanceof WebAssembly.CompileError && /Content.Security.Policy|unsafe-eval/i.test(err.message);

// Settings an element takes as attributes: the page's URL parameters, except embed (always on).
const ATTRIBUTES = PARAMS.map((row) => row.name).filter((name) => name !== 'embed');
// Where the credit's default explorer (ropescope.html) is looked for: beside this script when a
// script tag loads it by its name (dist/, a release folder, a CDN); an inline copy of it (make
// serve, a host that inlines it) has no src: the page's address. Bundled into another script or
// imported as a module it cannot find itself: the explorer's public address the build was given
// (make's PUBLIC_URL, web/gen/public_url.js).
const OWN = document.currentScript;
const SCRIPT_URL = !OWN
  ? null
  : !OWN.src
    ? window.location.href
    : /\/ropescope-embed\.js$/.test(new URL(OWN.src).pathname)
      ? OWN.src
      : null;

/** In a sandbox without allow-same-origin: an http(s) page whose origin is opaque. */
const sandboxed = () => window.origin === 'null' && /^https?:$/.test(window.location.protocol);

/** The full explorer's address: the explorer= attribute, else ropescope.html beside this script
 *  (or, imported, the public explorer). */
function explorerBase(attribute) {
  try {
    const url = new URL(attribute ?? 'ropescope.html', SCRIPT_URL ?? PUBLIC_EXPLORER);
    if (['http:', 'https:', 'file:'].includes(url.protocol)) return { ok: true, url: url.href.split(/[?#]/)[0] };
  } catch {
    // reported below
  }
  return { ok: false };
}

let defaultsSet = false;
let warmed = false;
// The connected elements. The page-wide watchers below serve them all and are set once: a
// watcher per element (or per build) would outlive it, holding its whole shadow tree.
const elements = new Set();
window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
  draw?.refreshColors();
  for (const element of elements) element.redrawAll();
});
// A web font the charts draw with (the host's, with theme=inherit) that arrives after they drew
// leaves their text in the fallback font, as a canvas is not laid out again: once the
// document's fonts have loaded, every drawn element draws again, each in a task of its own.
document.fonts?.addEventListener?.('loadingdone', () => {
  for (const element of elements) setTimeout(() => element.redrawAll(), 0);
});
class RopeScope extends HTMLElement {
  static get observedAttributes() {
    return [...ATTRIBUTES, 'heading', 'explorer', 'loading'];
  }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.charts = Object.create(null);
    this.state = null;
    this.built = false;
    this.steps = null; // the build under way (buildSteps), if any
    this.loading = null; // the code that build waits on, if any
    this.unloaded = false; // its code could not load: it shows a line and its picture
  }

  /** Whether the element has drawn its figures (its last build has ended): true when it sends
   *  rope-scope-drawn. A chart on a canvas is not enough, as a chart is made over three tasks. */
  get drawn() {
    return this.built && !this.steps && !this.unloaded;
  }

  // Each element starts in a task of its own: the script defining the element upgrades every
  // element already in the post at once, and their layouts (showWaiting's) in that one task
  // would add up to a long one.
  connectedCallback() {
    elements.add(this);
    setTimeout(() => {
      if (this.isConnected && elements.has(this) && !this.built && !this.steps && !isWaiting(this)) this.connect();
    }, 0);
  }

  // Until it draws (schedule.js), the element holds about the height it will take. Its own
  // children (the snippet's picture, loading="lazy") are not rendered meanwhile, so the browser
  // does not fetch a picture the figure replaces; they show where it cannot draw.
  // loading="eager": drawn as soon as the core is ready, wherever it is (the embed document,
  // whose iframe is itself loaded lazily, and a host that wants it at once).
  connect() {
    // What every element draws with is fetched now, while this one waits to come near the
    // viewport, and its view's code once the browser is idle (so that printing, which draws
    // every element at once, finds it here). A load that fails is said when the element draws.
    loadDraw().catch(() => {});
    const view = this.viewAttribute();
    const names = view === 'all' ? HELD : HELD.filter((name) => name === view);
    const later = window.requestIdleCallback ?? ((fn) => setTimeout(fn, 200));
    later(() => {
      if (!drawFailed) for (const name of names) loadRow(name).catch(() => {});
    });
    const eager = this.getAttribute('loading') === 'eager';
    if (!eager) this.showWaiting();
    if (!drawLater(this, eager)) this.build();
  }

  disconnectedCallback() {
    elements.delete(this);
    forget(this);
    this.steps = null;
    this.teardown();
  }

  attributeChangedCallback() {
    if (!this.isConnected || !this.built) return;
    tryAgain();
    this.build();
  }

  /** The view= attribute as the URL reader takes it (trimmed, lower case; 'all' when absent). */
  viewAttribute() {
    return (this.getAttribute('view') ?? 'all').trim().toLowerCase();
  }

  // Before drawing: a box about as tall as the figure will be (its embed's measured height; set
  // through the CSSOM, which a host's style-src allows), without a <slot>: the children wait unseen.
  showWaiting() {
    const view = this.viewAttribute();
    const box = el('div', { part: 'waiting' });
    const known = FIGURE_NAMES.includes(view);
    box.style.minHeight = `${known ? waitingHeight(view, this.getBoundingClientRect().width) : 0}px`;
    this.shadowRoot.replaceChildren(box);
  }

  teardown() {
    for (const handle of Object.values(this.charts)) handle.destroy();
    this.charts = Object.create(null);
    this.shadowRoot.replaceChildren();
    this.built = false;
    this.unloaded = false;
  }

  // Attributes -> state, through the URL reader: same grammar, ranges and messages.
  readAttributes() {
    const query = new URLSearchParams();
    for (const name of ATTRIBUTES) if (this.hasAttribute(name)) query.set(name, this.getAttribute(name));
    // heading= is the title setting (a title attribute would be the host's tooltip); title= is
    // read too, as earlier snippets wrote it.
    if (this.hasAttribute('heading')) query.set('title', this.getAttribute('heading'));
    const { state, problems } = readQuery(query);
    // A view that is no figure shows none, with one line naming the views (not every figure).
    // A one-view script (the embed document's: tools/embed_views.mjs) holds that view's code
    // alone; any other view is not in it.
    const refused = problems.some((p) => p.name === 'view');
    const elsewhere =
      !refused && (state.view === 'all' ? HELD.length < FIGURE_NAMES.length : !HELD.includes(state.view));
    const noView = refused || elsewhere;
    // A refused heading= is named as written.
    const named = (p) => (p.name === 'title' && this.hasAttribute('heading') ? 'heading' : p.name);
    const lines = problems.map((p) =>
      p.name === 'view'
        ? unknownViewLine(p)
        : `Attribute ignored: ${p.message.replace(/^title\b/, named(p))}; using the default ${named(p)}="${PARAM[p.name].serialize(PARAM[p.name].default)}".`,
    );
    if (elsewhere)
      lines.push(`No figure shown: this script holds one view; view="${state.view}" needs ropescope-embed.js.`);
    const explorer = explorerBase(this.getAttribute('explorer') ?? undefined);
    if (!explorer.ok) lines.push('Attribute ignored: explorer must be an http(s) address.');
    return { state, lines, noView, explorer: explorer.ok ? explorer.url : null };
  }

  /** Starts a build whose steps (each for a task of its own) the caller runs (schedule.js). */
  startBuild(stepped = true) {
    this.steps = this.buildSteps(stepped);
    return this.steps;
  }

  /** The whole build at once (a changed attribute, printing, a browser without IntersectionObserver).
   *  A build that must first load code (draw.js, a view's figure) goes on once it is here. */
  build() {
    const steps = this.startBuild(false);
    const run = () => {
      for (let step = steps.next(); !step.done; step = steps.next()) {
        if (step.value && step.value === this.loading) {
          step.value.then(() => this.steps === steps && run());
          return;
        }
      }
    };
    run();
  }

  /** The promise of the code a build of `names` at `state` draws with, or null when it is all
   *  here: the presets' reader too for a long-context figure or setting. */
  codeFor(names, state) {
    const presets = () => presetSettingSet(state) || names.some((name) => ROWS[name].part === 'long');
    if (draw && names.every((name) => ROWS[name]) && (long || !presets())) return null;
    return Promise.all([loadDraw(), ...(drawFailed ? [] : names.map(loadRow))]).then(() =>
      presets() ? loadLong() : null,
    );
  }

  // The build, one step for each yield. The figure is shown once whole, as before it was split:
  // until its charts are drawn the element's box holds its layout unseen. The first build run
  // in steps warms Chart.js up first (warm.js); one run at once needs no warming.
  *buildSteps(stepped) {
    this.teardown();
    const { state, lines, noView, explorer } = this.readAttributes();
    this.state = state;
    this.explorer = explorer;
    const names = noView ? [] : state.view === 'all' ? FIGURE_NAMES : [state.view];
    // The code this build draws with, fetched now if it is not here (the step the schedule and
    // build() wait on); where it cannot load, the element says so and shows its picture.
    const code = this.codeFor(names, state);
    if (code) {
      let failed = null;
      this.loading = code.catch((error) => {
        failed = error;
      });
      yield this.loading;
      this.loading = null;
      if (failed) {
        this.lines = lines;
        this.showUnloaded(failed);
        return;
      }
    }
    const rows = names.map((name) => ROWS[name]);
    // The long-context settings left out take the preset's values, as on the page, where a
    // long-context figure is shown: reading the preset costs a first element about 90 ms
    // (inflating the model files, reading the config), which the other views never use.
    if (rows.some((row) => row.part === 'long')) {
      try {
        long.fillFromPreset(state);
      } catch {
        // a preset the reader refuses: the long figures stay empty
      }
    }
    const wrapper = el('div', { class: 'rs-root rs-body embed', part: 'body' });
    wrapper.style.visibility = 'hidden';
    if (state.theme === 'inherit') inheritHost(this, wrapper);
    else if (state.theme !== 'auto') wrapper.dataset.theme = state.theme;
    wrapper.classList.toggle('embed-controls', state.controls.length > 0);
    wrapper.classList.toggle('embed-notitle', !state.title);
    this.notice = el('div', { class: 'notice', role: 'status' });
    const panel = el('div', { class: 'panel' }, ...state.controls.map((name) => this.controlRow(name)));
    const figures = el('div', { class: 'figures' }, ...rows.map(figureElement));
    for (const num of figures.querySelectorAll('.fig-num')) num.remove();
    this.link = el('a', { target: '_blank', rel: 'noopener' }, 'open the full explorer ↗');
    const attribution = el('p', { class: 'attribution' }, 'Live figure by ropescope · ');
    // In a sandbox without allow-same-origin (WordPress puts an oEmbed's markup in
    // sandbox="allow-scripts"), downloads and new tabs are refused without a word: the figure
    // offers no exports there, and gives the explorer's address as text to copy.
    const notes = [];
    if (explorer && sandboxed()) {
      this.link = el('span', { class: 'sandbox-address' });
      attribution.append('the full explorer: ', this.link);
      notes.push(
        el(
          'p',
          { class: 'hint sandbox-note' },
          'Shown in a sandbox, which refuses downloads and new tabs: no exports here; the explorer’s address is above.',
        ),
      );
    } else if (explorer) attribution.append(this.link);
    // The element's children (the snippet's picture) stay unseen while it draws, as a shadow
    // root without a <slot> keeps them; where it cannot draw, this slot shows them.
    this.fallback = el('slot', { hidden: '' });
    this.figures = figures;
    wrapper.append(this.notice, this.fallback, panel, figures, attribution, ...notes);
    adoptStyles(this.shadowRoot);
    this.shadowRoot.append(wrapper);
    this.rows = rows;
    this.lines = lines;
    this.built = true;
    wireSettings(this.shadowRoot, this);
    yield;
    if (!defaultsSet) {
      draw.setupDefaults(wrapper);
      defaultsSet = true;
    }
    if (stepped && !warmed) {
      warmed = true;
      yield;
      yield* draw.warmCharts(wrapper);
    }
    // The formulas' slots are held until filled: fill them now, so a rebuild drops them all.
    if (wrapper.querySelector('.formula-slot')) {
      yield;
      yield draw.fillFormulas();
    }
    yield* this.renderSteps();
    wrapper.style.removeProperty('visibility');
    this.steps = null;
    this.dispatchEvent(new Event(DRAWN));
  }

  // Where the code it draws with cannot load (the chunks' folder missing beside the script, a
  // network error, a host's CSP refusing scripts from where this one came): a line saying so, the
  // attributes' problems, and the snippet's picture. A changed attribute tries again.
  showUnloaded(error) {
    const lines = boundedLines([
      ...this.lines,
      `Could not load this figure's code: ${error?.message ?? error}. The full explorer shows it.`,
    ]);
    const notice = el('div', { part: 'notice', role: 'status' }, ...lines.map((line) => el('p', {}, line)));
    this.shadowRoot.replaceChildren(notice, el('slot'));
    this.built = true;
    this.unloaded = true;
    this.steps = null;
  }

  showNotice(extra = []) {
    const all = boundedLines([...this.lines, ...extra]);
    this.notice.replaceChildren(...all.map((line) => el('p', {}, line)));
    this.notice.hidden = all.length === 0;
  }

  render() {
    const steps = this.renderSteps();
    while (!steps.next().done);
  }

  // The settings drawn: the numbers and the chart of each figure, each a step of its own.
  *renderSteps() {
    if (this.explorer) {
      // The settings that differ from their defaults (and the preset's values, which need the
      // core: without it, all of them); no embed options.
      // Only the settings that default to the preset's value (null) and are set here can equal
      // the preset's; with none, there is nothing to drop and the preset need not be read.
      let settings = this.state;
      try {
        if (presetSettingSet(this.state)) settings = long.presetValuesDropped(this.state);
      } catch {
        // the core is unavailable: the notice below says why
      }
      const address =
        this.explorer +
        writeQuery({
          ...settings,
          embed: false,
          view: 'all',
          theme: 'auto',
          controls: PARAM.controls.default,
          title: true,
        });
      if (this.link.tagName === 'A') this.link.href = address;
      else this.link.textContent = address;
    }
    let model;
    try {
      model = draw.computeModel(this.state);
    } catch (err) {
      this.showNotice([wasmRefused(err) ? WASM_REFUSED : `Could not update the figures: ${err.message}`]);
      this.showFallback(true);
      return;
    }
    this.showNotice();
    this.showFallback(false);
    const $ = (id) => this.shadowRoot.getElementById(id);
    const failed = [];
    for (const row of this.rows) {
      yield;
      // A figure whose numbers cannot be computed says why and leaves the others drawn.
      let data;
      try {
        data = row.data(model, this.state);
        $(`caption-${row.name}`).textContent = row.caption(this.state, model, data);
        $(`chart-${row.name}`).setAttribute('aria-label', row.label(this.state, model, data));
      } catch (err) {
        failed.push(`Could not compute "${row.title}": ${err.message}`);
        this.showNotice(failed);
        continue;
      }
      if (this.charts[row.name]) {
        this.charts[row.name].update(data);
        continue;
      }
      // The figure's layout (which the chart reads for its size) and its canvas's context, then
      // the chart: a step each, and the chart's own steps. The handle is kept from the first, so
      // that a build dropped midway destroys the chart it made.
      const canvas = $(`chart-${row.name}`);
      yield;
      canvas.getBoundingClientRect();
      canvas.getContext('2d');
      yield;
      const handle = yield* draw.chartInSteps(canvas, () => (this.charts[row.name] = row.make(canvas, data)));
      if (!sandboxed())
        draw.addExportMenu(handle, {
          figure: row.name,
          settings: () => this.state,
          onError: (message) => this.showNotice([message]),
        });
    }
  }

  // The snippet's picture in place of figures that cannot be drawn (when it has one).
  showFallback(on) {
    const picture = on && this.children.length > 0;
    this.fallback.hidden = !picture;
    this.figures.hidden = picture;
  }

  // Not while a build is under way: its charts still to come take the new fonts and colours.
  redrawAll() {
    if (this.built && !this.steps) this.render();
  }

  // One slider and its box, as on the page (same table, same checks); ids are the shadow
  // root's own, wired with the figures' own inputs (settings.js).
  controlRow(name) {
    const row = PARAM[name];
    const { label, widget, msg } = controlParts(name, { kind: 'slider', integer: row.type === 'int' });
    return el('div', { class: 'control embed-control' }, label, widget, msg);
  }
}

if (!customElements.get('rope-scope')) {
  // The Chart.js class the elements draw with, for tests and hosts, once an element has loaded
  // it: RopeScope.Chart.getChart(canvas).
  Object.defineProperty(RopeScope, 'Chart', { get: () => draw?.Chart });
  RopeScope.EMBED_CONTROLS = EMBED_CONTROLS;
  customElements.define('rope-scope', RopeScope);
}
// In the embed document (embed.html, the iframe snippets' address) the script builds the page.
if (isFrame()) startFrame(ATTRIBUTES);
