// Number formatting for captions, readouts and axis ticks. Display only: no maths.

const SUPERSCRIPT = Object.assign(Object.create(null), {
  '-': '⁻',
  0: '⁰',
  1: '¹',
  2: '²',
  3: '³',
  4: '⁴',
  5: '⁵',
  6: '⁶',
  7: '⁷',
  8: '⁸',
  9: '⁹',
});

/** Compact: 4 significant digits, or e-notation ("6.6e-14") for very small or large values. A
 * negative number leads with the minus sign (U+2212), as the text around it writes it. */
export function num(x, digits = 4) {
  if (x === 0) return '0';
  if (!Number.isFinite(x)) return String(x);
  const mag = Math.abs(x);
  let text;
  if (mag < 1e-3 || mag >= 1e6) {
    const [mantissa, exponent] = x.toExponential(1).split('e');
    text = `${mantissa.replace(/\.0$/, '')}e${Number(exponent)}`;
  } else {
    text = String(Number(x.toPrecision(digits)));
  }
  return text.replace(/^-/, '−');
}

/** Fixed decimals, as the report's markdown writes them ("5.694433"). */
export const fixed = (x, decimals = 6) => x.toFixed(decimals);

/** A gap or position as typed: integers plainly, fractions up to 4 significant digits. */
export const position = (x) => (Number.isInteger(x) ? String(x) : num(x));

/** 10 to an integer power with superscripts: "10⁻⁷". */
export function power10(exponent) {
  return `10${String(exponent)
    .split('')
    .map((c) => SUPERSCRIPT[c])
    .join('')}`;
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

// |x| to `decimals` places, rounded half away from zero on its shortest decimal form
// ("0.00225" -> "0.0023"), as Intl.NumberFormat rounds; toFixed rounds the binary value.
function fixedHalfUp(x, decimals) {
  const [mantissa, exp = '0'] = String(Math.abs(x)).split('e');
  const [whole, fraction = ''] = mantissa.split('.');
  let digits = whole + fraction;
  let point = whole.length + Number(exp); // digits before the decimal point
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  digits = digits.padEnd(point + decimals + 1, '0');
  const kept = digits
    .slice(0, point + decimals)
    .split('')
    .map(Number);
  if (Number(digits[point + decimals]) >= 5) {
    let i = kept.length - 1;
    while (i >= 0 && kept[i] === 9) kept[i--] = 0;
    if (i >= 0) kept[i] += 1;
    else {
      kept.unshift(1);
      point += 1;
    }
  }
  const intPart =
    kept
      .slice(0, point)
      .join('')
      .replace(/^0+(?=\d)/, '') || '0';
  const fracPart = kept.slice(point).join('');
  const text = decimals > 0 ? `${intPart}.${fracPart}` : intPart;
  return x < 0 ? `-${text}` : text;
}

// Digits grouped by threes with commas: "12345.5" -> "12,345.5".
function groupThousands(text) {
  const [whole, fraction] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/**
 * A linear axis's tick label, as Chart.js's default numeric formatter writes it in en-US
 * (decimals from the tick spacing, thousands grouped, scientific past 1e15 or below 1e-4),
 * without Intl.NumberFormat: creating the first one loads ICU data and cost 13-140 ms of the
 * first chart on a cold load. Use as ticks.callback(value, index, ticks).
 */
export function linearTick(value, index, ticks) {
  if (value === 0) return '0';
  let delta = value;
  let scientific = false;
  if (ticks.length > 1) {
    const maxTick = Math.max(Math.abs(ticks[0].value), Math.abs(ticks[ticks.length - 1].value));
    scientific = maxTick < 1e-4 || maxTick > 1e15;
    delta = ticks.length > 3 ? ticks[2].value - ticks[1].value : ticks[1].value - ticks[0].value;
    if (Math.abs(delta) >= 1 && value !== Math.floor(value)) delta = value - Math.floor(value);
  }
  const logDelta = Math.log10(Math.abs(delta));
  const decimals = Number.isNaN(logDelta) ? 1 : Math.max(Math.min(-Math.floor(logDelta), 20), 0);
  if (scientific) {
    // Intl's scientific notation with exactly `decimals` fraction digits ("1.00000E-5").
    const [mantissa, exponent] = value.toExponential(decimals).split('e');
    return `${mantissa}E${Number(exponent)}`;
  }
  return groupThousands(fixedHalfUp(value, decimals));
}

/** An angle given in radians, written in degrees as the blog writes them: one decimal
 *  ("46.9°", "297.0°"), two significant digits under 1° ("0.12°"). Display only. */
export function degrees(radians) {
  const deg = radians * (180 / Math.PI);
  if (deg === 0) return '0°';
  if (Math.abs(deg) < 1) return `${Number(deg.toPrecision(2))}°`;
  if (Math.abs(deg) >= 1e6) return `${num(deg)}°`;
  return `${deg.toFixed(1)}°`;
}

/** A small positive number in plain decimals to 4 significant digits ("0.0001", "0.000002455"). */
export const plain = (x) => String(Number(x.toPrecision(4)));

/** "1 pair", "3 pairs": n with the noun in the right number (an irregular plural as many). */
export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The least and the greatest of a list of numbers. */
export const lowHigh = (values) => [Math.min(...values), Math.max(...values)];

const SUBSCRIPT = '₀₁₂₃₄₅₆₇₈₉';
/** A whole number as Unicode subscript digits (θ₁₂). */
export const subscript = (i) =>
  String(i)
    .split('')
    .map((d) => SUBSCRIPT[Number(d)])
    .join('');

/** An integer count or position with its thousands grouped: 50001 -> "50,001". */
export const thousands = (x) => groupThousands(String(x));
