// Printing: every figure on paper at the current settings. Charts scrolled out of view hold
// new data but are drawn only when seen (app.js); before printing, every one is drawn now,
// and each is re-fitted to its box when the print layout comes and goes. The print
// stylesheet (style.css, @media print) hides the controls and keeps every canvas inside the
// page width.

import { restyleAll } from '../charts/figure.js';

/** getCharts(): name -> chart handle (charts/figure.js), called at print time. */
export function watchPrint(getCharts) {
  const fitAll = () => {
    for (const handle of Object.values(getCharts())) {
      handle.redraw();
      handle.chart.resize();
    }
  };
  window.addEventListener('beforeprint', fitAll);
  window.addEventListener('afterprint', fitAll);
  // Paper takes the light palette (style.css): the charts re-read it as print starts and ends.
  window.matchMedia('print').addEventListener('change', () => {
    restyleAll(getCharts());
    fitAll();
  });
}
