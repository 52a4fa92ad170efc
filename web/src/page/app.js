// The page's wiring: controls and URL -> state -> render() (state -> wasm -> charts). Drawing
// within the frame budget is schedule.js's, the address bar url.js's.

import { FIRST_MODULES } from '../../gen/figure_first.js';
import { LOADERS } from '../../gen/figure_loaders.js';
import { FIGURE_NAMES } from '../../gen/figure_names.js';
import { restyleAll } from '../charts/figure.js';
import { setupDefaults } from '../charts/theme.js';
import { controlFor } from '../controls/controls.js';
import { buildPanels } from '../controls/panels.js';
import { showPending, wireSetting } from '../controls/wire.js';
import { ready as coreReady } from '../core/rope.js';
import { applyTheme, embedFigure, setupEmbed, updateEmbed } from '../element/embed_mode.js';
import { essayOf } from '../figures/essays.js';
import { CHAPTERS, FIGURE, FIGURES } from '../figures/heads.js';
import {
  chapterKeys,
  chapterQuery,
  declareChapters,
  onChapterChange,
  onChapterSettle,
  readChapters,
  restoreChapters,
  setLinkQuery,
} from '../figures/lesson_row.js';
import { embedOption, figureElement, numberGuide } from '../figures/section.js';
import { fillFormulas } from '../formulas/mathml.js';
import { boundedLines } from '../lib/dom.js';
import { saveText } from '../lib/save.js';
import { computeModel, reportFile } from '../model/model.js';
import { addExportMenu } from '../output/export.js';
import { watchPrint } from '../output/print.js';
import { defaults, follow, PARAM, PARAMS, readQuery, unknownViewLine, writeQuery } from '../state/state.js';
import { normReadout, vectorsReadout, wireActions } from './actions.js';
import { chartJsHere, loadChartJs } from './chartjs.js';
import { restoreLong, startLong } from './long.js';
import { wireMiniature } from './question.js';
import { frameScheduler } from './schedule.js';
import { urlWriter } from './url.js';
import { wireVerify } from './verify_loader.js';

performance.mark('ropescope:app-start'); // after every import has run (make bench reports it)

const $ = (id) => document.getElementById(id);

const CONTROLS = Object.freeze(
  Object.assign(
    Object.create(null),
    Object.fromEntries(
      PARAMS.filter((row) => row.type !== 'choice' && !row.part).map((row) => [row.name, controlFor(row)]),
    ),
  ),
);

// Every chapter's inputs are read from a link, and written to it, before its code is loaded.
declareChapters(CHAPTERS);
const loaded = readQuery(window.location.search, chapterKeys());
const state = loaded.state;
const chapterProblems = readChapters(loaded.chapters);
// An embed given a view that is no figure shows none, not all of them (state.view stays 'all').
const noView = state.embed && loaded.problems.some((p) => p.name === 'view');
// A problem names the setting by its label; the link's key is added where the two differ.
const linkKey = (p) => (PARAM[p.name].label === p.name ? '' : `${p.name}=${p.text}: `);
const linkProblems = loaded.problems
  .map((p) =>
    p.whole
      ? `${p.message}.`
      : noView && p.name === 'view'
        ? unknownViewLine(p)
        : p.name === null
          ? `Link parameter ignored: ${p.message}.`
          : `Link value ignored: ${linkKey(p)}${p.message}; using ${
              PARAM[p.name].default === null
                ? `the preset's ${p.name}`
                : `the default ${p.name}=${PARAM[p.name].serialize(PARAM[p.name].default)}`
            }.`,
  )
  .concat(
    chapterProblems.map(
      (p) => `Link value ignored: ${p.message}; using the default ${p.name}=${p.chapter.serialize(p.chapter.default)}.`,
    ),
  );
const charts = Object.create(null); // figure name -> chart handle, made by ensureCharts

// ---- each figure's code, loaded as the reader nears it ----

// FIGURES holds the heads (figures/heads.js); a figure's row (its chart maker, data, caption and
// controls) comes with its code, which a split build fetches only now. A figure is built only
// once its code is here: a built figure's row is always ROWS[name].
const ROWS = Object.create(null); // name -> the figure's row
const MODULES = Object.create(null); // name -> its module (the worked example: circle.js's renderWorked)
const loading = Object.create(null); // name -> the promise of its row
/** The promise of a figure's row; a load that fails is said in the notice, and tried again on the next call. */
function loadRow(name) {
  loading[name] ??= Promise.all([LOADERS[name](), laterProse()]).then(
    ([module]) => here(name, module),
    (error) => {
      delete loading[name];
      showNotice(...linkProblems, `Could not load figure ${FIGURE[name].number}: ${error.message}`);
      throw error;
    },
  );
  return loading[name];
}
// The later chapters' opening paragraphs (figures/prose.js) come with the first figure loaded
// after the first screen's (an embed shows no prose).
let proseTable = {};
let proseLoad = null;
function laterProse() {
  if (state.embed) return null;
  proseLoad ??= import('../figures/prose.js').then(
    (module) => {
      proseTable = module.CHAPTER_PROSE;
    },
    (error) => {
      proseLoad = null;
      throw error;
    },
  );
  return proseLoad;
}
// A figure's module is here: its row, numbered by its place in the table.
function here(name, module) {
  MODULES[name] = module;
  ROWS[name] ??= Object.freeze({ ...module.default, number: FIGURE[name].number });
  return ROWS[name];
}
// The first chapter's and the summary's code came with this script (gen/figure_first.js).
for (const [name, module] of Object.entries(FIRST_MODULES)) loading[name] = Promise.resolve(here(name, module));
const loadRows = (rows) => Promise.all(rows.map((row) => loadRow(row.name)));
const isLoaded = (row) => ROWS[row.name] !== undefined;
// fn once the browser is idle (soon in any case; a browser without idle callbacks: a moment later).
const whenIdle = (fn) =>
  window.requestIdleCallback ? window.requestIdleCallback(fn, { timeout: 2000 }) : setTimeout(fn, 200);
// The embed builder (element/embed.js, its snippets, pictures and preview) comes once every
// figure's code is here, at idle after the first chart: the first screen does not carry it.
let builder = null;
const updateEmbedCode = () => builder?.updateEmbedCode();
function setupBuilder() {
  return import('../element/embed.js').then((embed) => {
    embed.useFigureRows((name) => ROWS[name]);
    embed.setupEmbedBuilder(() => state);
    builder = embed;
  });
}
let lastData = null;
let painted = false; // false until the first frame is on screen (render() then does every figure)
let failed = false;
// Charts scrolled out of view get their new data at once (so Chart.getChart(canvas).data is
// always current) but are drawn only when they come back into view: dragging a slider
// then redraws what the reader can see.
const hidden = new Set();
const scheduler = frameScheduler(charts, hidden);
const url = urlWriter(() => writeQuery(state, chapterQuery()), { entries: !state.embed });
const writeUrl = url.write;
onChapterChange(() => writeUrl());
onChapterSettle(() => url.settle());
if (!state.embed) setLinkQuery(() => writeQuery(state, chapterQuery()));

const inViewport = (el, below = 0) => {
  const box = el.getBoundingClientRect();
  return box.width > 0 && box.bottom > 0 && box.top < window.innerHeight + below;
};

// Before the first paint: the names of the figures whose section lies within one screen below the
// viewport (the first chapter's chart, just under the post's question, is drawn at once). Asked of
// the <figure> sections, not their canvases: while the page loads, style.css lays the sections
// below the first figure out only near the viewport (content-visibility), and asking where something
// inside such a section is lays that section out, one forced layout per figure (a third of the
// page script's time before the first chart); the sections' own boxes come from one layout.
// A figure not built yet (buildNear) is not on screen.
const onFirstScreen = () =>
  new Set(
    FIGURES.filter((row) => {
      const section = $(`fig-${row.name}`);
      return section !== null && inViewport(section, window.innerHeight);
    }).map((row) => row.name),
  );

// ---- render: state -> wasm -> charts ----

/**
 * State -> wasm -> figures. With budget (a reader's input), the charts on screen are drawn
 * while the update is inside its frame budget and the rest in the next frames (drawStale).
 */
function render({ budget = false } = {}) {
  performance.mark('ropescope:update-start');
  const started = performance.now();
  let model;
  try {
    model = computeModel(state);
    performance.mark('ropescope:model-end');
  } catch (err) {
    // Inputs are checked before they reach state; if the core still refuses, keep the last charts.
    failed = true;
    showNotice(...linkProblems, `Could not update the figures: ${err.message}`);
    return false;
  }
  if (failed) {
    failed = false;
    showNotice(...linkProblems);
  }
  // Before the first paint only the figures on screen (and any already made) are computed.
  const shown = painted ? null : onFirstScreen();
  const rows = (painted ? FIGURES.filter(isBuilt) : FIGURES.filter((row) => charts[row.name] || shown.has(row.name)))
    .filter(isLoaded)
    .map((row) => ROWS[row.name]);
  const data = Object.create(null);
  for (const row of rows) data[row.name] = row.data(model, state);
  const previous = lastData;
  lastData = data;
  // A figure whose data did not change (model.js reuses results) is not touched.
  for (const name of Object.keys(charts)) {
    if (data[name] == null) continue; // its part gave no data this time: the chart keeps its last
    if (previous && sameData(previous[name], data[name])) continue;
    charts[name].update(data[name], false); // the data now, the drawing below
    if (!hidden.has(name)) scheduler.mark(name);
  }
  scheduler.draw(budget ? started : null);
  // An embed or a view= page makes every chart as its data come (the long-context figures', once
  // that part's code is here); the page, those near the screen.
  ensureCharts(painted && !LAZY, shown);
  for (const row of rows) {
    $(`caption-${row.name}`).textContent = row.caption(state, model, data[row.name]);
    $(`chart-${row.name}`).setAttribute('aria-label', row.label(state, model, data[row.name]));
  }
  $('norm-readout').textContent = normReadout(model);
  if (painted && $('worked-out')) MODULES.circle?.renderWorked(state, model.explain.worked);
  vectorsReadout(state);
  performance.mark('ropescope:update-end');
  performance.measure('ropescope:update', 'ropescope:update-start', 'ropescope:update-end');
  return true;
}

// Same keys holding the same values (arrays compared by identity: model.js reuses them).
function sameData(a, b) {
  if (a === b) return true;
  if (!a || !b) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

// ---- controls ----

// One line per message, a handful at most; text only, never HTML (link values can be hostile).
function showNotice(...all) {
  const notice = $('notice');
  const lines = boundedLines(all);
  notice.replaceChildren(
    ...lines.map((line) => {
      const p = document.createElement('p');
      p.textContent = line;
      return p;
    }),
  );
  notice.hidden = lines.length === 0;
}

// The settings whose widgets are on the page and wired. Those of a figure built after the first
// chart (buildNear) are not yet: they take the state when they are wired (wireBuilt).
const wired = new Set();

// A rejected value: the rule, and what the figures show meanwhile.
function setMessage(name, message) {
  if (!wired.has(name)) return;
  const shown = `${PARAM[name].label} = ${PARAM[name].serialize(state[name])}`;
  $(`${name}-msg`).textContent = message ? `${message}. The figures still show ${shown}.` : '';
  $(`${name}-num`).setAttribute('aria-invalid', message ? 'true' : 'false');
  setPending(name, '');
}

// A typed value not applied yet (no Enter, no leaving the box): said quietly under the box.
function setPending(name, text) {
  showPending($(`${name}-num`), $(`${name}-msg`), text);
}

function syncRange(name, moveThumb = true) {
  const control = CONTROLS[name];
  if (!control.range || !wired.has(name)) return;
  const range = $(name);
  if (moveThumb) range.value = String(control.toRange ? control.toRange(state[name]) : state[name]);
  // Log sliders (base, gap) hold log10 of the value: screen readers should hear the value itself.
  if (PARAM[name].slider.log) range.setAttribute('aria-valuetext', `${PARAM[name].label} ${state[name]}`);
}

function syncBox(name) {
  if (!wired.has(name)) return;
  $(`${name}-num`).value = String(state[name]);
  setPending(name, '');
}

// A slider whose setting has a ceiling (state.js) reaches that far only. thumbs: the thumbs are
// put back at their values too (after several settings changed at once).
const CEILED = PARAMS.filter((row) => row.ceiling && row.slider).map((row) => row.name);
function syncCeilings({ thumbs = true } = {}) {
  for (const name of CEILED) {
    if (!wired.has(name)) continue;
    $(name).max = String(PARAM[name].ceiling(state));
    if (thumbs) syncRange(name);
  }
}

// The texts of the boxes refused now ({ name: text }): follow() reads some again.
function refusedTexts() {
  const texts = Object.create(null);
  for (const name of wired) {
    const box = $(`${name}-num`);
    if (box.getAttribute('aria-invalid') === 'true') texts[name] = box.value;
  }
  return texts;
}

// Several settings at once (reset, presets, lock): one URL write and one render.
function acceptAll(values) {
  for (const [name, value] of Object.entries(values)) {
    state[name] = value;
    if (CONTROLS[name]) {
      setMessage(name, '');
      syncRange(name);
      syncBox(name);
    }
  }
  syncCeilings();
  const lock = $('lock');
  if (lock) lock.checked = state.lock;
  writeUrl();
  render({ budget: true });
  updateEmbedCode();
}

// Printing: every figure made and drawn at the current settings, on screen or not. The browser
// prints right after this task, so it draws the figures whose code is here: every figure's once
// the idle fetch after the first chart is done; a print asked sooner fetches the rest for the next.
function drawAll() {
  if (!PAGE_ROWS.every(isLoaded)) loadRows(PAGE_ROWS).catch(() => {});
  if (!chartsReady) chartJs();
  buildAll();
  fillFormulas();
  ensureCharts(true);
  scheduler.clear();
  for (const name of Object.keys(charts)) {
    hidden.delete(name);
    charts[name].update(lastData[name], true);
  }
}

// ---- Chart.js: every figure's chart, not the first screen's miniature ----

let chartsReady = false; // Chart.js here, its defaults set: ensureCharts makes charts
let chartsAsked = null;
/** Chart.js fetched (page/chartjs.js) and set up once; a failure is said in the notice. */
function chartJs() {
  chartsAsked ??= loadChartJs().then(
    () => {
      if (!chartsReady) chartsArrived();
      if (!started) return; // start() makes them with the rest
      render(); // the figures' data now, and their charts: those within a screen below, or all
      ensureCharts(!LAZY, LAZY ? onFirstScreen() : null);
      markIdle();
    },
    (error) => {
      chartsAsked = null;
      showNotice(...linkProblems, `The charts could not be drawn: ${error.message}. Reload the page to try again.`);
    },
  );
  return chartsAsked;
}
/** Chart.js is here: its defaults, and the 'ropescope:first-chart' mark at its first drawing. */
function chartsArrived() {
  setupDefaults();
  let drawn = false;
  window.Chart.register({
    id: 'ropescopeFirstDraw',
    afterDraw() {
      if (drawn) return;
      drawn = true;
      performance.mark('ropescope:first-chart');
    },
  });
  chartsReady = true;
}

// After printing, the charts away from the screen wait to be drawn again: drawAll drew them, and
// the visibility observer, which reports only changes, will not say so a second time.
function hideUnseen() {
  for (const name of Object.keys(charts)) if (!near.has(name)) hidden.add(name);
}

// Makes the charts that do not exist yet: at the first render only those within a screen of the
// viewport (`shown`, the names onFirstScreen gave: the first figure appears sooner); later, those
// of the figures built since, as each comes within 100 px of the screen (watchVisibility), and
// every one (all: true) before printing.
function ensureCharts(all, shown = null) {
  if (!chartsReady) return; // Chart.js comes after the first screen (chartJs below)
  for (const { name } of FIGURES.filter(isLoaded)) {
    const { make } = ROWS[name];
    const canvas = $(`chart-${name}`);
    // A row's data is null until its part is ready (the long-context part, after the first paint;
    // the figures off screen at the first render; those not built yet).
    if (charts[name] || !canvas || !lastData || lastData[name] == null) continue;
    if (!all && !(shown ? shown.has(name) : near.has(name) || inViewport(canvas))) continue;
    charts[name] = make(canvas, lastData[name]);
    addExportMenu(charts[name], {
      figure: name,
      settings: () => state,
      onError: (message) => showNotice(...linkProblems, message),
    });
  }
}

let visibility = null; // the observer of the figures' canvases, once the first chart is painted
function watchVisibility() {
  visibility = new IntersectionObserver(
    (entries) => {
      let fresh = false;
      for (const entry of entries) {
        const { name } = entry.target.dataset;
        if (entry.isIntersecting) {
          near.add(name);
          hidden.delete(name);
          if (charts[name]) charts[name].redraw();
          else fresh = true;
        } else {
          near.delete(name);
          hidden.add(name);
        }
      }
      if (fresh) ensureCharts(false); // a figure built since comes near: its chart is made now
      markIdle();
      markBar();
    },
    { rootMargin: '100px' },
  );
  for (const row of FIGURES.filter(isBuilt)) observeFigure(row);
  // The summary's opening paragraph: on a phone the bar sits right above it (style.css), so it is
  // shown as that paragraph comes up, not slid away leaving a hole above it (BAR_USERS).
  const summary = $(`essay-${CLAIM}`);
  if (summary) {
    summary.dataset.name = SUMMARY_ESSAY;
    visibility.observe(summary);
  }
}

function observeFigure({ name }) {
  const canvas = $(`chart-${name}`);
  canvas.dataset.name = name;
  visibility?.observe(canvas);
}

// On a narrow screen the gap/dim/base bar sits right before the summary (the flatness figure)
// and from there stays at the top of the lesson (style.css) for the figures that read it; while
// none of them is on screen (a chapter, with its own inputs, or the guide) it slides away rather
// than covering the top of what is read (body.bar-away). Near the summary's opening paragraph it
// stays too: slid away there, it would leave a hole the height of the bar above that paragraph.
const CLAIM = FIGURES.find((row) => row.part === 'claim').name;
const SUMMARY_ESSAY = `${CLAIM}-essay`;
const BAR_USERS = [
  ...FIGURES.filter((row) => ['claim', 'why', 'gap'].includes(row.part)).map((row) => row.name),
  SUMMARY_ESSAY,
];
// near: the figures within 100 px of the screen, as the observer last said (`hidden` is also
// emptied by drawAll, for printing).
const near = new Set();
function markBar() {
  document.body.classList.toggle('bar-away', !BAR_USERS.some((name) => near.has(name)));
}

// On a wide screen the settings panel beside the chapters would offer sliders that move none of
// them: while bar-away it shows only Reset everything (which resets the chapters too) and this
// line, naming the figures the sliders drive (style.css).
function awayNote() {
  const numbers = BAR_USERS.map((name) => FIGURE_NAMES.indexOf(name) + 1).filter((n) => n > 0);
  const runs = [];
  for (const n of numbers.sort((a, b) => a - b)) {
    const last = runs.at(-1);
    if (last && n === last[1] + 1) last[1] = n;
    else runs.push([n, n]);
  }
  const text = runs.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(', ');
  const note = document.createElement('p');
  note.id = 'panel-away';
  note.className = 'hint away-note';
  note.textContent =
    `Gap, dim and base drive figures ${text}; the chapters here have their own inputs, beside each ` +
    'chart. Reset everything resets those too.';
  document.querySelector('main .panel')?.prepend(note);
}

// The start positions and points drawn act on the figures whose row `uses` them: while none
// of those is on screen the panel says so and dims them, rather than offering them as live.
const SWEEP_USERS = FIGURES.filter((row) => row.uses?.some((name) => ['from', 'to', 'n'].includes(name))).map(
  (row) => row.name,
);
function markIdle() {
  const idle =
    state.view !== 'all'
      ? !SWEEP_USERS.includes(state.view)
      : SWEEP_USERS.every((name) => hidden.has(name) || !$(`fig-${name}`));
  document.querySelector('.sweep').classList.toggle('idle', idle);
  $('sweep-idle').hidden = !idle;
}

// Accept a checked value: widgets other than the one typed in follow, URL and figures update.
// The settings that move with it (state.js's follow) are set and shown like a preset's.
function accept(name, value, source) {
  const changes = follow(name, value, state, refusedTexts());
  // A value cut short is shown by every widget of it, the one moved too.
  if (changes[name] !== value) source = 'preset';
  Object.assign(state, changes);
  syncCeilings({ thumbs: false });
  for (const key of Object.keys(changes)) {
    setMessage(key, '');
    const own = key === name ? source : 'preset';
    syncRange(key, own !== 'range');
    if (own !== 'box') syncBox(key);
  }
  writeUrl();
  render({ budget: true });
  updateEmbed(state);
  updateEmbedCode();
}

// The controls' behaviour (typed boxes commit on Enter, change or blur; arrow keys; sliders)
// is controls/wire.js's, shared with the long-context part and the element.
function wireControl(name) {
  const control = CONTROLS[name];
  wireSetting(
    PARAM[name],
    control,
    { box: $(`${name}-num`), range: control.range ? $(name) : null, msg: $(`${name}-msg`) },
    {
      current: () => state[name],
      context: () => state,
      apply: (value, source) => accept(name, value, source),
      problem: (message) => setMessage(name, message),
    },
  );
}

// ---- downloads, link, embed ----

async function download(kind) {
  let text;
  try {
    text = await reportFile(kind, state);
  } catch (err) {
    showNotice(...linkProblems, `Could not build the report: ${err.message}`);
    return;
  }
  const [filename, type] =
    kind === 'json' ? ['rope_report.json', 'application/json'] : ['rope_report.md', 'text/markdown'];
  saveText(filename, text, type);
}

async function copyText(text, statusId) {
  const status = $(statusId);
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = 'Copied.';
  } catch {
    status.textContent = 'The browser blocked copying: select the text and copy it by hand.';
  }
  setTimeout(() => {
    status.textContent = '';
  }, 4000);
}

// While Play sweeps the gap, each chart that can hold its y-axis keeps the range it has grown
// to (charts/figure.js's holdY), so the lines move and the axis does not jump every frame.
function togglePlay(on) {
  document.body.classList.toggle('playing', on);
  for (const handle of Object.values(charts)) handle.holdY?.(on);
}

// ---- history: Back and Forward ----

// The settings Back and Forward bring back: every one but the page mode (embed, view), as Reset
// everything resets them, and the long-context part's (long.js restores those).
const RESTORED = PARAMS.filter((row) => row.name !== 'embed' && row.name !== 'view' && row.part !== 'long');
const LONG_RESTORED = PARAMS.filter((row) => row.part === 'long');

/**
 * A change settles when the reader lets go of it: a slider released ('change'), a box committed
 * ('change'), a button pressed ('click'), a key or pointer released (a chart dragged, a chapter's
 * log slider stepped by keys). Each settled change that altered the state is an entry of the
 * browser's history (url.settle(); a drag's every step only rewrites the entry it makes). Back
 * and Forward (popstate) set every setting and every chapter as that entry's address says,
 * adding no entry while they do.
 */
function wireHistory() {
  for (const type of ['change', 'click', 'keyup', 'pointerup']) {
    document.addEventListener(type, () => url.settle());
  }
  window.addEventListener('popstate', () => {
    const read = readQuery(window.location.search, chapterKeys());
    url.restore(() => {
      actions.stopPlay();
      acceptAll(Object.fromEntries(RESTORED.map((row) => [row.name, read.state[row.name]])));
      restoreLong(Object.fromEntries(LONG_RESTORED.map((row) => [row.name, read.state[row.name]])));
      restoreChapters(read.chapters);
    });
  });
}

// ---- start ----

// Where a row's section goes: before the element its `before` names (the long-context rows),
// else into the lesson, before #lesson-end (after the reading guide), in table order.
const placeOf = (row) => (row.before && row.before !== 'take' ? row.before : 'lesson-end');

// The figure sections of `rows`, each in its place in table order (before the next figure of
// its place already built, else before the place's element); a row's `after` adds the element
// that follows its figure, figures/essays.js the paragraphs before it. index.html lists no figure.
function buildFigures(heads) {
  for (const row of heads.map((head) => ROWS[head.name])) {
    const section = figureElement(row);
    // A chapter's opening paragraphs go before its figure (not in an embed: the figure alone).
    const essay = state.embed ? [] : [essayOf(row, proseTable)].filter(Boolean);
    insertionPoint(row).before(...essay, section, ...(row.after ? [row.after()] : []));
    if (state.embed) embedFigure(section);
    // The two methods side by side follow the summary, as its recap in words.
    else if (row.part === 'claim') section.after($('methods'));
  }
}

/** The element a row's section goes before: the next figure of its place built, else the place's. */
function insertionPoint(row) {
  const place = placeOf(row);
  const next = FIGURES.slice(row.number).find((other) => placeOf(other) === place && isBuilt(other));
  return next ? ($(`essay-${next.name}`) ?? $(`fig-${next.name}`)) : $(place);
}

/** Whether a row's section is on the page. */
const isBuilt = (row) => $(`fig-${row.name}`) !== null;

// The figures the first chart waits for: the first chapter (on the first screen, under the
// post's question), the summary (the flatness figure, whose section places the main sliders on a
// phone: style.css orders the lesson around it) and the one a link's view= asks for. The others,
// with their own controls and the numbers their readouts compute, come after the first chart is
// on screen, as the reader nears them (buildNear).
const FIRST_CHAPTER = FIGURES.find((row) => row.part === 'lesson');
const FIRST_ROWS = FIGURES.filter(
  (row) => row.part === 'claim' || row.name === state.view || (row === FIRST_CHAPTER && state.view === 'all'),
);
let actions = null; // wireActions' hooks, once start() has wired the buttons
let lockWired = false;

/** Wires the settings whose widgets are on the page and not wired yet, and the gap lock. */
function wireBuilt() {
  for (const name of Object.keys(CONTROLS)) {
    if (wired.has(name) || !$(`${name}-num`)) continue;
    wireControl(name); // sets the slider's range first
    wired.add(name);
    syncRange(name);
    syncBox(name);
  }
  syncCeilings();
  if (actions && $('lock') && !lockWired) {
    actions.wireLock();
    lockWired = true;
  }
}

// The id a link's #fragment names ('' for none or a malformed escape).
function fragmentId() {
  try {
    return decodeURIComponent(window.location.hash.slice(1));
  } catch {
    return ''; // not a valid escape: names nothing
  }
}

// ---- the figures below the first screen, built as the reader nears them ----

// On the page (every figure, not an embed) a figure below the first screen is built when the
// place its section goes comes within one screen below the viewport (or lies above it: a reader
// who jumped ahead), one by one in page order, a frame's budget at a time; a link to one of them
// (#fig-clock, Back and Forward) builds the figures up to it first; printing builds them all. An
// embed, or a page given a view=, builds the figures it shows right after the first chart.
const LAZY = !state.embed && state.view === 'all';
// The figures a view= page or an embed shows: its view's figure, every figure for view=all, none
// for a view that is no figure. Their code comes before the first chart.
const SHOWN_ROWS = noView ? [] : state.view === 'all' ? FIGURES : [FIGURE[state.view]];
// The figures whose code the page loads: an embed, only those it shows (it has no builder and
// hides the rest); the page, every one (each as the reader nears it, the rest at idle).
const PAGE_ROWS = state.embed ? SHOWN_ROWS : FIGURES;
const BUILD_BUDGET_MS = 12;
const LOOKAHEAD = 2; // figures whose code is fetched at once as the reader nears the first

/** After figures were built: their controls wired, their data drawn, their canvases watched. */
function afterBuilt(rows) {
  if (!rows.length) return;
  wireBuilt();
  for (const row of rows) observeFigure(row);
  if (painted) render();
  markIdle();
}

/** Builds the figures not built yet among `rows` (in page order) whose code is loaded. */
function buildRows(rows) {
  const todo = rows.filter((row) => !isBuilt(row) && isLoaded(row));
  buildFigures(todo);
  afterBuilt(todo);
}

/** Every figure of the page whose code is loaded built (printing; an embed or a view= page after the first chart, which loads its figures first). */
function buildAll() {
  buildRows(PAGE_ROWS);
}

// Where a row's section would start, in viewport coordinates: the top of the element it goes
// before, or, for a place that lays out nothing (#lesson-end), the bottom of what precedes it.
function pointTop(point) {
  for (let node = point; node; node = node.previousElementSibling) {
    const boxes = node.getClientRects();
    if (boxes.length) return node === point ? boxes[0].top : node.getBoundingClientRect().bottom;
  }
  return point.parentElement.getBoundingClientRect().top;
}

/** Builds, in page order, the figures whose place is within a screen below the viewport's bottom. */
function buildNear() {
  const started = performance.now();
  const made = [];
  for (;;) {
    const limit = 2 * window.innerHeight;
    const index = FIGURES.findIndex((r) => !isBuilt(r) && pointTop(insertionPoint(r)) < limit);
    if (index < 0) break;
    const row = FIGURES[index];
    if (!isLoaded(row)) {
      // Its code (and the next figure's, which comes into reach once it is built) first.
      loadRows(FIGURES.slice(index, index + LOOKAHEAD)).then(buildNearSoon, () => {});
      break;
    }
    buildFigures([row]);
    made.push(row);
    if (performance.now() - started > BUILD_BUDGET_MS) {
      buildNearSoon(); // the rest in the next frame
      break;
    }
  }
  afterBuilt(made);
}

let nearQueued = false;
function buildNearSoon() {
  if (nearQueued || !painted || FIGURES.every(isBuilt)) return;
  nearQueued = true;
  requestAnimationFrame(() => {
    nearQueued = false;
    buildNear();
  });
}

/**
 * The figures up to the one a link's #fragment names (#fig-clock, #essay-clock, #clock-gap), so
 * that it is on the page, in its place, before the browser scrolls to it; an id that is on no
 * figure built yet and names none by its prefix builds them all. Returns the element, or null.
 */
function buildForFragment() {
  const id = fragmentId();
  if (!id || document.getElementById(id)) return null;
  buildRows(fragmentRows());
  if (!document.getElementById(id)) buildAll();
  return document.getElementById(id);
}

/** The figures a link's #fragment needs built: those up to the one it names, else every one. */
function fragmentRows() {
  const id = fragmentId();
  if (!id || document.getElementById(id)) return [];
  const named = FIGURES.find(({ name }) => id.endsWith(`-${name}`) || id.startsWith(`${name}-`));
  return named ? FIGURES.slice(0, named.number) : FIGURES;
}

/** A link followed within the page (#fig-clock in the prose): the code it needs, then there. */
function followFragment() {
  const go = () => buildForFragment()?.scrollIntoView();
  // An id the figures up to the one it names do not hold: every figure's code, as buildForFragment builds them all.
  loadRows(fragmentRows())
    .then(() => (fragmentId() && !document.getElementById(fragmentId()) ? loadRows(FIGURES) : null))
    .then(go, () => {});
}

/** Whether this page uses the long-context part: the page always; an embed that shows one of
 *  its figures or is given one of its settings. */
const longNeeded = () =>
  !state.embed ||
  SHOWN_ROWS.some((row) => row.part === 'long') ||
  PARAMS.some((row) => row.part === 'long' && state[row.name] !== row.default);

let started = false;
function start() {
  started = true;
  buildPanels();
  applyTheme(state.theme);
  if (!state.embed) wireMiniature();
  buildFigures(FIRST_ROWS.filter(isLoaded)); // a figure whose code failed to load: the notice says so
  $('embed-view').append(...FIGURES.map(embedOption));
  numberGuide(FIGURES);
  // state.view is 'all' or a name from the table (state.js checks it).
  if (state.view !== 'all') $(`fig-${FIGURE[state.view].name}`)?.classList.add('fig-chosen');
  if (state.embed) setupEmbed(state);
  if (state.view !== 'all' || noView) document.body.dataset.view = noView ? '' : state.view;
  markIdle();
  showNotice(...linkProblems);

  actions = wireActions({ state, accept, acceptAll, togglePlay, settle: url.settle });
  if (!state.embed) wireHistory();
  wireBuilt();
  window.addEventListener('beforeprint', drawAll);
  window.addEventListener('afterprint', hideUnseen);
  for (const button of document.querySelectorAll('[data-gap]')) {
    button.addEventListener('click', () => accept('gap', Number(button.dataset.gap), 'preset'));
  }
  $('download-json').addEventListener('click', () => download('json'));
  $('download-md').addEventListener('click', () => download('md'));
  $('copy-link').addEventListener('click', () => copyText(window.location.href, 'copy-link-status'));
  $('copy-embed').addEventListener('click', () => copyText($('embed-code').value, 'copy-embed-status'));
  $('embed-code').addEventListener('focus', (event) => event.target.select());
  wireVerify($('verify-open'), chartJs); // its chart is Chart.js's
  // The long-context part: its controls write the same state, URL and figures. It starts
  // after the first paint (its figures' data are null until then). An embed that shows none of
  // its figures and is given none of its settings never reads it: it fetches neither its code
  // nor the config reader (about 50 KB gzipped).
  if (longNeeded()) {
    startLong({
      state,
      render,
      writeUrl,
      updateEmbedCode,
      showNotice: (...lines) => showNotice(...linkProblems, ...lines),
      // The state the link opened, the long-context part's preset values filled in (or the part
      // could not start): what Back returns to, and no history entry of its own.
      opened: () => url.mark(),
    });
  } else {
    url.mark();
  }

  if (chartJsHere() && !chartsReady) chartsArrived();
  // Chart colours follow the colour scheme: redraw when it changes.
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    restyleAll(charts, (name) => !hidden.has(name));
  });
  render();
  requestAnimationFrame(() =>
    setTimeout(() => {
      const target = buildForFragment();
      if (!LAZY) buildAll();
      painted = true;
      document.documentElement.classList.remove('loading'); // the whole page laid out (style.css)
      render();
      if (!LAZY) ensureCharts(true); // an embed or a view= page: every chart made, as it shows one
      awayNote();
      watchVisibility();
      // Where the browser would have gone had it been there, unless the reader has scrolled.
      if (target && window.scrollX === 0 && window.scrollY === 0) target.scrollIntoView();
      if (LAZY) {
        for (const type of ['scroll', 'resize']) window.addEventListener(type, buildNearSoon, { passive: true });
        // A link followed within the page to a figure not built yet (#fig-clock in the prose).
        window.addEventListener('hashchange', followFragment);
        buildNear();
      }
      if (!state.embed) actions.afterPaint(); // the real models' menu, in the panel an embed hides
      chartJs();
      watchPrint(() => charts);
      // Every figure's code is fetched while the reader is idle (each built only as the reader
      // nears it): printing draws every figure in the task the browser asks (drawAll), and the
      // embed builder, below the figures, offers every one, its snippet written as it is chosen.
      // An embed shows only its figures, whose code came before the first chart: it fetches no more.
      if (!state.embed) {
        whenIdle(() =>
          loadRows(PAGE_ROWS).then(
            () =>
              setupBuilder().catch((err) =>
                showNotice(
                  ...linkProblems,
                  `The embed builder could not load (${err.message}): reload the page to use it.`,
                ),
              ),
            () => {}, // the notice names the figure whose code did not come
          ),
        );
      }
    }, 0),
  );
}

// For tests and benchmarks: the state, render(), drawing every figure, every figure's code (a
// promise: the page otherwise loads it as the reader nears each figure, and the rest at idle),
// the defaults, whether a URL update is still pending, and the query string the state writes.
window.ropescope = Object.freeze({
  state,
  render,
  drawAll,
  loadAll: () => Promise.all([loadRows(PAGE_ROWS), chartJs()]).then(() => undefined),
  defaults,
  urlPending: url.pending,
  query: () => writeQuery(state, chapterQuery()),
});
// The core's bytes are inflated by the browser (rope.js, ready()); that settles in the microtask
// checkpoint right after this script, so the page starts before any frame. Without a core (a
// browser that runs no WebAssembly, as in some locked-down modes) nothing can be computed: say so.
// Before the first chart: the core, and the code of the figures it shows (and, for a link to a
// figure further down, of those up to it; an embed or a view= page, those it shows, built at once).
const firstCode = loadRows(LAZY ? [...FIRST_ROWS, ...fragmentRows()] : SHOWN_ROWS);
// An embed or a view= page shows charts alone: Chart.js comes with its first code.
if (!LAZY && !chartJsHere()) chartJs(); // a failure is said in the notice
Promise.all([coreReady(), firstCode.catch(() => null)]).then(start, (error) => {
  document.body.dataset.core = 'missing'; // style.css hides the controls that could do nothing
  showNotice(
    ...linkProblems,
    `The figures are computed by WebAssembly, which this browser did not run: ${error.message}.`,
  );
});
