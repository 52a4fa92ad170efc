// The long-context part: every preset's figures against tests/ref/ref_scaling.py, the blog's
// numbers in the captions, the config checker's downloads byte for byte the CLI's, bad
// pasted text named while the page keeps working, the URL round trip of the new controls,
// and the main gap slider's log range.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { PYTHON, rng, seed } from '../lib/testlib.mjs';
import {
  afterUpdate,
  assertShows,
  CLI,
  chartData,
  close,
  downloadedFile,
  openPage,
  openReady,
  pageUrl,
  ROOT,
  settle,
  text,
  typeInto,
  useServerAndBrowser,
  waitReady,
} from './harness.mjs';

const env = useServerAndBrowser();
const LONG = ['range', 'scaling'];
const _TWO_PI = 2 * Math.PI;
const MODELS = Object.fromEntries(
  readdirSync(join(ROOT, 'web/models'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => [basename(f, '.json'), readFileSync(join(ROOT, 'web/models', f), 'utf8')]),
);
// The blog's example as the issue states it: d 512, base 10000, trained on 8192, gap 50000,
// base changed to 500000; linear factor 8 for "divided by 8".
const BLOG = { config: { head_dim: 512, rope_theta: 10000, max_position_embeddings: 8192 }, train: 8192, gap: 50000 };

// ---- the reference ----

function reference(calls) {
  const run = spawnSync(PYTHON, [join(ROOT, 'tests/ref/ref_scaling_batch.py')], {
    input: JSON.stringify(calls),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    cwd: join(ROOT, 'tests', 'ref'),
  });
  if (run.status !== 0) throw new Error(`tests/ref/ref_scaling_batch.py failed: ${run.stderr}`);
  const out = JSON.parse(run.stdout);
  out.forEach((r, i) => {
    if (r.error) throw new Error(`reference for ${JSON.stringify(calls[i].config).slice(0, 200)}: ${r.error}`);
  });
  return out;
}

/** The training length and gap a preset starts at (web/README.md, long-context controls). */
function presetRange(name) {
  if (name === 'blog') return { train: BLOG.train, gap: BLOG.gap };
  const config = JSON.parse(MODELS[name]);
  const block = config.rope_parameters ?? config.rope_scaling ?? {};
  const maxPos = config.max_position_embeddings;
  const train = config.original_max_position_embeddings ?? block.original_max_position_embeddings ?? maxPos;
  return { train, gap: maxPos > train ? maxPos : 4 * train };
}

function cli(args) {
  const run = spawnSync(CLI, ['scaling', ...args], { encoding: 'utf8' });
  assert.equal(run.status, 0, `ropescope scaling ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

// ---- reading the page ----

function longState(url) {
  const q = new URL(url).searchParams;
  return Object.fromEntries([...q.entries()]);
}

/** The settings as the page writes them into its URL (it rewrites the URL only after a change). */
async function pageQuery(page) {
  await pageUrl(page);
  return longState(`http://x/${await page.evaluate(() => window.ropescope.query())}`);
}

/** Numbers in the long charts: finite, or null where a pair has no dot in that dataset. */
function assertFiniteLong(charts) {
  for (const [id, chart] of Object.entries(charts)) {
    chart.datasets.forEach((ds, i) =>
      ds.data.forEach((v, j) => {
        if (v === null && id === 'range' && i >= 2) return;
        assert.ok(
          typeof v === 'number' && Number.isFinite(v),
          `chart-${id} dataset ${i} (${ds.label}) point ${j} is ${JSON.stringify(v)}`,
        );
      }),
    );
  }
}

async function longCharts(page) {
  const out = {};
  for (const id of LONG) out[id] = await chartData(page, id);
  return out;
}

// The charts drawn once the long-context part is ready.
const LONG_READY = ['angles', 'flatness', 'slow', ...LONG];

async function waitLong(page) {
  await waitReady(page, LONG_READY);
}

/** The range and scaling charts against reference figures `want` (and comparison figures). */
function checkLongCharts(got, want, compare, where, gap) {
  const n = want.pairs.length;
  const [trained, unscaled, ...byStatus] = got.range.datasets;
  assert.deepEqual(
    got.range.labels,
    want.pairs.map((p) => p.i),
    `chart-range labels ${where}`,
  );
  assert.deepEqual(
    got.range.datasets.map((ds) => ds.label),
    ['reached in training', 'at the gap, unscaled', 'covered', 'inside', 'unseen'],
    `chart-range datasets ${where}`,
  );
  assert.equal(trained.data.length, n, `chart-range: one bar per pair ${where}`);
  want.range.pairs.forEach((p, i) => {
    assert.ok(
      close(trained.data[i], p.trained_angle),
      `chart-range pair ${i} trained angle ${trained.data[i]} vs ${p.trained_angle} ${where}`,
    );
    ['covered', 'inside', 'unseen'].forEach((status, k) => {
      const v = byStatus[k].data[i];
      if (status === p.status) {
        assert.ok(
          v !== null && close(v, p.gap_angle),
          `chart-range pair ${i} (${status}) gap angle ${v} vs ${p.gap_angle} ${where}`,
        );
      } else {
        assert.equal(v, null, `chart-range pair ${i} is ${p.status}, not ${status} ${where}`);
      }
    });
  });
  if (want.rope_type === 'default') {
    assert.deepEqual(unscaled.data, [], `chart-range: no unscaled dots without scaling ${where}`);
  } else {
    assert.equal(unscaled.data.length, n, `chart-range: one unscaled dot per pair ${where}`);
    want.pairs.forEach((p, i) =>
      assert.ok(
        close(unscaled.data[i], gap * p.inv_freq),
        `chart-range pair ${i} unscaled angle ${unscaled.data[i]} vs gap x theta ${gap * p.inv_freq} ${where}`,
      ),
    );
  }

  const [main, ...others] = got.scaling.datasets;
  assert.equal(main.label, want.rope_type, `chart-scaling names the method ${where}`);
  want.pairs.forEach((p, i) =>
    assert.ok(close(main.data[i], p.ratio), `chart-scaling pair ${i} ratio ${main.data[i]} vs ${p.ratio} ${where}`),
  );
  assert.deepEqual(
    others.map((ds) => ds.label),
    compare.map((c) => c.rope_type),
    `chart-scaling comparison lines ${where}`,
  );
  others.forEach((ds, k) =>
    compare[k].pairs.forEach((p, i) => {
      assert.ok(
        close(ds.data[i], p.ratio),
        `chart-scaling ${ds.label} pair ${i} ratio ${ds.data[i]} vs ${p.ratio} ${where}`,
      );
    }),
  );
  assertFiniteLong(got);
}

async function checkLongCaptions(page, want, where) {
  const range = await text(page, '#caption-range');
  for (const key of ['covered', 'inside', 'unseen'])
    assertShows(range, want.range[key], `#caption-range shows ${key} ${where}`);
  const scaling = await text(page, '#caption-scaling');
  if (want.bands.ratio === 0 && want.rope_type !== 'default') {
    for (const key of ['keep', 'ramp', 'divide'])
      assertShows(scaling, want.bands[key], `#caption-scaling shows ${key} ${where}`);
  }
  assertShows(scaling, want.attention_factor, `#caption-scaling shows the attention factor ${where}`);
}

// ---- tests ----

test('each_preset_should_load_and_its_figures_should_match_the_reference', async () => {
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  // The part's code and the config reader come after the first paint: its menus once they are here.
  await page.waitForFunction(() => performance.getEntriesByName('ropescope:long-ready').length > 0);
  const names = await page.evaluate(() => [...document.querySelectorAll('#preset option')].map((o) => o.value));
  assert.deepEqual(names, ['blog', ...Object.keys(MODELS).sort()], '#preset lists the blog and every model file');
  // Every preset's reference figures from two Python processes: the preset's own config, then
  // the methods it is compared with (which depend on the first's reading of the config).
  const configOf = (name) =>
    name === 'blog'
      ? { ...BLOG.config, rope_scaling: { rope_type: 'base_change', new_rope_theta: 500000 } }
      : JSON.parse(MODELS[name]);
  const wants = reference(
    names.map((name) => {
      const { train, gap } = presetRange(name);
      return { config: configOf(name), train_len: train, gap, seq_len: gap };
    }),
  );
  const compareCalls = names.map((name, k) => {
    const want = wants[k];
    const { train, gap } = presetRange(name);
    const factor = want.factor ?? 8;
    const plain = {
      head_dim: want.rotary_dim,
      rope_theta: want.base,
      max_position_embeddings: configOf(name).max_position_embeddings,
    };
    return ['linear', 'ntk']
      .filter((m) => m !== want.rope_type)
      .map((m) => ({
        config: { ...plain, rope_scaling: { rope_type: m, factor } },
        train_len: train,
        gap,
      }));
  });
  const compares = reference(compareCalls.flat());
  for (const [k, name] of names.entries()) {
    await page.goto(`${env.server.url}?preset=${name}`);
    await waitLong(page);
    const state = await pageQuery(page);
    const { train, gap } = presetRange(name);
    assert.equal(Number(state['train-len']), train, `${name}: training length`);
    assert.equal(Number(state['target-gap']), gap, `${name}: gap`);
    const want = wants[k];
    assert.equal(state.method, want.rope_type, `${name}: the method is the config's`);
    const from = compareCalls.slice(0, k).flat().length;
    const compare = compares.slice(from, from + compareCalls[k].length);
    checkLongCharts(await longCharts(page), want, compare, `(preset ${name})`, gap);
    await checkLongCaptions(page, want, `(preset ${name})`);
    // The checker holds the preset's config, read by the same reader.
    assert.equal(
      await page.inputValue('#config'),
      name === 'blog' ? `${JSON.stringify(BLOG.config, null, 2)}\n` : MODELS[name],
    );
    assert.equal(await page.isDisabled('#download-inv-freq-json'), false, `${name}: downloads on`);
    assert.match(
      await text(page, '#config-fields'),
      new RegExp(`rope_type\\s+${name === 'blog' ? 'default' : want.rope_type}`),
    );
    await p.assertClean(`preset ${name}`);
  }
  await p.close();
});

// The config the page builds from its settings (web/README.md, long-context settings).
const PARAM_KEYS = {
  factor: 'factor',
  'orig-max': 'original_max_position_embeddings',
  'low-freq': 'low_freq_factor',
  'high-freq': 'high_freq_factor',
  'beta-fast': 'beta_fast',
  'beta-slow': 'beta_slow',
  truncate: 'truncate',
};

test('random_methods_and_lengths_from_the_url_should_match_the_reference', async () => {
  const next = rng(seed('long.test random settings'));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  const rounds = [];
  for (let round = 0; round < 4; round++) {
    const name = pick([
      'llama-2-7b',
      'llama-3.2-1b',
      'qwen2.5-7b-instruct-yarn',
      'gpt-oss-20b',
      'mistral-7b-instruct-v0.2',
    ]);
    const method = pick(['linear', 'ntk', 'dynamic', 'yarn', 'llama3']);
    const settings = {
      preset: name,
      method,
      'train-len': String(Math.round(10 ** (2 + next() * 4))),
      'target-gap': String(Math.round(10 ** (2 + next() * 5))),
      factor: String(Number((1 + next() * 39).toFixed(2))),
      compare: '',
    };
    if (method === 'yarn' || method === 'llama3') settings['orig-max'] = String(pick([2048, 4096, 8192]));
    if (method === 'yarn')
      Object.assign(settings, {
        'beta-fast': String(pick([16, 32, 48])),
        'beta-slow': String(pick([1, 2])),
        truncate: pick(['true', 'false']),
      });
    if (method === 'llama3')
      Object.assign(settings, { 'low-freq': String(pick([1, 2])), 'high-freq': String(pick([4, 8])) });
    rounds.push(settings);
  }
  // Every round's reference figures from two Python processes: the model's own reading, then the
  // config built from it and the settings.
  const plains = reference(rounds.map((settings) => ({ config: JSON.parse(MODELS[settings.preset]) })));
  const wants = reference(
    rounds.map((settings, k) => {
      const { preset: name, method } = settings;
      const config = {
        head_dim: plains[k].rotary_dim,
        rope_theta: plains[k].base,
        max_position_embeddings: JSON.parse(MODELS[name]).max_position_embeddings,
        rope_scaling: { rope_type: method },
      };
      for (const [param, key] of Object.entries(PARAM_KEYS)) {
        if (settings[param] !== undefined)
          config.rope_scaling[key] = param === 'truncate' ? settings[param] === 'true' : Number(settings[param]);
      }
      const gap = Number(settings['target-gap']);
      return { config, train_len: Number(settings['train-len']), gap, seq_len: method === 'dynamic' ? gap : 0 };
    }),
  );
  for (const [k, settings] of rounds.entries()) {
    const where = `(${new URLSearchParams(settings)})`;
    await page.goto(`${env.server.url}?${new URLSearchParams(settings)}`);
    await waitLong(page);
    const gap = Number(settings['target-gap']);
    const want = wants[k];
    checkLongCharts(await longCharts(page), want, [], where, gap);
    await checkLongCaptions(page, want, where);
  }
  await p.assertClean('random settings');
  await p.close();
});

test('the_blog_preset_captions_should_state_the_blog_numbers', async () => {
  const p = await openPage(env.browser, `${env.server.url}?preset=blog`);
  const { page } = p;
  await waitLong(page);
  const caption = await text(page, '#caption-range');
  // The numbers, as the blog writes them.
  for (const shown of [
    '46.9°',
    '286.5°',
    '35.8°',
    '6.0°',
    '48.7°',
    'pair 255',
    'θ = 0.0001 ',
    '8192 positions',
    'gap 50000',
  ]) {
    assert.ok(caption.includes(shown), `#caption-range says ${shown}: "${caption}"`);
  }
  assert.match(caption, /from 297(\.0)?° to 6\.0° when base 10000 becomes 500000, against a trained range of 48\.7°/);
  assert.match(caption, /divided by 8 that is 35\.8°/);
  await p.close();
});

async function download(page, button) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  return { name: file.suggestedFilename(), text: readFileSync(await downloadedFile(file), 'utf8') };
}

async function paste(page, textValue) {
  await page.fill('#config', textValue);
  // The box checks 150 ms after the last keystroke.
  await page.waitForTimeout(250);
  await settle(page);
}

// A random config of a random method, from the run's seed.
function randomConfig(next) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  const heads = pick([32, 64, 80, 96, 128, 256]);
  const base = pick([10000, 500000, 1e6, 150000]) * (0.5 + next());
  const l0 = pick([2048, 4096, 8192, 32768]);
  const factor = Number((1 + next() * 31).toFixed(3));
  const type = pick(['linear', 'dynamic', 'yarn', 'llama3', 'default']);
  const block = { rope_type: type, factor };
  if (type === 'yarn')
    Object.assign(block, {
      original_max_position_embeddings: l0,
      beta_fast: 16 + Math.round(next() * 32),
      beta_slow: 1,
      truncate: next() < 0.5,
    });
  if (type === 'llama3')
    Object.assign(block, { original_max_position_embeddings: l0, low_freq_factor: 1, high_freq_factor: 4 });
  return {
    hidden_size: heads * 32,
    num_attention_heads: 32,
    max_position_embeddings: Math.round(l0 * factor),
    rope_theta: base,
    rope_scaling: type === 'default' ? null : block,
  };
}

test('a_pasted_config_should_download_the_cli_inv_freq_byte_for_byte', async () => {
  const next = rng(seed('long.test pasted configs'));
  const dir = mkdtempSync(join(tmpdir(), 'rope-long-'));
  const { p, page } = await openReady(env, '', LONG_READY);
  const configs = [
    ['llama-3.1-8b (the preset)', null],
    ['deepseek-v3 (pasted)', MODELS['deepseek-v3']],
    [
      'gemma-4-e2b-it (pasted: proportional)',
      readFileSync(join(ROOT, 'tests/data/configs/gemma-4-e2b-it.json'), 'utf8'),
    ],
    ...Array.from({ length: 3 }, (_, k) => [`random ${k}`, `${JSON.stringify(randomConfig(next), null, 1)}\n`]),
  ];
  for (const [what, body] of configs) {
    if (body !== null) await paste(page, body);
    const file = join(dir, 'config.json');
    writeFileSync(file, body ?? MODELS['llama-3.1-8b']);
    assert.equal((await text(page, '#config-msg')).trim(), '', `${what}: no message`);
    const json = await download(page, '#download-inv-freq-json');
    const csv = await download(page, '#download-inv-freq-csv');
    assert.equal(json.name, 'inv_freq.json');
    assert.equal(csv.name, 'inv_freq.csv');
    assert.equal(json.text, cli(['--config', file, '--format', 'json']), `${what}: inv_freq.json is the CLI's JSON`);
    assert.equal(csv.text, cli(['--config', file, '--format', 'csv']), `${what}: inv_freq.csv is the CLI's CSV`);
    // A still pair (proportional's frequency 0) reads ∞ and — where the JSON has null.
    const pairs = JSON.parse(json.text).pairs;
    const rows = await page
      .locator('#config-pairs tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
    assert.equal(rows.length, pairs.length, `${what}: a row per pair`);
    pairs.forEach((pair, i) => {
      const [, wavelength, , , ratio, band] = rows[i];
      assert.equal(band, pair.band, `${what}: pair ${i}'s band`);
      if (pair.wavelength === null) assert.deepEqual([wavelength, ratio], ['∞', '—'], `${what}: still pair ${i}`);
      else assert.ok(Number.isFinite(Number(wavelength)), `${what}: pair ${i}'s wavelength ${wavelength}`);
    });
    // Every warning of the CLI is listed in words.
    for (const warning of JSON.parse(json.text).warnings) {
      assert.ok(
        (await text(page, '#config-warnings')).includes(warning),
        `${what}: #config-warnings lists "${warning}"`,
      );
    }
  }
  // A pasted config never goes into the URL.
  const query = new URL(page.url()).search + (await page.evaluate(() => window.ropescope.query()));
  for (const word of ['rope_scaling', 'hidden_size', 'config', 'deepseek'])
    assert.equal(query.includes(word), false, `the URL holds no ${word}`);
  await p.close();
});

// A dropped file goes to the reader as bytes: the panel's verdict on files of the hostile corpus
// (tests/data/hostile) is the CLI's, word for word, invalid UTF-8 and a byte order mark included.
test('dropped_hostile_files_should_get_the_cli_verdict_word_for_word', async () => {
  const { p, page } = await openReady(env, '', LONG_READY);
  const corpus = join(ROOT, 'tests/data/hostile');
  for (const name of [
    'bad-invalid-utf8-key.json',
    'bad-duplicate-nested-key.json',
    'bad-trailing-garbage.json',
    'bad-nul-as-space.json',
    'bad-lone-high-surrogate.json',
    'bad-nested-1001.json',
    'bad-over-the-limit.json',
    'bad-theta-one.json',
    'ok-bom.json',
    'ok-llama.json',
  ]) {
    const file = join(corpus, name);
    const cli = spawnSync(join(ROOT, 'build/ropescope'), ['scaling', '--config', file], { encoding: 'utf8' });
    await page.evaluate(() => {
      document.getElementById('config-msg').textContent = '';
      document.getElementById('config-result').hidden = true;
    });
    await page.setInputFiles('#config-file', file);
    await page.waitForFunction(
      () =>
        document.getElementById('config-msg').textContent !== '' || !document.getElementById('config-result').hidden,
    );
    const message = (await text(page, '#config-msg')).trim();
    if (name.startsWith('ok-')) {
      assert.equal(cli.status, 0, `${name}: the CLI reads it`);
      assert.equal(message, '', `${name}: the panel reads it`);
      assert.equal(await page.isHidden('#config-result'), false, `${name}: its table is shown`);
    } else {
      assert.equal(cli.status, 2, `${name}: the CLI refuses it`);
      assert.match(message, /^Refused: .*\.$/, `${name}: the panel refuses it`);
      const words = message.slice('Refused: '.length, -1);
      assert.ok(cli.stderr.trim().endsWith(`: ${words}`), `${name}: "${cli.stderr.trim()}" ends in "${words}"`);
    }
  }
  await p.close();
});

test('bad_pasted_text_should_be_named_and_the_page_should_keep_working', async () => {
  const { p, page } = await openReady(env, '', LONG_READY);
  const before = await longCharts(page);
  const llama = JSON.parse(MODELS['llama-3.1-8b']);
  const without = (key) => {
    const block = { ...llama.rope_scaling };
    delete block[key];
    return JSON.stringify({ ...llama, rope_scaling: block });
  };
  const BAD = [
    ['not JSON', '{"rope_theta": 10000,', /not JSON/],
    ['NaN as text', '{"hidden_size": 64, "num_attention_heads": 1, "rope_theta": NaN}', /not JSON/],
    ['empty', '', /empty/],
    ['blank', '   \n', /empty/],
    ['an array', '[1, 2, 3]', /a JSON list/],
    ['a string', '"config"', /not a JSON object: '\{' expected/],
    ['llama3 without low_freq_factor', without('low_freq_factor'), /low_freq_factor/],
    [
      'an unknown rope_type',
      JSON.stringify({ ...llama, rope_scaling: { rope_type: 'ntk-by-parts', factor: 2 } }),
      /rope_type/,
    ],
    [
      'factor as a string',
      JSON.stringify({ ...llama, rope_scaling: { ...llama.rope_scaling, factor: 'eight' } }),
      /factor/,
    ],
    ['a negative rope_theta', JSON.stringify({ ...llama, rope_theta: -5 }), /rope_theta/],
    ['markup', '<img src=x onerror=alert(1)>', /not a JSON object/],
  ];
  for (const [what, body, pattern] of BAD) {
    await paste(page, body);
    const message = (await text(page, '#config-msg')).trim();
    assert.match(message, pattern, `${what}: #config-msg names the problem: "${message}"`);
    assert.equal(await page.getAttribute('#config', 'aria-invalid'), 'true', `${what}: aria-invalid`);
    assert.equal(await page.isDisabled('#download-inv-freq-json'), true, `${what}: no download of a bad config`);
    assert.equal(await page.isDisabled('#download-inv-freq-csv'), true);
    assert.equal(await page.isHidden('#config-result'), true, `${what}: no stale table`);
    assert.equal(
      await page.evaluate(() => document.querySelectorAll('#config-msg *, #check img').length),
      0,
      `${what}: plain text`,
    );
    assert.deepEqual(await longCharts(page), before, `${what}: the figures do not change`);
  }
  // A warning is not an error: factor below 1 is read, and said.
  await paste(page, JSON.stringify({ ...llama, rope_scaling: { ...llama.rope_scaling, factor: 0.5 } }));
  assert.equal((await text(page, '#config-msg')).trim(), '');
  assert.match(await text(page, '#config-warnings'), /factor 0\.5 is below 1/);
  // The rest of the page still works: a new gap redraws the figures, with finite numbers.
  await afterUpdate(page, () => typeInto(page, '#target-gap-num', '40000'));
  const after = await longCharts(page);
  assertFiniteLong(after);
  assert.notDeepEqual(after.range, before.range, 'the gap still moves the range figure');
  await p.close();
});

test('the_url_should_round_trip_the_long_context_controls', async () => {
  const query =
    '?preset=qwen2.5-7b-instruct-yarn&train-len=20000&target-gap=300000&method=yarn&factor=6' +
    '&orig-max=16384&beta-fast=24&beta-slow=2&truncate=false&mscale=0.5&compare=linear,llama3';
  const p = await openPage(env.browser, env.server.url + query);
  const { page } = p;
  await waitLong(page);
  const written = await pageQuery(page);
  for (const [key, value] of new URLSearchParams(query))
    assert.equal(written[key], value, `the URL keeps ${key}=${value}`);
  assert.equal(written['mscale-all-dim'], '0', 'an unset mscale_all_dim is written as 0');
  assert.equal(await page.inputValue('#factor-num'), '6');
  assert.equal(await page.inputValue('#truncate'), 'false');
  assert.equal(await page.isVisible('#beta-fast-num'), true, 'yarn shows beta_fast');
  assert.equal(await page.isVisible('#low-freq-num'), false, 'yarn hides low_freq_factor');
  const config = {
    head_dim: 128,
    rope_theta: 1e6,
    max_position_embeddings: 32768,
    rope_scaling: {
      rope_type: 'yarn',
      factor: 6,
      original_max_position_embeddings: 16384,
      beta_fast: 24,
      beta_slow: 2,
      truncate: false,
      mscale: 0.5,
    },
  };
  const plain = { head_dim: 128, rope_theta: 1e6, max_position_embeddings: 32768 };
  const [want, linear, llama3] = reference([
    { config, train_len: 20000, gap: 300000 },
    { config: { ...plain, rope_scaling: { rope_type: 'linear', factor: 6 } }, train_len: 20000, gap: 300000 },
    // Comparisons: the same factor, the preset's own values for the rest (Qwen's L0 32768; Meta's 1 and 4).
    {
      config: {
        ...plain,
        rope_scaling: {
          rope_type: 'llama3',
          factor: 6,
          original_max_position_embeddings: 32768,
          low_freq_factor: 1,
          high_freq_factor: 4,
        },
      },
      train_len: 20000,
      gap: 300000,
    },
  ]);
  const charts = await longCharts(page);
  checkLongCharts(charts, want, [linear, llama3], '(from the URL)', 300000);
  await checkLongCaptions(page, want, '(from the URL)');

  // Changed through the controls, then reloaded from the URL the page wrote: the same figures.
  await afterUpdate(page, () => page.selectOption('#method', 'llama3'));
  assert.equal(await page.isVisible('#beta-fast-num'), false, 'llama3 hides beta_fast');
  await afterUpdate(page, () => typeInto(page, '#high-freq-num', '8'));
  await afterUpdate(page, () => page.fill('#train-len', '4'));
  await afterUpdate(page, () => page.check('input[name="compare"][value="yarn"]'));
  const url = await pageUrl(page);
  const state = longState(url);
  assert.equal(state.method, 'llama3');
  assert.equal(state['high-freq'], '8');
  assert.equal(state['train-len'], '10000', 'the log slider at 4 is 10^4');
  assert.equal(
    state.compare,
    'linear,yarn,llama3',
    'the comparisons are kept (llama3, the method now, is not drawn twice)',
  );
  assert.equal(state['beta-fast'], undefined, 'parameters of other methods are left out');
  const shown = await longCharts(page);
  const fresh = await openPage(env.browser, url);
  await waitLong(fresh.page);
  assert.deepEqual(await longCharts(fresh.page), shown, 'a fresh page from the URL draws the same figures');
  assert.deepEqual(await pageQuery(fresh.page), state, 'and writes the same URL');
  await fresh.close();

  // A preset by name resets the rest to its own values.
  await afterUpdate(page, () => page.selectOption('#preset', 'llama-3.2-1b'));
  const reset = longState(await pageUrl(page));
  assert.equal(reset.preset, 'llama-3.2-1b');
  assert.equal(reset.method, 'llama3');
  assert.equal(reset.factor, '32');
  assert.equal(reset['train-len'], '8192');
  assert.equal(await page.inputValue('#config'), MODELS['llama-3.2-1b'], 'the checker holds the new preset');
  await p.close();
});

test('bad_long_values_in_the_url_and_boxes_should_be_named', async () => {
  const p = await openPage(
    env.browser,
    `${env.server.url}?preset=nope&factor=-3&method=longrope&compare=linear,linear`,
  );
  const { page } = p;
  await waitLong(page);
  const notice = await text(page, '#notice');
  for (const part of ['preset', "'nope'", 'factor', "'-3'", 'compare'])
    assert.ok(notice.includes(part), `#notice names ${part}: "${notice}"`);
  // longrope without lists on the default preset: refused, the preset's values are used.
  assert.match(notice, /longrope/);
  const state = await pageQuery(page);
  assert.equal(state.preset, undefined, 'the default preset is not written');
  assert.equal(state.method, 'llama3');
  assert.equal(
    await page.isDisabled('#method option[value="longrope"]'),
    true,
    'LongRoPE needs a preset with factor lists',
  );
  const good = await longCharts(page);
  // Each message names the setting by its label, the words beside its box.
  for (const [box, value, name, label] of [
    ['#factor-num', 'abc', 'factor', 'factor'],
    ['#train-len-num', '0', 'train-len', 'training length'],
    ['#target-gap-num', '1e99', 'target-gap', 'gap at inference'],
    ['#orig-max-num', '1.5', 'orig-max', 'original length'],
  ]) {
    await typeInto(page, box, value);
    await settle(page);
    const message = await text(page, `#${name}-msg`);
    assert.match(
      message,
      new RegExp(`^${label} must be`),
      `${box} = ${value}: #${name}-msg names ${label}: "${message}"`,
    );
    assert.deepEqual(await longCharts(page), good, `${box} = ${value}: the figures keep their last good state`);
  }
  await p.close();
});

test('the_main_gap_slider_should_be_logarithmic_from_1_to_1e6_with_0_by_preset', async () => {
  const { p, page } = await openReady(env, '', LONG_READY);
  assert.equal(await page.getAttribute('#gap', 'min'), '0');
  assert.equal(await page.getAttribute('#gap', 'max'), '6');
  await afterUpdate(page, () => page.fill('#gap', '6'));
  assert.equal(new URL(await pageUrl(page)).searchParams.get('gap'), '1000000');
  assert.equal(
    await page.getAttribute('#gap', 'aria-valuetext'),
    'gap 1000000',
    'screen readers hear the gap, not its log',
  );
  assert.equal(await page.getAttribute('#target-gap', 'aria-valuetext'), '131072 positions');
  const angles = await chartData(page, 'angles');
  assert.ok(close(angles.datasets[0].data[0], 1e6), 'pair 0 turns by 1e6 rad');
  await afterUpdate(page, () => page.fill('#gap', '5.117'));
  assert.equal(
    new URL(await pageUrl(page)).searchParams.get('gap'),
    String(Math.round(10 ** 5.117)),
    'Llama 3’s 128K range',
  );
  await afterUpdate(page, () => page.click('[data-gap="0"]'));
  assert.equal(new URL(await pageUrl(page)).searchParams.get('gap'), '0');
  assert.equal(await page.inputValue('#gap'), '0', 'gap 0 puts the thumb at the left end');
  await afterUpdate(page, () => typeInto(page, '#gap-num', '0.25'));
  assert.equal(new URL(await pageUrl(page)).searchParams.get('gap'), '0.25');
  // Past position 4096 the captions already warn; the slider's far end is still computed.
  await afterUpdate(page, () => page.fill('#gap', '6'));
  assert.match(await text(page, '#caption-flatness'), /4096/);
  await p.close();
});

test('the_long_figures_should_be_embed_views', async () => {
  for (const view of LONG) {
    const p = await openPage(env.browser, `${env.server.url}?embed=1&view=${view}&preset=blog`);
    const { page } = p;
    await waitReady(page, [view]);
    assert.equal(await page.isVisible(`#chart-${view}`), true, `${view}: the figure is shown`);
    assert.equal(await page.isVisible('#check'), false, `${view}: the checker is hidden in an embed`);
    assert.equal(await page.isVisible('#preset'), false, `${view}: the settings are hidden in an embed`);
    await p.close();
  }
  const p = await openPage(env.browser, env.server.url);
  const options = await p.page.evaluate(() => [...document.querySelectorAll('#embed-view option')].map((o) => o.value));
  for (const view of LONG) assert.ok(options.includes(view), `#embed-view offers ${view}`);
  await p.close();
});

test('the_long_context_part_should_work_in_the_single_file_from_file_urls', async () => {
  const { pathToFileURL } = await import('node:url');
  const url = `${pathToFileURL(join(ROOT, 'dist/ropescope.html')).href}?preset=blog`;
  const p = await openPage(env.browser, url);
  const { page } = p;
  await waitLong(page);
  assert.match(await text(page, '#caption-range'), /46\.9°.*286\.5°.*35\.8°/s, 'the blog numbers from file://');
  assert.equal(
    await page.inputValue('#config'),
    `${JSON.stringify(BLOG.config, null, 2)}\n`,
    'the preset configs are inside the file',
  );
  await paste(page, MODELS['gpt-oss-20b']);
  assert.equal((await text(page, '#config-msg')).trim(), '');
  assert.match(await text(page, '#config-fields'), /truncate\s+false/);
  await afterUpdate(page, () => page.selectOption('#preset', 'deepseek-v3'));
  assert.match(await text(page, '#caption-scaling'), /keeps 11 pairs of 32 \(θ′ = θ\), ramps 12 and divides 9 by 40/);
  await p.close();
});

test('each_method_should_show_only_its_own_parameters', async () => {
  // web/README.md, long-context settings: the boxes each method shows.
  const SHOWN = {
    default: [],
    base_change: ['new-base'],
    linear: ['factor'],
    ntk: ['factor'],
    dynamic: ['factor'],
    yarn: ['factor', 'orig-max', 'beta-fast', 'beta-slow', 'truncate', 'mscale', 'mscale-all-dim'],
    longrope: ['orig-max'],
    llama3: ['factor', 'orig-max', 'low-freq', 'high-freq'],
  };
  const p = await openPage(env.browser, `${env.server.url}?preset=phi-3.5-mini-instruct`);
  const { page } = p;
  await waitLong(page);
  for (const [method, params] of Object.entries(SHOWN)) {
    if ((await page.inputValue('#method')) !== method)
      await afterUpdate(page, () => page.selectOption('#method', method));
    const visible = await page.evaluate(() =>
      [...document.querySelectorAll('[data-param]')].filter((node) => !node.hidden).map((node) => node.dataset.param),
    );
    assert.deepEqual(visible, params, `${method} shows ${params.join(', ') || 'no parameter'}`);
    const written = await pageQuery(page);
    for (const param of Object.values(SHOWN).flat()) {
      if (param === 'factor') continue; // also written for the comparison lines
      assert.equal(
        written[param] !== undefined,
        params.includes(param),
        `${method}: ${param} in the URL only when shown`,
      );
    }
    assertFiniteLong(await longCharts(page));
  }
  await p.close();
});

// The long-context boxes behave as the page's (controls/wire.js): typing is not applying.
test('typing_in_a_long_context_box_should_apply_only_on_enter', async () => {
  const p = await openPage(env.browser, `${env.server.url}?method=linear&factor=4`);
  const { page } = p;
  await waitLong(page);
  await page.locator('#factor-num').fill('');
  await page.locator('#factor-num').pressSequentially('2');
  await settle(page);
  assert.equal((await pageQuery(page)).factor, '4', 'a keystroke applies nothing');
  assert.match(await page.locator('#factor-pending').innerText(), /^Not applied yet/);
  await page.locator('#factor-num').pressSequentially('0');
  await page.locator('#factor-num').press('Enter');
  await settle(page);
  assert.equal((await pageQuery(page)).factor, '20', 'Enter applies 20');
  assert.equal(await page.locator('#factor-pending').innerText(), '');
  await p.close();
});
