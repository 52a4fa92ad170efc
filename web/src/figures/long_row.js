import * as files from '../core/files.js';
import { longModel, useReader } from '../model/long.js';

// The config reader behind longModel comes with this figure (model/long.js).
useReader(files);

// The long-context rows draw from their own model (model/long.js: longModel(state), cached by
// the long settings), null until the part has started; their caption and label take that model
// (empty until then). Their sections go before the config checker.
export function longRow(key, make, caption, label) {
  const whenLong = (write) => (state) => {
    const long = longModel(state);
    return long ? write(state, long) : '';
  };
  return {
    part: 'long',
    before: 'check',
    make,
    data: (model, state) => longModel(state)?.[key] ?? null,
    caption: whenLong(caption),
    label: whenLong(label),
  };
}
