// What an embed and its host say to each other about the embed's height (and, for a
// theme=inherit frame, the host's colours): the messages, the heights a host accepts, and the
// embed's side, which posts its height. Shared by the explorer's embed mode (embed.js) and the
// embed document (frame.js).

/** The message an embed posts to its host: { ropescope: 'height', height } (CSS px). */
export const HEIGHT_MESSAGE = 'height';
/** The host's question, { ropescope: 'height?' }: answered with HEIGHT_MESSAGE at once. */
export const HEIGHT_REQUEST = 'height?';
/** The host's colours for a theme=inherit frame, { ropescope: 'host', color, background, font,
 *  scheme } (ropescope-resize.js sends it; frame.js follows it), and the frame's question. */
export const HOST_MESSAGE = 'host';
export const HOST_REQUEST = 'host?';
// Heights the host accepts: anything else is a page that is not ours or a broken one.
export const MIN_HEIGHT = 100;
export const MAX_HEIGHT = 40000;

/**
 * Posts the content's height to the host page, now and whenever it changes (in a frame only):
 * the explorer's embed mode and the embed document (frame.js). The body is a flow root
 * (style.css, embed.css) and nothing in an embed is sized by the viewport, so this height does
 * not follow the iframe's: growing the iframe to it settles at once.
 */
export function reportHeight() {
  if (window.parent === window) return;
  let last = -1;
  const post = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    // The height is public: any host may read it ('*'); the host checks who sent it.
    window.parent.postMessage({ ropescope: HEIGHT_MESSAGE, height }, '*');
  };
  new ResizeObserver(post).observe(document.body);
  // A resizer that runs after the content settled (an async script from a slow host, a CMS
  // that defers scripts) missed every post: it asks, and gets the height again.
  window.addEventListener('message', (e) => {
    if (e.source !== window.parent || e.data?.ropescope !== HEIGHT_REQUEST) return;
    last = -1;
    post();
  });
  post();
}
