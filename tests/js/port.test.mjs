// The precision and layout bindings (web/src/core/rope.js over c_src/port) against
// tests/ref/ref_port.py (numpy, written from docs/VERIFY.md) on random frequencies, positions and
// vectors each run; the issue's numbers on Llama 3.1's scaled inv_freq; bad arguments named.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { scaling_from_config } from '../../web/src/core/files.js';
import {
  demo_vectors,
  layout_pairs,
  layout_scores,
  precision_errors,
  query_scales,
  random_vectors,
} from '../../web/src/core/rope.js';
import { close, ROOT, rng, seed } from '../lib/testlib.mjs';

const PYTHON = process.env.ROPE_NUMPY_PYTHON || '/usr/bin/python3';
const CASES = ['f32', 'bf16', 'f16', 'theta_bf16', 'theta_f16'];

export function reference(calls) {
  const run = spawnSync(PYTHON, [join(ROOT, 'tests/ref/ref_port.py')], {
    input: JSON.stringify(calls),
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (run.status !== 0) throw new Error(`tests/ref/ref_port.py failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

// Frequencies as a config gives them: base^(-2i/d), slowed by a random factor past a random pair.
function randomTheta(r) {
  const n = 1 + Math.floor(r() * 128);
  const base = 10 ** (3 + 4 * r());
  const cut = Math.floor(r() * n);
  const factor = 1 + 31 * r();
  return Array.from({ length: n }, (_, i) => base ** (-i / n) / (i >= cut ? factor : 1));
}

test('precision_errors_should_match_the_numpy_reference_on_random_frequencies_and_positions', () => {
  const r = rng(seed('port precision'));
  const calls = Array.from({ length: 40 }, (_, j) => {
    // Whole positions up to 1e6 (the slider's), and some fractional ones.
    const pos = j % 4 === 3 ? 1e6 * r() : Math.floor(10 ** (6 * r()));
    return { kind: 'precision', theta: randomTheta(r), pos };
  });
  const want = reference(calls);
  calls.forEach((c, j) => {
    const got = precision_errors(c.theta, c.pos);
    for (const name of CASES) {
      got[name].forEach((v, i) => {
        const w = want[j][name][i];
        const where = `case ${j} ${name} pair ${i} at ${c.pos} (theta ${c.theta[i]})`;
        if (w === null) assert.equal(v, null, `${where}: the angle is lost`);
        else assert.ok(close(v, w), `${where}: ${v} vs ${w}`);
      });
    }
  });
});

test('precision_errors_should_give_the_issues_numbers_on_llama_3_1', () => {
  const config = JSON.parse(readFileSync(join(ROOT, 'web/models/llama-3.1-8b.json'), 'utf8'));
  const theta = scaling_from_config(config).pairs.map((p) => p.inv_freq_scaled);
  const worst = (pos, name) => Math.max(...precision_errors(theta, pos)[name]);
  const [ref] = reference([{ kind: 'precision', theta, pos: 8191 }]);
  assert.ok(close(worst(8191, 'f32'), Math.max(...ref.f32)), 'the worst float32 error is the reference’s');
  // The statements, to the digits it gives them.
  for (const [pos, name, text] of [
    [8191, 'f32', '1.2e-4'],
    [131071, 'f32', '2.8e-3'],
    [1048575, 'f32', '4.3e-2'],
    [8191, 'theta_bf16', '1.5e+1'],
  ]) {
    assert.equal(worst(pos, name).toExponential(1), text, `${name} at ${pos}`);
  }
});

test('layout_scores_should_match_the_numpy_reference_and_be_flat_when_the_layouts_agree', () => {
  const r = rng(seed('port layout'));
  const calls = Array.from({ length: 12 }, (_, j) => {
    const theta = randomTheta(r);
    const d = 2 * theta.length;
    const [q, k] = j % 2 ? random_vectors(d, 1 + Math.floor(r() * 1e6)) : demo_vectors(d);
    return {
      kind: 'layout',
      q,
      k,
      theta,
      layout: j % 3 ? 'rotate_half' : 'interleaved',
      gap: Math.floor(10 ** (5 * r())),
      start0: Math.floor(1000 * r()),
      step: j % 4 ? 1 : 7.5,
      count: 1 + Math.floor(64 * r()),
    };
  });
  const want = reference(calls);
  calls.forEach((c, j) => {
    const got = layout_scores(c.q, c.k, c.theta, c.layout, c.gap, c.start0, c.step, c.count);
    const scale = Math.max(1, ...c.q.map(Math.abs)) * Math.max(1, ...c.k.map(Math.abs)) * c.q.length;
    for (const name of ['same', 'swapped', 'table']) {
      got[name].forEach((v, s) =>
        assert.ok(
          close(v, want[j][name][s], 1e-9 * scale),
          `case ${j} ${name} start ${s}: ${v} vs ${want[j][name][s]}`,
        ),
      );
    }
    // One layout for the table and the rotation is RoPE: the score depends on the gap alone.
    for (const name of ['same', 'swapped']) {
      for (const v of got[name]) assert.ok(close(v, got[name][0], 1e-9 * scale), `case ${j} ${name} is flat`);
    }
  });
});

test('layout_pairs_should_pair_i_with_i_plus_half_or_2i_with_2i_plus_1', () => {
  for (const n of [1, 4, 64]) {
    const half = layout_pairs('rotate_half', n);
    const inter = layout_pairs('interleaved', n);
    for (let i = 0; i < n; i++) {
      assert.equal(half[i], i);
      assert.equal(half[i + n], i);
      assert.equal(inter[2 * i], i);
      assert.equal(inter[2 * i + 1], i);
    }
  }
});

test('port_bindings_should_name_bad_arguments', () => {
  const cases = [
    [() => precision_errors([], 5), /theta must have 1 to/],
    [() => precision_errors([1, -0.5], 5), /theta\[1\] must be > 0, got -0.5/],
    [() => precision_errors([1, Number.NaN], 5), /theta\[1\] must be a finite number, got NaN/],
    [() => precision_errors([1], Number.POSITIVE_INFINITY), /pos must be a finite number, got Infinity/],
    [() => precision_errors([1], 1e11), /precision_errors: .*pos = 100000000000/],
    [() => layout_pairs('half', 4), /layout must be 'rotate_half' or 'interleaved', got "half"/],
    [() => layout_pairs('constructor', 4), /layout must be/],
    [() => layout_pairs('interleaved', 0), /n must be an integer in \[1, 32768\], got 0/],
    [() => layout_scores([1, 2], [1, 2], [1, 0.5], 'interleaved', 1, 0, 1, 3), /2 × theta.length = 4/],
    [() => layout_scores([1, 2], [1, 2], [1], 'rotate_half', 1, 0, 1, -1), /count must be an integer/],
    [() => layout_scores([1, 2], [1, 2], [1], 'rotate_half', Number.NaN, 0, 1, 3), /gap must be a finite number/],
    [
      () => layout_scores([1, 2], [1, 2], [1], 'rotate_half', 2e10, 0, 1, 3),
      /start0 \+ gap = 2e10: the largest angle, .* is beyond 1e10 radians/,
    ],
  ];
  for (const [call, message] of cases) assert.throws(call, message);
});

// Attention temperature tuning's query scale, written out here from docs/SCALING.md
// ("Attention-side factors"): 1 + β·ln(1 + ⌊(p + offset) / L0⌋), at random β, L0, offsets and
// positions (some on the steps' edges, where ⌊⌋ turns); bad arguments are refused by name.
test('query_scales_should_follow_the_formula_at_random_settings_and_name_bad_arguments', () => {
  const r = rng(seed('port query scale'));
  for (let k = 0; k < 200; k++) {
    const beta = r() < 0.1 ? 0 : r();
    const l0 = 1 + Math.floor(10 ** (1 + 4.5 * r()));
    const offset = r() < 0.5 ? 0 : 1;
    const positions = Array.from({ length: 1 + Math.floor(r() * 64) }, () => {
      const edge = Math.floor(r() * 100) * l0 - offset;
      return r() < 0.3 && edge >= 0 ? edge + Math.floor(r() * 2) - (edge > 0 ? 1 : 0) : Math.floor(10 ** (7 * r()));
    });
    const got = query_scales(beta, l0, offset, positions);
    positions.forEach((p, j) => {
      const want = 1 + beta * Math.log(1 + Math.floor((p + offset) / l0));
      assert.ok(close(got[j], want), `beta ${beta}, L0 ${l0}, offset ${offset}, p ${p}: ${got[j]} vs ${want}`);
    });
  }
  // The Llama 4 numbers: β 0.1, L0 8192, counted from p + 1.
  const [first, last, step] = query_scales(0.1, 8192, 1, [8190, 8191, 131071]);
  assert.equal(first, 1, 'no scale before the first step');
  assert.ok(close(last, 1 + 0.1 * Math.log(2)) && close(step, 1 + 0.1 * Math.log(17)), `${last}, ${step}`);
  for (const [args, words] of [
    [[-0.5, 8192, 0, [1]], /beta must be a number from 0 to 1000, got -0\.5$/],
    [[1e300, 8192, 0, [1]], /beta must be a number from 0 to 1000/],
    [[0.1, 0.5, 0, [1]], /l0 must be a finite number >= 1, got 0\.5$/],
    [[0.1, 8192, 2, [1]], /offset must be an integer in \[0, 1\], got 2$/],
    [[0.1, 8192, 0, [4, -3]], /positions\[1\] must be >= 0, got -3$/],
    [[0.1, 8192, 0, [Number.NaN]], /positions/],
    [[0.1, 8192, 0, [1e11]], /query_scales: .*positions = \[100000000000\]/],
  ]) {
    assert.throws(() => query_scales(...args), words, `query_scales(${args.join(', ')})`);
  }
});
