// When <rope-scope> elements draw, so that the page hosting them keeps a free main thread (no
// task over 50 ms): an element draws when it comes near the viewport (600 px ahead of it), and
// its drawing is a series of steps (the element's buildSteps: its DOM, its formulas, each
// figure's numbers, layout and chart), each run in a task of its own. The elements near the
// viewport are drawn one after another, never two in one task. Printing ends the build under way
// and draws every element still waiting, at once.

const waiting = new Set(); // connected, not drawn yet
const queue = new Set(); // near the viewport, to be drawn, in order
let pumping = false;
let prepared = false;
let current = null; // the element whose build the queue runs now

/** Resolves in a later task: input, rendering and the page's other tasks run first. */
export const nextTask = () =>
  typeof globalThis.scheduler?.yield === 'function'
    ? globalThis.scheduler.yield()
    : new Promise((resolve) => setTimeout(resolve, 0));

// Before the first element draws, once: what the element gives prepareWith (its code and the
// core, compiled off the main thread). Where it cannot load, the drawing that follows says so.
let before = () => null;
/** `fn` () -> a promise: what the queue waits on before its first element draws. */
export function prepareWith(fn) {
  before = fn;
}
function* prepare() {
  if (prepared) return;
  prepared = true;
  yield Promise.resolve(before()).catch(() => {});
}

// Runs the queue: each step an element's build yields is awaited (a promise, or nothing), then
// the next one runs in a later task. A build that another one replaced (a changed attribute
// rebuilds at once) or whose element left the page is dropped.
async function pump() {
  for (const step of prepare()) {
    await step;
    await nextTask();
  }
  for (let [next] = queue; next; [next] = queue) {
    queue.delete(next);
    waiting.delete(next);
    const steps = next.startBuild();
    current = next;
    try {
      for (let step = steps.next(); !step.done; step = steps.next()) {
        await step.value;
        await nextTask();
        if (next.steps !== steps) break;
      }
    } catch (err) {
      setTimeout(() => {
        throw err; // the page's error to see; the next elements still draw
      }, 0);
    }
    current = null;
    await nextTask();
  }
  pumping = false;
}

function drawSoon(element) {
  queue.add(element);
  if (!pumping) {
    pumping = true;
    nextTask().then(pump);
  }
}

const nearViewport =
  'IntersectionObserver' in window
    ? new IntersectionObserver(
        (entries) => {
          for (const entry of entries) {
            if (!entry.isIntersecting || !waiting.has(entry.target)) continue;
            nearViewport.unobserve(entry.target);
            drawSoon(entry.target);
          }
        },
        { rootMargin: '600px 0px' },
      )
    : null;

window.addEventListener('beforeprint', () => {
  // The build under way ends now (its steps run in a row), so no chart is printed half made.
  if (current?.steps) for (const steps = current.steps; !steps.next().done; );
  for (const element of [...waiting]) {
    forget(element);
    element.build();
  }
});

/**
 * Has `element` (with startBuild(), build() and steps) drawn when it nears the viewport, or with
 * `eager` as soon as the queue reaches it. False where the browser cannot tell (no
 * IntersectionObserver): the caller draws it at once.
 */
export function drawLater(element, eager) {
  if (!nearViewport) return false;
  waiting.add(element);
  if (eager) drawSoon(element);
  else nearViewport.observe(element);
  return true;
}

/** Whether `element` waits to be drawn. */
export const isWaiting = (element) => waiting.has(element);

/** `element` is not to be drawn (it left the page, or printing draws it now). */
export function forget(element) {
  waiting.delete(element);
  queue.delete(element);
  nearViewport?.unobserve(element);
}
