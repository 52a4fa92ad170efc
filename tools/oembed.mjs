// oEmbed for tools/serve.mjs (web/README.md, "oEmbed"): /oembed?url=<an explorer page on this
// server>&format=json answers type rich, the embed builder's iframe snippet of that page's view
// and settings with its picture as the thumbnail; each explorer page the server sends names
// that answer in a discovery <link>. The page's own modules make the answer: the same URL
// reader, figures table and snippet as the builder's.

const WHOLE = /^[1-9]\d{0,5}$/;
// A consumer that does not know us shows the answer in a sandbox (WordPress: sandbox=
// "allow-scripts"), where the figure adds a line saying exports are off and gives the explorer's
// address as text in place of its link (element.js): room for both, measured at 680 px.
export const SANDBOX_ROOM = 44;

/**
 * The oEmbed answer for a request's query: { status, json } or { status, text } (a message
 * naming the parameter). `origin`: this server's, as the client reached it; findPage(pathname):
 * whether that path is an explorer page here; pictures(): make dist's pictures.json, or null.
 */
export async function oembed(query, origin, findPage, pictures) {
  const format = query.get('format') ?? 'json';
  if (format !== 'json') return { status: 501, text: `format: only json is offered, not ${JSON.stringify(format)}` };
  const url = query.get('url');
  if (!url) return { status: 400, text: 'url: missing (the address of an explorer page on this server)' };
  let target;
  try {
    target = new URL(url);
  } catch {
    return { status: 400, text: `url: ${JSON.stringify(url.slice(0, 200))} is not an absolute address` };
  }
  // javascript:, data:, blob: and the like have no origin to compare ("null"): no page of ours.
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return {
      status: 404,
      text: `url: ${JSON.stringify(url.slice(0, 200))} is not an http(s) address of this server (${origin})`,
    };
  if (target.origin !== origin)
    return { status: 404, text: `url: ${JSON.stringify(target.origin)} is not this server (${origin})` };
  const limits = {};
  for (const name of ['maxwidth', 'maxheight']) {
    const value = query.get(name);
    if (value === null) continue;
    if (!WHOLE.test(value))
      return {
        status: 400,
        text: `${name}: must be a whole number of pixels from 1 to 999999, not ${JSON.stringify(value.slice(0, 40))}`,
      };
    limits[name] = Number(value);
  }
  if (!findPage(target.pathname)) return { status: 404, text: `url: ${target.pathname} is not an explorer page here` };
  // The page's own modules: the same URL reader, figures table and snippet as the builder's.
  const [{ readQuery }, { fillFromPreset }, { FIGURE, FIGURES }, embed, picture] = await Promise.all([
    import('../web/src/state/state.js'),
    import('../web/src/model/long.js'),
    import('../web/src/figures/index.js'),
    import('../web/src/element/embed.js'),
    import('../web/src/element/picture.js'),
  ]);
  embed.useFigureRows((name) => FIGURE[name]); // the snippet's alt text comes from the figure's code
  const { state, problems } = readQuery(target.search);
  const badView = problems.find((p) => p.name === 'view');
  if (badView) return { status: 404, text: `url: ${badView.message}` };
  // An address without view= (the explorer's "Copy link") embeds the figure it points at
  // (#fig-NAME), else the first: never every figure, tens of thousands of pixels tall.
  if (!new URLSearchParams(target.search).has('view')) {
    const pointed = /^#fig-([a-z0-9-]+)$/.exec(target.hash)?.[1];
    state.view = FIGURE[pointed] ? pointed : FIGURES[0].name;
  }
  try {
    fillFromPreset(state);
  } catch {
    // a preset the reader refuses: the embed says so, as the page does
  }
  const page = origin + target.pathname;
  return { status: 200, json: oembedJson({ state, limits, page, pictures: pictures(), embed, picture, FIGURE }) };
}

/**
 * The oEmbed answer for an explorer state (its view one figure): the fixed-height iframe snippet
 * (no script, which consumers strip; theme inherit, which needs the resizer, as auto) at the
 * height measured for the column maxwidth gives (embed.js's fixedHeight; 680 px without it) with
 * SANDBOX_ROOM, or maxheight if less; the view's picture as the thumbnail if make dist wrote it and it fits.
 * Also tools/dist.mjs's static answers, one per view. The modules are passed in: the page's own.
 */
export function oembedJson({ state, limits, page, pictures, embed, picture, FIGURE }) {
  const theme = state.theme === 'inherit' ? 'auto' : state.theme;
  const options = { view: state.view, controls: state.controls, title: state.title, theme, auto: false };
  const width = Math.min(limits.maxwidth ?? picture.PICTURE_WIDTH, picture.PICTURE_WIDTH);
  const fixed = embed.fixedHeight(state.view, { ...options, column: width }) + SANDBOX_ROOM;
  const height = Math.min(limits.maxheight ?? fixed, fixed);
  const json = {
    type: 'rich',
    version: '1.0',
    title: state.view === 'all' ? 'ropescope: every figure' : FIGURE[state.view].title,
    provider_name: 'ropescope',
    provider_url: `${new URL(page).origin}/`,
    html: embed.snippet(state, { ...options, height }, page),
    width,
    height,
  };
  // The thumbnail: the snippet's picture in its theme, if make dist wrote it and it fits.
  const shade = theme === 'dark' ? 'dark' : 'light';
  const file = picture.pictureFile(state.view, shade, embed.snippetPicture(state.view, state).settings);
  const view = pictures?.views?.[picture.pictureView(state.view)];
  const entry = [view, ...(view?.settings ?? [])].map((p) => p?.[shade]).find((p) => p?.file === file);
  if (entry && entry.width <= (limits.maxwidth ?? Infinity) && entry.height <= (limits.maxheight ?? Infinity)) {
    Object.assign(json, {
      thumbnail_url: `${embed.releaseBase(page)}${picture.PICTURE_DIR}/${entry.file}`,
      thumbnail_width: entry.width,
      thumbnail_height: entry.height,
    });
  }
  return json;
}

const escapeAttr = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The oEmbed discovery <link> for the page at `pageUrl`, put at the end of its <head>. */
export function withDiscovery(html, pageUrl) {
  const origin = new URL(pageUrl).origin;
  const href = `${origin}/oembed?url=${encodeURIComponent(pageUrl)}&format=json`;
  const link = `<link rel="alternate" type="application/json+oembed" href="${escapeAttr(href)}" title="ropescope">`;
  return html.replace('</head>', `  ${link}\n</head>`);
}
