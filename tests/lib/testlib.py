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
