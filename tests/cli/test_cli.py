#!/usr/bin/env python3
"""Tests of the ropescope command line against tests/ref/reference.py.

    ROPE_TEST_SEED=123 python3 tests/cli/test_cli.py      (ROPESCOPE=path/to/ropescope)

Covers `report` (files checked by tests/diff/check_report.py), `scan` (CSV rows
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
# The folders beside this one that it imports from: tests/lib, tests/ref, tests/diff.
sys.path[:0] = [os.path.join(HERE, "..", d) for d in ("lib", "ref", "diff")]
import check_report  # noqa: E402
import reference  # noqa: E402
import testlib  # noqa: E402
from testlib import close  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
ROPESCOPE = os.path.abspath(os.environ.get("ROPESCOPE", os.path.join(ROOT, "build", "ropescope")))
TIMEOUT = 120

REPORT_NUMBER_FLAGS = ["--dim", "--base", "--gap"]
REPORT_LIST_FLAGS = ["--starts", "--deltas", "--norm-positions"]
REPORT_FLAGS = REPORT_NUMBER_FLAGS + REPORT_LIST_FLAGS + ["--out"]
SCAN_FLAGS = ["--dim", "--base", "--gap", "--from", "--to", "--step"]

GARBAGE = ["abc", "", "1x", "nan", "inf", "-inf", "NaN", "1e400", "--"]
BAD_DIMS = ["-1", "65537", "1e9", "2.5", "0x10", "99999999999999999999"]
BAD_BASES = ["0", "-1", "-0", "1e-400", "1", "0.5", "1e-300", "0.9999999999", "5e-324"]
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
    dim = rng.choice([2, 3, rng.randint(2, 16), rng.randint(2, 512), rng.randint(2, 512),
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
                   message_problems(["report", "--out", not_a_dir], 1, ["--out", not_a_dir],
                                    tempfile.mkdtemp(dir=tmp))
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
    # The largest dim-0 scan the work rule allows: rows x (0 + 8) = 8388608.
    rc, out, err = run(["scan", "--dim", "0", "--to", "1048575"], cwd)
    lines = out.count("\n")
    results.record("scan_should_take_the_most_rows_its_work_rule_allows",
                   [] if rc == 0 and lines == 1048577 and out.endswith("1048575,0,0\n") else
                   ["exit %d, %d lines, stderr %r" % (rc, lines, err[:200])])
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


# ---- (e) every message names its flag and value ----

FAR = "is beyond 1e10 radians, where doubles can no longer resolve it"
SLOW = "the pairs would no longer slow down"


REPORT_DIM = "ropescope: --dim '%s': the report's dimension must be an integer in [2, 65536]\n"


SCAN_WORK = ("ropescope: --dim %s with --step 1: %s rows: too much work for one scan "
             "(rows x (dimension + 8) above 8388608)\n")


def message_cases(tmp):
    """(args, exit code, strings the one stderr line must contain)."""
    a_file = os.path.join(tmp, "plain_file")
    with open(a_file, "w") as f:
        f.write("x\n")
    many = ",".join(["1"] * 4097)
    return [
        # Numbers are plain decimals: no spaces, hex, inf, nan, or digits-less parts.
        (["scan", "--gap", " 2"], 2, ["--gap", "' 2'"]),
        (["scan", "--gap", "2 "], 2, ["--gap", "'2 '"]),
        (["scan", "--base", "0x10"], 2, ["--base", "0x10"]),
        (["scan", "--from", "0x1p3"], 2, ["--from", "0x1p3"]),
        (["scan", "--to", "Infinity"], 2, ["--to", "Infinity"]),
        (["scan", "--step", ".5"], 2, ["--step", ".5"]),
        (["scan", "--step", "5."], 2, ["--step", "5."]),
        (["scan", "--step", "1e"], 2, ["--step", "1e"]),
        (["scan", "--gap", "1_000"], 2, ["--gap", "1_000"]),
        (["scan", "--dim", "+8.0"], 2, ["--dim", "+8.0"]),
        (["scan", "--dim", " 8"], 2, ["--dim", "' 8'"]),
        (["report", "--starts", " 1,2"], 2, ["--starts", "' 1,2'"]),
        (["report", "--starts", "1 ,2"], 2, ["--starts", "'1 ,2'"]),
        (["report", "--deltas", "0x10"], 2, ["--deltas", "0x10"]),
        # Too big or too small for a double: refused, never rounded to inf or 0.
        (["scan", "--base", "1e-400"], 2, ["--base", "1e-400"]),
        (["scan", "--gap", "-1e400"], 2, ["--gap", "-1e400"]),
        (["report", "--norm-positions", "1,2e-999"], 2, ["--norm-positions", "2e-999"]),
        # A flag given twice.
        (["scan", "--dim", "8", "--dim", "8"], 2, ["--dim", "twice"]),
        (["scan", "--to", "5", "--from", "1", "--to", "6"], 2, ["--to", "twice", "'5'", "'6'"]),
        (["report", "--starts", "1", "--starts", "2"], 2, ["--starts", "twice"]),
        (["report", "--out", "a", "--out", "b"], 2, ["--out", "twice"]),
        # Positions past MAX_POSITION, named by the flag that placed them.
        (["scan", "--from", "1e16", "--to", "1e16"], 2, ["--from", "1e16", FAR]),
        (["scan", "--from", "-2e10", "--to", "0", "--step", "1e9"], 2, ["--from", "-2e10", FAR]),
        (["scan", "--to", "1e16", "--step", "1e15"], 2, ["--to", "1e16", FAR]),
        (["scan", "--gap", "1e10", "--from", "1", "--to", "2"], 2, ["--gap", "1e10", FAR]),
        (["report", "--starts", "3,1e16"], 2, ["--starts", "1e16", FAR]),
        (["report", "--gap", "-1e16"], 2, ["--gap", "-1e16", FAR]),
        (["report", "--norm-positions", "0,-3e10"], 2, ["--norm-positions", "-3e10", FAR]),
        # base <= 1 is refused everywhere, saying why (docs/SPEC.md, "Limits").
        (["scan", "--base", "5e-324"], 2, ["--base", "5e-324", SLOW]),
        (["report", "--base", "5e-324"], 2, ["--base", "5e-324", SLOW]),
        (["report", "--base", "1e-300"], 2, ["--base", "1e-300", SLOW]),
        (["scan", "--base", "1e-10"], 2, ["--base", "1e-10", SLOW]),
        (["report", "--base", "1"], 2, ["--base", "'1'", SLOW]),
        (["scan", "--base", "0.5", "--from", "1e16", "--to", "1e16"], 2, ["--base", SLOW]),
        # A report needs a pair (issue #35: dim 0 and 1 wrote nan into rope_report.md).
        (["report", "--dim", "0"], 2, [REPORT_DIM % "0"]),
        (["report", "--dim", "1"], 2, [REPORT_DIM % "1"]),
        (["report", "--dim", "65537"], 2, [REPORT_DIM % "65537"]),
        # The work limit of one call.
        (["scan", "--dim", "65536", "--to", "10000"], 2, ["--dim", "65536", "8388608"]),
        (["scan", "--dim", "64", "--to", "131072"], 2, ["--dim", "64", "8388608"]),
        # Each row costs 8 units whatever the dim (issue #35: dim 0 and 1 scanned for 11 s).
        (["scan", "--dim", "0", "--to", "9999999"], 2, [SCAN_WORK % ("0", "10000000")]),
        (["scan", "--dim", "1", "--to", "8388607"], 2, [SCAN_WORK % ("1", "8388608")]),
        (["scan", "--dim", "0", "--to", "1048576"], 2, [SCAN_WORK % ("0", "1048577")]),
        (["report", "--dim", "65536", "--starts", many], 2, ["--starts", "4097", "65536",
                                                              "8388608"]),
        # Outputs that cannot be written: exit 1, naming --out and the folder.
        (["report", "--out", os.path.join(a_file, "sub")], 1,
         ["--out", os.path.join(a_file, "sub")]),
        (["report", "--out", "/proc/ropescope-cannot-be-here"], 1,
         ["--out", "/proc/ropescope-cannot-be-here"]),
        (["report", "--out", ""], 2, ["--out", "''"]),
    ]


def message_problems(args, code, needles, cwd):
    rc, out, err = run(args, cwd)
    problems = crash_problem(rc, args)
    if rc != code:
        problems.append("exit %d, expected %d (stderr %r)" % (rc, code, err[:300]))
    if out:
        problems.append("stdout should be empty, got %r" % out[:200])
    if len(err.splitlines()) != 1 or not err.endswith("\n"):
        problems.append("stderr should be exactly one line, got %r" % err[:400])
    for needle in needles:
        if needle not in err:
            problems.append("stderr does not name %r: %r" % (needle, err.strip()[:400]))
    if os.listdir(cwd):
        problems.append("files were written: %s" % os.listdir(cwd))
    return problems


def test_messages(results, tmp):
    for args, code, needles in message_cases(tmp):
        cwd = tempfile.mkdtemp(dir=tmp)
        shown = " ".join(repr(a if len(a) < 60 else a[:60] + "...") for a in args)
        results.record("cli_message_should_name_flag_and_value: ropescope %s" % shown,
                       message_problems(args, code, needles, cwd))
        shutil.rmtree(cwd, ignore_errors=True)


# ---- (f) the report's files: both or neither ----

def folder_state(path):
    """{name: ("link", target) | ("dir",) | ("file", bytes)} for the entries of path."""
    state = {}
    for name in os.listdir(path):
        full = os.path.join(path, name)
        if os.path.islink(full):
            state[name] = ("link", os.readlink(full))
        elif os.path.isdir(full):
            state[name] = ("dir",)
        else:
            with open(full, "rb") as f:
                state[name] = ("file", f.read())
    return state


def test_report_files(results, tmp):
    # A folder at rope_report.md (issue #35: "cannot keep a backup: Operation not
    # permitted"): said as it is, before anything is written; the folder is as it was.
    out = tempfile.mkdtemp(dir=tmp)
    rc, _, err = run(["report", "--dim", "8", "--out", out], tmp)
    problems = [] if rc == 0 else ["first report failed: %s" % err]
    os.remove(os.path.join(out, "rope_report.md"))
    os.makedirs(os.path.join(out, "rope_report.md", "inside"))
    before = folder_state(out)
    inode = os.stat(os.path.join(out, "rope_report.json")).st_ino
    problems += message_problems(["report", "--dim", "16", "--out", out], 1,
                                 ["ropescope: --out '%s': %s/rope_report.md is a folder, and the "
                                  "report's rope_report.md must go there; move or remove the "
                                  "folder\n" % (out, out)], tempfile.mkdtemp(dir=tmp))
    if folder_state(out) != before:
        problems.append("the folder changed: %s -> %s" % (sorted(before), sorted(folder_state(out))))
    elif os.stat(os.path.join(out, "rope_report.json")).st_ino != inode:
        problems.append("rope_report.json is not the very file it was")
    results.record("report_should_say_a_folder_is_at_its_name_and_leave_the_folder_as_it_was",
                   problems)

    # Links planted at temp-like names and at the report's own names: nothing is
    # written through them, and the report replaces its own names' links.
    out = tempfile.mkdtemp(dir=tmp)
    victim = os.path.join(tmp, "victim.txt")
    with open(victim, "w") as f:
        f.write("untouched\n")
    planted = ["rope_report.json.tmp", "rope_report.md.tmp", ".rope_report.json.tmp",
               ".rope_report.md.tmp", ".rope_report.json.XXXXXX", ".rope_report.md.XXXXXX"]
    for name in planted + ["rope_report.json", "rope_report.md"]:
        os.symlink(victim, os.path.join(out, name))
    rc, _, err = run(["report", "--out", out], tmp)
    problems = crash_problem(rc, []) + ([] if rc == 0 else ["exit %d: %s" % (rc, err)])
    with open(victim) as f:
        if f.read() != "untouched\n":
            problems.append("the report wrote through a link")
    for name in planted:
        if not os.path.islink(os.path.join(out, name)):
            problems.append("the link %s was removed or replaced" % name)
    for name in ("rope_report.json", "rope_report.md"):
        if os.path.islink(os.path.join(out, name)):
            problems.append("%s is still a link" % name)
    extra = set(os.listdir(out)) - set(planted) - {"rope_report.json", "rope_report.md"}
    if extra:
        problems.append("left behind: %s" % sorted(extra))
    problems += check_report.check_files(os.path.join(out, "rope_report.json"),
                                         os.path.join(out, "rope_report.md"), {})
    results.record("report_should_never_write_through_a_link", problems)

    # Thirty reports into one folder at once: one wins, whole, its two files a pair.
    out = tempfile.mkdtemp(dir=tmp)
    procs = [subprocess.Popen([ROPESCOPE, "report", "--dim", str(2 + j), "--gap", str(j),
                               "--out", out], cwd=tmp, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE) for j in range(30)]
    problems = []
    for j, p in enumerate(procs):
        _, err = p.communicate(timeout=TIMEOUT)
        if p.returncode != 0:
            problems.append("report %d: exit %d: %s" % (j, p.returncode, err.decode()[:200]))
    if sorted(os.listdir(out)) != ["rope_report.json", "rope_report.md"]:
        problems.append("the folder holds %s" % sorted(os.listdir(out)))
    else:
        import json
        with open(os.path.join(out, "rope_report.json")) as f:
            dim = json.load(f)["dim"]
        settings = {"dim": dim, "offset": float(dim - 2)}
        problems += check_report.check_files(os.path.join(out, "rope_report.json"),
                                             os.path.join(out, "rope_report.md"), settings)
    results.record("thirty_concurrent_reports_should_leave_one_whole_pair", problems)


# ---- (g) outputs that fail ----

def test_full_output(results, tmp):
    if not os.path.exists("/dev/full"):
        return
    for args, needle in ((["scan"], "cannot write the scan to standard output: No space left"),
                         (["scan", "--to", "100000"], "cannot write the scan to standard output"),
                         (["report", "--out", os.path.join(tmp, "full")], "standard output")):
        with open("/dev/full", "w") as full:
            proc = subprocess.run([ROPESCOPE] + args, cwd=tmp, stdout=full,
                                  stderr=subprocess.PIPE, timeout=TIMEOUT)
        err = proc.stderr.decode()
        problems = crash_problem(proc.returncode, args)
        if proc.returncode != 1:
            problems.append("exit %d, expected 1" % proc.returncode)
        if len(err.splitlines()) != 1 or needle not in err:
            problems.append("stderr should be one line with %r, got %r" % (needle, err[:300]))
        results.record("cli_should_exit_1_naming_a_full_output: ropescope %s" % " ".join(args),
                       problems)


# ---- (h) signals leave no temp file ----

def test_signals(results, rng, tmp):
    import signal
    import time
    # A large report (about 2 MB of Markdown), so the files take a while to write.
    args = ["report", "--starts", ",".join(str(j) for j in range(20000))]
    out = tempfile.mkdtemp(dir=tmp)
    began = time.monotonic()
    rc, _, err = run(args + ["--out", out], tmp)
    took = time.monotonic() - began
    problems = [] if rc == 0 else ["the uninterrupted report failed: %s" % err[:200]]
    whole = folder_state(out)
    for trial in range(12):
        sig = signal.SIGTERM if trial % 2 == 0 else signal.SIGINT
        proc = subprocess.Popen([ROPESCOPE] + args + ["--dim", str(8 + trial % 3), "--out", out],
                                cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.0, took * 1.2))
        proc.send_signal(sig)
        proc.wait(timeout=TIMEOUT)
        names = sorted(os.listdir(out))
        if names != ["rope_report.json", "rope_report.md"]:
            problems.append("after signal %d at trial %d the folder holds %s" % (sig, trial, names))
            break
        state = folder_state(out)
        if state != whole:
            # The report finished before the signal: it must be a whole new pair.
            dim = 8 + trial % 3
            problems += check_report.check_files(os.path.join(out, "rope_report.json"),
                                                 os.path.join(out, "rope_report.md"),
                                                 {"dim": dim, "starts": [float(j) for j in
                                                                         range(20000)]})
            whole = state
    results.record("report_should_leave_no_temp_file_after_sigterm_or_sigint", problems)


def main():
    seed = testlib.seed("test_cli")
    print("ropescope: %s" % ROPESCOPE)
    if not os.access(ROPESCOPE, os.X_OK):
        print("cannot run %s (build it with `make native`)" % ROPESCOPE)
        return 1
    rng = random.Random(seed)
    results = Results()
    tmp = tempfile.mkdtemp(prefix="ropescope-cli-")
    try:
        with_rng = (test_report, test_scan, test_signals)
        for test in testlib.only([test_report, test_scan, test_help, test_bad_input, test_messages,
                                  test_report_files, test_full_output, test_signals]):
            if test in with_rng:
                test(results, rng, tmp)
            else:
                test(results, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("ROPE_TEST_SEED=%d" % seed)
    print("%d passed, %d failed" % (results.passed, results.failed))
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
