// Runs browser test files (tests/browser/*.test.mjs by default) in node's test runner with one
// shared headless Chromium: the files connect to it (ROPE_BROWSER_WS, see launchBrowser in
// tests/browser/harness.mjs) instead of starting a browser each, and run ROPE_TEST_JOBS at a
// time (default: the number of CPUs, at most 4). Exits with the runner's code.
//
//   node tools/test_browser.mjs [files...]
//   ROPE_TEST_JOBS=1 node tools/test_browser.mjs tests/browser/page.test.mjs

import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { LAUNCH_ARGS, ROOT } from '../tests/browser/harness.mjs';

const files = process.argv.slice(2);
if (files.length === 0) {
  const dir = join(ROOT, 'tests/browser');
  for (const name of readdirSync(dir).sort()) if (name.endsWith('.test.mjs')) files.push(join(dir, name));
}
const jobsText = process.env.ROPE_TEST_JOBS ?? String(Math.min(4, availableParallelism()));
const jobs = Number(jobsText);
if (!Number.isInteger(jobs) || jobs < 1 || jobs > 16) {
  console.error(`test_browser: ROPE_TEST_JOBS must be a whole number from 1 to 16, got '${jobsText}'`);
  process.exit(2);
}

const server = await chromium.launchServer({ executablePath: '/usr/bin/chromium', args: LAUNCH_ARGS });
const started = Date.now();
const code = await new Promise((resolveCode) => {
  const child = spawn(process.execPath, ['--test', `--test-concurrency=${jobs}`, ...files], {
    stdio: 'inherit',
    env: { ...process.env, ROPE_BROWSER_WS: server.wsEndpoint() },
  });
  child.once('exit', (status, signal) => resolveCode(signal ? 1 : (status ?? 1)));
});
await server.close();
console.log(
  `test_browser: ${files.length} files, ${jobs} at a time, one browser, ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
process.exit(code);
