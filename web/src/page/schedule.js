// Drawing within the frame budget. With every figure on screen a slider step changes up to a
// dozen charts, more than one frame can draw. A reader's update draws the charts on screen
// that waited longest first, starting none once DRAW_BUDGET_MS have passed since the update
// began (a slow model, as at dim 1024, leaves them all to the next frame); each next frame
// draws the rest within CATCH_UP_BUDGET_MS, at least one chart a frame. A drag keeps its frame
// rate and every chart catches up a frame or two later. 'ropescope:settled' marks the moment
// every chart on screen shows the latest state.
const DRAW_BUDGET_MS = 6; // in an update's frame, after the model (inputs and layout need the rest)
const CATCH_UP_BUDGET_MS = 12; // in the frames after it, where drawing is all the page does

/**
 * A scheduler over the page's chart handles. charts: name -> handle (redraw()); hidden: the
 * names scrolled out of view (given new data, drawn when they come back). Returns
 * { mark(name), draw(started | null), clear() }: mark a chart whose data changed; draw the
 * marked ones, within the budget of an update that began at `started`, or all now (null).
 */
export function frameScheduler(charts, hidden) {
  const stale = new Set(); // charts on screen holding data not drawn yet
  const drawnAt = Object.create(null); // chart name -> sequence number of its last draw
  let drawCount = 0;
  let frame = 0;

  // budget: null draws every stale chart now; else { started, least, ms } draws while less
  // than ms have passed since `started`, and at least `least` charts.
  function drawStale(budget) {
    const order = [...stale].sort((a, b) => (drawnAt[a] ?? -1) - (drawnAt[b] ?? -1));
    for (const [index, name] of order.entries()) {
      if (budget && index >= budget.least && performance.now() - budget.started >= budget.ms) break;
      stale.delete(name);
      drawnAt[name] = ++drawCount;
      if (!hidden.has(name)) charts[name].redraw();
    }
    if (stale.size === 0) {
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
      performance.mark('ropescope:settled');
    } else if (!frame) {
      frame = requestAnimationFrame(() => {
        frame = 0;
        drawStale({ started: performance.now(), least: 1, ms: CATCH_UP_BUDGET_MS });
      });
    }
  }

  return {
    mark: (name) => stale.add(name),
    draw: (started) => drawStale(started === null ? null : { started, least: 0, ms: DRAW_BUDGET_MS }),
    clear: () => stale.clear(),
  };
}
