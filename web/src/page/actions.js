// The page's buttons that change several settings or run over time: reset, the model
// presets, random q and k, the gap lock and play. Wiring only: values go through app.js's
// accept / acceptAll, so they are checked, written to the URL and drawn like typed ones.

import { MODEL_NAMES } from '../../gen/model_names.js';
import { resetChapters } from '../figures/lesson_row.js';
import { fixed, list, num } from '../lib/format.js';
import { NORM_POSITIONS } from '../model/model.js';
import { bounded, PARAM, PARAMS } from '../state/state.js';

const $ = (id) => document.getElementById(id);

// Settings that reset: every one but the page mode (embed, view) and the long-context part's
// (its preset menu sets those).
const RESETTABLE = PARAMS.filter((row) => row.name !== 'embed' && row.name !== 'view' && row.part !== 'long').map(
  (row) => row.name,
);

// Play: the gap from its current value up to GAP_END, growing by PLAY_GROWTH a frame
// (at least 1), so small gaps go slowly and large ones quickly.
const PLAY_GROWTH = 1.03;
const GAP_END = PARAM.gap.max;

/** A fresh 32-bit seed, never 0 (0 means the demo vectors). */
function newSeed() {
  const [value] = crypto.getRandomValues(new Uint32Array(1));
  return value === 0 ? 1 : value;
}

/** dim and base of each model config the long-context part offers (web/models), as the
 * config reader (core/files.js, loaded with model/long.js) reads them: its rotary dim and rope
 * base. */
async function dimBasePresets() {
  const long = await import('../model/long.js');
  await long.readerReady();
  return MODEL_NAMES.map((name) => {
    const { read } = long.preset(name);
    return { name, dim: read.rotary_dim, base: read.base };
  });
}

/**
 * Wires #reset, #dim-preset, #randomize, #demo-vectors and #play; afterPaint() fills the presets,
 * wireLock() wires #lock once its figure is built, stopPlay() stops the sweep. settle(): the
 * address bar's, when the sweep stops.
 */
export function wireActions({ state, accept, acceptAll, togglePlay, settle }) {
  $('reset').addEventListener('click', () => {
    stop();
    acceptAll(Object.fromEntries(RESETTABLE.map((name) => [name, PARAM[name].default])));
    resetChapters();
  });

  // The options come from the config reader (nine configs): filled after the first paint, or as
  // soon as the reader is loaded if the reader reaches the menu first. Where the reader cannot
  // load, the menu keeps its first line only (the long-context part says why).
  let presets = null;
  let filling = null;
  const preset = $('dim-preset');
  const fill = (list) => {
    presets = list;
    for (const [index, p] of presets.entries()) {
      const option = document.createElement('option');
      option.value = String(index);
      option.textContent = `${p.name}: dim ${p.dim}, base ${p.base}`;
      preset.append(option);
    }
  };
  const fillPresets = () => {
    if (!filling) filling = dimBasePresets().then(fill, () => {});
    return filling;
  };
  for (const event of ['focus', 'pointerdown']) preset.addEventListener(event, fillPresets);
  preset.addEventListener('change', () => {
    const p = presets?.[Number(preset.value)];
    if (p) acceptAll({ dim: p.dim, base: p.base, ...bounded({ ...state, dim: p.dim }) });
    preset.value = '';
  });

  $('randomize').addEventListener('click', () => accept('seed', newSeed(), 'preset'));
  $('demo-vectors').addEventListener('click', () => accept('seed', 0, 'preset'));

  const wireLock = () => {
    const lock = $('lock');
    lock.checked = state.lock;
    lock.addEventListener('change', () => acceptAll({ lock: lock.checked }));
  };

  // ---- play: sweep the gap ----
  const play = $('play');
  let frame = 0;
  function stop() {
    if (!frame) return;
    cancelAnimationFrame(frame);
    frame = 0;
    play.textContent = 'Play: sweep the gap';
    play.setAttribute('aria-pressed', 'false');
    togglePlay(false);
    settle(); // where the sweep stopped is a state to come back to
  }
  function step() {
    const next = Math.min(GAP_END, Math.max(state.gap + 1, Math.round(state.gap * PLAY_GROWTH)));
    accept('gap', next, 'preset');
    if (next >= GAP_END) stop();
    else frame = requestAnimationFrame(step);
  }
  play.addEventListener('click', () => {
    if (frame) {
      stop();
      return;
    }
    if (state.gap >= GAP_END) accept('gap', 0, 'preset');
    play.textContent = 'Pause';
    play.setAttribute('aria-pressed', 'true');
    togglePlay(true);
    frame = requestAnimationFrame(step);
  });
  // A typed or dragged gap takes over from play.
  for (const id of ['gap', 'gap-num']) $(id).addEventListener('input', stop);
  return { afterPaint: fillPresets, wireLock, stopPlay: stop };
}

/** The settings panel's |q| readout: rotating q to several positions keeps its length. */
export function normReadout(model) {
  return (
    `|q| = ${fixed(model.norm.q)}. Largest change of |q| after rotating it to positions` +
    ` ${list(NORM_POSITIONS)}: ${num(model.norm.maxGap)} — rotation keeps the length.`
  );
}

let shownSeed = null;
/** Which q and k the figures use: the demo vectors' formula, or the seed of random ones. */
export function vectorsReadout(state) {
  if (state.seed === shownSeed) return;
  shownSeed = state.seed;
  const box = $('vectors-readout');
  if (state.seed === 0) {
    const p = document.createElement('p');
    p.textContent = 'The demo vectors, entry j of each (j = 0 … dim − 1):';
    const f = document.createElement('p');
    f.className = 'demo-formula';
    f.textContent = 'q[j] = cos(0.7·j + 0.3),  k[j] = sin(0.4·j + 1.1)';
    box.replaceChildren(p, f);
  } else {
    const p = document.createElement('p');
    p.textContent =
      `Random q and k from seed ${state.seed}: every entry uniform in [−1, 1). ` +
      'The link keeps the seed, so it shows the same vectors.';
    box.replaceChildren(p);
  }
}
