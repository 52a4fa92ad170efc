// Captions that read each figure's own numbers out loud. Plain text only.
import { num, fixed, position, list, count } from '../lib/format.js';
import { REPORT_STARTS, NORM_POSITIONS, ACCURATE_UP_TO, farthestPosition } from '../model/model.js';

export function anglesCaption(state, model) {
  const { pairs, angles, turns } = model;
  if (state.gap === 0) {
    return 'gap 0: nothing rotates. Every angle is 0, so the RoPE score is the plain dot product q·k.';
  }
  const wrapped = turns.filter((t) => t >= 1).length;
  const whole = pairs - wrapped;
  const one = pairs === 1;
  const head = one
    ? `At gap ${position(state.gap)}, the single pair turns ${num(angles[0])} rad (${num(turns[0])} turns).`
    : `At gap ${position(state.gap)}, pair 0 (the fastest) turns ${num(angles[0])} rad (${num(turns[0])} turns)` +
      ` and pair ${pairs - 1} (the slowest) only ${num(angles[pairs - 1])} rad.`;
  let split;
  if (wrapped === 0) {
    split = one
      ? ' It stays under one full turn (2π), so it still measures the gap without ambiguity.'
      : ` All ${pairs} pairs stay under one full turn (2π), so each still measures the gap without ambiguity.`;
  } else if (whole === 0) {
    split = one
      ? ' It has wrapped at this gap (turned past one full turn, 2π): it cannot tell this gap from the gap' +
        ' minus its wavelength λ = 2π/θ.'
      : ` All ${pairs} pairs have wrapped at this gap (turned past one full turn, 2π): each cannot tell` +
        ' this gap from the gap minus its wavelength λᵢ = 2π/θᵢ.';
  } else {
    split = ` ${wrapped} of ${pairs} pairs ${wrapped === 1 ? 'has' : 'have'} wrapped at this gap` +
      ' (turned past one full turn, 2π): such a pair cannot tell this gap from the gap minus its wavelength' +
      ` λᵢ = 2π/θᵢ. The other ${whole} still measure${whole === 1 ? 's' : ''} it without ambiguity.`;
  }
  return `${head}${split} Each angle is gap × θᵢ; the absolute positions never enter.`;
}

export function flatnessCaption(state, model) {
  const { spreads, sweep } = model;
  const every = sweep.bins === sweep.starts
    ? `every one of the ${count(sweep.starts, 'start')}`
    : `all ${sweep.starts} starts, drawn as the least and greatest score in each of ${sweep.bins} bins`;
  let text = `Scored at ${every} from ${position(state.from)} to ${position(state.to)}.` +
    ` Spread (the greatest score minus the least): RoPE ${num(spreads.rope)}, flat, because its score depends` +
    ` only on the gap; additive ${num(spreads.add)}, because the cross terms q·P[n] and P[m]·k each hold one` +
    ` absolute position (the four-term breakdown below shows them). At the starts ${list(REPORT_STARTS)} that the downloadable report uses:` +
    ` RoPE spread ${num(spreads.reportRope)}, additive spread ${num(spreads.reportAdd)}.`;
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
  const verb = (n) => (n === 1 ? 'is' : 'are');
  const now = state.gap >= 1
    ? `At gap ${position(state.gap)}, ${pairs === 1
      ? `the only pair ${slow.now === 1 ? 'has not wrapped yet' : 'has wrapped'}`
      : `${slow.now} of ${pairs} pairs ${verb(slow.now)} not yet wrapped`}` +
      ' (still under one turn: the wavelength is longer than the gap).'
    : `Gap ${position(state.gap)} is below 1, left of this log axis; there ` +
      `${slow.now === 1 ? 'the only pair is' : `all ${slow.now} pairs are`} under one turn.`;
  const gone = slow.counts.findIndex((c) => c === 0);
  const left = slow.counts[slow.counts.length - 1];
  const end = gone >= 0
    ? ` Past gap ≈ ${num(slow.gaps[gone], 2)} none is left: every pair has wrapped at least once.`
    : ` Even at gap 10⁶, ${count(left, 'pair')} ${verb(left)} not yet wrapped: a larger base keeps more` +
      ' long-range pairs.';
  return `${now}${end}`;
}

export function normReadout(model) {
  return `|q| = ${fixed(model.norm.q)}. Largest change of |q| after rotating it to positions` +
    ` ${list(NORM_POSITIONS)}: ${num(model.norm.maxGap)} — rotation keeps the length.`;
}

// Short text alternatives for the canvases (their aria-label).

export function anglesLabel(state, model) {
  return `Bar chart, log scale: rotation angle of each of ${count(model.pairs, 'pair')} at gap ${position(state.gap)}, with the one-turn line at 2π.`;
}

export function flatnessLabel(state, model) {
  return `Line chart: attention score against start position for RoPE (spread ${num(model.spreads.rope)}) and additive (spread ${num(model.spreads.add)}).`;
}

export function slowLabel(state, model) {
  return `Step chart, log x axis: number of pairs not yet wrapped against gap from 1 to one million; ${model.slow.now} at the current gap.`;
}
