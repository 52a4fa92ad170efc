// Which Chart.js the charts use: the page's global one (vendor/chart.js sets window.Chart),
// or the copy the <rope-scope> element loads (element/draw.js calls useChartLib), so an
// embedding page's own Chart.js, of any version, is never touched.
let lib = null;

/** Use this Chart.js class instead of window.Chart (call before the first chart). */
export function useChartLib(Chart) {
  lib = Chart;
}

/** The Chart.js class in use. */
export function chartLib() {
  return lib ?? window.Chart;
}
