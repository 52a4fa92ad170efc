// The chapters' inputs in the URL (web/README.md): `chapter.input=value` (clock.gap=70000,
// cat.q=0.5,0.8), written only while an input differs from its default, read under the same
// number grammar as the page's settings (parseDecimal). One row per input, made from the
// chapter's declaration (web/src/figures/lesson_row.js): a number spec's range, a yes/no as 1 or
// 0, a list of numbers as that many comma-separated decimals, a word as itself.
import { parseDecimal } from './state.js';

/** The largest magnitude a chapter number without a declared range takes from a link. */
export const CHAPTER_NUMBER_LIMIT = 1e6;
/** The longest word a chapter takes from a link. */
export const CHAPTER_WORD_LIMIT = 40;

const quote = (text) => {
  const s = String(text);
  return `'${s.length > 40 ? `${s.slice(0, 37)}...` : s}'`;
};

function number(text, min, max, what) {
  const read = parseDecimal(text);
  if (!read.ok) return `${what} must be a number from ${min} to ${max}, got ${quote(text)} (${read.why})`;
  if (read.value < min || read.value > max) return `${what} must be a number from ${min} to ${max}, got ${quote(text)}`;
  return read.value;
}

/**
 * The URL row of input `key` of chapter `chapter`: { name, default, parse(text) -> { ok, value }
 * or { ok: false, message }, serialize(value) }. spec: the input's slider()/box() spec, or null
 * for an input without one (its default's type decides).
 */
export function chapterParam(chapter, key, def, spec) {
  const name = `${chapter}.${key}`;
  const what = spec?.text ?? name;
  const ok = (value) => ({ ok: true, value });
  const bad = (message) => ({ ok: false, message });
  let parse;
  let serialize = (value) => String(value);
  if (spec) {
    parse = (text) => {
      const v = number(text, spec.min, spec.max, what);
      return typeof v === 'number' ? ok(v) : bad(v);
    };
  } else if (typeof def === 'boolean') {
    serialize = (value) => (value ? '1' : '0');
    parse = (text) =>
      text === '1' ? ok(true) : text === '0' ? ok(false) : bad(`${what} must be 1 or 0, got ${quote(text)}`);
  } else if (typeof def === 'number') {
    const limit = CHAPTER_NUMBER_LIMIT;
    parse = (text) => {
      const v = number(text, -limit, limit, what);
      return typeof v === 'number' ? ok(v) : bad(v);
    };
  } else if (Array.isArray(def)) {
    const limit = CHAPTER_NUMBER_LIMIT;
    serialize = (value) => value.join(',');
    parse = (text) => {
      const items = text.split(',');
      const rule = `${what} must be ${def.length} comma-separated numbers from ${-limit} to ${limit}`;
      if (items.length !== def.length) return bad(`${rule}, got ${quote(text)}`);
      const values = [];
      for (const item of items) {
        const v = number(item, -limit, limit, what);
        if (typeof v !== 'number') return bad(`${rule}, got ${quote(text)}`);
        values.push(v);
      }
      return ok(values);
    };
  } else {
    parse = (text) =>
      text.length > 0 && text.length <= CHAPTER_WORD_LIMIT
        ? ok(text)
        : bad(`${what} must be a word of 1 to ${CHAPTER_WORD_LIMIT} characters, got ${quote(text)}`);
  }
  return { name, default: def, parse, serialize };
}
