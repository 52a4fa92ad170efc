#!/usr/bin/env python3
"""Writes fresh random differential cases, their expected values taken from
tests/ref/reference.py.

    python3 tests/diff/gen_cases.py --seed N --out build/cases.json [--count 1200]

Without --seed the seed comes from ROPE_TEST_SEED, else a random one; it is
printed as ROPE_TEST_SEED=<n> so that any run can be reproduced. The file is
    {"seed": N, "tolerance": {"abs": 1e-9, "rel": 1e-6},
     "cases": [{"fn": name, "args": [...contract order...], "expect": value}, ...],
     "limit_cases": [{"fn": name, "args": [...], "error": "far" | "work"}, ...]}
limit_cases are valid numbers past a documented limit (a position beyond
MAX_POSITION, a call whose d x count exceeds MAX_WORK): the reference raises,
and the core must return ROPE_E_FAR or ROPE_E_WORK.
and is read by tests/diff/diff_native.py and the JS tests. Integers (slow_pairs,
slow_pairs_batch) compare exactly, every float as abs(a - b) <= abs + rel * abs(b).
"""
import argparse
import json
import math
import os
import random
import sys

sys.dont_write_bytecode = True  # keep tests/ free of __pycache__
# The folders beside this one that it imports from: tests/lib, tests/ref.
sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("lib", "ref")]
import reference  # noqa: E402
import testlib  # noqa: E402

TOLERANCE = {"abs": testlib.ABS_TOL, "rel": testlib.REL_TOL}
MAX_POS = 4096.0

# Every function under test, each with the same share of the cases.
FUNCTIONS = [
    "demo_vectors", "dot", "norm", "thetas", "rotate_pair", "apply_rope", "rope_score",
    "sin_pos", "add_score", "offset_scan", "turns", "slow_pairs", "pair_angles",
    "offset_sweep", "slow_pairs_batch", "norm_gaps",
]
# rotate_pair takes no dimension; every other function also gets d = 0 and d = 1.
EDGE_DIMS = [0, 1, 2, 3]
# The largest dimensions, where the result stays small enough to store.
MAX_DIM_CASES = [("slow_pairs", 65536), ("slow_pairs", 65535), ("slow_pairs_batch", 65536),
                 ("thetas", 4097), ("pair_angles", 4096)]


class Draw:
    """The random choices one case needs, all from one seeded generator."""

    def __init__(self, rng):
        self.rng = rng

    def dim(self, cap=512):
        r = self.rng.random()
        if r < 0.45:
            d = self.rng.randint(0, 16)
        elif r < 0.80:
            d = self.rng.randint(17, 96)
        elif r < 0.93:
            d = self.rng.randint(97, 256)
        else:
            d = self.rng.randint(257, 512)
        return min(d, cap)

    def base(self):
        if self.rng.random() < 0.15:
            return reference.THETA_BASE
        return math.exp(self.rng.uniform(math.log(50.0), math.log(2e6)))

    def position(self):
        r = self.rng.random()
        if r < 0.08:
            return 0.0
        if r < 0.25:
            return float(self.rng.randint(0, int(MAX_POS)))
        if r < 0.40:
            return self.rng.uniform(0.0, 10.0)
        if r < 0.50:
            return -self.rng.uniform(0.0, 200.0)
        return self.rng.uniform(0.0, MAX_POS)

    def offset(self):
        r = self.rng.random()
        if r < 0.3:
            return float(self.rng.randint(-16, 64))
        if r < 0.5:
            return self.rng.uniform(-8.0, 8.0)
        return self.rng.uniform(-256.0, 512.0)

    def positions(self, lo, hi):
        return [self.position() for _ in range(self.rng.randint(lo, hi))]

    def vector(self, d):
        # Long vectors are written with fewer digits to keep the file small;
        # each is still an exact double, so nothing is lost.
        digits = None if d <= 16 or self.rng.random() < 0.1 else 6
        scale = self.rng.choice([1.0, 1.0, 0.1, 10.0])
        return [self._round(self.rng.gauss(0.0, scale), digits) for _ in range(d)]

    @staticmethod
    def _round(x, digits):
        return x if digits is None else float("%.*g" % (digits, x))

    def sweep(self):
        """start0, step, count with every start in [0, 4096]."""
        count = self.rng.choice([0, 1, 2, 3]) if self.rng.random() < 0.15 \
            else self.rng.randint(4, 300)
        span = max(count - 1, 1)
        r = self.rng.random()
        if r < 0.25:
            step = 1.0
        elif r < 0.45:
            step = self.rng.choice([0.5, 0.25, 0.125, 2.0, 8.0])
        else:
            step = self.rng.uniform(0.01, MAX_POS / span)
        step = min(step, MAX_POS / span)
        start0 = self.rng.uniform(0.0, MAX_POS - (count - 1) * step) if count > 1 \
            else self.rng.uniform(0.0, MAX_POS)
        if self.rng.random() < 0.1:
            start0 = 0.0
        return start0, step, count


def make_args(fn, d, draw):
    """Positional arguments, in contract order, for one case of fn in dimension d."""
    rng = draw.rng
    base = draw.base()
    if fn == "demo_vectors":
        return [d]
    if fn == "dot":
        return [draw.vector(d), draw.vector(d)]
    if fn == "norm":
        return [draw.vector(d)]
    if fn == "thetas":
        return [d, base]
    if fn == "rotate_pair":
        if rng.random() < 0.1:
            return [1.0, 0.0, math.pi / 2]
        return [rng.gauss(0.0, 3.0), rng.gauss(0.0, 3.0), rng.uniform(-MAX_POS, MAX_POS)
                if rng.random() < 0.5 else rng.uniform(-7.0, 7.0)]
    if fn == "apply_rope":
        return [draw.vector(d), draw.position(), base]
    if fn in ("rope_score", "add_score"):
        return [draw.vector(d), draw.vector(d), draw.position(), draw.position(), base]
    if fn == "sin_pos":
        return [draw.position(), d, base]
    if fn == "offset_scan":
        starts = draw.positions(0 if rng.random() < 0.05 else 1, 8)
        return [draw.vector(d), draw.vector(d), draw.offset(), starts, base]
    if fn in ("turns", "slow_pairs", "pair_angles"):
        return [d, draw.position(), base]
    if fn == "offset_sweep":
        offset = draw.offset()
        start0, step, count = draw.sweep()
        return [draw.vector(d), draw.vector(d), offset, start0, step, count, base]
    if fn == "slow_pairs_batch":
        return [d, draw.positions(0 if rng.random() < 0.05 else 1, 12), base]
    if fn == "norm_gaps":
        return [draw.vector(d), draw.positions(0 if rng.random() < 0.05 else 1, 10), base]
    raise ValueError("no generator for %r" % (fn,))


def dim_for(fn, draw):
    # Sweeps and scans cost count * d trigonometry in the reference: keep them shorter.
    if fn == "offset_sweep":
        return draw.dim(cap=160)
    if fn in ("offset_scan", "norm_gaps"):
        return draw.dim(cap=384)
    return draw.dim()


def far(rng):
    """A finite position past MAX_POSITION, of either sign, up to 1e300."""
    magnitude = reference.MAX_POSITION * 10 ** rng.uniform(0.001, 290.0)
    return magnitude if rng.random() < 0.5 else -magnitude


def limit_args(fn, draw):
    """Arguments for fn with exactly one value past a limit."""
    rng = draw.rng
    d = draw.dim(cap=16)
    base = draw.base()
    if fn == "apply_rope":
        return [draw.vector(d), far(rng), base]
    if fn in ("rope_score", "add_score"):
        m, n = (far(rng), draw.position()) if rng.random() < 0.5 else (draw.position(), far(rng))
        return [draw.vector(d), draw.vector(d), m, n, base]
    if fn == "sin_pos":
        return [far(rng), d, base]
    if fn == "pair_angles":
        return [d, far(rng), base]
    if fn == "offset_scan":
        starts = draw.positions(1, 6)
        if rng.random() < 0.5:
            starts[rng.randrange(len(starts))] = far(rng)
            return [draw.vector(d), draw.vector(d), draw.offset(), starts, base]
        return [draw.vector(d), draw.vector(d), far(rng), starts, base]  # s + offset is far
    if fn == "offset_sweep":
        return [draw.vector(d), draw.vector(d), draw.offset(), far(rng), 1.0, 3, base]
    if fn == "norm_gaps":
        positions = draw.positions(1, 6)
        positions[rng.randrange(len(positions))] = far(rng)
        return [draw.vector(d), positions, base]
    raise ValueError("no limit case for %r" % (fn,))


def work_args(fn, draw):
    """Arguments whose d x count is just past MAX_WORK (zeros keep the file small)."""
    rng = draw.rng
    if fn == "slow_pairs_batch":
        d = rng.randint(4097, 65536)
        return [d, [1.0] * (reference.MAX_WORK // d + rng.randint(1, 3)), reference.THETA_BASE]
    d = rng.randint(4097, 8192)
    count = reference.MAX_WORK // d + 1
    zeros = [0.0] * d
    if fn == "offset_sweep":
        return [zeros, zeros, 1.0, 0.0, 1.0, count, reference.THETA_BASE]
    if fn == "offset_scan":
        return [zeros, zeros, 1.0, [0.0] * count, reference.THETA_BASE]
    raise ValueError("no work case for %r" % (fn,))


def limit_cases(draw):
    cases = []
    plans = [(fn, limit_args) for fn in ("apply_rope", "rope_score", "add_score", "sin_pos",
                                          "pair_angles", "offset_scan", "offset_sweep",
                                          "norm_gaps") for _ in range(3)]
    plans += [(fn, work_args) for fn in ("slow_pairs_batch", "offset_sweep", "offset_scan")]
    for fn, make in plans:
        args = make(fn, draw)
        try:
            reference.call(fn, args)
        except reference.LimitError as e:
            cases.append({"fn": fn, "args": args, "error": e.code})
            continue
        raise AssertionError("the reference accepted a limit case of %s: %r" % (fn, args))
    return cases


def generate(seed, count):
    draw = Draw(random.Random(seed))
    plan = []
    for fn in FUNCTIONS:
        dims = [] if fn == "rotate_pair" else list(EDGE_DIMS)
        plan += [(fn, d) for d in dims]
    plan += MAX_DIM_CASES
    while len(plan) < count:
        fn = FUNCTIONS[len(plan) % len(FUNCTIONS)]
        plan.append((fn, None))
    cases = []
    for fn, d in plan:
        if d is None:
            d = dim_for(fn, draw)
        args = make_args(fn, d, draw)
        cases.append({"fn": fn, "args": args, "expect": reference.call(fn, args)})
    return cases


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--out", required=True)
    parser.add_argument("--count", type=int, default=1200)
    opts = parser.parse_args(argv)
    seed = opts.seed
    if seed is None:
        env = os.environ.get("ROPE_TEST_SEED", "")
        seed = int(env) if env.strip() else random.SystemRandom().randrange(2 ** 32)
    cases = generate(seed, max(opts.count, 1))
    limits = limit_cases(Draw(random.Random(seed + 1)))
    doc = {"seed": seed, "tolerance": TOLERANCE, "cases": cases, "limit_cases": limits}
    out_dir = os.path.dirname(opts.out)
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    tmp = opts.out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, allow_nan=False, separators=(",", ":"))
        f.write("\n")
    os.replace(tmp, opts.out)
    size = os.path.getsize(opts.out)
    print("ROPE_TEST_SEED=%d: wrote %d cases (%d functions) and %d limit cases to %s, %.2f MB"
          % (seed, len(cases), len({c["fn"] for c in cases}), len(limits), opts.out, size / 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
