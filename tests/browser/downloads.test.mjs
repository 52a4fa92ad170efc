// The report downloads: byte-for-byte what `build/ropescope report` writes for
// the dim, base and gap on screen, and accepted by tests/diff/check_report.py.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PYTHON } from '../lib/testlib.mjs';
import {
  afterUpdate,
  cliReport,
  downloadedFile,
  openPage,
  pageUrl,
  ROOT,
  stateFromUrl,
  typeEach,
  useServerAndBrowser,
  waitReady,
} from './harness.mjs';

const env = useServerAndBrowser();

async function download(page, button, filename) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  assert.equal(file.suggestedFilename(), filename, `${button} saves ${filename}`);
  const path = await downloadedFile(file);
  return { path, text: readFileSync(path, 'utf8') };
}

function checkReport(jsonPath, mdPath, flags) {
  const run = spawnSync(
    PYTHON,
    [join(ROOT, 'tests/diff/check_report.py'), '--json', jsonPath, '--md', mdPath, ...flags],
    { encoding: 'utf8' },
  );
  assert.equal(run.status, 0, `tests/diff/check_report.py ${flags.join(' ')}:\n${run.stdout}${run.stderr}`);
}

async function expectCliBytes(page, flags) {
  const cli = cliReport(flags);
  const json = await download(page, '#download-json', 'rope_report.json');
  const md = await download(page, '#download-md', 'rope_report.md');
  assert.equal(json.text, cli.json, `rope_report.json equals ropescope report ${flags.join(' ')}`);
  assert.equal(md.text, cli.md, `rope_report.md equals ropescope report ${flags.join(' ')}`);
  checkReport(json.path, md.path, flags);
}

const flagsOf = (state) => ['--dim', String(state.dim), '--base', String(state.base), '--gap', String(state.gap)];

test('default_downloads_should_equal_the_default_cli_report', async () => {
  const p = await openPage(env.browser, env.server.url);
  await waitReady(p.page);
  await expectCliBytes(p.page, []);
  await p.close();
});

test('downloads_should_follow_the_settings_typed_in_the_boxes', async () => {
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  await waitReady(page);
  // The sweep settings (from) are not part of the report.
  await typeEach(page, { '#dim-num': '96', '#base-num': '50000', '#gap-num': '7.5', '#from-num': '20' });
  await expectCliBytes(page, ['--dim', '96', '--base', '50000', '--gap', '7.5']);
  await p.close();
});

test('downloads_should_follow_the_sliders', async () => {
  const p = await openPage(env.browser, env.server.url);
  const { page } = p;
  await waitReady(page);
  await afterUpdate(page, () => page.fill('#dim', '200'));
  await afterUpdate(page, () => page.fill('#base', '3.3'));
  await afterUpdate(page, () => page.fill('#gap', '3')); // log slider: gap 1000
  const state = stateFromUrl(await pageUrl(page));
  assert.equal(state.dim, 200);
  assert.equal(state.gap, 1000);
  await expectCliBytes(page, flagsOf(state));
  await p.close();
});

test('downloads_should_follow_settings_from_the_url', async () => {
  const p = await openPage(env.browser, `${env.server.url}?dim=18&base=123.5&gap=4095.25&n=256`);
  await waitReady(p.page);
  await expectCliBytes(p.page, ['--dim', '18', '--base', '123.5', '--gap', '4095.25']);
  await p.close();
});
