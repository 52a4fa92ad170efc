// Runs browser test files (tests/browser/*.test.mjs by default) in node's test runner,
// ROPE_TEST_JOBS at a time (default: as many as there are CPUs, at most 4), each file with a
// headless Chromium of its own (launchBrowser in tests/browser/harness.mjs). The suite is bound
// by the browser's CPU. On a 2-core machine, on 2026-12-07:
// - a third file at a time kept the cores no busier and made each file cost more (renderers
//   contending for two cores): 1,314 and 1,368 core-seconds in 676 and 707 s with three, 1,220
//   in 657 s with two;
// - one browser shared by every file (Playwright's browser server, which relays every file's
//   protocol traffic through one more process) cost 6-9% more than a browser per file: four of
//   the largest files took 146 and 152 s shared, 134 and 139 s apart, in runs taking turns.
// The slowest files start first, so that none of them is left running alone at the end
// (node:test's run(): the command line's --test sorts the files by name). Prints the slowest
// files; exits 1 if a test failed.
//
//   node tools/test_browser.mjs [files...]
//   ROPE_TEST_JOBS=1 node tools/test_browser.mjs tests/browser/page.test.mjs

import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';
import { ROOT } from '../tests/browser/harness.mjs';

// The files that take longest (each over a minute and a half of a 2-core machine), slowest first.
const SLOWEST = ['embed', 'lesson', 'long', 'page', 'first_screen', 'element', 'controls'];
const files = process.argv.slice(2);
if (files.length === 0) {
  const dir = join(ROOT, 'tests/browser');
  const names = readdirSync(dir).filter((name) => name.endsWith('.test.mjs'));
  const rank = (name) => {
    const at = SLOWEST.indexOf(name.replace(/\.test\.mjs$/, ''));
    return at < 0 ? SLOWEST.length : at;
  };
  names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  for (const name of names) files.push(join(dir, name));
}
const jobsText = process.env.ROPE_TEST_JOBS ?? String(Math.min(4, availableParallelism()));
const jobs = Number(jobsText);
if (!Number.isInteger(jobs) || jobs < 1 || jobs > 16) {
  console.error(`test_browser: ROPE_TEST_JOBS must be a whole number from 1 to 16, got '${jobsText}'`);
  process.exit(2);
}

const started = Date.now();
// node:test's run() keeps the files' order (the command line's --test sorts them by name).
let failed = false;
const took = new Map(); // a file's tests' time, in ms (its tests run one after another)
const stream = run({ files, concurrency: jobs });
const count = ({ nesting, file, details }) => {
  if (nesting === 0 && file) took.set(file, (took.get(file) ?? 0) + (details?.duration_ms ?? 0));
};
stream.on('test:pass', count);
stream.on('test:fail', (event) => {
  failed = true;
  count(event);
});
await pipeline(stream.compose(tap), process.stdout, { end: false });
const slowest = [...took]
  .sort((a, b) => b[1] - a[1])
  .slice(0, 6)
  .map(([file, ms]) => `${basename(file)} ${(ms / 1000).toFixed(0)} s`);
console.log(`test_browser: the slowest files: ${slowest.join(', ')}`);
console.log(`test_browser: ${files.length} files, ${jobs} at a time, ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failed ? 1 : 0);
