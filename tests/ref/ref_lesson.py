#!/usr/bin/env python3
"""An independent pure-Python reference for the lesson's functions
(c_src/lesson/lesson.h), written from docs/LESSON.md, and a generator of
random cases from it.

    python3 tests/ref/ref_lesson.py --out build/lesson_cases.json [--seed N]

The cases file is
    {"seed": N, "tolerance": {"abs": .., "rel": ..},
     "cases": [{"fn": name, "args": [...], "expect": [...], "periodic": [...]}, ...]}
with args in the C function's order (vectors as lists, without their
lengths) and expect flat as lesson.h lays it out. "periodic" lists
[slot, period, scale] for the slots that are angles reduced into one turn:
those are compared modulo the period, with the tolerance's relative part
taken on scale (the size of the angle before it was reduced).

POST lists every number of the blog post the lesson checks, transcribed here
from docs/LESSON.md and the post, each with its own recomputation; SLIPS are
the rows the post gets wrong at its own rounding. Nothing here is shared with
the C core.
"""
import argparse
import json
import math
import os
import random
import sys

sys.dont_write_bytecode = True  # keep tests/ free of __pycache__
# The folders beside this one that it imports from: tests/lib.
sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("lib",)]
import testlib  # noqa: E402

PI = math.pi
BASES = (10000.0, 500000.0)


# ---- the chapters, from docs/LESSON.md ----

def dot(a, b):
    return math.fsum(x * y for x, y in zip(a, b))


def freq(i, width, base):
    return base ** (-2.0 * i / width)


def mark(pos, width, base):
    return [math.sin(pos * freq(j // 2, width, base)) if j % 2 == 0
            else math.cos(pos * freq(j // 2, width, base)) for j in range(width)]


def turn(x, y, a):
    return [x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)]


def rope(v, pos, base):
    out = list(v)
    for i in range(len(v) // 2):
        out[2 * i:2 * i + 2] = turn(v[2 * i], v[2 * i + 1], pos * freq(i, len(v), base))
    return out


def order(a, b, s0, base):
    schemes = [lambda u, s: u,
               lambda u, s: [x + p for x, p in zip(u, mark(s, len(u), base))],
               lambda u, s: rope(u, s, base)]
    out = []
    for f in schemes:
        words = {"a": a, "b": b}
        first = {"a": s0, "b": s0 + 1}
        second = {"a": s0 + 1, "b": s0}
        block = []
        for slots in (first, second):
            for u, v in (("a", "a"), ("a", "b"), ("b", "a"), ("b", "b")):
                block.append(dot(f(words[u], slots[u]), f(words[v], slots[v])))
        block.append(max(abs(block[j] - block[4 + j]) for j in range(4)))
        out += block
    return out


def norm(v):
    return math.sqrt(math.fsum(x * x for x in v))


def cosine(a, b):
    na, nb = norm(a), norm(b)
    return dot(a, b) / (na * nb) if na > 0 and nb > 0 else 0.0


def slot(stick, s):
    total = [x + s for x in stick]
    added = abs(s) * math.sqrt(len(stick))
    ns = norm(stick)
    share = added / (ns + added) if ns + added > 0 else 0.0
    return total + [cosine(stick, total), ns, added, share, cosine(total, [1.0] * len(stick))]


def normalized(s, length):
    return [s / length]


def marks(positions, width, base):
    return [x for p in positions for x in mark(p, width, base)]


def marked(stick, s, base):
    return [x + p for x, p in zip(stick, mark(s, len(stick), base))]


def extrapolate(pos, width, train, base):
    seen = [mark(t, width, base) for t in range(train)]
    lo = [min(row[j] for row in seen) for j in range(width)]
    hi = [max(row[j] for row in seen) for j in range(width)]
    value = mark(pos, width, base)
    outside = [1.0 if not lo[j] <= value[j] <= hi[j] else 0.0 for j in range(width)]
    return value + lo + hi + outside


def identity(a, b):
    reduced = a % (2 * PI)
    quadrant = min(4, int(reduced // (PI / 2)) + 1)
    sa, ca, sb, cb = math.sin(a), math.cos(a), math.sin(b), math.cos(b)
    return [sa, ca, sb, cb, reduced, float(quadrant), sa * cb, ca * sb, sa * cb + ca * sb,
            math.sin(a + b), ca * cb, sa * sb, ca * cb - sa * sb, math.cos(a + b)]


def angle_from(k, q):
    """Signed angle turning direction k into direction q, in (-pi, pi]."""
    return math.atan2(k[0] * q[1] - k[1] * q[0], k[0] * q[0] + k[1] * q[1])


def wrap(x, period):
    r = math.fmod(x, period)
    if r > period / 2:
        r -= period
    if r <= -period / 2:
        r += period
    return r


def cat(q0, q1, k0, k1, m, n, theta):
    qm, kn = turn(q0, q1, m * theta), turn(k0, k1, n * theta)
    cm, sm, cn, sn = math.cos(m * theta), math.sin(m * theta), math.cos(n * theta), math.sin(n * theta)
    start = angle_from([k0, k1], [q0, q1])
    after = angle_from(kn, qm)
    added = (q0 + sm) * (k0 + sn) + (q1 + cm) * (k1 + cn)
    return (qm + kn + [cm, sm, cn, sn, q0 * cm, q1 * sm, q0 * sm, q1 * cm,
                       k0 * cn, k1 * sn, k0 * sn, k1 * cn, m * theta, n * theta, (m - n) * theta,
                       start, after, wrap(start + (m - n) * theta, 2 * PI),
                       math.degrees(start), math.degrees(after),
                       qm[0] * kn[0], qm[1] * kn[1], dot(qm, kn), added,
                       math.hypot(q0, q1), math.hypot(*qm)])


def proof(q0, q1, k0, k1, m, n, theta):
    cm, sm, cn, sn = math.cos(m * theta), math.sin(m * theta), math.cos(n * theta), math.sin(n * theta)
    g = (m - n) * theta
    products = [q0 * k0, q0 * k1, q1 * k0, q1 * k1]
    terms = [q0 * k0 * cm * cn, -q0 * k1 * cm * sn, -q1 * k0 * sm * cn, q1 * k1 * sm * sn,
             q0 * k0 * sm * sn, q0 * k1 * sm * cn, q1 * k0 * cm * sn, q1 * k1 * cm * cn]
    brackets = [cm * cn + sm * sn, sm * cn - cm * sn, cm * sn - sm * cn, cm * cn + sm * sn]
    ids = [math.cos(g), math.sin(g), -math.sin(g), math.cos(g)]
    d, c = q0 * k0 + q1 * k1, q0 * k1 - q1 * k0
    direct = dot(turn(q0, q1, m * theta), turn(k0, k1, n * theta))
    return (terms + [math.fsum(terms)] + brackets + [dot(products, brackets)] + ids
            + [dot(products, ids), d, c, d * math.cos(g) + c * math.sin(g), direct] + products
            + [g, d * math.cos(g), c * math.sin(g)])


def clock_theta(theta, position, divide):
    t = theta / divide
    rad = position * t
    return [t, rad, math.degrees(rad), math.degrees(rad) % 360.0, rad / (2 * PI)]


def clock(pair, dim, base, position, divide):
    return clock_theta(freq(pair, dim, base), position, divide)


def rebase(pair, dim, old, new, gap, train):
    to, tn = freq(pair, dim, old), freq(pair, dim, new)
    return [to, tn, to / tn, math.degrees(gap * to) % 360.0, math.degrees(gap * tn) % 360.0,
            math.degrees(train * to), math.degrees(train * tn)]


def weights(pair, dim, old, new, train, widest):
    """Gap by gap: every gap once training swept a whole turn, else each whole gap's unwrapped
    angle against the wedge training reached (a relative 1e-9 lets the training length itself
    in), and the gaps within train."""
    to, tn = freq(pair, dim, old), freq(pair, dim, new)
    wedge = train * to
    last = math.floor(widest)
    gaps = range(last + 1)
    total = last + 1

    def inside(t):
        if wedge * (1 + 1e-9) >= 2 * PI:
            return total
        return sum(1 for g in gaps if g * t <= wedge * (1 + 1e-9))

    n_old, n_new = inside(to), inside(tn)
    seen = sum(1 for g in gaps if g <= train)
    return [to, tn, math.degrees(wedge), wedge / tn, 2 * PI / to, 2 * PI / tn,
            math.degrees(last * to) % 360.0, math.degrees(last * tn) % 360.0,
            total, n_old, n_new, seen, n_old / total, n_new / total, seen / total]


# ---- random cases ----

def vec(rng, n):
    return [rng.uniform(-2, 2) for _ in range(n)]


def make_case(rng, fn):
    base = rng.choice(BASES + (rng.uniform(2, 1e6),))
    if fn == "order":
        n = rng.randint(1, 9)
        return [vec(rng, n), vec(rng, n), rng.choice([0.0, float(rng.randint(0, 5000)),
                                                      rng.uniform(-1e4, 1e4)]), base]
    if fn == "slot":
        return [vec(rng, rng.randint(1, 9)), rng.choice([0.0, rng.uniform(-5, 5),
                                                         rng.uniform(0, 50000)])]
    if fn == "normalized":
        return [rng.uniform(0, 1e5), rng.uniform(0.5, 1e5)]
    if fn == "marks":
        return [[rng.uniform(0, 2e4) for _ in range(rng.randint(1, 6))], rng.randint(1, 9), base]
    if fn == "marked":
        return [vec(rng, rng.randint(1, 9)), rng.uniform(0, 2e4), base]
    if fn == "extrapolate":
        return [rng.uniform(0, 1e5), rng.randint(1, 9), rng.randint(1, 1500), base]
    if fn == "identity":
        return [rng.uniform(-1e3, 1e3), rng.uniform(-1e3, 1e3)]
    if fn in ("cat", "proof"):
        return vec(rng, 4) + [rng.uniform(-1e4, 1e4), rng.uniform(-1e4, 1e4), rng.uniform(-1, 1)]
    if fn == "clock":
        dim = 2 * rng.randint(1, 512)
        return [rng.randrange(dim // 2), dim, base, rng.uniform(-1e5, 1e5), rng.uniform(0.5, 64)]
    if fn == "clock_theta":
        return [rng.uniform(-1, 1), rng.uniform(-1e5, 1e5), rng.uniform(0.5, 64)]
    if fn == "rebase":
        dim = 2 * rng.randint(1, 512)
        return [rng.randrange(dim // 2), dim, rng.choice(BASES), rng.uniform(2, 1e7),
                rng.uniform(0, 1e5), rng.uniform(0, 1e5)]
    if fn == "weights":
        dim = 2 * rng.randint(1, 512)
        pair = rng.choice([dim // 2 - 1, rng.randrange(dim // 2), rng.randrange(dim // 8 + 1)])
        # Small training lengths leave a wedge under one turn that faster pairs pass many times.
        train = rng.choice([8192.0, float(rng.randint(0, 20000)), rng.uniform(0, 2e4), rng.uniform(0, 60)])
        return [pair, dim, rng.choice(BASES + (rng.uniform(2, 1e6),)), rng.uniform(2, 1e7),
                train, rng.choice([50000.0, rng.uniform(0, 6e4)])]
    raise ValueError(fn)


FUNCTIONS = {"order": order, "slot": slot, "normalized": normalized, "marks": marks,
             "marked": marked, "extrapolate": extrapolate, "identity": identity, "cat": cat,
             "proof": proof, "clock": clock, "clock_theta": clock_theta, "rebase": rebase,
             "weights": weights}


def periodic(fn, args, expect):
    """[slot, period, scale] for the slots reduced into one turn."""
    if fn == "identity":
        return [[4, 2 * PI, abs(args[0])]]
    if fn == "cat":
        m, n, theta = args[4:7]
        big = abs(m * theta) + abs(n * theta) + PI
        return [[19, 2 * PI, PI], [20, 2 * PI, big], [21, 2 * PI, big],
                [22, 360.0, 180.0], [23, 360.0, math.degrees(big)]]
    if fn in ("clock", "clock_theta"):
        return [[3, 360.0, abs(expect[2])]]
    if fn == "rebase":
        return [[3, 360.0, math.degrees(abs(args[4] * expect[0]))],
                [4, 360.0, math.degrees(abs(args[4] * expect[1]))]]
    if fn == "weights":
        last = math.floor(args[5])
        return [[6, 360.0, math.degrees(last * expect[0])], [7, 360.0, math.degrees(last * expect[1])]]
    return []


# ---- the post, checked ----

NOLAN = [2.0, 1.0, 1.0, 0.0]
CAT = (0.9, 0.4, 0.9, 0.4)
CHAPTERS = ["order", "slot", "normalized", "marks", "extrapolate", "identity", "cat", "proof",
            "planes", "clock", "weights"]


def _post_rows():
    """(id, chapter, printed, decimals, value) for every number the post prints that is
    checked, in our own recomputation."""
    rows = []

    def add(rid, chapter, printed, decimals, value):
        rows.append((rid, chapter, printed, decimals, value))

    for s, printed in ((1, [3, 2, 2, 1]), (5, [7, 6, 6, 5])):
        for j in range(4):
            add("slot.%d.%d" % (s, j), "slot", printed[j], 0, NOLAN[j] + s)
    for rid, a, b, p, dec in (("1of512", 1, 512, 0.00195, 5), ("256of512", 256, 512, 0.5, 3),
                              ("512of512", 512, 512, 1.0, 3), ("256of1024", 256, 1024, 0.25, 2)):
        add("norm." + rid, "normalized", p, dec, a / b)
    # "Positions 0, 6, 13 all get nearly the same mark": the whole positions nearest 0, 1 and 2
    # turns of a sine of frequency 1 (2 pi = 6.28, 4 pi = 12.57).
    for k, printed in enumerate((0, 6, 13)):
        add("marks.repeat.%d" % printed, "marks", printed, 0, k * 2 * PI)
    add("marks.sin30deg", "marks", 0.5, 1, math.sin(math.radians(30)))
    add("marks.sin150deg", "marks", 0.5, 1, math.sin(math.radians(150)))
    add("marks.freq0", "marks", 1.0, 1, 1 / 10000 ** 0)
    add("marks.freq1", "marks", 0.01, 2, 1 / 10000 ** 0.5)
    add("marks.sqrtbase", "marks", 100, 0, math.sqrt(10000))
    prose = {3: [0.141, -0.990, 0.030, 0.9996], 4: [-0.757, -0.654, 0.040, 0.999]}
    decimals = {3: [3, 3, 3, 4], 4: [3, 3, 3, 3]}
    for p in (3, 4):
        exact = [math.sin(p), math.cos(p), math.sin(p / 100), math.cos(p / 100)]
        for j in range(4):
            add("marks.p%d.%d" % (p, j), "marks", prose[p][j], decimals[p][j], exact[j])
    code = {3: [0.1411, -0.9900, 0.0300], 4: [-0.7568, -0.6536, 0.0400, 0.9992]}
    for p, printed in code.items():
        exact = [math.sin(p), math.cos(p), math.sin(p / 100), math.cos(p / 100)]
        for j, x in enumerate(printed):
            add("marks.code.p%d.%d" % (p, j), "marks", x, 4, exact[j])
    nolan3 = [2 + math.sin(3), 1 + math.cos(3), 1 + math.sin(0.03), 0 + math.cos(0.03)]
    for j, (x, dec) in enumerate(zip([2.141, 0.010, 1.030, 0.9996], [3, 3, 3, 4])):
        add("marks.nolan3.%d" % j, "marks", x, dec, nolan3[j])
    add("extra.sin512", "extrapolate", -0.398, 3, math.sin(512))
    add("extra.sin513", "extrapolate", 0.257, 3, math.sin(513))
    add("extra.sin100", "extrapolate", -0.506, 3, math.sin(100))
    add("id.sin47", "identity", 0.124, 3, math.sin(47))
    add("id.cos47", "identity", -0.992, 3, math.cos(47))
    add("id.turn47", "identity", 3.018, 3, 47 - 7 * 2 * PI)
    add("id.quadrant47", "identity", 2, 0, 2 if PI / 2 <= 47 - 14 * PI < PI else 0)
    add("id.cos4", "identity", -0.654, 3, math.cos(4))
    add("id.sin4", "identity", -0.757, 3, math.sin(4))
    add("id.sa_cb", "identity", -0.081, 3, math.sin(47) * math.cos(4))
    add("id.ca_sb", "identity", 0.751, 3, math.cos(47) * math.sin(4))
    add("id.sum", "identity", 0.670, 3, math.sin(47) * math.cos(4) + math.cos(47) * math.sin(4))
    add("id.direct", "identity", 0.670, 3, math.sin(51))
    q3, k7 = turn(0.9, 0.4, 0.3), turn(0.9, 0.4, 0.7)
    for rid, printed, dec, value in (
            ("cat.angle3", 0.3, 1, 3 * 0.1), ("cat.cos03", 0.9553, 4, math.cos(0.3)),
            ("cat.sin03", 0.2955, 4, math.sin(0.3)), ("cat.q3.xa", 0.860, 3, 0.9 * math.cos(0.3)),
            ("cat.q3.xb", 0.118, 3, 0.4 * math.sin(0.3)), ("cat.q3.x", 0.742, 3, q3[0]),
            ("cat.q3.ya", 0.266, 3, 0.9 * math.sin(0.3)), ("cat.q3.yb", 0.382, 3, 0.4 * math.cos(0.3)),
            ("cat.q3.y", 0.648, 3, q3[1]), ("cat.angle7", 0.7, 1, 7 * 0.1),
            ("cat.cos07", 0.7648, 4, math.cos(0.7)), ("cat.sin07", 0.6442, 4, math.sin(0.7)),
            ("cat.k7.xa", 0.688, 3, 0.9 * math.cos(0.7)), ("cat.k7.xb", 0.258, 3, 0.4 * math.sin(0.7)),
            ("cat.k7.x", 0.430, 3, k7[0]), ("cat.k7.ya", 0.580, 3, 0.9 * math.sin(0.7)),
            ("cat.k7.yb", 0.306, 3, 0.4 * math.cos(0.7)), ("cat.k7.y", 0.886, 3, k7[1]),
            ("cat.length", 0.985, 3, math.hypot(0.9, 0.4)),
            ("cat.code.q3.x", 0.7416, 4, q3[0]), ("cat.code.q3.y", 0.6481, 4, q3[1]),
            ("cat.code.k7.x", 0.4307, 4, k7[0]), ("cat.code.k7.y", 0.8857, 4, k7[1])):
        add(rid, "cat", printed, dec, value)
    score = dot(q3, k7)
    by_formula = 0.97 * math.cos(-0.4)
    q10, k14 = turn(0.9, 0.4, 1.0), turn(0.9, 0.4, 1.4)
    for rid, printed, dec, value in (
            ("proof.x0", 0.319, 3, q3[0] * k7[0]), ("proof.x1", 0.574, 3, q3[1] * k7[1]),
            ("proof.direct", 0.893, 3, score), ("proof.q0k0", 0.81, 2, 0.81),
            ("proof.q1k1", 0.16, 2, 0.16), ("proof.dot", 0.97, 2, 0.9 * 0.9 + 0.4 * 0.4),
            ("proof.q0k1", 0.36, 2, 0.9 * 0.4), ("proof.q1k0", 0.36, 2, 0.4 * 0.9),
            ("proof.cross", 0.00, 2, 0.9 * 0.4 - 0.4 * 0.9), ("proof.gap", -0.4, 1, -4 * 0.1),
            ("proof.cosg", 0.921, 3, math.cos(-0.4)), ("proof.sing", -0.389, 3, math.sin(-0.4)),
            ("proof.formula", 0.894, 3, by_formula), ("proof.code.direct", 0.8934, 4, score),
            ("proof.code.cosg", 0.9211, 4, math.cos(-0.4)),
            ("proof.code.sing", -0.3894, 4, math.sin(-0.4)),
            ("proof.code.formula", 0.8934, 4, by_formula),
            ("proof.code.cos1", 0.5403, 4, math.cos(1.0)), ("proof.code.sin1", 0.8415, 4, math.sin(1.0)),
            ("proof.code.q10.x", 0.1497, 4, q10[0]), ("proof.code.q10.y", 0.9734, 4, q10[1]),
            ("proof.code.cos14", 0.1700, 4, math.cos(1.4)), ("proof.code.sin14", 0.9854, 4, math.sin(1.4)),
            ("proof.code.k14.x", -0.2412, 4, k14[0]), ("proof.code.k14.y", 0.9549, 4, k14[1]),
            ("proof.code.x0", -0.0361, 4, q10[0] * k14[0]), ("proof.code.x1", 0.9295, 4, q10[1] * k14[1]),
            ("proof.code.shifted", 0.8934, 4, dot(q10, k14))):
        add(rid, "proof", printed, dec, value)
    a = 3 * 1e-4
    for rid, printed, dec, value in (
            ("planes.slow.angle", 0.0003, 4, a), ("planes.slow.cos", 1.000, 3, math.cos(a)),
            ("planes.slow.sin", 0.000300, 6, math.sin(a)), ("planes.slow.xa", 0.900, 3, 0.9 * math.cos(a)),
            ("planes.slow.xb", 0.000120, 6, 0.4 * math.sin(a)),
            ("planes.slow.x", 0.8999, 4, turn(0.9, 0.4, a)[0]),
            ("planes.slow.ya", 0.000270, 6, 0.9 * math.sin(a)), ("planes.slow.yb", 0.4, 1, 0.4 * math.cos(a)),
            ("planes.slow.y", 0.4003, 4, turn(0.9, 0.4, a)[1]), ("planes.slow3000", 0.3, 1, 3000 * 1e-4)):
        add(rid, "planes", printed, dec, value)
    old, new = 10000 ** (-510 / 512), 500000 ** (-510 / 512)
    for rid, printed, dec, value in (
            ("clock.fast.rad", 819.2, 1, 8192 * 0.1), ("clock.fast.turns", 130, 0, 819.2 / (2 * PI)),
            ("clock.train.rad", 0.8192, 4, 0.8192), ("clock.train.deg", 46.9, 1, math.degrees(0.8192)),
            ("clock.train.deg0", 47, 0, math.degrees(0.8192)), ("clock.gap.rad", 5.0, 1, 5.0),
            ("clock.gap.deg", 287, 0, math.degrees(5.0)), ("clock.div8.rad", 0.625, 3, 5.0 / 8),
            ("clock.div8.deg", 35.8, 1, math.degrees(5.0 / 8)), ("clock.theta.old", 0.000104, 6, old),
            ("clock.theta.new", 0.0000021, 7, new), ("clock.ratio", 49, 0, old / new),
            ("clock.new.rad", 0.105, 3, 50000 * new), ("clock.new.deg", 6, 0, math.degrees(50000 * new)),
            ("clock.old.rad", 5.2, 1, 50000 * old), ("clock.old.deg", 298, 0, math.degrees(50000 * old)),
            ("clock.trained.rad", 0.85, 2, 8192 * old),
            ("clock.trained.deg", 49, 0, math.degrees(8192 * old))):
        add(rid, "clock", printed, dec, value)
    add("weights.cheaper", "weights", 80, 0, 800 / 10)
    return rows


POST = _post_rows()
# The rows where the post's printed number is not the true value rounded (docs/LESSON.md).
SLIPS = {"extra.sin512", "extra.sin513", "cat.k7.x", "proof.formula", "clock.gap.deg",
         "clock.old.deg"}


def post_matches(printed, decimals, value):
    """docs/LESSON.md's rule: within half a unit of the last printed decimal."""
    return abs(value - printed) <= 0.5 * 10.0 ** -decimals * (1 + 1e-9)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int)
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-function", type=int, default=40)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else testlib.seed("ref_lesson")
    if args.seed is not None:
        print("ref_lesson: ROPE_TEST_SEED=%d (set it to reproduce this run)" % seed)
    wrong = {rid for rid, _, p, d, v in POST if not post_matches(p, d, v)}
    if wrong != SLIPS:
        print("ref_lesson: the reference's own slips %s differ from SLIPS %s"
              % (sorted(wrong), sorted(SLIPS)))
        sys.exit(1)
    rng = random.Random(seed)
    cases = []
    for fn, f in FUNCTIONS.items():
        for _ in range(args.per_function):
            a = make_case(rng, fn)
            e = f(*a)
            cases.append({"fn": fn, "args": a, "expect": e, "periodic": periodic(fn, a, e)})
    post = [{"id": rid, "chapter": ch, "printed": p, "decimals": d, "value": v,
             "matches": post_matches(p, d, v)} for rid, ch, p, d, v in POST]
    doc = {"seed": seed, "tolerance": {"abs": testlib.ABS_TOL, "rel": testlib.REL_TOL},
           "cases": cases, "post": post, "slips": sorted(SLIPS), "chapters": CHAPTERS}
    with open(args.out, "w") as f:
        json.dump(doc, f)
    print("ref_lesson: wrote %d cases and %d post rows to %s" % (len(cases), len(post), args.out))


if __name__ == "__main__":
    main()
