// Figure: the claim. The score of q at m = n + gap against k at n, slid along the sequence at a
// fixed gap: flat for RoPE, wandering for the additive method.
import { createFlatnessChart } from '../charts/flatness.js';
import { count, list, num, position } from '../lib/format.js';
import { ACCURATE_UP_TO, farthestPosition, REPORT_STARTS } from '../model/model.js';

export function flatnessCaption(state, model) {
  const { spreads, sweep } = model;
  const every =
    sweep.bins === sweep.starts
      ? `every one of the ${count(sweep.starts, 'start')}`
      : `all ${sweep.starts} starts, drawn as the least and greatest score in each of ${sweep.bins} bins`;
  let text =
    'The RoPE line is flat: its score depends only on the gap, so every start gives the same one. The' +
    ' additive band wanders: its cross terms q·P[n] and P[m]·k each hold one absolute position.' +
    ` Scored at ${every} from ${position(state.from)}` +
    ` to ${position(state.to)}; spread (the greatest score minus the least): RoPE ${num(spreads.rope)},` +
    ` additive ${num(spreads.add)}. At the four marked starts ${list(REPORT_STARTS)}: RoPE spread` +
    ` ${num(spreads.reportRope)}, additive spread ${num(spreads.reportAdd)}.`;
  // The query of the last start sits at to + gap: that is the farthest rotated position.
  const far = farthestPosition(state);
  if (far > ACCURATE_UP_TO) {
    text +=
      ` The query reaches position ${position(far)}, past ~${ACCURATE_UP_TO}: the angle error of` +
      ' floating point grows with the position, so the RoPE spread grows too (it stays far below the' +
      ' additive one).';
  }
  return text;
}

export function flatnessLabel(state, model) {
  return `Line chart: attention score against start position for RoPE (spread ${num(model.spreads.rope)}) and additive (spread ${num(model.spreads.add)}).`;
}

export default {
  name: 'flatness',
  part: 'claim',
  uses: ['from', 'to', 'n'],
  title: 'Same gap, anywhere in the sequence',
  lookfor:
    'A query at position m = n + gap and a key at n, slid along the sequence at a fixed gap. ' +
    'Look for: the RoPE line stays flat, the additive band wanders with the absolute position.',
  fallback: 'Score against start position for RoPE and additive embedding.',
  embed: 'same gap, anywhere',
  make: createFlatnessChart,
  data: (model, state) => ({ ...model.sweep, marked: model.marked, from: state.from, to: state.to }),
  caption: flatnessCaption,
  label: flatnessLabel,
};
