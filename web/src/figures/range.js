// Figure (long context): the angles each pair met in training against the angle it meets at a long gap.
import { decadeRange, drawLevel, liveLegendChart } from '../charts/long_common.js';
import { baseOptions, colors, logAxis, pairAxis } from '../charts/theme.js';
import { degrees, num, plain, position } from '../lib/format.js';
import { methodPhrase } from '../model/methods.js';
import { longRow } from './long_row.js';

// The chart: which angles has each pair seen? Per pair on a log axis: the angle reached in
// training (a bar) and the angle met at the gap after scaling (a dot coloured covered /
// inside / unseen), the unscaled angle at the gap (a hollow dot) and the one-turn line.
// Data in: { trained, atGap, unscaled (null without scaling), status } — one entry per pair.
// Out (Chart.getChart(canvas).data): labels = pair indexes; datasets[0] "reached in training"
// = trained; datasets[1] "at the gap, unscaled" = unscaled (empty without scaling);
// datasets[2..4] "covered", "inside", "unseen" = the scaled angle at the gap for the pairs
// of that status, null elsewhere. The one-turn (2π) line is drawn, not stored.
const TWO_PI = 2 * Math.PI;
const STATUSES = ['covered', 'inside', 'unseen'];

function fill(target, data, c) {
  const [trained, unscaled, ...byStatus] = target.data.datasets;
  const n = data.trained.length;
  target.data.labels = data.trained.map((_, i) => i);
  trained.data = data.trained.slice();
  unscaled.data = data.unscaled ? data.unscaled.slice() : [];
  STATUSES.forEach((status, k) => {
    byStatus[k].data = data.atGap.map((a, i) => (data.status[i] === status ? a : null));
  });
  trained.backgroundColor = c.trained;
  unscaled.borderColor = c.muted;
  unscaled.backgroundColor = c.surface;
  [c.slow, c.rope, c.fast].forEach((color, k) => {
    byStatus[k].backgroundColor = color;
    byStatus[k].borderColor = color;
  });
  const radius = n > 128 ? 2 : 3.5;
  for (const ds of [unscaled, ...byStatus]) ds.pointRadius = radius;
  Object.assign(target.options.scales.y, decadeRange([data.trained, data.atGap, data.unscaled], [TWO_PI]));
}

function legendItems(data) {
  const items = [{ text: 'reached in training', mark: 'box', color: 'var(--c-trained)' }];
  if (data.unscaled) items.push({ text: 'at the gap, unscaled', mark: 'dot', color: 'var(--ink-muted)' });
  items.push(
    { text: 'at the gap: covered', mark: 'disc', color: 'var(--c-slow)' },
    { text: 'inside', mark: 'disc', color: 'var(--c-rope)' },
    { text: 'unseen', mark: 'disc', color: 'var(--c-fast)' },
    { text: 'one turn (2π)', mark: 'dash', color: 'var(--c-turn)' },
  );
  return items;
}

function createRangeChart(canvas, data) {
  return liveLegendChart(canvas, data, legendItems, (now) => {
    const c = colors(canvas);
    const options = baseOptions(c, 'index');
    options.plugins.tooltip.filter = (item) => item.raw !== null && item.raw !== undefined;
    options.plugins.tooltip.callbacks = {
      title: (items) => `pair ${items[0].label}: ${now().status[items[0].dataIndex]}`,
      label: (item) => `${item.dataset.label}: ${num(item.raw)} rad = ${degrees(item.raw)}`,
    };
    options.scales = {
      x: pairAxis(c, 'pair i  (fast pairs left, slow pairs right)'),
      y: logAxis(c, 'angle (radians, log scale)'),
    };
    const point = (label, order) => ({
      type: 'line',
      label,
      data: [],
      showLine: false,
      normalized: true,
      pointBorderWidth: 1.5,
      pointHoverRadius: 5,
      order,
    });
    const config = {
      type: 'bar',
      data: {
        labels: [],
        datasets: [
          {
            label: 'reached in training',
            data: [],
            barPercentage: 1,
            categoryPercentage: 0.85,
            borderWidth: 0,
            order: 5,
          },
          point('at the gap, unscaled', 4),
          point('covered', 1),
          point('inside', 2),
          point('unseen', 3),
        ],
      },
      options,
      plugins: [
        {
          id: 'oneTurn',
          afterDatasetsDraw(chart) {
            drawLevel(chart, TWO_PI, colors(chart.canvas).turn);
          },
        },
      ],
    };
    return { config, fill };
  });
}

const STATUS_WORDS = {
  covered: 'covered (it turned fully in training, so every angle is familiar)',
  inside: 'inside the trained range',
  unseen: 'unseen (past anything it met in training)',
};

export function rangeCaption(state, model) {
  const { main } = model;
  const r = main.range;
  const n = main.pairs.length;
  const last = n - 1;
  const pair = r.pairs[last];
  const scaled = state.method !== 'default';
  let text =
    `Trained on ${position(r.train_len)} positions, met at gap ${position(r.gap)} ${methodPhrase(model)}:` +
    ` ${r.covered} of ${n} pairs covered (a full turn in training), ${r.inside} inside the trained range,` +
    ` ${r.unseen} unseen.`;
  text +=
    ` At d ${main.rotary_dim}, pair ${last} (the slowest, θ = ${plain(main.pairs[last].inv_freq)})` +
    ` reached ${degrees(pair.trained_angle)} in training; at gap ${position(r.gap)}`;
  text += scaled
    ? ` it goes from ${degrees(model.range.unscaled[last])} to ${degrees(pair.gap_angle)} ${methodPhrase(model)},` +
      ` against a trained range of ${degrees(pair.trained_angle)}: ${STATUS_WORDS[pair.status]}.`
    : ` it turns ${degrees(pair.gap_angle)}: ${STATUS_WORDS[pair.status]}.`;
  if (model.blog) {
    const b = model.blog;
    text +=
      ` The blog’s round numbers: the pair with θ = ${plain(b.theta)} reaches ${degrees(b.trained)}` +
      ` over ${position(r.train_len)} positions and ${degrees(b.unscaled)} at gap ${position(r.gap)};` +
      ` divided by ${num(b.factor)} that is ${degrees(b.scaled)}.`;
  }
  return text;
}

export function rangeLabel(state, model) {
  const r = model.main.range;
  return (
    `Chart, log scale: for each of ${model.main.pairs.length} pairs the angle reached in training and the angle at gap` +
    ` ${position(r.gap)}; ${r.covered} covered, ${r.inside} inside, ${r.unseen} unseen; one-turn line at 2π.`
  );
}

export default {
  name: 'range',
  title: 'Which angles has each pair seen?',
  lookfor:
    'A bar is the angle a pair reached over the training length; a dot is the angle it meets at the ' +
    'gap. Look for: pairs right of the one-turn line never turned fully in training, so a dot above their ' +
    'bar is an angle the model never saw — unless the scaling pulls it back inside.',
  fallback: 'Per pair: the angle reached in training and the angle at the gap after scaling.',
  embed: 'angles seen in training',
  ...longRow('range', createRangeChart, rangeCaption, rangeLabel),
};
