// Chart.js, which draws every figure but the first screen's miniature (charts/sparkline.js).
// Opened from disk (dist/ropescope.html) the page has it inline, before the page's script; served,
// the page fetches it as a file of its own (app.js): after the first screen is painted, which
// draws no Chart.js chart, or at once where a page shows nothing but charts (an embed, a view=).
const SRC = 'vendor/chart.js';
let loading = null;

/** Whether Chart.js is here (window.Chart, set by vendor/chart.js). */
export const chartJsHere = () => typeof window.Chart === 'function';

/** Chart.js, fetched once; a load that fails rejects with the file's name, and is tried again on the next call. */
export function loadChartJs() {
  if (chartJsHere()) return Promise.resolve(window.Chart);
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SRC;
    script.addEventListener('load', () =>
      chartJsHere() ? resolve(window.Chart) : reject(new Error(`${SRC} loaded but set no Chart`)),
    );
    script.addEventListener('error', () => reject(new Error(`${SRC} did not load`)));
    document.head.append(script);
  }).catch((error) => {
    loading = null;
    document.querySelector(`script[src="${SRC}"]`)?.remove();
    throw error;
  });
  return loading;
}
