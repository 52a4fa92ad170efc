#!/usr/bin/env python3
"""Hostile cases for the ropescope CLI (issue 22), each a row of a table.

    ROPE_TEST_SEED=123 python3 tests/cli/test_reliability.py

- files: `scaling --config` refuses anything but a regular file before reading
  a byte (a FIFO must not hang, also through a link), reads /proc files to
  their end, and states its size limit;
- messages: long ones are cut at a UTF-8 character boundary and keep the
  "(item N ...)" part; flags are named as the user gave them; a failed --help
  write is reported (/dev/full), and so is a closed pipe (exit 1, not SIGPIPE);
- injected failures: a backup that cannot be removed after the commit is a
  warning (the next report removes it); a failed second rename puts the
  first file back;
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
# The folders beside this one that it imports from: tests/lib, tests/diff.
sys.path[:0] = [os.path.join(HERE, "..", d) for d in ("lib", "diff")]
import check_report  # noqa: E402
import testlib  # noqa: E402

CLI = os.path.abspath(os.environ.get("ROPESCOPE", testlib.CLI))
MODEL = os.path.join(testlib.MODELS, sorted(os.listdir(testlib.MODELS))[0])
LIMIT = 1048576  # --config's size limit, as `ropescope scaling --help` states it
TIMEOUT = 20


def run(args, cwd, stdout=subprocess.PIPE, timeout=TIMEOUT):
    """(exit code, stdout text, stderr bytes); a hang is exit code 'timeout'."""
    try:
        proc = subprocess.run([os.fsencode(CLI)] + [a if isinstance(a, bytes) else a.encode()
                                                    for a in args], cwd=cwd, stdout=stdout, stderr=subprocess.PIPE,
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
         ["/proc/self/status", "not a JSON object"]),
        ("an empty file says so", empty, 2, [empty, "empty"]),
        ("a file one byte over the limit is refused, naming it", over, 2,
         [over, "over the limit of %d bytes" % LIMIT]),
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


# ---- messages ----

def message_cases(rng):
    """(name, args, exit code, needles, absent): a random long list whose bad
    item is last, in random characters of 1 to 4 UTF-8 bytes."""
    chars = ["a", "é", "한", "€", "𝜃", "\u00a0"]
    count = rng.randint(300, 3000)
    item = "".join(rng.choice(chars) for _ in range(rng.randint(1, 3)))
    long_list = ",".join(["1"] * count + [item])
    word = "".join(rng.choice(chars) for _ in range(700))
    # A lone continuation byte, then bytes that never occur in UTF-8 at all: a
    # random mix of lead and continuation bytes can spell a real character
    # (0xed 0x80 0x80 is U+D000).
    raw = os.fsencode("1") + b"\x80" + bytes(
        rng.choice([0xff, 0xfe, 0xc0, 0xc1, 0xf5, 0xf8]) for _ in range(4))
    return [
        ("a long list keeps its '(item N ...)' part", ["report", "--starts", long_list], 2,
         ["--starts", "(item %d '%s' is not one)" % (count + 1, item)], []),
        ("a long value is cut at a character boundary", ["scan", "--gap", word], 2,
         ["--gap"], []),
        # Issue #35: a long bad item pushed its number out of the line's kept end.
        ("a long bad item keeps its number, the item cut to 48 bytes",
         ["report", "--starts", "1,2," + "é" * 900], 2,
         ["--starts", "(item 3 '%s...' is not one)\n" % ("é" * 24)], []),
        ("a number is echoed as typed, not read back (scaling --dim)",
         ["scaling", "--dim", "1e300"], 2,
         ["ropescope: --dim: head_dim must be a whole number >= 1, got 1e300\n"], []),
        ("a number is echoed as typed, not read back (scan --to)",
         ["scan", "--to", "1e300"], 2,
         ["ropescope: --step 1 is too small: more than 10000000 rows from --from 0 to --to 1e300\n"],
         []),
        ("bytes that are not UTF-8 are shown as '?'", ["scan", "--dim", raw], 2,
         ["--dim", "1?????"], []),
        ("scaling --dim 3 names --dim, the key given", ["scaling", "--dim", "3"], 2,
         ["--dim:", "head_dim 3"], ["--partial-rotary-factor"]),
        ("scaling --dim 3 with the factor given too still names --dim",
         ["scaling", "--dim", "3", "--partial-rotary-factor", "1"], 2, ["--dim:"], []),
        ("scaling's --base goes through the core's base check",
         ["scaling", "--dim", "64", "--base", "0.5"], 2,
         ["--base '0.5'", "would no longer slow down"], []),
        ("scaling's --new-base too", ["scaling", "--dim", "64", "--rope-type", "base_change",
                                      "--new-base", "1"], 2,
         ["--new-base '1'", "would no longer slow down"], []),
        ("an overflowing --factor names the key",
         ["scaling", "--dim", "128", "--rope-type", "linear", "--factor", "5e-324"], 2,
         ["--factor:", "rope_scaling.factor", "overflow"], []),
    ]


def test_messages(tally, rng, tmp):
    for name, args, code, needles, absent in message_cases(rng):
        rc, out, err = run(args, tmp)
        problems = one_line_problems(rc, code, err, needles)
        if len(err) > 1200:
            problems.append("stderr is %d bytes long" % len(err))
        problems += ["stderr names %r" % a for a in absent if a.encode() in err]
        tally.record("message_should_be_one_clear_line: %s" % name, problems)
    if not os.path.exists("/dev/full"):
        return
    for command in ([], ["report"], ["scan"], ["scaling"], ["verify"]):
        with open("/dev/full", "w") as full:
            rc, _, err = run(command + ["--help"], tmp, stdout=full)
        tally.record("help_should_report_a_failed_write: ropescope %s --help > /dev/full"
                     % " ".join(command),
                     one_line_problems(rc, 1, err, ["cannot write the usage",
                                                    "No space left on device"]))


# ---- a closed pipe: exit 1 with one line, not a silent death by SIGPIPE (exit 141) ----

CLOSED = "the output was closed (its reader went away: broken pipe)"


def test_closed_pipe(tally, rng, tmp):
    out = os.path.join(tmp, "closed-pipe-report")
    cases = [
        ([], "--help", "cannot write the usage to standard output: "),
        (["report"], "--help", "cannot write the usage to standard output: "),
        (["scan"], "--help", "cannot write the usage to standard output: "),
        (["scaling"], "--help", "cannot write the usage to standard output: "),
        (["verify"], "--help", "cannot write the usage to standard output: "),
        (["scan", "--dim", "8"], None, "cannot write the scan to standard output: "),
        (["scaling", "--dim", "64", "--base", "10000"], None,
         "cannot write the scaling table to standard output: "),
        (["report", "--out", out], None,
         "the report was written, but cannot write to standard output: "),
    ]
    for command, flag, words in cases:
        args = command + ([flag] if flag else [])
        # The reader is closed before the run starts, so even a short text meets EPIPE.
        reader, writer = os.pipe()
        os.close(reader)
        try:
            rc, _, err = run(args, tmp, stdout=writer)
        finally:
            os.close(writer)
        tally.record("a_closed_pipe_should_exit_1_naming_it: ropescope %s" % " ".join(args),
                     one_line_problems(rc, 1, err, ["ropescope: " + words + CLOSED + "\n"]))


# ---- kills: SIGKILL at every system call of the report's write sequence ----

PAIR = ["rope_report.json", "rope_report.md"]


def report_args(settings, out):
    return ["report", "--dim", str(settings["dim"]), "--gap", str(settings["offset"]),
            "--out", out]


def traced(settings, out, inject=None):
    """The report under strace: the syscall names in order (inject None), or
    the exit status with SIGKILL injected at (syscall, n)."""
    log = os.path.join(os.path.dirname(out), "strace.log")
    cmd = ["strace", "-f", "-qq", "-o", log]
    if inject:
        cmd += ["-e", "trace=%s" % inject[0],
                "-e", "inject=%s:signal=KILL:when=%d" % inject]
    proc = subprocess.run(cmd + [CLI] + report_args(settings, out), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, timeout=TIMEOUT)
    if inject:
        return proc.returncode
    with open(log) as f:
        return [line.split(None, 1)[1].split("(", 1)[0] for line in f
                if "(" in line and not line.split(None, 1)[1].startswith(("+++", "---"))]


def write_points(settings, out):
    """(syscall, n-th call of it) for each system call from the first one on
    the folder (mkdir) to the end: the write sequence, each point once."""
    names = traced(settings, out)
    start = names.index("mkdir")
    points = []
    for i in range(start, len(names)):
        if names[i] != "exit_group":
            points.append((names[i], names[:i + 1].count(names[i])))
    return points


def pair_problems(out, runs, allow_none, allow_extra):
    """The folder holds one whole pair from one of runs (or none, if allowed)
    and, if allow_extra, temp files of ours; [] when so."""
    names = sorted(os.listdir(out))
    extra = [n for n in names if n not in PAIR]
    problems = []
    if extra and not (allow_extra and all(n.startswith(".rope_report.") and ".backup." not in n
                                          and ".none." not in n for n in extra)):
        problems.append("left behind: %s" % extra)
    have = [n for n in PAIR if n in names]
    if not have and allow_none:
        return problems
    if have != PAIR:
        return problems + ["not a pair: %s" % names]
    with open(os.path.join(out, PAIR[0])) as f:
        try:
            dim = json.load(f)["dim"]
        except ValueError as e:
            return problems + ["the JSON does not parse: %s" % e]
    run = [r for r in runs if r["dim"] == dim]
    if not run:
        return problems + ["the JSON is from no run of %s (dim %s)" % (runs, dim)]
    return problems + check_report.check_files(os.path.join(out, PAIR[0]),
                                               os.path.join(out, PAIR[1]), run[0])


def test_kills(tally, rng, tmp):
    if shutil.which("strace") is None:
        tally.record("kills: strace is needed (make deps installs it)", ["no strace"])
        return
    dims = rng.sample(range(2, 40), 4)
    a, b, c, d = ({"dim": dim, "offset": float(rng.randint(0, 9))} for dim in dims)
    # On tmpfs when there is one: fsync is then free, and 500 runs take seconds.
    root = tempfile.mkdtemp(dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else tmp)
    out = os.path.join(root, "out")
    os.mkdir(out)
    killed = total = 0
    for start in ("old pair", "empty folder"):
        # The sequence differs with no old pair (markers instead of backup links).
        shutil.rmtree(out)
        os.mkdir(out)
        if start == "old pair":
            run(report_args(a, out), root)
        points = write_points(b, out)
        total += len(points)
        print("kills: %d system calls in the write sequence (%s, dims %s)"
              % (len(points), start, dims), flush=True)
        for syscall, n in points:
            shutil.rmtree(out)
            os.mkdir(out)
            if start == "old pair":
                run(report_args(a, out), root)
            status = traced(b, out, (syscall, n))
            # A later run repairs first: kill it right after (at its first fchmod,
            # on its own temp), and the pair must be whole from A or B.
            traced(c, out, ("fchmod", 1))
            problems = pair_problems(out, [a, b], start == "empty folder", True)
            rc, _, err = run(report_args(d, out), root)
            if rc != 0:
                problems.append("the last run failed: %r" % err[:200])
            problems += pair_problems(out, [d], False, False)
            tally.record("report_should_repair_a_kill at %s #%d (%s, exit %s)"
                         % (syscall, n, start, status), problems)
            killed += status == -9
    shutil.rmtree(root, ignore_errors=True)
    # The count of system calls can differ by one or two between runs (the lock's wait, a
    # signal mask), so a kill aimed at the last calls may miss; the folder was checked either
    # way. Most must land, or the injection itself is broken.
    tally.record("kills: the injected SIGKILLs should kill the run (%d of %d did)"
                 % (killed, total), [] if killed >= 0.95 * total else ["too few runs were killed"])


# ---- injected failures (strace -e inject=...:error=): what the report says and leaves ----

def injected(settings, out, syscall, n, error="EACCES"):
    """The report with the n-th call of syscall failing: (exit code, stderr text)."""
    proc = subprocess.run(["strace", "-f", "-qq", "-o", os.devnull, "-e", "trace=%s" % syscall,
                           "-e", "inject=%s:error=%s:when=%d" % (syscall, error, n), CLI]
                          + report_args(settings, out), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, timeout=TIMEOUT)
    return proc.returncode, proc.stderr.decode("utf-8", "replace")


def test_injected_failures(tally, rng, tmp):
    if shutil.which("strace") is None:
        tally.record("injected failures: strace is needed (make deps installs it)", ["no strace"])
        return
    a, b, c = ({"dim": dim, "offset": 1.0} for dim in rng.sample(range(2, 40), 3))
    out = os.path.join(tmp, "injected")
    # Issue #35: a backup that will not go after the commit was dropped in silence. The first
    # unlinkat of a run over an old pair removes the Markdown's backup.
    os.mkdir(out)
    run(report_args(a, out), tmp)
    rc, err = injected(b, out, "unlinkat", 1)
    stray = [n for n in os.listdir(out) if n not in PAIR]
    problems = [] if rc == 0 else ["exit %s, expected 0 (stderr %r)" % (rc, err[:300])]
    expect = ("ropescope: warning: --out '%s': the report was written, but its backup %s/%s could "
              "not be removed (Permission denied); the next report into the folder removes it\n"
              % (out, out, stray[0] if stray else "?"))
    if len(stray) != 1 or not stray[0].startswith(".rope_report.md.backup."):
        problems.append("expected one stray Markdown backup, found %s" % stray)
    elif err != expect:
        problems.append("stderr %r, expected %r" % (err, expect))
    problems += pair_problems(out, [b], False, False) if not stray else []
    rc, _, err_b = run(report_args(c, out), tmp)
    problems += [] if rc == 0 else ["the next run failed: %r" % err_b[:200]]
    problems += pair_problems(out, [c], False, False)
    tally.record("report_should_warn_of_a_backup_it_cannot_remove_and_the_next_should_remove_it",
                 problems)
    # The second rename fails: the first file is put back, the folder is as it was.
    shutil.rmtree(out)
    os.mkdir(out)
    run(report_args(a, out), tmp)
    rc, err = injected(b, out, "rename", 2)
    expect = ("ropescope: --out '%s': cannot move %s/rope_report.md into place: Permission denied; "
              "the folder is as it was\n" % (out, out))
    problems = [] if rc == 1 and err == expect else ["exit %s, stderr %r, expected %r"
                                                     % (rc, err, expect)]
    problems += pair_problems(out, [a], False, False)
    tally.record("report_should_put_the_first_file_back_when_the_second_rename_fails", problems)
    shutil.rmtree(out)


def main():
    seed = testlib.seed("test_reliability")
    rng = random.Random(seed)
    tally = testlib.Tally()
    tmp = tempfile.mkdtemp(prefix="ropescope-reliability-")
    try:
        for test in testlib.only([test_config_files] + EXTRA_TESTS):
            if test is test_config_files:
                test(tally, tmp)
            else:
                test(tally, rng, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("ROPE_TEST_SEED=%d" % seed)
    print("%d passed, %d failed" % (tally.passed, tally.failed))
    return 1 if tally.failed else 0


EXTRA_TESTS = [test_messages, test_closed_pipe, test_injected_failures, test_kills]

if __name__ == "__main__":
    sys.exit(main())
