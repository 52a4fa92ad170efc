/*! ropescope-resize.js (MIT): fits every <iframe data-ropescope> to the height its figure posts. */
// Besides: it hides the snippet's picture (the link under the iframe, in the same grid cell of
// its <div data-ropescope-embed>) once the figure has drawn, shows it in place of a frame the
// page's policy refuses, and tells a theme=inherit figure the host's text colour, background,
// font and colour scheme (HOST_MESSAGE), which the frame follows (web/src/element/frame.js).
// The host page's half of the self-sizing embed, as a file rather than lines pasted after each
// iframe: a page loads it once (with script-src for its address, no 'unsafe-inline'), and it
// finds every iframe[data-ropescope] itself, whenever it was added and whatever a CMS put
// between the iframe and this script. A height is taken only from an iframe's own window and
// origin, only as a number within bounds; it is set through CSSOM (frame.style), which a
// style-src policy without 'unsafe-inline' allows, so the snippet needs no style= attribute.
// HEIGHT_MESSAGE, MIN_HEIGHT and MAX_HEIGHT are web/src/element/embed.js's (tests/js/embed.test.mjs
// checks that they agree). A classic script with no imports: it is served as it is.
(function () {
  'use strict';
  if (window.ropescopeResize) return; // loaded twice: the first copy already listens
  var HEIGHT_MESSAGE = 'height';
  var HEIGHT_REQUEST = 'height?';
  var MIN_HEIGHT = 100;
  var MAX_HEIGHT = 40000;
  var HOST_MESSAGE = 'host';
  var HOST_REQUEST = 'host?';
  window.ropescopeResize = Object.freeze({ message: HEIGHT_MESSAGE, min: MIN_HEIGHT, max: MAX_HEIGHT });

  function frameOf(source) {
    var frames = document.querySelectorAll('iframe[data-ropescope]');
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === source) return frames[i];
    }
    return null;
  }

  function originOf(frame) {
    try {
      return new URL(frame.src, window.location.href).origin;
    } catch (err) {
      return null;
    }
  }

  // Where the host's CSS sizes iframes by their border box (* { box-sizing: border-box }), the
  // height set holds the iframe's own borders and padding too: add them, so its viewport is the
  // content's height (else it falls short of it, with a scrollbar for good).
  function boxExtra(frame) {
    var cs = window.getComputedStyle(frame);
    if (cs.boxSizing !== 'border-box') return 0;
    var sum = 0;
    var sides = ['borderTopWidth', 'borderBottomWidth', 'paddingTop', 'paddingBottom'];
    for (var i = 0; i < sides.length; i++) sum += parseFloat(cs[sides[i]]) || 0;
    return sum;
  }

  // The snippet's box (embed.js's snippet): the picture and the iframe in one grid cell, set
  // again through the CSSOM, where a host's style-src refused the snippet's style= attributes.
  function pictureOf(frame) {
    var box = frame.parentElement;
    if (!box || !box.hasAttribute('data-ropescope-embed')) return null;
    return box.querySelector(':scope > [data-ropescope-picture]');
  }
  function layOut(frame) {
    var picture = pictureOf(frame);
    if (!picture) return;
    frame.parentElement.style.display = 'grid';
    frame.style.gridArea = '1 / 1';
    picture.style.gridArea = '1 / 1';
    picture.style.alignSelf = 'start';
  }

  // The host around a frame, for a theme=inherit figure: the text colour, font and colour scheme
  // the iframe element inherits, and the first background colour behind it that is not
  // transparent (the canvas's where none is: white, or dark under a dark colour scheme).
  function transparent(color) {
    return !color || color === 'transparent' || /^rgba\(.*,\s*0\)$/.test(color);
  }
  function hostStyle(frame) {
    var cs = window.getComputedStyle(frame);
    var background = '';
    for (var node = frame.parentElement; node && !background; node = node.parentElement) {
      var bg = window.getComputedStyle(node).backgroundColor;
      if (!transparent(bg)) background = bg;
    }
    if (!background) {
      var root = window.getComputedStyle(document.documentElement).colorScheme || '';
      var dark = /dark/.test(root) && (!/light/.test(root) || window.matchMedia('(prefers-color-scheme: dark)').matches);
      background = dark ? 'rgb(18, 18, 18)' : 'rgb(255, 255, 255)';
    }
    return {
      ropescope: HOST_MESSAGE,
      color: cs.color,
      background: background,
      font: cs.fontFamily,
      scheme: cs.colorScheme || 'normal',
    };
  }
  function inherits(frame) {
    try {
      return new URL(frame.src, window.location.href).searchParams.get('theme') === 'inherit';
    } catch (err) {
      return false;
    }
  }
  function tellHost(frame) {
    var origin = originOf(frame);
    if (origin && frame.contentWindow) frame.contentWindow.postMessage(hostStyle(frame), origin);
  }

  window.addEventListener('message', function (e) {
    var frame = e.source ? frameOf(e.source) : null;
    if (!frame || e.origin !== originOf(frame)) return;
    layOut(frame);
    var d = e.data;
    if (d && d.ropescope === HOST_REQUEST) {
      frame.dataset.ropescopeHost = '';
      tellHost(frame);
      return;
    }
    if (!d || d.ropescope !== HEIGHT_MESSAGE || typeof d.height !== 'number') return;
    if (!(d.height >= MIN_HEIGHT && d.height <= MAX_HEIGHT)) return;
    frame.style.height = Math.ceil(d.height) + boxExtra(frame) + 'px';
    // The figure has drawn: the live embed replaces its picture.
    var picture = pictureOf(frame);
    if (picture) picture.style.display = 'none';
    // A theme=inherit figure that asked before this script ran got no answer: tell it now.
    if (frame.dataset.ropescopeHost === undefined && inherits(frame)) {
      frame.dataset.ropescopeHost = '';
      tellHost(frame);
    }
  });
  // A reader who switches their colour scheme may switch the host's colours: tell the figures.
  if (window.matchMedia) {
    var scheme = window.matchMedia('(prefers-color-scheme: dark)');
    var again = function () {
      var told = document.querySelectorAll('iframe[data-ropescope][data-ropescope-host]');
      for (var i = 0; i < told.length; i++) tellHost(told[i]);
    };
    if (scheme.addEventListener) scheme.addEventListener('change', again);
  }

  // A frame the page's own policy refuses (its frame-src leaves out the explorer's address)
  // shows the browser's error page: hide it, so the snippet's picture under it shows; a snippet
  // of an earlier release has its picture in the <noscript> after the iframe: put it in its place. The picture is rebuilt from that markup, read inertly, as a link and an image
  // with their addresses and alt text only: nothing else of it is taken.
  var SAFE_URL = /^(https?:|data:image\/)/i;
  function pictureFor(frame) {
    var next = frame.nextElementSibling;
    if (!next || next.tagName !== 'NOSCRIPT') return null;
    var doc = new DOMParser().parseFromString(next.textContent, 'text/html');
    var link = doc.querySelector('a[href]');
    var img = link && link.querySelector('img[src]');
    if (!img || !SAFE_URL.test(link.getAttribute('href')) || !SAFE_URL.test(img.getAttribute('src'))) return null;
    var a = document.createElement('a');
    a.href = link.getAttribute('href');
    var picture = document.createElement('picture');
    var sources = link.querySelectorAll('picture > source[srcset]');
    for (var i = 0; i < sources.length; i++) {
      if (!SAFE_URL.test(sources[i].getAttribute('srcset'))) continue;
      var source = document.createElement('source');
      source.srcset = sources[i].getAttribute('srcset');
      if (sources[i].hasAttribute('media')) source.media = sources[i].getAttribute('media');
      picture.append(source);
    }
    var image = document.createElement('img');
    image.src = img.getAttribute('src');
    image.alt = img.getAttribute('alt') || '';
    // width="100%", as the snippet writes it: the column's width, with no style= needed.
    var width = img.getAttribute('width') || '';
    if (/^\d+%?$/.test(width)) image.setAttribute('width', width);
    picture.append(image);
    a.append(picture);
    return a;
  }
  function refused(url) {
    var frames = document.querySelectorAll('iframe[data-ropescope]');
    for (var i = 0; i < frames.length; i++) {
      var frame = frames[i];
      if (frame.dataset.ropescopeRefused !== undefined || !url) continue;
      var src;
      try {
        src = new URL(frame.src, window.location.href);
      } catch (err) {
        continue;
      }
      // A report names the address, or only its origin.
      if (url !== src.href && url !== src.origin && url.split('#')[0] !== src.href.split('#')[0]) continue;
      var under = pictureOf(frame);
      var picture = under ? null : pictureFor(frame);
      if (!under && !picture) continue;
      frame.dataset.ropescopeRefused = '';
      frame.style.display = 'none';
      if (under) under.style.display = '';
      else frame.after(picture);
    }
  }
  var FRAME_DIRECTIVES = /^(frame-src|child-src|default-src)/;
  document.addEventListener('securitypolicyviolation', function (e) {
    if (FRAME_DIRECTIVES.test(e.effectiveDirective || e.violatedDirective)) refused(e.blockedURI);
  });
  // Refusals before this script ran (it is async): the browser's reports, kept for us.
  if (window.ReportingObserver) {
    new window.ReportingObserver(
      function (reports) {
        for (var i = 0; i < reports.length; i++) {
          var body = reports[i].body;
          if (body && FRAME_DIRECTIVES.test(body.effectiveDirective || '')) refused(body.blockedURL);
        }
      },
      { types: ['csp-violation'], buffered: true },
    ).observe();
  }

  // A figure that drew before this script ran posted its height to no one: ask each one
  // loaded by now. One still loading posts when it draws, and the listener above hears it.
  // The question carries nothing, so any origin may receive it ('*': a frame still at
  // about:blank would turn a named origin into a console error).
  var frames = document.querySelectorAll('iframe[data-ropescope]');
  for (var i = 0; i < frames.length; i++) {
    layOut(frames[i]);
    if (frames[i].contentWindow) frames[i].contentWindow.postMessage({ ropescope: HEIGHT_REQUEST }, '*');
  }
})();
