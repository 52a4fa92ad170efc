// Chapter: what the fix leaves undone. For the slowest pair of the post's d = 512 model, over every
// whole gap up to the widest the reader asks about, two shares before and after raising the base:
// the gaps whose angle lands inside the wedge training reached (the base moves it), and the gaps
// short enough to have occurred inside one training sequence (no base can move it). Then the
// post's recipe and its token counts, marked as the post's claims.

import { axis, categoryAxis } from '../charts/theme.js';
import { lesson_clock, lesson_normalized, lesson_weights } from '../core/rope.js';
import { el } from '../lib/dom.js';
import { num, thousands } from '../lib/format.js';
import { box, chapterRow, indexChart, logSlider, slider, trainedRange, wholeTurns } from './lesson_row.js';
import { postRow } from './post_rows.js';

const DIM = 512;
const PAIR = DIM / 2 - 1; // the slowest pair
const OLD_BASE = 10000;
const MEASURES = ['angle inside the range training reached', 'gap as short as a training sequence'];

function compute(i) {
  const w = lesson_weights(PAIR, DIM, OLD_BASE, i.base, i.train, i.widest);
  // The widest gap under each base, judged as the counts judge every gap (and the clock its dot).
  const trained = lesson_clock(PAIR, DIM, OLD_BASE, i.train, 1);
  const far = [OLD_BASE, i.base].map((base) => {
    const at = lesson_clock(PAIR, DIM, base, Math.floor(i.widest), 1);
    return { at, ...trainedRange(at, trained) };
  });
  return { ...w, far, base: i.base, train: i.train, widest: i.widest };
}

const pct = (share) => `${num(100 * share, 3)}%`;
const deg = (x) => `${x.toFixed(1)}°`;
// Radians per position as the post writes them (0.000104, 0.0000021), not in e-notation.
const speed = (theta) => theta.toPrecision(3);

function fill(target, data) {
  const [before, after] = target.data.datasets;
  target.data.labels = MEASURES;
  before.data = [100 * data.share_old, 100 * data.share_seen];
  after.data = [100 * data.share_new, 100 * data.share_seen];
  before.label = `base ${thousands(OLD_BASE)} (as trained)`;
  after.label = `base ${thousands(data.base)} (raised)`;
}

function createWeightsChart(canvas, data) {
  return indexChart(canvas, data, fill, {
    scales: (c) => ({
      x: categoryAxis(c, 'what a gap has in common with training'),
      y: axis(c, 'share of the gaps 0 … widest, %', { type: 'linear', min: 0, max: 100 }),
    }),
    datasets: [
      { label: '', data: [], color: 'add', key: `base ${thousands(OLD_BASE)}, the one the model was trained with` },
      { label: '', data: [], color: 'rope', key: 'the raised base' },
    ],
  });
}

// The chapter's words: what the base change cannot do, the post's recipe, and its token counts
// (claims the page cannot compute; only their ratio is arithmetic, checked in the post's table).
function words() {
  const cheaper = postRow('weights.cheaper');
  const longer = lesson_normalized(131072, 8192);
  return el(
    'div',
    { class: 'chapter-text', id: 'weights-text' },
    el(
      'p',
      {},
      'A larger base only changes where a gap’s angle lands. The weights that read those angles were fitted ' +
        'on sequences of a fixed length, so they have never had to connect two tokens further apart than that. ' +
        'The figure shows both halves: the angles come back into familiar range, the practice does not appear.',
    ),
    el('p', {}, 'So the post’s recipe for a longer context has three parts:'),
    el(
      'ol',
      {},
      el('li', {}, 'raise the base, so that long gaps turn the slow pairs no further than training did;'),
      el('li', {}, 'keep training on long documents, so the weights meet long gaps at all;'),
      el(
        'li',
        {},
        'pick documents whose meaning depends on far-apart parts (papers, books, code that calls across files), ' +
          'not short texts padded to length.',
      ),
    ),
    el(
      'p',
      { class: 'post-claim' },
      el('strong', {}, 'The post’s claims, not computed here: '),
      `Llama 3 took 800 billion tokens of such training to stretch its context from 8K to 128K ` +
        `(${num(longer)} times longer); later work from Cerebras reached the same quality with under 10 billion, ` +
        'by building training data that forces long-range attention. ',
      `The one piece of arithmetic in it, 800 ÷ 10 = ${num(cheaper.value)}, is the post’s ` +
        `“${cheaper.text}× cheaper” ${cheaper.match ? '✓' : '✗'}.`,
    ),
  );
}

// One base's angle at the widest gap and its verdict: "368.2° (outside, 1 whole turn and 8.2°)".
const farAt = (p) =>
  `${deg(p.at.degrees)} (${p.inside ? 'inside' : p.turns >= 1 ? `outside, ${wholeTurns(p.turns)} and ${deg(p.at.dial)}` : 'outside'})`;

// How far the raised base keeps the slow pair inside the wedge (all the way once training has
// swept a whole turn).
const reach = (d) =>
  d.wedge >= 360
    ? 'training swept a whole turn, so every angle is familiar'
    : `every gap up to ${thousands(Math.floor(d.reach))} now stays inside ${deg(d.wedge)}`;

export default chapterRow({
  name: 'weights',
  title: 'The angles are fixed; the weights still lack practice',
  lookfor:
    'Every gap from 0 up to the widest one asked about, measured two ways for the slowest pair. Look for: raising ' +
    'the base lifts the first pair of bars, but the second pair never moves.',
  fallback: 'Share of gaps whose angle was seen in training, and share that occurred in training, before and after.',
  embed: 'what a larger base cannot fix',
  inputs: {
    widest: logSlider(50000, 'widest gap', 0, 1000000, { hint: 'log scale', marks: [8192, 50000] }),
    base: slider(500000, 'raised base', 10000, 10000000, 10000),
    train: box(8192, 'training length', 1, 1000000),
  },
  compute,
  make: createWeightsChart,
  readout: (d) => [
    `Pair ${PAIR} of d ${DIM} turns ${speed(d.theta_old)} rad per position at base ${thousands(OLD_BASE)} and ` +
      `${speed(d.theta_new)} at base ${thousands(d.base)}; over ${thousands(d.train)} positions it reached ${deg(d.wedge)}. `,
    `At gap ${thousands(d.widest)} it has turned ${d.far.map(farAt).join(' before and ')} after. `,
    `Of the ${thousands(d.gaps)} gaps from 0 to ${thousands(d.widest)}, ${thousands(d.inside_old)} land inside ` +
      `${deg(d.wedge)} at base ${thousands(OLD_BASE)} and ${thousands(d.inside_new)} at base ${thousands(d.base)}; ` +
      `under either base only ${thousands(d.seen)} fit in a training sequence.`,
    ...(d.gaps > d.turn_old
      ? [
          ` Past ${thousands(Math.round(d.turn_old))} the pair has made a whole turn at base ${thousands(OLD_BASE)}: ` +
            'longer gaps come round over the wedge on the dial, but at angles training never reached, so they ' +
            'do not count as inside.',
        ]
      : []),
  ],
  notes: () => words(),
  caption: (d) =>
    `${d.share_new > d.share_old ? 'The raised base lifts the first pair of bars' : 'The first pair of bars stays level'}, ` +
    `and the second pair does not move. Up to gap ${thousands(d.widest)}, the slow pair’s angle is one training ` +
    `produced for ${pct(d.share_old)} of the gaps at base ${thousands(OLD_BASE)} and for ${pct(d.share_new)} at base ` +
    `${thousands(d.base)} (${reach(d)}). ` +
    `But only ${pct(d.share_seen)} of those gaps, the ones up to ${thousands(d.train)}, ever occurred inside a ` +
    'training sequence, whatever the base: the geometry is fixed, the weights’ experience is not.',
  label: (d) =>
    `Bar chart: angle inside the training range for ${pct(d.share_old)} of gaps up to ${thousands(d.widest)} ` +
    `before and ${pct(d.share_new)} after raising the base to ${thousands(d.base)}; gap seen in training for ` +
    `${pct(d.share_seen)} both before and after.`,
});
