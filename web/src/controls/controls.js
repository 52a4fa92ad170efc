// How a setting's widgets map to its value, from its row in state.js: a slider (linear, or
// log10 of the value), and the arrow-key step of its box; and the widgets themselves
// (controlParts). Shared by app.js, long.js, panels.js and the <rope-scope> element.
import { el } from '../lib/dom.js';

// A value from a log slider, kept to 4 significant digits so links stay readable.
export const roundBase = (value) => Number(value.toPrecision(4));

/**
 * { range, min, max, toRange, fromRange, step(value, dir) } for a row. A log slider holds
 * log10 of the value from slider.from (default the row's min); an integer one gives whole
 * values and its arrow step moves by at least one, so small values stay reachable.
 */
export function controlFor(row) {
  const { slider } = row;
  if (!slider) return { range: false, step: (v, dir) => v + dir };
  const key = slider.keyStep ?? slider.step;
  if (slider.log) {
    const low = slider.from ?? row.min;
    const round = slider.integer ? Math.round : roundBase;
    const factor = 10 ** key;
    return {
      range: true,
      min: Math.log10(low),
      max: Math.log10(row.max),
      toRange: (v) => Math.log10(Math.max(v, low)),
      fromRange: (r) => round(10 ** r),
      step: slider.integer
        ? (v, dir) => (dir > 0 ? Math.max(v + 1, Math.round(v * factor)) : Math.min(v - 1, Math.round(v / factor)))
        : (v, dir) => roundBase(10 ** (Math.log10(v) + key * dir)),
      keys: Boolean(slider.integer),
    };
  }
  return { range: true, min: row.min, max: row.max, step: (v, dir) => v + key * dir };
}

const ARROWS = Object.freeze({ ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1 });

/**
 * Arrow keys on an integer log slider step through control.step (the native step of a
 * fraction of a decade would round back to the same whole value). onValue(next) gets the
 * clamped value.
 */
export function wireSliderKeys(range, row, control, current, onValue) {
  if (!control.keys) return;
  range.addEventListener('keydown', (event) => {
    const dir = ARROWS[event.key];
    if (!dir) return;
    event.preventDefault();
    onValue(Math.min(row.max, Math.max(row.min, control.step(current(), dir))));
  });
}

/**
 * A setting's widgets, with the ids the page wires (web/README.md): { label, widget, msg }. The
 * widget is, by kind, the box #NAME-num ('box'; integer: a numeric keypad), the slider #NAME and
 * its box in a .control-row ('slider'), or the menu #NAME ('menu', options: [[value, text]]);
 * msg is #NAME-msg, which every widget names in aria-describedby.
 */
export function controlParts(name, { label = name, hint = '', kind = 'box', integer = false, options = [] } = {}) {
  const described = { 'aria-describedby': `${name}-msg` };
  const box = (named) =>
    el('input', {
      type: 'text',
      id: `${name}-num`,
      inputmode: integer ? 'numeric' : 'decimal',
      autocomplete: 'off',
      spellcheck: 'false',
      ...named,
      ...described,
    });
  let widget;
  if (kind === 'menu') {
    widget = el('select', { id: name, ...described }, ...options.map(([value, text]) => el('option', { value }, text)));
  } else if (kind === 'slider') {
    widget = el(
      'div',
      { class: 'control-row' },
      el('input', { type: 'range', id: name, ...described }),
      box({ 'aria-label': `${label}, exact value` }),
    );
  } else {
    widget = box({});
  }
  const text = hint ? [`${label} `, el('span', { class: 'hint' }, hint)] : [label];
  return {
    label: el('label', { for: kind === 'box' ? `${name}-num` : name }, ...text),
    widget,
    msg: el('p', { id: `${name}-msg`, class: 'msg', role: 'alert' }),
  };
}
