// Figure and table: the post, checked. Every number the blog post prints, with the core's
// recomputation (rope.js lesson_post): how far each printed number is from the true value, in
// units of the last digit the post prints, and below the figure the table of all of them,
// ✓ where the post is right at its own rounding and ✗ with the true value where it is not.

import { chartConfig, drawDashed, makeChart } from '../charts/figure.js';
import { axis, baseOptions, colors, logAxis } from '../charts/theme.js';
import { lesson_post, planes_example } from '../core/rope.js';
import { card, el } from '../lib/dom.js';
import { num } from '../lib/format.js';
import { CHAPTER_FIGURES } from './lesson_row.js';
import { POST_SCORE, postScoreMatches } from './planes.js';

const FLOOR = 1e-4; // an exact match is drawn here on the log axis
// The 512-dimension score is not in the core's table (its token is NumPy's random draw):
// the post prints the same number for both pairs of positions.
function planesRows() {
  return [
    [3, 7],
    [10, 14],
  ].map(([m, n]) => {
    const value = planes_example(42, 512, 10000, m, n).score;
    return {
      id: `planes.score.${m}.${n}`,
      label: `512 dimensions, seed 42: score at ${m} vs ${n}`,
      chapter: 'planes',
      text: POST_SCORE.text,
      printed: POST_SCORE.value,
      decimals: POST_SCORE.decimals,
      value,
      match: postScoreMatches(value),
    };
  });
}

/** The core's ASCII row names as the page prints maths: "0.9 x 0.4" → "0.9 × 0.4", "q . k" →
 * "q·k", "(3 - 7)" → "(3 − 7)", "cos -0.4" → "cos −0.4". */
const typeset = (label) =>
  label
    .replace(/(\S) x (?=\S)/g, '$1 × ')
    .replace(/ \. /g, '·')
    .replace(/ - /g, ' − ')
    .replace(/(^|[ (])-(?=\d)/g, '$1−');

let rows = null;
const postRows = () =>
  (rows ??= [...lesson_post(), ...planesRows()].map((row, index) => {
    // One unit of the last printed digit, read from the decimals (no pow): "1e-4" for 4 decimals.
    const unit = Number(`1e-${row.decimals}`);
    return { ...row, label: typeset(row.label), index: index + 1, off: Math.abs(row.value - row.printed) / unit };
  }));

/** The recomputed value written as the post would print it (its decimals), real minus sign. */
export const asPrinted = (row) => {
  const text = row.value.toFixed(row.decimals);
  return (/^-0\.?0*$/.test(text) ? text.slice(1) : text).replace('-', '−');
};
const minus = (text) => text.replace('-', '−');

function fill(target, data, c) {
  const [right, wrong] = target.data.datasets;
  right.data = data.rows.filter((r) => r.match).map((r) => ({ x: r.index, y: Math.max(r.off, FLOOR) }));
  wrong.data = data.rows.filter((r) => !r.match).map((r) => ({ x: r.index, y: Math.max(r.off, FLOOR) }));
  right.backgroundColor = c.rope;
  right.borderColor = c.rope;
  wrong.backgroundColor = c.add;
  wrong.borderColor = c.add;
  target.options.scales.x.max = data.rows.length + 1;
  // Room for the farthest slip (the 512-dimension score is millions of units off): the next
  // power of ten above it, and at least 10⁶.
  const farthest = Math.max(...data.rows.map((r) => r.off));
  target.options.scales.y.max = Math.max(1e6, 10 ** Math.ceil(Math.log10(farthest)));
}

function createPostChart(canvas, data) {
  const c = colors(canvas);
  const options = baseOptions(c, 'nearest');
  options.scales = {
    x: axis(c, 'the post’s numbers, in the order it prints them', { type: 'linear', min: 0, ticks: { stepSize: 5 } }),
    y: logAxis(c, 'how far off, in units of the post’s last digit', { min: FLOOR, max: 1e6 }), // fill widens max
  };
  let shown = data;
  options.plugins.tooltip.callbacks = {
    title: (items) => shown.rows[items[0].parsed.x - 1]?.label ?? '',
    label: (item) => {
      const row = shown.rows[item.parsed.x - 1];
      return row ? `post ${minus(row.text)}, true ${asPrinted(row)} (${num(row.value, 7)})` : '';
    },
  };
  const half = {
    id: 'postHalfUnit',
    afterDatasetsDraw(chart) {
      const { x, y } = chart.scales;
      const level = y.getPixelForValue(0.5);
      drawDashed(chart, [x.left, level, x.right, level], { color: colors(chart.canvas).muted, width: 1, dash: [5, 4] });
    },
  };
  const point = { parsing: false, showLine: false, pointRadius: 4, pointHoverRadius: 6 };
  const config = chartConfig(
    'line',
    [
      { label: 'right at the post’s rounding ✓', data: [], ...point },
      { label: 'wrong ✗', data: [], ...point, pointStyle: 'crossRot', pointRadius: 8, pointBorderWidth: 3 },
    ],
    options,
    { plugins: [half] },
  );
  const legend = [
    {
      text: 'the post is right at its rounding (under half a unit: the dashed line) ✓',
      mark: 'dot',
      color: 'var(--c-rope)',
    },
    { text: 'the post is wrong ✗', mark: 'dot', color: 'var(--c-add)' },
  ];
  return makeChart(canvas, {
    config,
    data,
    fill,
    legend,
    onData: (next) => {
      shown = next;
    },
  });
}

const HEADS = ['number', 'chapter', 'the post prints', 'recomputed', 'check'];

/** The table of every checked number, built with DOM calls, each row linking to its chapter. */
function postTable() {
  const body = postRows().map((row) => {
    const chapter = CHAPTER_FIGURES.includes(row.chapter)
      ? el('a', { href: `#fig-${row.chapter}` }, row.chapter)
      : row.chapter;
    return el(
      'tr',
      { id: `post-${row.id.replace(/[^a-z0-9-]/gi, '-')}`, class: row.match ? 'post-ok' : 'post-wrong' },
      // data-label: the column's heading, which a phone's card shows before each cell (style.css)
      el('td', { 'data-label': HEADS[0] }, row.label),
      el('td', { 'data-label': HEADS[1] }, chapter),
      el('td', { class: 'num', 'data-label': HEADS[2] }, minus(row.text)),
      el('td', { class: 'num', 'data-label': HEADS[3] }, asPrinted(row)),
      el('td', { class: 'post-mark', 'data-label': HEADS[4] }, row.match ? '✓' : `✗ true value ${asPrinted(row)}`),
    );
  });
  const wrong = postRows().filter((r) => !r.match).length;
  return card(
    'post-checked',
    'post-checked',
    'Every number in the post, recomputed',
    `${postRows().length} numbers; ${wrong} of them are not the true value at the post’s own rounding. ` +
      'Each is recomputed here by the same functions that draw the chapters; the chapter column leads to its figure.',
    el(
      'div',
      { class: 'table-scroll' },
      el(
        'table',
        { class: 'post-table' },
        el('thead', {}, el('tr', {}, ...HEADS.map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, ...body),
      ),
    ),
  );
}

const data = () => ({ rows: postRows() });

export default {
  name: 'post',
  part: 'lesson',
  title: 'The post, checked',
  lookfor:
    'Every number the post prints, recomputed. Look for: almost every dot sits under the dashed line ' +
    '(right at the post’s rounding); the crosses above it are the post’s slips, listed with their true values below.',
  fallback: 'How far each of the post’s numbers is from its true value.',
  embed: 'the post, checked',
  make: createPostChart,
  data,
  caption: (state, model, d) => {
    const wrong = d.rows.filter((r) => !r.match);
    return (
      `${d.rows.length} numbers checked, ${d.rows.length - wrong.length} right (✓) and ${wrong.length} wrong (✗): ` +
      wrong.map((r) => `${r.label}: the post prints ${minus(r.text)}, the true value is ${asPrinted(r)}`).join('; ') +
      '.'
    );
  },
  label: (state, model, d) =>
    `Scatter: ${d.rows.length} of the post’s numbers by how far each is from the recomputed ` +
    `value; ${d.rows.filter((r) => !r.match).length} are wrong at the post’s rounding.`,
  after: postTable,
};
