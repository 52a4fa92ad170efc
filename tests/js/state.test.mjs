// The relations between settings (web/src/state/state.js: recheck, ceiling, linked) hold for
// random settings and moves: follow() against the page's rules written out by hand (pair i
// below dim/2, the gap lock, from below to), and readQuery() keeps them for a link.
// Randomized: prints ROPE_TEST_SEED and takes it from the environment.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chapterParam } from '../../web/src/state/chapters.js';
import { bounded, defaults, follow, PARAM, readQuery, writeQuery } from '../../web/src/state/state.js';
import { rng, seed } from '../lib/testlib.mjs';

const s = seed('state relations');
const random = rng(s);
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
const ROUNDS = 2000;

// A random page state that keeps every relation.
function randomState() {
  const state = defaults();
  state.dim = 2 * int(1, 512);
  state.pair = int(0, state.dim / 2 - 1);
  state.qm = int(0, 256);
  state.kn = int(0, 256);
  state.lock = random() < 0.5;
  state.from = int(0, 60000);
  state.to = int(state.from + 1, 65536);
  state.gap = int(0, 1e6);
  return state;
}

// The page's rules as they read before they were declared in the table.
function expected(name, value, state) {
  const out = { [name]: value };
  if (state.lock && (name === 'qm' || name === 'kn')) {
    const other = name === 'qm' ? 'kn' : 'qm';
    const { min, max } = PARAM[other];
    const delta = Math.min(Math.max(value - state[name], min - state[other]), max - state[other]);
    out[name] = state[name] + delta;
    out[other] = state[other] + delta;
  }
  const dim = name === 'dim' ? value : state.dim;
  if (state.pair > dim / 2 - 1) out.pair = dim / 2 - 1;
  return out;
}

test('follow(): the gap lock and pair i below dim/2, for random moves', () => {
  const MOVES = {
    dim: () => 2 * int(1, 512),
    qm: () => int(0, 256),
    kn: () => int(0, 256),
    gap: () => int(0, 1e6),
    pair: (state) => int(0, state.dim / 2 - 1),
  };
  const names = Object.keys(MOVES);
  for (let round = 0; round < ROUNDS; round++) {
    const state = randomState();
    const before = { ...state };
    const name = names[int(0, names.length - 1)];
    const value = MOVES[name](state);
    const changes = follow(name, value, state);
    const where = `${name} -> ${value} from ${JSON.stringify(before)} (ROPE_TEST_SEED=${s})`;
    assert.deepEqual({ ...state }, before, `state left as it was: ${where}`);
    assert.deepEqual({ ...changes }, expected(name, value, state), where);
    assert.equal(Object.keys(changes)[0], name, where);
    const next = { ...state, ...changes };
    assert.ok(next.pair <= next.dim / 2 - 1 && next.pair >= 0, `pair within dim/2: ${where}`);
    for (const key of ['qm', 'kn']) assert.ok(next[key] >= 0 && next[key] <= 256, `${key} in range: ${where}`);
    if (state.lock) assert.equal(next.kn - next.qm, state.kn - state.qm, `the lock keeps the gap: ${where}`);
    else
      assert.deepEqual(
        Object.keys(changes).filter((key) => key !== name && key !== 'pair'),
        [],
        where,
      );
  }
});

test('follow(): at the end of a range the locked move is cut short', () => {
  const state = { ...defaults(), lock: true, qm: 250, kn: 10 };
  assert.deepEqual({ ...follow('qm', 0, state) }, { qm: 240, kn: 0 });
  assert.deepEqual({ ...follow('kn', 256, { ...state, kn: 200, qm: 250 }) }, { kn: 206, qm: 256 });
  assert.deepEqual({ ...follow('qm', 7, { ...state, lock: false }) }, { qm: 7 });
});

test('follow(): a from or to refused for the other is read again with the new value', () => {
  for (let round = 0; round < ROUNDS; round++) {
    const state = randomState();
    const text = String(int(0, 65536));
    const [name, other] = random() < 0.5 ? ['to', 'from'] : ['from', 'to'];
    const value = int(0, 65536);
    if (!PARAM[name].parse(String(value), state).ok) continue;
    const changes = follow(name, value, state, { [other]: text });
    const next = { ...state, [name]: value };
    const retry = PARAM[other].parse(text, next);
    const where = `${name} -> ${value}, ${other} box '${text}' (ROPE_TEST_SEED=${s})`;
    assert.equal(changes[other], retry.ok ? retry.value : undefined, where);
    if (retry.ok) assert.ok(next.from < next.to || changes.from < changes.to, where);
    // A box not refused, or one of a row that is not rechecked, is not read again.
    assert.equal(follow(name, value, state, { pair: '0' }).pair, undefined, where);
  }
});

test('bounded(): each ceiling row at most its ceiling', () => {
  for (let round = 0; round < ROUNDS; round++) {
    const state = { ...randomState(), pair: int(0, 511) };
    assert.deepEqual(bounded(state), { pair: Math.min(state.pair, state.dim / 2 - 1) });
  }
});

test('readQuery(): a link keeps the relations (pair below dim/2, from below to)', () => {
  for (let round = 0; round < ROUNDS; round++) {
    const dim = 2 * int(1, 512);
    const pair = int(0, 511);
    const from = int(0, 65536);
    const to = int(0, 65536);
    const { state, problems } = readQuery(`?dim=${dim}&pair=${pair}&from=${from}&to=${to}&lock=1&qm=3&kn=9`);
    const where = `dim=${dim} pair=${pair} from=${from} to=${to} (ROPE_TEST_SEED=${s})`;
    assert.equal(state.dim, dim, where);
    assert.equal(state.pair, pair < dim / 2 ? pair : 0, where);
    assert.equal(
      problems.some((p) => p.name === 'pair'),
      pair >= dim / 2,
      where,
    );
    assert.ok(state.from < state.to, where);
    if (from < to) assert.deepEqual([state.from, state.to], [from, to], where);
    assert.deepEqual([state.qm, state.kn, state.lock], [3, 9, true], where);
  }
});

// A chapter's inputs in a link: what writeQuery writes, readQuery hands back as given, and each
// input's row reads back to the same value; bad texts are refused with the input's label.
test('chapter_inputs_should_round_trip_through_the_link_and_refuse_bad_text', () => {
  const rows = [
    chapterParam('clock', 'gap', 50000, { text: 'gap between the words', min: 0, max: 1e6 }),
    chapterParam('clock', 'divided', false, null),
    chapterParam('cat', 'q', [0.9, 0.4], null),
    chapterParam('cat', 'slid', 0, null),
    chapterParam('order', 'a', 'nolan', null),
  ];
  const keys = new Set(rows.map((row) => row.name));
  for (let round = 0; round < 200; round++) {
    const values = [int(0, 1e6), random() < 0.5, [int(-1000, 1000) / 8, int(-1000, 1000) / 8], int(0, 500), 'cat'];
    const given = rows.map((row, j) => [row.name, row.serialize(values[j])]);
    const state = defaults();
    const query = writeQuery(state, given);
    const { chapters, problems } = readQuery(query, keys);
    assert.deepEqual(problems, [], query);
    rows.forEach((row, j) => {
      const read = row.parse(chapters[row.name]);
      assert.ok(read.ok, `${row.name} from ${query} (ROPE_TEST_SEED=${s})`);
      assert.deepEqual(read.value, values[j], `${row.name} from ${query}`);
    });
  }
  const [gap, divided, q] = rows;
  assert.equal(gap.parse('2e6').message, "gap between the words must be a number from 0 to 1000000, got '2e6'");
  assert.equal(
    gap.parse('0x10').message,
    "gap between the words must be a number from 0 to 1000000, got '0x10' (not a plain decimal number)",
  );
  assert.equal(divided.parse('yes').message, "clock.divided must be 1 or 0, got 'yes'");
  assert.equal(q.parse('1').message, "cat.q must be 2 comma-separated numbers from -1000000 to 1000000, got '1'");
  // Without the chapters' names a chapter input is not a setting.
  assert.equal(readQuery('?clock.gap=7').problems[0].message, "'clock.gap' is not a setting");
  assert.equal(readQuery('?clock.gap=7&clock.gap=8', keys).problems[0].message, 'clock.gap is given more than once');
});
