import { loadScript } from '../lib/dom.js';

// The verify panel's code and module are a script of their own (ropescope-verify.js, beside the
// page), so the page does not carry them: its button loads the script, which builds the panel. A
// classic script loads from file:// too; a page without it beside says so. `first`: what the
// panel needs before it (Chart.js, which the page fetches after its first screen), a promise.
export function wireVerify(button, first = () => Promise.resolve()) {
  button?.addEventListener(
    'click',
    async () => {
      await first();
      if (typeof window.Chart !== 'function') {
        button.nextElementSibling.textContent = 'The checker draws with Chart.js, which did not load: reload the page.';
        return;
      }
      loadScript('ropescope-verify.js').catch(() => {
        button.nextElementSibling.textContent = 'The checker is missing: ropescope-verify.js must be beside this page.';
      });
    },
    { once: true },
  );
}
