// The Chart.js parts the figures use, registered once, from Chart.js's tree-shakable
// ES-module build. Two bundles take Chart from here: the page's web/vendor/chart.js
// (tools/chart_entry.mjs, which sets window.Chart) and dist/ropescope-embed.js
// (web/src/element/element.js, which keeps its Chart to itself).
// A new figure that needs another controller, element, scale or plugin adds it here, and lists
// its parts in tools/chart_views.mjs (a one-view embed script registers its view's alone).
// Filler is not one: an area is filled by charts/figure.js's areaFill.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  Tooltip,
} from 'chart.js';
// The heatmap (figure "heatmap"): the matrix controller of chartjs-chart-matrix (MIT).
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';

Chart.register(
  BarController,
  LineController,
  BarElement,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  LogarithmicScale,
  Tooltip,
  MatrixController,
  MatrixElement,
);

export { Chart };
