// Wiring only: controls and URL -> state -> render() (state -> wasm -> charts).
import { PARAM, PARAMS, readQuery, writeQuery } from './state.js';
import { computeModel, reportFile } from './model.js';
import { normReadout } from './captions.js';
import { FIGURES, FIGURE, figureElement, embedOption } from './figures.js';
import { setupDefaults, refreshColors } from './charts/theme.js';
import { controlFor } from './controls.js';
import { addExportMenu } from './export.js';
import { applyTheme, setupEmbed, updateEmbed, setupEmbedBuilder, updateEmbedCode } from './embed.js';
import { watchPrint } from './print.js';

performance.mark('ropescope:app-start'); // after every import has run (make bench reports it)

const $ = (id) => document.getElementById(id);

const CONTROLS = Object.freeze(Object.assign(Object.create(null), Object.fromEntries(
  PARAMS.filter((row) => row.type !== 'choice').map((row) => [row.name, controlFor(row)]))));

const loaded = readQuery(window.location.search);
const state = loaded.state;
const linkProblems = loaded.problems.map((p) => (p.name === null
  ? `Link parameter ignored: ${p.message}.`
  : `Link value ignored: ${p.message}; using the default ${p.name}=${PARAM[p.name].serialize(PARAM[p.name].default)}.`));
const charts = Object.create(null); // figure name -> chart handle, made by ensureCharts
let lastData = null;
let failed = false;
// Charts scrolled out of view get their new data at once (so Chart.getChart(canvas).data is
// always current) but are drawn only when they come back into view: dragging a slider
// then redraws what the reader can see.
const hidden = new Set();

const inViewport = (el) => {
  const box = el.getBoundingClientRect();
  return box.width > 0 && box.bottom > 0 && box.top < window.innerHeight;
};

// ---- render: state -> wasm -> charts ----

function render() {
  performance.mark('ropescope:update-start');
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
  const data = Object.create(null);
  for (const row of FIGURES) data[row.name] = row.data(model, state);
  lastData = data;
  for (const name of Object.keys(charts)) charts[name].update(data[name], !hidden.has(name));
  ensureCharts(false);
  for (const row of FIGURES) {
    $(`caption-${row.name}`).textContent = row.caption(state, model);
    $(`chart-${row.name}`).setAttribute('aria-label', row.label(state, model));
  }
  $('norm-readout').textContent = normReadout(model);
  performance.mark('ropescope:update-end');
  performance.measure('ropescope:update', 'ropescope:update-start', 'ropescope:update-end');
  return true;
}

// ---- controls ----

// One line per message; text only, never HTML (link values can be hostile).
function showNotice(...lines) {
  const notice = $('notice');
  notice.replaceChildren(...lines.map((line) => {
    const p = document.createElement('p');
    p.textContent = line;
    return p;
  }));
  notice.hidden = lines.length === 0;
}

function setMessage(name, message) {
  $(`${name}-msg`).textContent = message;
  $(`${name}-num`).setAttribute('aria-invalid', message ? 'true' : 'false');
}

function syncRange(name, moveThumb = true) {
  const control = CONTROLS[name];
  if (!control.range) return;
  const range = $(name);
  if (moveThumb) range.value = String(control.toRange ? control.toRange(state[name]) : state[name]);
  // The base slider holds log10(base): screen readers should hear the base itself.
  if (name === 'base') range.setAttribute('aria-valuetext', `base ${state.base}`);
}

function syncBox(name) {
  $(`${name}-num`).value = String(state[name]);
}

// Browsers throttle (and warn about) frequent history updates, and a slider drag fires
// dozens of changes a second: the URL follows at most every URL_INTERVAL_MS, always
// ending on the latest state.
const URL_INTERVAL_MS = 150;
let urlTimer = null;
let lastUrlWrite = -Infinity;

function flushUrl() {
  urlTimer = null;
  lastUrlWrite = performance.now();
  try {
    window.history.replaceState(null, '', writeQuery(state) + window.location.hash);
  } catch {
    // Some file:// pages refuse URL changes; the view still works, only the link is not updated.
  }
}

function writeUrl() {
  if (urlTimer !== null) return; // the pending write will take the latest state
  const wait = lastUrlWrite + URL_INTERVAL_MS - performance.now();
  if (wait <= 0) flushUrl();
  else urlTimer = setTimeout(flushUrl, wait);
}

// Makes the charts that do not exist yet: at the first render only those on screen (the
// first figure appears sooner), the rest (all: true) right after that first paint.
function ensureCharts(all) {
  for (const { name, make } of FIGURES) {
    const canvas = $(`chart-${name}`);
    if (charts[name] || !lastData || (!all && !inViewport(canvas))) continue;
    charts[name] = make(canvas, lastData[name]);
    addExportMenu(charts[name], {
      figure: name, settings: () => state, onError: (message) => showNotice(...linkProblems, message),
    });
  }
}

function watchVisibility() {
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const { name } = entry.target.dataset;
      if (entry.isIntersecting) {
        hidden.delete(name);
        charts[name]?.redraw();
      } else {
        hidden.add(name);
      }
    }
  }, { rootMargin: '100px' });
  for (const { name } of FIGURES) {
    const canvas = $(`chart-${name}`);
    canvas.dataset.name = name;
    observer.observe(canvas);
  }
}

// Accept a checked value: widgets other than the one typed in follow, URL and figures update.
function accept(name, value, source) {
  state[name] = value;
  setMessage(name, '');
  syncRange(name, source !== 'range');
  if (source !== 'box') syncBox(name);
  // from and to check each other: a box rejected for the other's value may now be fine.
  for (const other of ['from', 'to']) {
    const box = $(`${other}-num`);
    if (other === name || box.getAttribute('aria-invalid') !== 'true') continue;
    const retry = PARAM[other].parse(box.value, state);
    if (retry.ok) {
      state[other] = retry.value;
      setMessage(other, '');
    }
  }
  writeUrl();
  render();
  updateEmbed(state);
  updateEmbedCode();
}

function onBoxInput(name) {
  const result = PARAM[name].parse($(`${name}-num`).value, state);
  if (result.ok) accept(name, result.value, 'box');
  else setMessage(name, result.message);
}

function wireControl(name) {
  const control = CONTROLS[name];
  const box = $(`${name}-num`);
  box.addEventListener('input', () => onBoxInput(name));
  // On leaving the box, a good value is shown in its plain form ("07" -> "7").
  box.addEventListener('change', () => {
    if (box.getAttribute('aria-invalid') !== 'true') syncBox(name);
  });
  box.addEventListener('keydown', (event) => {
    const dir = event.key === 'ArrowUp' ? 1 : event.key === 'ArrowDown' ? -1 : 0;
    if (!dir || box.getAttribute('aria-invalid') === 'true') return;
    event.preventDefault();
    const row = PARAM[name];
    const next = Math.min(row.max, Math.max(row.min, control.step(state[name], dir)));
    box.value = String(next);
    onBoxInput(name);
  });
  if (!control.range) return;
  const range = $(name);
  range.min = String(control.min);
  range.max = String(control.max);
  range.step = String(PARAM[name].slider.step);
  range.addEventListener('input', () => {
    const raw = Number(range.value);
    const value = control.fromRange ? control.fromRange(raw) : raw;
    const result = PARAM[name].parse(String(value), state);
    if (result.ok) accept(name, result.value, 'range');
    else setMessage(name, result.message);
  });
}

// ---- downloads, link, embed ----

function download(kind) {
  let text;
  try {
    text = reportFile(kind, state);
  } catch (err) {
    showNotice(...linkProblems, `Could not build the report: ${err.message}`);
    return;
  }
  const [filename, type] = kind === 'json'
    ? ['rope_report.json', 'application/json']
    : ['rope_report.md', 'text/markdown'];
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function copyText(text, statusId) {
  const status = $(statusId);
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = 'Copied.';
  } catch {
    status.textContent = 'The browser blocked copying: select the text and copy it by hand.';
  }
  setTimeout(() => { status.textContent = ''; }, 4000);
}

// ---- start ----

// The figure sections and embed options, from the figures table (index.html lists none).
function buildFigures() {
  $('take').before(...FIGURES.map(figureElement));
  $('embed-view').append(...FIGURES.map(embedOption));
  // state.view is 'all' or a name from the table (state.js checks it).
  if (state.view !== 'all') $(`fig-${FIGURE[state.view].name}`).classList.add('fig-chosen');
}

function start() {
  applyTheme(state.theme);
  buildFigures();
  if (state.embed) setupEmbed(state);
  if (state.view !== 'all') document.body.dataset.view = state.view;
  showNotice(...linkProblems);

  for (const name of Object.keys(CONTROLS)) {
    wireControl(name); // sets the slider's range first
    syncRange(name);
    syncBox(name);
  }
  for (const button of document.querySelectorAll('[data-gap]')) {
    button.addEventListener('click', () => accept('gap', Number(button.dataset.gap), 'preset'));
  }
  $('download-json').addEventListener('click', () => download('json'));
  $('download-md').addEventListener('click', () => download('md'));
  $('copy-link').addEventListener('click', () => copyText(window.location.href, 'copy-link-status'));
  $('copy-embed').addEventListener('click', () => copyText($('embed-code').value, 'copy-embed-status'));
  $('embed-code').addEventListener('focus', (event) => event.target.select());

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
  // Chart colours follow the colour scheme: redraw when it changes.
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    refreshColors();
    render();
  });
  render();
  requestAnimationFrame(() => setTimeout(() => {
    ensureCharts(true);
    watchVisibility();
    // The embed builder is below the figures: built after the first chart is on screen.
    if (!state.embed) setupEmbedBuilder(() => state);
    watchPrint(() => charts);
  }, 0));
}

// For tests and benchmarks: the state, render(), and whether a URL update is still pending.
window.ropescope = Object.freeze({ state, render, urlPending: () => urlTimer !== null });
start();
