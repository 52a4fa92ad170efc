// The one DOM-building helper the page's modules share (no HTML strings anywhere).

/** An element with these attributes and children (nodes or strings). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}
