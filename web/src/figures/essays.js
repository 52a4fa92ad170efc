// The essay's first paragraphs, which come with the page's first script: the first chapter's and
// the summary's (prose.js holds every later chapter's, loaded as the reader goes on), and
// essayOf, which renders a row's paragraphs from either. A paragraph's {slot} is filled by
// slots(data, inputs) from the chapter's own data (lesson_row.js's essay() renders and rewrites
// them). Only the page reads these: an embedded figure comes without its prose.

import { el } from '../lib/dom.js';
import { essay } from './lesson_row.js';

const FIRST = {
  order: {
    prose: [
      'A model holds each word as a short list of numbers, a stick: here “{a}” is {stickA} and “{b}” is {stickB}. ' +
        'Attention weighs how much one word should listen to another with a dot product: what the first word ' +
        'looks for (its query, the post’s WANT tag) against what the second offers (its key, its HAVE tag). That ' +
        'is a sum over matching entries, and nothing in a sum says which word came first. Read “{a} {b}” or ' +
        '“{b} {a}”: the same two sticks go in, so the same scores come out.',
      'The chart scores the two words in both orders three ways. With no position every pair of bars matches: ' +
        'the largest change a swap makes is {plain}, and no sticks you type make them differ. Change each stick by ' +
        'its slot, its place in the sentence, before scoring and the swap shows: by up to {added} with a sinusoidal ' +
        'mark added, {rotated} with each stick turned (RoPE). The rest of the page asks which change to make.',
    ],
    slots: (d, i) => ({
      a: d.a,
      b: d.b,
      stickA: `[${i.stickA.join(', ')}]`,
      stickB: `[${i.stickB.join(', ')}]`,
      plain: [d.plain.diff, 0],
      added: [d.added.diff, 3],
      rotated: [d.rotated.diff, 3],
    }),
  },
};

// The summary (the flatness figure, the claim measured over every start), where the argument has
// reached it: after the proof and the planes. Its numbers are the settings panel's, said by its
// caption; its opening words depend on no input.
const SUMMARY = [
  'That is the whole argument for RoPE, and this figure is its summary, measured rather than argued. ' +
    'Take a query and a key of a real head’s width, hold them a fixed gap apart, and slide the pair along the ' +
    'sequence one start at a time. Turned by RoPE, every start gives the same score: the line is flat, because ' +
    'only the gap reaches the dot product. The same two vectors with sinusoidal marks added give a band that ' +
    'wanders with where the pair sits: the mixing of the marks chapter, at every start at once.',
  'The gap, width and base are the settings shown with this chart: move them and the line stays flat at every ' +
    'setting; only its height changes. Flat is not yet safe, though. A gap counts only if training showed the ' +
    'slow pairs its angle, and the next chapter follows those pairs to long range.',
];

/**
 * The opening paragraphs of a row (its element, id essay-NAME): a chapter's, live, or the
 * summary's; null when it has none. later: prose.js's CHAPTER_PROSE, once loaded.
 */
export function essayOf(row, later = {}) {
  if (row.part === 'claim') {
    return el('div', { class: 'essay', id: `essay-${row.name}` }, ...SUMMARY.map((text) => el('p', {}, text)));
  }
  const table = Object.hasOwn(FIRST, row.name) ? FIRST : Object.hasOwn(later, row.name) ? later : null;
  return table && row.chapter ? essay(row.chapter, row.name, table[row.name].prose, table[row.name].slots) : null;
}
