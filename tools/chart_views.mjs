// The Chart.js parts each figure's chart uses. tools/chart_parts.mjs registers every part for
// the page and for <rope-scope>, which may show any view; a one-view embed script registers only
// its view's and its warm-up chart's (tools/embed_views.mjs builds it with viewChartParts(view)
// in place of chart_parts.mjs): 2 to 10 KB gzipped less Chart.js. tests/browser/chart_parts.test.mjs
// reads what every chart on the page uses and fails unless this table says exactly that: a part
// left out here would go missing in silence in the view's embed (no tooltip without Tooltip).
// No script carries Chart.js's Filler: the two figures that fill an area draw it with
// charts/figure.js's areaFill, and the test fails on a dataset's fill option.
// A new figure adds its row.

// A part's name here, and what it imports from Chart.js (or chartjs-chart-matrix).
export const PART_IMPORTS = {
  bar: ['BarController', 'BarElement'],
  line: ['LineController', 'LineElement', 'PointElement'],
  matrix: ['MatrixController', 'MatrixElement'],
  category: ['CategoryScale'],
  linear: ['LinearScale'],
  logarithmic: ['LogarithmicScale'],
  tooltip: ['Tooltip'],
};

// Chart types, then scale types, then the tooltip where the chart has one.
export const VIEW_PARTS = {
  additive: ['line', 'linear', 'tooltip'],
  angles: ['bar', 'category', 'logarithmic', 'tooltip'],
  cat: ['line', 'linear', 'tooltip'],
  circle: ['line', 'linear', 'tooltip'],
  clock: ['line', 'linear'],
  decay: ['line', 'linear', 'logarithmic', 'tooltip'],
  extrapolate: ['line', 'category', 'linear', 'tooltip'],
  flatness: ['line', 'linear', 'tooltip'],
  heatmap: ['matrix', 'linear', 'tooltip'],
  identity: ['bar', 'category', 'linear', 'tooltip'],
  layout: ['line', 'linear', 'tooltip'],
  length: ['line', 'linear', 'tooltip'],
  marks: ['line', 'linear'],
  normalized: ['bar', 'category', 'linear', 'tooltip'],
  order: ['bar', 'category', 'linear', 'tooltip'],
  planes: ['bar', 'line', 'category', 'linear', 'tooltip'],
  post: ['line', 'linear', 'logarithmic', 'tooltip'],
  precision: ['line', 'category', 'logarithmic', 'tooltip'],
  proof: ['bar', 'category', 'linear', 'tooltip'],
  range: ['bar', 'line', 'category', 'logarithmic', 'tooltip'],
  scaling: ['line', 'category', 'logarithmic', 'tooltip'],
  slot: ['bar', 'category', 'linear', 'tooltip'],
  slow: ['line', 'linear', 'logarithmic', 'tooltip'],
  temperature: ['line', 'linear', 'logarithmic', 'tooltip'],
  terms: ['bar', 'category', 'linear', 'tooltip'],
  weights: ['bar', 'category', 'linear', 'tooltip'],
};

// The element's warm-up chart (web/src/element/warm.js, made out of sight before the first
// figure's): a line chart on linear axes, or a bar chart on a category and a linear axis. The
// element for posts, which may show any view, makes the line chart; a one-view script makes the
// kind its view's own parts draw (warmKind), or none, so it registers no part for it alone.
export const WARM_KINDS = { line: ['line', 'linear'], bar: ['bar', 'category', 'linear'] };

/** The warm-up chart a one-view script for `view` makes: 'line', 'bar' or null (none). */
export function warmKind(view) {
  const parts = VIEW_PARTS[view];
  return Object.keys(WARM_KINDS).find((kind) => WARM_KINDS[kind].every((part) => parts.includes(part))) ?? null;
}

/** The parts a one-view script for `view` registers: its chart's (which hold its warm-up chart's). */
export function registeredParts(view) {
  const parts = VIEW_PARTS[view];
  if (!parts) throw new Error(`chart_views: no Chart.js parts listed for the view ${view} (tools/chart_views.mjs)`);
  return [...parts];
}

/** The source of a module like tools/chart_parts.mjs registering only `view`'s parts. */
export function viewChartParts(view) {
  const parts = registeredParts(view);
  const fromChart = parts.filter((part) => part !== 'matrix').flatMap((part) => PART_IMPORTS[part]);
  const fromMatrix = parts.includes('matrix') ? PART_IMPORTS.matrix : [];
  return [
    `// The Chart.js parts of the view ${view} alone (tools/chart_views.mjs).`,
    `import { Chart, ${fromChart.join(', ')} } from 'chart.js';`,
    ...(fromMatrix.length ? [`import { ${fromMatrix.join(', ')} } from 'chartjs-chart-matrix';`] : []),
    `Chart.register(${[...fromChart, ...fromMatrix].join(', ')});`,
    'export { Chart };',
    '',
  ].join('\n');
}
