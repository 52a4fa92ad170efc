// How every setting's widgets behave, wherever they are (the page's settings, the long-context
// part, a <rope-scope> element's controls): one module, so the keyboard and typing work alike.
//  - A slider applies as it moves. Arrow keys step it; an integer log slider (gap) steps by
//    controlFor's step, since the native step of a fraction of a decade rounds back to the same
//    whole value.
//  - A typed box applies on Enter, on change and on leaving it, never on a keystroke: typing 5000
//    never applies 5, 50 and 500. Meanwhile a quiet line under it says the text is not applied
//    yet. ArrowUp / ArrowDown in the box step the value and apply it.
import { el } from '../lib/dom.js';
import { wireSliderKeys } from './controls.js';

/** The quiet "not applied yet" line under a box (created on first use after its msg). */
export function showPending(box, msg, text) {
  if (!box || !msg) return;
  const id = `${box.id}-pending`.replace(/-num-pending$/, '-pending');
  let note = msg.parentNode?.querySelector(`#${id}`) ?? null;
  if (!note) {
    if (!text) return;
    note = el('p', { id, class: 'pending' });
    msg.after(note);
    box.setAttribute('aria-describedby', `${box.getAttribute('aria-describedby') ?? ''} ${id}`.trim());
  }
  note.textContent = text;
}

/**
 * Wires one setting. row: its row in state.js; control: controlFor(row); widgets: { box, range,
 * msg } (range null for a box alone). hooks:
 *   current()        the value in use
 *   context()        the settings the row's relations are read against
 *   apply(v, source) applies a value ('box', 'range' or 'key'); the caller syncs its widgets;
 *                    false: refused (its problem named), and a typed text stays to be fixed
 *   problem(text)    names a bad value ('' clears)
 *   pending(text)    optional: the not-applied-yet line (default: showPending under the box)
 */
export function wireSetting(row, control, { box, range = null, msg }, hooks) {
  const pending = hooks.pending ?? ((text) => showPending(box, msg, text));
  const commit = () => {
    const result = row.parse(box.value, hooks.context());
    if (!result.ok) {
      hooks.problem(result.message);
      return;
    }
    if (result.value !== hooks.current() || box.getAttribute('aria-invalid') === 'true') {
      if (hooks.apply(result.value, 'box') === false) return;
    }
    // The value in use, in its plain form ("07" -> "7"); nothing is pending any more.
    box.value = row.serialize(hooks.current());
    pending('');
  };
  box.addEventListener('input', () => {
    const shown = row.serialize(hooks.current());
    pending(
      box.value === shown
        ? ''
        : `Not applied yet: press Enter or leave the box. The figures show ${row.label} = ${shown}.`,
    );
  });
  box.addEventListener('change', commit);
  box.addEventListener('blur', commit);
  box.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      commit();
      return;
    }
    const dir = event.key === 'ArrowUp' ? 1 : event.key === 'ArrowDown' ? -1 : 0;
    if (!dir || box.getAttribute('aria-invalid') === 'true') return;
    event.preventDefault();
    box.value = String(Math.min(row.max, Math.max(row.min, control.step(hooks.current(), dir))));
    commit();
  });
  if (!range || !control.range) return;
  range.min = String(control.min);
  range.max = String(control.max);
  range.step = String(row.slider.step);
  wireSliderKeys(range, row, control, hooks.current, (value) => hooks.apply(value, 'key'));
  range.addEventListener('input', () => {
    const raw = Number(range.value);
    const result = row.parse(String(control.fromRange ? control.fromRange(raw) : raw), hooks.context());
    if (result.ok) hooks.apply(result.value, 'range');
    else hooks.problem(result.message);
  });
}
