// theme=inherit for <rope-scope>: the figure takes its host's text colour and font and lets the
// host's background show through, in the palette that suits that text colour.

/** W3C relative luminance of a computed CSS colour ("rgb(r, g, b)"), or null if unreadable. */
function luminance(color) {
  const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)/.exec(color);
  if (!m) return null;
  const [r, g, b] = m.slice(1, 4).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * theme=inherit in <rope-scope>: the host's text colour and font, its background through, and
 * the palette that suits its text (light text: the dark palette). Set through the CSSOM, which a
 * host's style-src policy allows, unlike a style attribute.
 */
export function inheritHost(host, wrapper) {
  const css = getComputedStyle(host);
  const light = luminance(css.color);
  wrapper.dataset.theme = light !== null && light > 0.2 ? 'dark' : 'light';
  wrapper.dataset.inherit = '';
  // A host's own --rs-ink or --rs-font (element.js's hostTokens) says more than its text does.
  const own = (name) => css.getPropertyValue(name).trim() !== '';
  if (light !== null && !own('--rs-ink')) wrapper.style.setProperty('--ink', css.color);
  if (css.fontFamily && !own('--rs-font')) wrapper.style.setProperty('--font', css.fontFamily);
}
