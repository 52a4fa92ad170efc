// state -> numbers: every figure's data from the wasm core, as plain arrays.
// One call per chart; nothing here touches the page. Results that a setting does not
// touch are reused (memo), so a gap sweep recomputes only what depends on the gap.

import { ROPE_REPORT_DEFAULT_NORM_POSITIONS, ROPE_REPORT_DEFAULT_STARTS } from '../../gen/rope_consts.js';
import * as rope from '../core/rope.js';

// The report's fixed settings (report.h, through the generated rope_consts.js).
export const REPORT_STARTS = ROPE_REPORT_DEFAULT_STARTS;
export const NORM_POSITIONS = ROPE_REPORT_DEFAULT_NORM_POSITIONS;
// Positions up to here keep the contract's accuracy by definition (docs/SPEC.md, "Accuracy");
// past it the angle error grows (the core refuses positions past ROPE_MAX_POSITION).
export const ACCURATE_UP_TO = 4096;

/** The largest position the figures rotate by: the query of the sweep's last start. */
export const farthestPosition = ({ to, gap }) => to + gap;

// Log-spaced gaps from 1 to 1e6 for the slow-pair curve (0.02 decade apart).
const SLOW_POINTS = 301;
export const SLOW_GAPS = Array.from({ length: SLOW_POINTS }, (_, i) => 10 ** ((6 * i) / (SLOW_POINTS - 1)));

// Long-range decay: distances 1..1e6 (0.05 decade apart), the mean over DECAY_SAMPLES
// random vectors drawn from DECAY_SEED (fixed, so the curve does not change with q, k).
const DECAY_POINTS = 121;
export const DECAY_DISTANCES = Array.from({ length: DECAY_POINTS }, (_, i) => 10 ** ((6 * i) / (DECAY_POINTS - 1)));
export const DECAY_SAMPLES = 1000;
export const DECAY_SEED = 1;

// The additive breakdown: every start from `from`, ADDITIVE_STARTS of them.
export const ADDITIVE_STARTS = 256;

// The heatmap: positions 0..HEAT_POSITIONS-1, at most HEAT_PAIRS pairs (evenly spaced past that).
export const HEAT_POSITIONS = 128;
export const HEAT_PAIRS = 64;

// The unit circle of the rotating-pair figure: CIRCLE_POINTS + 1 points, 2π/CIRCLE_POINTS apart.
const CIRCLE_POINTS = 96;

let memos = new Map();
/**
 * fn() for these key values, computed once while they stay the same (one slot per name). A
 * figures-table row may keep its data here too (under its own name).
 */
export function memo(name, keys, fn) {
  const key = JSON.stringify(keys);
  const hit = memos.get(name);
  if (hit && hit.key === key) return hit.value;
  const value = fn();
  memos.set(name, { key, value });
  return value;
}

/**
 * fn() with results of its own: the page's remembered ones stay as they are. For numbers at
 * other settings than the page's (the embed builder's alt texts, at the defaults), which would
 * otherwise push the page's results out of their one slot each.
 */
export function apart(fn) {
  const kept = memos;
  memos = new Map();
  try {
    return fn();
  } finally {
    memos = kept;
  }
}

/** q and k: the demo vectors (seed 0) or random ones from the seed. */
export function vectors(dim, seed = 0) {
  return memo('vectors', [dim, seed], () => (seed === 0 ? rope.demo_vectors(dim) : rope.random_vectors(dim, seed)));
}

const spread = (values) => (values.length ? Math.max(...values) - Math.min(...values) : 0);

/** Figure 1's starts: every integer start in [from, to] in at most n bins (one start per bin when it fits). */
export function sweepPlan({ from, to, n }) {
  const starts = Math.floor(to) - Math.ceil(from) + 1;
  return { starts, bins: Math.min(starts, n) };
}

function flatness(q, k, { dim, base, gap, from, to, n, seed }) {
  return memo('flatness', [dim, base, gap, from, to, n, seed], () => {
    const { starts, bins } = sweepPlan({ from, to, n });
    const env = rope.offset_envelope(q, k, gap, from, to, bins, base);
    return { ...env, starts, bins };
  });
}

/** Everything the figures, captions and readout show for one state. Each figure's part is
 * computed when first read (a getter, through memo), so a render that shows one figure (an
 * embed, or the first chapter before the page has painted) pays for that one only. */
export function computeModel(live) {
  // The settings as they are now: a getter read after the page's state has moved on still
  // answers for this model.
  const state = { ...live };
  const { dim, base, gap, seed } = state;
  const [q, k] = vectors(dim, seed);
  // Every integer start from `from` to `to`, query at start + gap, key at start.
  const sweep = () => flatness(q, k, state);
  const report = () => memo('report', [dim, base, gap, seed], () => rope.offset_scan(q, k, gap, REPORT_STARTS, base));
  const angles = () => memo('angles', [dim, gap, base], () => rope.pair_angles(dim, gap, base));

  return {
    pairs: Math.floor(dim / 2),
    q,
    k,
    get angles() {
      return angles();
    },
    get turns() {
      return memo('turns', [dim, gap, base], () => rope.turns(dim, gap, base));
    },
    get sweep() {
      return sweep();
    },
    get marked() {
      return report()
        .filter(([s]) => s >= state.from && s <= state.to)
        .map(([s, , add]) => ({ x: s, y: add }));
    },
    get spreads() {
      const env = sweep();
      const rows = report();
      return {
        rope: Math.max(...env.rope_max) - Math.min(...env.rope_min),
        add: Math.max(...env.add_max) - Math.min(...env.add_min),
        reportRope: spread(rows.map((row) => row[1])),
        reportAdd: spread(rows.map((row) => row[2])),
      };
    },
    get slow() {
      return {
        gaps: SLOW_GAPS,
        counts: memo('slow', [dim, base], () => rope.slow_pairs_batch(dim, SLOW_GAPS, base)),
        now: memo('slowNow', [dim, base, gap], () => rope.slow_pairs(dim, gap, base)),
      };
    },
    get norm() {
      const normGaps = memo('norm', [dim, base, seed], () => ({
        q: rope.norm(q),
        gaps: rope.norm_gaps(q, NORM_POSITIONS, base),
      }));
      return { q: normGaps.q, maxGap: Math.max(...normGaps.gaps) };
    },
    explain: explainModel(state, q, k),
  };
}

// ---- the explainer figures (docs/EXPLAIN.md) ----

function circle() {
  return memo('circle', [], () =>
    Array.from({ length: CIRCLE_POINTS + 1 }, (_, j) => rope.rotate_pair(1, 0, (2 * Math.PI * j) / CIRCLE_POINTS)),
  );
}

/** Pair indexes the heatmap shows: all of them up to HEAT_PAIRS, else HEAT_PAIRS evenly spaced. */
export function heatPairs(pairs) {
  if (pairs <= HEAT_PAIRS) return Array.from({ length: pairs }, (_, i) => i);
  return Array.from({ length: HEAT_PAIRS }, (_, j) => Math.round((j * (pairs - 1)) / (HEAT_PAIRS - 1)));
}

// Each part is computed when first read (a getter), so a render that shows only some figures
// (the first one, before the page has painted) pays only for those.
function explainModel(state, q, k) {
  const { dim, base, gap, from, seed, pair, qm, kn } = state;
  const thetas = () => memo('thetas', [dim, base], () => rope.thetas(dim, base));
  const { wq0, wq1, wk0, wk1, wm, wn, wth, wsh } = state;
  return {
    get thetas() {
      return thetas();
    },
    get circle() {
      return circle();
    },
    get rotating() {
      const all = thetas();
      const i = Math.min(pair, all.length - 1);
      return memo('rotating', [dim, base, seed, i, qm, kn], () => {
        const qi = [q[2 * i], q[2 * i + 1]];
        const ki = [k[2 * i], k[2 * i + 1]];
        return { pair: i, theta: all[i], q: qi, k: ki, ...rope.pair_example(qi, ki, qm, kn, all[i]) };
      });
    },
    get worked() {
      return memo('worked', [wq0, wq1, wk0, wk1, wm, wn, wth, wsh, base], () => ({
        at: rope.pair_example([wq0, wq1], [wk0, wk1], wm, wn, wth),
        moved: rope.pair_example([wq0, wq1], [wk0, wk1], wm + wsh, wn + wsh, wth),
        marks: [rope.sin_pos(wm, 4, base), rope.sin_pos(wm + 1, 4, base)],
      }));
    },
    get terms() {
      return memo('terms', [dim, base, gap, seed], () => rope.pair_terms(q, k, gap, 0, base));
    },
    get additive() {
      return memo('additive', [dim, base, gap, from, seed], () => ({
        start0: Math.ceil(from),
        ...rope.add_terms_sweep(q, k, gap, Math.ceil(from), 1, ADDITIVE_STARTS, base),
      }));
    },
    get decay() {
      return memo('decay', [dim, base, seed], () => ({
        distances: DECAY_DISTANCES,
        samples: DECAY_SAMPLES,
        ...rope.decay(q, k, DECAY_DISTANCES, DECAY_SAMPLES, DECAY_SEED, base),
      }));
    },
    get heat() {
      return memo('heat', [dim, base], () => {
        const all = thetas();
        const rows = heatPairs(all.length);
        const positions = Array.from({ length: HEAT_POSITIONS }, (_, p) => p);
        const grid = rope.cos_grid(dim, positions, base);
        return { pairs: rows, positions, thetas: rows.map((r) => all[r]), cells: rows.map((r) => grid[r]) };
      });
    },
  };
}

/** A report file ('json' or 'md') for the settings on screen: the bytes the CLI writes. Its
 *  writer is the files module's (core/files.js), loaded at the first download. */
export async function reportFile(kind, { dim, base, gap }) {
  const files = await import('../core/files.js');
  await files.ready();
  const options = { dim, base, offset: gap };
  return kind === 'json' ? files.build_report_json(options) : files.build_report_markdown(options);
}
