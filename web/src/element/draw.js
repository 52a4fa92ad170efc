// What <rope-scope> draws with, loaded with its first build (element.js's loadDraw): Chart.js
// (the parts tools/chart_parts.mjs registers), the core and its wasm, the charts' plumbing, the
// exports and printing, and style.css as text. Not the model presets (model/long.js), which only
// the long-context figures read. In the split element (dist/ropescope-embed.js and
// its folder, tools/split_element.mjs) this is a chunk of its own, so the element's script is
// the small part that reads attributes and holds each element's place until it draws; in a
// one-script build (the one-view embed documents) it is inside.
import { Chart } from '../../../tools/chart_parts.mjs';
import CSS from '../../style.css';
import { chartInSteps } from '../charts/figure.js';
import { useChartLib } from '../charts/lib.js';
import { refreshColors, setupDefaults } from '../charts/theme.js';
import { ready } from '../core/rope.js';
import { fillFormulas } from '../formulas/mathml.js';
import { computeModel } from '../model/model.js';
import { addExportMenu } from '../output/export.js';
import { watchPrint } from '../output/print.js';
import { warmCharts } from './warm.js';

// Never the host's window.Chart: the elements draw with this copy.
useChartLib(Chart);

export {
  addExportMenu,
  Chart,
  CSS,
  chartInSteps,
  computeModel,
  fillFormulas,
  ready,
  refreshColors,
  setupDefaults,
  warmCharts,
  watchPrint,
};
