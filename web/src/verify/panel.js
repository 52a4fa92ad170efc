// The "check your implementation" panel (web/ropescope-verify.js, which the page loads at the
// panel's first use: web/src/page/verify_loader.js): a config.json and a dumped inv_freq, cos and
// sin, or one file of both (a cache, freqs_cis, cos_sin_cache, embed_positions), by picker or
// drop, checked by the CLI's own C code (module.js), shown as the CLI's verdict, its numbers and
// diagnoses, and each pair's worst error over its tolerance.
import { colors, logAxis, pairAxis, refreshColors } from '../charts/theme.js';
import { el } from '../lib/dom.js';
import { num } from '../lib/format.js';
import { ROLES, verifyFiles } from './module.js';

const $ = (id) => document.getElementById(id);

// Each file input: its role (module.js), its label and the CLI flag it stands for.
const FILES = Object.freeze([
  ['config', 'config.json', '--config'],
  ['inv', 'inv_freq', '--inv-freq'],
  ['cos', 'cos', '--cos'],
  ['sin', 'sin', '--sin'],
  ['cache', 'cache (cos and sin, or freqs_cis)', '--cache'],
  ['cos_sin_cache', 'cos_sin_cache (vLLM: cos | sin)', '--cos-sin-cache'],
  ['embed_positions', 'embed_positions (GPT-J: sin | cos)', '--embed-positions'],
]);
const ACCEPT = '.npy,.npz,.safetensors,.json,.csv,.txt,.tsv';
// The chart's log axis: a pair within 1/1000 of its tolerance is drawn at 1/1000.
const FLOOR = 1e-3;
const WAIT_MS = 250;

let chart = null;
let runs = 0; // the latest check's number: an older one's result is dropped
let timer = 0;

function fileRow([role, label, flag]) {
  const id = `verify-${role}`;
  const input = el('input', { type: 'file', id, accept: role === 'config' ? '.json,application/json' : ACCEPT });
  const row = el('div', { class: 'buttons' }, el('label', { class: 'file', for: id }, `${label} (${flag})`), input);
  row.addEventListener('dragover', (event) => event.preventDefault());
  row.addEventListener('drop', (event) => {
    event.preventDefault();
    if (!event.dataTransfer?.files?.length) return;
    input.files = event.dataTransfer.files;
    check();
  });
  input.addEventListener('change', check);
  return row;
}

function textRow(id, label, placeholder) {
  const input = el('input', { type: 'text', id, placeholder, autocomplete: 'off', spellcheck: 'false' });
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(check, WAIT_MS);
  });
  return el('div', { class: 'buttons' }, el('label', { class: 'file', for: id }, label), input);
}

function build(section, opener) {
  const clear = el('button', { type: 'button', id: 'verify-clear' }, 'Clear');
  clear.addEventListener('click', () => {
    for (const input of section.querySelectorAll('input')) input.value = '';
    check();
  });
  const box = el('div', { class: 'table-box' });
  box.style.position = 'relative';
  box.style.height = '240px';
  box.append(el('canvas', { id: 'verify-chart', role: 'img', 'aria-label': 'no check yet' }));
  const result = el(
    'div',
    { id: 'verify-result', hidden: '' },
    el(
      'div',
      { class: 'check-grid' },
      el('div', {}, el('h3', {}, 'Result'), el('dl', { id: 'verify-fields', class: 'fields' })),
      el('div', {}, el('h3', {}, 'Diagnoses'), el('ul', { id: 'verify-diagnoses', class: 'notes' })),
    ),
    el('h3', {}, 'Every pair: worst |error| over its tolerance'),
    box,
    el(
      'details',
      {},
      el('summary', {}, 'JSON, as ropescope verify --format json prints it'),
      el('pre', { id: 'verify-json', class: 'table-box', tabindex: '0' }),
    ),
  );
  opener.replaceWith(
    el(
      'p',
      { class: 'hint' },
      'A config.json and what your code computed: its inv_freq, its cos and sin tables (a column per ',
      'dimension or per pair), or one file holding both: a cache of cos and sin, Meta’s freqs_cis, ',
      'vLLM’s cos_sin_cache or GPT-J’s embed_positions (.npy, .npz, safetensors, JSON or CSV text), ',
      'each by its picker or dropped on its row. The C code of ',
      el('code', {}, 'ropescope verify'),
      ' checks them at the dump’s own precision; nothing leaves the page.',
    ),
    el(
      'div',
      { class: 'check-grid' },
      el('div', {}, ...FILES.map(fileRow)),
      el(
        'div',
        {},
        textRow('verify-positions', 'positions FROM:COUNT (--positions)', 'cos/sin rows: 0:rows'),
        textRow('verify-seq', 'seq-len (--seq-len)', 'from the table'),
        textRow('verify-layer', 'layer type (--layer-type)', 'the main table'),
        el('div', { class: 'buttons' }, clear),
      ),
    ),
    el('p', { id: 'verify-verdict', role: 'status', 'aria-live': 'polite' }, 'Choose a config.json and a dump.'),
  );
  $('verify-verdict').style.fontWeight = '600';
  section.querySelector('.msg').id = 'verify-msg';
  section.append(result);
  $('verify-config').focus();
}

async function readAll() {
  const files = {};
  for (const role of ROLES) {
    const file = $(`verify-${role}`).files?.[0];
    if (file) files[role] = { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
  }
  return files;
}

async function check() {
  const run = ++runs;
  const say = (verdict, line) => {
    $('verify-verdict').textContent = verdict;
    $('verify-msg').textContent = line;
  };
  let files;
  try {
    files = await readAll();
  } catch (err) {
    if (run === runs) say('result: bad input', `Could not read a file: ${err.message}.`);
    return;
  }
  if (run !== runs) return;
  $('verify-result').hidden = true;
  if (!files.config || Object.keys(files).length < 2) {
    say('Choose a config.json and a dump.', '');
    return;
  }
  const options = {
    positions: $('verify-positions').value,
    seqLen: $('verify-seq').value,
    layerType: $('verify-layer').value,
  };
  let out;
  try {
    out = await verifyFiles(files, options);
  } catch (err) {
    if (run === runs) say('result: bad input', `The checker stopped: ${err.message}.`);
    return;
  }
  if (run !== runs) return;
  if (out.json === null) {
    say(`result: ${out.verdict} (exit ${out.code})`, out.line);
    return;
  }
  const r = JSON.parse(out.json);
  say(`result: ${r.verdict} (exit ${out.code})`, '');
  show(r, out);
}

function show(r, { json, pairs, warnings }) {
  const rows = [
    ['dump', `${r.form === 'table' || r.form === 'inv_freq' ? r.kind : r.form}, ${r.rows} × ${r.width}, ${r.dtype}`],
    ['positions', r.positions ? `${r.positions.from} to ${r.positions.from + r.positions.count - 1}` : '—'],
    ['layout found', r.layout_found],
    [
      'config',
      `${r.config.rope_type}, rotary dim ${r.config.rotary_dim}, rope_theta ${num(r.config.rope_theta)}, ` +
        `attention factor ${num(r.config.attention_factor)}, layout ${r.config.layout}`,
    ],
    ['tolerance', r.tolerance],
  ];
  if (r.max_abs_error === null) rows.push(['compared', `no: the dump holds ${r.width} values a row`]);
  else
    rows.push(
      ['max abs error', num(r.max_abs_error)],
      ['max rel error', num(r.max_rel_error)],
      ['worst pair', r.worst_position === null ? `${r.worst_pair}` : `${r.worst_pair} at position ${r.worst_position}`],
      ['worst / tolerance', num(r.worst_ratio)],
      ['over tolerance', `${r.values_over_tolerance} of ${r.values} values`],
    );
  // The attention score's error for unit q, k (docs/VERIFY.md, "Attention score"): tables only.
  if (r.score_error !== null && r.score_error !== undefined)
    rows.push([
      'attention score error',
      `${num(r.score_error)} for unit q, k, worst at gap ${r.score_gap} (key at position ${r.score_key_position}), pair ${r.score_pair}`,
    ]);
  for (const line of warnings) rows.push(['warning', line.replace(/^ropescope: warning: /, '')]);
  $('verify-fields').replaceChildren(...rows.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));
  const diagnoses = r.diagnoses.map((d) => el('li', {}, el('code', {}, d.code), `: ${d.message}`));
  $('verify-diagnoses').replaceChildren(...(diagnoses.length ? diagnoses : [el('li', {}, 'none: it matches')]));
  $('verify-json').textContent = json;
  $('verify-result').hidden = false;
  draw(pairs);
}

function draw(pairs) {
  const canvas = $('verify-chart');
  const c = colors(canvas);
  const over = pairs.filter((x) => !(x <= 1)).length;
  canvas.setAttribute(
    'aria-label',
    pairs.length
      ? `${pairs.length} pairs, ${over} over their tolerance; the worst at ${num(Math.max(...pairs))} times it`
      : 'not compared: the dump and the config differ in pairs',
  );
  chart?.destroy();
  chart = null;
  canvas.parentElement.hidden = !pairs.length;
  if (!pairs.length) return;
  // Drawn within [FLOOR, 1e12]: an exact pair (0) has no place on a log axis.
  const shown = pairs.map((x) => (Number.isFinite(x) ? Math.min(Math.max(x, FLOOR), 1e12) : 1e12));
  chart = new window.Chart(canvas, {
    data: {
      labels: pairs.map((_, i) => i),
      datasets: [
        {
          type: 'bar',
          label: 'worst |error| / tolerance',
          data: shown,
          backgroundColor: pairs.map((x) => (x <= 1 ? c.rope : c.add)),
        },
        {
          type: 'line',
          label: 'tolerance',
          data: pairs.map(() => 1),
          borderColor: c.ink,
          borderDash: [4, 4],
          borderWidth: 1,
          pointRadius: 0,
        },
      ],
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: { x: pairAxis(c, 'pair i'), y: logAxis(c, 'worst |error| / tolerance', { min: FLOOR }) },
      plugins: {
        tooltip: {
          callbacks: {
            label: (item) => `${item.dataset.label}: ${num(item.datasetIndex ? 1 : pairs[item.dataIndex])}`,
          },
        },
      },
    },
  });
}

function start() {
  const section = $('verify');
  const opener = $('verify-open');
  if (!section || !opener) return;
  build(section, opener);
  // Colours follow the scheme: the chart is drawn again when it changes.
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    refreshColors();
    if (!$('verify-result').hidden) check();
  });
  check();
}

start();
