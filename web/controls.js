// How a setting's widgets map to its value, from its row in state.js: a slider (linear, or
// log10 of the value, rounded to 4 significant digits so links stay readable) and the
// arrow-key step of its box. Used by the page (app.js) and the <rope-scope> element.

/** A base from the log slider, kept to 4 significant digits. */
export const roundBase = (value) => Number(value.toPrecision(4));

/** { range, min, max, toRange?, fromRange?, step(value, dir) } for a state.js row. */
export function controlFor(row) {
  const { slider } = row;
  if (!slider) return { range: false, step: (v, dir) => v + dir };
  const key = slider.keyStep ?? slider.step;
  if (slider.log) {
    return {
      range: true,
      min: Math.log10(row.min),
      max: Math.log10(row.max),
      toRange: (v) => Math.log10(v),
      fromRange: (r) => roundBase(10 ** r),
      step: (v, dir) => roundBase(10 ** (Math.log10(v) + key * dir)),
    };
  }
  return { range: true, min: row.min, max: row.max, step: (v, dir) => v + key * dir };
}
