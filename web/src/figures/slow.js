// Figure: how many pairs have not yet wrapped at each gap.
import { areaFill, chartConfig, drawGuide, makeChart, markerSet } from '../charts/figure.js';
import { axis, baseOptions, colors, logAxis } from '../charts/theme.js';
import { count, num, position } from '../lib/format.js';

// The chart: how many pairs stay under one turn (have not wrapped) as the gap grows (log x, 1 to 1e6),
// with the current gap marked.
// Data in: { gaps, counts, pairs, gap, now } — plain arrays and numbers.
function fill(target, data, c) {
  const [curve, current] = target.data.datasets;
  curve.data = data.gaps.map((x, i) => ({ x, y: data.counts[i] }));
  // A log axis cannot show a gap below 1: then the marker is left out.
  current.data = data.gap >= 1 ? [{ x: data.gap, y: data.now }] : [];
  curve.borderColor = c.slow;
  curve.backgroundColor = c.fill;
  current.borderColor = c.mark;
  current.backgroundColor = c.mark;
  // Headroom above the full count, so the marker at the top is not cut off.
  target.options.scales.y.suggestedMax = Math.max(data.pairs, 1) * 1.05;
}

function createSlowChart(canvas, data) {
  let current = data;
  const guide = {
    id: 'currentGap',
    beforeDatasetsDraw(chart) {
      if (current.gap >= 1) drawGuide(chart, current.gap, colors(chart.canvas).mark);
    },
  };
  const c = colors(canvas);
  const options = baseOptions(c);
  options.plugins.tooltip.callbacks = {
    title: (items) => `gap ${num(items[0].parsed.x)}`,
    label: (item) => `${item.parsed.y} pair${item.parsed.y === 1 ? '' : 's'} not yet wrapped`,
  };
  options.scales = {
    x: logAxis(c, 'gap between query and key (positions, log scale)', {
      min: 1,
      max: 1e6,
      ticks: { maxRotation: 0 },
    }),
    y: axis(c, 'pairs not yet wrapped (under one turn)', {
      type: 'linear',
      min: 0,
      ticks: { precision: 0 },
    }),
  };
  const config = chartConfig(
    'line',
    [
      {
        label: 'pairs not yet wrapped',
        data: [],
        parsing: false,
        normalized: true,
        spanGaps: true,
        stepped: 'middle',
        // The area under the steps: areaFill below, in this dataset's backgroundColor.
        borderWidth: 2,
        pointRadius: 0,
        pointHoverRadius: 3,
        order: 1,
      },
      markerSet('current gap', 6, { clip: false }),
    ],
    options,
    { plugins: [guide, areaFill('underSteps', 0, 'origin')] },
  );
  const legend = [
    { text: 'pairs not yet wrapped (wavelength longer than the gap)', mark: 'line', color: 'var(--c-slow)' },
    { text: 'current gap', mark: 'disc', color: 'var(--c-mark)' },
  ];
  const onData = (next) => {
    current = next;
  };
  return makeChart(canvas, { config, data, fill, legend, onData });
}

export function slowCaption(state, model) {
  const { pairs, slow } = model;
  const verb = (n) => (n === 1 ? 'is' : 'are');
  const now =
    state.gap >= 1
      ? `At gap ${position(state.gap)}, ${
          pairs === 1
            ? `the only pair ${slow.now === 1 ? 'has not wrapped yet' : 'has wrapped'}`
            : `${slow.now} of ${pairs} pairs ${verb(slow.now)} not yet wrapped`
        } (still under one turn: the wavelength is longer than the gap).`
      : `Gap ${position(state.gap)} is below 1, left of this log axis; there ` +
        `${slow.now === 1 ? 'the only pair is' : `all ${slow.now} pairs are`} under one turn.`;
  const gone = slow.counts.indexOf(0);
  const left = slow.counts[slow.counts.length - 1];
  const end =
    gone >= 0
      ? ` Past gap ≈ ${num(slow.gaps[gone], 2)} none is left: every pair has wrapped at least once.`
      : ` Even at gap 10⁶, ${count(left, 'pair')} ${verb(left)} not yet wrapped: a larger base keeps more` +
        ' long-range pairs.';
  return `${now}${end}`;
}

export function slowLabel(state, model) {
  return `Step chart, log x axis: number of pairs not yet wrapped against gap from 1 to one million; ${model.slow.now} at the current gap.`;
}

export default {
  name: 'slow',
  part: 'gap',
  title: 'Which pairs are left for long distances',
  lookfor:
    'A pair that has not yet wrapped (turned under one full turn) still tells distances apart; one ' +
    'past a turn repeats itself. Look for: as the gap grows, pairs wrap one by one, fastest first.',
  fallback: 'Number of pairs not yet wrapped against the gap.',
  embed: 'unwrapped pairs by gap',
  make: createSlowChart,
  data: (model, state) => ({ ...model.slow, pairs: model.pairs, gap: state.gap }),
  caption: slowCaption,
  label: slowLabel,
};
