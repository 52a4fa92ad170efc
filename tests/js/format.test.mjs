// web/src/lib/format.js's linearTick writes the labels Chart.js's own numeric tick formatter writes
// (en-US), without Intl.NumberFormat: compared with Chart.js itself on random tick sets.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ticks } from 'chart.js';
import { linearTick } from '../../web/src/lib/format.js';
import { rng, seed } from '../lib/testlib.mjs';

const chartJs = (value, index, ticks) =>
  Ticks.formatters.numeric.call(
    { chart: { options: { locale: 'en-US' } }, options: { ticks: {} } },
    value,
    index,
    ticks,
  );

test('linear_tick_labels_should_equal_chart_js_labels', () => {
  const s = seed('linearTick');
  const r = rng(s);
  const sets = [
    [0, 500, 1000, 1500, 2000, 2500, 3000, 3500, 4096],
    [-5, 0, 5, 10, 15, 20, 25, 30, 35, 40, 45],
    [0, 5, 10, 15, 20, 25, 30, 35],
    [-0.4, -0.2, 0, 0.2, 0.4],
    [1.5, 2, 2.5],
    [0.00005, 0.0001],
    [1e16, 2e16, 3e16],
    [1e-5, 2e-5, 3e-5, 4e-5],
    [12345678, 12345679],
    [7],
    [-1234.5, 0, 1234.5],
    [-0.2, 0.3, 0.8],
    [-0.04, 0.06, 0.16],
    [0.00225, 0.00325, 0.00425, 0.00525],
    [999.5, 1000, 1000.5],
    [-999.96, -999.97, -999.98, -999.99],
  ];
  for (let n = 0; n < 300; n++) {
    // Nice steps as Chart.js picks them: 1, 2, 2.5 or 5 times a power of ten.
    const step = [1, 2, 2.5, 5][Math.floor(r() * 4)] * 10 ** Math.floor(r() * 14 - 6);
    const start = Math.round((r() - 0.5) * 20) * step;
    const count = 2 + Math.floor(r() * 10);
    sets.push(Array.from({ length: count }, (_, j) => Number((start + j * step).toPrecision(12))));
  }
  for (const values of sets) {
    const ticks = values.map((value) => ({ value }));
    values.forEach((value, i) => {
      assert.equal(
        linearTick(value, i, ticks),
        chartJs(value, i, ticks),
        `tick ${value} of [${values}] (ROPE_TEST_SEED=${s})`,
      );
    });
  }
});
