// style.css cut to what one script can show (tools/embed_views.mjs, for a one-view embed): a
// rule is dropped when every selector of its list names a class or an id that the script's code
// never writes, so no element of its shadow root can match it (the page's header, panel, builder
// and long-context part, which a one-view embed never builds). A name counts as written when it
// is a word of the code, or begins with a word the code completes at run time (`chart-${name}`,
// `p${pair}`, 'fig-' + name). Rules without a class or an id (`:root`, `button`, `[hidden]`) and
// every at-rule other than @media stay. The minified stylesheet (esbuild's) is read as blocks of
// `prelude{body}`; it holds no brace inside a string (pruneCss checks).
// tests/browser/frame.test.mjs checks, in every view's document, that each rule of the whole
// stylesheet matching an element of its shadow root is kept.

const WORD = /[A-Za-z_][\w-]*/g;

/** What `code` may write as a class or an id: its words, and the words it completes. */
export function writtenNames(code) {
  const words = new Set(code.match(WORD));
  const prefixes = new Set();
  for (const m of code.matchAll(/([A-Za-z_][\w-]*)\$\{/g)) prefixes.add(m[1]);
  for (const word of words) if (word.endsWith('-')) prefixes.add(word);
  return (name) => words.has(name) || [...prefixes].some((prefix) => name.startsWith(prefix));
}

// The classes and ids an element must have for `selector` to match it. Those inside parentheses
// are not counted: :not(.x) matches where no .x is written, and :is(.x, .y) needs only one.
function required(selector) {
  let bare = selector;
  for (let before = ''; before !== bare; ) {
    before = bare;
    bare = bare.replace(/\([^()]*\)/g, '');
  }
  return [...bare.matchAll(/[.#](-?[A-Za-z_][\w-]*)/g)].map(([, name]) => name);
}

// A selector list split at its top-level commas (not those inside :is(...) or :not(...)).
function selectors(list) {
  const out = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === '(') depth++;
    else if (list[i] === ')') depth--;
    else if (list[i] === ',' && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out;
}

// The index of the brace closing the block opened at `open`.
function closing(css, open) {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    if (css[i] === '{') depth++;
    else if (css[i] === '}' && --depth === 0) return i;
  }
  throw new Error(`css_prune: a block opened at ${open} is not closed`);
}

function checkNoBraceInString(css) {
  let quote = null;
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      else if (c === '{' || c === '}') throw new Error(`css_prune: a brace inside a string at ${i}`);
    } else if (c === '"' || c === "'") quote = c;
  }
}

/** Every selector of css's style rules, inside @media too, as written there. */
export function selectorsOf(css) {
  const all = [];
  pruneCss(
    css,
    () => true,
    (list) => all.push(...list),
  );
  return all;
}

/** css without the rules none of whose selectors `written` allows; returns { css, dropped }.
 *  seen(selectors) hears of each style rule's selector list. */
export function pruneCss(css, written, seen = () => {}) {
  checkNoBraceInString(css);
  const dropped = [];
  const kept = (selector) => required(selector).every((name) => written(name));
  const walk = (text) => {
    let out = '';
    let at = 0;
    while (at < text.length) {
      const open = text.indexOf('{', at);
      if (open < 0) {
        out += text.slice(at);
        break;
      }
      const end = closing(text, open);
      const prelude = text.slice(at, open);
      const body = text.slice(open + 1, end);
      if (prelude.trimStart().startsWith('@media')) {
        const inner = walk(body);
        if (inner.trim()) out += `${prelude}{${inner}}`;
      } else if (prelude.trimStart().startsWith('@')) {
        out += text.slice(at, end + 1);
      } else {
        seen(selectors(prelude));
        const list = selectors(prelude).filter(kept);
        if (list.length) out += `${list.join(',')}{${body}}`;
        else dropped.push(prelude.trim());
      }
      at = end + 1;
    }
    return out;
  };
  return { css: walk(css), dropped };
}
