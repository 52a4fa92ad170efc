// The setting widgets inside one <rope-scope>: its controls= sliders and a figure's own inputs
// (the rotating pair's pair, m and n and its gap lock), each wired to the element's own state.
// On the page app.js wires these widgets by id, which a shadow root hides from it; the
// behaviour is the page's (controls/wire.js: keyboard steps, a typed value applied on Enter,
// change or leaving the box) and so are the moves (state.js's follow: the lock, the ceilings).
import { controlFor } from '../controls/controls.js';
import { wireSetting } from '../controls/wire.js';
import { follow, PARAM, PARAMS } from '../state/state.js';

// The settings a widget can show: numbers (not the long-context part's own, which are not the
// lesson's figures').
const NUMBERS = PARAMS.filter((row) => (row.type === 'int' || row.type === 'number') && !row.part);

/**
 * Wires every setting widget under `root` (a shadow root: ids are its own): #NAME (slider),
 * #NAME-num, #NAME-msg, and #lock. host: { state, render() } (read when a value changes).
 */
export function wireSettings(root, host) {
  const $ = (id) => root.getElementById(id);
  const wired = [];
  const sync = (name, { thumb = true, box = true } = {}) => {
    const row = PARAM[name];
    const widgets = wired.find((w) => w.name === name);
    if (!widgets) return;
    const value = host.state[name];
    const { range, control } = widgets;
    if (range && control.range) {
      if (row.ceiling) range.max = String(row.ceiling(host.state));
      if (thumb) range.value = String(control.toRange ? control.toRange(value) : value);
      if (row.slider?.log) range.setAttribute('aria-valuetext', `${row.label} ${value}`);
    }
    if (box) widgets.box.value = row.serialize(value);
  };
  const accept = (name, value, source) => {
    const changes = follow(name, value, host.state);
    if (changes[name] !== value) source = 'key'; // cut short: every widget of it shows so
    Object.assign(host.state, changes);
    for (const key of Object.keys(changes)) {
      const own = key === name ? source : 'key';
      const widgets = wired.find((w) => w.name === key);
      if (widgets) {
        widgets.msg.textContent = '';
        widgets.box.setAttribute('aria-invalid', 'false');
      }
      sync(key, { thumb: own !== 'range', box: own !== 'box' });
    }
    for (const w of wired) if (PARAM[w.name].ceiling) sync(w.name, { box: false });
    host.render();
  };
  for (const row of NUMBERS) {
    const box = $(`${row.name}-num`);
    if (!box) continue;
    const control = controlFor(row);
    const range = control.range ? $(row.name) : null;
    const msg = $(`${row.name}-msg`);
    wired.push({ name: row.name, box, range, msg, control });
    wireSetting(
      row,
      control,
      { box, range, msg },
      {
        current: () => host.state[row.name],
        context: () => host.state,
        apply: (value, source) => accept(row.name, value, source),
        problem: (message) => {
          msg.textContent = message;
          box.setAttribute('aria-invalid', message ? 'true' : 'false');
        },
      },
    );
  }
  for (const { name } of wired) sync(name);
  const lock = $('lock');
  if (lock) {
    lock.checked = host.state.lock;
    lock.addEventListener('change', () => {
      host.state.lock = lock.checked;
      host.render();
    });
  }
}
