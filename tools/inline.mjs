// A page with its own stylesheets and scripts written into it: the single file (tools/dist.mjs)
// and the page tools/serve.mjs sends (one response instead of four, so nothing waits for a
// second round of requests on a cold load). Each inline element is allowed by its hash in the
// page's Content-Security-Policy: no 'unsafe-inline'.
import { createHash } from 'node:crypto';

export const CSP_META = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/;

// A local file named by a page: a relative path, no scheme, no leading slash.
const LOCAL = String.raw`(?![a-z][a-z0-9+.-]*:|/)[^"]+`;
const STYLESHEET = new RegExp(`<link rel="stylesheet" href="(${LOCAL})">`, 'g');
const SCRIPT = new RegExp(`<script src="(${LOCAL})"></script>`, 'g');
// Local scripts one after another, with only blanks between them.
const SCRIPT_RUN = new RegExp(`<script src="${LOCAL}"></script>(?:\\s*<script src="${LOCAL}"></script>)*`, 'g');
// An HTML comment in the page's own text, with the blanks that indent it on its line.
const COMMENT = /[ \t]*<!--[\s\S]*?-->(?:[ \t]*\n)?/g;
// A module preloaded whose folder holds tools/split_page.mjs's chunks.json: the page's split script.
const MODULE_PRELOAD = new RegExp(`<link rel="modulepreload" href="(${LOCAL})">`, 'g');
const PRELOAD = new RegExp(`[ \\t]*<link rel="preload" href="(${LOCAL})" as="script">\\n?`, 'g');

// The page's script in its two forms: split into ES modules (web/split/, tools/split_page.mjs),
// which web/index.html loads and make serve sends, each figure's code fetched as the reader nears
// it; and one classic script (web/ropescope.js), for where no module loads: the page opened from
// disk (dist/ropescope.html, dist/ropescope/).
export const SPLIT_ENTRY = 'split/app.js';
export const CLASSIC_SCRIPT = 'ropescope.js';
export const CHART_JS = 'vendor/chart.js';

/**
 * The page with its split script's preload and tag replaced by Chart.js's and the classic
 * script's, both preloaded, at the end of <body>, where they run as parsed. The split page fetches Chart.js itself
 * (page/app.js, after its first screen is painted: that screen draws no Chart.js chart); the
 * classic script has no module graph to wait on and runs after Chart.js, as it did inline.
 */
export function classicPage(html) {
  const preload = `<link rel="modulepreload" href="${SPLIT_ENTRY}">`;
  const tag = new RegExp(`\\n[ \\t]*<script type="module" src="${SPLIT_ENTRY.replace('.', '\\.')}"[^>]*></script>`);
  const end = '\n</body>';
  if (!html.includes(preload) || !tag.test(html) || html.split(end).length !== 2) {
    throw new Error(`the page does not load ${SPLIT_ENTRY}, or has no single </body>`);
  }
  return html
    .replace(
      preload,
      [CHART_JS, CLASSIC_SCRIPT].map((file) => `<link rel="preload" href="${file}" as="script">`).join('\n  '),
    )
    .replace(tag, '')
    .replace(end, `\n  <script src="${CHART_JS}"></script>\n  <script src="${CLASSIC_SCRIPT}"></script>${end}`);
}

// CSP source for an inline element's exact text.
const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

// V8's compile hint on a file's first line (web/vendor/chart.js): compile every function now.
// It pays while a file streams in, compiled off the main thread; an inline script is compiled on
// the main thread, where compiling every function, used or not, cost the first chart 50–60 ms of
// main-thread time (2-core machine) against compiling each on its first call.
const COMPILE_HINT = /^\/\/# allFunctionsCalledOnLoad\r?\n/;

// Inline JS must not close its own <script> element or open an HTML comment state.
const scriptText = (js) =>
  js
    .replace(COMPILE_HINT, '')
    .replace(/<\/(script)/gi, '<\\/$1')
    .replace(/<!--/g, '<\\!--');
const styleText = (css) => css.replace(/<\/(style)/gi, '<\\/$1');

// The policy with each directive named in `hashes` listing those hashes first, its 'self' dropped
// unless kept; the other directives as they were.
function withHashes(policy, hashes, keepSelf) {
  const directives = policy
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .filter(([name]) => name);
  for (const name of Object.keys(hashes)) {
    if (!directives.some(([n]) => n === name)) throw new Error(`the policy has no ${name}`);
  }
  return directives
    .map(([name, ...sources]) =>
      (Object.hasOwn(hashes, name)
        ? [name, ...hashes[name], ...sources.filter((s) => keepSelf || s !== "'self'")]
        : [name, ...sources]
      ).join(' '),
    )
    .join('; ');
}

/**
 * html with every local stylesheet <link> and <script src> replaced by the file's text (read(path)
 * gives it) and the script preloads of those files dropped. The policy is the page's <meta>
 * (else `policy`) with script-src and style-src listing the inline elements' hashes, in place of
 * 'self' unless keepSelf (a served page keeps it: the folder's own files are still the page's,
 * and the tests import its modules); a page with a <meta> gets the new policy there too.
 * Returns { html, policy, inlined: the paths written in, in page order }.
 */
export function inlinePage(html, read, { policy = null, keepSelf = false } = {}) {
  const inlined = [];
  const scripts = [];
  const styles = [];
  // Preloads first (they stand in <head>, before any inlined text could hold such a tag), and the
  // source's comments (notes for whoever edits index.html, not for the reader's download).
  const local = new Set([...html.matchAll(SCRIPT)].map((m) => m[1]));
  let page = html.replace(PRELOAD, (tag, path) => (local.has(path) ? '' : tag)).replace(COMMENT, '');
  // The split script's first files (chunks.json's first) preloaded with its entry: a chunk is
  // otherwise asked for only when the file importing it has arrived, a round trip for each level.
  page = page.replace(MODULE_PRELOAD, (tag, path) => {
    const folder = path.slice(0, path.lastIndexOf('/') + 1);
    const { first } = JSON.parse(read(`${folder}chunks.json`));
    const more = first.filter((file) => `${folder}${file}` !== path);
    return [tag, ...more.map((file) => `<link rel="modulepreload" href="${folder}${file}">`)].join('\n  ');
  });
  page = page.replace(STYLESHEET, (_, path) => {
    const css = styleText(read(path));
    inlined.push(path);
    styles.push(sha256(css));
    return `<style>${css}</style>`;
  });
  // Scripts that follow one another go into one element, in order: between two inline scripts the
  // parser stops to lay out and paint what it has, and the second (the page's own) then waited for
  // a layout of the page that its first chart redoes (the first chart 8-10% later, 2-core machine).
  // Each file keeps its own statements: a ';' line ends one before the next begins.
  page = page.replace(SCRIPT_RUN, (run) => {
    const js = [...run.matchAll(SCRIPT)]
      .map(([, path]) => {
        inlined.push(path);
        return scriptText(read(path));
      })
      .join('\n;\n');
    scripts.push(sha256(js));
    return `<script>${js}</script>`;
  });
  const meta = CSP_META.exec(page);
  let base = meta ? meta[1] : policy;
  if (!base) throw new Error('no Content-Security-Policy for the inlined page');
  const hashes = {};
  if (scripts.length) hashes['script-src'] = scripts;
  if (styles.length) hashes['style-src'] = styles;
  base = withHashes(base, hashes, keepSelf);
  if (meta) page = page.replace(CSP_META, () => `<meta http-equiv="Content-Security-Policy" content="${base}">`);
  return { html: page, policy: base, inlined };
}
