// The long-context part: the preset, training length, gap, method and its parameters, the
// comparison lines (all in the shared state and the URL), and the "check a config" panel
// (never in the URL). app.js's render() draws the figures 'range' and 'scaling'.
// The config reader behind every number here is the files module (core/files.js): this part
// loads it, with model/long.js and the checker (check.js), after the first paint: the first
// screen does not wait for it, and once the page's chapters are chunks of their own, does not
// carry it either.

import { controlFor } from '../controls/controls.js';
import { wireSetting } from '../controls/wire.js';
import { usePresets } from '../element/embed_mode.js';
import { COMPARABLE, METHOD_PARAMS, METHODS, PRESETS, usesParam } from '../model/methods.js';
import { PARAM } from '../state/state.js';

const $ = (id) => document.getElementById(id);

// The settings a preset sets; preset and compare are the others.
const FROM_PRESET = ['train-len', 'target-gap', 'method', ...METHOD_PARAMS];
const SLIDERS = ['train-len', 'target-gap'];
const BOXES = [...SLIDERS, ...METHOD_PARAMS.filter((name) => name !== 'truncate')];

let app = null;
let state = null;
// model/long.js and check.js, once loaded (start()).
let long = null;
let checker = null;

const option = (value, text) => {
  const node = document.createElement('option');
  node.value = value;
  node.textContent = text;
  return node;
};

function buildMenus() {
  $('preset').append(...PRESETS.map((name) => option(name, name === 'blog' ? long.BLOG.label : name)));
  $('method').append(...METHODS.map((m) => option(m.value, m.label)));
  $('compare-list').append(
    ...COMPARABLE.map((method) => {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.name = 'compare';
      box.value = method;
      label.append(box, ` ${method}`);
      return label;
    }),
  );
}

function setMessage(name, message) {
  const msg = $(`${name}-msg`);
  if (msg) msg.textContent = message;
  const box = $(`${name}-num`) ?? $(name);
  box?.setAttribute('aria-invalid', message ? 'true' : 'false');
}

// ---- state -> widgets ----

function syncWidget(name, moveThumb = true) {
  const value = state[name];
  if (SLIDERS.includes(name)) {
    if (moveThumb) $(name).value = String(controlFor(PARAM[name]).toRange(value));
    // The slider holds log10 of the value: screen readers hear the value itself.
    $(name).setAttribute('aria-valuetext', `${value} positions`);
  }
  if (BOXES.includes(name)) $(`${name}-num`).value = String(value);
  if (name === 'truncate') $('truncate').value = String(value);
  if (name === 'method' || name === 'preset') $(name).value = value;
  if (name === 'compare') {
    const on = new Set(value.split(','));
    for (const box of document.querySelectorAll('input[name="compare"]')) box.checked = on.has(box.value);
  }
}

// Only the chosen method's parameters are shown; LongRoPE only where the preset has lists.
function showMethod() {
  for (const node of document.querySelectorAll('[data-param]')) {
    node.hidden = !usesParam(state.method, node.dataset.param);
  }
  const p = long.preset(state.preset);
  for (const node of $('method').options) node.disabled = !long.methodAvailable(p, node.value);
  for (const box of document.querySelectorAll('input[name="compare"]')) {
    box.disabled = box.value === state.method;
  }
}

function showNotes() {
  const { main } = long.computeLong(state);
  const notes = $('method-notes');
  const items = main.warnings.length ? main.warnings : ['none: the config the page builds passes every check.'];
  notes.replaceChildren(
    ...items.map((line) => {
      const li = document.createElement('li');
      li.textContent = line;
      return li;
    }),
  );
}

function redraw() {
  showMethod();
  showNotes();
  app.writeUrl();
  app.render();
  app.updateEmbedCode();
}

// ---- widgets -> state ----

/** Takes the changes if the config reader accepts them; else names the problem at `name`. */
function tryChange(name, changes, source) {
  const candidate = { ...state, ...changes };
  try {
    long.computeLong(candidate);
  } catch (err) {
    setMessage(name, err.message);
    return false;
  }
  Object.assign(state, changes);
  setMessage(name, '');
  for (const changed of Object.keys(changes)) syncWidget(changed, source !== 'range' || changed !== name);
  if (source === 'box') $(`${name}-num`).value = String(changes[name]); // keep what was typed in its place
  redraw();
  return true;
}

function presetValues(name) {
  const { defaults } = long.preset(name);
  return Object.fromEntries(FROM_PRESET.map((key) => [key, defaults[key]]));
}

function loadPreset(name) {
  const changes = { preset: name, ...presetValues(name) };
  for (const key of FROM_PRESET) setMessage(key, '');
  if (tryChange('preset', changes, 'menu')) checker.renderCheck(long.preset(name).text);
}

// Sliders and typed boxes behave as everywhere (controls/wire.js): a box applies on Enter,
// change or leaving it, never on a keystroke.
function wireControl(name) {
  const row = PARAM[name];
  const slider = SLIDERS.includes(name);
  wireSetting(
    row,
    controlFor(row),
    { box: $(`${name}-num`), range: slider ? $(name) : null, msg: $(`${name}-msg`) },
    {
      current: () => state[name],
      context: () => state,
      apply: (value, source) => tryChange(name, { [name]: value }, source),
      problem: (message) => setMessage(name, message),
    },
  );
}

function wire() {
  for (const name of BOXES) wireControl(name);
  $('preset').addEventListener('change', () => loadPreset($('preset').value));
  $('method').addEventListener('change', () => {
    if (!tryChange('method', { method: $('method').value }, 'menu')) $('method').value = state.method;
  });
  $('truncate').addEventListener('change', () => {
    tryChange('truncate', { truncate: $('truncate').value === 'true' }, 'menu');
  });
  $('compare-list').addEventListener('change', () => {
    const on = [...document.querySelectorAll('input[name="compare"]:checked')].map((box) => box.value);
    tryChange('compare', { compare: COMPARABLE.filter((m) => on.includes(m)).join(',') }, 'menu');
  });
  for (const button of document.querySelectorAll('[data-target-gap]')) {
    button.addEventListener('click', () =>
      tryChange('target-gap', { 'target-gap': Number(button.dataset.targetGap) }, 'menu'),
    );
  }
}

/**
 * Starts the long-context part. app: { state, render, writeUrl, updateEmbedCode, showNotice,
 * opened } (opened(): the part has read the link, or cannot start).
 * After the first paint, the part loads its code and the config reader (start()), then builds
 * its menus and fills in the rest (ready()); until then its figures have no data and wait.
 * Settings the URL left out take the preset's values; settings the core refuses with the rest
 * fall back to the preset's, and the notice says so.
 */
export function startLong(appHooks) {
  app = appHooks;
  state = app.state;
  requestAnimationFrame(() => setTimeout(start, 0));
}

// model/long.js (with the files module) and the checker, loaded, and the reader made; a module
// that cannot load leaves the part's figures empty and says so in the notice and the checker.
async function start() {
  try {
    [long, checker] = await Promise.all([import('../model/long.js'), import('./check.js')]);
    usePresets(long.presetValuesDropped);
    await long.readerReady();
  } catch (err) {
    const why = `the config reader could not be loaded (${err?.message ?? err})`;
    app.showNotice(`The long-context part is unavailable: ${why}.`);
    app.opened();
    const msg = $('config-msg');
    if (msg) msg.textContent = `The checker is unavailable: ${why}.`;
    return;
  }
  buildMenus();
  ready();
}

/**
 * The long-context settings as a link gives them (Back and Forward): values { preset, compare,
 * and FROM_PRESET's settings, null where the link left them to the preset }. Nothing is written
 * to the address; nothing changes before the part has started.
 */
export function restoreLong(values) {
  if (!started) return;
  const fromPreset = presetValues(values.preset);
  const changes = { preset: values.preset, compare: values.compare };
  for (const name of FROM_PRESET) changes[name] = values[name] ?? fromPreset[name];
  if (Object.keys(changes).every((name) => state[name] === changes[name])) return;
  const newPreset = changes.preset !== state.preset;
  for (const name of FROM_PRESET) setMessage(name, '');
  if (tryChange('preset', changes, 'menu') && newPreset) checker.renderCheck(long.preset(changes.preset).text);
}

let started = false;

// After the first paint: the preset's values, the check of the link's settings, the
// controls, the figures' first data and the checker.
function ready() {
  const fromPreset = presetValues(state.preset);
  for (const name of FROM_PRESET) if (state[name] === null) state[name] = fromPreset[name];
  try {
    long.computeLong(state);
  } catch (err) {
    Object.assign(state, fromPreset);
    app.showNotice(`Long-context settings from the link ignored: ${err.message}; using the preset ${state.preset}'s.`);
  }
  wire();
  started = true;
  for (const name of ['preset', 'compare', ...FROM_PRESET]) syncWidget(name);
  checker.startCheck();
  checker.renderCheck(long.preset(state.preset).text);
  showMethod();
  showNotes();
  app.render();
  app.updateEmbedCode();
  app.opened();
  performance.mark('ropescope:long-ready'); // the part's menus, figures and checker are live
}
