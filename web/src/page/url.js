// The address bar follows the state. Browsers throttle (and warn about) frequent history
// updates, and a slider drag fires dozens of changes a second: while a change is under way the
// URL follows at most every URL_INTERVAL_MS, always ending on the latest state, in the current
// history entry. When the change settles (a slider let go, a box committed, a button pressed, an
// animation stopped: settle()), the entry gets back the address it had and the new state becomes
// an entry of its own, so Back returns to what was shown before the change.
const URL_INTERVAL_MS = 150;

/**
 * A writer of query() into the address: { write(), settle(), restore(fn), mark(), pending() }.
 * write(): the current entry follows the state (throttled). settle(): a new entry for the
 * state, if it differs from the one the current entry was made for. restore(fn): runs fn (the
 * state read back from the address, on Back or Forward) without writing anything. mark(): the
 * state now is the one the page opened with (once every part has read the link: the long-context
 * part fills what the link left out from its preset). entries: false in an embed, whose frame
 * must add nothing to the history of the post around it (settle() then does nothing).
 */
export function urlWriter(query, { entries = true } = {}) {
  let timer = null;
  let lastWrite = -Infinity;
  let restoring = false;
  // The address the current entry was made with (before any write() of a change under way),
  // and the query() of the state it shows: a settle() that changed nothing adds no entry.
  let address = window.location.search;
  let shown = null;

  const cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  // Some file:// pages refuse URL changes; the view still works, only the link is not updated.
  const history = (method, search) => {
    try {
      // The path too: an empty search ('') alone would name the current address, query and all.
      window.history[method](null, '', window.location.pathname + search + window.location.hash);
      return true;
    } catch {
      return false;
    }
  };

  function flush() {
    timer = null;
    lastWrite = performance.now();
    history('replaceState', query());
  }

  return {
    write() {
      if (restoring || timer !== null) return; // the pending write will take the latest state
      const wait = lastWrite + URL_INTERVAL_MS - performance.now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    settle() {
      if (restoring || !entries) return;
      const now = query();
      if (now === (shown ?? now)) return;
      cancel();
      lastWrite = performance.now();
      history('replaceState', address);
      if (history('pushState', now)) [address, shown] = [now, now];
    },
    restore(fn) {
      cancel();
      restoring = true;
      try {
        fn();
      } finally {
        restoring = false;
        address = window.location.search;
        shown = query();
      }
    },
    mark() {
      shown ??= query();
    },
    pending: () => timer !== null,
  };
}
