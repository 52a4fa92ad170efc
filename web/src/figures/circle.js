// Figure: one pair of q and k on the plane, turned to positions m and n.
import { chartConfig, makeChart, paint } from '../charts/figure.js';
import { axis, baseOptions, colors } from '../charts/theme.js';
import { controlParts } from '../controls/controls.js';
import { formulaBlock } from '../formulas/mathml.js';
import { card, el } from '../lib/dom.js';
import { num, position, subscript } from '../lib/format.js';
import { PARAM } from '../state/state.js';

// The chart: one pair, rotating. Pair i of q turned to position m and of k to position n
// on the plane, with the unit circle and both unrotated vectors for reference.
// Data in: { circle: [[x, y]...], q, k, q_m, k_n } — plain arrays (all from the core).
// Ticks at the round values only (the axis ends at ±reach, not a round number).
const tick = (value) => (Math.abs(value * 2 - Math.round(value * 2)) < 1e-9 ? num(value) : '');
const arrow = ([x, y]) => [
  { x: 0, y: 0 },
  { x, y },
];

function fill(target, data, c) {
  const [ring, qm, kn, q0, k0] = target.data.datasets;
  ring.data = data.circle.map(([x, y]) => ({ x, y }));
  qm.data = arrow(data.q_m);
  kn.data = arrow(data.k_n);
  q0.data = arrow(data.q);
  k0.data = arrow(data.k);
  ring.borderColor = c.grid;
  paint(c.rope, [qm, q0], true);
  paint(c.add, [kn, k0], true);
  // Square axes that hold the unit circle and both vectors (|x| + |y| is at least the length).
  const reach =
    Math.max(1, Math.abs(data.q[0]) + Math.abs(data.q[1]), Math.abs(data.k[0]) + Math.abs(data.k[1])) * 1.05;
  for (const scale of [target.options.scales.x, target.options.scales.y])
    Object.assign(scale, { min: -reach, max: reach });
}

function createCircleChart(canvas, data) {
  const c = colors(canvas);
  const options = baseOptions(c);
  options.plugins.tooltip.callbacks = {
    label: (item) => `${item.dataset.label}: (${num(item.parsed.x)}, ${num(item.parsed.y)})`,
  };
  options.plugins.tooltip.filter = (item) => item.dataIndex > 0 || item.datasetIndex === 0;
  options.scales = {
    x: axis(c, 'first coordinate of the pair', { type: 'linear', ticks: { stepSize: 0.5, callback: tick } }),
    y: axis(c, 'second coordinate of the pair', { type: 'linear', ticks: { stepSize: 0.5, callback: tick } }),
  };
  const vec = { parsing: false, showLine: true, fill: false, pointRadius: [0, 5], pointHoverRadius: [0, 6] };
  const config = chartConfig(
    'line',
    [
      {
        label: 'unit circle',
        data: [],
        parsing: false,
        showLine: true,
        pointRadius: 0,
        pointHoverRadius: 0,
        borderWidth: 1,
      },
      { label: 'q at position m', ...vec, borderWidth: 3 },
      { label: 'k at position n', ...vec, borderWidth: 3 },
      { label: 'q unrotated', ...vec, borderWidth: 1.5, borderDash: [4, 4], pointRadius: [0, 3] },
      { label: 'k unrotated', ...vec, borderWidth: 1.5, borderDash: [4, 4], pointRadius: [0, 3] },
    ],
    options,
  );
  const legend = [
    { text: 'q turned by m·θᵢ', mark: 'line', color: 'var(--c-rope)' },
    { text: 'k turned by n·θᵢ', mark: 'line', color: 'var(--c-add)' },
    { text: 'unrotated (position 0)', mark: 'dash', color: 'var(--ink-muted)' },
  ];
  return makeChart(canvas, { config, data, fill, legend });
}

export function circleCaption(state, model) {
  const r = model.explain.rotating;
  const wavelength = (2 * Math.PI) / r.theta;
  return (
    `Pair ${r.pair} turns by θ${subscript(r.pair)} = ${num(r.theta)} rad per position (one full turn every` +
    ` ${num(wavelength)} positions: its wavelength). q at m = ${position(state.qm)} is turned by` +
    ` mθ = ${num(r.angle_m)} rad, k at n = ${position(state.kn)} by nθ = ${num(r.angle_n)} rad: q turns` +
    ` (m − n)θ = ${num(r.angle_gap)} rad more than k. The angle between the two arrows is the angle they` +
    ` started at plus that difference, and the pair's score is ${num(r.direct)}. Tick "keep the gap" and` +
    ' move m: both arrows turn together, so the angle between them and the score stay.'
  );
}

export function circleLabel(state, model) {
  const r = model.explain.rotating;
  return (
    `Unit circle: pair ${r.pair} of q turned to position ${position(state.qm)} and of k to position` +
    ` ${position(state.kn)}; q turned ${num(r.angle_gap)} rad more than k, pair score ${num(r.direct)}.`
  );
}

// ---- the pair's controls, formulas and the worked example after it ----

/** A setting's widgets, with the ids app.js wires: #NAME (slider, optional), #NAME-num, #NAME-msg. */
function control(name, label, hint, { slider = false } = {}) {
  const { label: text, widget, msg } = controlParts(name, { label, hint, kind: slider ? 'slider' : 'box' });
  return el('div', { class: 'control' }, text, widget, msg);
}

/** Controls of the rotating-pair figure: pair i, m, n and the gap lock. */
function circleControls() {
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
const circleNotes = () =>
  formulaBlock('The rotation', [
    ['Pair i of a vector at position m is turned by the angle m·θᵢ:', 'pair_rotation'],
    ['with the pair frequency', 'theta'],
  ]);

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
function workedSection() {
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
const dec4 = (x) => {
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

export default {
  name: 'circle',
  part: 'why',
  title: 'Any pair of a real model, rotating',
  lookfor:
    'The cat chapter turned one pair at an angle of its choosing; here any pair i of the panel’s q and k ' +
    'turns at the model’s own θᵢ = base^(−2i/dim). Look for: the slow pairs barely turn, the fast ones ' +
    'wrap; with the gap kept the angle between the arrows stays, whatever the pair.',
  fallback: 'Pair i of q and k on the plane, rotated to positions m and n.',
  embed: 'one pair, rotating',
  make: createCircleChart,
  data: (model) => ({
    circle: model.explain.circle,
    q: model.explain.rotating.q,
    k: model.explain.rotating.k,
    q_m: model.explain.rotating.q_m,
    k_n: model.explain.rotating.k_n,
  }),
  caption: circleCaption,
  label: circleLabel,
  controls: circleControls,
  notes: circleNotes,
  after: workedSection,
};
