// The first screen's miniature of the answer: the blog post's own example, the word "cat" as
// both query and key, at positions 3 and 7 and then both moved along by the reader's slider.
// RoPE's score stays where it was, the additive one (the same pair with sine marks added)
// drifts; every number is the core's (lesson_cat), written into index.html's [data-mini] slots.

import { sparkline } from '../charts/sparkline.js';
import { lesson_cat } from '../core/rope.js';
import { d4 } from '../figures/lesson_row.js';

/** The post's example (docs/LESSON.md, "The post's examples"). */
export const MINI = Object.freeze({ cat: [0.9, 0.4], m: 3, n: 7, theta: 0.1 });

/** The miniature's numbers with both words moved by `shift`, from the core. */
export function miniature(shift) {
  const { cat, m, n, theta } = MINI;
  const at = (s) => lesson_cat(cat, cat, m + s, n + s, theta);
  const [before, after] = [at(0), at(shift)];
  return {
    cat: `[${cat.join(', ')}]`,
    theta,
    m,
    n,
    shift,
    m2: m + shift,
    n2: n + shift,
    rope: before.direct,
    add: before.added,
    rope2: after.direct,
    add2: after.added,
  };
}

/** "at 0.8934" where the values agree to the 4 decimals shown, else "from −0.0394 to 3.8194". */
function span(values) {
  const [low, high] = [d4(Math.min(...values)), d4(Math.max(...values))];
  return low === high ? `at ${low}` : `from ${low} to ${high}`;
}

/** Both scores at every shift the slider offers (0..max), from the core. */
export function sweep(max) {
  const { cat, m, n, theta } = MINI;
  const rope = [];
  const add = [];
  for (let s = 0; s <= max; s++) {
    const { direct, added } = lesson_cat(cat, cat, m + s, n + s, theta);
    rope.push(direct);
    add.push(added);
  }
  return { rope, add };
}

/**
 * Fills the miniature's slots, draws its plot (#mini-plot: both scores over the slider's range,
 * the slider's shift marked) and follows its slider (#mini-shift); nothing when it is absent.
 * The plot is the first chart the page draws: it sets the 'ropescope:first-plot' mark.
 */
export function wireMiniature(root = document) {
  const slider = root.getElementById('mini-shift');
  if (!slider) return;
  const svg = root.getElementById('mini-plot');
  const max = Number(slider.max);
  const { rope, add } = sweep(max);
  const plot = svg
    ? sparkline(svg, {
        lines: [
          { values: rope, className: 'spark-rope', label: 'RoPE' },
          { values: add, className: 'spark-add', label: 'sines added' },
        ],
        xLabel: 'both words moved by',
        yLabel: 'score',
      })
    : null;
  const write = () => {
    const values = miniature(Number(slider.value));
    for (const node of root.querySelectorAll('[data-mini]')) {
      const value = values[node.dataset.mini];
      const score = ['rope', 'add', 'rope2', 'add2'].includes(node.dataset.mini);
      node.textContent = score ? d4(value) : String(value);
      if (typeof value === 'number') node.dataset.value = String(value);
    }
    if (!plot) return;
    plot.mark(values.shift);
    root.getElementById('mini-plot-title').textContent =
      `Both words moved along by 0 to ${max}: RoPE's score stays ${span(rope)}, the score with sines ` +
      `added runs ${span(add)}. Marked: moved by ${values.shift}, RoPE ${d4(values.rope2)}, added ${d4(values.add2)}.`;
  };
  slider.addEventListener('input', write);
  write();
  if (plot) performance.mark('ropescope:first-plot');
}
