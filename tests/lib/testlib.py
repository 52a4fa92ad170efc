"""Helpers every Python test shares: the paths of the build, the contract's
tolerance, the run's seed and the pass/fail tally."""
import math
import os
import random

ABS_TOL = 1e-9
REL_TOL = 1e-6

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.path.join(ROOT, "build", "ropescope")
MODELS = os.path.join(ROOT, "web", "models")


def close(got, expect, abs_tol=ABS_TOL, rel_tol=REL_TOL):
    """docs/SPEC.md's comparison: |got - expect| <= abs_tol + rel_tol * |expect|;
    a got that is not finite is never close."""
    return math.isfinite(got) and abs(got - expect) <= abs_tol + rel_tol * abs(expect)


def seed(name="test"):
    """ROPE_TEST_SEED if set, else a fresh random seed; printed so a run can be repeated."""
    text = os.environ.get("ROPE_TEST_SEED")
    value = int(text) if text else random.SystemRandom().randrange(2**32)
    print("%s: ROPE_TEST_SEED=%d (set it to reproduce this run)" % (name, value), flush=True)
    return value


class Tally:
    """Counts passed and failed checks; each failure prints "FAIL <what>", then
    up to six of its problems indented."""

    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL %s" % what)

    def record(self, what, problems):
        self.check(not problems, what)
        for p in problems[:6]:
            print("  " + p)


def only(groups):
    """The test groups this run runs: all of them, or those whose name contains the text after
    `--only` on the command line (or in ROPE_TEST_ONLY), to run one group while working on it.
    A filter that matches no group stops the run with the names it could have matched."""
    import sys
    text = os.environ.get("ROPE_TEST_ONLY", "")
    if "--only" in sys.argv:
        at = sys.argv.index("--only")
        if at + 1 >= len(sys.argv):
            sys.exit("--only needs a part of a test group's name")
        text = sys.argv[at + 1]
        del sys.argv[at:at + 2]
    if not text:
        return list(groups)
    chosen = [g for g in groups if text in g.__name__]
    if not chosen:
        sys.exit("--only %r matches no test group; the groups: %s" % (text, ", ".join(g.__name__ for g in groups)))
    print("only the test groups matching %r: %s" % (text, ", ".join(g.__name__ for g in chosen)), flush=True)
    return chosen
