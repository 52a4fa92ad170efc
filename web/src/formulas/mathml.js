// Inserts the build-time MathML of gen/formulas.js (temml output, generated from
// tools/formulas.mjs). The markup is trusted, but it still goes through an inert
// parse and an allow-list: only MathML elements and presentation attributes reach
// the page, so a bad build can break a formula but never run code.
// The formulas (19 KB) load when the first one nears the screen, or before printing:
// the first chart does not wait for them.

const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';
const ELEMENTS = new Set([
  'math',
  'semantics',
  'annotation',
  'mrow',
  'mi',
  'mn',
  'mo',
  'mtext',
  'mspace',
  'msub',
  'msup',
  'msubsup',
  'munder',
  'mover',
  'munderover',
  'mfrac',
  'msqrt',
  'mroot',
  'mstyle',
  'mpadded',
  'mphantom',
  'menclose',
  'mtable',
  'mtr',
  'mtd',
  'mlabeledtr',
]);
const ATTRIBUTES = new Set([
  'xmlns',
  'display',
  'class',
  'mathvariant',
  'stretchy',
  'fence',
  'separator',
  'lspace',
  'rspace',
  'width',
  'height',
  'depth',
  'voffset',
  'scriptlevel',
  'displaystyle',
  'columnalign',
  'rowspacing',
  'columnspacing',
  'notation',
  'encoding',
  'minsize',
  'maxsize',
  'symmetric',
  'largeop',
  'movablelimits',
  'accent',
  'accentunder',
  'form',
  'linethickness',
  'columnlines',
  'rowlines',
  'frame',
  'framespacing',
  'rowalign',
  'align',
  'mathsize',
  'mathcolor',
  'mathbackground',
]);

// temml writes a few inline styles (table cell padding, display): a style attribute would be
// refused by the page's CSP (even while parsing), so the markup's style="..." is renamed to
// data-css="..." before the parse and applied through the element's CSSOM style after it.
const DECLARATION = /^\s*([a-z-]+)\s*:\s*([^;]+?)\s*$/;

function check(node, name) {
  for (const el of [node, ...node.querySelectorAll('*')]) {
    if (el.namespaceURI !== MATHML_NS || !ELEMENTS.has(el.localName)) {
      throw new Error(`formula ${name}: <${el.localName}> is not allowed`);
    }
    for (const attr of el.attributes) {
      if (!ATTRIBUTES.has(attr.name) && attr.name !== 'data-css')
        throw new Error(`formula ${name}: attribute ${attr.name} is not allowed`);
    }
  }
}

/** The <math> element of formula `name`, labelled with its TeX for screen readers that lack MathML. */
function formula({ FORMULAS, FORMULA_TEX }, name) {
  if (!Object.hasOwn(FORMULAS, name)) throw new Error(`no formula named ${name}`);
  const markup = FORMULAS[name].replace(/ style="/g, ' data-css="');
  const doc = new DOMParser().parseFromString(markup, 'text/html');
  const math = doc.body.firstElementChild;
  if (!math || doc.body.children.length !== 1) throw new Error(`formula ${name}: not one <math> element`);
  check(math, name);
  const node = document.importNode(math, true);
  for (const el of [node, ...node.querySelectorAll('[data-css]')]) {
    for (const declaration of (el.getAttribute('data-css') ?? '').split(';')) {
      const m = DECLARATION.exec(declaration);
      if (m) el.style.setProperty(m[1], m[2]);
    }
    el.removeAttribute('data-css');
  }
  node.setAttribute('aria-label', FORMULA_TEX[name]);
  return node;
}

let loading = null;
let loaded = null; // the formulas' table, once loaded
const slots = new Set();
let observer = null;

/** Loads the formulas once and fills every slot made so far. */
export function fillFormulas() {
  if (!loading) {
    loading = import('../../gen/formulas.js').then((table) => {
      loaded = table;
      return table;
    });
  }
  return loading.then((table) => {
    for (const slot of slots) slot.replaceChildren(formula(table, slot.dataset.formula));
    slots.clear();
    observer?.disconnect();
    observer = null;
  });
}

// A placeholder for formula `name`, filled when it comes within 600 px of the screen. Once the
// formulas are loaded a slot is filled at once: a waiting slot is held here, and with it the
// whole figure it sits in, so a figure rebuilt and dropped (<rope-scope>) must not leave one.
export function formulaSlot(name) {
  const node = document.createElement('div');
  node.className = 'formula-slot';
  node.dataset.formula = name;
  if (loaded) {
    node.replaceChildren(formula(loaded, name));
    return node;
  }
  slots.add(node);
  if (!observer && typeof IntersectionObserver === 'function') {
    observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) fillFormulas();
      },
      { rootMargin: '600px' },
    );
  }
  observer?.observe(node);
  return node;
}

/** A block of formulas with a line of text before each: [[text, name], ...]. */
export function formulaBlock(title, items) {
  const box = document.createElement('div');
  box.className = 'formulas';
  const head = document.createElement('h3');
  head.textContent = title;
  box.append(head);
  for (const [text, name] of items) {
    const p = document.createElement('p');
    p.textContent = text;
    box.append(p, formulaSlot(name));
  }
  return box;
}
