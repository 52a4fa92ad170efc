// The lesson's essay after its first chapter: each chapter's opening paragraphs, in the post's
// order, keyed by the chapter's name (essays.js holds the first chapter's and the summary's and
// renders them all). The page loads this with the first figure it builds after the first screen. A paragraph's {slot} is filled by slots(data, inputs) from the chapter's own data
// (the core's numbers, recomputed with its chart) or from rope.js, never typed (lesson_row.js's
// essay() renders and rewrites them). Only the page reads this table: an embedded figure comes
// without its prose, and its script without these words.

import { lesson_clock_theta, lesson_identity, lesson_marks, lesson_slot, THETA_BASE, thetas } from '../core/rope.js';
import { d4 } from './lesson_row.js';

// The raised base of the clock's second fix, as clock.js draws it: Llama 3's.
const LLAMA3_BASE = 500000;

const vec = (v) => `[${v.map((x) => d4(x, 4)).join(', ')}]`;

// The post's sub-points of the marks, from the core: one sine repeats (positions 0, 6 and 13 under
// a wave of 1 radian per position), a sine alone confuses 30° and 150°, and speeds spaced by a
// factor rather than a step (a real model's 512 dimensions: how many of its 256 pairs take more
// than 100 positions for one turn, either way, between the same fastest and slowest speeds).
const REPEAT = [0, 6, 13];
const DEGREE = Math.PI / 180;
const SPREAD_DIM = 512;
const SPREAD_TURN = 100;
let spread = null;
function speedSpread() {
  if (spread) return spread;
  const exp = thetas(SPREAD_DIM);
  const [fast, slow] = [exp[0], exp.at(-1)];
  const even = exp.map((_, i) => fast + ((slow - fast) * i) / (exp.length - 1));
  const long = (list) => list.filter((theta) => (2 * Math.PI) / theta > SPREAD_TURN).length;
  spread = { pairs: exp.length, factor: exp[0] / exp[1], exp: long(exp), even: long(even) };
  return spread;
}
function subPoints(width) {
  const marks = lesson_marks(REPEAT, width);
  const [a, b] = [lesson_identity(30 * DEGREE, 0), lesson_identity(150 * DEGREE, 0)];
  const s = speedSpread();
  return {
    s0: [marks[0][0], 3],
    s6: [marks[1][0], 3],
    s13: [marks[2][0], 3],
    t6: [lesson_clock_theta(1, REPEAT[1]).turns, 2],
    t13: [lesson_clock_theta(1, REPEAT[2]).turns, 2],
    slow0: [marks[0][width - 2], 3],
    slow6: [marks[1][width - 2], 3],
    slow13: [marks[2][width - 2], 3],
    sin30: [a.sin_a, 3],
    sin150: [b.sin_a, 3],
    cos30: [a.cos_a, 3],
    cos150: [b.cos_a, 3],
    spreadDim: SPREAD_DIM,
    spreadPairs: s.pairs,
    factor: [s.factor, 4],
    turnLength: SPREAD_TURN,
    expLong: s.exp,
    evenLong: s.even,
  };
}

// The post's slow pair against its fast pair (θ = 0.0001 and 0.1 rad per position): the slow pair
// at 3000 has turned as far as the fast one at 3.
const FAST = { theta: 0.1, at: 3 };
const SLOW = { theta: 0.0001, at: 3000 };

const PROSE = {
  slot: {
    prose: [
      'The bluntest mark: add the slot number to every entry of the stick. “nolan” {stick} at slot 1 becomes ' +
        '{one} and at slot 5 {five}. The order is now visible, but watch what it costs the word.',
      'At slot {slot} the added part is {share}% of the two lengths together, and the stick points along ' +
        '[1, 1, 1, 1] with a cosine of {ones}. Every word drifts toward that one direction: the position drowns the meaning. ' +
        'And the number has no ceiling: a slot past the longest training sequence adds a value the model never met.',
    ],
    slots: (d) => ({
      stick: `[${d.stick.join(', ')}]`,
      one: `[${lesson_slot(d.stick, 1).sum.join(', ')}]`,
      five: `[${lesson_slot(d.stick, 5).sum.join(', ')}]`,
      slot: d.slot,
      share: [100 * d.share, 2],
      ones: [d.cos_pos, 4],
    }),
  },
  normalized: {
    prose: [
      'Shrink it, then: divide the slot by the length of the sequence, so the mark stays between 0 and 1. ' +
        'Trained on sequences of {train}, slot {slot} is marked {trained}.',
      'But lengths change. When a sequence of {length} arrives, the same slot is marked {now}, and everything ' +
        'the model learned about that slot points at a different number. One number is being asked to be bounded, ' +
        'unique and a measure of distance all at once; it cannot be all three.',
    ],
    slots: (d) => ({ train: d.train, slot: d.slot, length: d.length, trained: [d.trained, 4], now: [d.now, 4] }),
  },
  marks: {
    prose: [
      'So give each position a whole vector, one number per dimension, made of sines and cosines: they stay ' +
        'between −1 and 1 and always give one position the same value. One wave alone is not enough: it comes ' +
        'round again. A sine turning 1 radian per position marks position 0 with {s0}, 6 with {s6} and 13 with ' +
        '{s13}, for 6 and 13 lie {t6} and {t13} turns along, close to whole turns. Even inside one turn a sine ' +
        'repeats itself: sin 30° = {sin30} = sin 150° ({sin150}). The cosine of the same angle tells them apart ' +
        '({cos30} against {cos150}), so every pair of dimensions holds a sine and a cosine.',
      'Then give each pair its own speed, each slower than the last by the same factor: fast pairs tell neighbours ' +
        'apart, slow ones distant slots. At width {width} the slowest pair needs {slowest} positions for one turn, and ' +
        'it marks 0, 6 and 13 with {slow0}, {slow6} and {slow13}, apart where the fast one was not. Why a factor and ' +
        'not a step? Across a real model’s {spreadDim} dimensions ({spreadPairs} pairs, each {factor} times slower ' +
        'than the last), {expLong} pairs take more than {turnLength} positions for a turn; speeds spaced evenly ' +
        'between the same fastest and slowest would leave {evenLong}, the rest bunched among the fast.',
      'No two rows of the chart match. But the mark is added: “nolan” at slot 3 becomes {nolan}. That is the first ' +
        'of three failures of added marks, the mixing: meaning and position are now one vector, and the query and ' +
        'key grids must pull them apart again.',
    ],
    slots: (d) => ({ width: d.width, slowest: [d.slowest, 0], nolan: vec(d.nolan), ...subPoints(d.width) }),
  },
  extrapolate: {
    prose: [
      'The second failure: extrapolation. A mark exists for every position, but a model trained on {train} ' +
        'positions has met only their marks. One number of a far mark may look familiar; the whole vector of them does not.',
      'Each bar is the range one dimension covered in training, the dot its value at the position you choose. ' +
        'At position {pos}, {outside} of the {width} values fall outside their range. The slow dimensions leave first: ' +
        'training turned them through only a sliver of a circle.',
    ],
    slots: (d) => ({ train: d.train, pos: d.pos, outside: d.outside.filter((o) => o).length, width: d.width }),
  },
  identity: {
    prose: [
      'The third failure is the deepest. Attention should care how far apart two words are, not where each sits. ' +
        'The waves do hold the gap: by the angle-sum identity, the mark of a + b follows from the mark of a and the gap b alone.',
      'Here sin {sum} is built from the marks of {a} and {b}: {first} + {second} = {total}, the value of sin {sum} ' +
        'itself. But attention never forms that sum. It dots two marked vectors, and the identity is buried in ' +
        'the product; the model would have to learn to dig it out. The next step makes the dot product do it by construction.',
    ],
    slots: (d) => ({
      sum: d.a + d.b,
      a: d.a,
      b: d.b,
      first: [d.sa_cb, 4],
      second: [d.ca_sb, 4],
      total: [d.sin_sum, 4],
    }),
  },
  cat: {
    prose: [
      'Rotary embedding stops adding. It turns each pair of a word’s numbers by an angle that grows with its ' +
        'position: m·θ at position m. A turn changes the direction and keeps the length, so the word stays itself ' +
        '(the cat’s length is {length} wherever it sits).',
      'The post’s cat, a query at {m} and a key at {n} with θ = {theta}: turning from the key to the query takes ' +
        '{angle}°, and they score {rope}. Press “slide both words”: both arrows turn by the same extra angle, so the angle between them and ' +
        'the score hold, while the same pair with sine marks added scores {added} and moves as they slide.',
    ],
    slots: (d) => ({
      length: [d.len_qm, 4],
      m: d.m,
      n: d.n,
      theta: d.theta,
      angle: [d.after_deg, 1],
      rope: [d.direct, 4],
      added: [d.added, 4],
    }),
  },
  proof: {
    prose: [
      'Why only the gap? Write out the two turned vectors and multiply. Eight products of sines and cosines ' +
        'appear; gathered by q₁k₁, q₁k₂, q₂k₁ and q₂k₂ they are the cosine and sine of one difference, mθ − nθ. ' +
        'The positions survive only as m − n.',
      'Two terms are left. Here q is {q} and k is {k}. The first weighs cos((m − n)θ) by q·k, how alike the two vectors are: {dot}, ' +
        'giving {cosTerm}. The second weighs sin((m − n)θ) by q×k, how far one is turned from the other: here {cross}, ' +
        'giving {sinTerm}. Make k equal to q and that weight vanishes, so the sine drops out of sight; a key turned ' +
        'away from the query keeps it at work. Together {result}, for the query at {m} and the key at {n}, and ' +
        'every bar of the chart is that one number. Nothing here is learned: the geometry does it.',
    ],
    slots: (d, i) => ({
      q: `[${i.q1}, ${i.q2}]`,
      k: `[${i.k1}, ${i.k2}]`,
      m: d.m,
      n: d.n,
      dot: [d.dot, 4],
      cross: [d.cross, 4],
      cosTerm: [d.cosTerm, 4],
      sinTerm: [d.sinTerm, 4],
      result: [d.result, 4],
    }),
  },
  planes: {
    prose: [
      'A real head is wider than two numbers. RoPE cuts a {dim}-number vector into {pairs} pairs and turns each in ' +
        'its own plane, at the same spread of speeds as the sinusoidal marks. The proof holds in every plane ' +
        'alone, so it holds for their sum. The slow planes see what the fast ones see, further out: a pair turning ' +
        '{slowTheta} rad per position has turned {slowAngle} rad at position {slowAt}, as far as a pair turning ' +
        '{fastTheta} at position {fastAt} ({fastAngle} rad).',
      'Each bar is one plane’s share of a random token scored against itself at {m} and {n}: together ' +
        '{score}. Move both {shift} positions along and the total is {moved}. The gap is kept in every plane; what ' +
        'can still go wrong lives in the slow ones.',
    ],
    slots: (d) => ({
      dim: 2 * d.terms.length,
      pairs: d.terms.length,
      m: d.m,
      n: d.n,
      shift: d.shift,
      score: [d.score, 4],
      moved: [d.moved, 4],
      slowTheta: [SLOW.theta, 4],
      slowAt: SLOW.at,
      slowAngle: [lesson_clock_theta(SLOW.theta, SLOW.at).radians, 4],
      fastTheta: [FAST.theta, 1],
      fastAt: FAST.at,
      fastAngle: [lesson_clock_theta(FAST.theta, FAST.at).radians, 4],
    }),
  },
  clock: {
    prose: [
      'RoPE still breaks at long range, in its slow pairs. Depending only on the gap lets a model reuse what it ' +
        'learned anywhere in a sequence, but not a gap it never saw. Over {train} training positions the slow pair ' +
        '({slowTheta} rad per position) swept {wedge}° of its circle (the shaded ' +
        'wedge); at a gap of {gap} it points at {dial}°, {verdict}.',
      'The fix slows the slow pairs so far gaps fall back inside: divide every frequency by {divide}, or raise the ' +
        'base from {oldBase} to {newBase}, as Llama 3 did for its 128K context. Try both buttons. The fast pair is ' +
        'no worry: it turns {turns} times over the same training length.',
    ],
    slots: (d) => ({
      train: d.trainLength,
      slowTheta: [d.train.theta, 6],
      wedge: [d.train.degrees, 1],
      gap: d.gapLength,
      dial: [d.gap.dial, 1],
      verdict: d.inside ? 'inside the wedge' : 'outside the wedge: an angle training never showed',
      divide: 8,
      oldBase: THETA_BASE,
      newBase: LLAMA3_BASE,
      turns: [d.fastTrain.turns, 1],
    }),
  },
  weights: {
    prose: [
      'The angle is fixed; the model is not. Of the {gaps} gaps up to {widest}, {before} have an angle the slowest ' +
        'pair met in training at base {oldBase}, and {after} at base {base}. Yet only {seen} of them ever fit inside ' +
        'one training sequence of {train}, whatever the base: the weights never practised joining words that far apart.',
      'So the recipe has three parts: raise the base, keep training on long documents, and pick documents that ' +
        'truly need long-range attention. The geometry is free; using it across a long gap has to be learned. ' +
        'The last figure of the lesson checks every number the post prints.',
    ],
    slots: (d) => ({
      gaps: d.gaps,
      widest: d.widest,
      before: d.inside_old,
      after: d.inside_new,
      oldBase: THETA_BASE,
      base: d.base,
      seen: d.seen,
      train: d.train,
    }),
  },
};

/** The opening paragraphs of the chapters after the first (essays.js has the first chapter's and
 *  the summary's), by chapter name: { prose: [paragraph...], slots(data, inputs) }. */
export const CHAPTER_PROSE = Object.freeze(PROSE);
