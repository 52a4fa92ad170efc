// The files module (web/src/core/files.js over build/files.wasm: the config reader, the scaling
// writers and the report writer) on the page: the long-context part and the checker start once
// it is made, after the first paint; a report download loads it at the click; and where it cannot
// be made, the page says so in #notice and #config-msg, the lesson still draws, and nothing is
// thrown uncaught.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { downloadedFile, openPage, useServerAndBrowser } from './harness.mjs';

const env = useServerAndBrowser();

// Refuses to compile the files module only (its bytes name rope_config_read_json; the lesson's
// do not), as a browser would refuse a module it cannot compile.
function refuseFilesModule() {
  const Real = WebAssembly.Module;
  const isFiles = (bytes) => {
    try {
      return new TextDecoder('latin1').decode(bytes).includes('rope_config_read_json');
    } catch {
      return false;
    }
  };
  const Refusing = function Module(bytes) {
    if (isFiles(bytes)) throw new WebAssembly.CompileError('refused by the test');
    return new Real(bytes);
  };
  Refusing.prototype = Real.prototype;
  Object.assign(Refusing, Real);
  WebAssembly.Module = Refusing;
  const realCompile = WebAssembly.compile;
  WebAssembly.compile = (bytes) =>
    isFiles(bytes) ? Promise.reject(new WebAssembly.CompileError('refused by the test')) : realCompile(bytes);
}

test('the_long_part_and_the_checker_should_start_with_the_files_module', async () => {
  const p = await openPage(env.browser, env.server.url);
  await p.page.waitForFunction(() => document.querySelector('#config-fields')?.children.length > 0, null, {
    timeout: 30000,
  });
  // The checker reads a pasted config with the module's reader, and names a bad key.
  await p.page.fill('#config', '{"head_dim": 64, "rope_theta": 0.5}');
  await p.page.waitForFunction(() => document.getElementById('config-msg').textContent.includes('rope_theta'), null, {
    timeout: 10000,
  });
  const message = await p.page.textContent('#config-msg');
  assert.match(message, /^Refused: rope_theta must be > 1, got 0\.5/);
  // The presets menu of the main explorer comes from the same reader.
  await p.page.waitForFunction(() => document.getElementById('dim-preset').options.length > 1, null, {
    timeout: 10000,
  });
  await p.close();
});

test('a_report_download_should_load_the_files_module_and_write_the_cli_bytes', async () => {
  const p = await openPage(env.browser, `${env.server.url}?dim=8&gap=3`);
  await p.page.waitForFunction(() => performance.getEntriesByName('ropescope:first-chart').length > 0, null, {
    timeout: 20000,
  });
  const [download] = await Promise.all([p.page.waitForEvent('download'), p.page.click('#download-json')]);
  assert.equal(download.suggestedFilename(), 'rope_report.json');
  const report = JSON.parse(readFileSync(await downloadedFile(download), 'utf8'));
  assert.equal(report.dim, 8);
  await p.close();
});

test('a_files_module_that_cannot_load_should_be_named_on_the_page_without_an_uncaught_error', async () => {
  const p = await openPage(env.browser, null);
  await p.context.addInitScript(refuseFilesModule);
  await p.page.goto(env.server.url);
  await p.page.waitForFunction(
    () => /long-context part is unavailable/.test(document.getElementById('notice').textContent),
    null,
    {
      timeout: 30000,
    },
  );
  assert.match(
    await p.page.textContent('#config-msg'),
    /The checker is unavailable: the config reader could not be loaded \(.*refused by the test/,
  );
  // The lesson still draws.
  assert.ok(await p.page.evaluate(() => performance.getEntriesByName('ropescope:first-chart').length > 0));
  // A report download says why it cannot be written, in the notice.
  await p.page.click('#download-json');
  await p.page.waitForFunction(
    () => /Could not build the report/.test(document.getElementById('notice').textContent),
    null,
    {
      timeout: 10000,
    },
  );
  await p.close();
});
