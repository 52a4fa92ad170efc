// The page's Chart.js: only the parts the figures use, from Chart.js's tree-shakable
// ES-module build, bundled by esbuild into web/vendor/chart.js (make). The full UMD
// build registers every chart type, scale and plugin; parsing and registering those
// is most of Chart.js's share of the first chart's time.
// window.Chart stays the documented surface: Chart.getChart(canvas), Chart.register.
// A new figure that needs another controller, element, scale or plugin adds it here.
import {
  Chart,
  BarController, LineController,
  BarElement, LineElement, PointElement,
  CategoryScale, LinearScale, LogarithmicScale,
  Filler, Tooltip,
} from 'chart.js';
// The heatmap (figure "heatmap"): the matrix controller of chartjs-chart-matrix (MIT).
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';

Chart.register(
  BarController, LineController,
  BarElement, LineElement, PointElement,
  CategoryScale, LinearScale, LogarithmicScale,
  Filler, Tooltip,
  MatrixController, MatrixElement,
);

window.Chart = Chart;
