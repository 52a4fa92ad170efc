"""`ropescope verify` against dumps written fresh each run by tests/diff/gen_dumps.py (docs/VERIFY.md):
correct dumps of every format and dtype must match (exit 0); dumps with each diagnosis code
planted, alone and two at a time, must be named (exit 1); bad files are refused with one line
naming the file and the problem (exit 2, nothing on stdout)."""
import copy
import json
import math
import os
import shutil
import struct
import subprocess
import sys

import numpy as np

# The folders beside this one that it imports from: tests/lib, tests/diff.
sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("lib", "diff")]
import crafted  # noqa: E402
import gen_dumps as g  # noqa: E402
import ref_scaling  # noqa: E402
import testlib  # noqa: E402

OUT = os.path.join(testlib.ROOT, "build", "verify-dumps")
# Files the page's test cannot read like a dump (FIFOs, sparse files past a limit): kept apart.
SPECIAL = os.path.join(testlib.ROOT, "build", "verify-special")
# Checkpoint folders (verify --checkpoint), which are no dump files either.
CHECKPOINTS = os.path.join(testlib.ROOT, "build", "verify-checkpoints")
METHODS = ["default", "linear", "dynamic", "yarn", "llama3", "longrope"]
# (format, dtype) pairs a file can hold; text holds float32 and float64 values only.
FORMATS = [("npy", "float64"), ("npy", "float32"), ("npy", "float16"), ("json", "float32"),
           ("json", "float64"), ("csv", "float32"), ("csv", "float64"),
           ("safetensors", "float64"), ("safetensors", "float32"), ("safetensors", "float16"),
           ("safetensors", "bfloat16"), ("npz", "float32"), ("npz", "float64")]

# Each planted code: the rope_types it can be planted in, and whether an inv_freq dump shows it.
PLANTS = {
    "layout_interleaved": (METHODS, False),
    "sign_flipped": (METHODS, False),
    "cos_sin_swapped": (METHODS, False),
    "position_offset": (METHODS, False),
    "attention_factor_missing": (["yarn", "longrope"], False),
    "attention_factor_twice": (["yarn", "longrope"], False),
    "low_precision": (METHODS, True),
    "wrong_base": (["default", "linear", "llama3", "yarn"], True),
    "wrong_rotary_dim": (["default", "linear", "llama3", "yarn"], True),
    "partial_rotary_ignored": (["default"], True),
    "scaling_not_applied": (["linear", "dynamic", "yarn", "llama3", "longrope"], True),
    "scaling_wrong_method": (["linear", "dynamic", "yarn", "llama3"], True),
    "wrong_band_bounds": (["llama3", "yarn"], True),
    "yarn_factor_from_positions": (["yarn"], True),
    "longrope_wrong_factors": (["longrope"], True),
}
ORTHOGONAL = ["layout_interleaved", "sign_flipped", "position_offset"]
PAIRS = [("sign_flipped", "position_offset"), ("layout_interleaved", "attention_factor_missing"),
         ("low_precision", "layout_interleaved"), ("attention_factor_twice", "sign_flipped"),
         ("position_offset", "layout_interleaved"), ("low_precision", "sign_flipped"),
         ("attention_factor_missing", "position_offset")]


def run(args):
    try:
        p = subprocess.run([testlib.CLI, "verify"] + args, capture_output=True, timeout=30)
    except subprocess.TimeoutExpired:
        return -1, "", "timed out after 30 s"  # a run that hangs (a FIFO opened) fails, not the suite
    # A mutated file's bytes may reach a message (a tensor name): not always UTF-8.
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def config_for(rng, method, codes):
    cfg = g.make_config(rng, method)
    if "partial_rotary_ignored" in codes:
        cfg["partial_rotary_factor"] = 0.5
    elif "wrong_rotary_dim" in codes:
        cfg.pop("partial_rotary_factor", None)
    if "yarn_factor_from_positions" in codes:
        sc = cfg["rope_scaling"]
        cfg["max_position_embeddings"] = 2 * sc["factor"] * sc["original_max_position_embeddings"]
    return cfg


def one_case(rng, tally, n, method, kind, fmt, dtype, codes, form="table"):
    """Writes one dump and checks verify's answer; codes empty: a correct dump. form: how the
    table is stored (gen_dumps.per_pair_form), "table" for two columns per pair."""
    cfg = config_for(rng, method, codes)
    rows = int(rng.integers(64, 400))
    start = int(rng.choice([0, int(rng.integers(1, 2000))]))
    if not codes and rng.random() < 0.4:
        start = int(rng.integers(50000, 1000000))  # where float32's angle rounding is large
    if method == "dynamic" and kind == "table":
        start = max(start, 300)  # past max_position_embeddings 256, where dynamic differs
    arrays, notes = g.dump(cfg, kind, dtype, rows, start, codes, rng, form)
    stem = "case%03d" % n
    args = ["--config", g.write_config(cfg, OUT, stem)] + g.write(arrays, fmt, dtype, OUT, stem, rng)
    if kind == "table":
        args += ["--positions", "%d:%d" % (start, rows)]
        # A table in either layout is right; --apply rotate_half makes an interleaved one wrong.
        if "layout_interleaved" in codes or (not codes and rng.random() < 0.3):
            args += ["--apply", "rotate_half"]
    code, out, err = run(args + ["--format", "json"])
    what = "%s %s %s %s %s %s planted %s %s" % (stem, method, kind, form, fmt, dtype, codes or "nothing",
                                                notes)
    problems = []
    try:
        res = json.loads(out)
    except ValueError:
        tally.record(what, ["exit %d, stdout is not JSON: %r / %s" % (code, out[:200], err.strip())])
        return
    named = [d["code"] for d in res["diagnoses"]]
    if kind == "table" and res["form"] != form.replace("freqs_cis_real", "freqs_cis"):
        problems.append("read as form %s" % res["form"])
    if not codes:
        if code != 0 or res["verdict"] != "match" or named:
            problems.append("exit %d, verdict %s, diagnoses %s, worst ratio %s at pair %s position %s"
                            % (code, res["verdict"], named, res["worst_ratio"], res["worst_pair"],
                               res["worst_position"]))
    else:
        if code != 1 or res["verdict"] != "mismatch":
            problems.append("exit %d, verdict %s" % (code, res["verdict"]))
        missing = [c for c in codes if c not in named]
        if missing or "unexplained" in named or len(named) > len(codes) + 2:
            problems.append("planted %s, named %s" % (list(codes), named))
            for d in res["diagnoses"]:
                problems.append("%s: %s" % (d["code"], d["message"]))
    tally.record(what, problems)


def correct_dumps(rng, tally, n):
    for fmt, dtype in FORMATS:
        for kind in ("inv", "table"):
            if fmt == "npz" and kind == "inv":
                continue
            n += 1
            one_case(rng, tally, n, str(rng.choice(METHODS)), kind, fmt, dtype, ())
    return n


# Forms of one value per pair (docs/VERIFY.md, "Forms") and the files each producer writes them
# in: freqs_cis is complex (npy <c8/<c16, safetensors C64) or its real view, which text cannot hold.
PER_PAIR_FORMS = {
    "pairs": FORMATS,
    "freqs_cis": [("npy", "float32"), ("npy", "float64"), ("npz", "float32"), ("npz", "float64"),
                  ("safetensors", "float32")],
    "freqs_cis_real": [f for f in FORMATS if f[0] not in ("json", "csv")],
    "cos_sin_cache": FORMATS,
    "embed_positions": FORMATS,
}
# Planted in every per-pair form: each is a mistake of the values, which no form hides. A
# narrower or wider cos table is read as two columns per pair: the pairs form leaves the rotary
# dim's mistakes out.
PER_PAIR_PLANTS = ["sign_flipped", "position_offset", "wrong_base", "scaling_not_applied",
                   "low_precision", "attention_factor_missing", "wrong_rotary_dim", "scaling_wrong_method",
                   "cos_sin_swapped"]


def per_pair_dumps(rng, tally, n):
    """Each per-pair form in each file it can be, at every dtype: correct (a match, in either
    --apply), and with planted mistakes (a mismatch naming them)."""
    for form, formats in PER_PAIR_FORMS.items():
        for fmt, dtype in formats:
            n += 1
            one_case(rng, tally, n, str(rng.choice(METHODS)), "table", fmt, dtype, (), form)
        for code in PER_PAIR_PLANTS:
            if form == "pairs" and code == "wrong_rotary_dim":
                continue
            methods = sorted(PLANTS[code][0])
            fmt, dtype = formats[int(rng.integers(len(formats)))]
            if code == "low_precision" and fmt in ("json", "csv"):
                fmt, dtype = "npy", "float32"
            n += 1
            one_case(rng, tally, n, str(rng.choice(methods)), "table", fmt, dtype, (code,), form)
    return n


def planted_dumps(rng, tally, n):
    plans = [(c,) for c in PLANTS]
    plans += [(c, str(rng.choice([o for o in ORTHOGONAL if o != c])))
              for c in PLANTS if c not in ORTHOGONAL and PLANTS[c][1]]
    plans += PAIRS
    for codes in plans:
        methods = set(METHODS)
        for c in codes:
            methods &= set(PLANTS[c][0])
        kinds = ["table"] + (["inv"] if all(PLANTS[c][1] for c in codes) else [])
        for kind in kinds:
            usable = sorted(methods)
            if kind == "inv" and "scaling_not_applied" in codes:
                usable.remove("dynamic")  # with no sequence length dynamic is the unscaled RoPE
            method = str(rng.choice(usable))
            formats = FORMATS
            if "low_precision" in codes:
                # Text of float32-exact values is judged float32 (docs/VERIFY.md): a float64
                # text of float32 numbers is a correct float32 dump, not a low-precision one.
                # An inv_freq stored in bfloat16 cannot hold a lower precision.
                formats = [f for f in FORMATS if (f[0] not in ("json", "csv") or f[1] != "float64")
                           and (kind == "table" or f[1] != "bfloat16")]
            fmt, dtype = formats[int(rng.integers(len(formats)))]
            if fmt == "npz" and kind == "inv":
                fmt = "npy"
            n += 1
            one_case(rng, tally, n, method, kind, fmt, dtype, codes)
    return n


def rounded_theta_offsets(rng, tally):
    """inv_freq rounded to bfloat16 or float16 and the positions off by a few, far along the table
    (from position 1000 to 20000), two columns per pair in float32: the rounding moves each slow
    pair's angle by p times its own error, which can be turns of a fast pair, and must not lead
    the reading of the offset astray. Both mistakes must be named. Found by a run: base 20000,
    rotary dim 32, from position 1506, off by 4, read as off by -9, and called unexplained."""
    for k in range(6):
        cfg = g.make_config(rng, "default")
        _, th, _ = g.resolved(cfg, 0)
        t = str(rng.choice(["bfloat16", "float16"]))
        start, rows = int(rng.integers(1000, 20000)), int(rng.integers(64, 400))
        offset = int(rng.integers(1, 40))
        pos = np.arange(start, start + rows, dtype=np.float64) + offset
        a = g.angles(th, pos, "float32", (t, True))
        c, s = np.cos(a), np.sin(a)
        arrays = {"cos": g.store(np.concatenate([c, c], axis=1), "float32"),
                  "sin": g.store(np.concatenate([s, s], axis=1), "float32")}
        fmt = str(rng.choice(["npy", "csv", "safetensors"]))
        stem = "rounded%02d" % k
        args = ["--config", g.write_config(cfg, OUT, stem)] + g.write(arrays, fmt, "float32", OUT, stem, rng)
        code, out, err = run(args + ["--positions", "%d:%d" % (start, rows), "--format", "json"])
        what = "%s inv_freq rounded to %s, from %d, off by %d, %s (theta %g, rotary dim %d)" % (
            stem, t, start, offset, fmt, cfg["rope_theta"], 2 * len(th))
        try:
            named = [d["code"] for d in json.loads(out)["diagnoses"]]
        except ValueError:
            tally.record(what, ["exit %d, stdout is not JSON: %s" % (code, err.strip())])
            continue
        problems = []
        if code != 1 or sorted(named) != ["low_precision", "position_offset"]:
            problems.append("exit %d, named %s" % (code, named))
        tally.record(what, problems)


# ---- bad files ----------------------------------------------------------------------------

def npy_header(descr, shape, fortran=False):
    h = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape)
    h += " " * (-(len(h) + 11) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode()


def bad_files(rng, tally):
    cfg = g.write_config(g.make_config(rng, "default"), OUT, "bad")
    good = np.cos(rng.random((8, 128))).astype(np.float32)
    np.save(os.path.join(OUT, "good_sin.npy"), good)
    np.save(os.path.join(OUT, "good_cos.npy"), good)
    whole = open(os.path.join(OUT, "good_cos.npy"), "rb").read()
    nan = good.copy()
    nan[3, 5] = np.nan
    st = g.safetensors_bytes({"cos": good, "sin": good}, "float32")
    table = [
        # (name, bytes, flag, words the message must hold)
        ("truncated.npy", whole[: len(whole) - 100], "--cos", "truncated"),
        ("header.npy", npy_header("<i4", "(8, 128)") + b"\0" * 4096, "--cos", "dtype"),
        ("notdict.npy", b"\x93NUMPY\x01\x00\x10\x00garbage garbage\n", "--cos", "header"),
        ("nan.npy", None, "--cos", "NaN"),
        ("gigabyte.npy", npy_header("<f4", "(16384, 16384)") + b"\0" * 64, "--cos", "limit"),
        ("claims.npy", npy_header("<f4", "(8, 4096)") + b"\0" * 64, "--cos", "truncated"),
        ("threed.npy", npy_header("<f4", "(2, 8, 64)") + b"\0" * 4096, "--cos", "3-D"),
        ("oned.npy", npy_header("<f4", "(128,)") + b"\0" * 512, "--cos", "1-D"),
        ("inv2d.npy", npy_header("<f4", "(4, 16)") + b"\0" * 256, "--inv-freq", "1-D"),
        ("shape.npy", npy_header("<f4", "(8, 64)") + b"\0" * 2048, "--sin", "must match"),
        ("truncated.safetensors", st[: len(st) - 64], "--cache", "truncated"),
        ("gigabyte.safetensors", struct.pack("<Q", 1 << 30) + b"{" + b" " * 64, "--cache", "limit"),
        ("empty.csv", b"", "--cos", "empty"),
        ("ragged.csv", b"1,2,3\n4,5\n", "--cos", "line 2"),
        ("nan.csv", b"0.5, nan\n", "--inv-freq", "NaN"),
        ("word.csv", b"0.5, half\n", "--inv-freq", "not a number"),
        ("ragged.json", b"[[1, 2], [3]]", "--cos", "unequal"),
        ("noname.safetensors", g.safetensors_bytes({"a": good, "b": good}, "float32"), "--cache", "no tensor"),
    ]
    np.save(os.path.join(OUT, "nan.npy"), nan)
    g.zip_stored(os.path.join(OUT, "deflated.npz"), {"cos": good, "sin": good})
    table.append(("deflated.npz", None, "--cache", "compressed"))
    for name, data, flag, word in table:
        path = os.path.join(OUT, name)
        if data is not None:
            with open(path, "wb") as f:
                f.write(data)
        args = ["--config", cfg]
        if flag == "--cos":
            args += ["--cos", path, "--sin", os.path.join(OUT, "good_sin.npy")]
        elif flag == "--sin":
            args += ["--cos", os.path.join(OUT, "good_cos.npy"), "--sin", path]
        else:
            args += [flag, path]
        code, out, err = run(args)
        lines = err.strip().split("\n")
        ok = code == 2 and out == "" and len(lines) == 1 and path in lines[0] and word in lines[0]
        tally.check(ok, "bad file %s: exit %d, stdout %r, stderr %r (wants '%s')" % (name, code, out[:80], err, word))


def mutated_files(rng, tally):
    """Valid files with bytes changed or cut: every answer is a verdict or one line of refusal."""
    cfg = g.make_config(rng, "default")
    c = g.write_config(cfg, OUT, "mut")
    arrays, _ = g.dump(cfg, "table", "float32", 16, 0, (), rng)
    sources = []
    for fmt in ("npy", "safetensors", "npz", "json", "csv"):
        flags = g.write(arrays, fmt, "float32", OUT, "mut-" + fmt, rng)
        sources.append((flags[0], flags[1]))
    for k in range(40):
        flag, path = sources[k % len(sources)]
        data = bytearray(open(path, "rb").read())
        if rng.random() < 0.5:
            data = data[: int(rng.integers(0, len(data)))]
        else:
            for _ in range(int(rng.integers(1, 6))):
                at = int(rng.integers(0, min(len(data), 256)))
                data[at] = int(rng.integers(0, 256))
        bad = os.path.join(OUT, "mutant%02d%s" % (k, os.path.splitext(path)[1]))
        with open(bad, "wb") as f:
            f.write(bytes(data))
        args = ["--config", c, "--cache", bad] if flag == "--cache" else \
               ["--config", c, "--cos", bad, "--sin", bad]
        code, out, err = run(args)
        ok = code in (0, 1) and out or code == 2 and out == "" and len(err.strip().split("\n")) == 1
        tally.check(ok, "mutant %s of %s: exit %d, stderr %r" % (bad, path, code, err[-300:]))


def positions(rng, tally):
    """--positions FROM:COUNT labels rows; COUNT must equal the rows; a wrong FROM is an offset."""
    cfg = g.make_config(rng, "default")
    arrays, _ = g.dump(cfg, "table", "float32", 100, 500, (), rng)
    c = g.write_config(cfg, OUT, "pos")
    files = g.write(arrays, "npy", "float32", OUT, "pos", rng)
    code, out, _ = run(["--config", c] + files + ["--positions", "500:100"])
    tally.check(code == 0, "--positions 500:100 on rows 500..599: exit %d" % code)
    code, out, err = run(["--config", c] + files + ["--positions", "500:99"])
    tally.check(code == 2 and out == "" and "COUNT" in err, "--positions COUNT != rows: exit %d %r" % (code, err))
    for bad in ("4294967296:100", "-1:100", "500:0"):
        code, out, err = run(["--config", c] + files + ["--positions", bad])
        want = ("ropescope: --positions must be FROM:COUNT, whole numbers with FROM from 0 to 2147483647 "
                "and COUNT from 1 to 2147483647, got '%s'\n" % bad)
        tally.check(code == 2 and out == "" and err == want, "--positions %s names the limit: exit %d %r" % (bad, code, err))
    code, out, _ = run(["--config", c] + files + ["--positions", "480:100", "--format", "json"])
    named = [d["code"] for d in json.loads(out)["diagnoses"]] if out else []
    tally.check(code == 1 and "position_offset" in named, "--positions 480:100 on rows 500..: %s" % named)
    code, out, _ = run(["--config", c] + files)
    tally.check(code == 1, "default positions 0:rows on rows 500..: exit %d" % code)
    noise = {k: np.asarray(rng.uniform(-1, 1, v.shape), dtype=np.float32) for k, v in arrays.items()}
    files = g.write(noise, "npy", "float32", OUT, "noise", rng)
    code, out, _ = run(["--config", c] + files + ["--format", "json"])
    named = [d["code"] for d in json.loads(out)["diagnoses"]] if out else []
    tally.check(code == 1 and named == ["unexplained"], "random numbers: exit %d, %s" % (code, named))


PAIRS_OF = {"rotate_half": "rotate_half pairs (i, i+d/2)", "interleaved": "adjacent pairs (2i, 2i+1)"}
PERMUTE = {"interleaved": "de-interleaved first (new dim i = old 2i, new dim i+d/2 = old 2i+1), as "
                          "transformers' apply_rotary_pos_emb_interleave does",
           "rotate_half": "interleaved first (new dim 2i = old i, new dim 2i+1 = old i+d/2), as "
                          "llama.cpp's converter permutes the q and k weight rows"}


def layout_needs(table, checkpoint, decided):
    """What a right table asks of q and k, in verify's words."""
    shown = {"rotate_half": "pairs (i, i+d/2) (rotate_half)", "interleaved": "pairs (2i, 2i+1) (interleaved)"}
    head = "the table holds %s; the checkpoint's q/k rows are %s (%s): " % (shown[table], checkpoint, decided)
    if table == checkpoint:
        return head + "apply it to q and k in checkpoint order as " + PAIRS_OF[table]
    return head + "apply it as %s to q and k %s" % (PAIRS_OF[table], PERMUTE[checkpoint])


def layout_fix(apply, checkpoint):
    if apply == "rotate_half":
        text = ("the table pairs dims (2i, 2i+1) (interleaved); your code applies it as rotate_half pairs "
                "(i, i+d/2) (--apply rotate_half). Build it as transformers does, cat(freqs, freqs): pair "
                "i's angle in columns i and i+d/2")
    else:
        text = ("the table pairs dims (i, i+d/2) (rotate_half); your code applies it to adjacent pairs "
                "(2i, 2i+1) (--apply interleaved). Build it interleaved, repeat_interleave(freqs, 2): pair "
                "i's angle in columns 2i and 2i+1")
    if apply != checkpoint:
        text += "; the checkpoint's q/k rows are %s, so q and k must be %s" % (checkpoint, PERMUTE[checkpoint])
    return text


def layout_configs(rng):
    """(config, the checkpoint's layout, what decides it, theta): rope_interleave either way, the class
    defaults of GLM-4.7-Flash (interleaved unless said) and DeepSeek V3.2 (always interleaved), and a
    model_type the class table does not hold."""
    d = int(rng.choice([32, 64, 128]))
    base = float(rng.choice(g.NICE_BASES))
    th = base ** (-2.0 * np.arange(d // 2) / d)
    plain = {"rope_theta": base, "head_dim": d, "hidden_size": 4 * d, "num_attention_heads": 4,
             "max_position_embeddings": 8192}
    mla = {"rope_theta": base, "qk_rope_head_dim": d, "hidden_size": 2048, "num_attention_heads": 16,
           "max_position_embeddings": 8192}
    return [
        (dict(plain, rope_interleave=True), "interleaved", "rope_interleave", th),
        (dict(plain, rope_interleave=False), "rotate_half", "rope_interleave", th),
        (dict(mla, model_type="glm4_moe_lite"), "interleaved",
         "model_type glm4_moe_lite (rope_interleave, true by default)", th),
        (dict(mla, model_type="deepseek_v32", rope_interleave=False), "interleaved",
         "model_type deepseek_v32 (its attention always de-interleaves q and k)", th),
        (dict(plain, model_type="not_a_class"), "rotate_half",
         "transformers' usual rotate_half (the model_type is not in the class table)", th),
    ]


def config_layouts(rng, tally):
    """A table in either layout matches, as transformers' cat(freqs, freqs) cache and a port that keeps
    the checkpoint's adjacent pairs both are right; the output says what it asks of q and k. With
    --apply, a table in the other layout is layout_interleaved or layout_half with the fix; a bad
    --apply or --profile is refused."""
    for k, (cfg, checkpoint, decided, th) in enumerate(layout_configs(rng)):
        c = g.write_config(cfg, OUT, "layout-%d" % k)
        for table in ("rotate_half", "interleaved"):
            start, rows = int(rng.integers(0, 5000)), int(rng.integers(16, 80))
            dtype = str(rng.choice(["float32", "float64"]))
            arrays = table_dump(th, start, rows, dtype)
            if table == "interleaved":
                arrays = {n: np.repeat(v[:, : v.shape[1] // 2], 2, axis=1) for n, v in arrays.items()}
            stem = "layout-%d-%s" % (k, table)
            files = g.write(arrays, "npy", dtype, OUT, stem, rng)
            for apply in (None, "rotate_half", "interleaved"):
                extra = ["--apply", apply] if apply else []
                code, out, err = run(["--config", c] + files + extra +
                                     ["--positions", "%d:%d" % (start, rows), "--format", "json"])
                res = json.loads(out) if out else {}
                got = (code, [(x["code"], x["message"]) for x in res.get("diagnoses", [])])
                if apply in (None, table):
                    want = (0, [])
                else:
                    want = (1, [("layout_interleaved" if table == "interleaved" else "layout_half",
                                 layout_fix(apply, checkpoint))])
                ok = got == want and res.get("layout_found") == table and res.get("apply") == apply and \
                    res["config"]["layout"] == checkpoint and res["config"]["layout_from"] == decided
                if ok and code == 0:
                    ok = res["layout_needs"] == layout_needs(table, checkpoint, decided)
                tally.check(ok, "%s, %s table, --apply %s: got %s, wants %s; needs %r %s"
                            % (decided, table, apply, got, want, res.get("layout_needs"), err.strip()))
            code, text, err = run(["--config", c] + files + ["--positions", "%d:%d" % (start, rows)])
            tally.check(code == 0 and ("layout: %s\n" % layout_needs(table, checkpoint, decided)) in text,
                        "text output's layout line: exit %d %r" % (code, text))
    for flag, value, words in (("--apply", "half", "--apply must be rotate_half or interleaved, got 'half'"),
                               ("--profile", "llama", "--profile must be transformers or recurrence, got 'llama'")):
        code, out, err = run(["--config", c] + files + [flag, value])
        tally.check(code == 2 and out == "" and err == "ropescope: %s\n" % words,
                    "%s %s: exit %d %r" % (flag, value, code, err))


def gemma4_config(rng):
    """A random config shaped like Gemma 4's: full-attention layers with rope_type proportional over
    global_head_dim, sliding layers with the default frequencies over head_dim at their own base."""
    head = int(rng.choice([64, 128, 256]))
    prf = float(rng.choice([0.25, 0.5]))
    full_base, local_base = (float(b) for b in rng.choice(g.NICE_BASES, 2, replace=False))
    layers = int(rng.choice([10, 12, 35]))
    every = int(rng.choice([5, 6]))
    full = {"partial_rotary_factor": prf, "rope_theta": full_base, "rope_type": "proportional"}
    if rng.random() < 0.3:
        full["factor"] = float(rng.choice([1.0, 2.0, 8.0]))
    text = {"model_type": "gemma4_text", "hidden_size": 8 * head, "num_attention_heads": 8,
            "head_dim": head, "global_head_dim": 2 * head, "num_hidden_layers": layers,
            "max_position_embeddings": 131072,
            "layer_types": ["full_attention" if (i + 1) % every == 0 else "sliding_attention"
                            for i in range(layers)],
            "rope_parameters": {"full_attention": full,
                                "sliding_attention": {"rope_theta": local_base, "rope_type": "default"}}}
    cfg = {"model_type": "gemma4", "text_config": text} if rng.random() < 0.5 else text
    return cfg, head, prf, full_base, local_base, full.get("factor", 1.0)


def table_dump(th, start, rows, dtype):
    """cos and sin as transformers builds them: inv_freq and position x inv_freq at the dump's
    precision (float32 or float64), rotate_half layout."""
    t = np.float64 if dtype == "float64" else np.float32
    a = np.arange(start, start + rows).astype(t)[:, None] * np.asarray(th).astype(t)[None, :]
    a = np.concatenate([a, a], axis=1)
    return {"cos": np.cos(a).astype(t), "sin": np.sin(a).astype(t)}


def proportional_and_layer_types(rng, tally):
    """rope_type proportional (Gemma 4): a right dump matches; a table cut to the rotating pairs is
    wrong_rotary_dim, one where every pair rotates is partial_rotary_ignored. --layer-type
    sliding_attention holds a dump to the sliding layers' own base and head_dim, and a sliding dump
    made at the full layers' base is wrong_base; an unknown layer type is refused."""
    for k in range(3):
        cfg, head, prf, full_base, local_base, factor = gemma4_config(rng)
        d = 2 * head
        rotating = int(prf * d // 2)
        i = np.arange(d // 2)
        th = np.where(i < rotating, full_base ** (-2.0 * i / d), 0.0) / factor
        every = (full_base ** (-2.0 * i / d)) / factor
        local = local_base ** (-2.0 * np.arange(head // 2) / head)
        wrong_local = full_base ** (-2.0 * np.arange(head // 2) / head)
        cases = [("right", th, [], 0, []), ("cut", th[:rotating], [], 1, ["wrong_rotary_dim"]),
                 ("every", every, [], 1, ["partial_rotary_ignored"]),
                 ("sliding", local, ["--layer-type", "sliding_attention"], 0, []),
                 ("sliding-full", th, ["--layer-type", "full_attention"], 0, []),
                 ("sliding-at-full-base", wrong_local, ["--layer-type", "sliding_attention"], 1, ["wrong_base"])]
        for name, theta, extra, want_code, want_named in cases:
            dtype = str(rng.choice(["float32", "float64"]))
            start, rows = int(rng.integers(0, 3000)), int(rng.integers(16, 200))
            stem = "gemma4-%d-%s" % (k, name)
            c = g.write_config(cfg, OUT, stem)  # each dump beside its config (the page's test pairs them)
            files = g.write(table_dump(theta, start, rows, dtype), "npy", dtype, OUT, stem, rng)
            code, out, err = run(["--config", c] + files + extra + ["--positions", "%d:%d" % (start, rows),
                                                                    "--format", "json"])
            res = json.loads(out) if out else {}
            named = [x["code"] for x in res.get("diagnoses", [])]
            ok = code == want_code and named == want_named
            if ok and extra:
                ok = res["config"]["layer_type"] == extra[1]
            tally.check(ok, "gemma4 %s (head %d, prf %g, %s): exit %d, diagnoses %s; wants %d %s %s"
                        % (name, head, prf, dtype, code, named, want_code, want_named, err.strip()))
        code, out, err = run(["--config", c] + files + ["--layer-type", "chunked_attention"])
        tally.check(code == 2 and out == "" and "full_attention and sliding_attention" in err,
                    "--layer-type chunked_attention: exit %d %r" % (code, err))
    # v5 per-layer tables without num_hidden_layers: the sliding table is there all the same.
    head = int(rng.choice([64, 128, 256]))
    full_base, local_base = (float(b) for b in rng.choice(g.NICE_BASES, 2, replace=False))
    for mt in ("gemma3_text", "not_a_class"):
        cfg = {"model_type": mt, "head_dim": head, "rope_parameters": {
            "full_attention": {"rope_type": "default", "rope_theta": full_base},
            "sliding_attention": {"rope_type": "default", "rope_theta": local_base}}}
        c = g.write_config(cfg, OUT, "v5-%s" % mt)
        start, rows = int(rng.integers(0, 3000)), int(rng.integers(16, 100))
        local = local_base ** (-2.0 * np.arange(head // 2) / head)
        files = g.write(table_dump(local, start, rows, "float32"), "npy", "float32", OUT, "v5-%s" % mt, rng)
        code, out, err = run(["--config", c] + files + ["--layer-type", "sliding_attention", "--positions",
                                                        "%d:%d" % (start, rows)])
        tally.check(code == 0 and "result: match" in out, "%s v5 layer types without num_hidden_layers: exit %d %r %r"
                    % (mt, code, out[-200:], err))
    # Dotted top-level keys are plain keys: no scaling, so a table scaled by 2 is wrong.
    base, d = float(rng.choice(g.NICE_BASES)), int(rng.choice([64, 128]))
    cfg = {"rope_scaling.rope_type": "linear", "rope_scaling.factor": 2, "rope_theta": base, "head_dim": d}
    c = g.write_config(cfg, OUT, "dotted")
    th = base ** (-2.0 * np.arange(d // 2) / d)
    for name, theta, want in (("plain", th, 0), ("scaled", th / 2, 1)):
        files = g.write(table_dump(theta, 0, 64, "float32"), "npy", "float32", OUT, "dotted-" + name, rng)
        code, out, err = run(["--config", c] + files)
        tally.check(code == want and '"rope_scaling.factor" is one key whose name holds a dot' in err,
                    "dotted keys, %s table: exit %d, wants %d %r" % (name, code, want, err))
    plain = g.write_config(g.make_config(rng, "default"), OUT, "one-table")
    code, out, err = run(["--config", plain] + files + ["--layer-type", "sliding_attention"])
    tally.check(code == 2 and out == "" and "one RoPE table" in err, "--layer-type on one table: exit %d %r" % (code, err))


def refused(tally, args, flag, path, words):
    """verify refuses with exactly the line 'ropescope: FLAG 'PATH': words' (exit 2)."""
    code, out, err = run(args)
    want = "ropescope: %s '%s': %s\n" % (flag, path, words)
    tally.check(code == 2 and out == "" and err == want,
                "%s: exit %d, stderr %r; wants %r" % (os.path.basename(path), code, err, want))


def crafted_refusals(rng, tally):
    """Hostile files: a zip64 offset near 2^64, sizes that are not whole numbers, a cache that holds
    cos without sin, too many JSON members. Each is refused with its exact line."""
    cfg = g.write_config(g.make_config(rng, "default"), OUT, "crafted")
    good = np.cos(rng.random((8, 128))).astype(np.float32)
    files = crafted.hostile(good)
    files.update({
        "huge-offsets.safetensors": crafted.safetensors_raw(
            {"cos": {"dtype": "F32", "shape": [1, 128], "data_offsets": [0, 2**60]}}, b"\0" * 512),
        "cos-only.npz": crafted.npz_bytes({"cos": good}),
        "sin-only.npz": crafted.npz_bytes({"model.sin_cached": good}),
        "cos-only.safetensors": g.safetensors_bytes({"cos": good}, "float32"),
        "cos-only.json": json.dumps({"cos": good.astype(float).tolist()}).encode(),
        "members.json": json.dumps({"t%d" % k: [0.5] for k in range(4097)}).encode(),
    })
    whole = "; it must be a whole number from 0 to 2^53"
    cases = [
        ("zip64-offset.npz", "npz member 'cos': its local header at byte 18446744073709551600 lies "
                             "past the end of the file (%d bytes)" % len(files["zip64-offset.npz"])),
        ("fraction-shape.safetensors", "safetensors tensor 'cos': shape[1] is 128.5" + whole),
        ("fraction-offsets.safetensors", "safetensors tensor 'cos': data_offsets[0] is 0.5" + whole),
        ("negative-shape.safetensors", "safetensors tensor 'cos': shape[0] is -1" + whole),
        ("huge-offsets.safetensors", "safetensors tensor 'cos': data_offsets[1] is "
                                     "1152921504606846976" + whole),
        ("cos-only.npz", "no tensor named 'sin' or 'sin_cached': its one tensor is 'cos'"),
        ("sin-only.npz", "no tensor named 'cos', 'cos_cached', 'freqs_cis', 'cos_sin_cache' or 'embed_positions': its one tensor is 'model.sin_cached'"),
        ("cos-only.safetensors", "no tensor named 'sin' or 'sin_cached': its one tensor is 'cos'"),
        ("cos-only.json", "no tensor named 'sin' or 'sin_cached': its one tensor is 'cos'"),
        ("members.json", "a JSON object of 4097 members; the limit is 4096"),
    ]
    for name, words in cases:
        path = os.path.join(OUT, name)
        with open(path, "wb") as f:
            f.write(files[name])
        refused(tally, ["--config", cfg, "--cache", path], "--cache", path, words)


def special_files(rng, tally):
    """A FIFO, a directory, a device and a /proc file are refused at once, naming the flag; files
    past a format's size limit are refused by their size before they are read (sparse files)."""
    shutil.rmtree(SPECIAL, ignore_errors=True)
    os.makedirs(SPECIAL)
    cfg = g.write_config(g.make_config(rng, "default"), SPECIAL, "special")
    fifo = os.path.join(SPECIAL, "dump.fifo")
    os.mkfifo(fifo)
    kinds = [(fifo, "not a regular file (a FIFO)"), (SPECIAL, "not a regular file (a directory)"),
             ("/dev/null", "not a regular file (a character device)"),
             ("/proc/self/status", "not a regular file: its size is unknown (it reports 0 bytes, "
                                   "yet reads some, as /proc and /sys files do); copy it to a file")]
    for path, words in kinds:
        for flag in ("--inv-freq", "--cos", "--cache"):
            args = ["--config", cfg, flag, path] + (["--sin", path] if flag == "--cos" else [])
            refused(tally, args, flag, path, words)
    # The limits of verify.h, as docs/VERIFY.md states them.
    binary, text, js = (1 << 29) + (1 << 21), 256 << 20, 16 << 20
    big = [("big.npy", b"\x93NUMPY\x01\x00", binary, "an npy file", ""),
           ("big.safetensors", struct.pack("<Q", 64) + b"{", binary, "a safetensors file", ""),
           ("big.csv", b"0.5, 0.25\n", text, "a text dump", ": save a larger table as .npy"),
           ("big.json", b"\xef\xbb\xbf [[0.5", js, "a JSON dump", ": save a larger table as .npy")]
    for name, head, limit, what, advice in big:
        path = os.path.join(SPECIAL, name)
        for size in (limit + 1, limit + 12345):
            with open(path, "wb") as f:
                f.write(head)
                f.truncate(size)
            refused(tally, ["--config", cfg, "--inv-freq", path], "--inv-freq", path,
                    "%s of %d bytes; the limit is %d bytes (%d MiB)%s"
                    % (what, size, limit, limit >> 20, advice))
    os.remove(path)


def verdict(tally, what, args, want_code, want_named=()):
    code, out, err = run(args + ["--format", "json"])
    named = [d["code"] for d in json.loads(out)["diagnoses"]] if out else []
    tally.check(code == want_code and named == list(want_named),
                "%s: exit %d, diagnoses %s; wants %d %s %s" % (what, code, named, want_code,
                                                                list(want_named), err.strip()))


def odd_valid_files(rng, tally):
    """Valid dumps in shapes the readers once refused or misread must match (and the same with
    sin negated must be sign_flipped): Fortran order (with unit dimensions, and a true 2-D one,
    read transposed), GPT-NeoX's [positions, 1, 1, d], a UTF-8 byte order mark, a text ending in a digit at a page's end, float32
    values printed with 9 digits (%.9g, judged float32), a JSON object of 300 members, an npz
    with zip64 fields."""
    for k in range(2):
        cfg = g.make_config(rng, str(rng.choice(["default", "linear", "yarn"])))
        start, rows = int(rng.integers(0, 3000)), int(rng.integers(16, 100))
        table, _ = g.dump(cfg, "table", "float32", rows, start, (), rng)
        inv, _ = g.dump(cfg, "inv", "float32", 0, 0, (), rng)
        flipped = {"cos": table["cos"], "sin": -table["sin"]}
        pos = ["--positions", "%d:%d" % (start, rows)]

        def files(stem, arrays, write):
            c = g.write_config(cfg, OUT, stem)
            out = []
            for name, a in arrays.items():
                p = os.path.join(OUT, "%s.%s" % (stem, name))
                with open(p, "wb") as f:
                    f.write(write(a))
                out += ["--inv-freq" if name.startswith("inv_freq") else "--" + name.split(".")[0], p]
            return ["--config", c] + out

        def bom_json(a):
            return b"\xef\xbb\xbf" + json.dumps(a.astype(np.float64).tolist()).encode()

        def bom_csv(a):
            rows_ = a if a.ndim == 2 else a[None, :]
            return b"\xef\xbb\xbf" + "\n".join(",".join(repr(float(v)) for v in r) for r in rows_).encode()

        for stem, arrays, write, extra in [
            ("fortran-lead", table, lambda a: crafted.npy_bytes(a[None, :, :], True), pos),
            ("fortran-2d", table, lambda a: crafted.npy_bytes(a, True), pos),
            ("fortran-inv", inv, lambda a: crafted.npy_bytes(a[None, :], True), []),
            ("bom-json", table, bom_json, pos),
            ("bom-csv", inv, bom_csv, []),
            ("page-csv", table, crafted.text_to_page, pos),
            ("g9-csv", table, lambda a: "\n".join(",".join("%.9g" % v for v in r) for r in a).encode(), pos),
            ("neox-npy", table, lambda a: crafted.npy_bytes(a[:, None, None, :]), pos),
            ("g9-json", inv, lambda a: ("[%s]" % ", ".join("%.9g" % v for v in a)).encode(), []),
        ]:
            named = {n + (".csv" if "csv" in stem else ".json" if "json" in stem else ".npy"): a
                     for n, a in arrays.items()}
            stem = "%s-%d" % (stem, k)
            verdict(tally, stem, files(stem, named, write) + extra, 0)
            if "inv_freq" not in arrays:
                bad = {n + (".csv" if "csv" in stem else ".json" if "json" in stem else ".npy"): a
                       for n, a in flipped.items()}
                verdict(tally, stem + " sin negated", files(stem + "-flipped", bad, write) + extra,
                        1, ["sign_flipped"])
        for stem, arrays, want in [("neox-%d" % k, table, ()), ("neox-flipped-%d" % k, flipped, ("sign_flipped",))]:
            # GPT-NeoX's buffers: cos_cached and sin_cached of shape [positions, 1, 1, d].
            neox = {n + "_cached": a[:, None, None, :] for n, a in arrays.items()}
            path = os.path.join(OUT, stem + ".safetensors")
            with open(path, "wb") as f:
                f.write(g.safetensors_bytes(neox, "float32", "gpt_neox.layers.0.attention.rotary_emb."))
            c = g.write_config(cfg, OUT, stem)
            verdict(tally, stem, ["--config", c, "--cache", path] + pos, len(want), want)
        c = g.write_config(cfg, OUT, "members-%d" % k)
        many = {"t%03d" % j: [0.5] for j in range(300)}
        many.update({"z.cos": table["cos"].astype(float).tolist(), "z.sin": table["sin"].astype(float).tolist()})
        path = os.path.join(OUT, "members-%d.cache.json" % k)
        with open(path, "w") as f:
            json.dump(many, f)
        verdict(tally, "JSON object of 302 members", ["--config", c, "--cache", path] + pos, 0)
        # A value past float32's range is float64's, never a float32 infinity.
        path = os.path.join(OUT, "huge-%d.csv" % k)
        with open(path, "w") as f:
            f.write(",".join(repr(float(v)) for v in inv["inv_freq"][:-1]) + ",-1.5e300\n")
        code, out, err = run(["--config", c, "--inv-freq", path, "--format", "json"])
        res = json.loads(out) if out else {}
        tally.check(code == 1 and res.get("dtype") == "float64" and "Infinity" not in out,
                    "inv_freq with -1.5e300: exit %d, dtype %s %s" % (code, res.get("dtype"), err))
        path = os.path.join(OUT, "zip64-%d.npz" % k)
        with open(path, "wb") as f:
            f.write(crafted.npz_bytes(table))
        g.write_config(cfg, OUT, "zip64-%d" % k)
        verdict(tally, "npz with zip64 fields", ["--config", c, "--cache", path] + pos, 0)


# ---- tables made the way producers make them (docs/VERIFY.md, "Tolerance") ------------------

F32 = np.float32


def phi3_longrope(rng):
    """A fresh Phi-3.5-style longrope config and its float32 cache as transformers computes it:
    inv_freq = 1 / (ext_factors * base ** (arange(0, d, 2) / d)) in float32, the angle one float32
    product, cos and sin times the float32 attention factor. Returns the config, the tables, the
    start, the rows, the factor list transformers uses at that length and the other, and A."""
    heads = int(rng.choice([16, 24, 32]))
    d = int(rng.choice([64, 96, 128]))
    orig = int(rng.choice([512, 1024, 2048, 4096]))
    mult = int(rng.choice([8, 16, 32]))
    # Large bases too (Qwen3's 1e7): pow's exponent rounding moves theta by |ln theta| roundings.
    base = float(rng.choice(g.NICE_BASES + [1e7, 1e8]))
    short = np.sort(rng.uniform(1.0, 1.3, d // 2))
    long_ = np.sort(rng.uniform(1.0, 2.0 * mult, d // 2))
    cfg = {"model_type": "phi3", "hidden_size": heads * d, "num_attention_heads": heads, "rope_theta": base,
           "max_position_embeddings": orig * mult, "original_max_position_embeddings": orig,
           "rope_scaling": {"type": "longrope", "short_factor": [float(x) for x in short],
                            "long_factor": [float(x) for x in long_]}}
    rows = int(rng.integers(64, 2 * orig))
    start = int(rng.choice([0, int(rng.integers(0, orig))]))
    ext, other = (long_, short) if start + rows > orig else (short, long_)
    a = np.sqrt(1.0 + np.log(mult) / np.log(orig))
    return cfg, d, base, start, rows, ext, other, a


def faithful(f, ang, rng):
    """f of a float32 angle as a float32 library within 1 ulp computes it (torch's vectorized
    float32 cos and sin are within 1.0 ulp): at random, the correctly rounded value or its neighbour
    on the other side of the exact one (none past an exact value, none past +-1)."""
    exact = f(ang.astype(np.float64))
    near = exact.astype(F32)
    other = np.nextafter(near, np.where(near > exact, -np.inf, np.inf).astype(F32))
    other = np.where((near == exact) | (np.abs(other) > 1), near, other)
    return np.where(rng.random(ang.shape) < 0.5, near, other).astype(F32)


def phi3_tables(d, base, start, rows, ext, a, rng):
    e = np.arange(0, d, 2).astype(F32) / F32(d)
    inv = F32(1.0) / (np.asarray(ext, dtype=F32) * np.power(F32(base), e))
    ang = np.arange(start, start + rows).astype(F32)[:, None] * inv[None, :]
    ang = np.concatenate([ang, ang], axis=1)
    # The same value in both halves, as cat(freqs, freqs).cos() computes it once per column.
    half = d // 2
    cos, sin = faithful(np.cos, ang[:, :half], rng), faithful(np.sin, ang[:, :half], rng)
    return {"cos": np.tile(cos, 2) * F32(a), "sin": np.tile(sin, 2) * F32(a)}


def llama3_recurrence(rng):
    """A fresh Llama 3.1-style config (rope_type llama3) and its float32 table as llama.cpp builds
    it: the converter's rope_freqs factors (float32), theta_scale = powf(base, -2/d), the angle of
    pair i reached by theta *= theta_scale from theta = p, divided by the pair's factor, adjacent
    pairs (llama.cpp's converter permutes q and k to them)."""
    d = int(rng.choice([64, 128]))
    base = float(rng.choice([10000.0, 500000.0, 1000000.0, 1e7]))
    orig = int(rng.choice([2048, 4096, 8192]))
    factor = float(rng.choice([4.0, 8.0, 16.0]))
    low, high = 1.0, float(rng.choice([2.0, 4.0]))
    cfg = {"model_type": "llama", "hidden_size": 32 * d, "num_attention_heads": 32, "rope_theta": base,
           "max_position_embeddings": int(orig * factor),
           "rope_scaling": {"rope_type": "llama3", "factor": factor, "low_freq_factor": low,
                            "high_freq_factor": high, "original_max_position_embeddings": orig}}
    return cfg, d, base, orig, factor, low, high


def llama3_factors(d, base, orig, factor, low, high):
    freqs = 1.0 / (F32(base) ** (np.arange(0, d, 2, dtype=F32) / F32(d)))
    out = []
    for f in freqs.astype(np.float64):
        wavelen = 2 * np.pi / f
        if wavelen < orig / high:
            out.append(1.0)
        elif wavelen > orig / low:
            out.append(factor)
        else:
            smooth = (orig / wavelen - low) / (high - low)
            out.append(1 / ((1 - smooth) / factor + smooth))
    return np.asarray(out, dtype=F32)


def recurrence_tables(d, base, start, rows, ff):
    scale = F32(np.power(F32(base), F32(-2.0) / F32(d)))
    theta = np.arange(start, start + rows).astype(F32)
    ang = np.empty((rows, d // 2), dtype=F32)
    for i in range(d // 2):
        ang[:, i] = theta / ff[i]
        theta = theta * scale
    ang = np.repeat(ang, 2, axis=1)
    return {"cos": np.cos(ang), "sin": np.sin(ang)}


def producer_tables(rng, tally):
    """Correct float32 tables made as transformers (Phi-3.5 longrope: pow, factor division, the
    attention factor) and llama.cpp (Llama 3.1: a float32 recurrence over 32,768 positions) make
    them match, the latter with --profile recurrence; planted bugs still mismatch."""
    for k in range(3):
        cfg, d, base, start, rows, ext, other, a = phi3_longrope(rng)
        c = g.write_config(cfg, OUT, "phi3-%d" % k)
        cases = [("right", phi3_tables(d, base, start, rows, ext, a, rng), 0, []),
                 ("other-list", phi3_tables(d, base, start, rows, other, a, rng), 1, ["longrope_wrong_factors"]),
                 ("no-factor", phi3_tables(d, base, start, rows, ext, 1.0, rng), 1, ["attention_factor_missing"])]
        for name, arrays, want, codes in cases:
            files = g.write(arrays, "npy", "float32", OUT, "phi3-%d-%s" % (k, name), rng)
            code, out, err = run(["--config", c] + files + ["--positions", "%d:%d" % (start, rows), "--format", "json"])
            res = json.loads(out) if out else {}
            named = [x["code"] for x in res.get("diagnoses", [])]
            tally.check(code == want and all(x in named for x in codes) and (want or not named),
                        "phi3 longrope %s (d %d, %d rows from %d): exit %d, %s, worst ratio %s, %s over %s"
                        % (name, d, rows, start, code, named, res.get("worst_ratio"),
                           res.get("values_over_tolerance"), err.strip()))
    for k in range(2):
        cfg, d, base, orig, factor, low, high = llama3_recurrence(rng)
        c = g.write_config(cfg, OUT, "recurrence-%d" % k)
        start = int(rng.integers(0, 24577))
        rows = 32768 - start
        ff = llama3_factors(d, base, orig, factor, low, high)
        cases = [("right", recurrence_tables(d, base, start, rows, ff), 0, []),
                 ("unscaled", recurrence_tables(d, base, start, rows, np.ones_like(ff)), 1,
                  ["scaling_not_applied"]),
                 ("offset", recurrence_tables(d, base, start + 3, rows, ff), 1, ["position_offset"])]
        for name, arrays, want, codes in cases:
            files = g.write(arrays, "npy", "float32", OUT, "recurrence-%d-%s" % (k, name), rng)
            code, out, err = run(["--config", c] + files + ["--positions", "%d:%d" % (start, rows),
                                                            "--profile", "recurrence", "--format", "json"])
            res = json.loads(out) if out else {}
            named = [x["code"] for x in res.get("diagnoses", [])]
            ok = code == want and all(x in named for x in codes) and (want or not named)
            if ok and name == "right":
                ok = res["profile"] == "recurrence" and res["layout_found"] == "interleaved"
                # Held to transformers' bound it matches or is named for what it is, never a mistake.
                code2, out2, _ = run(["--config", c] + files + ["--positions", "%d:%d" % (start, rows),
                                                                "--format", "json"])
                named2 = [x["code"] for x in json.loads(out2)["diagnoses"]] if out2 else None
                ok = (code2, named2) in ((0, []), (1, ["recurrence_profile"]))
            tally.check(ok, "llama.cpp recurrence %s (d %d, base %g, %d rows from %d): exit %d, %s, worst ratio "
                        "%s, %s over %s" % (name, d, base, rows, start, code, named, res.get("worst_ratio"),
                                            res.get("values_over_tolerance"), err.strip()))


# ---- mistakes the diagnosis used to miss (issue #33) -----------------------------------------

def llama3_config(rng):
    """A llama3 config with fresh band parameters: every draw has pairs in all three bands."""
    f = float(rng.choice([2.0, 4.0, 8.0, 16.0]))
    l0 = int(rng.choice([4096, 8192]))
    return {"hidden_size": 1024, "num_attention_heads": 8, "head_dim": 128,
            "rope_theta": float(rng.choice([500000.0, 1000000.0])), "max_position_embeddings": l0 * int(f),
            "rope_scaling": {"rope_type": "llama3", "factor": f, "low_freq_factor": float(rng.choice([1.0, 2.0])),
                             "high_freq_factor": float(rng.choice([4.0, 8.0])),
                             "original_max_position_embeddings": l0}}


def yarn_mscale_config(rng):
    """DeepSeek's yarn: mscale = mscale_all_dim, so the attention factor is 1."""
    f = float(rng.choice([4.0, 16.0, 40.0]))
    m = float(rng.choice([0.707, 1.0]))
    return {"hidden_size": 1024, "num_attention_heads": 16, "head_dim": 64,
            "rope_theta": 10000.0, "max_position_embeddings": int(4096 * f),
            "rope_scaling": {"rope_type": "yarn", "factor": f, "original_max_position_embeddings": 4096,
                             "mscale": m, "mscale_all_dim": m, "beta_fast": 32, "beta_slow": 1}}


def scaled_table(th, amp, dtype, start, rows):
    """cos and sin of frequencies th times amp, computed and stored as g.dump does."""
    a = g.angles(np.asarray(th, dtype=np.float64), np.arange(start, start + rows, dtype=np.float64),
                 dtype, None)
    c, s = np.cos(a), np.sin(a)
    if dtype == "float64":
        c, s = c * amp, s * amp
    else:
        c = (c.astype(np.float32) * np.float32(amp)).astype(np.float64)
        s = (s.astype(np.float32) * np.float32(amp)).astype(np.float64)
    c, s = np.concatenate([c, c], axis=1), np.concatenate([s, s], axis=1)
    return {"cos": g.store(c, dtype), "sin": g.store(s, dtype)}


def reversed_blend(r, whole):
    """llama3's frequencies with the ramp run backwards (whole: all three bands reversed)."""
    th, bands, _ = ref_scaling.scaled(r)
    plain = ref_scaling.thetas(r["d"], r["base"], r["still"])
    f = r["factor"]
    return [x * (1 + 1 / f) - y if whole or b == "ramp" else y for x, y, b in zip(plain, th, bands)]


def missed_case(rng, tally, stem, cfg, dtype, plant, want, words, alike=()):
    """A correct table of cfg at dtype must match; the planted one (plant(r, af) -> theta, amplitude)
    must be named want alone (or beside the codes alike, which produce the same numbers), its messages
    holding words."""
    rows = int(rng.integers(64, 400))
    start = int(rng.integers(0, 3000))
    r = ref_scaling.resolve(cfg, start + rows)
    th, af = g.thetas_of(r)
    cfg_path = g.write_config(cfg, OUT, stem)
    fmt = str(rng.choice(["npy", "safetensors"])) if dtype != "bfloat16" else "safetensors"
    pos = ["--positions", "%d:%d" % (start, rows)]
    files = g.write(scaled_table(th, af, dtype, start, rows), fmt, dtype, OUT, stem + "_right", rng)
    verdict(tally, "%s %s %s correct" % (stem, dtype, fmt), ["--config", cfg_path] + files + pos, 0)
    bad_th, amp = plant(copy.deepcopy(r), af)
    files = g.write(scaled_table(bad_th, amp, dtype, start, rows), fmt, dtype, OUT, stem + "_planted", rng)
    code, out, err = run(["--config", cfg_path] + files + pos + ["--format", "json"])
    diags = json.loads(out)["diagnoses"] if out else []
    named = [d["code"] for d in diags]
    text = " ".join(d["message"] for d in diags)
    missing = [w for w in words if w not in text]
    tally.check(code == 1 and want in named and all(c == want or c in alike for c in named) and not missing,
                "%s %s %s planted %s: exit %d, named %s, words missing %s: %s %s"
                % (stem, dtype, fmt, want, code, named, missing, text, err.strip()))


def changed(r, **values):
    r.update(values)
    return g.thetas_of(r)[0]


def fp16_overflow(rng, tally):
    """A float16 table computed with its positions in float16: past 65504 they are infinite and
    cos and sin NaN. Refused naming the row, its position (FROM + row) and float16's limit, not
    'value N'; and an 8 x 128 float32 table with a NaN, without --positions, at position = row."""
    d = int(rng.choice([32, 64, 128]))
    start = int(rng.integers(60000, 65400))
    rows = int(rng.integers(65600 - start, 66000 - start))
    th = (10000.0 ** (-np.arange(0, d, 2) / d)).astype(np.float16)
    with np.errstate(over="ignore", invalid="ignore"):
        p = np.arange(start, start + rows, dtype=np.float32).astype(np.float16)
        a = (p[:, None] * th[None, :]).astype(np.float32)
        c = np.cos(a).astype(np.float16)
    c = np.concatenate([c, c], axis=1)
    row, col = np.argwhere(~np.isfinite(c))[0]
    cfg = {"hidden_size": d * 8, "num_attention_heads": 8, "head_dim": d, "rope_theta": 10000.0}
    path = os.path.join(OUT, "fp16_overflow.cos.npy")
    np.save(path, c)
    np.save(os.path.join(OUT, "fp16_overflow.sin.npy"), c)
    refused(tally, ["--config", g.write_config(cfg, OUT, "fp16_overflow"), "--cos", path,
                    "--sin", os.path.join(OUT, "fp16_overflow.sin.npy"), "--positions", "%d:%d" % (start, rows)],
            "--cos", path,
            "row %d, column %d is NaN (position %d): float16's largest number is 65504; a position "
            "or angle held in float16 past it is infinite, and its cos and sin NaN (compute the angle "
            "in float32)" % (row, col, start + row))
    # A float32 8 x 128 table with a NaN at row 3, column 5 (as bad_files writes one).
    good = np.cos(rng.random((8, 128))).astype(np.float32)
    table = good.copy()
    table[3, 5] = np.nan
    nan, good_sin = os.path.join(OUT, "fp16_nan.npy"), os.path.join(OUT, "fp16_good_sin.npy")
    np.save(nan, table)
    np.save(good_sin, good)
    refused(tally, ["--config", g.write_config(cfg, OUT, "fp16_overflow"), "--cos", nan, "--sin", good_sin],
            "--cos", nan, "row 3, column 5 is NaN (position 3)")


def missed_mistakes(rng, tally):
    """Each mistake of issue #33, planted in fresh configs at float32 and at a half precision,
    is named by its code alone; the same configs' correct tables match."""
    for k, dtype in enumerate(["float32", str(rng.choice(["bfloat16", "float16"]))]):
        whole = bool(rng.random() < 0.5)
        missed_case(rng, tally, "blend%d" % k, llama3_config(rng), dtype,
                    lambda r, af, whole=whole: (reversed_blend(r, whole), af), "llama3_blend_reversed",
                    ["bands are reversed" if whole else "ramp runs backwards"])
        method = str(rng.choice(["llama3", "linear", "yarn", "dynamic"]))
        cfg = llama3_config(rng) if method == "llama3" else g.make_config(rng, method)
        if method == "dynamic":
            cfg["max_position_embeddings"] = 32  # every table's length is past it: dynamic scales
        f = cfg["rope_scaling"]["factor"]
        # Dynamic's base with factor^2 is another base: wrong_base (or ntk) can give the same numbers.
        missed_case(rng, tally, "twice%d" % k, cfg, dtype, lambda r, af, f=f: (changed(r, factor=f * f), af),
                    "factor_applied_twice", ["twice (by %.10g)" % (f * f)],
                    ("wrong_base", "scaling_wrong_method") if method == "dynamic" else ())
        cfg = llama3_config(rng)
        missed_case(rng, tally, "bounds%d" % k, cfg, dtype, lambda r, af: (changed(r, l0=r["max"]), af),
                    "wrong_band_bounds", ["max_position_embeddings %d" % cfg["max_position_embeddings"]])
        cfg = yarn_mscale_config(rng)
        sc = cfg["rope_scaling"]
        g_m = 0.1 * sc["mscale"] * math.log(sc["factor"]) + 1.0
        missed_case(rng, tally, "mscale%d" % k, cfg, dtype,
                    lambda r, af, g_m=g_m: (g.thetas_of(r)[0], g_m), "attention_factor_wrong",
                    ["amplitude %.10g (yarn's get_mscale(factor, mscale)" % g_m, "attention factor is 1"])
        missed_case(rng, tally, "inverse%d" % k, g.make_config(rng, "yarn"), dtype,
                    lambda r, af: (g.thetas_of(r)[0], 1.0 / af), "attention_factor_wrong",
                    ["divided by the attention factor"])

    # Values rounded to a half precision, written as float32.
    for k, low in enumerate(["bfloat16", "float16"]):
        cfg = g.make_config(rng, str(rng.choice(METHODS)))
        rows = int(rng.integers(64, 400))
        start = int(rng.integers(0, 3000))
        th, af = g.thetas_of(ref_scaling.resolve(cfg, start + rows))
        right = scaled_table(th, af, "float32", start, rows)
        planted = {n: g.round_to(low, a).astype(np.float32) for n, a in right.items()}
        cfg_path = g.write_config(cfg, OUT, "stored%d" % k)
        pos = ["--positions", "%d:%d" % (start, rows)]
        fmt = str(rng.choice(["npy", "npz", "safetensors"]))
        verdict(tally, "stored%d correct float32 %s" % (k, fmt),
                ["--config", cfg_path] + g.write(right, fmt, "float32", OUT, "stored%d_right" % k, rng) + pos, 0)
        args = ["--config", cfg_path] + g.write(planted, fmt, "float32", OUT, "stored%d_planted" % k, rng) + pos
        code, out, err = run(args + ["--format", "json"])
        diags = json.loads(out)["diagnoses"] if out else []
        tally.check(code == 1 and [d["code"] for d in diags] == ["low_precision"]
                    and "%s numbers stored in a float32 file" % low in diags[0]["message"],
                    "stored%d %s values in float32 %s: exit %d, %s %s" % (k, low, fmt, code, diags, err.strip()))

    # scaling_not_applied alone: up to max_position_embeddings dynamic is the unscaled RoPE too,
    # and is not named beside it.
    for k, method in enumerate(["linear", "llama3", "yarn"]):
        cfg = g.make_config(rng, method)
        rows = int(rng.integers(64, 400))
        start = int(rng.integers(0, 2000))
        th = changed(ref_scaling.resolve(cfg, start + rows), type="default")
        dtype = str(rng.choice(["float32", "bfloat16", "float16"]))
        fmt = "safetensors" if dtype == "bfloat16" else "npy"
        args = (["--config", g.write_config(cfg, OUT, "unscaled%d" % k)]
                + g.write(scaled_table(th, 1.0, dtype, start, rows), fmt, dtype, OUT, "unscaled%d" % k, rng)
                + ["--positions", "%d:%d" % (start, rows)])
        verdict(tally, "unscaled%d %s %s" % (k, method, dtype), args, 1, ["scaling_not_applied"])

def score_reference(cos, sin, th, amp, start, layout):
    """The attention score's error (docs/VERIFY.md, "Attention score") computed apart from the C:
    each pair's 2x2 map at every row, M_r = [[c_a, -s_a], [s_b, c_b]], and the exact one,
    amp * rotation(p theta); the key at row 0, the query at row r; the error matrix
    M_r^T M_0 - R_r^T R_0 and its spectral norm by numpy's SVD. Returns (error, gap, pair) of the
    largest and the whole [rows, pairs] array."""
    n = len(th)
    idx = np.arange(n)
    a, b = (idx, idx + n) if layout == "rotate_half" else (2 * idx, 2 * idx + 1)
    cos, sin = np.asarray(cos, dtype=np.float64), np.asarray(sin, dtype=np.float64)
    m = np.empty(cos.shape[:1] + (n, 2, 2))
    m[..., 0, 0], m[..., 0, 1] = cos[:, a], -sin[:, a]
    m[..., 1, 0], m[..., 1, 1] = sin[:, b], cos[:, b]
    ang = np.arange(start, start + cos.shape[0], dtype=np.float64)[:, None] * np.asarray(th)[None, :]
    rot = np.empty_like(m)
    rot[..., 0, 0], rot[..., 0, 1] = amp * np.cos(ang), -amp * np.sin(ang)
    rot[..., 1, 0], rot[..., 1, 1] = amp * np.sin(ang), amp * np.cos(ang)
    e = np.swapaxes(m, -1, -2) @ m[:1] - np.swapaxes(rot, -1, -2) @ rot[:1]
    norms = np.linalg.norm(e, ord=2, axis=(-2, -1))
    r, i = np.unravel_index(int(np.argmax(norms)), norms.shape)
    return float(norms[r, i]), int(r), int(i), norms


def applied(q, cos, sin, layout):
    """q rotated by one row of a table as the user's code applies it (rotate_half or adjacent pairs)."""
    n = q.shape[0] // 2
    idx = np.arange(n)
    a, b = (idx, idx + n) if layout == "rotate_half" else (2 * idx, 2 * idx + 1)
    out = np.empty_like(q)
    out[a] = q[a] * cos[a] - q[b] * sin[a]
    out[b] = q[b] * cos[b] + q[a] * sin[b]
    return out


def attention_score(rng, tally):
    """Beside the per-value error, verify states the attention score's error: checked against
    score_reference on fresh random configs and tables, correct and with mistakes planted (noise on
    a few values, sin negated, the base changed, the table shifted by whole positions, which moves
    every value but no score); random unit q and k never see a larger error."""
    for k in range(8):
        method = str(rng.choice(["default", "llama3", "yarn"]))
        cfg = llama3_config(rng) if method == "llama3" else yarn_mscale_config(rng) if method == "yarn" else \
            {"hidden_size": 512, "num_attention_heads": 8, "head_dim": 64,
             "rope_theta": float(rng.choice([10000.0, 500000.0]))}
        if method == "yarn" and rng.random() < 0.5:
            cfg["rope_scaling"]["mscale_all_dim"] = 0.0  # an attention factor other than 1
        rows, start = int(rng.integers(32, 300)), int(rng.integers(0, 5000))
        r = ref_scaling.resolve(cfg, start + rows)
        th, af = g.thetas_of(r)
        dtype = str(rng.choice(["float32", "float64"]))
        plant = str(rng.choice(["none", "noise", "sign", "base", "shift"]))
        made_th, shift = list(th), 0
        if plant == "base":
            made_th = [x * (1 + 1e-3) for x in th]
        if plant == "shift":
            shift = int(rng.integers(1, 50))
        t = scaled_table(made_th, af, dtype, start + shift, rows)
        cos, sin = np.array(t["cos"], dtype=np.float64), np.array(t["sin"], dtype=np.float64)
        if plant == "sign":
            sin = -sin
        if plant == "noise":
            for _ in range(3):
                rr, cc = int(rng.integers(0, rows)), int(rng.integers(0, cos.shape[1]))
                cos[rr, cc] += float(rng.choice([-1, 1])) * 10 ** rng.uniform(-4, -1)
        layout = str(rng.choice(["rotate_half", "interleaved"]))
        if layout == "interleaved":  # columns (i, i + d/2) to (2i, 2i + 1)
            order = np.arange(cos.shape[1]).reshape(2, -1).T.reshape(-1)
            cos, sin = cos[:, order], sin[:, order]
        t = {"cos": g.store(cos, dtype), "sin": g.store(sin, dtype)}
        stem = "score%d" % k
        cfg_path = g.write_config(cfg, OUT, stem)
        files = g.write(t, "npy", dtype, OUT, stem, rng)
        code, out, err = run(["--config", cfg_path] + files + ["--positions", "%d:%d" % (start, rows),
                                                                "--format", "json"])
        what = "attention score %s %s %s %s (exit %d)" % (method, dtype, plant, layout, code)
        if code not in (0, 1) or not out:
            tally.check(False, "%s: %s" % (what, err.strip()))
            continue
        got = json.loads(out)
        want, gap, pair, norms = score_reference(np.array(t["cos"], dtype=np.float64),
                                                 np.array(t["sin"], dtype=np.float64), th, af, start,
                                                 layout)
        close = abs(got["score_error"] - want) <= 1e-9 + 1e-6 * want
        at = norms[got["score_gap"], got["score_pair"]]
        tally.check(close and abs(at - want) <= 1e-9 + 1e-6 * want and got["score_key_position"] == start,
                    "%s: score_error %r at gap %r pair %r, reference %r at gap %d pair %d (%r there)"
                    % (what, got["score_error"], got["score_gap"], got["score_pair"], want, gap, pair, at))
        if plant == "shift":
            # Every value is off, and no attention score: the error stays at the float rounding's.
            tally.check(code == 1 and got["score_error"] < 1e-3 * af * af,
                        "%s: a shifted table's score error %r" % (what, got["score_error"]))
        if plant in ("sign", "base"):
            tally.check(code == 1 and got["score_error"] > 1e-3, "%s: score error %r" % (what, got["score_error"]))
        # Random unit q and k, spread over every pair, at random query rows: never above it.
        tc, ts = np.array(t["cos"], dtype=np.float64), np.array(t["sin"], dtype=np.float64)
        exact = scaled_table(th, af, "float64", start, rows)
        if layout == "interleaved":
            exact = {name: np.asarray(v)[:, order] for name, v in exact.items()}
        over = 0.0
        for _ in range(20):
            q, kk = rng.standard_normal(tc.shape[1]), rng.standard_normal(tc.shape[1])
            q, kk = q / np.linalg.norm(q), kk / np.linalg.norm(kk)
            rr = int(rng.integers(0, rows))
            s_table = applied(q, tc[rr], ts[rr], layout) @ applied(kk, tc[0], ts[0], layout)
            s_exact = applied(q, exact["cos"][rr], exact["sin"][rr], layout) @ \
                applied(kk, exact["cos"][0], exact["sin"][0], layout)
            over = max(over, abs(s_table - s_exact) - got["score_error"])
        tally.check(over <= 1e-9, "%s: a random unit q, k's score error exceeds the stated one by %r" % (what, over))


# ---- two dumps: verify --against (docs/VERIFY.md, "Two dumps") ------------------------------

# Producers of a correct table, each as its code writes it (gen_dumps.dump and per_pair_form follow
# each one's published algorithm): (name, form, codes that only set the layout, file formats).
PRODUCERS = [
    ("transformers cat(freqs, freqs)", "table", (), FORMATS),
    ("an interleaved port (repeat_interleave)", "table", ("layout_interleaved",), FORMATS),
    ("Meta's freqs_cis", "freqs_cis", (), PER_PAIR_FORMS["freqs_cis"]),
    ("Meta's freqs_cis real view", "freqs_cis_real", (), PER_PAIR_FORMS["freqs_cis_real"]),
    ("vLLM's cos_sin_cache", "cos_sin_cache", (), FORMATS),
    ("GPT-J's embed_positions", "embed_positions", (), FORMATS),
    ("a cos and a sin of one column per pair", "pairs", (), FORMATS),
    ("an inv_freq buffer", "inv", (), [f for f in FORMATS if f[0] != "npz"]),
]
# The user-side flags gen_dumps.write returns, as the reference side's.
AGAINST_FLAGS = {"--cos": "--against", "--sin": "--against-sin", "--cache": "--against",
                 "--inv-freq": "--against"}
AGAINST_FORM = {"--cos-sin-cache": "cos_sin_cache", "--embed-positions": "embed_positions"}
# Mistakes planted on the dump's side against a correct reference with no config: a default RoPE.
AGAINST_PLANTS_INFERRED = ["wrong_base", "sign_flipped", "position_offset", "cos_sin_swapped",
                           "low_precision", "wrong_rotary_dim", "layout_interleaved"]
# With --config: the scaled methods' mistakes too.
AGAINST_PLANTS_CONFIG = ["scaling_not_applied", "attention_factor_missing", "scaling_wrong_method",
                         "wrong_base", "sign_flipped", "position_offset"]


def against_flags(flags):
    out = []
    for k in range(0, len(flags), 2):
        flag, path = flags[k], flags[k + 1]
        if flag in AGAINST_FORM:
            out += ["--against", path, "--against-form", AGAINST_FORM[flag]]
        else:
            out += [AGAINST_FLAGS[flag], path]
    return out


def produce(rng, cfg, producer, rows, start, stem, codes=(), dtype_fmt=None):
    """One producer's dump of cfg, written: (its CLI flags, a description)."""
    name, form, layout_codes, formats = producer
    fmt, dtype = dtype_fmt or formats[int(rng.integers(len(formats)))]
    if "low_precision" in codes and (fmt in ("json", "csv") or dtype not in ("float32", "float64")):
        fmt, dtype = "npy", "float32"  # a lower precision than the stored one, which text can hide
    kind = "inv" if form == "inv" else "table"
    arrays, notes = g.dump(cfg, kind, dtype, rows, start, tuple(codes) + layout_codes, rng,
                           "table" if form == "inv" else form)
    return g.write(arrays, fmt, dtype, OUT, stem, rng), "%s (%s %s%s)" % (name, fmt, dtype, " %s" % notes if notes else "")


def against_run(args):
    code, out, err = run(args + ["--format", "json"])
    try:
        return code, json.loads(out), err
    except ValueError:
        return code, None, err


# The largest value-by-value difference over the sum of both sides' tolerances a correct pair reached.
against_worst = [0.0]


def against_correct(rng, tally, n, with_config):
    """Correct dumps of one fresh config from two different producers, in random formats and
    dtypes: a match (exit 0) both ways, with --config or with the config inferred."""
    method = str(rng.choice(METHODS)) if with_config else "default"
    cfg = g.make_config(rng, method)
    rows = int(rng.integers(64, 400))
    a, b = rng.choice(len(PRODUCERS), 2, replace=False)
    start = int(rng.choice([0, int(rng.integers(1, 2000)), int(rng.integers(50000, 1000000))]))
    if "inv" in (PRODUCERS[a][1], PRODUCERS[b][1]):
        start = 0  # an inv_freq dump has no --positions: the reference table's rows start at 0
    if method == "dynamic":
        start = max(start, 300) if start else 0
    stem = "against%03d" % n
    ua, da = produce(rng, cfg, PRODUCERS[a], rows, start, stem + "a")
    ub, db = produce(rng, cfg, PRODUCERS[b], rows, start, stem + "b")
    base = ["--config", g.write_config(cfg, OUT, stem)] if with_config else []
    for user, ref, du, dr in ((ua, ub, da, db), (ub, ua, db, da)):
        pos = [] if "--inv-freq" in user else ["--positions", "%d:%d" % (start, rows)]
        args = base + user + against_flags(ref) + pos
        code, res, err = against_run(args)
        what = "%s %s: %s against %s, %s %s" % (stem, method, du, dr, "--config" if with_config else "inferred",
                                                 " ".join(args))
        ok = res is not None and code == 0 and res["verdict"] == "match" and not res["diagnoses"] \
            and res["against"]["verdict"] == "match" and res["against"]["config_inferred"] == (not with_config)
        if ok and res["against"]["worst_ratio"] is not None:
            ok = res["against"]["values_over_tolerance"] == 0
            against_worst[0] = max(against_worst[0], res["against"]["worst_ratio"])
        tally.check(ok, "%s: exit %d, %s %s" % (what, code, res and {k: res[k] for k in ("verdict", "diagnoses", "worst_ratio", "against")}, err.strip()))
    return n + 1


def against_producers(rng, tally):
    """Two correct dumps of one config by different producers never differ: with --config (every
    method) and without (default RoPE, its config inferred from the reference)."""
    n = 0
    for _ in range(10):
        n = against_correct(rng, tally, n, True)
    for _ in range(10):
        n = against_correct(rng, tally, n, False)
    # A llama.cpp float32 recurrence (adjacent pairs) against transformers' float32 table of the
    # same Llama 3.1-style config, both held to the recurrence's bound.
    cfg, d, base, orig, factor, low, high = llama3_recurrence(rng)
    rows = int(rng.integers(2048, 4096))
    start = int(rng.integers(0, 24577))
    ff = llama3_factors(d, base, orig, factor, low, high)
    cpp = g.write(recurrence_tables(d, base, start, rows, ff), "npy", "float32", OUT, "against-cpp", rng)
    arrays, _ = g.dump(cfg, "table", "float32", rows, start, (), rng)
    hf = g.write(arrays, "safetensors", "float32", OUT, "against-hf", rng)
    args = ["--config", g.write_config(cfg, OUT, "against-cpp")] + cpp + against_flags(hf) + \
        ["--positions", "%d:%d" % (start, rows), "--profile", "recurrence"]
    code, res, err = against_run(args)
    tally.check(code == 0 and res["verdict"] == "match" and res["against"]["verdict"] == "match"
                and res["against"]["values_over_tolerance"] == 0,
                "llama.cpp recurrence against transformers (d %d, base %g, %d rows from %d): exit %d %s %s"
                % (d, base, rows, start, code, res and res["against"], err.strip()))
    against_worst[0] = max(against_worst[0], res["against"]["worst_ratio"] if res else 0.0)
    print("against: the largest difference of two correct dumps: %.3g x the sum of both sides' tolerances"
          % against_worst[0])


def against_planted(rng, tally):
    """A mistake planted in the dump (a correct reference from another producer) is a mismatch
    naming it, with the config inferred or given; planted in the reference, with --config, the
    reference's part names it; a scaled reference without --config is refused."""
    n = 0
    for with_config, plants in ((False, AGAINST_PLANTS_INFERRED), (True, AGAINST_PLANTS_CONFIG)):
        for code_ in plants:
            methods = [m for m in (METHODS if with_config else ["default"]) if m in PLANTS.get(code_, (METHODS,))[0]]
            method = str(rng.choice(methods))
            cfg = config_for(rng, method, (code_,))
            rows = int(rng.integers(64, 400))
            start = int(rng.integers(0, 2000))
            if method == "dynamic":
                start = max(start, 300)
            a, b = rng.choice(len(PRODUCERS) - 1, 2, replace=False)  # tables both
            pa, pb = PRODUCERS[a], PRODUCERS[b]
            if code_ == "layout_interleaved":
                pa = PRODUCERS[1]
                pb = PRODUCERS[int(rng.choice([0, 2, 4, 5]))]
            if code_ == "wrong_rotary_dim" and pa[1] == "pairs":
                pa = PRODUCERS[0]
            stem = "against-plant%03d" % n
            n += 1
            user, du = produce(rng, cfg, pa, rows, start, stem + "a", () if code_ == "layout_interleaved" else (code_,))
            ref, dr = produce(rng, cfg, pb, rows, start, stem + "b")
            args = (["--config", g.write_config(cfg, OUT, stem)] if with_config else []) + user + \
                against_flags(ref) + ["--positions", "%d:%d" % (start, rows)]
            if code_ == "layout_interleaved":
                args += ["--apply", "rotate_half"]
            code, res, err = against_run(args)
            named = [d["code"] for d in res["diagnoses"]] if res else []
            tally.check(code == 1 and res["verdict"] == "mismatch" and code_ in named and "unexplained" not in named
                        and res["against"]["verdict"] == "match",
                        "%s %s planted %s in %s against %s (%s): exit %d, named %s %s"
                        % (stem, method, code_, du, dr, "--config" if with_config else "inferred", code, named,
                           err.strip()))
            if not with_config:
                continue
            # The same mistake in the reference: its part of the result names it.
            args = ["--config", g.write_config(cfg, OUT, stem)] + ref + against_flags(user) + \
                ["--positions", "%d:%d" % (start, rows)]
            code, res, err = against_run(args)
            named = [d["code"] for d in res["against"]["diagnoses"]] if res else []
            tally.check(code == 1 and res["verdict"] == "mismatch" and not res["diagnoses"] and code_ in named
                        and res["against"]["verdict"] == "mismatch",
                        "%s %s planted %s in the reference %s (dump %s): exit %d, its part names %s %s"
                        % (stem, method, code_, du, dr, code, named, err.strip()))
    # A scaled reference without --config: no default RoPE describes it.
    cfg = g.make_config(rng, str(rng.choice(["linear", "yarn", "llama3"])))
    rows = int(rng.integers(64, 400))
    user, _ = produce(rng, cfg, PRODUCERS[0], rows, 0, "against-scaled-a")
    ref, _ = produce(rng, cfg, PRODUCERS[4], rows, 0, "against-scaled-b")
    code, out, err = run(user + against_flags(ref))
    tally.check(code == 2 and out == "" and err.count("\n") == 1 and
                err.startswith("ropescope: --against '%s': not a default RoPE table" % ref[1])
                and "give --config" in err, "a scaled reference without --config: exit %d %r" % (code, err))


def against_refusals(rng, tally):
    """Bad --against input: one line on stderr naming --against (or --against-sin) and the file,
    nothing on stdout, exit 2."""
    cfg = g.make_config(rng, "default")
    rows = int(rng.integers(64, 200))
    user, _ = produce(rng, cfg, PRODUCERS[0], rows, 0, "against-bad-user", dtype_fmt=("npy", "float32"))
    arrays, _ = g.dump(cfg, "table", "float32", rows, 0, (), rng)
    c, s = arrays["cos"], arrays["sin"]
    path = lambda name: os.path.join(OUT, "against-bad-" + name)  # noqa: E731
    nan = c.copy()
    r, col = int(rng.integers(rows)), int(rng.integers(c.shape[1]))
    nan[r, col] = np.nan
    np.save(path("nan.npy"), nan)
    np.save(path("sin.npy"), s)
    np.save(path("narrow.npy"), c[:, : c.shape[1] - 2])
    np.save(path("cube.npy"), np.zeros((3, 4, 5), dtype=np.float32))
    np.save(path("cos.npy"), c)
    missing = path("missing.npy")
    cases = [
        (["--against", missing], "--against", missing, "cannot open it: No such file or directory"),
        (["--against", path("cube.npy")], "--against", path("cube.npy"), "a 3-D array"),
        (["--against", path("narrow.npy"), "--against-sin", path("sin.npy")], "--against-sin", path("sin.npy"),
         "sin is %d x %d, cos is %d x %d; they must match" % (rows, c.shape[1], rows, c.shape[1] - 2)),
        (["--against", path("nan.npy"), "--against-sin", path("sin.npy")], "--against", path("nan.npy"),
         "row %d, column %d is NaN (position %d)" % (r, col, r)),
        (["--against", path("cos.npy")], "--against", path("cos.npy"), "one 2-D array under no name"),
        (["--against", path("cos.npy"), "--against-form", "freqs"], "--against-form", None, "must be inv_freq"),
        (["--against-sin", path("sin.npy")], "--against-sin", None, "goes with --against FILE"),
    ]
    for extra, flag, file, words in cases:
        for with_config in (False, True):
            args = (["--config", g.write_config(cfg, OUT, "against-bad")] if with_config else []) + user + extra
            code, out, err = run(args)
            head = "ropescope: %s '%s': " % (flag, file) if file else "ropescope: %s " % flag
            tally.check(code == 2 and out == "" and err.count("\n") == 1 and err.startswith(head) and words in err,
                        "bad --against %s: exit %d, stdout %r, stderr %r" % (" ".join(extra), code, out[:80], err))


# ---- a checkpoint: verify --checkpoint DIR (docs/VERIFY.md, "A checkpoint") --------------------

def shard(path, tensors):
    """A safetensors file of tensors of mixed dtypes ({name: (array, dtype)}), as a checkpoint
    shard holds them."""
    header, blobs, at = {"__metadata__": {"format": "pt"}}, [], 0
    for name, (a, dtype) in tensors.items():
        if dtype == "bfloat16":
            raw = (np.asarray(a, dtype=np.float32).view(np.uint32) >> 16).astype("<u2").tobytes()
        else:
            raw = np.ascontiguousarray(a).astype(np.dtype(dtype).newbyteorder("<")).tobytes()
        header[name] = {"dtype": g.ST_DTYPE[dtype], "shape": list(np.shape(a)), "data_offsets": [at, at + len(raw)]}
        blobs.append(raw)
        at += len(raw)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def checkpoint_folder(rng, stem, plants):
    """A fresh folder: config.json and two or three shards holding weights and RoPE buffers (an
    inv_freq per layer, float32 or bfloat16 as checkpoints store it; one layer's cos_cached and
    sin_cached, [1, 1, positions, d] or GPT-NeoX's [positions, 1, 1, d]), with plants {layer: code}
    planted. Returns (folder, config, {buffer line's tensor: code or None})."""
    folder = os.path.join(CHECKPOINTS, stem)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    cfg = g.make_config(rng, str(rng.choice(["default", "linear", "llama3", "yarn"])))
    cfg.pop("partial_rotary_factor", None)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(cfg, f)
    layers = int(rng.integers(3, 7))
    files = int(rng.integers(2, 4))
    tensors = [{} for _ in range(files)]
    want = {}
    h = cfg["hidden_size"]
    for k in range(files):
        tensors[k]["model.layers.%d.mlp.weight" % k] = (rng.random((h // 4, 16)).astype(np.float32), "float16")
    for layer in range(layers):
        code = plants.get(layer)
        dtype = str(rng.choice(["float32", "bfloat16"]))
        arrays, _ = g.dump(cfg, "inv", dtype, 0, 0, (code,) if code else (), rng)
        name = "model.layers.%d.self_attn.rotary_emb.inv_freq" % layer
        tensors[layer % files][name] = (arrays["inv_freq"], dtype)
        want[name] = code
    code = plants.get("cache")
    rows = int(rng.integers(64, 300))
    dtype = str(rng.choice(["float32", "float16"]))
    arrays, _ = g.dump(cfg, "table", dtype, rows, 0, (code,) if code else (), rng)
    shape = (lambda a: a[None, None]) if rng.random() < 0.5 else (lambda a: a[:, None, None, :])
    prefix = "gpt_neox.layers.0.attention.rotary_emb."
    tensors[-1][prefix + "cos_cached"] = (shape(arrays["cos"]), dtype)
    tensors[-1][prefix + "sin_cached"] = (shape(arrays["sin"]), dtype)
    want[prefix + "cos_cached"] = code
    for k in range(files):
        shard(os.path.join(folder, "model-%05d-of-%05d.safetensors" % (k + 1, files)), tensors[k])
    return folder, cfg, want


def checkpoint_folders(rng, tally):
    """Every RoPE buffer a checkpoint stores is checked against its config.json, one line each:
    correct buffers match; a planted one is a mismatch naming its code while the others match;
    a shard past the size the whole-file readers take is read by its header and buffers alone;
    bad folders are one line naming --checkpoint and the file or tensor."""
    shutil.rmtree(CHECKPOINTS, ignore_errors=True)
    os.makedirs(CHECKPOINTS)
    for k in range(3):
        plants = {} if k == 0 else {int(rng.integers(0, 3)): "wrong_base", "cache": str(rng.choice(
            ["sign_flipped", "position_offset", "wrong_base"]))}
        folder, cfg, want = checkpoint_folder(rng, "checkpoint%d" % k, plants)
        code, out, err = run(["--checkpoint", folder, "--format", "json"])
        res = json.loads(out) if out else {"buffers": []}
        got = {b["tensor"]: b for b in res["buffers"]}
        problems = [] if code == (1 if plants else 0) else ["exit %d %s" % (code, err.strip())]
        if sorted(got) != sorted(want):
            problems.append("lines for %s, wants %s" % (sorted(got), sorted(want)))
        for name, c in want.items():
            b = got.get(name)
            named = [d["code"] for d in b["diagnoses"]] if b else None
            if b and (b["verdict"] != ("mismatch" if c else "match") or (c and c not in named)):
                problems.append("%s (%s): %s, named %s, worst %s" % (name, b["dtype"], b["verdict"], named,
                                                                     b["worst_ratio"]))
        tally.record("checkpoint%d (%s, planted %s)" % (k, cfg.get("rope_scaling", {}).get("rope_type", "default"),
                                                         plants or "nothing"), problems)
    # A shard whose weight runs past 514 MiB (a sparse file): only its header and buffers are read.
    folder, cfg, want = checkpoint_folder(rng, "checkpoint-big", {})
    big = os.path.join(folder, "model-00009-of-00009.safetensors")
    arrays, _ = g.dump(cfg, "inv", "float32", 0, 0, (), rng)
    n_big = (600 << 20) // 2
    text = json.dumps({"lm_head.inv_freq_like_weight": {"dtype": "F16", "shape": [n_big], "data_offsets": [0, 2 * n_big]},
                       "model.rotary_emb.inv_freq": {"dtype": "F32", "shape": [len(arrays["inv_freq"])],
                                                     "data_offsets": [2 * n_big, 2 * n_big + 4 * len(arrays["inv_freq"])]}}).encode()
    text += b" " * (-len(text) % 8)
    with open(big, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        f.seek(8 + len(text) + 2 * n_big)
        f.write(arrays["inv_freq"].astype("<f4").tobytes())
    code, out, err = run(["--checkpoint", folder])
    tally.check(code == 0 and "model.rotary_emb.inv_freq (model-00009-of-00009.safetensors, float32): match" in out,
                "a %d MiB shard: exit %d %s %s" % (os.path.getsize(big) >> 20, code, out[-300:], err.strip()))
    # Bad folders.
    empty = os.path.join(CHECKPOINTS, "checkpoint-empty")
    shutil.rmtree(empty, ignore_errors=True)
    os.makedirs(empty)
    bad = []
    bad.append((empty, "no *.safetensors file in it"))
    folder, cfg, want = checkpoint_folder(rng, "checkpoint-noconfig", {})
    os.remove(os.path.join(folder, "config.json"))
    bad.append((folder, "no config.json in it"))
    folder, cfg, want = checkpoint_folder(rng, "checkpoint-garbage", {})
    with open(os.path.join(folder, "model-00000-garbage.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", 12) + b"not json at all")
    bad.append((folder, "'model-00000-garbage.safetensors': not a safetensors file"))
    folder, cfg, want = checkpoint_folder(rng, "checkpoint-nosin", {})
    shard(os.path.join(folder, "model-00000-extra.safetensors"),
          {"model.rotary_emb.cos_cached": (np.ones((4, cfg["head_dim"]), dtype=np.float32), "float32")})
    bad.append((folder, "'model-00000-extra.safetensors': tensor 'model.rotary_emb.cos_cached' has no sin_cached beside it"))
    folder, cfg, want = checkpoint_folder(rng, "checkpoint-nan", {})
    inv = np.ones(cfg["head_dim"] // 2, dtype=np.float32)
    inv[3] = np.nan
    shard(os.path.join(folder, "model-00000-nan.safetensors"), {"model.rotary_emb.inv_freq": (inv, "float32")})
    bad.append((folder, "ropescope: --checkpoint '%s/model-00000-nan.safetensors:model.rotary_emb.inv_freq': "
                        "value 3 is NaN" % folder))
    for folder, words in bad:
        code, out, err = run(["--checkpoint", folder])
        tally.check(code == 2 and out == "" and err.count("\n") == 1 and err.startswith("ropescope: --checkpoint '")
                    and words in err, "bad checkpoint %s: exit %d, stdout %r, stderr %r" % (folder, code, out[:80], err))
    # No RoPE buffer: nothing to check, said so.
    folder = os.path.join(CHECKPOINTS, "checkpoint-none")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(g.make_config(rng, "default"), f)
    shard(os.path.join(folder, "model.safetensors"), {"lm_head.weight": (rng.random((8, 8)), "float32")})
    code, out, err = run(["--checkpoint", folder])
    tally.check(code == 0 and "no stored RoPE buffer" in out and "result: match" in out,
                "a checkpoint without RoPE buffers: exit %d %r %r" % (code, out, err))
    code, out, err = run(["--checkpoint", folder, "--cos", "x.npy"])
    tally.check(code == 2 and out == "" and "--cos does not go with --checkpoint" in err,
                "--checkpoint with --cos: exit %d %r" % (code, err))


def main():
    seed = testlib.seed("test_verify")
    rng = np.random.default_rng(seed)
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    tally = testlib.Tally()
    n = 0
    # The groups that write dumps number them on from the last one's count.
    counting = (correct_dumps, planted_dumps, per_pair_dumps)
    for group in testlib.only([correct_dumps, planted_dumps, per_pair_dumps, bad_files, mutated_files,
                               positions, config_layouts, proportional_and_layer_types, crafted_refusals,
                               special_files, odd_valid_files, producer_tables, missed_mistakes,
                               fp16_overflow, rounded_theta_offsets, attention_score, against_producers, against_planted,
                               against_refusals, checkpoint_folders]):
        if group in counting:
            n = group(rng, tally, n)
        else:
            group(rng, tally)
    print("test_verify: %d passed, %d failed (%d dumps)" % (tally.passed, tally.failed, n))
    sys.exit(1 if tally.failed else 0)


if __name__ == "__main__":
    main()
