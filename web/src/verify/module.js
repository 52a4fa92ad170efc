// The verify module (build/verify.wasm: c_src/verify/page.c and the CLI's own steps), its bytes
// inlined in this script (deflated, base64), so it needs no server and no fetch. One call checks
// the files in memory and gives back what `ropescope verify --format json` prints, or the one
// line it prints for bad input.
import { WASM_PACKED } from '../../gen/verify_wasm.js';
import { unpackBytesNative } from '../core/packed.js';

// The roles in page.c's order: config first, then the dump's (c_src/verify/run.h).
export const ROLES = Object.freeze(['config', 'inv', 'cos', 'sin', 'cache', 'cos_sin_cache', 'embed_positions']);
const CODES = Object.freeze(['match', 'mismatch', 'bad input', 'out of memory']);

let compiled = null;

/** Compiles the module once (the browser inflates its bytes). */
async function module() {
  compiled ??= new WebAssembly.Module(await unpackBytesNative(WASM_PACKED));
  return compiled;
}

// A fresh instance per check: the readers' memory goes with it, and a trap cannot leave a
// half-written heap behind for the next check.
function instance(compiledModule) {
  const imports = { env: { emscripten_notify_memory_growth() {} } };
  const made = new WebAssembly.Instance(compiledModule, imports);
  made.exports._initialize?.();
  return made.exports;
}

/**
 * Checks files: { config, inv, cos, sin, cache, cos_sin_cache, embed_positions }, each { name, bytes: Uint8Array } or absent;
 * positions, seqLen and layerType (--layer-type's name) as typed ('' for none). Returns { code: 0 match | 1 mismatch | 2 bad
 * input | 3 out of memory, verdict (those words), json (the CLI's text, codes 0 and 1), line
 * (the CLI's stderr line, codes 2 and 3), pairs (each pair's worst |error| / tolerance), warnings
 * (the config's, as the CLI's stderr lines) }.
 */
export async function verifyFiles(files, { positions = '', seqLen = '', layerType = '' } = {}) {
  const w = instance(await module());
  const enc = new TextEncoder();
  // Every string and file goes in NUL-terminated (the config's text is read as a C string).
  const put = (bytes) => {
    const ptr = w.malloc(bytes.length + 1);
    const heap = new Uint8Array(w.memory.buffer, ptr, bytes.length + 1);
    heap.set(bytes);
    heap[bytes.length] = 0;
    return ptr;
  };
  const text = (s) => (s === '' ? 0 : put(enc.encode(s)));
  const n = ROLES.length;
  // names, buffers and lengths, n of each; a malloc may grow the memory, which detaches every
  // view of it: each value is made before the view that stores it.
  const slots = ROLES.flatMap((role) => {
    const file = files[role];
    return file ? [text(file.name), put(file.bytes), file.bytes.length] : [0, 0, 0];
  });
  const table = w.malloc(4 * (3 * n + 4));
  const u32 = new Uint32Array(w.memory.buffer);
  for (let k = 0; k < n; k++) for (let j = 0; j < 3; j++) u32[table / 4 + j * n + k] = slots[3 * k + j];
  const out = table + 12 * n; // code, pairs, n_pairs, warnings
  const [from, seq, layer] = [text(positions), text(seqLen), text(layerType)];
  const result = w.rope_verify_page(
    table,
    table + 4 * n,
    table + 8 * n,
    from,
    seq,
    layer,
    out,
    out + 4,
    out + 8,
    out + 12,
  );
  const [code, pairsPtr, nPairs, warned] = new Uint32Array(w.memory.buffer, out, 4);
  const pairs = Array.from(new Float64Array(w.memory.buffer, pairsPtr, nPairs));
  const cString = (ptr) => {
    const bytes = new Uint8Array(w.memory.buffer, ptr);
    return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
  };
  const said = result ? cString(result) : 'out of memory';
  const warnings = warned ? cString(warned).split('\n').filter(Boolean) : [];
  const json = code <= 1 ? said : null;
  return { code, verdict: CODES[code], json, line: json === null ? `ropescope: ${said}` : null, pairs, warnings };
}
