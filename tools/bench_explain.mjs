// make bench (explainer part): the wasm cost of one call per explainer figure,
// as the page makes it on every update. Prints the median of repeated calls,
// in ms, against the page's update budget of 5 ms per figure.
//   node tools/bench_explain.mjs
import * as rope from '../web/src/core/rope.js';

const BUDGET_MS = 5;
const logSpaced = (count, hi) => Array.from({ length: count }, (_, j) => hi ** (j / (count - 1)));
const range = (count, from = 0) => Array.from({ length: count }, (_, j) => from + j);

function median(fn, minMs = 200) {
  fn(); // warm up
  const times = [];
  const start = performance.now();
  while (times.length < 7 || (performance.now() - start < minMs && times.length < 500)) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const rows = [];
for (const d of [64, 128]) {
  const [q, k] = rope.demo_vectors(d);
  const distances = logSpaced(200, 1e6);
  for (const samples of [1000, 10000]) {
    rows.push([
      `decay d=${d}, 200 distances to 1e6, ${samples} samples`,
      median(() => rope.decay(q, k, distances, samples, 12345)),
    ]);
  }
  rows.push([`pair_terms d=${d}`, median(() => rope.pair_terms(q, k, 4002, 4000))]);
  rows.push([`add_terms d=${d}, 512 starts`, median(() => rope.add_terms(q, k, 2, range(512)))]);
  rows.push([`add_terms d=${d}, 4096 starts`, median(() => rope.add_terms(q, k, 2, range(4096)))]);
  rows.push([`add_terms_sweep d=${d}, 4096 starts`, median(() => rope.add_terms_sweep(q, k, 2, 0, 1, 4096))]);
  rows.push([`cos_grid d=${d}, 512 positions`, median(() => rope.cos_grid(d, range(512, 0)))]);
  rows.push([
    `offset_envelope d=${d}, starts 0..4096 in 512 bins`,
    median(() => rope.offset_envelope(q, k, 2, 0, 4096, 512)),
  ]);
  rows.push([
    `offset_envelope d=${d}, starts 0..100000 in 800 bins`,
    median(() => rope.offset_envelope(q, k, 2, 0, 100000, 800)),
  ]);
  rows.push([`random_vectors d=${d}`, median(() => rope.random_vectors(d, 7))]);
}
rows.push(['pair_example', median(() => rope.pair_example([0.9, 0.4], [0.9, 0.4], 3, 7, 0.1))]);

const width = Math.max(...rows.map(([name]) => name.length));
console.log(`explainer figures, wasm in node ${process.version} (median ms per call; budget ${BUDGET_MS} ms)`);
for (const [name, ms] of rows) {
  const mark = ms <= BUDGET_MS ? 'ok  ' : 'over';
  console.log(`  ${mark} ${name.padEnd(width)}  ${ms.toFixed(3).padStart(8)} ms`);
}
