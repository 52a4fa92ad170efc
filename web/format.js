// Number formatting for captions, readouts and axis ticks. Display only: no maths.

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** Compact: 4 significant digits, or e-notation ("6.6e-14") for very small or large values. */
export function num(x, digits = 4) {
  if (x === 0) return '0';
  if (!Number.isFinite(x)) return String(x);
  const mag = Math.abs(x);
  if (mag < 1e-3 || mag >= 1e6) {
    const [mantissa, exponent] = x.toExponential(1).split('e');
    return `${mantissa.replace(/\.0$/, '')}e${Number(exponent)}`;
  }
  return String(Number(x.toPrecision(digits)));
}

/** Fixed decimals, as the report's markdown writes them ("5.694433"). */
export const fixed = (x, decimals = 6) => x.toFixed(decimals);

/** A gap or position as typed: integers plainly, fractions up to 4 significant digits. */
export const position = (x) => (Number.isInteger(x) ? String(x) : num(x));

/** 10 to an integer power with superscripts: "10⁻⁷". */
export function power10(exponent) {
  return `10${String(exponent).split('').map((c) => SUPERSCRIPT[c]).join('')}`;
}

/** Axis tick for a log scale: decades only ("0.01", "1000", "10⁵"), blank in between. */
export function decadeTick(value) {
  const exponent = Math.round(Math.log10(value));
  if (Math.abs(value - 10 ** exponent) > 1e-9 * value) return '';
  if (exponent >= 0 && exponent <= 3) return String(10 ** exponent);
  if (exponent === -1 || exponent === -2) return String(Number((10 ** exponent).toFixed(2)));
  return power10(exponent);
}

/** "3, 10, 100 and 4000". */
export function list(items) {
  if (items.length < 2) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** "1 pair", "3 pairs": a count with its noun in the right number (nouns ending in -s not needed). */
export const count = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;
