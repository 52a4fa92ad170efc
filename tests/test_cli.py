#!/usr/bin/env python3
"""Tests of the ropescope command line against tests/reference.py.

    ROPE_TEST_SEED=123 python3 tests/test_cli.py      (ROPESCOPE=path/to/ropescope)

Covers `report` (files checked by tests/check_report.py), `scan` (CSV rows
against offset_scan), `--help`, and bad input: every flag of both commands
with garbage, non-finite, out-of-range, empty and missing values must exit 2
with exactly one line on stderr naming the flag and the value, print nothing
on stdout and write no files. Random settings come from ROPE_TEST_SEED (a
fresh seed when unset), which is printed. Ends with "<n> passed, <m> failed".
"""
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # keep tests/ free of __pycache__
sys.path.insert(0, HERE)
import check_report  # noqa: E402
import reference  # noqa: E402

ROOT = os.path.dirname(HERE)
ROPESCOPE = os.path.abspath(os.environ.get("ROPESCOPE", os.path.join(ROOT, "build", "ropescope")))
ABS_TOL, REL_TOL = 1e-9, 1e-6
TIMEOUT = 120

REPORT_NUMBER_FLAGS = ["--dim", "--base", "--gap"]
REPORT_LIST_FLAGS = ["--starts", "--deltas", "--norm-positions"]
REPORT_FLAGS = REPORT_NUMBER_FLAGS + REPORT_LIST_FLAGS + ["--out"]
SCAN_FLAGS = ["--dim", "--base", "--gap", "--from", "--to", "--step"]

GARBAGE = ["abc", "", "1x", "nan", "inf", "-inf", "NaN", "1e400", "--"]
BAD_DIMS = ["-1", "65537", "1e9", "2.5", "0x10", "99999999999999999999"]
BAD_BASES = ["0", "-1", "-0", "1e-400"]
BAD_LISTS = ["1,abc", "1,,2", "", ",", "1,nan", "3,inf", "1,", "-inf", "2 3"]


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def record(self, name, problems):
        """problems: a list of strings; empty means the test passed."""
        if problems:
            self.failed += 1
            print("FAIL %s" % name)
            for p in problems:
                print("  " + p)
        else:
            self.passed += 1


def run(args, cwd):
    proc = subprocess.run([ROPESCOPE] + args, cwd=cwd, capture_output=True, timeout=TIMEOUT)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), \
        proc.stderr.decode("utf-8", "replace")


def crash_problem(rc, args):
    if rc < 0:
        return ["crashed with signal %d: ropescope %s" % (-rc, " ".join(map(repr, args)))]
    return []


def close(got, expect):
    return math.isfinite(got) and abs(got - expect) <= ABS_TOL + REL_TOL * abs(expect)


def num(x):
    """A number as a CLI argument: full precision, so the report must echo it exactly."""
    return repr(float(x)) if x != int(x) else str(int(x))


# ---- random settings ----

def random_position(rng):
    r = rng.random()
    if r < 0.2:
        return float(rng.randint(0, 4096))
    if r < 0.3:
        return -rng.uniform(0.0, 50.0)
    return rng.uniform(0.0, 4096.0)


def random_report_settings(rng):
    dim = rng.choice([0, 1, rng.randint(2, 16), rng.randint(2, 512), rng.randint(2, 512),
                      rng.randint(513, 2048)])
    return {
        "dim": dim,
        "base": math.exp(rng.uniform(math.log(50.0), math.log(2e6))),
        "offset": rng.choice([float(rng.randint(-8, 64)), rng.uniform(-100.0, 300.0)]),
        "starts": [random_position(rng) for _ in range(rng.randint(1, 6))],
        "deltas": [random_position(rng) for _ in range(rng.randint(1, 5))],
        "norm_positions": [random_position(rng) for _ in range(rng.randint(1, 5))],
    }


def report_args(settings):
    flags = {"dim": "--dim", "base": "--base", "offset": "--gap", "starts": "--starts",
             "deltas": "--deltas", "norm_positions": "--norm-positions"}
    args = []
    for key, value in settings.items():
        text = ",".join(num(v) for v in value) if isinstance(value, list) else num(value)
        args += [flags[key], text]
    return args


# ---- (a) report ----

def check_report_run(args, cwd, out_dir, settings):
    rc, out, err = run(args, cwd)
    problems = crash_problem(rc, args)
    if rc != 0:
        return problems + ["exit %d, stderr: %s" % (rc, err.strip())]
    json_path = os.path.join(out_dir, "rope_report.json")
    md_path = os.path.join(out_dir, "rope_report.md")
    # Paths on stdout may be relative to the working directory or absolute.
    named = {os.path.realpath(os.path.join(cwd, word)) for word in out.split()}
    for path in (json_path, md_path):
        if os.path.realpath(path) not in named:
            problems.append("stdout does not name %s: %r" % (path, out))
    if err:
        problems.append("unexpected stderr: %r" % err)
    if sorted(os.listdir(out_dir)) != ["rope_report.json", "rope_report.md"]:
        problems.append("%s holds %s, expected only the two report files"
                        % (out_dir, sorted(os.listdir(out_dir))))
    return problems + check_report.check_files(json_path, md_path, settings)


def test_report(results, rng, tmp):
    cwd = tempfile.mkdtemp(dir=tmp)
    results.record("report_should_write_the_default_report_into_the_current_dir",
                   check_report_run(["report"], cwd, cwd, {}))
    for i in range(8):
        settings = random_report_settings(rng)
        # Only some settings are given, so the defaults of the rest are tested too.
        keys = list(settings)
        given = {k: settings[k] for k in keys if rng.random() < 0.75 or k == "dim"}
        # --out is relative to the working directory half the time, absolute otherwise.
        out_arg = os.path.join("report%d" % i, "nested", "not", "yet")
        if i % 2:
            out_arg = os.path.join(tmp, out_arg)
        out_dir = os.path.join(tmp, out_arg)
        args = ["report"] + report_args(given) + ["--out", out_arg]
        results.record("report_should_match_the_reference_for_settings %s" % " ".join(args[1:]),
                       check_report_run(args, tmp, out_dir, given))
    out_dir = tempfile.mkdtemp(dir=tmp)
    args = ["report", "--dim", "65536", "--out", out_dir]
    results.record("report_should_accept_the_largest_dim",
                   check_report_run(args, tmp, out_dir, {"dim": 65536}))
    out_dir = tempfile.mkdtemp(dir=tmp)
    args = ["report", "--out", out_dir]
    check_report_run(args, tmp, out_dir, {})
    results.record("report_should_overwrite_an_existing_report",
                   check_report_run(args, tmp, out_dir, {}))
    not_a_dir = os.path.join(tmp, "a_file")
    with open(not_a_dir, "w") as f:
        f.write("keep me\n")
    results.record("report_should_fail_with_one_line_when_out_is_a_file",
                   bad_input_problems(["report", "--out", not_a_dir], ["--out", not_a_dir],
                                      tempfile.mkdtemp(dir=tmp), None)
                   + ([] if open(not_a_dir).read() == "keep me\n" else ["the file was changed"]))


# ---- (b) scan ----

def parse_csv(text):
    lines = text.splitlines()
    if not lines or lines[0] != "start,rope,add":
        raise ValueError("first line is %r, expected 'start,rope,add'" % (lines[:1],))
    rows = []
    for line in lines[1:]:
        cells = line.split(",")
        if len(cells) != 3:
            raise ValueError("row %r does not have 3 cells" % line)
        rows.append([float(c) for c in cells])
    return rows


def check_scan(dim, base, gap, start, step, count, args, cwd):
    rc, out, err = run(args, cwd)
    problems = crash_problem(rc, args)
    if rc != 0:
        return problems + ["exit %d, stderr: %s" % (rc, err.strip())]
    try:
        rows = parse_csv(out)
    except ValueError as e:
        return problems + [str(e)]
    if len(rows) != count:
        return problems + ["expected %d rows, got %d" % (count, len(rows))]
    q, k = reference.demo_vectors(dim)
    starts = [start + j * step for j in range(count)]
    expect = reference.offset_scan(q, k, gap, starts, base)
    for j, (got, want) in enumerate(zip(rows, expect)):
        for col, name in enumerate(["start", "rope", "add"]):
            if not close(got[col], want[col]):
                problems.append("row %d %s: expected %r, got %r" % (j, name, want[col], got[col]))
    return problems[:10]


def test_scan(results, rng, tmp):
    cwd = tempfile.mkdtemp(dir=tmp)
    results.record("scan_should_print_101_reference_rows_with_defaults",
                   check_scan(64, 1e4, 2.0, 0.0, 1.0, 101, ["scan"], cwd))
    results.record("scan_should_include_the_to_row_despite_rounding",
                   check_scan(64, 1e4, 2.0, 0.0, 0.1, 4,
                              ["scan", "--from", "0", "--to", "0.3", "--step", "0.1"], cwd))
    results.record("scan_should_print_one_row_when_to_equals_from",
                   check_scan(5, 1e4, 2.0, 7.5, 1.0, 1,
                              ["scan", "--dim", "5", "--from", "7.5", "--to", "7.5"], cwd))
    for _ in range(8):
        dim = rng.choice([0, 1, rng.randint(2, 32), rng.randint(2, 256)])
        base = math.exp(rng.uniform(math.log(50.0), math.log(2e6)))
        gap = rng.choice([float(rng.randint(-4, 32)), rng.uniform(-50.0, 200.0)])
        count = rng.randint(1, 200)
        step = rng.choice([1.0, 0.5, 0.25, rng.uniform(0.01, 4000.0 / count)])
        start = rng.choice([0.0, float(rng.randint(0, 2000)), rng.uniform(-20.0, 2000.0)])
        # --to sits strictly between two starts, so the row count is unambiguous.
        to = start + (count - 1 + rng.uniform(0.1, 0.9)) * step
        args = ["scan", "--dim", str(dim), "--base", num(base), "--gap", num(gap),
                "--from", num(start), "--to", num(to), "--step", num(step)]
        results.record("scan_should_match_the_reference_for %s" % " ".join(args[1:]),
                       check_scan(dim, base, gap, start, step, count, args, cwd))
    if os.listdir(cwd):
        results.record("scan_should_write_no_files", ["scan wrote %s" % os.listdir(cwd)])


# ---- (c) help ----

def test_help(results, tmp):
    for args in (["--help"], ["-h"], ["report", "--help"], ["scan", "--help"],
                 ["report", "--dim", "8", "--help"]):
        rc, out, err = run(args, tmp)
        problems = crash_problem(rc, args)
        if rc != 0:
            problems.append("exit %d" % rc)
        if "usage" not in out:
            problems.append("stdout has no usage: %r" % out)
        if err:
            problems.append("unexpected stderr: %r" % err)
        results.record("help_should_print_usage_and_exit_0 for %s" % " ".join(args), problems)
    rc, out, err = run([], tmp)
    problems = crash_problem(rc, [])
    if rc != 2 or out or "usage" not in err:
        problems.append("expected exit 2 and usage on stderr, got exit %d, stdout %r, stderr %r"
                        % (rc, out, err))
    results.record("main_should_exit_2_with_usage_on_stderr_without_a_command", problems)


# ---- (d) bad input ----

def bad_input_cases():
    """(command args, strings the one stderr line must contain)."""
    cases = []
    for command, flags in (("report", REPORT_FLAGS), ("scan", SCAN_FLAGS)):
        for flag in flags:
            if flag == "--out":
                values = [""]
            elif flag in REPORT_LIST_FLAGS:
                values = BAD_LISTS
            else:
                values = list(GARBAGE)
                values += {"--dim": BAD_DIMS, "--base": BAD_BASES,
                           "--step": ["0", "-1", "-0"]}.get(flag, [])
            for value in values:
                cases.append(([command, flag, value], [flag, value]))
            cases.append(([command, flag], [flag]))  # the value is missing
        for unknown in ("--bogus", "--Dim", "-x", "extra"):
            cases.append(([command, unknown, "1"], [unknown]))
    cases.append((["report", "--from", "1"], ["--from"]))
    cases.append((["scan", "--starts", "1,2"], ["--starts"]))
    cases.append((["scan", "--out", "x"], ["--out"]))
    cases.append((["scan", "--from", "10", "--to", "5"], ["--to", "5"]))
    cases.append((["scan", "--from", "-1", "--to", "-2.5"], ["--to", "-2.5"]))
    cases.append((["scan", "--dim", "8", "--step", "0"], ["--step", "0"]))
    cases.append((["scan", "--step", "1e-9"], ["--step"]))
    cases.append((["report", "--dim", "8", "--starts", "1,2", "--deltas", "1,x"], ["--deltas", "1,x"]))
    for command in ("frobnicate", "Report", "--dim", ""):
        cases.append(([command], [command]))
    # Finite inputs whose query position s + gap overflows to infinity.
    cases.append((["scan", "--from", "1e308", "--to", "1e308", "--gap", "1e308"], []))
    # Here the first row overflows (to -inf) and the last one does not.
    cases.append((["scan", "--from", "-1.79e308", "--to", "-1.6e308", "--step", "1e302",
                   "--gap", "-1e307"], []))
    cases.append((["report", "--gap", "1e308", "--starts", "1e308"], []))
    return cases


def bad_input_problems(args, needles, cwd, out_dir):
    rc, out, err = run(args, cwd)
    problems = crash_problem(rc, args)
    if rc != 2:
        problems.append("exit %d, expected 2" % rc)
    if out:
        problems.append("stdout should be empty, got %r" % out[:200])
    lines = err.splitlines()
    if len(lines) != 1 or not err.endswith("\n"):
        problems.append("stderr should be exactly one line, got %r" % err[:400])
    for needle in needles:
        if needle and needle not in err:
            problems.append("stderr does not name %r: %r" % (needle, err.strip()))
    if os.listdir(cwd):
        problems.append("files were written: %s" % os.listdir(cwd))
    if out_dir and os.path.exists(out_dir) and os.listdir(out_dir):
        problems.append("files were written into --out: %s" % os.listdir(out_dir))
    return problems


def test_bad_input(results, tmp):
    for index, (args, needles) in enumerate(bad_input_cases()):
        cwd = tempfile.mkdtemp(dir=tmp)
        out_dir = None
        if args[0] == "report" and "--out" not in args:
            # Alternate: a nested dir that must not be created, an empty dir that must stay empty.
            if index % 2 == 0:
                out_dir = os.path.join(tmp, "never%d" % index, "made")
            else:
                out_dir = tempfile.mkdtemp(dir=tmp)
            # A missing value needs the bad flag last; otherwise put --out last half the time.
            if len(args) == 2 or index % 4 < 2:
                args = [args[0], "--out", out_dir] + args[1:]
            else:
                args = args + ["--out", out_dir]
        problems = bad_input_problems(args, needles, cwd, out_dir)
        if out_dir and index % 2 == 0 and os.path.exists(os.path.dirname(out_dir)):
            problems.append("--out directory %s was created" % os.path.dirname(out_dir))
        name = "cli_should_reject_bad_input: ropescope %s" % " ".join(map(repr, args))
        results.record(name, problems)
        shutil.rmtree(cwd, ignore_errors=True)


def main():
    env_seed = os.environ.get("ROPE_TEST_SEED", "").strip()
    seed = int(env_seed) if env_seed else random.SystemRandom().randrange(2 ** 32)
    print("ROPE_TEST_SEED=%d (set it to reproduce this run); ropescope: %s" % (seed, ROPESCOPE))
    if not os.access(ROPESCOPE, os.X_OK):
        print("cannot run %s (build it with `make native`)" % ROPESCOPE)
        return 1
    rng = random.Random(seed)
    results = Results()
    tmp = tempfile.mkdtemp(prefix="ropescope-cli-")
    try:
        test_report(results, rng, tmp)
        test_scan(results, rng, tmp)
        test_help(results, tmp)
        test_bad_input(results, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("ROPE_TEST_SEED=%d" % seed)
    print("%d passed, %d failed" % (results.passed, results.failed))
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
