// What the lesson's chapter rows share: each chapter keeps its own inputs (beside its chart,
// row.controls) rather than the page's settings. chapterRow() turns a chapter's defaults and
// compute(inputs) (wasm calls through rope.js) into the row fields app.js reads: data() hands
// back the same object until an input changes, so app.js's render() never redraws it; an input
// of the chapter redraws its own chart and rewrites its caption and label at once. The inputs are
// one per page: where the chapter is drawn more than once (several <rope-scope> elements), every
// copy follows, each caption found from its own canvas (a shadow root hides it from document).

import { FIGURE_NAMES } from '../../gen/figure_names.js';
import { chartConfig, makeChart, paint } from '../charts/figure.js';
import { baseOptions, colors } from '../charts/theme.js';
import { sliderScale } from '../controls/scale.js';
import { el } from '../lib/dom.js';
import { num } from '../lib/format.js';
import { chapterParam } from '../state/chapters.js';

/**
 * A chapter row. spec: the row's fields, plus
 *   inputs   { name: default value } (numbers, strings, booleans, arrays); a value made by
 *            slider() or box() is a number input of its own, id `${name}-${key}`
 *   compute  (inputs) -> the chart's data (numbers from the core)
 *   caption, label  (data, inputs) -> text
 *   make     (canvas, data, chapter) -> chart handle; chapter.set() lets the chart change inputs
 *   extras   (chapter) -> elements after the number inputs: buttons, toggles, hints (optional)
 *   readout  (data, inputs) -> a line of live numbers after them, id `${name}-readout` (optional)
 *   part     'lesson' unless given
 */
export function chapterRow(spec) {
  const { inputs: declared, compute, make, extras, readout: write, caption, label, ...fields } = spec;
  const row = { part: 'lesson', ...fields };
  const numbers = Object.entries(declared).filter(([, value]) => isNumber(value));
  const defaults = Object.fromEntries(
    Object.entries(declared).map(([key, value]) => [key, isNumber(value) ? value[NUMBER] : value]),
  );
  const inputs = structuredClone(defaults);
  let data = null;
  // Every drawing of the chapter still on a page: { canvas, handle }.
  let views = [];
  const current = () => (data ??= compute(inputs));
  // The chapter's animation, if one runs: its frame request and what to do when it stops.
  let animation = null;
  let stepping = false;
  const chapter = {
    inputs,
    data: current,
    /** Back to the declared inputs (an animation stops first: the reset wins). */
    reset: () => chapter.set(structuredClone(defaults)),
    /**
     * Runs step(frame) once a frame (frame 1, 2, ...) until it returns false or stop() is called;
     * onStop() runs either way. Any set() not made by the step (a reset, a slider, a drag) stops
     * it first, so the reader's change is the one that stays.
     */
    animate(step, onStop = () => {}) {
      chapter.stop();
      let frame = 0;
      const mine = { id: 0, onStop };
      const next = () => {
        if (animation !== mine) return;
        stepping = true;
        let more;
        try {
          more = step(++frame);
        } finally {
          stepping = false;
        }
        if (more === false) chapter.stop();
        else if (animation === mine) mine.id = requestAnimationFrame(next);
      };
      animation = mine;
      mine.id = requestAnimationFrame(next);
    },
    /** Stops the running animation where it is (nothing when none runs). */
    stop() {
      if (!animation) return;
      const { id, onStop } = animation;
      animation = null;
      cancelAnimationFrame(id);
      onStop();
      for (const settled of SETTLED) settled(row.name);
    },
    /** Inputs from a link, before anything is drawn: computed when first asked for. */
    preset(values) {
      Object.assign(inputs, values);
      data = null;
    },
    /** Whether an animation runs. */
    animating: () => animation !== null,
    /** Changes inputs, recomputes, redraws the chart and rewrites its caption and label. */
    set(values) {
      if (!stepping) chapter.stop();
      Object.assign(inputs, values);
      data = compute(inputs);
      views = views.filter((view) => view.canvas.isConnected);
      for (const { canvas, handle } of views) {
        handle.update(data, true);
        const text = canvas.getRootNode().getElementById?.(`caption-${row.name}`);
        if (text) text.textContent = caption(data, inputs);
        canvas.setAttribute('aria-label', label(data, inputs));
      }
      // A chapter built on the page whose chart is not made yet (off screen, or Chart.js still
      // coming) says the new values in its caption all the same.
      if (!views.length && typeof document !== 'undefined') {
        const text = document.getElementById(`caption-${row.name}`);
        if (text) text.textContent = caption(data, inputs);
        document.getElementById(`chart-${row.name}`)?.setAttribute('aria-label', label(data, inputs));
      }
      prune();
      for (const { listener } of listeners) listener(data, inputs);
      for (const changed of CHANGED) changed(row.name);
      return data;
    },
    /**
     * listener(data, inputs) after every set(): readouts beside the chart. node is the element
     * it writes to: once a rebuild has taken that element off the page, the listener goes too,
     * so old controls are not kept alive.
     */
    onSet(listener, node) {
      prune();
      listeners.push({ listener, node, build });
    },
  };
  // Each input's URL row, from what tools/figure_heads.mjs also writes into the page's heads.
  const urlInputs = Object.entries(declared).map(([key, value]) => ({
    key,
    default: defaults[key],
    spec: isNumber(value) ? { text: value.text, min: value.min, max: value.max } : null,
  }));
  const params = urlInputs.map((input) => chapterParam(row.name, input.key, input.default, input.spec));
  REGISTRY.push({ name: row.name, chapter, params, urlInputs });
  // Values a link gave this chapter before it was made (the page loads chapters as they near).
  const early = {};
  for (const p of params) {
    if (!pending.has(p.name)) continue;
    early[p.name.slice(p.name.indexOf('.') + 1)] = pending.get(p.name);
    pending.delete(p.name);
  }
  if (Object.keys(early).length) chapter.preset(early);
  let listeners = [];
  // Each build of the figure (its controls, its chart) is a new generation; a listener of an
  // older one whose element is off the page belongs to a figure that was rebuilt.
  let build = 0;
  const prune = () => {
    listeners = listeners.filter((entry) => entry.node.isConnected || entry.build === build);
  };
  return {
    ...row,
    chapter,
    // The chapter's own data, not the page's last render's (`_first`): an input set since then
    // is drawn as it is now.
    make: (canvas, _first) => {
      build++;
      const handle = make(canvas, current(), chapter);
      views = [...views.filter((view) => view.canvas.isConnected && view.canvas !== canvas), { canvas, handle }];
      // A drawing destroyed (a <rope-scope> rebuilt for another view) lets go of its canvas, and
      // its figure's readouts once they are off the page: each held the whole old figure.
      const { destroy } = handle;
      handle.destroy = () => {
        views = views.filter((view) => view.handle !== handle);
        build++;
        queueMicrotask(prune);
        destroy.call(handle);
      };
      return handle;
    },
    data: () => current(),
    caption: () => caption(current(), inputs),
    label: () => label(current(), inputs),
    ...(numbers.length || extras || write
      ? {
          controls: () => {
            build++;
            return el(
              'div',
              { class: 'fig-controls chapter-controls' },
              ...numbers.map(([key, input]) => numberInput(chapter, key, `${row.name}-${key}`, input)),
              ...(extras?.(chapter) ?? []),
              ...(write ? [readout(chapter, `${row.name}-readout`, write)] : []),
              ...(linkQuery ? [chapterLink(row.name)] : []),
            );
          },
        }
      : {}),
  };
}

// Every chapter made on this page, with the URL rows of its inputs (state/chapters.js), and who
// hears of any chapter's change and of an animation's end (the address bar).
const REGISTRY = [];
const CHANGED = [];
const SETTLED = [];
// The page loads a chapter's code only as the reader nears it, but reads and writes every
// chapter's inputs in its links from the start: `declared` holds the URL rows of every chapter,
// made from the heads (declareChapters), and `pending` the values a link gave the chapters not
// made yet (URL name -> value, already checked), which each takes when it is made.
let declared = null;
const pending = new Map();

/** The chapters made so far and their inputs (key, default, spec), for tools/figure_heads.mjs. */
export const registeredChapters = () =>
  REGISTRY.map(({ name, params, urlInputs }) => ({ name, keys: params.map((p) => p.name), inputs: urlInputs }));

/**
 * The page's every chapter before any is made: [{ name, inputs }] as registeredChapters gives
 * them (the heads carry them), in the order a link lists them.
 */
export function declareChapters(chapters) {
  declared = chapters.flatMap(({ name, inputs }) =>
    inputs.map((input) => chapterParam(name, input.key, input.default, input.spec)),
  );
}

const made = (name) => REGISTRY.find((entry) => entry.params.some((p) => p.name === name));
// Every chapter input's URL row in link order, with the chapter made for it (or undefined).
function urlRows() {
  if (!declared) return REGISTRY.flatMap((entry) => entry.params.map((p) => ({ p, entry })));
  return declared.map((row) => {
    const entry = made(row.name);
    return { p: entry ? entry.params.find((p) => p.name === row.name) : row, entry };
  });
}

/** The URL names of every chapter's inputs (clock.gap, cat.q, ...). */
export const chapterKeys = () => new Set(urlRows().map(({ p }) => p.name));

const keyOf = (p) => p.name.slice(p.name.indexOf('.') + 1);

/**
 * Sets every chapter's inputs from a link's texts { name: text } (readQuery's chapters); a text
 * refused leaves that input at its default. A chapter not made yet takes its values when it is.
 * Returns the problems as readQuery gives them.
 */
export function readChapters(texts) {
  const problems = [];
  const values = new Map(); // chapter -> { key: value }
  for (const { p, entry } of urlRows()) {
    if (!Object.hasOwn(texts, p.name)) continue;
    const read = p.parse(texts[p.name]);
    if (!read.ok) problems.push({ name: p.name, text: texts[p.name], message: read.message, chapter: p });
    else if (!entry) pending.set(p.name, read.value);
    else values.set(entry.chapter, { ...values.get(entry.chapter), [keyOf(p)]: read.value });
  }
  for (const [chapter, set] of values) chapter.preset(set);
  return problems;
}

/**
 * Every chapter shown as a link's texts { name: text } say (Back and Forward): an input the
 * texts leave out or refuse takes its default. Only the chapters whose inputs change are set,
 * so redrawn. Returns the problems as readChapters does.
 */
export function restoreChapters(texts) {
  const problems = [];
  const read = (p) => {
    if (!Object.hasOwn(texts, p.name)) return structuredClone(p.default);
    const got = p.parse(texts[p.name]);
    if (got.ok) return got.value;
    problems.push({ name: p.name, text: texts[p.name], message: got.message, chapter: p });
    return structuredClone(p.default);
  };
  pending.clear();
  for (const { p, entry } of urlRows()) {
    if (entry) continue;
    const value = read(p);
    if (p.serialize(value) !== p.serialize(p.default)) pending.set(p.name, value);
  }
  for (const { chapter, params } of REGISTRY) {
    const values = {};
    let changed = chapter.animating();
    for (const p of params) {
      const key = keyOf(p);
      values[key] = read(p);
      if (p.serialize(values[key]) !== p.serialize(chapter.inputs[key])) changed = true;
    }
    if (changed) chapter.set(values);
  }
  return problems;
}

/** [[name, text]] of the chapters' inputs that differ from their defaults, for writeQuery. */
export function chapterQuery() {
  return urlRows().flatMap(({ p, entry }) => {
    const value = entry ? entry.chapter.inputs[keyOf(p)] : pending.has(p.name) ? pending.get(p.name) : p.default;
    const text = p.serialize(value);
    return text === p.serialize(p.default) ? [] : [[p.name, text]];
  });
}

/** Every chapter back to its declared inputs (animations stop); a link's values for the chapters not made yet are dropped. */
export function resetChapters() {
  pending.clear();
  for (const { chapter } of REGISTRY) chapter.reset();
}

/** changed(name) after any chapter's inputs change. */
export const onChapterChange = (changed) => CHANGED.push(changed);

/** settled(name) when a chapter's animation stops (its last frame is a state to go back to). */
export const onChapterSettle = (settled) => SETTLED.push(settled);

// The query string of everything shown, set by the page (its settings and the chapters'); an
// embed or a <rope-scope> element, whose address is not the page's, sets none and shows no link.
let linkQuery = null;
/** query() -> the query string a chapter's "link to this" carries. */
export const setLinkQuery = (query) => {
  linkQuery = query;
};

/**
 * "link to this": a link to the page as shown, at the chapter's anchor. Its href stays current
 * (a reader can copy it from the link's own menu); a click copies it and says so.
 */
function chapterLink(name) {
  const note = el('span', { class: 'hint', id: `${name}-link-msg`, 'aria-live': 'polite' });
  const link = el('a', { href: '#', id: `${name}-link`, class: 'chapter-link' }, 'link to this');
  const fresh = () => {
    link.href = new URL(`${linkQuery()}#fig-${name}`, window.location.href).href;
  };
  for (const event of ['pointerenter', 'focus', 'contextmenu']) link.addEventListener(event, fresh);
  link.addEventListener('click', async (event) => {
    event.preventDefault();
    fresh();
    try {
      await navigator.clipboard.writeText(link.href);
      note.textContent = 'Copied: the link opens this chapter as it is now.';
    } catch {
      note.textContent = 'Could not copy; the link’s own menu copies it too.';
    }
  });
  fresh();
  return el('div', { class: 'control chapter-link-row' }, link, ' ', note);
}

// The mark of an input declared with slider() or box(): its default value.
const NUMBER = Symbol('default');

const isNumber = (value) => value?.[NUMBER] !== undefined;

/**
 * A chapter input shown as a slider and its number box: its default, label and range. thumbMax:
 * where the slider ends when the box reaches further (the cat's positions: the slider keeps two
 * pixels a position, the box takes up to max).
 */
export const slider = (value, text, min, max, step = 1, hint = '', { thumbMax = max } = {}) => ({
  [NUMBER]: value,
  text,
  min,
  max,
  step,
  hint,
  thumbMax,
});

/**
 * A whole-number chapter input over a wide range (slot 0 … 50,000) on a log slider, with − and +
 * buttons and arrow keys that step by 1; marks: values the thumb snaps to (the post's).
 */
export const logSlider = (value, text, min, max, { hint = '', marks = [] } = {}) => ({
  ...slider(value, text, min, max, 1, hint),
  log: true,
  marks,
});

/** A chapter input shown as a number box alone (a range too wide for a slider). */
export const box = (value, text, min, max, step = 1) => ({ ...slider(value, text, min, max, step), slider: false });

/**
 * A labelled number input of a chapter (spec from slider() or box()), id `${id}`; a value
 * outside [min, max] or not a number is refused with a message naming the input's label, and
 * the chapter keeps its last value.
 */
function numberInput(chapter, key, id, spec) {
  const { text, min, max, slider = true, log = false, hint } = spec;
  const msg = el('p', { id: `${id}-msg`, class: 'msg', role: 'alert' });
  const box = el('input', {
    type: 'text',
    id: `${id}-num`,
    inputmode: 'decimal',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': `${id}-msg`,
    ...(slider ? { 'aria-label': `${text}, exact value` } : {}),
  });
  box.value = String(chapter.inputs[key]);
  const scale = sliderScale(spec);
  const range = slider
    ? el('input', {
        type: 'range',
        id,
        min: String(scale.min),
        max: String(scale.max),
        step: String(scale.step),
        'aria-describedby': `${id}-msg`,
      })
    : null;
  const place = (value) => {
    if (!range) return;
    range.value = String(scale.toRange(value));
    if (log) range.setAttribute('aria-valuetext', String(value));
  };
  place(chapter.inputs[key]);
  const accept = (value, from) => {
    if (!Number.isFinite(value) || value < min || value > max) {
      msg.textContent = `${text} must be a number from ${min} to ${max}`;
      box.setAttribute('aria-invalid', 'true');
      return;
    }
    msg.textContent = '';
    box.removeAttribute('aria-invalid');
    if (from !== box) box.value = String(value);
    if (from !== range) place(value);
    chapter.set({ [key]: value });
  };
  range?.addEventListener('input', () => {
    const perPixel = (scale.max - scale.min) / Math.max(range.clientWidth, 1);
    accept(scale.fromRange(Number(range.value), perPixel), range);
  });
  // A log slider's native step is a fraction of a decade; its keys step whole values instead.
  range?.addEventListener('keydown', (event) => {
    const next = scale.next(chapter.inputs[key], event.key);
    if (next === undefined) return;
    event.preventDefault();
    accept(next, null);
  });
  box.addEventListener('change', () => accept(box.value.trim() === '' ? NaN : Number(box.value), box));
  chapter.onSet((_, inputs) => {
    if (document.activeElement !== box) box.value = String(inputs[key]);
    place(inputs[key]);
  }, box);
  // − and + reach every whole value by pointer or touch, where a log slider's pixel spans many.
  const nudge = (dir, sign, words) => {
    const button = el(
      'button',
      { type: 'button', class: 'nudge', id: `${id}-${dir > 0 ? 'more' : 'less'}`, 'aria-label': `${text}: ${words}` },
      sign,
    );
    button.addEventListener('click', () => accept(Math.min(max, Math.max(min, chapter.inputs[key] + dir)), null));
    return button;
  };
  const steppers = log ? [nudge(-1, '−', 'one less'), nudge(1, '+', 'one more')] : [];
  // A step past the range's end would do nothing: that button is off while the value is there.
  const ends = (value) => {
    if (!steppers.length) return;
    steppers[0].disabled = value <= min;
    steppers[1].disabled = value >= max;
  };
  ends(chapter.inputs[key]);
  chapter.onSet((_, inputs) => ends(inputs[key]), box);
  const labelFor = slider ? id : `${id}-num`;
  const head = el('label', { for: labelFor }, text, ...(hint ? [' ', el('span', { class: 'hint' }, hint)] : []));
  const row = el('div', { class: log ? 'control-row stepped' : 'control-row' }, range, ...steppers, box);
  // A log slider takes a whole row of the controls: its pixels are what make slots 1 … 10 reachable.
  return el('div', { class: log ? 'control wide' : 'control' }, head, slider ? row : box, msg);
}

/**
 * A chapter's chart whose tooltip lists every dataset at the hovered index (bars by default).
 * fill(target, data, c) fills it in, labels too; spec: { type, scales: (c) -> { x, y },
 * datasets, plugins, legend }. A dataset may name its colour by role (`color: 'rope'`, a key
 * of colors()): its fill and its line take that colour of the current theme, and its `key`
 * text is its legend entry (a box for bars, a dot for points alone, else a line) where the
 * spec gives no legend of its own.
 */
export function indexChart(canvas, data, fill, { type = 'bar', scales, datasets, plugins, legend }) {
  const c = colors(canvas);
  const options = baseOptions(c, 'index');
  options.scales = scales(c);
  const roles = datasets.map(({ color }) => color);
  const sets = datasets.map(({ color, key, ...set }) => set);
  const mark = (set) => ((set.type ?? type) === 'bar' ? 'box' : set.showLine === false ? 'dot' : 'line');
  legend ??= datasets
    .filter((set) => set.key)
    .map((set) => ({ text: set.key, mark: mark(set), color: `var(--c-${set.color})` }));
  const fillAndPaint = (target, next, theme) => {
    fill(target, next, theme);
    target.data.datasets.forEach((set, i) => roles[i] && paint(theme[roles[i]], [set], true));
  };
  const config = chartConfig(type, sets, options, { labels: [], plugins });
  return makeChart(canvas, { config, data, fill: fillAndPaint, legend });
}

/**
 * makeChart(canvas, spec) for a chart whose plugins and pointer handlers read its data:
 * chart[key] ($cat, say) holds the data it last drew.
 */
export function keptChart(canvas, key, spec) {
  let chart;
  const handle = makeChart(canvas, {
    ...spec,
    onData: (next) => {
      if (chart) chart[key] = next;
    },
  });
  chart = handle.chart;
  chart[key] = spec.data;
  chart.update('none');
  return handle;
}

/**
 * A plugin of a keptChart that draws from its kept data: draw(chart, data, colors) in the
 * plugin hook `hook` (beforeDatasetsDraw, say), once the chart holds data at `key`.
 */
export const keptDraw = (id, hook, key, draw) => ({
  id,
  [hook]: (chart) => chart[key] && draw(chart, chart[key], colors(chart.canvas)),
});

/** The inputs of a chapter on the rotated cat: query position m, key position n and θ. */
export const CAT_INPUTS = Object.freeze({
  m: slider(3, 'query position m', 0, 1000, 1, 'slider to 60, box to 1000', { thumbMax: 60 }),
  n: slider(7, 'key position n', 0, 1000, 1, 'slider to 60, box to 1000', { thumbMax: 60 }),
  theta: box(0.1, 'θ (radians per position)', -3.14, 3.14, 0.01),
});

/** A line of live numbers beside a chart, rewritten by write(data, inputs) after every change. */
function readout(chapter, id, write) {
  const node = el('div', { class: 'chapter-readout', id, 'aria-live': 'polite' });
  const fill = (data, inputs) => node.replaceChildren(...[].concat(write(data, inputs)));
  fill(chapter.data(), chapter.inputs);
  chapter.onSet(fill, node);
  return node;
}

/**
 * A chapter's opening paragraphs (figures/essays.js and prose.js), id `essay-${name}`. Each {slot} of a
 * template becomes a span (class live, data-slot, and data-value: the number before rounding)
 * that slots(data, inputs) -> { slot: a number, [number, decimals] or text } fills and every
 * set() rewrites, as the readout is; a slot slots() leaves out is an error, not a blank.
 */
export function essay(chapter, name, templates, slots) {
  const spans = [];
  const paragraph = (text) =>
    el(
      'p',
      {},
      ...text.split(/(\{\w+\})/).map((part) => {
        const slot = /^\{(\w+)\}$/.exec(part)?.[1];
        if (!slot) return part;
        const span = el('span', { class: 'live', 'data-slot': slot });
        spans.push(span);
        return span;
      }),
    );
  const node = el('div', { class: 'essay', id: `essay-${name}` }, ...templates.map(paragraph));
  const fill = (data, inputs) => {
    const got = slots?.(data, inputs) ?? {};
    for (const span of spans) {
      const { slot } = span.dataset;
      if (!Object.hasOwn(got, slot)) throw new Error(`${name}: the prose's {${slot}} has no value`);
      const [value, decimals] = [].concat(got[slot]);
      if (typeof value === 'number') span.dataset.value = String(value);
      span.textContent = typeof value === 'number' ? proseNumber(value, decimals) : value;
    }
  };
  fill(chapter.data(), chapter.inputs);
  chapter.onSet(fill, node);
  return node;
}

/** A number in prose: `decimals` decimals if given, else an integer with thousands separators
 * or, as an input is typed, up to 4 significant digits. */
function proseNumber(x, decimals) {
  if (decimals !== undefined) return d4(x, decimals);
  return Number.isInteger(x) ? x.toLocaleString('en-US').replace('-', '−') : num(x);
}

/**
 * Whether training met the angle of `at`, as every lesson chapter and rope_scaling_range count
 * it (at, trained: lesson_clock results, `trained` over the training length): every angle once
 * training swept a whole turn, else an angle no larger, unwrapped, than the largest it reached
 * (a relative 1e-9 lets the training length itself in). A gap whose angle whole turns bring back
 * over the wedge on the dial is outside: the model never met an angle that large.
 * { inside, covered, turns (whole turns of `at`), wrapped (outside, yet on the wedge's dial) }.
 */
export function trainedRange(at, trained) {
  const covered = trained.turns * (1 + 1e-9) >= 1;
  const inside = covered || at.radians <= trained.radians * (1 + 1e-9);
  const turns = Math.floor(at.turns);
  return { inside, covered, turns, wrapped: !inside && turns >= 1 && at.dial <= trained.degrees };
}

/** "1 whole turn", "3 whole turns". */
export const wholeTurns = (k) => `${k} whole turn${k === 1 ? '' : 's'}`;

/** 4 decimals with a real minus sign, as the post prints its numbers. */
export const d4 = (x, decimals = 4) => {
  const text = x.toFixed(decimals);
  return (/^-0\.0+$/.test(text) ? text.slice(1) : text).replace('-', '−');
};

/** The chapters drawn as figures (the post's table links these; the others are named only):
 *  the figures from the first chapter up to the post's table, the summary among them left out. */
export const CHAPTER_FIGURES = Object.freeze(
  FIGURE_NAMES.slice(FIGURE_NAMES.indexOf('order'), FIGURE_NAMES.indexOf('post')).filter((name) => name !== 'flatness'),
);
