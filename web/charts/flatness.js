// Figure: the attention score at a fixed gap as the pair slides along the
// sequence — RoPE against additive — with the report's starts marked.
// Data in: { starts, rope, add, marked: [{x, y}], from, to } — plain arrays.
import { colors, axis, baseOptions } from './theme.js';
import { drawGuide, makeChart } from './figure.js';
import { num } from '../format.js';

const points = (xs, ys) => xs.map((x, j) => ({ x, y: ys[j] }));

function fill(target, data, c) {
  const [ropeLine, addLine, marks] = target.data.datasets;
  ropeLine.data = points(data.starts, data.rope);
  addLine.data = points(data.starts, data.add);
  marks.data = data.marked.map((p) => ({ ...p }));
  ropeLine.borderColor = c.rope;
  ropeLine.backgroundColor = c.rope;
  addLine.borderColor = c.add;
  addLine.backgroundColor = c.add;
  marks.borderColor = c.add;
  marks.backgroundColor = c.surface;
  Object.assign(target.options.scales.x, { min: data.from, max: data.to });
}

export function createFlatnessChart(canvas, data) {
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
    title: (items) => `start ${num(items[0].parsed.x)}`,
    label: (item) => `${item.dataset.label}: ${num(item.parsed.y, 7)}`,
  };
  options.scales = {
    x: axis(c, 'start position n  (key at n, query at n + gap)', {
      type: 'linear',
      ticks: { maxRotation: 0, autoSkipPadding: 12 },
    }),
    y: axis(c, 'score q·k at the same gap', { type: 'linear', grace: '8%' }),
  };
  // Sorted, gap-free x values: Chart.js can skip sorting and gap checks.
  const line = {
    pointRadius: 0, pointHoverRadius: 3, borderWidth: 2, fill: false, parsing: false,
    normalized: true, spanGaps: true,
  };
  const config = {
    type: 'line',
    data: {
      datasets: [
        { label: 'RoPE', ...line, borderWidth: 2.5, order: 1 },
        { label: 'additive', ...line, borderWidth: 1.5, order: 2 },
        {
          label: 'report starts', data: [], showLine: false, parsing: false, order: 0,
          pointRadius: 5, pointHoverRadius: 6, pointBorderWidth: 2,
        },
      ],
    },
    options,
    plugins: [guides],
  };
  const legend = [
    { text: 'RoPE', mark: 'line', color: 'var(--c-rope)' },
    { text: 'additive', mark: 'line', color: 'var(--c-add)' },
    { text: "report's starts", mark: 'dot', color: 'var(--c-add)' },
  ];
  const onData = (next) => {
    current = next;
  };
  return makeChart(canvas, { config, data, fill, legend, onData });
}
