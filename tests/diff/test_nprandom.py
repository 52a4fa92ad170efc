#!/usr/bin/env python3
"""c_src/nprandom/nprandom.h against NumPy itself (Debian's python3-numpy):

    python3 tests/diff/test_nprandom.py [--lib build/librope.so ...]

The claim of that code is bit-identity with NumPy: rope_np_normal(seed) must
give the very doubles np.random.default_rng(seed).normal(size=n) gives. So,
here only, draws are compared for exact equality (their bytes), never with a
tolerance: any difference at all is the bug this test exists to find. Each
stage is checked on its own too (SeedSequence words, PCG64's raw outputs), on
seed 42, edge seeds and fresh random 64-bit seeds each run (from
ROPE_TEST_SEED, printed), at many sizes, and one long run that must reach the
ziggurat's tail. The ziggurat tables are checked against their definition;
the blog's 512-dimension example against the post's own code run with NumPy
(to the contract's tolerance: that score is RoPE math, not a draw). Every
--lib is tested (the Makefile passes the build without __int128 too).
Prints failures and "<n> passed, <m> failed"; exits 1 on a failure.
"""
import argparse
import ctypes
import math
import os
import random
import re
import sys

import numpy as np

sys.dont_write_bytecode = True  # keep tests/ free of __pycache__
# The folders beside this one that it imports from: tests/lib.
sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("lib",)]
import testlib  # noqa: E402

E_DIM, E_BASE, E_POSITION, E_VALUE, E_COUNT, E_NULL, E_FAR, E_WORK = -1, -2, -3, -4, -6, -7, -11, -12
MAX_WORK = 268435456
GUARD = 4
GUARD_VALUE = -7.25e300
ZIGGURAT_SOURCE = os.path.join(testlib.ROOT, "c_src", "nprandom", "np_ziggurat.c")
TAIL_START = 3.6541528853610088  # only the ziggurat's tail gives |x| beyond it

U64 = ctypes.c_uint64
PU64 = ctypes.POINTER(ctypes.c_uint64)
PD = ctypes.POINTER(ctypes.c_double)
SIGNATURES = {
    "rope_np_seed_words": [U64, PU64],
    "rope_np_raw": [U64, PU64, ctypes.c_int],
    "rope_np_normal": [U64, PD, ctypes.c_int],
    "rope_np_log1p": [ctypes.c_double, PD],
    "rope_planes_example": [U64, ctypes.c_int, ctypes.c_double, ctypes.c_double,
                            ctypes.c_double, PD, PD],
}


def load(path):
    lib = ctypes.CDLL(path)
    for name, argtypes in SIGNATURES.items():
        getattr(lib, name).argtypes = argtypes
        getattr(lib, name).restype = ctypes.c_int
    return lib


class Buffer:
    """n values with GUARD sentinels after them, to catch writes past the end."""

    def __init__(self, n, dtype):
        self.n = n
        self.array = np.empty(n + GUARD, dtype=dtype)
        self.array[n:] = GUARD_VALUE if dtype == np.float64 else 0xDEADBEEF
        self.sentinel = self.array[n:].copy()
        ctype = ctypes.c_double if dtype == np.float64 else ctypes.c_uint64
        self.ptr = self.array.ctypes.data_as(ctypes.POINTER(ctype))

    def values(self):
        return self.array[:self.n]

    def guards_intact(self):
        return self.array[self.n:].tobytes() == self.sentinel.tobytes()


def first_difference(got, expect):
    """Where two arrays first differ in their bits, as text (None when identical)."""
    if got.tobytes() == expect.tobytes():
        return None
    at = int(np.flatnonzero(got.view(np.uint64) != expect.view(np.uint64))[0]) \
        if got.dtype == np.float64 else int(np.flatnonzero(got != expect)[0])
    return "index %d: got %r, NumPy %r" % (at, got[at], expect[at])


def check_seed(tally, lib, tag, seed, sizes):
    words = Buffer(4, np.uint64)
    rc = lib.rope_np_seed_words(seed, words.ptr)
    expect = np.random.SeedSequence(seed).generate_state(4, np.uint64)
    tally.check(rc == 0 and first_difference(words.values(), expect) is None
                and words.guards_intact(), "%s seed_words(%d): %s vs %s" % (tag, seed, words.values(), expect))
    n = max(sizes)
    raw = Buffer(n, np.uint64)
    rc = lib.rope_np_raw(seed, raw.ptr, n)
    diff = first_difference(raw.values(), np.random.PCG64(seed).random_raw(n).astype(np.uint64))
    tally.check(rc == 0 and diff is None and raw.guards_intact(), "%s raw(%d, %d): rc %d, %s" % (tag, seed, n, rc, diff))
    for size in sizes:
        out = Buffer(size, np.float64)
        rc = lib.rope_np_normal(seed, out.ptr, size)
        diff = first_difference(out.values(), np.random.default_rng(seed).normal(size=size))
        tally.check(rc == 0 and diff is None and out.guards_intact(),
                    "%s normal(%d, size=%d): rc %d, %s" % (tag, seed, size, rc, diff))


def check_tail(tally, lib, tag, seed):
    """A long run: about 1 draw in 3800 comes from the tail (log1p's rounding)."""
    n = 400000
    out = Buffer(n, np.float64)
    rc = lib.rope_np_normal(seed, out.ptr, n)
    expect = np.random.default_rng(seed).normal(size=n)
    tails = int(np.sum(np.abs(expect) > TAIL_START))
    diff = first_difference(out.values(), expect)
    tally.check(rc == 0 and diff is None, "%s normal(%d, size=%d): %s" % (tag, seed, n, diff))
    tally.check(tails >= 20, "%s seed %d: only %d tail draws in %d" % (tag, seed, tails, n))
    return tails


def log1p_inputs(rnd, count):
    """What the tail gives log1p: -U with U a multiple of 2^-53 in [0, 1), plus
    the edges of its branches (tiny |x|, -0.2929, 1 + x near 1/2)."""
    xs = [-(rnd.getrandbits(53) * 2.0 ** -53) for _ in range(count)]
    xs += [-(rnd.getrandbits(rnd.randrange(1, 40)) * 2.0 ** -53) for _ in range(count // 10)]
    xs += [-0.5 + j * 2.0 ** -52 for j in range(-2000, 2000)]
    xs += [-0.2928932188134524 + j * 2.0 ** -54 for j in range(-500, 500)]
    return [x for x in xs if -1.0 < x <= 0.0]


def check_log1p(tally, lib, tag, rnd):
    """The tail's logarithm against the libm NumPy calls (ctypes, glibc): exact
    bits, since the tail draw is this value times a constant. glibc picks an
    FMA build of log1p on CPUs that have FMA; rope_np_log1p reproduces that
    one, so on an x86-64 without FMA this check (and NumPy's tail) would differ."""
    libm = ctypes.CDLL("libm.so.6")
    libm.log1p.argtypes, libm.log1p.restype = [ctypes.c_double], ctypes.c_double
    out = ctypes.c_double()
    problems = []
    for x in log1p_inputs(rnd, 60000):
        rc = lib.rope_np_log1p(x, ctypes.byref(out))
        expect = libm.log1p(x)
        if rc != 0 or out.value.hex() != expect.hex():
            problems.append("log1p(%r): rc %d, %r, libm %r" % (x, rc, out.value, expect))
    tally.record("%s rope_np_log1p is libm's log1p bit for bit" % tag, problems)
    for x in (-1.0, 0.5, 1e-300, math.nan, -math.inf):
        tally.check(lib.rope_np_log1p(x, ctypes.byref(out)) == E_VALUE, "%s log1p(%r) refused" % (tag, x))
    tally.check(lib.rope_np_log1p(-0.5, None) == E_NULL, "%s log1p out NULL" % tag)


def ziggurat_tables():
    """The three tables as np_ziggurat.c spells them."""
    text = open(ZIGGURAT_SOURCE, encoding="utf8").read()
    tables = {}
    for name in ("k", "w", "f"):
        body = re.search(r"rope_np_zig_%s\[ROPE_NP_ZIG_LAYERS\] = \{(.*?)\};" % name, text, re.S).group(1)
        items = [t.strip() for t in body.split(",") if t.strip()]
        tables[name] = [int(t.rstrip("u"), 16) for t in items] if name == "k" else [float(t) for t in items]
    return tables


def check_tables(tally):
    """The tables against their definition (np_ziggurat.c's comment), recomputed
    here in doubles: NumPy's own values differ from that by ~1e-10 relative."""
    t = ziggurat_tables()
    tally.check(all(len(t[name]) == 256 for name in "kwf"), "ziggurat tables: 256 entries each")
    r, v, scale = TAIL_START, 0.00492867323399, 2.0 ** 52
    k, w, f = [0] * 256, [0.0] * 256, [0.0] * 256
    f[255], w[255] = math.exp(-0.5 * r * r), r / scale
    k[0], w[0], f[0] = int(r * f[255] / v * scale), v / f[255] / scale, 1.0
    outer = r
    for i in range(254, 0, -1):
        x = math.sqrt(-2.0 * math.log(v / outer + f[i + 1]))
        k[i + 1], w[i], f[i] = int(x / outer * scale), x / scale, math.exp(-0.5 * x * x)
        outer = x
    problems = []
    for name, mine in (("k", k), ("w", w), ("f", f)):
        for i in range(256):
            if not testlib.close(t[name][i], mine[i], abs_tol=0.0, rel_tol=1e-9):
                problems.append("%s[%d] = %r, definition gives %r" % (name, i, t[name][i], mine[i]))
    tally.record("ziggurat tables match their definition to 1e-9 relative", problems)


def post_score(seed, dim, base, m, n):
    """The blog's code with NumPy: rope_full as the post writes it (one token,
    scored against itself), with the base and dimension as parameters."""
    token = np.random.default_rng(seed).normal(size=dim)

    def rope_full(x, pos):
        out = x.copy().astype(float)
        for i in range(dim // 2):
            angle = pos * (1.0 / (base ** (2 * i / dim)))
            c, s = np.cos(angle), np.sin(angle)
            out[2 * i] = x[2 * i] * c - x[2 * i + 1] * s
            out[2 * i + 1] = x[2 * i] * s + x[2 * i + 1] * c
        return out

    return float(np.dot(rope_full(token, m), rope_full(token, n))), token


def planes(lib, seed, dim, base, m, n):
    token, score = Buffer(dim, np.float64), Buffer(1, np.float64)
    rc = lib.rope_planes_example(seed, dim, base, m, n, token.ptr, score.ptr)
    return rc, token, score


def check_planes(tally, lib, tag, rnd):
    # The post: seed 42, 512 dimensions, base 10000, positions 3/7 and 10/14.
    # It printed 22.3814; NumPy 1.24 gives 409.8336 for both (issue 19).
    for m, n in ((3, 7), (10, 14)):
        rc, token, score = planes(lib, 42, 512, 10000.0, m, n)
        expect, expect_token = post_score(42, 512, 10000.0, m, n)
        got = score.values()[0]
        tally.check(rc == 0 and "%.4f" % got == "%.4f" % expect == "409.8336",
                    "%s post example at %d/%d: %.6f, NumPy %.6f, issue 409.8336" % (tag, m, n, got, expect))
        tally.check(first_difference(token.values(), expect_token) is None and token.guards_intact()
                    and score.guards_intact(), "%s post example token = default_rng(42).normal(512)" % tag)
    problems = []
    for _ in range(12):
        seed, dim = rnd.getrandbits(64), rnd.choice([0, 1, 2, 3, rnd.randrange(4, 1025)])
        base = 10 ** rnd.uniform(2, 6)
        m, n = rnd.uniform(-1000, 1000), rnd.uniform(-1000, 1000)
        rc, token, score = planes(lib, seed, dim, base, m, n)
        expect, _ = post_score(seed, dim, base, m, n)
        if rc != 0 or not testlib.close(score.values()[0], expect) or not score.guards_intact():
            problems.append("seed %d dim %d base %r m %r n %r: rc %d, %r vs NumPy %r"
                            % (seed, dim, base, m, n, rc, score.values()[0], expect))
    tally.record("%s planes example on random seeds, dims, bases, positions" % tag, problems)


def check_bad_input(tally, lib, tag):
    out = Buffer(4, np.float64)
    words = Buffer(4, np.uint64)
    before = out.array.tobytes()
    cases = [
        ("normal n = -1", lib.rope_np_normal(1, out.ptr, -1), E_COUNT),
        ("normal n above ROPE_MAX_WORK", lib.rope_np_normal(1, out.ptr, MAX_WORK + 1), E_WORK),
        ("normal out NULL", lib.rope_np_normal(1, None, 3), E_NULL),
        ("normal n = 0, out NULL", lib.rope_np_normal(1, None, 0), 0),
        ("raw n = -5", lib.rope_np_raw(1, words.ptr, -5), E_COUNT),
        ("raw out NULL", lib.rope_np_raw(1, None, 2), E_NULL),
        ("seed_words out NULL", lib.rope_np_seed_words(1, None), E_NULL),
        ("planes dim -1", lib.rope_planes_example(42, -1, 1e4, 3, 7, out.ptr, out.ptr), E_DIM),
        ("planes dim 65537", lib.rope_planes_example(42, 65537, 1e4, 3, 7, out.ptr, out.ptr), E_DIM),
        ("planes base 0", lib.rope_planes_example(42, 4, 0.0, 3, 7, out.ptr, out.ptr), E_BASE),
        ("planes base NaN", lib.rope_planes_example(42, 4, math.nan, 3, 7, out.ptr, out.ptr), E_BASE),
        ("planes m NaN", lib.rope_planes_example(42, 4, 1e4, math.nan, 7, out.ptr, out.ptr), E_POSITION),
        ("planes n inf", lib.rope_planes_example(42, 4, 1e4, 3, math.inf, out.ptr, out.ptr), E_POSITION),
        ("planes m 1e11", lib.rope_planes_example(42, 4, 1e4, 1e11, 7, out.ptr, out.ptr), E_FAR),
        ("planes token NULL", lib.rope_planes_example(42, 4, 1e4, 3, 7, None, out.ptr), E_NULL),
        ("planes score NULL", lib.rope_planes_example(42, 4, 1e4, 3, 7, out.ptr, None), E_NULL),
    ]
    for what, rc, expect in cases:
        tally.check(rc == expect, "%s %s: rc %d, expected %d" % (tag, what, rc, expect))
    tally.check(out.array.tobytes() == before, "%s refused calls wrote nothing" % tag)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lib", action="append", help="a librope build (repeatable)")
    args = parser.parse_args()
    libs = args.lib or [os.path.join(testlib.ROOT, "build", "librope.so")]
    seed = testlib.seed("test_nprandom")
    rnd = random.Random(seed)
    print("NumPy %s" % np.__version__)
    seeds = [42, 0, 1, 2 ** 32 - 1, 2 ** 32, 2 ** 63, 2 ** 64 - 1]
    seeds += [rnd.getrandbits(rnd.choice([8, 32, 33, 48, 64])) for _ in range(24)]
    tally = testlib.Tally()
    for path in libs:
        tag = os.path.basename(path)
        lib = load(path)
        for s in seeds:
            sizes = [0, 1, 2, 3, 255, 256, 257, 512, 1000] + [rnd.randrange(1, 5000) for _ in range(3)]
            check_seed(tally, lib, tag, s, sizes)
        tails = check_tail(tally, lib, tag, rnd.getrandbits(64))
        print("%s: %d seeds bit-identical to NumPy; %d tail draws in the long run" % (tag, len(seeds), tails))
        check_log1p(tally, lib, tag, rnd)
        check_planes(tally, lib, tag, rnd)
        check_bad_input(tally, lib, tag)
    check_tables(tally)
    print("test_nprandom: ROPE_TEST_SEED=%d" % seed)
    print("%d passed, %d failed" % (tally.passed, tally.failed))
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
