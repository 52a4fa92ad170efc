// The settings panels' controls, built from one table before app.js and long.js wire them.
// index.html holds each panel's frame: a [data-setting] element gets that setting's label,
// widgets, preset buttons and message (appended); a [data-settings] pair gets two boxes side
// by side with their messages below; .params gets one hidden block per method parameter.
// Ranges, sliders and integer boxes come from the setting's row in state.js.

import { el } from '../lib/dom.js';
import { METHOD_PARAMS } from '../model/methods.js';
import { PARAM } from '../state/state.js';
import { controlParts } from './controls.js';

// Per setting: label (default: the row's label in state.js, which messages use too), hint, and
// preset buttons [group name, [[value, text]]] (each button carries data-NAME="value"); menu:
// the options are the row's values.
const SETTINGS = Object.freeze(
  Object.assign(Object.create(null), {
    dim: { hint: 'head dimension (rotary dim), typically 64, 96 or 128; dim/2 pairs' },
    base: { hint: 'pair frequency θᵢ = base^(−2i/dim); log slider' },
    gap: {
      hint: 'query position − key position',
      presets: [
        'gap presets',
        [
          [0, '0'],
          [1, '1'],
          [16, '16'],
          [256, '256'],
          [4096, '4096'],
          [131072, '128K'],
        ],
      ],
    },
    n: { hint: "along the start positions; a longer range draws each point's least and greatest score" },
    seed: { hint: '0: the demo vectors' },
    preset: { hint: 'its config.json’s RoPE fields' },
    'train-len': { hint: 'positions seen in training, log slider' },
    'target-gap': {
      hint: 'query − key position, log slider',
      presets: [
        'inference gap presets',
        [
          [32768, '32K'],
          [131072, '128K'],
          [1000000, '1M'],
        ],
      ],
    },
    factor: { hint: 'how far the context stretches' },
    'new-base': { hint: 'rope_theta after the change' },
    'orig-max': { hint: 'L0, before the extension' },
    'low-freq': { hint: 'pairs slower than L/this are divided' },
    'high-freq': { hint: 'pairs faster than L/this are kept' },
    'beta-fast': { hint: 'turns where the ramp starts' },
    'beta-slow': { hint: 'turns where it ends' },
    truncate: { hint: 'round the correction range', menu: true },
    mscale: { hint: '0: not given' },
    'mscale-all-dim': { hint: '0: not given' },
  }),
);

function parts(name) {
  const row = PARAM[name];
  const { label = row.label, hint, menu } = SETTINGS[name] ?? {};
  const options = menu ? row.values.map((value) => [row.serialize(value), row.serialize(value)]) : [];
  const kind = row.type === 'choice' ? 'menu' : row.slider ? 'slider' : 'box';
  return controlParts(name, { label, hint, kind, integer: row.type === 'int', options });
}

function presetButtons(name) {
  const presets = SETTINGS[name]?.presets;
  if (!presets) return [];
  const [group, buttons] = presets;
  return [
    el(
      'div',
      { class: 'presets', role: 'group', 'aria-label': group },
      ...buttons.map(([value, text]) => el('button', { type: 'button', [`data-${name}`]: String(value) }, text)),
    ),
  ];
}

/** Fills the panels; runs once, before any control is read or wired. */
export function buildPanels() {
  for (const place of document.querySelectorAll('[data-setting]')) {
    const { setting } = place.dataset;
    const { label, widget, msg } = parts(setting);
    place.append(label, widget, ...presetButtons(setting), msg);
  }
  for (const pair of document.querySelectorAll('[data-settings]')) {
    const built = pair.dataset.settings.split(' ').map(parts);
    pair.append(...built.map(({ label, widget }) => el('div', {}, label, widget)));
    pair.after(...built.map(({ msg }) => msg));
  }
  for (const params of document.querySelectorAll('.params')) {
    // In the table's order, which keeps every method's parameters in its METHODS row's order.
    params.append(
      ...Object.keys(SETTINGS)
        .filter((name) => METHOD_PARAMS.includes(name))
        .map((name) => {
          const { label, widget, msg } = parts(name);
          return el('div', { class: 'control', 'data-param': name, hidden: '' }, label, widget, msg);
        }),
    );
  }
}
