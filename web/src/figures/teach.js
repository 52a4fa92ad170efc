// The older figures' page pieces that are not charts: the rotating pair's controls, the
// worked example (the blog's numbers, three ways), the formulas beside the figures and
// the gap lock. DOM built with DOM calls; every number comes from model.js (the core).

import { controlParts } from '../controls/controls.js';
import { formulaBlock } from '../formulas/mathml.js';
import { card, el } from '../lib/dom.js';
import { PARAM } from '../state/state.js';

/** A setting's widgets, with the ids app.js wires: #NAME (slider, optional), #NAME-num, #NAME-msg. */
function control(name, label, hint, { slider = false } = {}) {
  const { label: text, widget, msg } = controlParts(name, { label, hint, kind: slider ? 'slider' : 'box' });
  return el('div', { class: 'control' }, text, widget, msg);
}

/** Controls of the rotating-pair figure: pair i, m, n and the gap lock. */
export function circleControls() {
  return el(
    'div',
    { class: 'fig-controls' },
    control('pair', 'pair i', '0 is the fastest', { slider: true }),
    control('qm', 'query position m', '', { slider: true }),
    control('kn', 'key position n', '', { slider: true }),
    el(
      'div',
      { class: 'control lock' },
      el('input', { type: 'checkbox', id: 'lock' }),
      el('label', { for: 'lock' }, 'keep the gap ', el('span', { class: 'hint' }, 'moving m or n moves both')),
    ),
  );
}

/** Formulas beside the rotating pair. */
export const circleNotes = () =>
  formulaBlock('The rotation', [
    ['Pair i of a vector at position m is turned by the angle m·θᵢ:', 'pair_rotation'],
    ['with the pair frequency', 'theta'],
  ]);

/** The derivation beside the per-pair terms. */
export const termsNotes = () =>
  formulaBlock('Why only the gap is left', [
    ['A rotation transposed is the rotation backwards, so two rotations meet as one:', 'relative'],
    ['so the rotated dot product depends on the gap alone (n − m is −r):', 'score_derivation'],
    ['Multiplied out, pair i gives the bar in the chart:', 'pair_score'],
    ['and the score is their sum:', 'score_sum'],
  ]);

export const additiveNotes = () =>
  formulaBlock('The additive score, multiplied out', [
    ['Position marks (sinusoidal positional encoding):', 'sin_pos'],
    ['The score has four terms:', 'additive'],
    ['Only the last depends on the gap alone:', 'additive_gap'],
  ]);

export const decayNotes = () =>
  formulaBlock('The curves', [
    ['RoFormer’s relative bound (section 3.4.3), no unit: times h·max|wᵢ₊₁ − wᵢ| it bounds |score|:', 'roformer_bound'],
    ['The mean over N random vectors v scored against themselves:', 'decay_mean'],
  ]);

export const heatmapNotes = () => formulaBlock('Wavelength', [['Pair i makes one full turn every', 'wavelength']]);

// ---- the worked example ----

// The labels are the settings' own (state.js), which their messages use too.
const WORKED = [
  ['wq0', ''],
  ['wq1', ''],
  ['wk0', ''],
  ['wk1', ''],
  ['wm', ''],
  ['wn', ''],
  ['wth', ''],
  ['wsh', 'moves both words'],
];

/** The worked-example section (after the rotating pair). */
export function workedSection() {
  const inputs = el(
    'div',
    { class: 'worked-inputs' },
    ...WORKED.map(([name, hint]) => control(name, PARAM[name].label, hint)),
  );
  const out = el('dl', { class: 'worked-out', id: 'worked-out' });
  return card(
    'worked',
    'worked',
    'The blog’s worked numbers, three ways',
    'One pair with its own θ. The defaults are the blog’s: the word vector cat = [0.9, 0.4] as both query and ' +
      'key, θ = 0.1, cat at 3 and at 7. ' +
      'The score is computed by rotating and taking the dot product, then by the formula, then again with ' +
      'both words moved along by s. Change any input (Enter or leaving the box applies it).',
    inputs,
    out,
    el('div', { class: 'worked-marks', id: 'worked-marks' }),
    formulaBlock('The formula', [['For one pair, with r = m − n:', 'pair_score']]),
  );
}

// 4 decimals as the blog prints them, with a real minus sign and no "−0.0000".
export const dec4 = (x) => {
  const text = x.toFixed(4);
  return (/^-0\.0000$/.test(text) ? '0.0000' : text).replace('-', '−');
};
const vec = (v) => `[${Array.from(v, dec4).join(', ')}]`;

function item(term, id, ...text) {
  return [el('dt', {}, term), el('dd', { id }, ...text)];
}

let shownWorked = null;
/** Writes the worked example's numbers (model.explain.worked) into the section, when they changed. */
export function renderWorked(state, worked) {
  if (worked === shownWorked) return; // model.js hands back the same object for the same inputs
  shownWorked = worked;
  const { at, moved, marks } = worked;
  const { wm, wn, wsh } = state;
  $('worked-out').replaceChildren(
    ...item(`q at ${wm}: R(${wm}θ)q`, 'worked-qm', vec(at.q_m)),
    ...item(`k at ${wn}: R(${wn}θ)k`, 'worked-kn', vec(at.k_n)),
    ...item('1. directly: (R(mθ)q)·(R(nθ)k)', 'worked-direct', dec4(at.direct)),
    ...item(
      '2. by the formula: (q·k)cos((m−n)θ) + (q×k)sin((m−n)θ)',
      'worked-formula',
      `${dec4(at.dot)}·cos(${dec4(at.angle_gap)}) + ${dec4(at.cross)}·sin(${dec4(at.angle_gap)}) = ${dec4(at.formula)}`,
    ),
    ...item(
      `3. moved by ${wsh}: q at ${wm + wsh}, k at ${wn + wsh}`,
      'worked-moved',
      `${dec4(moved.direct)} (q at ${wm + wsh}: ${vec(moved.q_m)}, k at ${wn + wsh}: ${vec(moved.k_n)})`,
    ),
  );
  $('worked-marks').replaceChildren(
    el('h3', {}, 'The additive method instead adds a position mark'),
    el(
      'p',
      {},
      `Sinusoidal marks (positional encoding) of width 4 for positions ${wm} and ${wm + 1}: ` +
        'a different vector for each position, added to the word vector.',
    ),
    el(
      'dl',
      { class: 'worked-out' },
      ...item(`P[${wm}]`, 'worked-mark-m', vec(marks[0])),
      ...item(`P[${wm + 1}]`, 'worked-mark-m1', vec(marks[1])),
    ),
  );
}

const $ = (id) => document.getElementById(id);
