// Helpers every JS test (tests/js and tests/browser) shares: the contract's
// tolerance, the run's seed and a seeded generator.
export const ABS_TOL = 1e-9;
export const REL_TOL = 1e-6;

/** The contract's comparison: |a - b| <= ABS_TOL + REL_TOL * |b|. */
export function close(a, b, absTol = ABS_TOL, relTol = REL_TOL) {
  return typeof a === 'number' && Math.abs(a - b) <= absTol + relTol * Math.abs(b);
}

/** ROPE_TEST_SEED if set, else a fresh one; printed so a run can be repeated. */
export function seed(name = 'test') {
  const text = process.env.ROPE_TEST_SEED;
  const value = text ? Number(text) >>> 0 : (Math.random() * 2 ** 32) >>> 0;
  console.log(`${name}: ROPE_TEST_SEED=${value} (set it to reproduce this run)`);
  return value;
}

/** A small seeded generator (mulberry32): returns a function giving floats in [0, 1). */
export function rng(seedValue) {
  let a = seedValue >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
