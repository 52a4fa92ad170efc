#!/usr/bin/env python3
"""The explainer functions of build/librope.so (c_src/explain/explain.h) against the
independent reference tests/ref/ref_explain.py.

    python3 tests/diff/diff_explain.py build/explain_cases.json [--lib build/librope.so]

Runs every case of the file (random, fresh each run), then property checks on
new random inputs from the file's seed: the blog's worked numbers to 4
decimals, per-pair terms summing to rope_score, the additive terms summing to
add_score, heatmap cells against cos(p theta_i) with theta_i from rope_thetas,
envelope extremes against a dense rope_offset_scan, and bad inputs giving
their ROPE_E_* codes. Every call must leave nothing written past its output.
With --dump, the native results go to a file for the wasm test to compare
bit for bit. Prints failures, the seed and "<n> passed, <m> failed"; exits 1 on a failure.
"""
import argparse
import ctypes
import json
import math
import os
import random
import sys

sys.dont_write_bytecode = True  # keep tests/ free of __pycache__
# The folders beside this one that it imports from: tests/lib, tests/ref.
sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("lib", "ref")]
import ref_explain  # noqa: E402
import testlib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_LIB = os.path.join(HERE, "..", "..", "build", "librope.so")

E_DIM, E_BASE, E_POSITION, E_VALUE, E_LENGTH, E_COUNT, E_NULL = -1, -2, -3, -4, -5, -6, -7
E_FAR, E_WORK = -11, -12
GUARD = 8
GUARD_VALUE = -7.25e300

D, I, U = ctypes.c_double, ctypes.c_int, ctypes.c_uint32
PD = ctypes.POINTER(ctypes.c_double)
SIGNATURES = {
    "rope_pair_example": [D, D, D, D, D, D, D, PD],
    "rope_pair_terms": [PD, I, PD, I, D, D, D, PD],
    "rope_add_terms": [PD, I, PD, I, D, PD, I, D, PD],
    "rope_add_terms_sweep": [PD, I, PD, I, D, D, D, I, D, PD],
    "rope_decay": [PD, I, PD, I, PD, I, I, U, D, PD],
    "rope_cos_grid": [I, PD, I, D, PD],
    "rope_random_vectors": [I, U, PD, PD],
    "rope_offset_envelope": [PD, I, PD, I, D, D, D, I, D, PD],
    "rope_offset_scan": [PD, I, PD, I, D, PD, I, D, PD],
    "rope_add_score": [PD, I, PD, I, D, D, D, PD],
    "rope_thetas": [I, D, PD],
}


def load(path):
    lib = ctypes.CDLL(path)
    for name, argtypes in SIGNATURES.items():
        getattr(lib, name).argtypes = argtypes
        getattr(lib, name).restype = I
    return lib


def arr(values):
    return (D * max(len(values), 1))(*values)


class Out:
    """An output buffer of n doubles with guard slots after it."""

    def __init__(self, n):
        self.n = n
        self.buf = (D * (n + GUARD))(*([GUARD_VALUE] * (n + GUARD)))

    def values(self):
        if any(self.buf[j] != GUARD_VALUE for j in range(self.n, self.n + GUARD)):
            raise AssertionError("wrote past the %d values of its output" % self.n)
        return list(self.buf[:self.n])


def call(lib, fn, args):
    """Runs one case through C; returns (code, flat values as ref_explain lays them out)."""
    if fn == "pair_example":
        q, k, m, n, theta = args
        out = Out(11)
        return lib.rope_pair_example(q[0], q[1], k[0], k[1], m, n, theta, out.buf), out.values()
    if fn == "pair_terms":
        q, k, m, n, base = args
        out = Out(3 * (len(q) // 2) + 2)
        rc = lib.rope_pair_terms(arr(q), len(q), arr(k), len(k), m, n, base, out.buf)
        return rc, out.values()
    if fn == "add_terms":
        q, k, offset, starts, base = args
        out = Out(5 * len(starts))
        rc = lib.rope_add_terms(arr(q), len(q), arr(k), len(k), offset, arr(starts), len(starts),
                                base, out.buf)
        return rc, out.values()
    if fn == "add_terms_sweep":
        q, k, offset, start0, step, count, base = args
        out = Out(5 * count)
        rc = lib.rope_add_terms_sweep(arr(q), len(q), arr(k), len(k), offset, start0, step, count,
                                      base, out.buf)
        return rc, out.values()
    if fn == "decay":
        q, k, distances, samples, seed, base = args
        out = Out(3 * len(distances))
        rc = lib.rope_decay(arr(q), len(q), arr(k), len(k), arr(distances), len(distances),
                            samples, seed, base, out.buf)
        return rc, out.values()
    if fn == "cos_grid":
        d, positions, base = args
        out = Out((d // 2) * len(positions))
        return lib.rope_cos_grid(d, arr(positions), len(positions), base, out.buf), out.values()
    if fn == "random_vectors":
        d, seed = args
        q, k = Out(d), Out(d)
        return lib.rope_random_vectors(d, seed, q.buf, k.buf), q.values() + k.values()
    if fn == "offset_envelope":
        q, k, offset, lo, hi, bins, base = args
        out = Out(6 * bins)
        rc = lib.rope_offset_envelope(arr(q), len(q), arr(k), len(k), offset, lo, hi, bins, base,
                                      out.buf)
        return rc, out.values()
    raise ValueError(fn)


def mismatch(got, want, exact):
    if len(got) != len(want):
        return "expected %d values, got %d" % (len(want), len(got))
    for j, (g, w) in enumerate(zip(got, want)):
        ok = (g == w) if exact else (math.isfinite(g) and testlib.close(g, w))
        if not ok:
            return "[%d]: expected %r, got %r" % (j, w, g)
    return None


def run_cases(lib, doc, t):
    """Returns the native results, None where a call failed."""
    results = []
    for index, c in enumerate(doc["cases"]):
        got = None
        try:
            rc, got = call(lib, c["fn"], c["args"])
            problem = "code %d" % rc if rc else mismatch(got, c["expect"],
                                                         c["fn"] == "random_vectors")
        except AssertionError as e:
            problem = str(e)
        t.check(problem is None, "case %d %s%s: %s" % (index, c["fn"], json.dumps(c["args"])[:200],
                                                       problem))
        results.append(got if problem is None else None)
    return results


def check_blog_numbers(lib, t):
    """The worked example: cat = [0.9, 0.4], theta = 0.1, at 3 and 7 and at 10 and 14."""
    cat = [0.9, 0.4]
    for m, n in ((3, 7), (10, 14)):
        rc, v = call(lib, "pair_example", [cat, cat, m, n, 0.1])
        t.check(rc == 0 and all(round(v[j], 4) == 0.8934 for j in (9, 10)),
                "blog score at %d, %d: %r" % (m, n, v[9:11]))
    rc, v = call(lib, "pair_example", [cat, cat, 3, 7, 0.1])
    t.check([round(x, 4) for x in v[:4]] == [0.7416, 0.6481, 0.4307, 0.8857],
            "blog rotated cat at 3 and 7: %r" % v[:4])


def check_properties(lib, rng, t):
    for _ in range(30):
        d = rng.choice([1, 2, 5, 8, 64, 128])
        base = rng.choice([10000.0, 500000.0, rng.uniform(2, 1e6)])
        q, k = ref_explain.vec(rng, d), ref_explain.vec(rng, d)
        n = rng.uniform(0, 4096)
        m = n + rng.uniform(-4096, 4096)
        rc, v = call(lib, "pair_terms", [q, k, m, n, base])
        h = d // 2
        t.check(rc == 0 and testlib.close(v[3 * h], v[3 * h + 1]),
                "pair terms sum %r vs rope_score %r (d %d)" % (v[3 * h], v[3 * h + 1], d))
        starts = [rng.uniform(0, 4096) for _ in range(5)]
        offset = rng.uniform(-50, 50)
        rc, v = call(lib, "add_terms", [q, k, offset, starts, base])
        for j, s in enumerate(starts):
            four = sum(v[b * 5 + j] for b in range(4))
            direct = D()
            lib.rope_add_score(arr(q), d, arr(k), d, s + offset, s, base, ctypes.byref(direct))
            t.check(rc == 0 and testlib.close(four, direct.value) and v[20 + j] == direct.value,
                    "additive terms %r / %r vs add_score %r" % (four, v[20 + j], direct.value))
        positions = [rng.uniform(-1e5, 1e5) for _ in range(7)]
        rc, grid = call(lib, "cos_grid", [d, positions, base])
        th = Out(h)
        lib.rope_thetas(d, base, th.buf)
        cells = [math.cos(p * x) for x in th.values() for p in positions]
        t.check(rc == 0 and mismatch(grid, cells, False) is None, "cos grid vs cos(p theta)")
        check_envelope(lib, rng, q, k, base, t)


def check_envelope(lib, rng, q, k, base, t):
    """The drawn extremes against every integer start scanned densely by rope_offset_scan."""
    d, offset = len(q), rng.uniform(-10, 10)
    lo = rng.uniform(0, 3000)
    hi = lo + rng.uniform(1, 2000)
    starts = list(range(math.ceil(lo), math.floor(hi) + 1))
    bins = rng.randint(1, min(len(starts), 300))
    rc, env = call(lib, "offset_envelope", [q, k, offset, lo, hi, bins, base])
    dense = Out(3 * len(starts))
    rc2 = lib.rope_offset_scan(arr(q), d, arr(k), d, offset, arr(starts), len(starts), base,
                               dense.buf)
    rows = dense.values()
    want = [[None] * bins for _ in range(6)]
    for j, s in enumerate(starts):
        b, r, a = j * bins // len(starts), rows[3 * j + 1], rows[3 * j + 2]
        w = [x[b] for x in want]
        want[0][b] = s if w[0] is None else w[0]
        want[1][b] = s
        want[2][b] = r if w[2] is None else min(w[2], r)
        want[3][b] = r if w[3] is None else max(w[3], r)
        want[4][b] = a if w[4] is None else min(w[4], a)
        want[5][b] = a if w[5] is None else max(w[5], a)
    flat = [float(x) for block in want for x in block]
    problem = "codes %d %d" % (rc, rc2) if rc or rc2 else mismatch(env, flat, False)
    t.check(problem is None, "envelope d %d [%r, %r] bins %d vs dense scan: %s"
            % (d, lo, hi, bins, problem))


def check_bad_inputs(lib, t):
    nan, inf, far = float("nan"), float("inf"), 2e10
    q, k = arr([1.0, 2.0, 3.0, 4.0]), arr([0.5, -1.0, 2.0, 1.0])
    out = Out(600)
    big = arr([1.0] * 65536)
    null = None
    cases = [
        ("pair_example NaN q0", lib.rope_pair_example(nan, 0, 1, 0, 1, 2, 0.1, out.buf), E_VALUE),
        ("pair_example NaN m", lib.rope_pair_example(1, 0, 1, 0, nan, 2, 0.1, out.buf), E_POSITION),
        # pair_example's far check is on the angle n theta (theta is given, not a base).
        ("pair_example far n", lib.rope_pair_example(1, 0, 1, 0, 1, -far, 0.6, out.buf), E_FAR),
        ("pair_example near angle", lib.rope_pair_example(1, 0, 1, 0, 1, -far, 0.01, out.buf),
         0),
        ("pair_terms base 1", lib.rope_pair_terms(q, 4, k, 4, 1, 2, 1.0, out.buf), E_BASE),
        ("pair_terms base 1e-300", lib.rope_pair_terms(q, 4, k, 4, 1, 2, 1e-300, out.buf), E_BASE),
        ("pair_example inf theta", lib.rope_pair_example(1, 0, 1, 0, 1, 2, inf, out.buf),
         E_POSITION),
        ("pair_example NULL", lib.rope_pair_example(1, 0, 1, 0, 1, 2, 0.1, null), E_NULL),
        ("pair_terms length", lib.rope_pair_terms(q, 4, k, 3, 1, 2, 1e4, out.buf), E_LENGTH),
        ("pair_terms far m", lib.rope_pair_terms(q, 4, k, 4, far, 2, 1e4, out.buf), E_FAR),
        ("pair_terms base", lib.rope_pair_terms(q, 4, k, 4, 1, 2, -1, out.buf), E_BASE),
        ("pair_terms NULL q", lib.rope_pair_terms(null, 4, k, 4, 1, 2, 1e4, out.buf), E_NULL),
        ("add_terms NaN start", lib.rope_add_terms(q, 4, k, 4, 1, arr([1, nan]), 2, 1e4, out.buf),
         E_POSITION),
        ("add_terms far start+offset",
         lib.rope_add_terms(q, 4, k, 4, 10, arr([1e10]), 1, 1e4, out.buf), E_FAR),
        ("add_terms work", lib.rope_add_terms(big, 8192, big, 8192, 1, big, 65536, 1e4, out.buf),
         E_WORK),
        ("add_terms count", lib.rope_add_terms(q, 4, k, 4, 1, big, -1, 1e4, out.buf), E_COUNT),
        ("add_terms_sweep far end",
         lib.rope_add_terms_sweep(q, 4, k, 4, 1, 0, 1e9, 12, 1e4, out.buf), E_FAR),
        ("add_terms_sweep NaN step",
         lib.rope_add_terms_sweep(q, 4, k, 4, 1, 0, nan, 2, 1e4, out.buf), E_POSITION),
        ("add_terms_sweep count",
         lib.rope_add_terms_sweep(q, 4, k, 4, 1, 0, 1, 65537, 1e4, out.buf), E_COUNT),
        ("add_terms_sweep work",
         lib.rope_add_terms_sweep(big, 8192, big, 8192, 1, 0, 1, 65536, 1e4, out.buf), E_WORK),
        ("decay samples 0", lib.rope_decay(q, 4, k, 4, arr([1]), 1, 0, 1, 1e4, out.buf), E_COUNT),
        ("decay far", lib.rope_decay(q, 4, k, 4, arr([far]), 1, 1, 1, 1e4, out.buf), E_FAR),
        ("decay inf", lib.rope_decay(q, 4, k, 4, arr([inf]), 1, 1, 1, 1e4, out.buf), E_POSITION),
        ("decay work", lib.rope_decay(big, 8192, big, 8192, arr([1]), 1, 65536, 1, 1e4, out.buf),
         E_WORK),
        ("decay NaN q", lib.rope_decay(arr([nan, 1]), 2, k, 2, arr([1]), 1, 1, 1, 1e4, out.buf),
         E_VALUE),
        ("cos_grid dim", lib.rope_cos_grid(-2, arr([1]), 1, 1e4, out.buf), E_DIM),
        ("cos_grid far", lib.rope_cos_grid(4, arr([-far]), 1, 1e4, out.buf), E_FAR),
        ("cos_grid work", lib.rope_cos_grid(65536, big, 65536, 1e4, out.buf), E_WORK),
        ("cos_grid NULL", lib.rope_cos_grid(4, arr([1]), 1, 1e4, null), E_NULL),
        ("random_vectors dim", lib.rope_random_vectors(65537, 1, out.buf, out.buf), E_DIM),
        ("random_vectors NULL", lib.rope_random_vectors(4, 1, null, out.buf), E_NULL),
        ("envelope bins > starts", lib.rope_offset_envelope(q, 4, k, 4, 2, 0.5, 3.5, 4, 1e4,
                                                            out.buf), E_COUNT),
        ("envelope empty range", lib.rope_offset_envelope(q, 4, k, 4, 2, 10, 5, 1, 1e4, out.buf),
         E_COUNT),
        ("envelope far", lib.rope_offset_envelope(q, 4, k, 4, 2, 0, far, 1, 1e4, out.buf), E_FAR),
        ("envelope NaN offset", lib.rope_offset_envelope(q, 4, k, 4, nan, 0, 9, 1, 1e4, out.buf),
         E_POSITION),
        ("envelope work", lib.rope_offset_envelope(big, 4096, big, 4096, 2, 0, 1e6, 100, 1e4,
                                                   out.buf), E_WORK),
        ("envelope NULL", lib.rope_offset_envelope(q, 4, k, 4, 2, 0, 9, 1, 1e4, null), E_NULL),
    ]
    for what, got, want in cases:
        t.check(got == want, "%s: expected code %d, got %d" % (what, want, got))
    t.check(out.values() is not None, "bad inputs wrote past the output")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases")
    ap.add_argument("--lib", default=DEFAULT_LIB)
    ap.add_argument("--dump", help="write the native results here (the wasm test compares bits)")
    args = ap.parse_args()
    with open(args.cases) as f:
        doc = json.load(f)
    print("diff_explain: ROPE_TEST_SEED=%d (from %s)" % (doc["seed"], args.cases))
    lib = load(args.lib)
    t = testlib.Tally()
    results = run_cases(lib, doc, t)
    if args.dump:
        with open(args.dump, "w") as f:
            json.dump({"seed": doc["seed"], "results": results}, f)
    check_blog_numbers(lib, t)
    check_properties(lib, random.Random(doc["seed"] + 1), t)
    check_bad_inputs(lib, t)
    print("diff_explain: %d passed, %d failed" % (t.passed, t.failed))
    sys.exit(1 if t.failed else 0)


if __name__ == "__main__":
    main()
