"""Helpers every Python test shares: the contract's tolerance and the run's seed."""
import math
import os
import random

ABS_TOL = 1e-9
REL_TOL = 1e-6


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
