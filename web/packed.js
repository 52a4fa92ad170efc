// Unpacks the generated modules' inlined data (the wasm bytes, the formulas' MathML): raw
// deflate in base64, written by tools/pack.mjs at build time. Deflating halves the wasm and
// shrinks the MathML sevenfold, and inflating a few tens of KB once at load takes well under
// a millisecond. fflate (MIT) does the inflating, synchronously, so importing rope.js still
// needs no server, no fetch and no await. make writes vendor/inflate.js from the npm package
// (tools/pack.mjs's rule), so the modules also load one by one, unbundled.
import { inflateSync } from './vendor/inflate.js';

/** The bytes that tools/pack.mjs deflated into `base64`. */
export function unpackBytes(base64) {
  return inflateSync(base64Bytes(base64));
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
