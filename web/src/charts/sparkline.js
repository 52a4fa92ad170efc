// A small line plot in SVG, drawn by the page itself: the first screen's miniature (page/question.js)
// plots two scores over the slider's range. The first screen draws no other chart, so it does
// not wait for Chart.js, which the page fetches after the first paint (docs/PERFORMANCE.md).
// Plain arrays in; colours come from style.css through each line's class.

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 320;
const HEIGHT = 96;
// The plot's box inside the viewBox: x as the slider's track above it (its thumb's centre runs
// about 8 px in from each end), room for the x labels below.
const BOX = { left: 8, right: WIDTH - 8, top: 6, bottom: HEIGHT - 18 };

function node(name, attributes = {}, text = null) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== null) element.textContent = text;
  return element;
}

const round = (v) => Math.round(v * 10) / 10;

/**
 * Draws `lines` ([{ values, className, label }], one value per x = 0..values.length-1) into
 * `svg`, with its zero line (labelled `${yLabel} 0`), the x range's ends and `xLabel` under it and each line's label at its right end.
 * Returns { mark(x) }: the marker (a vertical rule and a dot on each line) moved to x.
 */
export function sparkline(svg, { lines, xLabel, yLabel }) {
  const count = lines[0].values.length;
  const all = lines.flatMap((line) => line.values);
  const [low, high] = [Math.min(0, ...all), Math.max(0, ...all)];
  const pad = (high - low) * 0.06 || 1;
  const x = (i) => round(BOX.left + ((BOX.right - BOX.left) * i) / (count - 1));
  const y = (v) => round(BOX.bottom - ((BOX.bottom - BOX.top) * (v - low + pad)) / (high - low + 2 * pad));

  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  const zero = y(0);
  // The marker's rule first: the labels, drawn over it with a halo (style.css), stay readable.
  const rule = node('line', { class: 'spark-rule', y1: BOX.top, y2: BOX.bottom });
  const parts = [
    node('line', { class: 'spark-zero', x1: BOX.left, x2: BOX.right, y1: zero, y2: zero }),
    rule,
    node('text', { class: 'spark-tick', x: BOX.left, y: zero - 3 }, `${yLabel} 0`),
    node('text', { class: 'spark-tick', x: BOX.left, y: HEIGHT - 4 }, '0'),
    node('text', { class: 'spark-tick', x: BOX.right, y: HEIGHT - 4, 'text-anchor': 'end' }, String(count - 1)),
    node('text', { class: 'spark-tick', x: WIDTH / 2, y: HEIGHT - 4, 'text-anchor': 'middle' }, xLabel),
  ];
  const dots = [];
  for (const { values, className, label } of lines) {
    const points = values.map((v, i) => `${x(i)},${y(v)}`).join(' ');
    parts.push(node('polyline', { class: `spark-line ${className}`, points }));
    // The label just above its line's right end, right-aligned to the plot's edge.
    parts.push(
      node(
        'text',
        { class: `spark-label ${className}`, x: BOX.right, y: y(values[count - 1]) - 5, 'text-anchor': 'end' },
        label,
      ),
    );
    const dot = node('circle', { class: `spark-dot ${className}`, r: 3.5 });
    dots.push([dot, values]);
    parts.push(dot);
  }
  svg.replaceChildren(...[...svg.querySelectorAll('title, desc')], ...parts);

  return {
    mark(at) {
      const i = Math.max(0, Math.min(count - 1, Math.round(at)));
      rule.setAttribute('x1', x(i));
      rule.setAttribute('x2', x(i));
      for (const [dot, values] of dots) {
        dot.setAttribute('cx', x(i));
        dot.setAttribute('cy', y(values[i]));
      }
    },
  };
}
