// The "check a config" panel: a pasted config.json's text, or a dropped file's bytes, handed
// whole to the C config reader (files.scaling_from_config), which parses it strictly as the CLI
// does: the same verdict in the same words. Shown: the resolved fields, every warning and error,
// the per-pair table, and inv_freq downloads byte for byte what
// `ropescope scaling --config FILE --format json|csv` prints. Nothing here goes into the URL.
// The reader is the files module (core/files.js): long.js loads this file, and makes the
// reader, before it starts the panel.

import * as C from '../../gen/rope_consts.js';
import * as files from '../core/files.js';

// Six significant digits, as the CLI's table prints them; fields to ten. A still pair
// (proportional's frequency 0) has no wavelength (∞) and no ratio (—): JSON null.
const digits = (x, n) => String(Number(x.toPrecision(n)));
const cellDigits = (x, none) => (x === null ? none : digits(x, 6));

import { saveText } from '../lib/save.js';

const $ = (id) => document.getElementById(id);
// A file is read no further than one byte past the reader's limit, which it then refuses.
const MAX_BYTES = C.ROPE_CONFIG_MAX_BYTES;
const WAIT_MS = 150;

let checked = null; // the last config the reader accepted
let timer = null;

const el = (tag, text, props = {}) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [key, value] of Object.entries(props)) node.setAttribute(key, value);
  return node;
};

function showValue(value) {
  if (value === null) return 'none';
  if (typeof value === 'number') return digits(value, 10);
  if (Array.isArray(value)) return value.map(showValue).join(' to ');
  return String(value);
}

function setProblem(message) {
  $('config-msg').textContent = message;
  $('config').setAttribute('aria-invalid', message ? 'true' : 'false');
}

function clearResult() {
  checked = null;
  $('config-fields').replaceChildren();
  $('config-warnings').replaceChildren();
  $('config-pairs').querySelector('tbody').replaceChildren();
  $('config-result').hidden = true;
  $('download-inv-freq-json').disabled = true;
  $('download-inv-freq-csv').disabled = true;
}

function showResult(config, result) {
  checked = config;
  const fields = [
    ['rope_type', result.rope_type],
    ['rotary dim', result.rotary_dim],
    ['base (rope_theta)', result.base],
    ['factor', result.factor],
    ['attention_factor', result.attention_factor],
    ['softmax multiplier', result.softmax_multiplier],
    ...Object.entries(result.resolved),
    [
      'bands',
      Object.entries(result.bands)
        .filter(([, n]) => n > 0)
        .map(([band, n]) => `${n} ${band}`)
        .join(', '),
    ],
  ];
  $('config-fields').replaceChildren(
    ...fields.flatMap(([name, value]) => [el('dt', name), el('dd', showValue(value))]),
  );
  const warnings = result.warnings.length ? result.warnings : ['No warnings: every key is as transformers expects.'];
  $('config-warnings').replaceChildren(...warnings.map((line) => el('li', line)));
  $('config-warnings').classList.toggle('none', result.warnings.length === 0);
  $('config-pairs')
    .querySelector('tbody')
    .replaceChildren(
      ...result.pairs.map((p) => {
        const tr = el('tr');
        tr.append(
          el('td', String(p.i)),
          el('td', cellDigits(p.wavelength, '∞')),
          el('td', digits(p.inv_freq, 6)),
          el('td', digits(p.inv_freq_scaled, 6)),
          el('td', cellDigits(p.ratio, '—')),
          el('td', p.band),
        );
        return tr;
      }),
    );
  $('config-result').hidden = false;
  $('download-inv-freq-json').disabled = false;
  $('download-inv-freq-csv').disabled = false;
}

/** Checks a config now (its text, or a file's bytes): the reader's refusal is named in
 *  #config-msg, a good config fills the panel. */
export function check(config) {
  clearResult();
  let result;
  try {
    result = files.scaling_from_config(config);
  } catch (err) {
    setProblem(`Refused: ${err.message}.`);
    return;
  }
  setProblem('');
  showResult(config, result);
}

/** Puts text into the box and checks it (a preset loads its config this way). */
export function renderCheck(text) {
  $('config').value = text;
  check(text);
}

function download(kind) {
  if (!checked) return;
  try {
    if (kind === 'json') saveText('inv_freq.json', files.scaling_json_text(checked), 'application/json');
    else saveText('inv_freq.csv', files.scaling_csv(checked), 'text/csv');
  } catch (err) {
    setProblem(`Could not write the file: ${err.message}.`);
  }
}

// The file's bytes go to the reader as they are (invalid UTF-8 is refused, not replaced);
// the box shows them decoded.
async function readFile(file) {
  if (!file) return;
  clearTimeout(timer); // a check of text typed before must not overwrite the file's
  const bytes = new Uint8Array(await file.slice(0, MAX_BYTES + 1).arrayBuffer());
  $('config').value = bytes.length > MAX_BYTES ? '' : new TextDecoder().decode(bytes);
  check(bytes);
}

/** Wires the box, the file input and the download buttons (once, at start). */
export function startCheck() {
  const box = $('config');
  box.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => check(box.value), WAIT_MS);
  });
  box.addEventListener('dragover', (event) => event.preventDefault());
  box.addEventListener('drop', (event) => {
    event.preventDefault();
    readFile(event.dataTransfer?.files?.[0]).catch((err) => setProblem(`Could not read the file: ${err.message}.`));
  });
  $('config-file').addEventListener('change', (event) => {
    readFile(event.target.files?.[0]).catch((err) => setProblem(`Could not read the file: ${err.message}.`));
  });
  $('download-inv-freq-json').addEventListener('click', () => download('json'));
  $('download-inv-freq-csv').addEventListener('click', () => download('csv'));
}
