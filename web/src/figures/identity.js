// Chapter: the trig identity. sin(a + b) worked from a and b as the post does for 47 and 4:
// the mark of position a + b follows from the mark of a and the gap b alone.

import { axis, categoryAxis } from '../charts/theme.js';
import { lesson_identity } from '../core/rope.js';
import { chapterRow, d4, indexChart, slider } from './lesson_row.js';

function fill(target, data, c) {
  const [bars] = target.data.datasets;
  target.data.labels = [
    `sin ${data.a} · cos ${data.b}`,
    `cos ${data.a} · sin ${data.b}`,
    'their sum',
    `sin ${data.a + data.b} directly`,
  ];
  bars.data = [data.sa_cb, data.ca_sb, data.sin_sum, data.sin_direct];
  bars.backgroundColor = [c.fill, c.fill, c.rope, c.add];
  bars.borderColor = [c.rope, c.rope, c.rope, c.add];
}

function createIdentityChart(canvas, data) {
  return indexChart(canvas, data, fill, {
    scales: (c) => ({
      x: categoryAxis(c, 'the identity sin(a + b) = sin a cos b + cos a sin b, term by term'),
      y: axis(c, 'value', { type: 'linear', min: -1.1, max: 1.1, ticks: { includeBounds: false } }),
    }),
    datasets: [{ label: 'value', data: [], borderWidth: 1 }],
    legend: [
      { text: 'the two products and their sum', mark: 'box', color: 'var(--c-rope)' },
      { text: 'sin(a + b) computed directly', mark: 'box', color: 'var(--c-add)' },
    ],
  });
}

const compute = (i) => ({ a: i.a, b: i.b, ...lesson_identity(i.a, i.b) });

export default chapterRow({
  name: 'identity',
  title: 'The mark of a + b from the mark of a and the gap b',
  lookfor:
    'sin(a + b) built from sin a, cos a, sin b and cos b. Look for: the sum bar is the same height as the direct ' +
    'one, so the mark of position 51 follows from the mark of 47 and the gap 4 alone.',
  fallback: 'The terms of sin(a + b) = sin a cos b + cos a sin b.',
  embed: 'the trig identity',
  inputs: { a: slider(47, 'position a', 0, 1000), b: slider(4, 'gap b', 0, 100) },
  compute,
  make: createIdentityChart,
  readout: (d) =>
    `sin ${d.a} = ${d4(d.sin_a, 3)}, cos ${d.a} = ${d4(d.cos_a, 3)}: ` +
    `${d.a} rad is ${d4(d.a_turn, 3)} past whole turns, quadrant ${d.quadrant}. sin ${d.a} · cos ${d.b} + cos ${d.a} · ` +
    `sin ${d.b} = ${d4(d.sa_cb, 3)} + ${d4(d.ca_sb, 3)} = ${d4(d.sin_sum, 3)}; sin ${d.a + d.b} = ${d4(d.sin_direct, 3)}.`,
  caption: (d) =>
    `The two products add up to sin ${d.a + d.b} = ${d4(d.sin_direct)}: the identity holds for any a and b. ` +
    `Watch the quadrant: ${d.a} rad is ${d4(d.a_turn, 3)} past whole turns (quadrant ${d.quadrant}), so cos ${d.a} is ` +
    `${d4(d.cos_a, 3)}. Derivable is not what attention computes: a dot product of two marks never forms this sum, so ` +
    'the model would have to learn it.',
  label: (d) =>
    `Bar chart: sin ${d.a} cos ${d.b} = ${d4(d.sa_cb)}, cos ${d.a} sin ${d.b} = ${d4(d.ca_sb)}, ` +
    `their sum ${d4(d.sin_sum)} and sin ${d.a + d.b} = ${d4(d.sin_direct)}.`,
});
