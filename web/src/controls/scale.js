// Where a chapter slider's thumb sits for a value, and the value a thumb position gives. A
// linear slider holds the value itself, up to thumbMax (the box alone reaches past it), so a
// short range keeps a few pixels per position. A log slider spreads a wide whole-number range
// (slot 0 … 50,000): the first LINEAR values above min take the first LINEAR_SHARE of the track,
// evenly (slots 1 … 10 get pixels of their own, which log10 alone gives only to the first few),
// and the rest is log10 of the value; a thumb that lands within SNAP_PX pixels of a mark (the
// post's values) takes it.

/** Thumb positions of a log slider. */
export const POSITIONS = 1000;
/** How near a mark, in pixels of the track, catches the thumb. */
export const SNAP_PX = 2;
/** How many values above min a log slider spreads evenly, and over what share of its track. */
export const LINEAR = 10;
export const LINEAR_SHARE = 0.2;

/**
 * { min, max, step, toRange(value), fromRange(position, perPixel), next(value, key) } for a chapter input
 * spec (lesson_row.js's slider() or logSlider()). next(value, key) is the value an arrow or page
 * key moves a log slider to (undefined for other keys): whole steps of 1, PageUp/PageDown a
 * twentieth of the log part's decades (at least 1); a linear slider keeps the browser's own keys.
 * A log slider's range is wide: max − min well above LINEAR.
 */
export function sliderScale({ min, max, step = 1, log = false, marks = [], thumbMax = max }) {
  if (!log) {
    return {
      min,
      max: thumbMax,
      step,
      toRange: (value) => Math.min(value, thumbMax),
      fromRange: (position) => position,
      next: () => undefined,
    };
  }
  const decades = Math.log10((max - min) / LINEAR);
  const exact = (value) => {
    const above = value - min;
    if (above <= LINEAR) return (POSITIONS * LINEAR_SHARE * above) / LINEAR;
    return POSITIONS * (LINEAR_SHARE + ((1 - LINEAR_SHARE) * Math.log10(above / LINEAR)) / decades);
  };
  const at = (position) => {
    const u = position / POSITIONS;
    if (u <= LINEAR_SHARE) return (LINEAR * u) / LINEAR_SHARE;
    return LINEAR * 10 ** (((u - LINEAR_SHARE) / (1 - LINEAR_SHARE)) * decades);
  };
  const clamp = (value) => Math.min(max, Math.max(min, value));
  const page = 10 ** (decades / 20);
  const keys = {
    ArrowUp: (v) => v + 1,
    ArrowRight: (v) => v + 1,
    ArrowDown: (v) => v - 1,
    ArrowLeft: (v) => v - 1,
    PageUp: (v) => Math.max(v + 1, min + Math.round((v - min) * page)),
    PageDown: (v) => Math.min(v - 1, min + Math.round((v - min) / page)),
  };
  return {
    min: 0,
    max: POSITIONS,
    step: 1,
    toRange: (value) => Math.round(exact(clamp(value))),
    /** perPixel: thumb positions per pixel of the track as drawn (for the snap to marks). */
    fromRange(position, perPixel = 1) {
      const near = marks.find((mark) => Math.abs(exact(mark) - position) <= SNAP_PX * perPixel);
      if (near !== undefined) return near;
      return clamp(min + Math.round(at(position)));
    },
    next: (value, key) => (Object.hasOwn(keys, key) ? clamp(keys[key](value)) : undefined),
  };
}
