#!/usr/bin/env python3
"""Checks a written report (rope_report.json, rope_report.md) against
tests/ref/reference.py's build_report for the same settings.

    python3 tests/diff/check_report.py --json FILE [--md FILE] [--dim N] [--base B]
        [--gap G] [--starts a,b,...] [--deltas a,b,...] [--norm-positions a,b,...]

As a module: check_report(obj, options) checks a parsed report object,
check_json_text(text, options) also checks how its numbers were written, and
check_markdown(text, options) checks the Markdown. Each returns a list of
problems (empty when all is well). options uses build_report's keys (dim,
base, offset, starts, deltas, norm_positions); missing ones take the defaults.
"""
import argparse
import json
import math
import os
import re
import sys
from decimal import Decimal

sys.dont_write_bytecode = True  # keep tests/ free of __pycache__
# The folders beside this one that it imports from: tests/lib, tests/ref.
sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("lib", "ref")]
import reference  # noqa: E402
from testlib import close  # noqa: E402
# The Markdown states numbers to at least 6 decimals.
MD_DECIMALS = 6
MD_TOL = 1e-6

KEYS = [
    "dim", "base", "offset", "starts", "deltas", "rope_scores", "add_scores", "rope_spread",
    "add_spread", "norm_before", "norm_max_gap", "slow_pairs", "turns_first", "turns_last",
]
INT_KEYS = {"dim", "slow_pairs"}
# Settings are echoed, not computed, so they must read back to the very same doubles.
ECHO_KEYS = ["base", "offset", "starts", "deltas"]
HEADINGS = [
    "## 무엇을 쟀나",
    "## 같은 간격이면 같은 점수다",
    "## 더하는 방식은 왜 다른가",
    "## 멀어지면 어느 성분이 남는가",
]


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def compare(key, got, expect):
    """Problems of one report value against the reference value."""
    if isinstance(expect, list):
        if not isinstance(got, list):
            return ["%s: expected a list of %d, got %r" % (key, len(expect), got)]
        if len(got) != len(expect):
            return ["%s: expected %d values, got %d" % (key, len(expect), len(got))]
        problems = []
        for j, (g, e) in enumerate(zip(got, expect)):
            problems += compare("%s[%d]" % (key, j), g, e)
        return problems
    if expect is None:
        return [] if got is None else ["%s: expected null (no pair), got %r" % (key, got)]
    if key.split("[")[0] in INT_KEYS:
        if isinstance(got, bool) or not isinstance(got, int) or got != expect:
            return ["%s: expected the integer %d, got %r" % (key, expect, got)]
        return []
    if not is_number(got) or not math.isfinite(got):
        return ["%s: expected a finite number near %r, got %r" % (key, expect, got)]
    if not close(got, expect):
        return ["%s: expected %r, got %r (diff %.3g)" % (key, expect, got, abs(got - expect))]
    return []


def check_report(obj, options=None):
    """Problems of a parsed rope_report.json object for the given settings."""
    if not isinstance(obj, dict):
        return ["the report is not a JSON object"]
    problems = []
    missing = [k for k in KEYS if k not in obj]
    extra = [k for k in obj if k not in KEYS]
    if missing:
        problems.append("missing keys: %s" % ", ".join(missing))
    if extra:
        problems.append("unexpected keys: %s" % ", ".join(extra))
    ref = reference.build_report(options or {})
    for key in KEYS:
        if key in obj:
            problems += compare(key, obj[key], ref[key])
    for key in ECHO_KEYS:
        if key in obj and not echoes(obj[key], ref[key]):
            problems.append("%s: reads back as %r, not the exact setting %r (digits were lost)"
                            % (key, obj[key], ref[key]))
    return problems


def echoes(got, want):
    # A round-trip identity, so exact comparison is the point here.
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(
            echoes(g, w) for g, w in zip(got, want))
    return is_number(got) and float(got) == float(want)


def significant_digits(token):
    mantissa = re.split("[eE]", token.lstrip("+-"))[0].replace(".", "")
    return len(mantissa.lstrip("0")) or 1


def token_problem(token):
    """Why a number token would not read back to the double it was written
    from, or None. Accepted: 17 significant digits, %.17g with its trailing
    zeros dropped, or the shortest round-trip form (Python's repr)."""
    digits = significant_digits(token)
    if digits > 17:
        return "%s has more than 17 significant digits" % token
    value = float(token)
    if not math.isfinite(value):
        return "%s is not a finite double" % token
    if digits == 17:
        return None
    written = Decimal(token)
    if written == Decimal(repr(value)) or written == Decimal("%.17g" % value):
        return None
    return ("%s is neither 17 significant digits nor the shortest form %r of the double it "
            "reads as" % (token, value))


def check_json_text(text, options=None):
    """Problems of a rope_report.json text: parses, has the reference's values,
    and writes every number so that it reads back to one exact double."""
    tokens = []

    def keep(kind):
        def parse(token):
            tokens.append(token)
            return kind(token)
        return parse

    try:
        obj = json.loads(text, parse_float=keep(float), parse_int=keep(int),
                         parse_constant=lambda name: float(name))
    except ValueError as e:
        return ["not valid JSON: %s" % e]
    problems = check_report(obj, options)
    problems += [p for p in map(token_problem, tokens) if p]
    if re.search(r"\b(NaN|Infinity)\b", text):
        problems.append("the JSON holds NaN or Infinity, which JSON does not allow")
    return problems


DECIMAL = re.compile(r"(?<![\w.])[-+]?\d+\.(\d+)(?:[eE][-+]?\d+)?")


def check_markdown(text, options=None):
    """Problems of a rope_report.md text: the four headings, in order, and the
    first RoPE score, the additive spread and |q| stated to >= 6 decimals."""
    problems = []
    lines = text.splitlines()
    where = []
    for heading in HEADINGS:
        hits = [j for j, line in enumerate(lines) if line == heading]
        if len(hits) != 1:
            problems.append("heading line %r appears %d times, expected once" % (heading, len(hits)))
        else:
            where.append(hits[0])
    if len(where) == len(HEADINGS) and where != sorted(where):
        problems.append("the four headings are out of order")
    numbers = [float(m.group(0)) for m in DECIMAL.finditer(text)
               if len(m.group(1)) >= MD_DECIMALS]
    ref = reference.build_report(options or {})
    for label, value in [("the first RoPE score", ref["rope_scores"][0]),
                         ("the additive spread", ref["add_spread"]),
                         ("the norm of q", ref["norm_before"])]:
        if not any(close(x, value, MD_TOL, 1e-9) for x in numbers):
            problems.append("the Markdown does not state %s (%.9f) to %d decimals"
                            % (label, value, MD_DECIMALS))
    return problems


def check_files(json_path, md_path=None, options=None):
    problems = []
    with open(json_path, encoding="utf-8") as f:
        problems += ["%s: %s" % (json_path, p) for p in check_json_text(f.read(), options)]
    if md_path:
        with open(md_path, encoding="utf-8") as f:
            problems += ["%s: %s" % (md_path, p) for p in check_markdown(f.read(), options)]
    return problems


def number_list(text):
    return [float(x) for x in text.split(",")]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", required=True)
    parser.add_argument("--md")
    parser.add_argument("--dim", type=int)
    parser.add_argument("--base", type=float)
    parser.add_argument("--gap", type=float, dest="offset")
    parser.add_argument("--starts", type=number_list)
    parser.add_argument("--deltas", type=number_list)
    parser.add_argument("--norm-positions", type=number_list, dest="norm_positions")
    opts = vars(parser.parse_args(argv))
    paths = (opts.pop("json"), opts.pop("md"))
    options = {k: v for k, v in opts.items() if v is not None}
    try:
        problems = check_files(paths[0], paths[1], options)
    except (OSError, UnicodeDecodeError) as e:
        problems = ["cannot read the report: %s" % e]
    for p in problems:
        print("FAIL " + p)
    checked = " and ".join(p for p in paths if p)
    if problems:
        print("%s: %d problems" % (checked, len(problems)))
        return 1
    print("%s: match the reference report" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
