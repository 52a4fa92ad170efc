// Chart.js, which draws every figure but the first screen's miniature (charts/sparkline.js).
// Opened from disk (dist/ropescope.html) the page has it inline, before the page's script; served,
// the page fetches it as a file of its own (app.js): after the first screen is painted, which
// draws no Chart.js chart, or at once where a page shows nothing but charts (an embed, a view=).
import { loadScript } from '../lib/dom.js';

const SRC = 'vendor/chart.js';
let loading = null;

/** Whether Chart.js is here (window.Chart, set by vendor/chart.js). */
export const chartJsHere = () => typeof window.Chart === 'function';

/** Chart.js, fetched once; a load that fails rejects with the file's name, and is tried again on the next call. */
export function loadChartJs() {
  if (chartJsHere()) return Promise.resolve(window.Chart);
  loading ??= loadScript(SRC)
    .then(() => {
      if (!chartJsHere()) throw new Error(`${SRC} loaded but set no Chart`);
      return window.Chart;
    })
    .catch((error) => {
      loading = null;
      throw error;
    });
  return loading;
}
