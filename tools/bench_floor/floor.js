// make bench's floor: what drawing figure 1's chart costs on an empty page on this machine.
// The query gives the chart box's size and the datasets' point counts, read from the page:
//   ?w=WIDTH&h=HEIGHT&sets=512,512,512,512,4
// Line datasets as figure 1 draws them (no points, no animation); the last set is its markers.
// Tick labels come from a callback, as on the page: Chart.js's own labels call Intl.NumberFormat,
// whose first use loads locale data (about 45 ms a load on a slow machine) that the page never pays.
// Marks 'ropescope:first-chart' after the first draw, as the page does.
(() => {
  const query = new URLSearchParams(window.location.search);
  const box = document.getElementById('box');
  box.style.position = 'relative';
  box.style.width = `${Number(query.get('w')) || 760}px`;
  box.style.height = `${Number(query.get('h')) || 360}px`;
  const sets = (query.get('sets') || '512,512,512,512,4').split(',').map(Number);
  const curve = (count, k) => Array.from({ length: count }, (_, i) => ({ x: i, y: Math.sin(i / 40 + k) + k }));
  const line = { pointRadius: 0, borderWidth: 1.5, fill: false, parsing: false, normalized: true, spanGaps: true };
  const datasets = sets.map((count, k) => (k === sets.length - 1
    ? { label: `set ${k}`, data: curve(count, k), parsing: false, showLine: false, pointRadius: 5 }
    : { label: `set ${k}`, data: curve(count, k), ...line }));
  const axis = (text) => ({
    type: 'linear',
    title: { display: true, text },
    ticks: { callback: (value) => String(Number(value.toPrecision(4))) },
  });
  let drawn = false;
  new window.Chart(document.getElementById('chart'), {
    type: 'line',
    data: { datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: { x: axis('start'), y: axis('score') },
      plugins: { legend: { display: false } },
    },
    plugins: [{
      id: 'floorFirstDraw',
      afterDraw() {
        if (drawn) return;
        drawn = true;
        performance.mark('ropescope:first-chart');
      },
    }],
  });
})();
