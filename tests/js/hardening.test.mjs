// Hardening of the JS layer (issue 7):
//  - the limits of rope.h (MAX_POSITION, MAX_WORK) are checked before the core is called,
//    and every message names the function, the parameter and the value (one table);
//  - options are read by own keys: prototype names and a setting given twice are refused;
//  - the page's URL values follow the CLI's decimal grammar, and prototype names are not
//    settings or values.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import * as C from '../../web/gen/rope_consts.js';
import * as files from '../../web/src/core/files.js';
import * as core from '../../web/src/core/rope.js';

// The two modules' bindings: the lesson's (rope.js) and the files module's (files.js).
const rope = { ...core, ...files };

import { parseDecimal, readQuery } from '../../web/src/state/state.js';
import { CLI } from '../lib/testlib.mjs';

const [Q8, K8] = rope.demo_vectors(8);
const WIDE = new Array(8192).fill(0.5); // 8192 x 65536 = 2^29 > MAX_WORK
const MANY = new Array(65536).fill(1);

function thrown(call) {
  try {
    call();
  } catch (err) {
    return err;
  }
  return null;
}

test('the_generated_constants_should_be_those_of_rope_h', () => {
  assert.equal(C.ROPE_MAX_POSITION, 1e10);
  assert.equal(C.ROPE_MAX_WORK, 2 ** 23);
  assert.equal(rope.MAX_POSITION, C.ROPE_MAX_POSITION);
  assert.equal(rope.MAX_WORK, C.ROPE_MAX_WORK);
  assert.deepEqual([C.ROPE_E_SPACE, C.ROPE_E_NOMEM, C.ROPE_E_FAR, C.ROPE_E_WORK], [-9, -10, -11, -12]);
  assert.ok(Object.isFrozen(C.ROPE_REPORT_DEFAULT_STARTS));
  assert.deepEqual(rope.build_report().starts, [...C.ROPE_REPORT_DEFAULT_STARTS]);
  assert.deepEqual(rope.build_report().deltas, [...C.ROPE_REPORT_DEFAULT_DELTAS]);
});

// [call, exact message]: far positions (ROPE_E_FAR) and too much work (ROPE_E_WORK).
// The core's texts (rope_strerror), after the parameter and its value.
const FAR =
  'the largest angle, position x theta_0 (theta_0 = 1 for base > 1), is beyond 1e10 radians, where doubles can no longer resolve it';
const WORK =
  'too much work for one call (dimension x count above 8388608, (dimension + 16) x starts above 134217728 for an envelope)';
const LIMITS = [
  [() => rope.offset_scan(Q8, K8, 1e16, [3, 10, 100, 4000]), `offset_scan: starts[0] + offset = 1e16: ${FAR}`],
  [() => rope.offset_scan(Q8, K8, 2, [3, 10, 100, 1e16]), `offset_scan: starts[3] = 1e16: ${FAR}`],
  [() => rope.offset_scan(Q8, K8, 2, [3, 10, 100, -2e10]), `offset_scan: starts[3] = -2e10: ${FAR}`],
  [() => rope.apply_rope(Q8, 1e11), `apply_rope: pos = 1e11: ${FAR}`],
  [() => rope.rope_score(Q8, K8, 1e10 + 1e6, 0), `rope_score: m = 1.0001e10: ${FAR}`],
  [() => rope.add_score(Q8, K8, 0, -1e12), `add_score: n = -1e12: ${FAR}`],
  [() => rope.sin_pos(3e10, 8), `sin_pos: pos = 3e10: ${FAR}`],
  [() => rope.pair_angles(8, 5e10), `pair_angles: gap = 5e10: ${FAR}`],
  [() => rope.norm_gaps(Q8, [0, 1, 2e10]), `norm_gaps: positions[2] = 2e10: ${FAR}`],
  [() => rope.offset_sweep(Q8, K8, 2, 0, 1e8, 512), `offset_sweep: start0 + (count - 1) * step = 5.11e10: ${FAR}`],
  [() => rope.offset_sweep(Q8, K8, 2e10, 0, 1, 16), `offset_sweep: start0 + offset = 2e10: ${FAR}`],
  [() => rope.build_report({ starts: [3, 1e12] }), `build_report: starts[1] = 1e12: ${FAR}`],
  [() => rope.build_report({ norm_positions: [0, -1e11] }), `build_report: norm_positions[1] = -1e11: ${FAR}`],
  [
    () => rope.offset_sweep(WIDE, WIDE, 2, 0, 1, 65536),
    `offset_sweep: q.length x count = 8192 x 65536 = 536870912: ${WORK}`,
  ],
  [
    () => rope.offset_scan(WIDE, WIDE, 2, MANY),
    `offset_scan: q.length x starts.length = 8192 x 65536 = 536870912: ${WORK}`,
  ],
  [
    () => rope.slow_pairs_batch(65536, MANY),
    `slow_pairs_batch: d x deltas.length = 65536 x 65536 = 4294967296: ${WORK}`,
  ],
  [() => rope.norm_gaps(WIDE, MANY), `norm_gaps: vec.length x positions.length = 8192 x 65536 = 536870912: ${WORK}`],
  [
    () => rope.offset_envelope(WIDE, WIDE, 2, 0, 16384, 64),
    `offset_envelope: q.length x starts in from..to = 8192 x 16385 = 134225920: ${WORK}`,
  ],
];

test('limits_should_be_refused_with_a_message_naming_the_parameter_and_value', () => {
  for (const [call, message] of LIMITS) {
    const err = thrown(call);
    assert.ok(err instanceof RangeError, `${message}: threw ${err}`);
    assert.equal(err.message, message);
  }
});

// The page's widest range (dim 1024, from 0 to 65536) is within the envelope's own limit, and
// its bins agree with a plain sweep of the same starts.
test('the_envelope_should_take_the_pages_widest_range', () => {
  assert.equal(C.ROPE_MAX_ENVELOPE_WORK, 2 ** 27);
  const q = Array.from({ length: 1024 }, (_, i) => Math.sin(i + 1));
  const k = Array.from({ length: 1024 }, (_, i) => Math.cos(0.7 * i));
  const env = rope.offset_envelope(q, k, 2, 0, 65536, 512);
  // The last bin holds starts j with floor(512 j / 65537) = 511.
  const first = Math.ceil((511 * 65537) / 512);
  const sweep = rope.offset_sweep(q, k, 2, first, 1, 65537 - first);
  const last = sweep.rope.reduce((a, b) => Math.max(a, b), -Infinity);
  const tol = 1e-9 * Math.max(1, Math.abs(last));
  assert.ok(Math.abs(env.rope_max[511] - last) <= tol, `last bin's max ${env.rope_max[511]} vs ${last}`);
});

test('positions_at_the_limit_should_still_be_computed', () => {
  assert.ok(Number.isFinite(rope.rope_score(Q8, K8, 1e10, -1e10)));
  assert.equal(rope.offset_scan(Q8, K8, 1, [1e10 - 1]).length, 1);
  // Turns and slow pairs do not rotate a vector: a huge delta is fine there.
  assert.equal(rope.slow_pairs(8, 1e15), 0);
});

test('report_options_should_be_own_settings_given_once', () => {
  const cases = [
    [{ toString: 1 }, TypeError, /options\.toString is not a setting/],
    [{ constructor: 5 }, TypeError, /options\.constructor is not a setting/],
    [{ valueOf: 5 }, TypeError, /options\.valueOf is not a setting/],
    [{ hasOwnProperty: 5 }, TypeError, /options\.hasOwnProperty is not a setting/],
    [JSON.parse('{"__proto__": {"dim": 8}}'), TypeError, /options\.__proto__ is not a setting/],
    [{ offset: 1, gap: 2 }, TypeError, /offset is given twice, as offset and as gap/],
    [{ gap: 2, offset: 1 }, TypeError, /offset is given twice, as gap and as offset/],
  ];
  for (const [options, Type, message] of cases) {
    for (const fn of [rope.build_report, rope.build_report_json, rope.build_report_markdown]) {
      const err = thrown(() => fn(options));
      assert.ok(err instanceof Type, `${fn.name}(${Object.keys(options)}): threw ${err}`);
      assert.match(err.message, message);
    }
  }
  // Inherited settings are not settings given: only own keys count.
  const inherited = Object.create({ dim: 8 });
  assert.equal(rope.build_report_json(inherited), rope.build_report_json());
  assert.equal(rope.build_report_json({ gap: 7 }), rope.build_report_json({ offset: 7 }));
});

// ---- the URL grammar ----

test('parse_decimal_should_accept_the_cli_grammar_only', () => {
  for (const [text, value] of [
    ['0', 0],
    ['-0', -0],
    ['+5', 5],
    ['12.5', 12.5],
    ['1e3', 1000],
    ['1E-3', 0.001],
    ['007', 7],
    ['2.50e+2', 250],
    ['0e0', 0],
    ['0.000', 0],
    ['1e-300', 1e-300],
  ]) {
    const got = parseDecimal(text);
    assert.ok(got.ok, `${text} is a plain decimal: ${got.why}`);
    assert.equal(got.value, value, text);
  }
  for (const text of [
    '',
    ' 5',
    '5 ',
    '\t5',
    '0x40',
    '0b1010',
    '0o17',
    'Infinity',
    '-Infinity',
    'NaN',
    '1e-400',
    '1e400',
    '.5',
    '5.',
    '1e',
    'e5',
    '1_000',
    '1,5',
    '--1',
    '+-1',
    '١٢',
    '５',
    '5e+',
    'constructor',
    '1n',
  ]) {
    assert.equal(parseDecimal(text).ok, false, `${JSON.stringify(text)} is refused`);
  }
  assert.equal(parseDecimal('1e2', { integer: true }).ok, false, 'integer settings take digits only');
  assert.equal(parseDecimal('2.0', { integer: true }).ok, false);
  assert.equal(parseDecimal('-12', { integer: true }).value, -12);
});

test('url_values_outside_the_grammar_should_be_refused_naming_parameter_and_value', () => {
  const cases = [
    ['gap=%205', 'gap', ' 5'],
    ['gap=5%20', 'gap', '5 '],
    ['gap=0x40', 'gap', '0x40'],
    ['dim=0b1010', 'dim', '0b1010'],
    ['gap=Infinity', 'gap', 'Infinity'],
    ['gap=NaN', 'gap', 'NaN'],
    ['gap=1e-400', 'gap', '1e-400'],
    ['n=512.0', 'n', '512.0'],
    ['n=5.12e2', 'n', '5.12e2'],
    ['dim=64.5', 'dim', '64.5'],
    ['base=', 'base', "''"],
    ['embed=constructor', 'embed', 'constructor'],
    ['embed=toString', 'embed', 'toString'],
    ['embed=valueOf', 'embed', 'valueOf'],
    ['embed=__proto__', 'embed', '__proto__'],
    ['embed=hasOwnProperty', 'embed', 'hasOwnProperty'],
    ['view=constructor', 'view', 'constructor'],
    ['view=toString', 'view', 'toString'],
    ['gap=3&gap=4', 'gap', 'more than once'],
    // lock takes exactly what web/README.md lists: 0 or 1.
    ['lock=true', 'lock', 'true'],
    ['lock=false', 'lock', 'false'],
    ['lock=yes', 'lock', 'yes'],
  ];
  for (const [query, name, shown] of cases) {
    const { state, problems } = readQuery(`?${query}`);
    const problem = problems.find((p) => p.name === name);
    assert.ok(problem, `?${query}: no problem reported for ${name}`);
    assert.ok(
      problem.message.includes(name) && problem.message.includes(shown),
      `?${query}: message should name ${name} and ${shown}: ${problem.message}`,
    );
    const fresh = readQuery('').state;
    assert.deepEqual({ ...state }, { ...fresh }, `?${query}: every setting keeps its default`);
  }
  for (const name of ['constructor', '__proto__', 'toString']) {
    const { state, problems } = readQuery(`?${name}=1&gap=5`);
    assert.match(problems[0].message, new RegExp(`'${name}' is not a setting`));
    assert.equal(state.gap, 5, 'the good setting beside it is read');
    assert.equal(Object.getPrototypeOf(state), null, 'the state has no prototype to pollute');
  }
  assert.equal(readQuery('?lock=1').state.lock, true);
  assert.deepEqual(
    { ...readQuery('?gap=1e3&n=1024&base=5e5&embed=1&view=slow').state },
    { ...readQuery('').state, gap: 1000, n: 1024, base: 500000, embed: true, view: 'slow' },
  );
});

// Refusals only the core can make (an overflow): the message has the core's text and
// every argument by name and value.
test('core_refusals_should_name_the_arguments_and_values', () => {
  const OVERFLOW = 'result overflowed (angle or score is not finite)';
  const cases = [
    [() => rope.dot([1e200], [1e200]), 'dot: ', '(a = [1e+200], b = [1e+200])'],
    [() => rope.norm(new Array(8).fill(1e300)), 'norm: ', '(vec = 8 values, largest |x| 1e+300)'],
    [
      () => rope.rope_score([1e300, 1e300], [1e300, 1e300], 1, 2),
      'rope_score: ',
      '(q = [1e+300, 1e+300], k = [1e+300, 1e+300], m = 1, n = 2, base = 10000)',
    ],
  ];
  for (const [call, head, tail] of cases) {
    const err = thrown(call);
    assert.ok(err instanceof RangeError, `${head}: threw ${err}`);
    assert.ok(
      err.message.startsWith(head) && err.message.includes(OVERFLOW) && err.message.endsWith(tail),
      `${head}...${tail}: got ${err.message}`,
    );
    assert.equal(err.code, C.ROPE_E_RANGE);
  }
});

// The caption warns once a shown position passes 4096: the sweep's last query sits at to + gap.
test('the_flatness_caption_should_warn_when_to_plus_gap_passes_4096', async () => {
  const { flatnessCaption } = await import('../../web/src/figures/flatness.js');
  const { computeModel } = await import('../../web/src/model/model.js');
  const base = { ...readQuery('').state };
  const warns = (state) => /past ~4096/.test(flatnessCaption(state, computeModel(state)));
  assert.equal(warns({ ...base, to: 4096, gap: 0 }), false, 'to + gap = 4096: no warning');
  assert.equal(warns({ ...base, to: 4000, gap: 96 }), false, 'to + gap = 4096: no warning');
  assert.equal(warns({ ...base, to: 4096, gap: 2 }), true, 'to + gap = 4098: warned, though to is 4096');
  assert.equal(warns({ ...base, to: 4090, gap: 7 }), true, 'to + gap = 4097: warned');
  assert.match(
    flatnessCaption({ ...base, to: 65536, gap: 4096 }, computeModel({ ...base, to: 65536, gap: 4096 })),
    /reaches position 69632/,
  );
});

// An object whose prototype is a Uint8Array passes `instanceof Uint8Array` but is no typed array:
// the config reader reads it as an object of keys (found by the rope.js fuzzer, seed 3249165417).
test('config_with_a_typed_array_prototype_should_be_read_as_an_object', async () => {
  await rope.ready();
  const config = JSON.parse('{"head_dim": 64, "rope_theta": 10000}');
  Object.setPrototypeOf(config, new Uint8Array(5));
  for (const fn of ['scaling_csv', 'scaling_json_text']) {
    const text = rope[fn](config, {});
    assert.match(text, /10000/, `${fn}: the object's keys are read`);
  }
  const missing = {};
  Object.setPrototypeOf(missing, new Uint8Array(5));
  assert.throws(() => rope.scaling_csv(missing, {}), { name: 'TypeError', message: /hidden_size|head_dim/ });
});

// Issue #35: a Proxy whose traps throw, given where a number or an options object belongs,
// escaped as the trap's own Error from inside the message that was to name it. Every argument
// is read behind a guard: the error is a TypeError naming the parameter, whatever was thrown.
test('throwing_proxies_should_be_refused_as_a_type_error_naming_the_parameter', () => {
  const boom = () => {
    throw new Error('boom');
  };
  const trapping = new Proxy([1, 2, 3, 4], { get: boom });
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const unshowable = new Proxy(
    {},
    {
      get() {
        throw new Error('again');
      },
    },
  );
  const REVOKED = "Cannot perform 'IsArray' on a proxy that has been revoked";
  const cases = [
    [() => rope.add_score(Q8, K8, trapping, 0), 'm must be a number, got an array whose length could not be read'],
    [() => rope.thetas(trapping), 'd must be a number, got an array whose length could not be read'],
    [() => rope.apply_rope(Q8, revoked.proxy), 'pos must be a number, got a revoked Proxy'],
    [() => rope.apply_rope(Q8, 1, trapping), 'base must be a number, got an array whose length could not be read'],
    [() => rope.dot(trapping, K8), 'a: could not be read: boom'],
    [
      () =>
        rope.norm(
          new Proxy([1, 2], {
            get() {
              throw 42;
            },
          }),
        ),
      'vec: could not be read: 42',
    ],
    [
      () =>
        rope.norm(
          new Proxy([1, 2], {
            get() {
              throw unshowable;
            },
          }),
        ),
      'vec: could not be read: an exception that could not be shown',
    ],
    [() => rope.build_report(trapping), 'options must be an object, got an array whose length could not be read'],
    [() => rope.build_report(revoked.proxy), `options: could not be read: ${REVOKED}`],
    [() => rope.build_report(new Proxy({}, { ownKeys: boom })), 'options: could not be read: boom'],
    [() => rope.scaling_csv(revoked.proxy), `config: could not be read: ${REVOKED}`],
    [() => rope.scaling_csv('{}', revoked.proxy), `options: could not be read: ${REVOKED}`],
    [
      () => rope.scaling_csv('{}', new Proxy({ gap: 1 }, { getOwnPropertyDescriptor: boom })),
      'options: could not be read: boom',
    ],
  ];
  for (const [call, message] of cases) {
    const err = thrown(call);
    assert.ok(err instanceof TypeError, `${message}: threw ${err}`);
    assert.equal(err.message, message);
  }
});

// Issue #35: a config whose scaled frequencies overflow. The C writer names the key in the
// reader's message; the page dropped that message for a CoreError ("scaling: result
// overflowed ... (seq_len = 0, ...)") and the CLI printed it. Both now say the same words.
const OVERFLOWING = [
  [{ head_dim: 8, rope_theta: 10000, rope_scaling: { rope_type: 'linear', factor: 5e-324 } }, {}],
  [
    {
      head_dim: 8,
      rope_theta: 10000,
      max_position_embeddings: 4096,
      rope_scaling: { rope_type: 'dynamic', factor: 1e300 },
    },
    { seq_len: 100000 },
  ],
  [
    {
      head_dim: 8,
      rope_theta: 10000,
      max_position_embeddings: 131072,
      original_max_position_embeddings: 4096,
      rope_scaling: { rope_type: 'longrope', short_factor: [5e-324, 1, 1, 1], long_factor: [1, 1, 1, 1] },
    },
    {},
  ],
];

test('scaling_overflow_should_name_the_key_on_the_page_as_the_cli_does', () => {
  const err = thrown(() => rope.scaling_csv(OVERFLOWING[0][0]));
  assert.ok(err instanceof RangeError, `threw ${err}`);
  assert.equal(
    err.message,
    'rope_scaling.factor 4.9406564584124654e-324 is too small: the scaled frequencies (theta / factor) overflow',
  );
});

test('scaling_overflow_messages_should_be_the_clis_word_for_word', (t) => {
  if (!existsSync(CLI)) return t.skip('no build/ropescope: run make native');
  const dir = mkdtempSync(join(tmpdir(), 'rope-overflow-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [i, [config, opts]] of OVERFLOWING.entries()) {
    const file = join(dir, `${i}.json`);
    writeFileSync(file, JSON.stringify(config));
    const flags = opts.seq_len === undefined ? [] : ['--seq-len', String(opts.seq_len)];
    const cli = spawnSync(CLI, ['scaling', '--config', file, '--format', 'csv', ...flags], { encoding: 'utf8' });
    assert.equal(cli.status, 2, `${file}: ${cli.stderr}`);
    const line = cli.stderr.split('\n').find((l) => l.startsWith('ropescope: ') && !l.startsWith('ropescope: warning'));
    const err = thrown(() => rope.scaling_csv(config, opts));
    assert.ok(err instanceof RangeError, `threw ${err}`);
    assert.equal(`ropescope: ${err.message}`, line, JSON.stringify(config));
  }
});
