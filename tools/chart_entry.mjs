// The page's Chart.js: only the parts the figures use (tools/chart_parts.mjs), from
// Chart.js's tree-shakable ES-module build, bundled by esbuild into web/vendor/chart.js
// (make). The full UMD build registers every chart type, scale and plugin; parsing and
// registering those is most of Chart.js's share of the first chart's time.
// window.Chart stays the documented surface: Chart.getChart(canvas), Chart.register.
import { Chart } from './chart_parts.mjs';

window.Chart = Chart;
