// Chapter: where RoPE still breaks, and the fix. The slow pair's angle on a clock face in
// degrees: the wedge is what it swept over the training length, the dot where a long gap puts
// it. "Divide by 8" and "base 10000 -> 500000" pull the dot back inside the wedge; the thin
// second hand is the fast pair (theta = 0.1), which has turned through every angle in training.

import { chartConfig } from '../charts/figure.js';
import { axis, baseOptions, colors } from '../charts/theme.js';
import { lesson_clock, lesson_clock_theta, lesson_rebase } from '../core/rope.js';
import { el } from '../lib/dom.js';
import { num } from '../lib/format.js';
import { box, chapterRow, keptChart, keptDraw, logSlider, trainedRange, wholeTurns } from './lesson_row.js';
import { printed } from './post_rows.js';

const SLOW = 0.0001; // the post's slow pair, radians per position
const FAST = 0.1;
const PAIR = 255; // the slowest pair of d = 512
const DIM = 512;
const OLD_BASE = 10000;
const NEW_BASE = 500000;

function compute(i) {
  const divide = i.divided ? 8 : 1;
  // The wedge is what the model trained on (no divide, the old base); the dot is after the fix.
  const slow = i.rebased
    ? { train: lesson_clock(PAIR, DIM, OLD_BASE, i.train, 1), gap: lesson_clock(PAIR, DIM, NEW_BASE, i.gap, divide) }
    : { train: lesson_clock_theta(SLOW, i.train, 1), gap: lesson_clock_theta(SLOW, i.gap, divide) };
  // Pair PAIR at the gap under each base, against what it swept in training at the old one.
  const trained = lesson_clock(PAIR, DIM, OLD_BASE, i.train, 1);
  const pair = [OLD_BASE, NEW_BASE].map((base) => {
    const at = lesson_clock(PAIR, DIM, base, i.gap, 1);
    return { base, at, ...trainedRange(at, trained) };
  });
  return {
    ...slow,
    ...trainedRange(slow.gap, slow.train),
    pair,
    gapLength: i.gap,
    trainLength: i.train,
    divide,
    rebased: i.rebased,
    rebase: lesson_rebase(PAIR, DIM, OLD_BASE, NEW_BASE, i.gap, i.train),
    fast: lesson_clock_theta(FAST, i.gap),
    fastTrain: lesson_clock_theta(FAST, i.train),
    post: {
      train: lesson_clock_theta(SLOW, 8192),
      gap: lesson_clock_theta(SLOW, 50000),
      divided: lesson_clock_theta(SLOW, 50000, 8),
    },
  };
}

const RAD = Math.PI / 180;
const fmt = (deg) => `${deg.toFixed(1)}°`;

// The face: circle, training wedge, slow dot and hand, fast second hand (angles from 12 o'clock,
// clockwise; the canvas turns the hands, the angles are the core's).
const face = keptDraw('clockFace', 'afterDatasetsDraw', '$clock', (chart, d, c) => {
  const { ctx, chartArea: a } = chart;
  const cx = (a.left + a.right) / 2;
  const cy = (a.top + a.bottom) / 2;
  const r = Math.min(a.right - a.left, a.bottom - a.top) / 2 - 24;
  if (r <= 4) return;
  const up = -Math.PI / 2;
  ctx.save();
  ctx.fillStyle = c.fill;
  ctx.beginPath();
  ctx.moveTo(cx, cy);
  const sweep = Math.min(d.train.degrees, 360);
  ctx.arc(cx, cy, r, up, up + sweep * RAD);
  ctx.closePath();
  ctx.fill();
  ctx.strokeStyle = c.muted;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, 2 * Math.PI);
  ctx.stroke();
  ctx.fillStyle = c.muted;
  ctx.font = `12px ${chart.options.font?.family ?? 'sans-serif'}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const [deg, text] of [
    [0, '0°'],
    [90, '90°'],
    [180, '180°'],
    [270, '270°'],
  ]) {
    ctx.save();
    ctx.translate(cx, cy);
    ctx.rotate(up + deg * RAD);
    ctx.translate(r + 14, 0);
    ctx.rotate(-(up + deg * RAD));
    ctx.fillText(text, 0, 0);
    ctx.restore();
  }
  const hand = (deg, length, color, width, dot) => {
    ctx.save();
    ctx.translate(cx, cy);
    ctx.rotate(up + deg * RAD);
    ctx.strokeStyle = color;
    ctx.fillStyle = color;
    ctx.lineWidth = width;
    ctx.beginPath();
    ctx.moveTo(0, 0);
    ctx.lineTo(length, 0);
    ctx.stroke();
    if (dot) {
      ctx.beginPath();
      ctx.arc(length, 0, 7, 0, 2 * Math.PI);
      ctx.fill();
    }
    ctx.restore();
  };
  hand(d.fast.dial, r * 0.92, c.muted, 1, false);
  hand(d.gap.dial, r, d.inside ? c.rope : c.add, 3, true);
  // The dial forgets whole turns; the label keeps them, so a dot back over the wedge after a
  // turn still reads as the angle it is.
  if (d.turns >= 1) {
    ctx.save();
    ctx.translate(cx, cy);
    ctx.rotate(up + d.gap.dial * RAD);
    ctx.translate(r * 0.62, 0);
    ctx.rotate(-(up + d.gap.dial * RAD));
    ctx.fillStyle = d.inside ? c.rope : c.add;
    ctx.font = `bold 13px ${chart.options.font?.family ?? 'sans-serif'}`;
    ctx.fillText(turnsMark(d), 0, 0);
    ctx.restore();
  }
  ctx.restore();
});

function createClockChart(canvas, data) {
  const c = colors(canvas);
  const options = baseOptions(c);
  options.plugins.tooltip.enabled = false;
  options.scales = {
    // Hidden axes, still in the theme's colours (a re-theme or an export reads them).
    x: axis(c, '', { type: 'linear', display: false, min: -1, max: 1 }),
    y: axis(c, '', { type: 'linear', display: false, min: -1, max: 1 }),
  };
  const config = chartConfig('line', [{ label: 'clock', data: [] }], options, { plugins: [face] });
  const legend = [
    { text: 'angles the slow pair swept in training (before any fix)', mark: 'box', color: 'var(--c-fill)' },
    {
      text: 'slow pair at the gap (blue inside, orange outside; +k turns: whole turns the dial hides)',
      mark: 'disc',
      color: 'var(--c-add)',
    },
    { text: 'fast pair (θ = 0.1), second hand', mark: 'line', color: 'var(--ink-muted)' },
  ];
  return keptChart(canvas, '$clock', { config, data, fill: () => {}, legend });
}

function toggle(chapter, key, id, text) {
  const box = el('input', { type: 'checkbox', id });
  box.checked = chapter.inputs[key];
  box.addEventListener('change', () => chapter.set({ [key]: box.checked }));
  chapter.onSet((_, inputs) => {
    box.checked = inputs[key];
  }, box);
  return el('div', { class: 'control lock' }, box, el('label', { for: id }, text));
}

/** The label drawn by the dot past a whole turn: "+1 turn", "+7 turns". */
const turnsMark = (d) => `+${d.turns} turn${d.turns === 1 ? '' : 's'}`;

// Why the dot is inside or outside, after "it has turned X° (r rad)".
function verdict(d) {
  if (d.covered) return '; training swept a whole turn, so every angle is one it met';
  if (d.inside) return `, no more than the ${fmt(d.train.degrees)} training reached`;
  const past = `${wholeTurns(d.turns)} and ${fmt(d.gap.dial)}`;
  if (d.wrapped) {
    return (
      `: ${past}. On the dial it lands in the wedge, but only after ${wholeTurns(d.turns)} past ` +
      `the ${fmt(d.train.degrees)} training reached: an angle the model never met`
    );
  }
  return `${d.turns >= 1 ? ` (${past})` : ''}, past the ${fmt(d.train.degrees)} training reached`;
}

// Pair PAIR's angle at the gap under one base, with its verdict (the readout's words).
const pairAt = (p) =>
  `${fmt(p.at.degrees)} at base ${p.base} (${p.inside ? 'inside' : p.turns >= 1 ? `outside, ${wholeTurns(p.turns)} and ${fmt(p.at.dial)}` : 'outside'})`;

const slowName = (d) => (d.rebased ? `pair ${PAIR} of d ${DIM}` : `the slow pair (θ = ${SLOW})`);
const fixName = (d) =>
  [d.rebased ? `base ${OLD_BASE} → ${NEW_BASE}` : '', d.divide > 1 ? `divided by ${d.divide}` : '']
    .filter(Boolean)
    .join(' and ');

export default chapterRow({
  name: 'clock',
  title: 'Long context: the slow pair leaves its training range',
  lookfor:
    'The slow pair’s angle as a clock hand. The shaded wedge is every angle it reached in training. ' +
    'Look for: at a gap of 50,000 the dot lands far outside the wedge; dividing by 8, or a larger base, brings it back in.',
  fallback: 'A clock face: the slow pair’s training wedge and its angle at a long gap.',
  embed: 'the slow pair on a clock',
  inputs: {
    gap: logSlider(50000, 'gap between the words', 0, 1000000, { hint: 'log scale', marks: [8192, 50000] }),
    train: box(8192, 'training length', 1, 131072),
    divided: false,
    rebased: false,
  },
  compute,
  make: createClockChart,
  extras: (chapter) => [
    toggle(chapter, 'divided', 'clock-divide', 'divide the angle by 8'),
    toggle(chapter, 'rebased', 'clock-base', `base 10000 → 500000 (pair ${PAIR} of d ${DIM})`),
  ],
  readout: (d) =>
    `Pair ${PAIR} of d ${DIM}, the slowest${d.rebased ? ' (on the dial)' : ` (the dial shows the post’s θ = ${SLOW})`}, ` +
    `turns ${d.rebase.theta_old.toPrecision(3)} rad per position at base ${OLD_BASE} and ` +
    `${d.rebase.theta_new.toPrecision(3)} at base ${NEW_BASE} (${num(d.rebase.ratio, 3)}× slower); ` +
    `at gap ${d.gapLength} it has turned ` +
    `${d.pair.map(pairAt).join(' and ')}, against ${fmt(d.rebase.train_old)} swept in training.`,
  caption: (d) =>
    `The dot is ${d.inside ? 'inside' : 'outside'} the training range: ${slowName(d)} ` +
    `swept ${fmt(d.train.degrees)} over ${d.trainLength} training positions, and at a gap of ${d.gapLength}` +
    `${fixName(d) ? ` with ${fixName(d)}` : ''} it has turned ${fmt(d.gap.degrees)} (${num(d.gap.radians)} rad)` +
    `${verdict(d)}. Inside means an angle no larger than the largest training reached, or any angle once ` +
    `training swept a whole turn. The post’s numbers: ${SLOW} × 8192 = ` +
    `${num(d.post.train.radians)} rad = ${fmt(d.post.train.degrees)}; ${SLOW} × 50,000 = ${num(d.post.gap.radians)} rad = ` +
    `${fmt(d.post.gap.degrees)} (the post says ${printed('clock.gap.deg')}°); divided by 8, ${num(d.post.divided.radians)} rad = ` +
    `${fmt(d.post.divided.degrees)}. ` +
    `The fast pair turned ${num(d.fastTrain.turns)} times in training, so every angle is familiar to it.`,
  label: (d) =>
    `Clock face: training wedge ${fmt(d.train.degrees)}, slow pair at ${fmt(d.gap.dial)}` +
    `${d.turns >= 1 ? ` after ${wholeTurns(d.turns)}` : ''} for gap ${d.gapLength}, ` +
    `${d.inside ? 'inside' : 'outside'} the training range.`,
});
