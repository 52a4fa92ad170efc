#!/usr/bin/env python3
"""Runs every case of a cases file (tests/diff/gen_cases.py) through build/librope.so
and compares with the expected values from tests/ref/reference.py.

    python3 tests/diff/diff_native.py build/cases.json [--lib build/librope.so]

Floats compare as abs(got - expect) <= abs_tol + rel_tol * abs(expect) with the
file's tolerance, never with ==; slow_pairs counts compare exactly. Every call
must return 0, leave its input arrays bit-for-bit unchanged and write nothing
past the end of its output buffer. A short fixed list of bad inputs must give
the documented ROPE_E_* codes. Prints each failure, the seed, and
"<n> passed, <m> failed"; exits 1 on any failure.
"""
import argparse
import ctypes
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_LIB = os.path.join(HERE, "..", "..", "build", "librope.so")

# rope.h's error codes.
E_DIM, E_BASE, E_POSITION, E_VALUE, E_LENGTH, E_COUNT = -1, -2, -3, -4, -5, -6
E_FAR, E_WORK = -11, -12
LIMIT_CODES = {"far": E_FAR, "work": E_WORK}
MAX_DIM = 65536

INT_RESULTS = {"slow_pairs", "slow_pairs_batch"}
# Extra slots after every output buffer; a write past the declared length shows up there.
GUARD = 8
GUARD_DOUBLE = -7.25e300
GUARD_INT = -123456789

D, I = ctypes.c_double, ctypes.c_int
PD, PI = ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_int)

# Every binding once, with rope.h's argument types.
SIGNATURES = {
    "rope_demo_vectors": [I, PD, PD],
    "rope_dot": [PD, I, PD, I, PD],
    "rope_norm": [PD, I, PD],
    "rope_thetas": [I, D, PD],
    "rope_rotate_pair": [D, D, D, PD],
    "rope_apply_rope": [PD, I, D, D, PD],
    "rope_score": [PD, I, PD, I, D, D, D, PD],
    "rope_sin_pos": [D, I, D, PD],
    "rope_add_score": [PD, I, PD, I, D, D, D, PD],
    "rope_offset_scan": [PD, I, PD, I, D, PD, I, D, PD],
    "rope_turns": [I, D, D, PD],
    "rope_slow_pairs": [I, D, D, PI],
    "rope_pair_angles": [I, D, D, PD],
    "rope_offset_sweep": [PD, I, PD, I, D, D, D, I, D, PD],
    "rope_slow_pairs_batch": [I, PD, I, D, PI],
    "rope_norm_gaps": [PD, I, PD, I, D, PD],
}


def load(path):
    lib = ctypes.CDLL(path)
    for name, argtypes in SIGNATURES.items():
        f = getattr(lib, name)
        f.argtypes = argtypes
        f.restype = I
    lib.rope_strerror.argtypes = [I]
    lib.rope_strerror.restype = ctypes.c_char_p
    return lib


class CallError(Exception):
    pass


class Call:
    """One C call: input arrays are snapshotted, outputs carry guard slots,
    and both are checked after the call."""

    def __init__(self, lib):
        self.lib = lib
        self.inputs = []
        self.outputs = []

    def vec(self, values):
        arr = (D * max(len(values), 1))(*values)
        self.inputs.append((arr, bytes(arr)))
        return arr

    def out(self, n, ctype=D):
        fill = GUARD_DOUBLE if ctype is D else GUARD_INT
        arr = (ctype * (n + GUARD))(*([fill] * (n + GUARD)))
        self.outputs.append((arr, n, fill))
        return arr

    def run(self, name, *args):
        rc = getattr(self.lib, name)(*args)
        problems = []
        for arr, before in self.inputs:
            if bytes(arr) != before:
                problems.append("%s modified an input array" % name)
        for arr, n, fill in self.outputs:
            if any(arr[j] != fill for j in range(n, n + GUARD)):
                problems.append("%s wrote past the %d values of its output" % (name, n))
        if problems:
            raise CallError("; ".join(problems))
        return rc


def c_function(fn):
    # rope_score already carries the prefix; every other name gains it.
    return fn if fn.startswith("rope_") else "rope_" + fn


def run_case(lib, fn, args):
    """Calls the C function for one case; returns (rc, value shaped like the reference's)."""
    c = Call(lib)
    name = c_function(fn)
    if fn == "demo_vectors":
        d = args[0]
        q, k = c.out(d), c.out(d)
        rc = c.run(name, d, q, k)
        return rc, [list(q[:d]), list(k[:d])]
    if fn == "dot":
        a, b = args
        out = c.out(1)
        return c.run(name, c.vec(a), len(a), c.vec(b), len(b), out), out[0]
    if fn == "norm":
        (a,) = args
        out = c.out(1)
        return c.run(name, c.vec(a), len(a), out), out[0]
    if fn == "thetas":
        d, base = args
        out = c.out(d // 2)
        return c.run(name, d, base, out), list(out[:d // 2])
    if fn in ("turns", "pair_angles"):
        d, x, base = args
        out = c.out(d // 2)
        return c.run(name, d, x, base, out), list(out[:d // 2])
    if fn == "slow_pairs":
        d, delta, base = args
        out = c.out(1, I)
        return c.run(name, d, delta, base, out), out[0]
    if fn == "rotate_pair":
        out = c.out(2)
        return c.run(name, *args, out), list(out[:2])
    if fn == "apply_rope":
        vec, pos, base = args
        out = c.out(len(vec))
        return c.run(name, c.vec(vec), len(vec), pos, base, out), list(out[:len(vec)])
    if fn in ("rope_score", "add_score"):
        q, k, m, n, base = args
        out = c.out(1)
        return c.run(name, c.vec(q), len(q), c.vec(k), len(k), m, n, base, out), out[0]
    if fn == "sin_pos":
        pos, d, base = args
        out = c.out(d)
        return c.run(name, pos, d, base, out), list(out[:d])
    if fn == "offset_scan":
        q, k, offset, starts, base = args
        n = len(starts)
        out = c.out(3 * n)
        rc = c.run(name, c.vec(q), len(q), c.vec(k), len(k), offset, c.vec(starts), n, base, out)
        return rc, [list(out[3 * j:3 * j + 3]) for j in range(n)]
    if fn == "offset_sweep":
        q, k, offset, start0, step, count, base = args
        out = c.out(3 * count)
        rc = c.run(name, c.vec(q), len(q), c.vec(k), len(k), offset, start0, step, count, base,
                   out)
        return rc, [list(out[0:count]), list(out[count:2 * count]), list(out[2 * count:3 * count])]
    if fn == "slow_pairs_batch":
        d, deltas, base = args
        out = c.out(len(deltas), I)
        rc = c.run(name, d, c.vec(deltas), len(deltas), base, out)
        return rc, list(out[:len(deltas)])
    if fn == "norm_gaps":
        vec, positions, base = args
        out = c.out(len(positions))
        rc = c.run(name, c.vec(vec), len(vec), c.vec(positions), len(positions), base, out)
        return rc, list(out[:len(positions)])
    raise CallError("no binding for %r" % (fn,))


def mismatch(got, expect, exact_ints, tol, path="result"):
    """The first difference between got and expect, or None."""
    if isinstance(expect, list):
        if not isinstance(got, list) or len(got) != len(expect):
            return "%s: expected a list of %d, got %s" % (
                path, len(expect), "a list of %d" % len(got) if isinstance(got, list) else got)
        for j, (g, e) in enumerate(zip(got, expect)):
            m = mismatch(g, e, exact_ints, tol, "%s[%d]" % (path, j))
            if m:
                return m
        return None
    if exact_ints:
        return None if got == expect else "%s: expected %r, got %r" % (path, expect, got)
    if not math.isfinite(got) or abs(got - expect) > tol["abs"] + tol["rel"] * abs(expect):
        return "%s: expected %r, got %r (diff %.3g)" % (path, expect, got, abs(got - expect))
    return None


def short(value, limit=400):
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "... (%d chars)" % len(text)


def bad_input_cases(lib):
    """(name, thunk, expected code): the documented rejections of rope.h."""
    nan, inf = float("nan"), float("inf")

    def scalar(fn, *args):
        c = Call(lib)
        return lambda: c.run(fn, *args, c.out(4))

    def vec_call(fn, build):
        def thunk():
            c = Call(lib)
            return c.run(fn, *build(c))
        return thunk

    two = [1.0, 2.0]
    return [
        ("thetas_should_reject_a_negative_dim", scalar("rope_thetas", -1, 1e4), E_DIM),
        ("thetas_should_reject_a_dim_above_the_maximum",
         lambda: Call(lib).run("rope_thetas", MAX_DIM + 1, 1e4, None), E_DIM),
        ("thetas_should_reject_a_zero_base", scalar("rope_thetas", 4, 0.0), E_BASE),
        ("thetas_should_reject_a_negative_base", scalar("rope_thetas", 4, -1.0), E_BASE),
        ("thetas_should_reject_a_nan_base", scalar("rope_thetas", 4, nan), E_BASE),
        ("thetas_should_reject_an_infinite_base", scalar("rope_thetas", 4, inf), E_BASE),
        ("turns_should_reject_a_nan_delta", scalar("rope_turns", 4, nan, 1e4), E_POSITION),
        ("slow_pairs_should_reject_an_infinite_delta",
         lambda: (lambda c: c.run("rope_slow_pairs", 4, inf, 1e4, c.out(1, I)))(Call(lib)),
         E_POSITION),
        ("pair_angles_should_reject_an_infinite_gap", scalar("rope_pair_angles", 4, -inf, 1e4),
         E_POSITION),
        ("sin_pos_should_reject_a_nan_position", scalar("rope_sin_pos", nan, 4, 1e4), E_POSITION),
        ("rotate_pair_should_reject_a_nan_angle", scalar("rope_rotate_pair", 1.0, 0.0, nan),
         E_POSITION),
        ("rotate_pair_should_reject_an_infinite_entry",
         scalar("rope_rotate_pair", inf, 0.0, 1.0), E_VALUE),
        ("dot_should_reject_mismatched_lengths",
         vec_call("rope_dot", lambda c: [c.vec(two), 2, c.vec([1.0]), 1, c.out(1)]), E_LENGTH),
        ("dot_should_reject_a_nan_entry",
         vec_call("rope_dot", lambda c: [c.vec([1.0, nan]), 2, c.vec(two), 2, c.out(1)]),
         E_VALUE),
        ("norm_should_reject_an_infinite_entry",
         vec_call("rope_norm", lambda c: [c.vec([inf]), 1, c.out(1)]), E_VALUE),
        ("apply_rope_should_reject_an_infinite_position",
         vec_call("rope_apply_rope", lambda c: [c.vec(two), 2, inf, 1e4, c.out(2)]), E_POSITION),
        ("apply_rope_should_reject_a_negative_length",
         vec_call("rope_apply_rope", lambda c: [c.vec(two), -2, 1.0, 1e4, c.out(2)]), E_DIM),
        ("rope_score_should_reject_mismatched_lengths",
         vec_call("rope_score", lambda c: [c.vec(two), 2, c.vec([1.0, 2.0, 3.0]), 3, 1.0, 0.0,
                                           1e4, c.out(1)]), E_LENGTH),
        ("add_score_should_reject_a_nan_position",
         vec_call("rope_add_score", lambda c: [c.vec(two), 2, c.vec(two), 2, 1.0, nan, 1e4,
                                               c.out(1)]), E_POSITION),
        ("offset_scan_should_reject_a_nan_start",
         vec_call("rope_offset_scan", lambda c: [c.vec(two), 2, c.vec(two), 2, 1.0,
                                                 c.vec([0.0, nan]), 2, 1e4, c.out(6)]),
         E_POSITION),
        ("offset_scan_should_reject_too_many_starts",
         vec_call("rope_offset_scan", lambda c: [c.vec(two), 2, c.vec(two), 2, 1.0,
                                                 c.vec([0.0]), MAX_DIM + 1, 1e4, c.out(3)]),
         E_COUNT),
        ("offset_sweep_should_reject_a_negative_count",
         vec_call("rope_offset_sweep", lambda c: [c.vec(two), 2, c.vec(two), 2, 1.0, 0.0, 1.0,
                                                  -1, 1e4, c.out(3)]), E_COUNT),
        ("offset_sweep_should_reject_an_infinite_step",
         vec_call("rope_offset_sweep", lambda c: [c.vec(two), 2, c.vec(two), 2, 1.0, 0.0, inf,
                                                  4, 1e4, c.out(12)]), E_POSITION),
        ("slow_pairs_batch_should_reject_a_nan_delta",
         vec_call("rope_slow_pairs_batch", lambda c: [4, c.vec([1.0, nan]), 2, 1e4,
                                                      c.out(2, I)]), E_POSITION),
        ("norm_gaps_should_reject_a_zero_base",
         vec_call("rope_norm_gaps", lambda c: [c.vec(two), 2, c.vec([1.0]), 1, 0.0, c.out(1)]),
         E_BASE),
        ("demo_vectors_should_reject_a_negative_dim",
         vec_call("rope_demo_vectors", lambda c: [-3, c.out(1), c.out(1)]), E_DIM),
    ]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases")
    parser.add_argument("--lib", default=os.environ.get("ROPE_LIB", DEFAULT_LIB))
    parser.add_argument("--dump", help="also write the native results here (JSON, one per case), "
                        "for the test that the wasm build gives the same bits")
    opts = parser.parse_args(argv)
    with open(opts.cases) as f:
        doc = json.load(f)
    tol = doc["tolerance"]
    lib = load(opts.lib)
    passed = failed = 0
    native_results = []

    def report_failure(title, detail):
        nonlocal failed
        failed += 1
        print("FAIL %s\n  %s" % (title, detail))

    for index, case in enumerate(doc["cases"]):
        fn, args, expect = case["fn"], case["args"], case["expect"]
        title = "%s_should_match_the_reference (case %d, args %s)" % (fn, index, short(args, 300))
        try:
            rc, got = run_case(lib, fn, args)
        except CallError as e:
            native_results.append(None)
            report_failure(title, str(e))
            continue
        native_results.append(got if rc == 0 else None)
        if rc != 0:
            report_failure(title, "returned %d (%s)" % (rc, lib.rope_strerror(rc).decode()))
            continue
        problem = mismatch(got, expect, fn in INT_RESULTS, tol)
        if problem:
            report_failure(title, problem)
        else:
            passed += 1

    def check_code(title, thunk, want):
        """thunk() must return the error code want."""
        nonlocal passed
        try:
            rc = thunk()
        except CallError as e:
            report_failure(title, str(e))
            return
        if rc != want:
            report_failure(title, "expected %d (%s), got %d (%s)" % (
                want, lib.rope_strerror(want).decode(), rc, lib.rope_strerror(rc).decode()))
        else:
            passed += 1

    for index, case in enumerate(doc.get("limit_cases", [])):
        fn, args, want = case["fn"], case["args"], LIMIT_CODES[case["error"]]
        title = "%s_should_refuse_past_its_limit (limit case %d, args %s)" % (
            fn, index, short(args, 200))
        check_code(title, lambda: run_case(lib, fn, args)[0], want)

    for name, thunk, want in bad_input_cases(lib):
        check_code(name, thunk, want)

    if opts.dump:
        # repr() of a float is its shortest round-trip form: JSON.parse gets the same double.
        with open(opts.dump, "w") as f:
            json.dump({"seed": doc.get("seed"), "results": native_results}, f)
    print("ROPE_TEST_SEED=%s (cases from %s)" % (doc.get("seed"), opts.cases))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
