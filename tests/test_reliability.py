#!/usr/bin/env python3
"""Hostile cases for the ropescope CLI (issue 22), each a row of a table.

    ROPE_TEST_SEED=123 python3 tests/test_reliability.py

- files: `scaling --config` refuses anything but a regular file before reading
  a byte (a FIFO must not hang, also through a link), reads /proc files to
  their end, and states its size limit;
- messages: long ones are cut at a UTF-8 character boundary and keep the
  "(item N ...)" part; flags are named as the user gave them; a failed --help
  write is reported;
- kills: SIGKILL injected at every system call of the report's write sequence
  (strace -e inject), then one more run: the folder holds exactly one whole
  pair from one run, and nothing else.
Random choices come from ROPE_TEST_SEED (printed). Ends with "N passed, M failed".
"""
import json
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
import testlib  # noqa: E402

CLI = os.path.abspath(os.environ.get("ROPESCOPE", testlib.CLI))
MODEL = os.path.join(testlib.MODELS, sorted(os.listdir(testlib.MODELS))[0])
LIMIT = 1048576  # --config's size limit, as `ropescope scaling --help` states it
TIMEOUT = 20


def run(args, cwd, stdout=subprocess.PIPE, timeout=TIMEOUT):
    """(exit code, stdout text, stderr bytes); a hang is exit code 'timeout'."""
    try:
        proc = subprocess.run([CLI] + args, cwd=cwd, stdout=stdout, stderr=subprocess.PIPE,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", "", b""
    out = proc.stdout.decode("utf-8", "replace") if proc.stdout is not None else ""
    return proc.returncode, out, proc.stderr


def one_line_problems(rc, code, err, needles):
    problems = []
    if rc != code:
        problems.append("exit %s, expected %d (stderr %r)" % (rc, code, err[:300]))
    try:
        text = err.decode("utf-8")
    except UnicodeDecodeError as e:
        return problems + ["stderr is not UTF-8 (%s): %r" % (e, err[-80:])]
    if len(text.splitlines()) != 1 or not text.endswith("\n"):
        problems.append("stderr should be one line, got %r" % text[:300])
    for needle in needles:
        if needle not in text:
            problems.append("stderr does not name %r: %r" % (needle, text[:400]))
    return problems


# ---- files: --config ----

def config_cases(tmp):
    """(name, path, exit code, stderr needles); the paths are made here."""
    fifo = os.path.join(tmp, "pipe.json")
    os.mkfifo(fifo)
    link = os.path.join(tmp, "link-to-pipe.json")
    os.symlink(fifo, link)
    with open(MODEL) as f:
        model = f.read().strip()
    at_limit = os.path.join(tmp, "at-limit.json")
    with open(at_limit, "w") as f:
        f.write(model + " " * (LIMIT - len(model.encode())))
    over = os.path.join(tmp, "over-limit.json")
    with open(over, "w") as f:
        f.write(model + " " * (LIMIT + 1 - len(model.encode())))
    empty = os.path.join(tmp, "empty.json")
    open(empty, "w").close()
    folder = os.path.join(tmp, "a-folder.json")
    os.mkdir(folder)
    return [
        ("a FIFO with no writer is refused at once", fifo, 2, ["--config", fifo, "FIFO",
                                                                "not a regular file"]),
        ("a link to a FIFO is refused at once", link, 2, [link, "FIFO"]),
        ("a character device is refused", "/dev/null", 2, ["/dev/null", "character device"]),
        ("a folder is refused", folder, 2, [folder, "folder"]),
        ("a /proc file is read to its end, not taken as empty", "/proc/self/status", 2,
         ["/proc/self/status", "not JSON"]),
        ("an empty file says so", empty, 2, [empty, "empty"]),
        ("a file one byte over the limit is refused, naming it", over, 2,
         [over, "the limit is %d bytes" % LIMIT]),
        ("a file of exactly the limit is read", at_limit, 0, []),
        ("a missing file says why", os.path.join(tmp, "missing.json"), 2, ["cannot open"]),
    ]


def test_config_files(tally, tmp):
    for name, path, code, needles in config_cases(tmp):
        rc, out, err = run(["scaling", "--config", path], tmp, timeout=5)
        if code == 0:
            problems = [] if rc == 0 and "rope_type" in out else \
                ["exit %s, stderr %r" % (rc, err[:300])]
        else:
            problems = one_line_problems(rc, code, err, needles)
            if out:
                problems.append("stdout should be empty: %r" % out[:200])
        tally.record("config_should_be_read_safely: %s" % name, problems)
    # The help states the limit the tests rely on.
    rc, out, _ = run(["scaling", "--help"], tmp)
    tally.record("scaling_help_should_state_the_size_limit",
                 [] if rc == 0 and str(LIMIT) in out else ["no %d in %r" % (LIMIT, out[-300:])])


def main():
    seed = testlib.seed("test_reliability")
    rng = random.Random(seed)
    tally = testlib.Tally()
    tmp = tempfile.mkdtemp(prefix="ropescope-reliability-")
    try:
        test_config_files(tally, tmp)
        for test in EXTRA_TESTS:
            test(tally, rng, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("ROPE_TEST_SEED=%d" % seed)
    print("%d passed, %d failed" % (tally.passed, tally.failed))
    return 1 if tally.failed else 0


EXTRA_TESTS = []

if __name__ == "__main__":
    sys.exit(main())
