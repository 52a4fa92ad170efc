// Figure (long context): attention temperature tuning. Llama 4 (on its NoPE layers) and Ministral 3
// (on every layer) multiply the query at position p by 1 + β·ln(1 + ⌊(p + offset) / L0⌋), so scores
// grow a step every L0 positions; a port that leaves it out matches up to the first step and
// drifts after. Its own inputs, as a chapter's: β, L0 and the position read out.

import { axis, logAxis } from '../charts/theme.js';
import { query_scales } from '../core/rope.js';
import { num, position } from '../lib/format.js';
import { box, chapterRow, indexChart, slider } from './lesson_row.js';

const FAR = 1e6; // the x axis: positions 1 to a million
const SAMPLES = 240; // log-spaced positions, plus both sides of each of the first EDGES steps
const EDGES = 120;

function compute(i) {
  const xs = new Set(Array.from({ length: SAMPLES + 1 }, (_, j) => Math.round(FAR ** (j / SAMPLES))));
  for (let k = 1; k <= EDGES && k * i.l0 <= FAR; k++) xs.add(k * i.l0 - 2).add(k * i.l0 - 1);
  const positions = [...xs].filter((p) => p >= 1).sort((a, b) => a - b);
  const [llama, ministral] = [1, 0].map((offset) => query_scales(i.beta, i.l0, offset, [...positions, i.at]));
  return {
    ...i,
    curve: positions.map((x, j) => ({ x, y: llama[j] })),
    llama: llama[positions.length],
    ministral: ministral[positions.length],
    first: i.l0 - 1, // Llama 4's first step (Ministral 3's is one position later)
  };
}

function fill(target, data) {
  const [curve, at] = target.data.datasets;
  curve.data = data.curve;
  at.data = data.at >= 1 && data.at <= FAR ? [{ x: data.at, y: data.llama }] : [];
}

function createTemperatureChart(canvas, data) {
  return indexChart(canvas, data, fill, {
    type: 'line',
    scales: (c) => ({
      x: logAxis(c, 'position p', { min: 1, max: FAR }),
      y: axis(c, 'query scale (scores multiplied by it)', { type: 'linear', suggestedMin: 1 }),
    }),
    datasets: [
      {
        label: 'query scale',
        data: [],
        pointRadius: 0,
        borderWidth: 2,
        color: 'rope',
        key: '1 + β·ln(1 + ⌊(p + 1) / L0⌋): Llama 4',
      },
      {
        label: 'at position p',
        data: [],
        showLine: false,
        pointRadius: 5,
        color: 'add',
        key: 'at position p (the box above)',
      },
    ],
  });
}

export default chapterRow({
  name: 'temperature',
  part: 'long',
  before: 'check',
  title: 'Far tokens get a sharper query (attention temperature tuning)',
  lookfor:
    'Llama 4 (on its layers without RoPE) and Ministral 3 (on every layer) multiply the query by a factor that ' +
    'grows by a step every L0 positions. Look for: the factor is exactly 1 up to the first step, so a port that ' +
    'leaves it out agrees with the model on short inputs and drifts on long ones.',
  fallback: 'The query scale against the position, on a log axis.',
  embed: 'the query scale by position',
  inputs: {
    beta: slider(0.1, 'β (attn_scale, llama_4_scaling_beta)', 0, 1, 0.01),
    l0: box(8192, 'L0 (floor_scale, original length)', 1, 1e6),
    at: box(131071, 'position p read out', 0, 1e10),
  },
  compute,
  make: createTemperatureChart,
  caption: (d) =>
    `At position ${position(d.at)}, with β = ${num(d.beta)} and L0 = ${position(d.l0)}, the query is multiplied ` +
    `by ${num(d.llama)} (Llama 4, which counts from p + 1) or ${num(d.ministral)} (Ministral 3, from p), and so is ` +
    `every score it makes: a sharper softmax far into the sequence. Up to position ${position(d.first - 1)} the ` +
    'factor is 1; a port without it is only right that far.',
  label: (d) =>
    `Line chart, log x axis: the query scale from position 1 to one million, stepping up every ${position(d.l0)} ` +
    `positions; ${num(d.llama)} at position ${position(d.at)}.`,
});
