// Printing: every figure on paper at the current settings. Charts scrolled out of view hold
// new data but are drawn only when seen (app.js); before printing, every one is drawn now,
// and each is re-fitted to its box when the print layout comes and goes. The print
// stylesheet (style.css, @media print) hides the controls and keeps every canvas inside the
// page width.

import { restyleAll } from '../charts/figure.js';

/**
 * getCharts(): name -> chart handle (charts/figure.js), called at print time. Returns a
 * function that removes the three listeners again.
 */
export function watchPrint(getCharts) {
  const fitAll = () => {
    for (const handle of Object.values(getCharts())) {
      handle.redraw();
      handle.chart.resize();
    }
  };
  // Paper takes the light palette (style.css): the charts re-read it as print starts and ends.
  const restyle = () => {
    restyleAll(getCharts());
    fitAll();
  };
  const print = window.matchMedia('print');
  window.addEventListener('beforeprint', fitAll);
  window.addEventListener('afterprint', fitAll);
  print.addEventListener('change', restyle);
  return () => {
    window.removeEventListener('beforeprint', fitAll);
    window.removeEventListener('afterprint', fitAll);
    print.removeEventListener('change', restyle);
  };
}
