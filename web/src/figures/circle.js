// Figure: one pair of q and k on the plane, turned to positions m and n.
import { createCircleChart } from '../charts/circle.js';
import { num, position, subscript } from '../lib/format.js';
import * as teach from './teach.js';

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
  controls: teach.circleControls,
  notes: teach.circleNotes,
  after: teach.workedSection,
};
