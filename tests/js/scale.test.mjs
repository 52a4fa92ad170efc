// A chapter's log slider (web/src/controls/scale.js): its ends are the range's ends, the first
// ten values get equal shares of the track's first fifth, every whole value's thumb position
// reads back as that value or a neighbour within a position's span, a thumb near a mark takes
// the mark, and the keys step by whole values. Randomized: prints ROPE_TEST_SEED.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LINEAR, LINEAR_SHARE, POSITIONS, SNAP_PX, sliderScale } from '../../web/src/controls/scale.js';
import { rng, seed } from '../lib/testlib.mjs';

const s = seed('chapter slider scale');
const random = rng(s);

test('log_slider_should_spread_small_values_and_read_back_every_position', () => {
  const slot = sliderScale({ min: 0, max: 50000, log: true, marks: [] });
  assert.equal(slot.fromRange(0), 0);
  assert.equal(slot.fromRange(POSITIONS), 50000);
  for (let v = 0; v <= LINEAR; v++) assert.equal(slot.toRange(v), (POSITIONS * LINEAR_SHARE * v) / LINEAR);
  for (let v = 0; v <= LINEAR; v++) assert.equal(slot.fromRange(slot.toRange(v)), v, `slot ${v}`);
  // Past the linear part a position spans several values: reading a value's position gives back
  // a value whose own position is the same.
  for (let round = 0; round < 2000; round++) {
    const v = Math.floor(random() * 50001);
    const back = slot.fromRange(slot.toRange(v));
    assert.equal(slot.toRange(back), slot.toRange(v), `slot ${v} -> ${back} (ROPE_TEST_SEED=${s})`);
  }
  // Positions rise with the value.
  for (let v = 1; v <= 50000; v += 97) assert.ok(slot.toRange(v) >= slot.toRange(v - 1), `monotone at ${v}`);
});

test('log_slider_should_snap_to_marks_and_step_by_whole_values', () => {
  const pos = sliderScale({ min: 0, max: 20000, log: true, marks: [512, 3000] });
  const at512 = pos.toRange(512);
  assert.equal(pos.fromRange(at512 + SNAP_PX), 512, 'within the snap at 1 position a pixel');
  assert.equal(pos.fromRange(at512 + SNAP_PX * 3, 3), 512, 'within the snap at 3 positions a pixel');
  assert.notEqual(pos.fromRange(at512 + SNAP_PX + 2), 512, 'past the snap');
  assert.equal(pos.next(512, 'ArrowUp'), 513);
  assert.equal(pos.next(512, 'ArrowLeft'), 511);
  assert.equal(pos.next(0, 'ArrowDown'), 0, 'clamped at min');
  assert.equal(pos.next(20000, 'PageUp'), 20000, 'clamped at max');
  assert.ok(pos.next(512, 'PageUp') > 513 && pos.next(512, 'PageDown') < 511);
  assert.equal(pos.next(1, 'PageUp'), 2, 'PageUp moves at least one');
  assert.equal(pos.next(512, 'Enter'), undefined, 'other keys are the browser’s');
  // A linear slider with a shorter thumb: the thumb stops at thumbMax, the value stays.
  const m = sliderScale({ min: 0, max: 1000, thumbMax: 60 });
  assert.deepEqual([m.min, m.max, m.toRange(43), m.toRange(500), m.fromRange(17)], [0, 60, 43, 60, 17]);
});
