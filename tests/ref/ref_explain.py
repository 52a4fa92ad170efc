#!/usr/bin/env python3
"""An independent pure-Python reference for the explainer functions
(c_src/explain/explain.h, docs/EXPLAIN.md), and a generator of random cases from it.

    python3 tests/ref/ref_explain.py --out build/explain_cases.json [--seed N]
    python3 tests/ref/ref_explain.py --batch < calls.json > results.json

--batch reads [{"fn": name, "args": [...]}, ...] and writes one result per call
(the explainer functions above, and rope_score, add_score, sin_pos, thetas).

Each function here is written straight from its definition (rotate, then
take dot products; sum complex exponentials) and shares nothing with the C
core. The cases file is
    {"seed": N, "tolerance": {"abs": .., "rel": ..},
     "cases": [{"fn": name, "args": [...], "expect": [...]}, ...]}
with args in the order of the JS bindings in web/src/core/rope.js and expect flat
(planar blocks as explain.h lays them out); random_vectors must match bit for
bit, every other float to the tolerance.
"""
import argparse
import cmath
import json
import math
import os
import random
import sys

sys.dont_write_bytecode = True  # keep tests/ free of __pycache__
# The folders beside this one that it imports from: tests/lib.
sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("lib",)]
import testlib  # noqa: E402

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def thetas(d, base):
    return [base ** (-2.0 * i / d) for i in range(d // 2)]


def rotate(x0, x1, a):
    return x0 * math.cos(a) - x1 * math.sin(a), x0 * math.sin(a) + x1 * math.cos(a)


def apply_rope(vec, pos, base):
    out = list(vec)
    for i, t in enumerate(thetas(len(vec), base)):
        out[2 * i], out[2 * i + 1] = rotate(vec[2 * i], vec[2 * i + 1], pos * t)
    return out


def dot(a, b):
    return math.fsum(x * y for x, y in zip(a, b))


def rope_score(q, k, m, n, base):
    return dot(apply_rope(q, m, base), apply_rope(k, n, base))


def sin_pos(pos, d, base):
    return [(math.sin if j % 2 == 0 else math.cos)(pos / base ** ((2 * (j // 2)) / d))
            for j in range(d)]


def add_score(q, k, m, n, base):
    pm, pn = sin_pos(m, len(q), base), sin_pos(n, len(k), base)
    return dot([a + b for a, b in zip(q, pm)], [a + b for a, b in zip(k, pn)])


def pair_example(q, k, m, n, theta):
    """Rotated vectors, angles, dot, cross and the score two ways (11 values)."""
    qm, kn = rotate(q[0], q[1], m * theta), rotate(k[0], k[1], n * theta)
    d, c = q[0] * k[0] + q[1] * k[1], q[0] * k[1] - q[1] * k[0]
    g = (m - n) * theta
    return [qm[0], qm[1], kn[0], kn[1], m * theta, n * theta, g, d, c,
            qm[0] * kn[0] + qm[1] * kn[1], d * math.cos(g) + c * math.sin(g)]


def pair_terms(q, k, m, n, base):
    """Per pair: the term, dot_i, cross_i; then their sum and rope_score."""
    r = m - n
    dots = [q[2 * i] * k[2 * i] + q[2 * i + 1] * k[2 * i + 1] for i in range(len(q) // 2)]
    crosses = [q[2 * i] * k[2 * i + 1] - q[2 * i + 1] * k[2 * i] for i in range(len(q) // 2)]
    terms = [dt * math.cos(r * t) + cr * math.sin(r * t)
             for dt, cr, t in zip(dots, crosses, thetas(len(q), base))]
    tail = q[-1] * k[-1] if len(q) % 2 else 0.0
    return terms + dots + crosses + [math.fsum(terms) + tail, rope_score(q, k, m, n, base)]


def add_terms(q, k, offset, starts, base):
    rows = []
    for s in starts:
        pm, pn = sin_pos(s + offset, len(q), base), sin_pos(s, len(q), base)
        rows.append([dot(q, k), dot(q, pn), dot(pm, k), dot(pm, pn),
                     add_score(q, k, s + offset, s, base)])
    return [row[col] for col in range(5) for row in rows]


def add_terms_sweep(q, k, offset, start0, step, count, base):
    return add_terms(q, k, offset, [start0 + j * step for j in range(count)], base)


def random_stream(seed, n):
    """splitmix64 from a 64-bit state `seed`: n uniform doubles in [-1, 1)."""
    out, state = [], seed
    for _ in range(n):
        state = (state + GAMMA) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
        out.append((z >> 11) / 2.0 ** 52 - 1.0)
    return out


def random_vectors(d, seed):
    draws = random_stream(seed, 2 * d)
    return [draws[:d], draws[d:]]


def roformer_bound(r, d, base):
    """(1 / (d/2)) * sum_j |sum_{i<=j} e^{i r theta_i}| (RoFormer section 3.4.3)."""
    h, partial, total = d // 2, 0j, 0.0
    for t in thetas(d, base):
        partial += cmath.exp(1j * r * t)
        total += abs(partial)
    return total / h if h else 0.0


def decay(q, k, distances, samples, seed, base):
    d = len(q)
    draws = random_stream(seed, samples * d)
    vectors = [draws[p * d:(p + 1) * d] for p in range(samples)]
    demo = [rope_score(q, k, r, 0.0, base) for r in distances]
    mean = [math.fsum(rope_score(v, v, r, 0.0, base) for v in vectors) / samples
            for r in distances]
    return demo + mean + [roformer_bound(r, d, base) for r in distances]


def cos_grid(d, positions, base):
    return [math.cos(p * t) for t in thetas(d, base) for p in positions]


def offset_envelope(q, k, offset, lo, hi, bins, base):
    """A dense scan of every integer start, then min and max per bin."""
    starts = list(range(math.ceil(lo), math.floor(hi) + 1))
    c = len(starts)
    out = [[None] * bins for _ in range(6)]
    for j, s in enumerate(starts):
        b = j * bins // c
        r = rope_score(q, k, s + offset, s, base)
        a = add_score(q, k, s + offset, s, base)
        if out[0][b] is None:
            out[0][b], out[2][b], out[3][b], out[4][b], out[5][b] = s, r, r, a, a
        out[1][b] = s
        out[2][b], out[3][b] = min(out[2][b], r), max(out[3][b], r)
        out[4][b], out[5][b] = min(out[4][b], a), max(out[5][b], a)
    return [float(x) for block in out for x in block]


FUNCTIONS = {
    "pair_example": pair_example, "pair_terms": pair_terms, "add_terms": add_terms,
    "add_terms_sweep": add_terms_sweep,
    "decay": decay, "cos_grid": cos_grid, "random_vectors": random_vectors,
    "offset_envelope": offset_envelope,
}


def expect(fn, args):
    value = FUNCTIONS[fn](*args)
    return [x for row in value for x in row] if fn == "random_vectors" else value


# ---- random cases ----

def vec(rng, d):
    return [rng.uniform(-2.0, 2.0) for _ in range(d)]


def base_of(rng):
    return rng.choice([10000.0, 500000.0, 1e6, rng.uniform(2.0, 1e6)])


def make_case(rng, fn):
    d = rng.choice([0, 1, 2, 3, 4, 7, 8, 16, 33, 64])
    base = base_of(rng)
    if fn == "pair_example":
        return [vec(rng, 2), vec(rng, 2), rng.uniform(-5000, 5000), rng.uniform(-5000, 5000),
                rng.choice([0.1, 1.0, rng.uniform(0.0, 1.0), rng.uniform(-2.0, 2.0)])]
    if fn == "pair_terms":
        n = rng.uniform(0, 4096)
        return [vec(rng, d), vec(rng, d), n + rng.uniform(-4096, 4096), n, base]
    if fn == "add_terms":
        starts = [rng.uniform(0, 4096) for _ in range(rng.randint(0, 6))]
        return [vec(rng, d), vec(rng, d), rng.uniform(-100, 100), starts, base]
    if fn == "add_terms_sweep":
        return [vec(rng, d), vec(rng, d), rng.uniform(-100, 100), rng.uniform(-100, 4000),
                rng.choice([1.0, 0.5, rng.uniform(0.01, 20)]), rng.randint(0, 150), base]
    if fn == "decay":
        dd = min(d, 16)
        r = [10 ** rng.uniform(0, 6) for _ in range(rng.randint(0, 5))]
        return [vec(rng, dd), vec(rng, dd), r, rng.randint(1, 6), rng.randrange(2 ** 32), base]
    if fn == "cos_grid":
        return [d, [rng.uniform(-5000, 5000) for _ in range(rng.randint(0, 6))], base]
    if fn == "random_vectors":
        return [d, rng.randrange(2 ** 32)]
    if fn == "offset_envelope":
        dd = min(d, 8)
        lo = rng.uniform(-50, 4000)
        hi = lo + rng.uniform(1, 120)
        c = math.floor(hi) - math.ceil(lo) + 1
        return [vec(rng, dd), vec(rng, dd), rng.uniform(-20, 20), lo, hi,
                rng.randint(1, max(1, min(c, 40))), base]
    raise ValueError(fn)


BATCH = dict(FUNCTIONS, rope_score=rope_score, add_score=add_score, sin_pos=sin_pos, thetas=thetas)


def batch():
    """Answers the browser tests: one result per {"fn", "args"} call read from stdin."""
    out = []
    for call in json.load(sys.stdin):
        try:
            out.append(BATCH[call["fn"]](*call["args"]))
        except Exception as err:  # reported to the caller, which fails the test
            out.append({"error": "%s: %s" % (call.get("fn"), err)})
    json.dump(out, sys.stdout)


def main():
    if "--batch" in sys.argv[1:]:
        batch()
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int)
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-function", type=int, default=40)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else testlib.seed("ref_explain")
    if args.seed is not None:
        print("ref_explain: ROPE_TEST_SEED=%d (set it to reproduce this run)" % seed)
    rng = random.Random(seed)
    cases = []
    for fn in FUNCTIONS:
        for _ in range(args.per_function):
            a = make_case(rng, fn)
            cases.append({"fn": fn, "args": a, "expect": expect(fn, a)})
    doc = {"seed": seed, "tolerance": {"abs": testlib.ABS_TOL, "rel": testlib.REL_TOL},
           "cases": cases}
    with open(args.out, "w") as f:
        json.dump(doc, f)
    print("ref_explain: wrote %d cases to %s" % (len(cases), args.out))


if __name__ == "__main__":
    main()
