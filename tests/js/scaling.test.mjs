// The long-context binding (web/src/core/files.js over the files module) against the
// independent reference: the random cases of tests/diff/diff_scaling.py (with the
// reference's answers), SCALING.md's reference numbers, byte identity with the
// CLI on the nine model configs, and bad configs and options.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { scaling_csv, scaling_from_config, scaling_json_text } from '../../web/src/core/files.js';
import { close, PYTHON, seed } from '../lib/testlib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'build', 'ropescope');
const MODELS = path.join(ROOT, 'web', 'models');
const PAIR_FIELDS = ['wavelength', 'inv_freq', 'inv_freq_scaled', 'ratio'];

// The Python side writes the cases (make test-scaling passes their files in
// env); run alone, this test has them written afresh, never reusing old ones.
function generated(envName, script, args) {
  let file = process.env[envName];
  if (!file) {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scaling-')), `${envName}.json`);
    const run = spawnSync(PYTHON, [path.join(ROOT, 'tests', script), ...args(file)], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ROPE_TEST_SEED: String(seed('scaling')) },
    });
    assert.ok(fs.existsSync(file), `${script} did not write ${file}: ${run.stdout}${run.stderr}`);
  }
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b), 1e-300);
const names = (text, key) => new RegExp(`(^|[^a-z_])${key}([^a-z_]|$)`).test(text);

function compare(got, exp, problems) {
  for (const key of ['rope_type', 'rotary_dim']) {
    if (got[key] !== exp[key]) problems.push(`${key}: ${got[key]} vs ${exp[key]}`);
  }
  for (const key of ['base', 'factor', 'attention_factor', 'softmax_multiplier']) {
    const ok = exp[key] === null ? got[key] === null : close(got[key], exp[key]);
    if (!ok) problems.push(`${key}: ${got[key]} vs ${exp[key]}`);
  }
  for (const [key, value] of Object.entries(exp.extra)) {
    const want = [value].flat(),
      have = [got.resolved[key]].flat();
    if (want.some((v, j) => !close(have[j], v))) problems.push(`resolved.${key}: ${have} vs ${want}`);
  }
  if (exp.rope_type === 'proportional' && JSON.stringify(got.bands) !== JSON.stringify(exp.bands))
    problems.push(`bands: ${JSON.stringify(got.bands)} vs ${JSON.stringify(exp.bands)}`);
  if (got.pairs.length !== exp.pairs.length) {
    problems.push(`${got.pairs.length} pairs vs ${exp.pairs.length}`);
    return;
  }
  const factor = exp.factor ?? 1;
  exp.pairs.forEach((ep, i) => {
    const gp = got.pairs[i];
    // A still pair (proportional's frequency 0) has no wavelength and no ratio: null on both sides.
    const same = (a, b) => (b === null ? a === null : a !== null && close(a, b));
    for (const f of PAIR_FIELDS) if (!same(gp[f], ep[f])) problems.push(`pair ${i} ${f}: ${gp[f]} vs ${ep[f]}`);
    const edge = ep.ratio !== null && (near(ep.ratio, 1) || near(ep.ratio, 1 / factor));
    if (gp.band !== ep.band && !edge) problems.push(`pair ${i} band: ${gp.band} vs ${ep.band}`);
  });
  if (!exp.range) {
    if (got.range) problems.push('a range nobody asked for');
    return;
  }
  let edges = 0;
  exp.range.pairs.forEach((ep, i) => {
    const gp = got.range.pairs[i];
    for (const f of ['trained_angle', 'gap_angle']) {
      if (!close(gp[f], ep[f])) problems.push(`range pair ${i} ${f}: ${gp[f]} vs ${ep[f]}`);
    }
    const edge = near(ep.trained_angle, 2 * Math.PI) || near(ep.gap_angle, ep.trained_angle);
    edges += edge;
    if (gp.status !== ep.status && !edge) problems.push(`range pair ${i}: ${gp.status} vs ${ep.status}`);
  });
  for (const key of ['covered', 'inside', 'unseen', 'critical_dimension']) {
    if (!edges && got.range[key] !== exp.range[key])
      problems.push(`range.${key}: ${got.range[key]} vs ${exp.range[key]}`);
  }
}

// The model part (docs/SCALING.md, "Model classes"): the level read, the layout and the
// layer lists exactly, numbers to the tolerance.
function compareModel(got, exp, problems) {
  if (!got) {
    problems.push('no model part');
    return;
  }
  const sameList = (a, b) =>
    a === b || (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, j) => close(v, b[j])));
  for (const key of ['read_from', 'model_type', 'layout', 'num_hidden_layers', 'nope_layers', 'mrope_section']) {
    const ok = Array.isArray(exp[key]) ? sameList(got[key], exp[key]) : got[key] === exp[key];
    if (!ok) problems.push(`model.${key}: ${JSON.stringify(got[key])} vs ${JSON.stringify(exp[key])}`);
  }
  const num = (a, b) => (b === null ? a === null : a !== null && close(a, b));
  if (!num(got.query_pre_attn_scalar, exp.query_pre_attn_scalar)) problems.push('model.query_pre_attn_scalar');
  if ((got.query_scale === null) !== (exp.query_scale === null)) problems.push('model.query_scale presence');
  else if (exp.query_scale) {
    if (got.query_scale.layers !== exp.query_scale.layers) problems.push('model.query_scale.layers');
    for (const key of ['beta', 'L0', 'position', 'value']) {
      if (!close(got.query_scale[key], exp.query_scale[key])) problems.push(`model.query_scale.${key}`);
    }
  }
  if ((got.layer_types === null) !== (exp.layer_types === null)) problems.push('model.layer_types presence');
  else if (exp.layer_types) {
    exp.layer_types.forEach((e, j) => {
      const h = got.layer_types[j];
      if (h.name !== e.name || h.rotary_dim !== e.rotary_dim || !close(h.base, e.base) || !sameList(h.layers, e.layers))
        problems.push(`layer type ${e.name}`);
    });
    const local = got.layer_types[1].pairs.map((p) => p.inv_freq);
    if (!sameList(local, exp.layer_types[1].inv_freq)) problems.push('sliding_attention inv_freq');
  }
}

function options(opts) {
  const o = {};
  if (opts.seq_len) o.seq_len = opts.seq_len;
  if (opts.train_len !== null && opts.train_len !== undefined)
    Object.assign(o, { train_len: opts.train_len, gap: opts.gap });
  return o;
}

test('scaling_from_config should agree with the reference on random configs', () => {
  const { seed: caseSeed, cases } = generated('SCALING_CASES', 'diff/diff_scaling.py', (file) => ['--cases', file]);
  console.log(`scaling cases from ROPE_TEST_SEED=${caseSeed}: ${cases.length}`);
  const failures = [];
  let identical = 0;
  cases.forEach(({ config, opts, expect, native_text: nativeText }, n) => {
    const problems = [];
    if (expect.error) {
      try {
        scaling_from_config(config, options(opts));
        problems.push(`no error; expected one naming ${expect.error}`);
      } catch (e) {
        if (!(e instanceof TypeError || e instanceof RangeError) || !e.message.includes(expect.error)) {
          problems.push(`error ${e.name}: ${e.message}; expected one naming ${expect.error}`);
        }
      }
    } else {
      const text = scaling_json_text(config, options(opts));
      const got = JSON.parse(text);
      compare(got, expect, problems);
      compareModel(got.model, expect.model, problems);
      // The wasm and the native build compute the same bits, so the same bytes.
      if (text !== nativeText) problems.push("the JSON text differs from the native build's");
      else identical++;
    }
    if (problems.length)
      failures.push(`case ${n} ${JSON.stringify({ config, opts })}\n  ${problems.slice(0, 5).join('\n  ')}`);
  });
  assert.deepEqual(failures, []);
  assert.ok(identical > cases.length / 2, `only ${identical} cases compared byte for byte`);
});

function lookup(obj, p) {
  const deg = p.endsWith('_deg');
  let v = obj;
  for (const part of (deg ? p.slice(0, -4) : p).split('.')) v = v?.[part];
  return deg && typeof v === 'number' ? (v * 180) / Math.PI : v;
}

function digitsTolerance(text) {
  const [mant, exp = '0'] = text.toLowerCase().split('e');
  const decimals = mant.includes('.') ? mant.split('.')[1].length : 0;
  return 0.5 * 10 ** (Number(exp) - decimals) * (1 + 1e-9);
}

test("scaling_from_config should give SCALING.md's reference numbers", () => {
  const facts = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests', 'data', 'scaling_facts.json'), 'utf8'));
  const problems = [];
  for (const c of facts.cases) {
    const config = c.model ? JSON.parse(fs.readFileSync(path.join(MODELS, `${c.model}.json`), 'utf8')) : c.config;
    const got = scaling_from_config(config, c.opts ?? {});
    for (const [p, want] of c.checks) {
      if (p === 'warnings.*') {
        if (!got.warnings.some((w) => w.includes(want))) problems.push(`${c.name}: no warning ${want}`);
        continue;
      }
      const v = lookup(got, p);
      const ok =
        typeof want === 'string' && typeof v === 'number'
          ? Math.abs(v - Number(want)) <= digitsTolerance(want)
          : v === want;
      if (!ok) problems.push(`${c.name}: ${p} = ${v}, expected ${want}`);
    }
  }
  assert.deepEqual(problems, []);
});

test("scaling output should be byte for byte the CLI's on every model config", () => {
  for (const file of fs.readdirSync(MODELS).filter((f) => f.endsWith('.json'))) {
    const p = path.join(MODELS, file);
    const config = JSON.parse(fs.readFileSync(p, 'utf8'));
    const cli = (args) =>
      execFileSync(CLI, ['scaling', '--config', p, ...args], { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
    assert.equal(
      scaling_json_text(config, { seq_len: 200000, train_len: 8192, gap: 50000 }),
      cli(['--format', 'json', '--seq-len', '200000', '--train-len', '8192', '--gap', '50000']),
      file,
    );
    assert.equal(scaling_csv(config), cli(['--format', 'csv']), file);
  }
});

test('bad configs should throw naming the key, or warn naming it, as the CLI does', () => {
  const cases = generated('SCALING_BAD', 'cli/test_scaling_cli.py', (file) => ['--bad-out', file]);
  const problems = [];
  for (const c of cases) {
    let got = null,
      error = null;
    try {
      got = scaling_from_config(c.config);
    } catch (e) {
      error = e;
    }
    if (c.cli_exit === 2) {
      if (!error || !(error instanceof TypeError || error instanceof RangeError) || !names(error.message, c.key)) {
        problems.push(`${c.name}: expected an error naming ${c.key}, got ${error ? error.message : 'none'}`);
      }
    } else if (error) {
      problems.push(`${c.name}: the CLI accepts it, JS threw ${error.message}`);
    } else if (!c.silent_ok && !got.warnings.some((w) => names(w, c.key))) {
      problems.push(`${c.name}: no warning naming ${c.key}`);
    }
  }
  assert.ok(cases.length > 300);
  assert.deepEqual(problems, []);
});

test('scaling_from_config should refuse bad arguments with a message naming them', () => {
  const llama = JSON.parse(fs.readFileSync(path.join(MODELS, 'llama-3.1-8b.json'), 'utf8'));
  const phi = JSON.parse(fs.readFileSync(path.join(MODELS, 'phi-3.5-mini-instruct.json'), 'utf8'));
  for (const bad of [null, [], 3, undefined, new Float64Array(2)]) {
    assert.throws(
      () => scaling_from_config(bad),
      (e) => e instanceof TypeError && /config must be config.json text, its bytes, or an object/.test(e.message),
    );
  }
  // Text is read as a config file is, by the C reader.
  assert.throws(
    () => scaling_from_config('config'),
    (e) =>
      e instanceof TypeError &&
      /^the config is not a JSON object: '\{' expected near 'config', at line 1, column 6$/.test(e.message),
  );
  const throwsNaming = (config, opts, text, Kind = Error) =>
    assert.throws(
      () => scaling_from_config(config, opts),
      (e) => e instanceof Kind && e.message.includes(text),
    );
  throwsNaming({ ...llama, rope_parameters: { rope_type: 'default' } }, {}, 'rope_parameters', TypeError);
  throwsNaming(
    { ...llama, rope_scaling: { ...llama.rope_scaling, rope_type: 'sux' } },
    {},
    'rope_scaling.rope_type "sux"',
    TypeError,
  );
  throwsNaming({ ...llama, rope_theta: Infinity }, {}, 'rope_theta must be a finite number', RangeError);
  throwsNaming(
    { ...llama, rope_scaling: { ...llama.rope_scaling, factor: NaN } },
    {},
    'rope_scaling.factor',
    RangeError,
  );
  // About 9 MB of factors: refused by the length of its text, without trouble.
  const huge = Array.from({ length: 700000 }, (_, j) => 1 + j / 7);
  throwsNaming(
    { ...phi, rope_scaling: { ...phi.rope_scaling, long_factor: huge } },
    {},
    'the config is over the limit of 1048576 bytes (1 MiB)',
    TypeError,
  );
  const short = phi.rope_scaling.short_factor.slice(0, 10);
  throwsNaming(
    { ...phi, rope_scaling: { ...phi.rope_scaling, short_factor: short } },
    {},
    'rope_scaling.short_factor',
    RangeError,
  );
  throwsNaming(llama, { seq_len: -1 }, 'seq_len', RangeError);
  throwsNaming(llama, { train_len: 4096 }, 'train_len', RangeError);
  throwsNaming(llama, { train_len: 0, gap: 5 }, 'train_len', RangeError);
  throwsNaming(llama, { gap: 5, train_len: 10, seq: 1 }, 'options.seq', TypeError);
  throwsNaming(llama, { seq_len: '5' }, 'seq_len', TypeError);
  throwsNaming(llama, { seq_len: Infinity }, 'seq_len', RangeError);
  // Own properties only; unknown top-level keys and deep objects are harmless.
  const inherited = Object.create({ rope_theta: -1 });
  Object.assign(inherited, llama);
  assert.equal(scaling_from_config(inherited).base, 500000);
  const parsed = JSON.parse('{"__proto__": {"rope_theta": 7}, "head_dim": 64, "text_config": {"a": {"b": 1}}}');
  assert.equal(scaling_from_config(parsed).base, 10000);
  const odd = scaling_from_config({ ...llama, rope_scaling: { ...llama.rope_scaling, extra: { a: [1, 'x'] } } });
  assert.ok(odd.warnings.some((w) => w.includes('rope_scaling.extra')));
  // The text forms share the checks.
  assert.throws(() => scaling_csv(null), TypeError);
  assert.throws(
    () => scaling_json_text({ ...llama, rope_theta: -1 }),
    (e) => e instanceof RangeError && e.message.includes('rope_theta must be > 1, got -1'),
  );
  assert.throws(
    () => scaling_csv(llama, { gap: 3 }),
    (e) => e instanceof RangeError && e.message.includes('gap'),
  );
  // The module keeps working after all of that.
  assert.equal(scaling_from_config(llama).bands.ramp, 6);
});
