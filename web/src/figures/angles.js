// Figure: how far each pair rotates over the gap, against the one-turn line.
import { makeChart } from '../charts/figure.js';
import { chartLib } from '../charts/lib.js';
import { baseOptions, colors, logAxis, pairAxis } from '../charts/theme.js';
import { count, num, position } from '../lib/format.js';

// The chart: the rotation angle of every pair at the current gap, on a log axis,
// with the one-turn (2π) line. Pairs past one turn are coloured apart.
// Data in: { angles, turns } — plain arrays, one value per pair.
// Out (Chart.getChart(canvas).data): datasets[0] holds the angles of the pairs past one
// turn and datasets[1] those under one turn, null elsewhere; one colour per dataset keeps
// Chart.js on its fast path (a colour per bar is resolved bar by bar on every update).
const TWO_PI = 2 * Math.PI;

// Decade bounds that hold every positive angle and the 2π line; all-zero angles (gap 0)
// still give a valid log range, and a zero bar simply has no height.
function yRange(angles) {
  let lo = Infinity;
  let hi = TWO_PI;
  for (const a of angles) {
    if (a > 0 && a < lo) lo = a;
    if (a > hi) hi = a;
  }
  if (lo === Infinity) lo = 0.1;
  return {
    min: 10 ** Math.min(Math.floor(Math.log10(lo)), -1),
    max: 10 ** Math.ceil(Math.log10(hi * 1.5)),
  };
}

const LEGEND = [
  { text: 'wrapped at this gap (past one turn)', mark: 'box', color: 'var(--c-fast)' },
  { text: 'not wrapped (under one turn)', mark: 'box', color: 'var(--c-slow)' },
  { text: 'one turn (2π)', mark: 'dash', color: 'var(--c-turn)' },
];

// Works on a chart or on its config before construction (same data/options shape).
function fill(target, { angles, turns }, c) {
  const [fast, slow] = target.data.datasets;
  target.data.labels = angles.map((_, i) => i);
  fast.data = angles.map((a, i) => (turns[i] >= 1 ? a : null));
  slow.data = angles.map((a, i) => (turns[i] >= 1 ? null : a));
  fast.backgroundColor = c.fast;
  slow.backgroundColor = c.slow;
  Object.assign(target.options.scales.y, yRange(angles));
}

// The one-turn line: one dashed stroke at y = 2π across the plot.
function drawTurnLine(chart) {
  const { ctx, chartArea, scales } = chart;
  const y = scales.y.getPixelForValue(TWO_PI);
  if (!Number.isFinite(y)) return;
  ctx.save();
  ctx.strokeStyle = colors(chart.canvas).turn;
  ctx.lineWidth = 2;
  ctx.setLineDash([6, 4]);
  ctx.beginPath();
  ctx.moveTo(chartArea.left, y);
  ctx.lineTo(chartArea.right, y);
  ctx.stroke();
  ctx.restore();
}

// With every angle 0 there are no bars to draw: say so inside the plot area.
function drawEmptyNote(chart, angles) {
  if (angles.some((a) => a > 0)) return;
  const { ctx, chartArea } = chart;
  ctx.save();
  ctx.fillStyle = colors(chart.canvas).muted;
  ctx.font = `600 14px ${chartLib().defaults.font.family}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(
    'gap 0: nothing rotates',
    (chartArea.left + chartArea.right) / 2,
    (chartArea.top + chartArea.bottom) / 2,
  );
  ctx.restore();
}

function createAnglesChart(canvas, data) {
  let turnsNow = data.turns;
  let anglesNow = data.angles;
  const c = colors(canvas);
  const options = baseOptions(c, 'index');
  options.plugins.tooltip.filter = (item) => item.raw !== null;
  options.plugins.tooltip.callbacks = {
    title: (items) => `pair ${items[0].label}`,
    label: (item) => {
      const turns = turnsNow[item.dataIndex];
      return `${num(item.raw)} rad = ${num(turns)} turn${turns === 1 ? '' : 's'}`;
    },
  };
  options.scales = {
    x: pairAxis(c, 'pair i  (pair frequency θᵢ falls left to right: fast pairs left, slow pairs right)'),
    y: logAxis(c, 'angle over the gap (radians)'),
  };
  const config = {
    type: 'bar',
    data: {
      labels: [],
      // Each pair has a value in exactly one dataset: grouped false puts both in one slot.
      datasets: [
        { label: 'past one turn', data: [], barPercentage: 1, categoryPercentage: 0.9, grouped: false },
        { label: 'under one turn', data: [], barPercentage: 1, categoryPercentage: 0.9, grouped: false },
      ],
    },
    options,
    plugins: [
      {
        id: 'turnLineAndEmptyNote',
        afterDatasetsDraw(chart) {
          drawTurnLine(chart);
          drawEmptyNote(chart, anglesNow);
        },
      },
    ],
  };
  const onData = (next) => {
    turnsNow = next.turns;
    anglesNow = next.angles;
  };
  return makeChart(canvas, { config, data, fill, legend: LEGEND, onData });
}

export function anglesCaption(state, model) {
  const { pairs, angles, turns } = model;
  if (state.gap === 0) {
    return 'gap 0: nothing rotates. Every angle is 0, so the RoPE score is the plain dot product q·k.';
  }
  const wrapped = turns.filter((t) => t >= 1).length;
  const whole = pairs - wrapped;
  const one = pairs === 1;
  const head = one
    ? `At gap ${position(state.gap)}, the single pair turns ${num(angles[0])} rad (${num(turns[0])} turns).`
    : `At gap ${position(state.gap)}, pair 0 (the fastest) turns ${num(angles[0])} rad (${num(turns[0])} turns)` +
      ` and pair ${pairs - 1} (the slowest) only ${num(angles[pairs - 1])} rad.`;
  let split;
  if (wrapped === 0) {
    split = one
      ? ' It stays under one full turn (2π), so it still measures the gap without ambiguity.'
      : ` All ${pairs} pairs stay under one full turn (2π), so each still measures the gap without ambiguity.`;
  } else if (whole === 0) {
    split = one
      ? ' It has wrapped at this gap (turned past one full turn, 2π): it cannot tell this gap from the gap' +
        ' minus its wavelength λ = 2π/θ.'
      : ` All ${pairs} pairs have wrapped at this gap (turned past one full turn, 2π): each cannot tell` +
        ' this gap from the gap minus its wavelength λᵢ = 2π/θᵢ.';
  } else {
    split =
      ` ${wrapped} of ${pairs} pairs ${wrapped === 1 ? 'has' : 'have'} wrapped at this gap` +
      ' (turned past one full turn, 2π): such a pair cannot tell this gap from the gap minus its wavelength' +
      ` λᵢ = 2π/θᵢ. The other ${whole} still measure${whole === 1 ? 's' : ''} it without ambiguity.`;
  }
  return `${head}${split} Each angle is gap × θᵢ; the absolute positions never enter.`;
}

export function anglesLabel(state, model) {
  return `Bar chart, log scale: rotation angle of each of ${count(model.pairs, 'pair')} at gap ${position(state.gap)}, with the one-turn line at 2π.`;
}

export default {
  name: 'angles',
  part: 'gap',
  title: 'How far each pair rotates over the gap',
  lookfor:
    'Pair i turns by gap × θᵢ. Its pair frequency θᵢ falls from 1 (pair 0, fast) to nearly 0 (the last ' +
    'pair, slow). Look for: fast pairs pass one full turn (the dashed 2π line), slow pairs barely move, and ' +
    'nothing depends on where the pair sits.',
  fallback: 'Rotation angle of every pair at the current gap.',
  embed: 'angle of every pair',
  make: createAnglesChart,
  data: (model) => ({ angles: model.angles, turns: model.turns }),
  caption: anglesCaption,
  label: anglesLabel,
};
