// The page's verify module (web/src/verify/module.js over build/verify.wasm) against the CLI on
// every dump tests/cli/test_verify.py wrote this run (make test-verify runs it first): right and
// planted dumps of every format and dtype, bad and mutated files, with random --positions,
// --seq-len and --layer-type values, good and bad. Each must give the CLI's exit code and, byte for byte, its
// JSON or its one line for bad input, and its config warnings.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { verifyFiles } from '../../web/src/verify/module.js';
import { CLI, ROOT, rng, seed } from '../lib/testlib.mjs';

const DUMPS = join(ROOT, 'build', 'verify-dumps');
const random = rng(seed('verify_page'));
const pick = (items) => items[Math.floor(random() * items.length)];
const FLAGS = {
  inv: '--inv-freq',
  cos: '--cos',
  sin: '--sin',
  cache: '--cache',
  cos_sin_cache: '--cos-sin-cache',
  embed_positions: '--embed-positions',
};

// A safetensors file holds inv_freq, or cos and sin (--cache): its header names them.
function safetensorsRole(bytes) {
  const length = Number(bytes.readBigUInt64LE(0));
  return bytes
    .subarray(8, 8 + length)
    .toString('latin1')
    .includes('"inv_freq"')
    ? 'inv'
    : 'cache';
}

// The dump files of case `stem` by role, as tests/diff/gen_dumps.py names them.
function dumpRoles(stem, names) {
  const roles = {};
  for (const name of names.filter((n) => n.startsWith(`${stem}.`) && !n.endsWith('.config.json'))) {
    const part = name.slice(stem.length + 1);
    if (part.startsWith('inv_freq')) roles.inv = name;
    else if (part.startsWith('cos_sin_cache.')) roles.cos_sin_cache = name;
    else if (part.startsWith('embed_positions.')) roles.embed_positions = name;
    else if (part.startsWith('freqs_cis.')) roles.cache = name;
    else if (part.startsWith('cos')) roles.cos = name;
    else if (part.startsWith('sin')) roles.sin = name;
    else if (part.endsWith('.npz')) roles.cache = name;
    else if (part.endsWith('.safetensors')) roles[safetensorsRole(readFileSync(join(DUMPS, name)))] = name;
  }
  return roles;
}

// The CLI's answer and the module's for one run, in the dumps' folder so the names match.
async function both(config, roles, { positions = '', seqLen = '', layerType = '' }) {
  const args = ['verify', '--config', config, '--format', 'json'];
  for (const [role, name] of Object.entries(roles)) args.push(FLAGS[role], name);
  if (positions) args.push('--positions', positions);
  if (seqLen) args.push('--seq-len', seqLen);
  if (layerType) args.push('--layer-type', layerType);
  const cli = spawnSync(CLI, args, { cwd: DUMPS, encoding: 'utf8' });
  const files = Object.fromEntries(
    Object.entries({ config, ...roles }).map(([role, name]) => [
      role,
      { name, bytes: readFileSync(join(DUMPS, name)) },
    ]),
  );
  const page = await verifyFiles(files, { positions, seqLen, layerType });
  return { args: args.join(' '), cli, page };
}

function assertSame({ args, cli, page }) {
  assert.equal(page.code, cli.status, `${args}: exit code (${cli.stderr.trim()})`);
  const lines = cli.stderr.split('\n').filter(Boolean);
  if (cli.status <= 1) {
    assert.equal(page.json, cli.stdout, `${args}: the JSON`);
    assert.deepEqual(page.warnings, lines, `${args}: the warnings`);
    assert.ok(
      page.pairs.every((x) => x >= 0),
      `${args}: each pair's worst ratio`,
    );
    const r = JSON.parse(cli.stdout);
    if (r.worst_ratio !== null) {
      const worst = Math.max(...page.pairs);
      assert.ok(Math.abs(worst - r.worst_ratio) <= 1e-12 * r.worst_ratio, `${args}: worst pair ${worst}`);
    }
  } else {
    assert.deepEqual([page.line], lines, `${args}: the one line`);
  }
}

test('the_page_module_should_say_what_the_cli_says_of_every_dump', async () => {
  assert.ok(existsSync(DUMPS), `${DUMPS} is missing: tests/cli/test_verify.py writes it (make test-verify)`);
  const names = readdirSync(DUMPS).sort();
  const configs = names.filter((n) => n.endsWith('.config.json'));
  let runs = 0;
  for (const config of configs) {
    const roles = dumpRoles(config.replace(/\.config\.json$/, ''), names);
    if (!Object.keys(roles).length) continue;
    const options = pick([
      {},
      { positions: `${Math.floor(random() * 600)}:${pick([1, 10, 100])}` },
      { seqLen: pick(['4096', '0', '1e16', 'x', '2.5', '-1']) },
      { layerType: pick(['full_attention', 'sliding_attention', 'chunked_attention']) },
    ]);
    assertSame(await both(config, roles, {}));
    assertSame(await both(config, roles, options));
    runs += 2;
  }
  // Every other file (bad, truncated, mutated) as cos and sin, and as inv_freq, of one config.
  const loose = names.filter(
    (n) => !/\.config\.json$/.test(n) && !configs.some((c) => n.startsWith(`${c.split('.')[0]}.`)),
  );
  for (const name of loose) {
    assertSame(await both(configs[0], { cos: name, sin: name }, {}));
    assertSame(await both(configs[0], { inv: name }, {}));
    runs += 2;
  }
  assert.ok(runs > 100, `only ${runs} runs compared`);
});
