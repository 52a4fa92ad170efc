// The plumbing of the core's two WebAssembly modules: rope.js's (the lesson's functions,
// build/rope.wasm) and files.js's (the config reader and the writers of the CLI's files,
// build/files.wasm). wasmModule(packed, what, onInstance) makes one module's instance from its
// inlined bytes and gives the one guarded path into it (run), its errors and its text reader.
// No RoPE math happens here.

import * as C from '../../gen/rope_consts.js';
import { isArrayLike, show } from './checks.js';
import { unpackBytes, unpackBytesNative } from './packed.js';

/**
 * One wasm module over packed (tools/pack.mjs's deflated base64). what: how its errors name it
 * ('core'). onInstance(exports or null) hears of every new instance and of a dropped one, so a
 * binding file can keep the current exports in a variable of its own. cut: for a module cut to
 * what one view calls (tools/view_wasm.mjs), wraps its exports (core/cut.js's cutModule), so a
 * call to an export it lacks throws an error naming the export. Returns { core, ready,
 * run, writeText, release, cString, CoreError, callCore }.
 */
export function wasmModule(packed, what, onInstance = () => {}, cut = null) {
  // The exports, instantiated synchronously from the inlined bytes (no server, no fetch) at the
  // first call that needs them, or by ready(). Every path into the module starts with core().
  let wasm = null;
  // The compiled module, kept so that a fresh instance after a trap costs no recompilation.
  let compiled = null;

  function set(exports) {
    wasm = exports;
    onInstance(exports);
  }

  function instantiate(bytes) {
    compiled ??= new WebAssembly.Module(bytes);
    const imports = { env: { emscripten_notify_memory_growth() {} } };
    const instance = new WebAssembly.Instance(compiled, imports);
    instance.exports._initialize?.();
    set(cut ? cut(instance.exports, what) : instance.exports);
    return wasm;
  }

  function core() {
    return wasm ?? (compiled ? instantiate(null) : instantiate(unpackBytes(packed)));
  }

  // The bytes inflated by the browser (packed.js, unpackBytesNative) rather than by fflate at
  // the first call; with { apart: true } compiled off the main thread and the instance made in
  // a later task. Rejects where the browser refuses WebAssembly.
  async function ready({ apart = false } = {}) {
    if (wasm || compiled) return;
    const bytes = await unpackBytesNative(packed);
    if (apart) compiled ??= await WebAssembly.compile(bytes);
    if (!wasm) instantiate(bytes); // a call may have made the instance while the bytes were inflated
  }

  function cString(ptr) {
    const heap = new Uint8Array(wasm.memory.buffer);
    let end = ptr;
    while (heap[end] !== 0) end++;
    return new TextDecoder().decode(heap.subarray(ptr, end));
  }

  // An argument in a core error: short arrays in full, long ones by length and largest |x|.
  function showArg(value) {
    if (!isArrayLike(value)) return show(value);
    if (value.length <= 4) return `[${Array.from(value, String).join(', ')}]`;
    let big = 0;
    for (const x of value) big = Math.max(big, Math.abs(x));
    return `${value.length} values, largest |x| ${big}`;
  }

  // A refusal by the core: the function, the core's text, and the call's arguments by name.
  class CoreError extends RangeError {
    constructor(fn, code, args = {}) {
      const shown = Object.entries(args)
        .map(([name, value]) => `${name} = ${showArg(value)}`)
        .join(', ');
      super(`${fn}: ${cString(wasm.rope_strerror(code))}${shown ? ` (${shown})` : ''}`);
      this.code = code;
    }
  }

  // Bytes per element of each output type. 'text' is a byte buffer read back as the
  // NUL-terminated UTF-8 string the core wrote into it.
  const OUT_BYTES = Object.freeze(Object.assign(Object.create(null), { f64: 8, i32: 4, text: 1 }));

  function readOut(ptr, count, type) {
    if (type === 'text') {
      const bytes = new Uint8Array(wasm.memory.buffer, ptr, count);
      const end = bytes.indexOf(0);
      return new TextDecoder().decode(bytes.slice(0, end < 0 ? count : end));
    }
    const View = type === 'i32' ? Int32Array : Float64Array;
    return Array.from(new View(wasm.memory.buffer, ptr, count));
  }

  /**
   * A trap inside the core (an out-of-bounds access, unreachable code). The instance that
   * trapped is dropped, since its heap may be half-written; the next call builds a fresh one
   * from the compiled module, so one bad call never poisons the calls after it.
   */
  class CoreTrapError extends Error {
    constructor(fn, err) {
      super(`${fn}: the WebAssembly ${what} stopped (${err.message}); it was restarted, so later calls work`);
      this.name = 'CoreTrapError';
      this.cause = err;
    }
  }

  // err as thrown to the caller: a trap of instance w drops it (see CoreTrapError).
  function afterTrap(fn, w, err) {
    if (!(err instanceof WebAssembly.RuntimeError)) return err;
    if (wasm === w) set(null);
    return new CoreTrapError(fn, err);
  }

  // Frees pointers in instance w, unless w trapped and was dropped.
  function release(fn, w, pointers) {
    if (wasm !== w) return;
    try {
      for (const ptr of pointers) w.free(ptr);
    } catch (err) {
      throw afterTrap(fn, w, err);
    }
  }

  /**
   * The one path into the core. ins: snapshots (Float64Arrays, or arrays the binding made)
   * copied in as doubles (strings as C strings). outs: [count, type] buffers
   * the core fills (type 'f64' | 'i32' | 'text'). call(...pointers) gets the ins' pointers then
   * the outs' and returns the core's code. A code other than 0 throws a CoreError naming fn,
   * unless it is listed in tolerate; then the outputs are still read and the code comes back
   * as the result's .code. Results are copied out as plain arrays; every buffer is freed in
   * finally. Any malloc can grow memory, which detaches every earlier view of it: a view is
   * taken only after the allocation it writes into, and never kept across a call.
   */
  function run(fn, ins, outs, call, { tolerate = [], args = {} } = {}) {
    const w = core();
    const pointers = [];
    const alloc = (bytes) => {
      const ptr = w.malloc(Math.max(bytes, 8));
      if (!ptr) throw new CoreError(fn, C.ROPE_E_NOMEM, { ...args, bytes });
      pointers.push(ptr);
      return ptr;
    };
    try {
      for (const values of ins) {
        if (typeof values === 'string' || values instanceof Uint8Array) {
          // Text as UTF-8, or bytes as they are (a config file's); a NUL after either.
          const bytes = typeof values === 'string' ? new TextEncoder().encode(values) : values;
          const ptr = alloc(bytes.length + 1);
          const heap = new Uint8Array(w.memory.buffer, ptr, bytes.length + 1);
          heap.set(bytes);
          heap[bytes.length] = 0;
        } else {
          const n = values.length; // a snapshot: the same length at every read
          const ptr = alloc(n * 8);
          new Float64Array(w.memory.buffer, ptr, n).set(values);
        }
      }
      for (const [count, type] of outs) alloc(count * OUT_BYTES[type]);
      const code = call(...pointers);
      if (code !== 0 && !tolerate.includes(code)) throw new CoreError(fn, code, args);
      let results;
      try {
        results = outs.map(([count, type], i) => readOut(pointers[ins.length + i], count, type));
      } catch (err) {
        // An output too large for a JS array (within MAX_WORK, a 2 GB cos_grid) is out of memory too.
        if (err instanceof RangeError) throw new CoreError(fn, C.ROPE_E_NOMEM, args);
        throw err;
      }
      results.code = code;
      return results;
    } catch (err) {
      throw afterTrap(fn, w, err);
    } finally {
      release(fn, w, pointers);
    }
  }

  /**
   * For tests: call(exports) on the same guarded path as every binding, so a forced trap
   * (an out-of-bounds pointer) shows what a real one does. Returns call's result.
   */
  function callCore(fn, call) {
    const w = core();
    try {
      return call(w);
    } catch (err) {
      throw afterTrap(fn, w, err);
    }
  }

  // A text the module writes (write(...ins' pointers, buf, lenPtr, cap)) into a 64 KB buffer; a
  // longer one (ROPE_E_SPACE, with the length it needs) is written again into a buffer that
  // fits. Returns the text, or the code of a refusal in tolerate (any other throws).
  function writeText(fn, ins, write, tolerate, args) {
    for (let cap = 1 << 16; ; ) {
      const result = run(
        fn,
        ins,
        [
          [cap, 'text'],
          [1, 'i32'],
        ],
        (...p) => write(...p, cap),
        { tolerate: [...tolerate, C.ROPE_E_SPACE], args },
      );
      const [text, [len]] = result;
      if (result.code === 0) return text;
      if (result.code !== C.ROPE_E_SPACE || !(len + 1 > cap)) return result.code;
      cap = len + 1;
    }
  }

  return { core, ready, run, writeText, release, cString, CoreError, callCore };
}
