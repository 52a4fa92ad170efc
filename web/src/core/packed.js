// Unpacks the generated modules' inlined data (the wasm bytes, the formulas' MathML): raw
// deflate in base64, written by tools/pack.mjs at build time. Deflating halves the wasm and
// shrinks the MathML sevenfold. fflate (MIT) inflates synchronously, so importing a module
// needs no server, no fetch and no await; warm, it takes well under a millisecond, but its
// first run is cold code (10-17 ms for the wasm on make bench's machine), so the page has the
// browser inflate the wasm instead (unpackBytesNative, through rope.js's ready()). make writes
// vendor/inflate.js from the npm package (tools/vendor_inflate.mjs), so the modules also load one
// by one, unbundled; fflate's set-up runs at its first call, so a page that never calls it
// never pays for it.
import { inflateSync } from '../../vendor/inflate.js';

/** The bytes that tools/pack.mjs deflated into `base64`. */
export function unpackBytes(base64) {
  return inflateSync(base64Bytes(base64));
}

/**
 * The same bytes, inflated by the browser's own DecompressionStream where it has one (with
 * 'deflate-raw'), else by fflate. A stream fed from memory settles within the microtask
 * checkpoint that follows the calling script, so awaiting it lets no frame or task in; it takes
 * ~1 ms for the wasm module where fflate's first run, cold, takes 10-17 ms (make bench's machine).
 */
export async function unpackBytesNative(base64) {
  const packed = base64Bytes(base64);
  if (typeof DecompressionStream !== 'function') return inflateSync(packed);
  try {
    const source = new ReadableStream({
      start(controller) {
        controller.enqueue(packed);
        controller.close();
      },
    });
    const reader = source.pipeThrough(new DecompressionStream('deflate-raw')).getReader();
    const parts = [];
    let length = 0;
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      parts.push(part.value);
      length += part.value.length;
    }
    const bytes = new Uint8Array(length);
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.length;
    }
    return bytes;
  } catch {
    return inflateSync(packed); // no 'deflate-raw' in this browser's DecompressionStream
  }
}

// base64 -> bytes: natively where the browser has Uint8Array.fromBase64, else atob and a
// plain loop (Uint8Array.from with a mapping callback costs a call per byte, ~10 ms for the
// wasm module on a small machine).
function base64Bytes(base64) {
  return typeof Uint8Array.fromBase64 === 'function' ? Uint8Array.fromBase64(base64) : binaryBytes(atob(base64));
}

function binaryBytes(binary) {
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The JSON value that tools/pack.mjs deflated into `base64`. */
export function unpackJson(base64) {
  return JSON.parse(new TextDecoder().decode(unpackBytes(base64)));
}
