// Figure: how far each pair rotates over the gap, against the one-turn line.
import { createAnglesChart } from '../charts/angles.js';
import { count, num, position } from '../lib/format.js';

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
    split =
      ` ${wrapped} of ${pairs} pairs ${wrapped === 1 ? 'has' : 'have'} wrapped at this gap` +
      ' (turned past one full turn, 2π): such a pair cannot tell this gap from the gap minus its wavelength' +
      ` λᵢ = 2π/θᵢ. The other ${whole} still measure${whole === 1 ? 's' : ''} it without ambiguity.`;
  }
  return `${head}${split} Each angle is gap × θᵢ; the absolute positions never enter.`;
}

export function anglesLabel(state, model) {
  return `Bar chart, log scale: rotation angle of each of ${count(model.pairs, 'pair')} at gap ${position(state.gap)}, with the one-turn line at 2π.`;
}

export default {
  name: 'angles',
  part: 'gap',
  title: 'How far each pair rotates over the gap',
  lookfor:
    'Pair i turns by gap × θᵢ. Its pair frequency θᵢ falls from 1 (pair 0, fast) to nearly 0 (the last ' +
    'pair, slow). Look for: fast pairs pass one full turn (the dashed 2π line), slow pairs barely move, and ' +
    'nothing depends on where the pair sits.',
  fallback: 'Rotation angle of every pair at the current gap.',
  embed: 'angle of every pair',
  make: createAnglesChart,
  data: (model) => ({ angles: model.angles, turns: model.turns }),
  caption: anglesCaption,
  label: anglesLabel,
};
