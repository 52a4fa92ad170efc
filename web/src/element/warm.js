// The first chart on a page runs Chart.js's code for the first time: V8 compiles each function
// at its first call and the canvas meets its fonts, which made a first <rope-scope> one task of
// a few hundred milliseconds. Before the first element's charts, a small chart of the same kind
// (a line chart on linear axes with titles, its markers, the figures' options and plugins) is
// made and drawn out of sight in steps (each update stopped at a later one of Chart.js's
// cancelable hooks), so that cold code runs a part at a time, a task for each. A one-view script
// makes a bar chart on a category axis instead where its view draws bars, or none where its view
// draws neither (warm_kind.js), so it carries no Chart.js part for the warm-up alone.
import { chartConfig, makeChart, markerSet } from '../charts/figure.js';
import { axis, baseOptions, colors } from '../charts/theme.js';
import { el } from '../lib/dom.js';
import { WARM_KIND } from './warm_kind.js';

const STOPS = ['beforeUpdate', 'beforeLayout', 'beforeDatasetsUpdate', 'beforeRender', null];

/** The steps (yields) of one such chart in `box` (the element's own wrapper, still unseen). */
export function* warmCharts(box) {
  if (!WARM_KIND) return;
  const canvas = el('canvas');
  const holder = el('div', {}, canvas);
  // Out of the flow, so the post does not move meanwhile.
  Object.assign(holder.style, { position: 'absolute', width: '320px', height: '200px' });
  box.append(holder);
  // Its layout and its canvas's context, then the chart: a step each.
  yield;
  holder.getBoundingClientRect();
  canvas.getContext('2d');
  yield;
  let stop = STOPS[0];
  const stopper = Object.fromEntries(STOPS.slice(0, -1).map((hook) => [hook, () => hook !== stop]));
  const c = colors(canvas);
  const options = baseOptions(c);
  const plugins = { plugins: [{ id: 'warm', ...stopper }] };
  let config;
  if (WARM_KIND === 'bar') {
    options.scales = { x: axis(c, 'pair', { type: 'category' }), y: axis(c, 'score', { type: 'linear' }) };
    const labels = Array.from({ length: 16 }, (_, j) => String(j));
    const sets = [{ label: 'a', data: labels.map((_, j) => (j * 37) % 16) }];
    config = chartConfig('bar', sets, options, { ...plugins, labels });
  } else {
    options.scales = { x: axis(c, 'start', { type: 'linear' }), y: axis(c, 'score', { type: 'linear' }) };
    const line = Array.from({ length: 64 }, (_, x) => ({ x, y: (x * 37) % 64 }));
    const sets = [{ label: 'a', data: line, parsing: false, pointRadius: 0 }, markerSet('b', 5)];
    sets[1].data = line.slice(0, 4);
    config = chartConfig('line', sets, options, plugins);
  }
  const handle = makeChart(canvas, { config, data: null, fill: () => {} });
  for (stop of STOPS.slice(1)) {
    yield;
    handle.chart.update();
  }
  yield;
  handle.destroy();
  holder.remove();
}
