// The verify panel (web/src/verify/, loaded as ropescope-verify.js at its first use) against the
// CLI: dumps written here fresh each run (float32 .npy, from the docs/VERIFY.md formulas in
// float64, shared with no C code), correct ones and ones with a mistake planted, go through the
// panel's file inputs and through `build/ropescope verify --format json`; the panel must show the
// CLI's JSON byte for byte, its verdict and exit code, its diagnosis codes and, for a bad file,
// its one line. Served, from disk (web/index.html and dist/ropescope.html), and the single file
// alone, where the panel says its script is missing.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { rng, seed } from '../lib/testlib.mjs';
import { CLI, openPage, ROOT, useServerAndBrowser } from './harness.mjs';

const env = useServerAndBrowser();
const SEED = seed('verify');
const random = rng(SEED);
const pick = (items) => items[Math.floor(random() * items.length)];
const ROLE_FLAGS = { inv: '--inv-freq', cos: '--cos', sin: '--sin', cache: '--cache' };
let dir;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ropescope-verify-'));
});

after(() => rmSync(dir, { recursive: true, force: true }));

/** A float32 .npy file (format 1.0, C order) of shape holding values. */
function npy(shape, values) {
  const dims = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${dims}, }`;
  header += `${' '.repeat(63 - ((10 + header.length) % 64))}\n`;
  const head = Buffer.alloc(10);
  Buffer.from('\x93NUMPY', 'latin1').copy(head);
  head[6] = 1;
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(new Float32Array(values).buffer)]);
}

/** inv_freq of transformers' default RoPE, in float64. */
const invFreq = (dim, base) => Array.from({ length: dim / 2 }, (_, i) => 1 / base ** ((2 * i) / dim));

/** cos and sin of positions from..from+rows-1 for each pair; rotate_half lays pair i in columns
 *  i and i + n, interleaved in 2i and 2i + 1. */
function tables(theta, from, rows, layout) {
  const n = theta.length;
  const cos = [];
  const sin = [];
  for (let r = 0; r < rows; r++) {
    const c = new Array(2 * n);
    const s = new Array(2 * n);
    for (let i = 0; i < n; i++) {
      const angle = (from + r) * theta[i];
      const [a, b] = layout === 'interleaved' ? [2 * i, 2 * i + 1] : [i, i + n];
      c[a] = c[b] = Math.cos(angle);
      s[a] = s[b] = Math.sin(angle);
    }
    cos.push(...c);
    sin.push(...s);
  }
  return { cos, sin };
}

/** A fresh case: a config, and files by role (name -> bytes), some with a mistake planted. */
function makeCase(name, kind) {
  const dim = 2 * (4 + Math.floor(random() * 29)); // 8..64
  const base = pick([10000, 50000, 500000, 1000000]);
  const rows = 4 + Math.floor(random() * 40);
  const from = kind === 'positions' ? Math.floor(random() * 1000) : 0;
  const config = { hidden_size: dim * 4, num_attention_heads: 4, head_dim: dim, rope_theta: base };
  // A key the reader does not know: a warning, which the CLI prints on stderr and the panel shows.
  if (kind === 'match') config.rope_scaling = { rope_type: 'default', [pick(['colour', 'mood'])]: 1 };
  // Sliding-window layers with a base of their own (transformers v5's per-layer-type blocks): the
  // dump is of those layers, --layer-type sliding_attention picks their table.
  const local = pick([5000, 20000]);
  if (kind === 'sliding' || kind === 'bad_layer') {
    delete config.rope_theta;
    config.num_hidden_layers = 6;
    config.layer_types = ['sliding_attention', 'sliding_attention', 'full_attention'].flatMap((t) => [t, t]);
    config.rope_parameters = {
      full_attention: { rope_type: 'default', rope_theta: base },
      sliding_attention: { rope_type: 'default', rope_theta: local },
    };
  }
  const dumpBase = kind === 'wrong_base' ? base * pick([2, 10, 0.5]) : kind === 'sliding' ? local : base;
  const theta = invFreq(dim, dumpBase);
  const files = { config: [`${name}.config.json`, Buffer.from(JSON.stringify(config))] };
  if (kind === 'inv_freq') files.inv = [`${name}.inv_freq.npy`, npy([dim / 2], theta)];
  else {
    const t = tables(theta, from, rows, kind === 'interleaved' ? 'interleaved' : 'rotate_half');
    files.cos = [`${name}.cos.npy`, npy([rows, dim], t.cos)];
    files.sin = [`${name}.sin.npy`, npy([rows, dim], t.sin)];
    if (kind === 'truncated') files.sin[1] = files.sin[1].subarray(0, files.sin[1].length - 1 - (rows % 7));
  }
  for (const [file, bytes] of Object.values(files)) writeFileSync(join(dir, file), bytes);
  const positions = kind === 'positions' ? `${from}:${rows}` : '';
  // A bad value typed in a field: the CLI's flag grammar refuses it in its own words.
  const seqLen = kind === 'bad_seq_len' ? pick(['1e', '-', ' 5', '0x10', 'abc']) : '';
  const layerType = { sliding: 'sliding_attention', bad_layer: 'chunked_attention' }[kind] ?? '';
  return { files, positions, seqLen, layerType, what: `${kind} (dim ${dim}, base ${base}, ${rows} rows)` };
}

/** What the CLI says of a case: exit code, stdout, stderr, run in the folder so names match. */
function cli({ files, positions, seqLen, layerType }) {
  const args = ['verify', '--config', files.config[0], '--format', 'json'];
  for (const [role, flag] of Object.entries(ROLE_FLAGS)) if (files[role]) args.push(flag, files[role][0]);
  if (positions) args.push('--positions', positions);
  if (seqLen) args.push('--seq-len', seqLen);
  if (layerType) args.push('--layer-type', layerType);
  const run = spawnSync(CLI, args, { cwd: dir, encoding: 'utf8' });
  return { code: run.status, out: run.stdout, err: run.stderr.trim() };
}

async function openChecker(page) {
  await page.click('#verify-open');
  await page.waitForSelector('#verify-config', { timeout: 15000 });
}

/** Drops a file on its input's row, as a reader drags it from a file manager. */
async function drop(page, role, name, bytes) {
  const row = await page.evaluateHandle((id) => document.getElementById(id).parentElement, `verify-${role}`);
  await page.evaluate(
    ([target, fileName, data]) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(data)], fileName));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    [row, name, [...bytes]],
  );
}

/** Feeds a case through the panel's inputs (pickers, or drops) and checks it shows what the CLI printed. */
async function checkCase(page, c, { dropped = false } = {}) {
  const want = cli(c);
  await page.click('#verify-clear');
  await page.fill('#verify-positions', c.positions);
  await page.fill('#verify-seq', c.seqLen);
  await page.fill('#verify-layer', c.layerType);
  for (const [role, [file, bytes]] of Object.entries(c.files)) {
    if (dropped) await drop(page, role, file, bytes);
    else await page.setInputFiles(`#verify-${role}`, join(dir, file));
  }
  const shown = () =>
    page.evaluate(() => ({
      verdict: document.getElementById('verify-verdict').textContent,
      msg: document.getElementById('verify-msg').textContent,
      json: document.getElementById('verify-json').textContent,
      hidden: document.getElementById('verify-result').hidden,
    }));
  const done =
    want.code <= 1
      ? (s) => !s.hidden && s.json === want.out
      : (s) => s.msg === want.err && s.verdict === `result: bad input (exit ${want.code})`;
  const deadline = Date.now() + 15000;
  let s = await shown();
  while (!done(s) && Date.now() < deadline) {
    await page.waitForTimeout(50);
    s = await shown();
  }
  assert.ok(
    done(s),
    `${c.what}: the panel shows ${JSON.stringify(s)}; the CLI said exit ${want.code} ${want.err || want.out}`,
  );
  if (want.code === 2) return want;
  // Each read queries and reads in one evaluate: the panel may show the same result again (a
  // field's delayed check), and elements found in one call could be gone by the next.
  const field = (term) =>
    page.evaluate(
      (name) =>
        [...document.querySelectorAll('#verify-fields dt')]
          .filter((t) => t.textContent === name)
          .map((t) => t.nextElementSibling.textContent),
      term,
    );
  const warnings = await field('warning');
  const said = want.err
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/^ropescope: warning: /, ''));
  assert.deepEqual(warnings, said, `${c.what}: the config's warnings`);
  const r = JSON.parse(want.out);
  // The attention score's error row: the CLI's gap and pair, for a table that was compared.
  const score = await field('attention score error');
  if (r.score_error === null) assert.deepEqual(score, [], `${c.what}: no attention score row`);
  else
    assert.ok(
      score.length === 1 && score[0].includes(`gap ${r.score_gap} `) && score[0].endsWith(`pair ${r.score_pair}`),
      `${c.what}: the attention score row ${JSON.stringify(score)}, the CLI's gap ${r.score_gap} pair ${r.score_pair}`,
    );
  assert.equal(s.verdict, `result: ${r.verdict} (exit ${want.code})`, `${c.what}: verdict`);
  const codes = await page.evaluate(() =>
    [...document.querySelectorAll('#verify-diagnoses code')].map((e) => e.textContent),
  );
  assert.deepEqual(
    codes,
    r.diagnoses.map((d) => d.code),
    `${c.what}: diagnosis codes`,
  );
  // The chart: one finite bar per pair, the tallest the CLI's worst ratio (floored at 1e-3).
  const bars = await page.evaluate(
    () => window.Chart.getChart(document.getElementById('verify-chart'))?.data.datasets[0].data,
  );
  assert.equal(bars?.length, r.config.pairs, `${c.what}: a bar per pair`);
  assert.ok(bars.every(Number.isFinite), `${c.what}: finite bars`);
  const tallest = Math.max(...bars);
  const worst = Math.max(r.worst_ratio, 1e-3);
  assert.ok(Math.abs(tallest - worst) <= 1e-12 * worst, `${c.what}: tallest bar ${tallest}, worst ratio ${worst}`);
  return want;
}

const KINDS = [
  'match',
  'wrong_base',
  'interleaved',
  'inv_freq',
  'positions',
  'truncated',
  'bad_seq_len',
  'sliding',
  'bad_layer',
];

test('the_panel_should_say_what_the_cli_says_of_random_dumps', async () => {
  const p = await openPage(env.browser, env.server.url);
  await openChecker(p.page);
  const seen = {};
  const named = {};
  const said = {};
  for (const [k, kind] of KINDS.entries()) {
    const want = await checkCase(p.page, makeCase(`served${k}`, kind));
    seen[kind] = want.code;
    said[kind] = want.code <= 1 ? JSON.parse(want.out) : null;
    named[kind] = want.code === 1 ? JSON.parse(want.out).diagnoses.map((d) => d.code) : [];
  }
  // The planted mistakes are mistakes, the right dumps match (a table in the other pairing layout
  // too: it is right for a pipeline that applies it so, docs/VERIFY.md), the truncated file is
  // refused.
  assert.deepEqual(
    seen,
    {
      match: 0,
      wrong_base: 1,
      interleaved: 0,
      inv_freq: 0,
      positions: 0,
      truncated: 2,
      bad_seq_len: 2,
      sliding: 0,
      bad_layer: 2,
    },
    'exit codes',
  );
  assert.ok(named.wrong_base.includes('wrong_base'), `a wrong base is named: ${named.wrong_base}`);
  assert.ok(
    /adjacent pairs/.test(said.interleaved.layout_needs) && /rotate_half/.test(said.match.layout_needs),
    `the layout found is said: ${said.interleaved.layout_needs} / ${said.match.layout_needs}`,
  );
  // Files dropped on the rows instead of picked.
  await checkCase(p.page, makeCase('dropped', pick(['match', 'wrong_base', 'interleaved'])), { dropped: true });
  // The panel with a result, in both colour schemes: nothing serious for axe-core.
  for (const scheme of ['light', 'dark']) {
    await p.page.emulateMedia({ colorScheme: scheme });
    const { violations } = await new AxeBuilder({ page: p.page }).include('#verify').analyze();
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      [],
      `axe, ${scheme}`,
    );
  }
  await p.close();
});

test('the_panel_should_work_from_disk', async () => {
  // From disk the page runs its one classic script (dist/): web/index.html loads ES modules, which
  // a page from file:// cannot.
  for (const file of ['dist/ropescope/index.html', 'dist/ropescope.html']) {
    const p = await openPage(env.browser, pathToFileURL(join(ROOT, file)).href);
    await openChecker(p.page);
    await checkCase(p.page, makeCase(`disk-${file.replace(/\W/g, '')}`, pick(['wrong_base', 'interleaved'])));
    await p.close();
  }
});

test('the_single_file_alone_should_say_its_checker_is_missing', async () => {
  const alone = mkdtempSync(join(tmpdir(), 'ropescope-alone-'));
  copyFileSync(join(ROOT, 'dist/ropescope.html'), join(alone, 'ropescope.html'));
  const p = await openPage(env.browser, pathToFileURL(join(alone, 'ropescope.html')).href);
  await p.page.click('#verify-open');
  const line = await p.page.waitForFunction(() => document.querySelector('#verify .msg').textContent, null, {
    timeout: 15000,
  });
  assert.match(await line.jsonValue(), /^The checker is missing: ropescope-verify\.js must be beside this page\.$/);
  // The browser's own report of the missing file is the one problem expected.
  const others = p.problems.filter((x) => !x.includes('ropescope-verify.js') && !x.includes('ERR_FILE_NOT_FOUND'));
  p.problems.length = 0;
  p.problems.push(...others);
  await p.close();
  rmSync(alone, { recursive: true, force: true });
});
