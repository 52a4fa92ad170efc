#!/usr/bin/env python3
"""The lesson's functions of build/librope.so (c_src/lesson/lesson.h) against
the independent reference tests/ref/ref_lesson.py.

    python3 tests/diff/diff_lesson.py build/lesson_cases.json [--lib build/librope.so] [--dump F]

Runs every random case of the file (fresh each run), then, on new random
inputs from the file's seed, the lesson's claims: without position the two
word orders score alike to the bit; the proof's five sums agree; the angle
between the turned arrows is the starting angle plus (m - n) theta; sliding
both positions keeps the RoPE score and moves the additive one. Then the
post's table row by row against the reference's own transcription and
recomputation, the mismatches being exactly the known slips, and bad inputs
giving their ROPE_E_* codes. No call may write past its output. With --dump
the native results go to a file for the wasm test. Prints failures, the seed
and "<n> passed, <m> failed"; exits 1 on a failure.
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
import ref_lesson  # noqa: E402
import testlib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_LIB = os.path.join(HERE, "..", "..", "build", "librope.so")

E_DIM, E_POSITION, E_VALUE, E_LENGTH, E_COUNT, E_NULL, E_SPACE = -1, -3, -4, -5, -6, -7, -9
E_FAR, E_WORK, E_SCALING, E_BASE = -11, -12, -13, -2
GUARD = 8
GUARD_VALUE = -7.25e300

D, I = ctypes.c_double, ctypes.c_int
PD = ctypes.POINTER(ctypes.c_double)
SIGNATURES = {
    "order": [PD, I, PD, I, D, D, PD],
    "slot": [PD, I, D, PD],
    "normalized": [D, D, PD],
    "marks": [PD, I, I, D, PD],
    "marked": [PD, I, D, D, PD],
    "extrapolate": [D, I, I, D, PD],
    "identity": [D, D, PD],
    "cat": [D] * 7 + [PD],
    "proof": [D] * 7 + [PD],
    "clock": [I, I, D, D, D, PD],
    "clock_theta": [D, D, D, PD],
    "rebase": [I, I, D, D, D, D, PD],
    "weights": [I, I, D, D, D, D, PD],
    "post_table": [PD, I],
    "post_row": [I, PD],
}
# Output length per function from its arguments (lesson.h).
LENGTHS = {
    "order": lambda a: 27, "slot": lambda a: len(a[0]) + 5, "normalized": lambda a: 1,
    "marks": lambda a: len(a[0]) * a[1], "marked": lambda a: len(a[0]),
    "extrapolate": lambda a: 4 * a[1], "identity": lambda a: 14, "cat": lambda a: 30,
    "proof": lambda a: 30, "clock": lambda a: 5, "clock_theta": lambda a: 5, "rebase": lambda a: 7,
    "weights": lambda a: 15,
}


def load(path):
    lib = ctypes.CDLL(path)
    for name, argtypes in SIGNATURES.items():
        getattr(lib, "rope_lesson_" + name).argtypes = argtypes
        getattr(lib, "rope_lesson_" + name).restype = I
    for name in ("post_id", "post_label", "post_text", "chapter"):
        getattr(lib, "rope_lesson_" + name).argtypes = [I]
        getattr(lib, "rope_lesson_" + name).restype = ctypes.c_char_p
    lib.rope_lesson_post_count.argtypes = []
    lib.rope_lesson_post_count.restype = I
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
    """One case through C: (code, values). Vectors are passed with their lengths."""
    out = Out(LENGTHS[fn](args))
    c_args = []
    for j, a in enumerate(args):
        if isinstance(a, list):
            c_args += [arr(a), len(a)]
        elif SIGNATURES[fn][len(c_args)] is I:
            c_args.append(int(a))
        else:
            c_args.append(float(a))
    rc = getattr(lib, "rope_lesson_" + fn)(*c_args, out.buf)
    return rc, out.values()


def mismatch(got, want, periodic):
    """The first slot not within the contract's tolerance, angles compared modulo their turn."""
    if len(got) != len(want):
        return "expected %d values, got %d" % (len(want), len(got))
    turns = {slot: (period, scale) for slot, period, scale in periodic}
    for j, (g, w) in enumerate(zip(got, want)):
        if j in turns:
            period, scale = turns[j]
            ok = (math.isfinite(g) and abs(ref_lesson.wrap(g - w, period))
                  <= testlib.ABS_TOL + testlib.REL_TOL * max(abs(w), scale))
        else:
            ok = testlib.close(g, w)
        if not ok:
            return "[%d]: expected %r, got %r" % (j, w, g)
    return None


def run_cases(lib, doc, t):
    results = []
    for index, c in enumerate(doc["cases"]):
        got = None
        try:
            rc, got = call(lib, c["fn"], c["args"])
            problem = "code %d" % rc if rc else mismatch(got, c["expect"], c["periodic"])
        except AssertionError as e:
            problem = str(e)
        t.check(problem is None, "case %d %s%s: %s" % (index, c["fn"], json.dumps(c["args"])[:200],
                                                       problem))
        results.append(got if problem is None else None)
    return results


def check_claims(lib, rng, t):
    # The post's sticks: a swap moves the score once the words carry marks or turns.
    rc, v = call(lib, "order", [[2.0, 1.0, 1.0, 0.0], [0.0, 1.0, 2.0, 1.0], 0.0, 10000.0])
    t.check(rc == 0 and v[8] == 0.0 and v[17] > 1.0 and v[26] > 1.0,
            "order at the post's sticks: swap changes %r, %r, %r" % (v[8], v[17], v[26]))
    for _ in range(40):
        n = rng.randint(1, 8)
        a, b = ref_lesson.vec(rng, n), ref_lesson.vec(rng, n)
        rc, v = call(lib, "order", [a, b, float(rng.randint(0, 1000)), 10000.0])
        t.check(rc == 0 and v[8] == 0.0 and v[0:4] == v[4:8],
                "order without position: the two orders differ: %r" % v[:9])
        q0, q1, k0, k1 = ref_lesson.vec(rng, 4)
        m, n2, theta = rng.uniform(-500, 500), rng.uniform(-500, 500), rng.uniform(-0.5, 0.5)
        rc, p = call(lib, "proof", [q0, q1, k0, k1, m, n2, theta])
        sums = [p[8], p[13], p[18], p[21], p[22]]
        t.check(rc == 0 and all(testlib.close(s, p[22]) for s in sums),
                "proof steps differ: %r" % sums)
        t.check(rc == 0 and testlib.close(p[28] + p[29], p[22]) and testlib.close(p[27], (m - n2) * theta),
                "proof terms %r + %r do not make the score %r" % (p[28], p[29], p[22]))
        rc, c = call(lib, "cat", [q0, q1, k0, k1, m, n2, theta])
        t.check(rc == 0 and abs(ref_lesson.wrap(c[20] - c[21], 2 * math.pi)) < 1e-9,
                "cat angle after %r vs start + (m - n) theta %r" % (c[20], c[21]))
        shift = rng.uniform(1, 300)
        rc2, c2 = call(lib, "cat", [q0, q1, k0, k1, m + shift, n2 + shift, theta])
        t.check(rc2 == 0 and testlib.close(c2[26], c[26], 1e-9, 1e-9),
                "cat score moved when both slid: %r vs %r" % (c[26], c2[26]))
    # A larger base brings more gaps' angles into the training wedge; the gaps training had stay.
    for _ in range(20):
        train, widest = float(rng.randint(1, 20000)), float(rng.randint(20000, 200000))
        rc, w = call(lib, "weights", [255, 512, 10000.0, 10000.0, train, widest])
        rc2, w2 = call(lib, "weights", [255, 512, 10000.0, rng.uniform(2e4, 1e7), train, widest])
        t.check(rc == rc2 == 0 and w[9] == w[10] and w2[10] >= w2[9] and w2[11] == w[11]
                and w[11] == min(train, widest) + 1,
                "weights: base change %r -> %r, seen %r -> %r" % (w[9:11], w2[9:11], w[11], w2[11]))
    # The additive score moves with a slide of both words; RoPE's stays (the post's cat).
    rc, c = call(lib, "cat", [0.9, 0.4, 0.9, 0.4, 3, 7, 0.1])
    rc2, c2 = call(lib, "cat", [0.9, 0.4, 0.9, 0.4, 10, 14, 0.1])
    t.check(rc == rc2 == 0 and abs(c[27] - c2[27]) > 0.1 and testlib.close(c[26], c2[26]),
            "slide: additive %r -> %r, RoPE %r -> %r" % (c[27], c2[27], c[26], c2[26]))


def check_post(lib, doc, t):
    count = lib.rope_lesson_post_count()
    table = Out(5 * count)
    rc = lib.rope_lesson_post_table(table.buf, count)
    rows = table.values()
    t.check(rc == 0, "post table: code %d" % rc)
    t.check(lib.rope_lesson_post_table(table.buf, count - 1) == E_SPACE, "post table: small cap")
    ref = {r["id"]: r for r in doc["post"]}
    ids = [lib.rope_lesson_post_id(r).decode() for r in range(count)]
    t.check(sorted(ids) == sorted(ref), "post ids: C only %s, reference only %s"
            % (sorted(set(ids) - set(ref)), sorted(set(ref) - set(ids))))
    wrong = set()
    for r, rid in enumerate(ids):
        printed, decimals, value, match, chapter = rows[5 * r:5 * r + 5]
        want = ref.get(rid)
        if want is None:
            continue
        name = lib.rope_lesson_chapter(int(chapter))
        problems = []
        if not testlib.close(printed, want["printed"], 1e-15, 1e-15) or decimals != want["decimals"]:
            problems.append("printed %r/%r vs %r/%r" % (printed, decimals, want["printed"],
                                                        want["decimals"]))
        if not testlib.close(value, want["value"]):
            problems.append("value %r vs reference %r" % (value, want["value"]))
        if (match == 1.0) != want["matches"]:
            problems.append("match flag %r vs reference %r" % (match, want["matches"]))
        if name is None or name.decode() != want["chapter"]:
            problems.append("chapter %r vs %r" % (name, want["chapter"]))
        if not lib.rope_lesson_post_label(r):
            problems.append("no label")
        text = (lib.rope_lesson_post_text(r) or b"").decode()
        if text != "%.*f" % (want["decimals"], want["printed"]):
            problems.append("printed text %r" % text)
        t.record("post row %s" % rid, problems)
        one = Out(5)
        t.check(lib.rope_lesson_post_row(r, one.buf) == 0 and one.values() == rows[5 * r:5 * r + 5],
                "post row %s alone differs from the table" % rid)
        if match != 1.0:
            wrong.add(rid)
    t.check(wrong == set(doc["slips"]), "mismatches %s, known slips %s"
            % (sorted(wrong), doc["slips"]))
    t.check(lib.rope_lesson_post_id(count) is None and lib.rope_lesson_post_id(-1) is None,
            "post id out of range is not NULL")
    t.check(lib.rope_lesson_post_row(count, table.buf) == E_COUNT, "post row out of range")
    t.check(lib.rope_lesson_chapter(len(doc["chapters"])) is None, "chapter past the last")


def check_bad_inputs(lib, t):
    nan, inf, far = float("nan"), float("inf"), 2e10
    v4, v3 = arr([2.0, 1.0, 1.0, 0.0]), arr([1.0, 2.0, 3.0])
    out = Out(700)
    o, null = out.buf, None
    L = lib
    cases = [
        ("order length", L.rope_lesson_order(v4, 4, v3, 3, 0, 1e4, o), E_LENGTH),
        ("order empty", L.rope_lesson_order(v4, 0, v4, 0, 0, 1e4, o), E_DIM),
        ("order NaN word", L.rope_lesson_order(arr([nan]), 1, v4, 1, 0, 1e4, o), E_VALUE),
        ("order far slot", L.rope_lesson_order(v4, 4, v4, 4, far, 1e4, o), E_FAR),
        ("order base", L.rope_lesson_order(v4, 4, v4, 4, 0, -1, o), E_BASE),
        ("order NULL", L.rope_lesson_order(v4, 4, v4, 4, 0, 1e4, null), E_NULL),
        ("slot NaN", L.rope_lesson_slot(v4, 4, nan, o), E_POSITION),
        ("slot empty", L.rope_lesson_slot(v4, 0, 1, o), E_DIM),
        ("slot NULL stick", L.rope_lesson_slot(null, 4, 1, o), E_NULL),
        ("normalized length 0", L.rope_lesson_normalized(1, 0, o), E_POSITION),
        ("normalized inf", L.rope_lesson_normalized(inf, 5, o), E_POSITION),
        ("marks far", L.rope_lesson_marks(arr([far]), 1, 4, 1e4, o), E_FAR),
        ("marks width", L.rope_lesson_marks(v4, 1, -1, 1e4, o), E_DIM),
        ("marks count", L.rope_lesson_marks(v4, -1, 4, 1e4, o), E_COUNT),
        ("marks work", L.rope_lesson_marks(arr([1.0] * 65536), 65536, 65536, 1e4, o), E_WORK),
        ("marked base", L.rope_lesson_marked(v4, 4, 3, 0, o), E_BASE),
        ("extrapolate train 0", L.rope_lesson_extrapolate(5, 4, 0, 1e4, o), E_COUNT),
        ("extrapolate work", L.rope_lesson_extrapolate(5, 65536, 65536, 1e4, o), E_WORK),
        ("extrapolate NaN", L.rope_lesson_extrapolate(nan, 4, 8, 1e4, o), E_POSITION),
        ("identity far", L.rope_lesson_identity(far, 1, o), E_FAR),
        ("identity NULL", L.rope_lesson_identity(1, 1, null), E_NULL),
        ("cat NaN q", L.rope_lesson_cat(nan, 0, 1, 0, 1, 2, 0.1, o), E_VALUE),
        ("cat inf theta", L.rope_lesson_cat(1, 0, 1, 0, 1, 2, inf, o), E_POSITION),
        ("proof far n", L.rope_lesson_proof(1, 0, 1, 0, 1, -far, 1.0, o), E_FAR),
        # The guard is on the angle n·theta: a far n at a small theta is still resolvable.
        ("proof far n, small theta", L.rope_lesson_proof(1, 0, 1, 0, 1, -far, 0.1, o), 0),
        ("clock pair", L.rope_lesson_clock(256, 512, 1e4, 1, 1, o), E_DIM),
        ("clock negative pair", L.rope_lesson_clock(-1, 512, 1e4, 1, 1, o), E_DIM),
        ("clock divide 0", L.rope_lesson_clock(0, 512, 1e4, 1, 0, o), E_SCALING),
        ("clock base", L.rope_lesson_clock(0, 512, nan, 1, 1, o), E_BASE),
        ("clock_theta NaN", L.rope_lesson_clock_theta(nan, 1, 1, o), E_POSITION),
        ("rebase new base", L.rope_lesson_rebase(255, 512, 1e4, -5, 1, 1, o), E_BASE),
        ("rebase far gap", L.rope_lesson_rebase(0, 512, 1e4, 5e5, far, 1, o), E_FAR),
        ("rebase far gap, slow pair", L.rope_lesson_rebase(255, 512, 1e4, 5e5, far, 1, o), 0),
        ("weights pair", L.rope_lesson_weights(256, 512, 1e4, 5e5, 8192, 5e4, o), E_DIM),
        ("weights new base", L.rope_lesson_weights(255, 512, 1e4, 1, 8192, 5e4, o), E_BASE),
        ("weights negative gap", L.rope_lesson_weights(255, 512, 1e4, 5e5, 8192, -1, o), E_POSITION),
        ("weights NaN train", L.rope_lesson_weights(255, 512, 1e4, 5e5, nan, 5e4, o), E_POSITION),
        ("weights far gap", L.rope_lesson_weights(0, 512, 1e4, 5e5, 8192, far, o), E_FAR),
        ("weights, a billion gaps", L.rope_lesson_weights(0, 512, 1e4, 5e5, 1, 1e9, o), 0),
        ("weights NULL", L.rope_lesson_weights(255, 512, 1e4, 5e5, 8192, 5e4, null), E_NULL),
    ]
    for what, got, want in cases:
        t.check(got == want, "%s: expected code %d, got %d" % (what, want, got))
    t.check(out.values() is not None, "bad inputs wrote past the output")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases")
    ap.add_argument("--lib", default=DEFAULT_LIB)
    ap.add_argument("--dump", help="write the native results here (the wasm test compares them)")
    args = ap.parse_args()
    with open(args.cases) as f:
        doc = json.load(f)
    print("diff_lesson: ROPE_TEST_SEED=%d (from %s)" % (doc["seed"], args.cases))
    lib = load(args.lib)
    t = testlib.Tally()
    results = run_cases(lib, doc, t)
    if args.dump:
        with open(args.dump, "w") as f:
            json.dump({"seed": doc["seed"], "results": results}, f)
    check_claims(lib, random.Random(doc["seed"] + 1), t)
    check_post(lib, doc, t)
    check_bad_inputs(lib, t)
    print("diff_lesson: %d passed, %d failed" % (t.passed, t.failed))
    sys.exit(1 if t.failed else 0)


if __name__ == "__main__":
    main()
