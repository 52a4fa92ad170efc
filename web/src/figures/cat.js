// Chapter: rotate instead of add. The word "cat" = [0.9, 0.4] as query at m and key at n,
// each turned by its position times theta, drawn as arrows the reader can drag (pointer, or the
// keyboard on the focused chart). The arc between the arrows is labelled with its measured
// angle, the starting angle plus (m - n) theta. "Slide both words" moves m and n together:
// the RoPE score stays, the additive score (the same pair marked with sinusoids) does not.

import { chartConfig } from '../charts/figure.js';
import { axis, baseOptions, colors } from '../charts/theme.js';
import { lesson_cat, rotate_pair } from '../core/rope.js';
import { el } from '../lib/dom.js';
import { degrees as deg, num } from '../lib/format.js';
import { CAT_INPUTS, chapterRow, d4, keptChart, keptDraw } from './lesson_row.js';

const REACH = 1.5; // the axes run from -REACH to REACH
const MAX_LENGTH = 1.2; // a dragged word is kept within this length
const SLIDE_STEPS = 60;
const SLIDE_BY = 40;

function compute(i) {
  const r = lesson_cat(i.q, i.k, i.m, i.n, i.theta);
  return { ...r, q: i.q.slice(), k: i.k.slice(), m: i.m, n: i.n, theta: i.theta, slid: i.slid };
}

const arrow = (x, y) => [
  { x: 0, y: 0 },
  { x, y },
];

function fill(target, data, c) {
  const [q, k] = target.data.datasets;
  q.data = arrow(data.qm0, data.qm1);
  k.data = arrow(data.kn0, data.kn1);
  q.borderColor = c.rope;
  q.backgroundColor = c.rope;
  k.borderColor = c.add;
  k.backgroundColor = c.add;
}

// The arc from k_n to q_m near the origin, labelled with the core's measured angle (degrees).
const arc = keptDraw('catArc', 'afterDatasetsDraw', '$cat', (chart, d, c) => {
  const { ctx } = chart;
  const { x, y } = chart.scales;
  const ox = x.getPixelForValue(0);
  const oy = y.getPixelForValue(0);
  // Directions on screen (display only: where to draw the arc, not what it measures).
  const screenAngle = (vx, vy) => Math.atan2(y.getPixelForValue(vy) - oy, x.getPixelForValue(vx) - ox);
  const from = screenAngle(d.kn0, d.kn1);
  const radius = Math.min(Math.abs(x.getPixelForValue(0.35) - ox), 60);
  ctx.save();
  ctx.strokeStyle = c.ink;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  // Screen y points down: a positive (counter-clockwise) angle is drawn anticlockwise.
  ctx.arc(ox, oy, radius, from, from - d.after, d.after > 0);
  ctx.stroke();
  // The circle the query's tip runs on, for scale.
  ctx.strokeStyle = c.grid;
  ctx.beginPath();
  ctx.arc(ox, oy, Math.abs(x.getPixelForValue(d.len_qm) - ox), 0, 2 * Math.PI);
  ctx.stroke();
  ctx.fillStyle = c.ink;
  ctx.font = `600 13px ${chart.options.font?.family ?? 'sans-serif'}`;
  // The label sits on the arc's middle direction: the key's tip turned by half the angle (core).
  const kl = Math.hypot(d.kn0, d.kn1) || 1;
  const [mx, my] = rotate_pair(d.kn0 / kl, d.kn1 / kl, d.after / 2);
  const scale = (radius + 14) / Math.abs(x.getPixelForValue(1) - ox);
  const tx = x.getPixelForValue(mx * scale);
  const ty = y.getPixelForValue(my * scale);
  ctx.textAlign = tx < ox ? 'right' : 'left';
  ctx.fillText(degrees(d.after), tx, ty);
  ctx.restore();
});

// Pointer and keyboard on the chart: the arrows' tips move the words (q or k), positions kept.
function wireDrag(canvas, chart, chapter) {
  let dragging = null;
  let chosen = 'q';
  const tip = (which) => {
    const d = chart.$cat;
    return which === 'q' ? [d.qm0, d.qm1] : [d.kn0, d.kn1];
  };
  const pixelOf = ([vx, vy]) => [chart.scales.x.getPixelForValue(vx), chart.scales.y.getPixelForValue(vy)];
  const local = (event) => {
    const box = canvas.getBoundingClientRect();
    return [event.clientX - box.left, event.clientY - box.top];
  };
  // A rotated tip at v: the word is v turned back by its position's angle.
  const setTip = (which, vx, vy) => {
    const i = chapter.inputs;
    const length = Math.hypot(vx, vy);
    if (length > MAX_LENGTH) {
      vx *= MAX_LENGTH / length;
      vy *= MAX_LENGTH / length;
    }
    const angle = -(which === 'q' ? i.m : i.n) * i.theta;
    chapter.set({ [which]: rotate_pair(vx, vy, angle), slid: 0 });
  };
  canvas.addEventListener('pointerdown', (event) => {
    const [px, py] = local(event);
    const near = ['q', 'k']
      .map((w) => [w, Math.hypot(...pixelOf(tip(w)).map((a, j) => a - [px, py][j]))])
      .sort((a, b) => a[1] - b[1])[0];
    if (near[1] > 28) return;
    dragging = near[0];
    chosen = dragging;
    canvas.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  canvas.addEventListener('pointermove', (event) => {
    if (!dragging) return;
    const [px, py] = local(event);
    setTip(dragging, chart.scales.x.getValueForPixel(px), chart.scales.y.getValueForPixel(py));
  });
  const stop = () => {
    dragging = null;
  };
  canvas.addEventListener('pointerup', stop);
  canvas.addEventListener('pointercancel', stop);
  canvas.addEventListener('keydown', (event) => {
    const key = event.key.toLowerCase();
    if (key === 'q' || key === 'k') {
      chosen = key;
      event.preventDefault();
      return;
    }
    const [vx, vy] = tip(chosen);
    let next = null;
    if (event.key === 'ArrowLeft') next = rotate_pair(vx, vy, 0.05); // anticlockwise
    if (event.key === 'ArrowRight') next = rotate_pair(vx, vy, -0.05);
    if (event.key === 'ArrowUp') next = [vx * 1.05, vy * 1.05];
    if (event.key === 'ArrowDown') next = [vx / 1.05, vy / 1.05];
    if (!next) return;
    event.preventDefault();
    setTip(chosen, next[0], next[1]);
  });
}

function createCatChart(canvas, data, chapter) {
  const c = colors(canvas);
  const options = baseOptions(c);
  options.plugins.tooltip.filter = (item) => item.dataIndex > 0;
  options.plugins.tooltip.callbacks = {
    label: (item) => `${item.dataset.label}: (${num(item.parsed.x)}, ${num(item.parsed.y)})`,
  };
  const square = { type: 'linear', min: -REACH, max: REACH, ticks: { stepSize: 0.5 } };
  options.scales = { x: axis(c, 'first number of the pair', square), y: axis(c, 'second number of the pair', square) };
  options.aspectRatio = 1;
  const vec = {
    parsing: false,
    showLine: true,
    fill: false,
    borderWidth: 3,
    pointRadius: [0, 8],
    pointHoverRadius: [0, 9],
  };
  const config = chartConfig(
    'line',
    [
      { label: 'query “cat” at m', ...vec },
      { label: 'key “cat” at n', ...vec },
    ],
    options,
    { plugins: [arc] },
  );
  const legend = [
    { text: 'query, turned by m·θ (drag its tip)', mark: 'line', color: 'var(--c-rope)' },
    { text: 'key, turned by n·θ (drag its tip)', mark: 'line', color: 'var(--c-add)' },
  ];
  const handle = keptChart(canvas, '$cat', { config, data, fill, legend });
  const { chart } = handle;
  canvas.setAttribute('tabindex', '0');
  canvas.setAttribute('aria-keyshortcuts', 'Q K ArrowLeft ArrowRight ArrowUp ArrowDown');
  canvas.classList.add('draggable');
  wireDrag(canvas, chart, chapter);
  return handle;
}

// "Slide both words": m and n move together by SLIDE_BY over SLIDE_STEPS frames; pressed again
// it stops where the words are. Under prefers-reduced-motion the words move in one step.
function slideButton(chapter) {
  const button = el('button', { type: 'button', id: 'cat-slide', 'aria-pressed': 'false' }, 'slide both words');
  const shown = (running) => {
    button.textContent = running ? 'stop sliding' : 'slide both words';
    button.setAttribute('aria-pressed', String(running));
  };
  button.addEventListener('click', () => {
    if (chapter.animating()) {
      chapter.stop();
      return;
    }
    const { m, n } = chapter.inputs;
    const steps = matchMedia('(prefers-reduced-motion: reduce)').matches ? 1 : SLIDE_STEPS;
    shown(true);
    chapter.animate(
      (frame) => {
        const s = Math.round((SLIDE_BY * frame) / steps);
        chapter.set({ m: m + s, n: n + s, slid: s });
        return frame < steps;
      },
      () => shown(false),
    );
  });
  const reset = el('button', { type: 'button', id: 'cat-reset' }, 'back to the post’s cat');
  reset.addEventListener('click', () => chapter.reset());
  return el('div', { class: 'buttons' }, button, reset);
}

// Degrees with a real minus sign.
const degrees = (radians) => deg(radians).replace('-', '−');

const pair = (a, b) => `[${d4(a, 3)}, ${d4(b, 3)}]`;
const gapDeg = (d) => degrees(d.angle_gap);

export default chapterRow({
  name: 'cat',
  title: 'Rotate instead of add: the cat at 3 and at 7',
  lookfor:
    'The word “cat” = [0.9, 0.4] as a query at position m and a key at position n, each turned by its position ' +
    'times θ. Look for: the angle between the arrows is where they started plus (m − n)·θ, so sliding both words ' +
    'keeps it and the score; the additive score moves.',
  fallback: 'The query and the key of one pair, rotated to their positions.',
  embed: 'the cat, rotated',
  inputs: { q: [0.9, 0.4], k: [0.9, 0.4], ...CAT_INPUTS, slid: 0 },
  compute,
  make: createCatChart,
  extras: (chapter) => [
    slideButton(chapter),
    el(
      'p',
      { class: 'hint' },
      'Drag an arrow’s tip, or focus the chart: Q or K picks an arrow, ← → turn it, ↑ ↓ stretch it.',
    ),
  ],
  readout: (d) => [
    el('span', { class: 'score-rope' }, `RoPE score ${d4(d.direct)}`),
    ' · ',
    el('span', { class: 'score-add' }, `additive score ${d4(d.added)}`),
    ` · angle ${degrees(d.after)} = ${degrees(d.start)} + (${d.m} − ${d.n})·θ` +
      (d.slid ? ` · both words slid by ${d.slid}` : ''),
  ],
  caption: (d) =>
    `The arrows start ${degrees(d.start)} apart (the two words’ own directions) and the query turns ` +
    `(m − n)·θ = (${d.m} − ${d.n}) × ${d.theta} = ${gapDeg(d)} more than the key, so they end ${degrees(d.after)} apart ` +
    `and the score is ${d4(d.direct)}. Move both positions by the same amount and nothing between them changes. ` +
    `Query at ${d.m}: ${pair(d.qm0, d.qm1)}, key at ${d.n}: ${pair(d.kn0, d.kn1)}; the length stays ${d4(d.len_qm, 3)}. ` +
    `Adding sinusoidal marks instead gives ${d4(d.added)}, which changes as the words slide.`,
  label: (d) =>
    `Two arrows from the origin: the query at ${d.m} and the key at ${d.n}, ${degrees(d.after)} apart; ` +
    `RoPE score ${d4(d.direct)}, additive score ${d4(d.added)}.`,
});
