// The one DOM-building helper the page's modules share (no HTML strings anywhere).

/** An element with these attributes and children (nodes or strings). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

/** A classic script added to <head>: resolves once it has run; rejects, the element removed, if it cannot load. */
export function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = el('script', { src });
    script.addEventListener('load', resolve);
    script.addEventListener('error', () => {
      script.remove();
      reject(new Error(`${src} did not load`));
    });
    document.head.append(script);
  });
}

/** A titled card of the page: <section id> with its <h2> and a "look for" paragraph first. */
export function card(id, className, title, lookfor, ...children) {
  return el(
    'section',
    { class: `card ${className}`, id, 'aria-labelledby': `${id}-title` },
    el('h2', { id: `${id}-title` }, title),
    el('p', { class: 'lookfor' }, lookfor),
    ...children,
  );
}

/** The most problems a notice lists; the rest are counted in one last line. */
export const NOTICE_LINES = 8;

/** lines cut to NOTICE_LINES, plus "… and N more." when there were more. */
export function boundedLines(lines) {
  if (lines.length <= NOTICE_LINES) return lines;
  const more = lines.length - NOTICE_LINES;
  return [...lines.slice(0, NOTICE_LINES), `… and ${more} more ${more === 1 ? 'problem' : 'problems'}.`];
}
