// Figure (long context): how far each pair's angle p·θᵢ lands from the exact one when a port
// computes it in float32, bfloat16 or float16, at the figure's own position slider (not in the
// URL: one position shared by every copy of the figure, as a lesson chapter's inputs are).
import { decadeRange, drawLevel, liveLegendChart } from '../charts/long_common.js';
import { baseOptions, colors, logAxis, pairAxis } from '../charts/theme.js';
import { controlFor, controlParts } from '../controls/controls.js';
import { wireSetting } from '../controls/wire.js';
import * as files from '../core/files.js';
import { precision_errors } from '../core/rope.js';
import { el } from '../lib/dom.js';
import { num, position } from '../lib/format.js';
import { longModel, useReader } from '../model/long.js';
import { methodPhrase } from '../model/methods.js';
import { numberRow } from '../state/state.js';

// The chart: the angle error of position × inv_freq in lower precision, per pair, on a log axis.
// Data in: { pos, theta, errors: { f32, bf16, f16, theta_bf16, theta_f16 } } (precision_errors).
// Out (Chart.getChart(canvas).data): labels = pair indexes; datasets[0..4] (CASES' labels) = each
// case's error in radians, null where it is 0 (exact) or infinite (float16 overflowed);
// datasets[5] "θᵢ" = theta. The line at 1% of a turn is drawn, not stored.
const TURN_SHARE = (2 * Math.PI) / 100;
/** [key of errors, label, colour] in dataset order. */
const CASES = [
  ['f32', 'float32 (θ, p and p·θ)', 'rope'],
  ['theta_bf16', 'inv_freq stored in bfloat16', 'slow'],
  ['theta_f16', 'inv_freq stored in float16', 'mark'],
  ['bf16', 'all in bfloat16', 'fast'],
  ['f16', 'all in float16', 'add'],
];
const shown = (v) => (v > 0 && Number.isFinite(v) ? v : null);

function fill(target, data, c) {
  const sets = target.data.datasets;
  target.data.labels = data.theta.map((_, i) => i);
  CASES.forEach(([key, , color], j) => {
    sets[j].data = data.errors[key].map(shown);
    sets[j].borderColor = sets[j].backgroundColor = c[color];
  });
  sets[5].data = data.theta.slice();
  sets[5].borderColor = c.muted;
  Object.assign(
    target.options.scales.y,
    decadeRange([...CASES.map(([key]) => data.errors[key].map(shown)), data.theta], [TURN_SHARE]),
  );
}

const LEGEND = [
  ...CASES.map(([, text, color]) => ({ text, mark: 'line', color: `var(--c-${color})` })),
  { text: 'θᵢ: the angle between neighbouring positions', mark: 'dash', color: 'var(--ink-muted)' },
  { text: '1% of a turn', mark: 'dash', color: 'var(--c-turn)' },
];

function createPrecisionChart(canvas, data) {
  return liveLegendChart(
    canvas,
    data,
    () => LEGEND,
    () => {
      const c = colors(canvas);
      const options = baseOptions(c, 'index');
      options.plugins.tooltip.callbacks = {
        title: (items) => `pair ${items[0].label}`,
        label: (item) => `${item.dataset.label}: ${num(item.raw)} rad`,
      };
      options.scales = {
        x: pairAxis(c, 'pair i  (fast pairs left, slow pairs right)'),
        y: logAxis(c, 'angle error (radians, log scale)'),
      };
      // Lines only, as the scaling figure draws them; a missing value (exact, or lost) is stepped over.
      const line = (label, extra = {}) => ({
        label,
        data: [],
        borderWidth: 1.5,
        pointRadius: 0,
        pointHoverRadius: 4,
        spanGaps: true,
        ...extra,
      });
      const config = {
        type: 'line',
        data: { labels: [], datasets: [...CASES.map(([, label]) => line(label)), line('θᵢ', { borderDash: [6, 4] })] },
        options,
        plugins: [
          { id: 'turnShare', afterDatasetsDraw: (chart) => drawLevel(chart, TURN_SHARE, colors(chart.canvas).turn) },
        ],
      };
      return { config, fill };
    },
  );
}

// The config reader behind longModel comes with this figure (model/long.js).
useReader(files);

const POS = numberRow('precision-pos', 8191, 1, 1e6, {
  integer: true,
  label: 'position',
  slider: { step: 0.001, keyStep: 0.05, log: true, integer: true },
});
let pos = POS.default;
const cache = new WeakMap(); // long model -> its data at pos
const live = new Map(); // canvas -> { handle, data } of each copy drawn
let syncs = []; // each copy's slider and box

function dataFor(long) {
  if (!long) return null;
  const hit = cache.get(long);
  if (hit?.pos === pos) return hit;
  const theta = long.main.pairs.map((p) => p.inv_freq_scaled);
  const data = { long, pos, theta, errors: precision_errors(theta, pos) };
  cache.set(long, data);
  return data;
}

// One case in words: its worst error, and how many pairs pass θᵢ and 1% of a turn.
function summary(data, key) {
  const e = data.errors[key];
  if (!e.every(Number.isFinite)) return 'lost: float16 holds no number past 65504';
  const worst = e.indexOf(Math.max(...e));
  const past = e.filter((v, i) => v > data.theta[i]).length;
  const turn = e.filter((v) => v > TURN_SHARE).length;
  return `off by ≤ ${num(e[worst])} rad (pair ${worst}), ${past} pairs past θᵢ, ${turn} past 1% of a turn`;
}

export function precisionCaption(state, model, data) {
  if (!data) return '';
  const { long } = data;
  const cases = CASES.map(([key, label]) => `${label}: ${summary(data, key)}`).join('; ');
  return (
    'Rounding the angle p·θᵢ to a port’s number format moves it; past θᵢ, position p takes a neighbour’s' +
    ` angle. ${long.preset.name}, ${long.main.pairs.length} pairs ${methodPhrase(long)}, position` +
    ` ${position(data.pos)}: ${cases}.`
  );
}

export function precisionLabel(state, model, data) {
  if (!data) return '';
  return (
    `Chart, log scale: the angle error of each of ${data.theta.length} pairs at position ${position(data.pos)}` +
    ` in five number formats, against θᵢ and 1% of a turn; float32 ${summary(data, 'f32')}.`
  );
}

// Every copy: the new data, its caption and label, its slider (except the one moved).
function setPos(value, moved) {
  pos = value;
  for (const [canvas, copy] of live) {
    const data = dataFor(copy.data?.long);
    if (!data) continue;
    copy.handle.update(data);
    const figure = canvas.closest('figure');
    figure.querySelector('figcaption').textContent = precisionCaption(null, null, data);
    canvas.setAttribute('aria-label', precisionLabel(null, null, data));
  }
  syncs = syncs.filter((entry) => entry.range.isConnected);
  for (const entry of syncs) entry.sync(entry.range !== moved);
}

function make(canvas, data) {
  const handle = createPrecisionChart(canvas, data);
  const copy = { handle, data };
  live.set(canvas, copy);
  const { update, destroy } = handle;
  handle.update = (next, draw) => {
    copy.data = next;
    update(next, draw);
  };
  handle.destroy = () => {
    live.delete(canvas);
    // Its slider goes once the figure is off the page (after the rebuild that destroyed it):
    // kept, it held the whole old figure until the next copy was drawn.
    queueMicrotask(() => {
      syncs = syncs.filter((entry) => entry.range.isConnected);
    });
    destroy();
  };
  return handle;
}

function controls() {
  const parts = controlParts(POS.name, { label: 'position p', hint: '1 to 1,000,000', kind: 'slider', integer: true });
  const [range, box] = parts.widget.children;
  const control = controlFor(POS);
  const problem = (message) => {
    parts.msg.textContent = message;
    box.setAttribute('aria-invalid', message ? 'true' : 'false');
  };
  wireSetting(
    POS,
    control,
    { box, range, msg: parts.msg },
    {
      current: () => pos,
      context: () => ({}),
      apply: (value, source) => {
        problem('');
        setPos(value, source === 'range' ? range : null);
      },
      problem,
    },
  );
  const sync = (moveThumb) => {
    if (moveThumb) range.value = String(control.toRange(pos));
    range.setAttribute('aria-valuetext', `position ${pos}`);
    if (box.getAttribute('aria-invalid') !== 'true') box.value = String(pos);
  };
  sync(true);
  // The sliders of copies taken off the page go (an element's rebuild), so none keeps its old tree.
  syncs = syncs.filter((entry) => entry.range.isConnected);
  syncs.push({ range, sync });
  return el('div', { class: 'fig-controls' }, el('div', { class: 'control' }, parts.label, parts.widget, parts.msg));
}

export default {
  name: 'precision',
  part: 'long',
  title: 'How exact is position × inv_freq?',
  lookfor:
    'Each line is one way a port may compute the angle p·θᵢ in a smaller number format; the dashed grey ' +
    'line is θᵢ, the step from one position to the next. Look for: where a line passes θᵢ, the pair can no ' +
    'longer tell neighbouring positions apart.',
  fallback: 'Per pair: the angle error of position × inv_freq in float32, bfloat16 and float16.',
  embed: 'angle error in float32, bf16, fp16',
  before: 'check',
  make,
  data: (model, state) => dataFor(longModel(state)),
  caption: precisionCaption,
  label: precisionLabel,
  controls,
};
