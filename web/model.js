// state -> numbers: every figure's data from the wasm core, as plain arrays.
// One call per chart; nothing here touches the page.
import * as rope from './rope.js';
import { ROPE_REPORT_DEFAULT_STARTS, ROPE_REPORT_DEFAULT_NORM_POSITIONS } from './rope_consts.js';

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

const vectorCache = new Map();
function vectors(dim) {
  if (!vectorCache.has(dim)) vectorCache.set(dim, rope.demo_vectors(dim));
  return vectorCache.get(dim);
}

const spread = (values) => (values.length ? Math.max(...values) - Math.min(...values) : 0);

// One-entry cache: a change in the long-context part renders again with the same settings here.
let lastKey = '';
let lastModel = null;

/** Everything the figures, captions and readout show for one state. */
export function computeModel({ dim, base, gap, from, to, n }) {
  const key = `${dim}|${base}|${gap}|${from}|${to}|${n}`;
  if (key !== lastKey) {
    lastModel = buildModel({ dim, base, gap, from, to, n });
    lastKey = key;
  }
  return lastModel;
}

function buildModel({ dim, base, gap, from, to, n }) {
  const [q, k] = vectors(dim);

  const angles = rope.pair_angles(dim, gap, base);
  const turns = rope.turns(dim, gap, base);

  // n starts from `from` to `to`, query at start + gap, key at start.
  const sweep = rope.offset_sweep(q, k, gap, from, (to - from) / (n - 1), n, base);
  const report = rope.offset_scan(q, k, gap, REPORT_STARTS, base);
  const marked = report.filter(([s]) => s >= from && s <= to);

  const slow = rope.slow_pairs_batch(dim, SLOW_GAPS, base);
  const slowNow = rope.slow_pairs(dim, gap, base);

  const normGaps = rope.norm_gaps(q, NORM_POSITIONS, base);

  return {
    pairs: angles.length,
    angles,
    turns,
    sweep,
    marked: marked.map(([s, , add]) => ({ x: s, y: add })),
    spreads: {
      rope: spread(sweep.rope),
      add: spread(sweep.add),
      reportRope: spread(report.map((row) => row[1])),
      reportAdd: spread(report.map((row) => row[2])),
    },
    slow: { gaps: SLOW_GAPS, counts: slow, now: slowNow },
    norm: { q: rope.norm(q), maxGap: Math.max(...normGaps) },
  };
}

/** A report file ('json' or 'md') for the settings on screen: the bytes the CLI writes. */
export function reportFile(kind, { dim, base, gap }) {
  const options = { dim, base, offset: gap };
  return kind === 'json' ? rope.build_report_json(options) : rope.build_report_markdown(options);
}
