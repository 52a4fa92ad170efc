// Captions that read each figure's own numbers out loud. Plain text only.
import { num, fixed, position, list } from './format.js';
import { REPORT_STARTS, NORM_POSITIONS, ACCURATE_UP_TO, farthestPosition } from './model.js';

export function anglesCaption(state, model) {
  const { pairs, angles, turns } = model;
  if (state.gap === 0) {
    return 'gap 0: nothing rotates. Every angle is 0, so the RoPE score is the plain dot product q·k.';
  }
  const fast = turns.filter((t) => t >= 1).length;
  const slow = pairs - fast;
  const head = `At gap ${position(state.gap)}, pair 0 turns ${num(angles[0])} rad` +
    ` (${num(turns[0])} turns) and pair ${pairs - 1} only ${num(angles[pairs - 1])} rad.`;
  const split = fast === 0
    ? ` All ${pairs} pairs stay under one turn (2π), so each one still measures the gap without wrapping.`
    : ` ${fast} of ${pairs} pairs pass one full turn: they cannot tell this gap from the gap minus a` +
      ` turn. The ${slow} slow pair${slow === 1 ? '' : 's'} still measure${slow === 1 ? 's' : ''} it.`;
  return `${head}${split} Each angle is gap × θᵢ; the absolute positions never enter.`;
}

export function flatnessCaption(state, model) {
  const { spreads, sweep } = model;
  let text = `Across ${sweep.starts.length} starts from ${position(state.from)} to ${position(state.to)}:` +
    ` RoPE spread ${num(spreads.rope)} — flat: the score depends only on the gap.` +
    ` Additive spread ${num(spreads.add)} — the cross terms q·P[n] and P[m]·k carry absolute positions.` +
    ` At the report's starts ${list(REPORT_STARTS)}: RoPE spread ${num(spreads.reportRope)},` +
    ` additive spread ${num(spreads.reportAdd)}.`;
  // The query of the last start sits at to + gap: that is the farthest rotated position.
  const far = farthestPosition(state);
  if (far > ACCURATE_UP_TO) {
    text += ` The query reaches position ${position(far)}, past ~${ACCURATE_UP_TO}: the angle error of` +
      ' floating point grows with the position, so the RoPE spread grows too (it stays far below the' +
      ' additive one).';
  }
  return text;
}

export function slowCaption(state, model) {
  const { pairs, slow } = model;
  const now = state.gap >= 1
    ? `At gap ${position(state.gap)}, ${slow.now} of ${pairs} pairs are slow (under one turn).`
    : `Gap ${position(state.gap)} is below 1, left of this log axis; all ${slow.now} of ${pairs} pairs are slow there.`;
  const gone = slow.counts.findIndex((c) => c === 0);
  const end = gone >= 0
    ? ` Past gap ≈ ${num(slow.gaps[gone], 2)} none is left: every pair has wrapped at least once.`
    : ` Even at gap 10⁶, ${slow.counts[slow.counts.length - 1]} pairs are still slow: a larger base keeps more long-range pairs.`;
  return `${now}${end}`;
}

export function normReadout(model) {
  return `|q| = ${fixed(model.norm.q)}. Largest change of |q| after rotating it to positions` +
    ` ${list(NORM_POSITIONS)}: ${num(model.norm.maxGap)} — rotation keeps the length.`;
}

// Short text alternatives for the canvases (their aria-label).

export function anglesLabel(state, model) {
  return `Bar chart, log scale: rotation angle of each of ${model.pairs} pairs at gap ${position(state.gap)}, with the one-turn line at 2π.`;
}

export function flatnessLabel(state, model) {
  return `Line chart: attention score against start position for RoPE (spread ${num(model.spreads.rope)}) and additive (spread ${num(model.spreads.add)}).`;
}

export function slowLabel(state, model) {
  return `Step chart, log x axis: number of slow pairs against gap from 1 to one million; ${model.slow.now} at the current gap.`;
}
