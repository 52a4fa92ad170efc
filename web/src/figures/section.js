// What the page and the element build from a figure's row: its <figure> section, its option in
// the embed menu, and the figure numbers the page's text names. The section needs the row's code
// (its controls and notes); the option and the numbers need only its head (figures/heads.js).

import { el } from '../lib/dom.js';
import { list } from '../lib/format.js';

/** The <figure> section of a row, built with DOM calls (no HTML strings). */
export function figureElement(row) {
  const { name } = row;
  return el(
    'figure',
    { class: 'fig', id: `fig-${name}`, 'data-view': name, 'aria-labelledby': `title-${name}` },
    el(
      'div',
      { class: 'fig-head' },
      el('h2', { id: `title-${name}` }, el('span', { class: 'fig-num' }, String(row.number)), row.title),
      el('p', { class: 'lookfor' }, row.lookfor),
    ),
    ...(row.controls ? [row.controls()] : []),
    el(
      'div',
      { class: 'chart-box' },
      el('canvas', { id: `chart-${name}`, role: 'img', 'aria-describedby': `caption-${name}` }, row.fallback),
    ),
    el('figcaption', { id: `caption-${name}`, class: 'caption' }),
    ...(row.notes ? [row.notes()] : []),
  );
}

/** The embed menu's option for a row. */
export function embedOption(row) {
  const option = document.createElement('option');
  option.value = row.name;
  option.textContent = `figure ${row.number}: ${row.embed}`;
  return option;
}

/**
 * Writes the figure numbers the page's text names, from the table: "Figures 2–4" in each
 * [data-figures="PART"] (the guide; "figures 2–4" with data-lower), "figures 1 and 4" in each
 * [data-figures-using="SETTING"]
 * (a setting's hint: the rows whose `uses` name it).
 */
export function numberGuide(rows, root = document) {
  for (const node of root.querySelectorAll('[data-figures], [data-figures-using]')) {
    const { figures: part, figuresUsing: using } = node.dataset;
    const runs = [];
    for (const { number } of rows.filter((row) => (part ? row.part === part : row.uses?.includes(using)))) {
      const last = runs[runs.length - 1];
      if (last && last[1] === number - 1) last[1] = number;
      else runs.push([number, number]);
    }
    if (!runs.length) continue;
    const noun = runs.length === 1 && runs[0][0] === runs[0][1] ? 'igure' : 'igures';
    // A part's number opens a sentence ("Figures 2–4") unless data-lower says it sits inside one.
    const capital = part && node.dataset.lower === undefined;
    // A run of three or more is a range ("2–4"); "4 and 5" stay two numbers.
    const items = runs.flatMap(([a, b]) => (b - a >= 2 ? [`${a}–${b}`] : b > a ? [a, b] : [a]));
    node.textContent = `${capital ? 'F' : 'f'}${noun} ${list(items)}`;
  }
}
