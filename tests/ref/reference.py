#!/usr/bin/env python3
"""An independent reference for docs/SPEC.md, in plain Python (math, json, random).

Every function is written the obvious way from the contract text: rotated
vectors are built, then dotted; position vectors are built, then added. It
shares no code with c_src/ and is the oracle for the differential tests.

Bad input (a dimension outside [0, 65536], a base that is not finite or <= 1,
a non-finite position or vector entry, mismatched lengths) raises ValueError.

As a command, `python3 tests/ref/reference.py --batch` reads a JSON list of calls
    [{"fn": "thetas", "args": [64, 10000]}, ...]
on stdin (args positional, in contract order; build_report takes one dict)
and prints a JSON list with one result per call: arrays as lists,
offset_scan rows as [s, rope, add], build_report as the report dict. A call
that raises prints {"error": "<message>"} in its place.
"""
import json
import math
import sys

DIM = 64
THETA_BASE = 10000.0
MAX_DIM = 65536
MAX_COUNT = 65536
MAX_POSITION = 1e10
MAX_WORK = 8388608

DEFAULT_REPORT = {
    "dim": DIM,
    "base": THETA_BASE,
    "offset": 2.0,
    "starts": [3.0, 10.0, 100.0, 4000.0],
    "deltas": [1.0, 16.0, 256.0, 4096.0],
    "norm_positions": [0.0, 1.0, 7.0, 100.0, 4096.0],
}


# ---- input checks (docs/SPEC.md, "Bad input") ----

def _check_dim(d):
    if isinstance(d, bool) or not isinstance(d, int) or d < 0 or d > MAX_DIM:
        raise ValueError("d must be an integer in [0, %d], got %r" % (MAX_DIM, d))


def _check_base(base):
    if not _is_finite_number(base) or base <= 1:
        raise ValueError("base must be a finite number > 1, got %r" % (base,))


def _check_position(name, value):
    if not _is_finite_number(value):
        raise ValueError("%s must be a finite number, got %r" % (name, value))


class LimitError(ValueError):
    """Valid numbers past a documented limit; code is "far" or "work"."""

    def __init__(self, code, message):
        ValueError.__init__(self, message)
        self.code = code


def _check_rotating(name, value):
    """A position something is rotated by: finite, and within MAX_POSITION."""
    _check_position(name, value)
    if abs(value) > MAX_POSITION:
        raise LimitError("far", "%s %r is beyond %g, where doubles can no longer resolve the "
                         "angle" % (name, value, MAX_POSITION))


def _check_work(d, count):
    if d * count > MAX_WORK:
        raise LimitError("work", "d x count = %d x %d is above %d" % (d, count, MAX_WORK))


def _check_vector(name, vec):
    for j, x in enumerate(vec):
        if not _is_finite_number(x):
            raise ValueError("%s[%d] must be a finite number, got %r" % (name, j, x))
    _check_dim(len(vec))


def _check_count(name, n):
    if isinstance(n, bool) or not isinstance(n, int) or n < 0 or n > MAX_COUNT:
        raise ValueError("%s must be an integer in [0, %d], got %r" % (name, MAX_COUNT, n))


def _is_finite_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


# ---- the contract functions ----

def demo_vectors(d=DIM):
    _check_dim(d)
    q = [math.cos(0.7 * j + 0.3) for j in range(d)]
    k = [math.sin(0.4 * j + 1.1) for j in range(d)]
    return [q, k]


def dot(a, b):
    _check_vector("a", a)
    _check_vector("b", b)
    if len(a) != len(b):
        raise ValueError("lengths must match, got %d and %d" % (len(a), len(b)))
    total = 0.0
    for x, y in zip(a, b):
        total += x * y
    return total


def norm(vec):
    return math.sqrt(dot(vec, vec))


def thetas(d, base=THETA_BASE):
    _check_dim(d)
    _check_base(base)
    return [base ** (-2 * i / d) for i in range(d // 2)]


def rotate_pair(x0, x1, angle):
    _check_position("x0", x0)
    _check_position("x1", x1)
    _check_position("angle", angle)
    c, s = math.cos(angle), math.sin(angle)
    return [x0 * c - x1 * s, x0 * s + x1 * c]


def apply_rope(vec, pos, base=THETA_BASE):
    _check_vector("vec", vec)
    _check_rotating("pos", pos)
    out = list(vec)
    for i, theta in enumerate(thetas(len(vec), base)):
        out[2 * i], out[2 * i + 1] = rotate_pair(vec[2 * i], vec[2 * i + 1], pos * theta)
    return out


def rope_score(q, k, m, n, base=THETA_BASE):
    return dot(apply_rope(q, m, base), apply_rope(k, n, base))


def sin_pos(pos, d, base=THETA_BASE):
    _check_rotating("pos", pos)
    _check_dim(d)
    _check_base(base)
    out = []
    for j in range(d):
        angle = pos / base ** ((2 * (j // 2)) / d)
        out.append(math.sin(angle) if j % 2 == 0 else math.cos(angle))
    return out


def add_score(q, k, m, n, base=THETA_BASE):
    _check_vector("q", q)
    _check_vector("k", k)
    qm = [x + p for x, p in zip(q, sin_pos(m, len(q), base))]
    kn = [x + p for x, p in zip(k, sin_pos(n, len(k), base))]
    return dot(qm, kn)


def offset_scan(q, k, offset, starts, base=THETA_BASE):
    _check_vector("q", q)
    _check_vector("k", k)
    _check_position("offset", offset)
    _check_count("the number of starts", len(starts))
    for s in starts:
        _check_position("start", s)
    _check_base(base)
    _check_work(len(q), len(starts))
    return [[s, rope_score(q, k, s + offset, s, base), add_score(q, k, s + offset, s, base)]
            for s in starts]


def turns(d, delta, base=THETA_BASE):
    _check_position("delta", delta)
    return [delta * theta / (2 * math.pi) for theta in thetas(d, base)]


def slow_pairs(d, delta, base=THETA_BASE):
    return sum(1 for t in turns(d, delta, base) if t < 1.0)


# ---- the batch functions of the core ----

def pair_angles(d, gap, base=THETA_BASE):
    _check_rotating("gap", gap)
    return [gap * theta for theta in thetas(d, base)]


def offset_sweep(q, k, offset, start0, step, count, base=THETA_BASE):
    _check_position("start0", start0)
    _check_position("step", step)
    _check_count("count", count)
    _check_vector("q", q)
    _check_work(len(q), count)
    starts = [start0 + j * step for j in range(count)]
    rows = offset_scan(q, k, offset, starts, base)
    return [[r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]]


def slow_pairs_batch(d, deltas, base=THETA_BASE):
    _check_count("the number of deltas", len(deltas))
    for delta in deltas:
        _check_position("delta", delta)
    _check_dim(d)
    _check_base(base)
    _check_work(d, len(deltas))
    return [slow_pairs(d, delta, base) for delta in deltas]


def norm_gaps(vec, positions, base=THETA_BASE):
    _check_count("the number of positions", len(positions))
    _check_vector("vec", vec)
    for p in positions:
        _check_rotating("position", p)
    _check_work(len(vec), len(positions))
    before = norm(vec)
    return [abs(norm(apply_rope(vec, p, base)) - before) for p in positions]


# ---- the report ----

def build_report(options=None):
    """The 14-key report of docs/SPEC.md; options may set dim, base, offset,
    starts, deltas and norm_positions (the rest take the defaults)."""
    opts = dict(DEFAULT_REPORT)
    for key, value in (options or {}).items():
        if key not in DEFAULT_REPORT:
            raise ValueError("unknown report option %r" % (key,))
        opts[key] = value
    dim, base, offset = opts["dim"], opts["base"], opts["offset"]
    starts, deltas = list(opts["starts"]), list(opts["deltas"])
    if not starts:
        raise ValueError("starts must hold at least one start")
    q, k = demo_vectors(dim)
    rows = offset_scan(q, k, offset, starts, base)
    rope_scores = [r[1] for r in rows]
    add_scores = [r[2] for r in rows]
    gaps = norm_gaps(q, list(opts["norm_positions"]), base)
    turn_lists = [turns(dim, delta, base) for delta in deltas]
    return {
        "dim": dim,
        "base": base,
        "offset": offset,
        "starts": starts,
        "deltas": deltas,
        "rope_scores": rope_scores,
        "add_scores": add_scores,
        "rope_spread": max(rope_scores) - min(rope_scores),
        "add_spread": max(add_scores) - min(add_scores),
        "norm_before": norm(q),
        "norm_max_gap": max(gaps, default=0.0),
        "slow_pairs": [slow_pairs(dim, delta, base) for delta in deltas],
        # With fewer than two dimensions there is no pair to report.
        "turns_first": [t[0] if t else None for t in turn_lists],
        "turns_last": [t[-1] if t else None for t in turn_lists],
    }


FUNCTIONS = {
    "demo_vectors": demo_vectors,
    "dot": dot,
    "norm": norm,
    "thetas": thetas,
    "rotate_pair": rotate_pair,
    "apply_rope": apply_rope,
    "rope_score": rope_score,
    "sin_pos": sin_pos,
    "add_score": add_score,
    "offset_scan": offset_scan,
    "turns": turns,
    "slow_pairs": slow_pairs,
    "build_report": build_report,
    "pair_angles": pair_angles,
    "offset_sweep": offset_sweep,
    "slow_pairs_batch": slow_pairs_batch,
    "norm_gaps": norm_gaps,
}


def call(fn, args):
    """Runs one {"fn", "args"} call; unknown names raise ValueError."""
    if fn not in FUNCTIONS:
        raise ValueError("unknown function %r" % (fn,))
    return FUNCTIONS[fn](*args)


def run_batch(calls):
    results = []
    for c in calls:
        try:
            results.append(call(c["fn"], c.get("args", [])))
        except (ValueError, TypeError) as e:
            results.append({"error": str(e)})
    return results


def main(argv):
    if argv[1:] != ["--batch"]:
        sys.stderr.write("usage: python3 tests/ref/reference.py --batch < calls.json\n")
        return 2
    json.dump(run_batch(json.load(sys.stdin)), sys.stdout, allow_nan=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
