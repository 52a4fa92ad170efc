// The figures' names in page order: the ?view= values. The URL reader (state.js) needs only
// these, not the chart code; figures/index.js checks that its rows carry exactly these names.
export const FIGURE_NAMES = Object.freeze([
  'flatness', 'order', 'slot', 'normalized', 'marks', 'extrapolate', 'identity', 'cat', 'proof', 'planes', 'clock',
  'post', 'circle', 'terms', 'additive', 'length', 'angles', 'slow', 'decay', 'heatmap', 'range', 'scaling',
]);
