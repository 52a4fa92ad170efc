// Helpers every JS test (tests/js and tests/browser) shares: the contract's
// tolerance, the run's seed, a seeded generator, the repository's paths and the
// CLI's report files.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = join(ROOT, 'build/ropescope');
// The Python the tests' references run in: Debian's, which `make deps` installs (PYTHON to choose
// another). Not whichever `python3` comes first on the PATH: a version manager's shim there (pyenv's
// is a shell script) costs a quarter of a second of CPU per run, and the tests start hundreds.
export const PYTHON = process.env.PYTHON || '/usr/bin/python3';

// docs/SPEC.md's tolerance, stated here once for every JS test.
export const ABS_TOL = 1e-9;
export const REL_TOL = 1e-6;

/** The contract's comparison: |a - b| <= ABS_TOL + REL_TOL * |b|. */
export function close(a, b, absTol = ABS_TOL, relTol = REL_TOL) {
  return typeof a === 'number' && Math.abs(a - b) <= absTol + relTol * Math.abs(b);
}

/** ROPE_TEST_SEED if set (a non-negative integer, else an error), else a fresh one. Not printed. */
export function seedValue() {
  const text = process.env.ROPE_TEST_SEED;
  if (text !== undefined && text.trim() !== '') {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0) throw new Error(`ROPE_TEST_SEED must be a non-negative integer, got ${text}`);
    return n >>> 0;
  }
  return (Math.random() * 2 ** 32) >>> 0;
}

/** seedValue(), printed so a run can be repeated. */
export function seed(name = 'test') {
  const value = seedValue();
  console.log(`${name}: ROPE_TEST_SEED=${value} (set it to reproduce this run)`);
  return value;
}

/** A small seeded generator (mulberry32): returns a function giving floats in [0, 1). */
export function rng(seedValue_) {
  let a = seedValue_ >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `ropescope report FLAGS` into a temporary folder: { json, md } as the CLI wrote them. */
export function cliReport(flags) {
  const dir = mkdtempSync(join(tmpdir(), 'rope-cli-'));
  try {
    const run = spawnSync(CLI, ['report', ...flags, '--out', dir], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`ropescope report ${flags.join(' ')} exited ${run.status}: ${run.stderr}`);
    return {
      json: readFileSync(join(dir, 'rope_report.json'), 'utf8'),
      md: readFileSync(join(dir, 'rope_report.md'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `roots` and every item `next(item)` lists, in turn, each once (a chunk and all it needs). */
export function closureOf(roots, next) {
  const all = [...roots];
  for (let i = 0; i < all.length; i++) for (const item of next(all[i]) ?? []) if (!all.includes(item)) all.push(item);
  return all;
}
