// The kind of warm-up chart the element makes (warm.js): a line chart, which the element for
// posts, showing any view, can always make. A one-view script (tools/embed_views.mjs) puts its
// view's kind here ('line', 'bar', or null for none: chart_views.mjs's warmKind).
export const WARM_KIND = 'line';
