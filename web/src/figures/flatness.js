// Figure: the claim. The score of q at m = n + gap against k at n, slid along the sequence at a
// fixed gap: flat for RoPE, wandering for the additive method.
import { areaFill, chartConfig, drawGuide, makeChart, markerSet, paint } from '../charts/figure.js';
import { axis, baseOptions, colors } from '../charts/theme.js';
import { count, list, num, position } from '../lib/format.js';
import { ACCURATE_UP_TO, farthestPosition, REPORT_STARTS } from '../model/model.js';

// The chart: the attention score at a fixed gap as the pair slides along the
// sequence — RoPE against additive — with four starts marked (the report's, model.js REPORT_STARTS).
// Every integer start is scored (offset_envelope); a chart wider than its bins would
// alias, so each bin is drawn as its least and greatest score with the band between.
// Data in: { first, last, rope_min, rope_max, add_min, add_max, starts, bins,
//            marked: [{x, y}], from, to } — plain arrays and numbers.
// A bin's x: the middle of its run of starts (the start itself when the bin holds one).
// The point objects are reused while the bin count stays: a gap drag allocates nothing.
function points(old, data, ys) {
  const out = old && old.length === ys.length ? old : ys.map(() => ({ x: 0, y: 0 }));
  for (let j = 0; j < ys.length; j++) {
    out[j].x = (data.first[j] + data.last[j]) / 2;
    out[j].y = ys[j];
  }
  return out;
}

function fill(target, data, c) {
  const [ropeMax, ropeMin, addMax, addMin, marks] = target.data.datasets;
  ropeMax.data = points(ropeMax.data, data, data.rope_max);
  ropeMin.data = points(ropeMin.data, data, data.rope_min);
  addMax.data = points(addMax.data, data, data.add_max);
  addMin.data = points(addMin.data, data, data.add_min);
  marks.data = data.marked.map((p) => ({ ...p }));
  paint(c.rope, [ropeMax, ropeMin]);
  paint(c.add, [addMax, addMin]);
  addMin.backgroundColor = c.addFill;
  marks.borderColor = c.add;
  marks.backgroundColor = c.surface;
  Object.assign(target.options.scales.x, { min: data.from, max: data.to });
}

function createFlatnessChart(canvas, data) {
  let current = data;
  const guides = {
    id: 'reportStarts',
    beforeDatasetsDraw(chart) {
      const { mark } = colors(chart.canvas);
      for (const p of current.marked) drawGuide(chart, p.x, mark);
    },
  };
  const c = colors(canvas);
  const options = baseOptions(c);
  options.plugins.tooltip.callbacks = {
    title: (items) => {
      const j = items[0].dataIndex;
      const [a, b] = [current.first[j], current.last[j]];
      return a === b || a === undefined ? `start ${num(items[0].parsed.x)}` : `starts ${a}–${b}`;
    },
    label: (item) => `${item.dataset.label}: ${num(item.parsed.y, 7)}`,
  };
  options.scales = {
    x: axis(c, 'start position n  (key at n, query at m = n + gap)', {
      type: 'linear',
      ticks: { maxRotation: 0, autoSkipPadding: 12 },
    }),
    y: axis(c, 'attention score of q at m and k at n', { type: 'linear', grace: '8%' }),
  };
  // Sorted, gap-free x values: Chart.js can skip sorting and gap checks.
  const line = {
    pointRadius: 0,
    pointHoverRadius: 3,
    borderWidth: 1.5,
    fill: false,
    parsing: false,
    normalized: true,
    spanGaps: true,
  };
  const config = chartConfig(
    'line',
    [
      { label: 'RoPE', ...line, borderWidth: 2.5, order: 1 },
      // RoPE's band is ~1e-13 wide: its lower edge is kept as data but not drawn (no line, no fill).
      { label: 'RoPE least', ...line, showLine: false, order: 1 },
      { label: 'additive', ...line, order: 2 },
      // The band between the additive lines: areaFill below, in this dataset's backgroundColor.
      { label: 'additive least', ...line, order: 2 },
      markerSet('report starts', 5),
    ],
    options,
    { plugins: [guides, areaFill('additiveBand', 2, 3)] },
  );
  const legend = [
    { text: 'RoPE', mark: 'line', color: 'var(--c-rope)' },
    {
      text: 'additive (band: least to greatest score of the starts under each point)',
      mark: 'box',
      color: 'var(--c-add)',
    },
    { text: 'four marked starts (the caption lists them)', mark: 'dot', color: 'var(--c-add)' },
  ];
  const onData = (next) => {
    current = next;
  };
  return makeChart(canvas, { config, data, fill, legend, onData });
}

export function flatnessCaption(state, model) {
  const { spreads, sweep } = model;
  const every =
    sweep.bins === sweep.starts
      ? `every one of the ${count(sweep.starts, 'start')}`
      : `all ${sweep.starts} starts, drawn as the least and greatest score in each of ${sweep.bins} bins`;
  let text =
    'The RoPE line is flat: its score depends only on the gap, so every start gives the same one. The' +
    ' additive band wanders: its cross terms q·P[n] and P[m]·k each hold one absolute position.' +
    ` Scored at ${every} from ${position(state.from)}` +
    ` to ${position(state.to)}; spread (the greatest score minus the least): RoPE ${num(spreads.rope)},` +
    ` additive ${num(spreads.add)}. At the four marked starts ${list(REPORT_STARTS)}: RoPE spread` +
    ` ${num(spreads.reportRope)}, additive spread ${num(spreads.reportAdd)}.`;
  // The query of the last start sits at to + gap: that is the farthest rotated position.
  const far = farthestPosition(state);
  if (far > ACCURATE_UP_TO) {
    text +=
      ` The query reaches position ${position(far)}, past ~${ACCURATE_UP_TO}: the angle error of` +
      ' floating point grows with the position, so the RoPE spread grows too (it stays far below the' +
      ' additive one).';
  }
  return text;
}

export function flatnessLabel(state, model) {
  return `Line chart: attention score against start position for RoPE (spread ${num(model.spreads.rope)}) and additive (spread ${num(model.spreads.add)}).`;
}

export default {
  name: 'flatness',
  part: 'claim',
  uses: ['from', 'to', 'n'],
  title: 'Same gap, anywhere in the sequence',
  lookfor:
    'A query at position m = n + gap and a key at n, slid along the sequence at a fixed gap. ' +
    'Look for: the RoPE line stays flat, the additive band wanders with the absolute position.',
  fallback: 'Score against start position for RoPE and additive embedding.',
  embed: 'same gap, anywhere',
  make: createFlatnessChart,
  data: (model, state) => ({ ...model.sweep, marked: model.marked, from: state.from, to: state.to }),
  caption: flatnessCaption,
  label: flatnessLabel,
};
