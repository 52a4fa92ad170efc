// The address bar follows the state. Browsers throttle (and warn about) frequent history
// updates, and a slider drag fires dozens of changes a second: the URL follows at most every
// URL_INTERVAL_MS, always ending on the latest state.
const URL_INTERVAL_MS = 150;

/** A throttled writer of query() into the address: { write(), pending() }. */
export function urlWriter(query) {
  let timer = null;
  let lastWrite = -Infinity;

  function flush() {
    timer = null;
    lastWrite = performance.now();
    try {
      window.history.replaceState(null, '', query() + window.location.hash);
    } catch {
      // Some file:// pages refuse URL changes; the view still works, only the link is not updated.
    }
  }

  return {
    write() {
      if (timer !== null) return; // the pending write will take the latest state
      const wait = lastWrite + URL_INTERVAL_MS - performance.now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    pending: () => timer !== null,
  };
}
