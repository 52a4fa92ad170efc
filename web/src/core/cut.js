// A wasm module cut to what one view calls (tools/view_wasm.mjs writes it, for that view's
// one-view embed script): reading an export it lacks throws an error that names the export and
// what the module holds, not a bare "is not a function". Only a cut module's script imports this.

/** exports, where reading a `rope_` export they lack throws (`'rope_x' in exports` still answers). */
export function cutModule(exports, what, part) {
  return new Proxy(exports, {
    get(target, key) {
      if (key in target || typeof key !== 'string' || !key.startsWith('rope_')) return target[key];
      throw new Error(
        `${key} is not in this script's WebAssembly ${what}, which holds what ${part} calls; the explorer has every figure`,
      );
    },
  });
}
