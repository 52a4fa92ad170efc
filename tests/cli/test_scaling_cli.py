#!/usr/bin/env python3
"""Long-context checks of `ropescope scaling` and of tests/ref/ref_scaling.py:

- the reference numbers of docs/SCALING.md (tests/data/scaling_facts.json) for the
  nine configs in web/models/ and a few synthetic ones, through the CLI and
  through the reference (so the reference itself is checked against the facts);
- bad configs: every key of the key table missing, mistyped, null, a string,
  "NaN" as text, negative and zero; factor lists of the wrong length; both
  blocks; an unknown rope_type; a 5 MB file; not JSON; an empty file. Each
  must give exit 2 with one stderr line naming the key and nothing on stdout,
  or exit 0 with a warning naming it (a missing or null optional key may pass
  silently: the table gives it a default). The list and the CLI's verdicts go
  to build/scaling_bad.json for tests/js/scaling.test.mjs;
- flags: the same output as the file, and every bad flag value refused.

Ends with "<n> passed, <m> failed"; exits 1 on any failure.
"""
import copy
import json
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
# The folders beside this one that it imports from: tests/lib, tests/ref.
sys.path[:0] = [os.path.join(HERE, "..", d) for d in ("lib", "ref")]
import ref_scaling as ref  # noqa: E402
import testlib  # noqa: E402
from testlib import CLI, MODELS, ROOT  # noqa: E402

FACTS = os.path.join(ROOT, "tests", "data", "scaling_facts.json")
BAD_OUT = os.path.join(ROOT, "build", "scaling_bad.json")

# Optional keys whose absence (or null) the key table fills with a default.
OPTIONAL = {"beta_fast", "beta_slow", "mscale", "mscale_all_dim", "truncate", "attention_factor",
            "original_max_position_embeddings", "factor", "partial_rotary_factor", "head_dim",
            "qk_rope_head_dim", "rope_theta", "max_position_embeddings", "hidden_size",
            "num_attention_heads"}
# Values the table accepts as they are: 0 means "not set" for these.
ZERO_OK = {"mscale", "mscale_all_dim"}


def run(args):
    p = subprocess.run([CLI, "scaling"] + args, capture_output=True, timeout=60)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def lookup(obj, path):
    """A value at a dotted path; a _deg leaf is the radians value in degrees."""
    deg = path.endswith("_deg")
    for part in (path[:-4] if deg else path).split("."):
        if isinstance(obj, list):
            obj = obj[int(part)]
        elif isinstance(obj, dict) and part in obj:
            obj = obj[part]
        else:
            raise KeyError(path)
    return math.degrees(obj) if deg else obj


def digits_tolerance(text):
    """Half a unit of the last digit written: '1.0366e-4' -> 5e-9."""
    mant, _, exp = text.lower().partition("e")
    decimals = len(mant.split(".")[1]) if "." in mant else 0
    return 0.5 * 10 ** (int(exp or 0) - decimals) * (1 + 1e-9)


def check_fact(out, path, want, problems, who):
    if path == "warnings.*":
        if not any(want in w for w in out.get("warnings", [])):
            problems.append("%s: no warning containing %r" % (who, want))
        return
    try:
        got = lookup(out, path)
    except (KeyError, IndexError):
        problems.append("%s: %s missing" % (who, path))
        return
    if isinstance(want, str) and isinstance(got, (int, float)) and not isinstance(got, bool):
        ok = abs(got - float(want)) <= digits_tolerance(want)
    else:
        ok = got == want
    if not ok:
        problems.append("%s: %s = %r, expected %r" % (who, path, got, want))


def test_facts(results, tmp):
    for case in json.load(open(FACTS))["cases"]:
        if "model" in case:
            path = os.path.join(MODELS, case["model"] + ".json")
            config = json.load(open(path))
        else:
            config = case["config"]
            path = write(tmp, "fact.json", json.dumps(config))
        opts = case.get("opts", {})
        args = ["--config", path, "--format", "json"]
        for k in ("seq_len", "train_len", "gap"):
            if k in opts:
                args += ["--" + k.replace("_", "-"), str(opts[k])]
        code, out, err = run(args)
        problems = [] if code == 0 else ["exit %d: %s" % (code, err.strip())]
        if code == 0:
            got = json.loads(out)
            for path_, want in case["checks"]:
                check_fact(got, path_, want, problems, "cli")
        r = ref.resolve(config, float(opts.get("seq_len", 0)))
        mine = ref.figures(r, opts.get("train_len"), opts.get("gap"))
        for path_, want in case["checks"]:
            if path_.startswith(("warnings", "resolved.truncate", "resolved.head_dim_from", "resolved.factor_list")):
                continue
            check_fact(mine, path_, want, problems, "reference")
        results.record("facts: %s" % case["name"], problems)


def base_configs():
    load = lambda name: json.load(open(os.path.join(MODELS, name + ".json")))
    return {
        "llama3": load("llama-3.1-8b"),
        "yarn": load("deepseek-v3"),
        "yarn-truncate": load("gpt-oss-20b"),
        "longrope": load("phi-3.5-mini-instruct"),
        "default": load("llama-2-7b"),
        "linear": {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096,
                   "rope_theta": 10000.0, "rope_scaling": {"rope_type": "linear", "factor": 4.0}},
        "dynamic": {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096,
                    "rope_theta": 10000.0, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}},
        "v5": {"head_dim": 128, "max_position_embeddings": 131072,
               "rope_parameters": {"rope_type": "yarn", "rope_theta": 1e6, "factor": 4.0,
                                   "original_max_position_embeddings": 32768, "partial_rotary_factor": 0.5}},
    }


BLOCK_KEYS = {
    "llama3": ["rope_type", "factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"],
    "yarn": ["type", "factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim", "attention_factor",
             "original_max_position_embeddings", "truncate"],
    "yarn-truncate": ["truncate"],
    "longrope": ["type", "short_factor", "long_factor", "factor", "attention_factor"],
    "linear": ["rope_type", "factor"],
    "dynamic": ["rope_type", "factor"],
    "v5": ["rope_type", "rope_theta", "partial_rotary_factor", "factor"],
}
TOP_KEYS = ["rope_theta", "hidden_size", "num_attention_heads", "head_dim", "qk_rope_head_dim",
            "max_position_embeddings", "original_max_position_embeddings", "partial_rotary_factor"]


def mutations(value_is_list):
    if value_is_list:
        return [("missing", None), ("mistyped", 3.0), ("null", None), ("string", "abc"), ("nan-text", "NaN"),
                ("negative", "neg-list"), ("zero", "zero-list")]
    return [("missing", None), ("mistyped", [1, 2]), ("null", None), ("string", "abc"), ("nan-text", "NaN"),
            ("negative", -2.0), ("zero", 0)]


def bad_cases():
    """(name, config, key, mutation) for every key of the table."""
    cases = []
    for kind, cfg in base_configs().items():
        blk_name = "rope_parameters" if "rope_parameters" in cfg else "rope_scaling"
        for key in BLOCK_KEYS.get(kind, []) + [k for k in TOP_KEYS if kind in ("default", "yarn", "llama3", "longrope")]:
            in_block = key in BLOCK_KEYS.get(kind, [])
            holder_path = blk_name if in_block else None
            is_list = key in ("short_factor", "long_factor")
            for mut, value in mutations(is_list):
                c = copy.deepcopy(cfg)
                holder = c[holder_path] if holder_path else c
                if mut == "missing":
                    holder.pop(key, None)
                elif value == "neg-list":
                    holder[key] = [-1.0] * len(holder.get(key, [1] * 48))
                elif value == "zero-list":
                    holder[key] = [0.0] * len(holder.get(key, [1] * 48))
                else:
                    holder[key] = value
                cases.append({"name": "%s %s %s" % (kind, key, mut), "config": c, "key": key, "mutation": mut})
    return cases


def names(line, key):
    """Whether a message names key as a whole word (head_dim, not qk_rope_head_dim)."""
    return re.search(r"(^|[^a-z_])%s([^a-z_]|$)" % re.escape(key), line) is not None


def judge(case, code, out, err):
    """Problems with one bad config's result (empty: it behaved)."""
    key, mut = case["key"], case["mutation"]
    lines = err.splitlines()
    if code == 2:
        problems = []
        if out:
            problems.append("exit 2 but %d bytes on stdout" % len(out))
        if len(lines) != 1 or not names(lines[0], key):
            problems.append("exit 2 needs one stderr line naming %s, got %r" % (key, lines))
        return problems
    if code != 0:
        return ["exit %d (crash?): %r" % (code, lines[-3:])]
    try:
        json.loads(out)
    except ValueError:
        return ["exit 0 but stdout is not JSON"]
    silent_ok = (mut in ("missing", "null") and key in OPTIONAL) or (mut == "zero" and key in ZERO_OK)
    if not silent_ok and not any(names(line, key) and "warning" in line for line in lines):
        return ["exit 0 without a warning naming %s: %r" % (key, lines)]
    return []


def test_bad_configs(results, tmp):
    verdicts = []
    for case in bad_cases():
        path = write(tmp, "bad.json", json.dumps(case["config"]))
        code, out, err = run(["--config", path, "--format", "json"])
        results.record("bad config: %s" % case["name"], judge(case, code, out, err))
        silent_ok = ((case["mutation"] in ("missing", "null") and case["key"] in OPTIONAL)
                     or (case["mutation"] == "zero" and case["key"] in ZERO_OK))
        verdicts.append(dict(case, cli_exit=code, silent_ok=silent_ok))
    with open(BAD_OUT, "w") as f:
        json.dump(verdicts, f)


def expect_error(results, name, args, needle, tmp=None):
    code, out, err = run(args)
    lines = err.splitlines()
    ok = code == 2 and not out and len(lines) == 1 and needle in lines[0]
    results.record(name, [] if ok else ["exit %d, stdout %d bytes, stderr %r (wanted %r)" % (code, len(out), lines, needle)])


def test_overflows(results, tmp):
    """An overflow a config's own number makes names that key: NTK's and dynamic's factor, a
    longrope list entry (docs/SCALING.md)."""
    head = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 10000,
            "max_position_embeddings": 4096}
    big = ("rope_scaling.factor 1.0000000000000001e+300 is too large: the scaled base "
           "(base x factor^(d/(d-2))) overflows")
    for kind in ("ntk", "dynamic"):
        path = write(tmp, "%s-1e300.json" % kind, json.dumps(dict(head, rope_scaling={"type": kind, "factor": 1e300})))
        expect_error(results, "%s factor 1e300" % kind, ["--config", path, "--seq-len", "100000"], big)
    short = [1.0] * 64
    short[3] = 5e-324
    longrope = dict(head, max_position_embeddings=131072, original_max_position_embeddings=4096,
                    rope_scaling={"type": "longrope", "short_factor": short, "long_factor": [1.0] * 64})
    path = write(tmp, "longrope-tiny.json", json.dumps(longrope))
    expect_error(results, "longrope short_factor 5e-324", ["--config", path],
                 "rope_scaling.short_factor[3] 4.9406564584124654e-324 is too small: the scaled frequencies "
                 "(theta / entry) overflow")


def test_files(results, tmp):
    llama = json.load(open(os.path.join(MODELS, "llama-3.1-8b.json")))
    big = write(tmp, "big.json", json.dumps(dict(llama, padding="x" * (5 << 20))))
    expect_error(results, "5 MB file", ["--config", big], "over the limit of 1048576 bytes")
    expect_error(results, "not JSON", ["--config", write(tmp, "x.json", "{rope_theta: 1")], "not JSON")
    expect_error(results, "empty file", ["--config", write(tmp, "e.json", "")], "empty")
    expect_error(results, "top-level array", ["--config", write(tmp, "a.json", "[1, 2]")], "not an object")
    expect_error(results, "missing file", ["--config", os.path.join(tmp, "nope.json")], "cannot open")
    both = dict(llama, rope_parameters={"rope_type": "default", "rope_theta": 10000})
    expect_error(results, "both blocks", ["--config", write(tmp, "b.json", json.dumps(both))], "rope_parameters")
    unknown = copy.deepcopy(llama)
    unknown["rope_scaling"]["rope_type"] = "sux"
    expect_error(results, "unknown rope_type", ["--config", write(tmp, "u.json", json.dumps(unknown))], "rope_scaling.rope_type \"sux\"")
    expect_error(results, "duplicate key", ["--config", write(tmp, "d.json", '{"head_dim": 64, "head_dim": 64}')], "a key given twice in one object near '\"head_dim\"'")
    # A config's own layer_types is no --layer-type flag: the line names the key only.
    short = {"model_type": "gemma3_text", "head_dim": 64, "rope_theta": 1e6, "rope_local_base_freq": 1e4,
             "num_hidden_layers": 4, "layer_types": ["sliding_attention", "full_attention"]}
    expect_error(results, "layer_types of the wrong length", ["--config", write(tmp, "l.json", json.dumps(short))],
                 "ropescope: layer_types has 2 entries, but num_hidden_layers is 4")
    expect_error(results, "block not an object", ["--config", write(tmp, "s.json", '{"head_dim": 64, "rope_scaling": "yarn"}')], "rope_scaling must be an object")
    odd = {"head_dim": 100, "partial_rotary_factor": 0.25}
    expect_error(results, "odd rotary dim", ["--config", write(tmp, "o.json", json.dumps(odd))], "partial_rotary_factor")
    phi = json.load(open(os.path.join(MODELS, "phi-3.5-mini-instruct.json")))
    short = copy.deepcopy(phi)
    short["rope_scaling"]["short_factor"] = short["rope_scaling"]["short_factor"][:-1]
    expect_error(results, "factor list too short", ["--config", write(tmp, "sf.json", json.dumps(short))], "rope_scaling.short_factor")
    longer = copy.deepcopy(phi)
    longer["rope_scaling"]["long_factor"] = longer["rope_scaling"]["long_factor"] + [70.0]
    code, out, err = run(["--config", write(tmp, "lf.json", json.dumps(longer)), "--format", "json"])
    results.record("factor list too long warns", [] if code == 0 and "rope_scaling.long_factor has 49 entries" in err else ["exit %d %r" % (code, err)])
    unknown_key = copy.deepcopy(llama)
    unknown_key["rope_scaling"]["beta_fastt"] = 32
    code, out, err = run(["--config", write(tmp, "k.json", json.dumps(unknown_key))])
    results.record("unknown block key warns", [] if code == 0 and "rope_scaling.beta_fastt" in err else ["exit %d %r" % (code, err)])


def test_flags(results, tmp):
    base = ["--dim", "128", "--base", "500000", "--rope-type", "llama3", "--factor", "8", "--low-freq-factor", "1",
            "--high-freq-factor", "4", "--original-max-position-embeddings", "8192",
            "--max-position-embeddings", "131072"]
    same = []
    # The flags carry no model_type: the file is read without it.
    llama = json.load(open(os.path.join(MODELS, "llama-3.1-8b.json")))
    llama.pop("model_type", None)
    with tempfile.TemporaryDirectory() as scratch:
        plain = write(scratch, "llama.json", json.dumps(llama))
        outs = {fmt: run(["--config", plain, "--format", fmt]) for fmt in ("json", "csv", "table")}
    for fmt in ("json", "csv", "table"):
        a = run(base + ["--format", fmt])
        b = outs[fmt]
        if a[0] != 0 or a[1] != b[1].replace("(hidden_size / num_attention_heads)", "(head_dim)").replace(
                '"hidden_size / num_attention_heads"', '"head_dim"') or a[1] == "":
            same.append("%s differs from the config file's output" % fmt)
    results.record("flags give the config's output", same)
    code, out, err = run(base)
    results.record("table shows the bands", [] if "bands: 29 keep, 6 ramp, 29 divide" in out else [out[:300]])
    for bad in ["abc", "", "1e400", "0x10", " 1", "nan", "inf", "1e-400", "1,2", "--"]:
        expect_error(results, "--factor %r" % bad, base[:6] + ["--factor", bad] + base[8:], "--factor")
    expect_error(results, "--factor -1", base[:6] + ["--factor", "-1"] + base[8:], "--factor: rope_scaling.factor must be > 0")
    expect_error(results, "--truncate maybe", ["--dim", "64", "--rope-type", "yarn", "--factor", "4", "--truncate", "maybe"], "--truncate")
    expect_error(results, "--short-factor bad", ["--dim", "8", "--rope-type", "longrope", "--short-factor", "1,x"], "--short-factor")
    expect_error(results, "--format xml", base + ["--format", "xml"], "--format")
    expect_error(results, "--seq-len -5", base + ["--seq-len", "-5"], "--seq-len")
    expect_error(results, "--train-len alone", base + ["--train-len", "4096"], "--train-len")
    expect_error(results, "--gap -1", base + ["--train-len", "4096", "--gap", "-1"], "--gap")
    expect_error(results, "--config with flags", ["--config", os.path.join(MODELS, "llama-3.1-8b.json"), "--dim", "64"], "--config")
    expect_error(results, "unknown flag", base + ["--frobnicate", "1"], "--frobnicate")
    expect_error(results, "missing value", base + ["--gap"], "--gap")
    expect_error(results, "no input", [], "--config")
    expect_error(results, "--dim 0", ["--dim", "0"], "--dim")
    expect_error(results, "--new-base 0", ["--dim", "64", "--rope-type", "base_change", "--new-base", "0"], "--new-base")
    expect_error(results, "--factor given twice", base + ["--factor", "4"], "--factor is given twice ('8' and '4')")
    expect_error(results, "--config given twice", ["--config", "a.json", "--config", "b.json"], "--config is given twice")
    expect_error(results, "--factor .5 (the shared grammar wants a digit first)", base[:6] + ["--factor", ".5"] + base[8:], "'.5'")
    # Every write is checked: a full disk exits 1 naming standard output.
    with open("/dev/full", "w") as full:
        p = subprocess.run([CLI, "scaling"] + base, stdout=full, stderr=subprocess.PIPE, timeout=60)
    lines = p.stderr.decode(errors="replace").splitlines()
    results.record("/dev/full", [] if p.returncode == 1 and len(lines) == 1 and "standard output" in lines[0]
                   else ["exit %d, stderr %r" % (p.returncode, lines)])
    code, out, err = run(["--help"])
    results.record("--help", [] if code == 0 and "--config" in out and not err else ["exit %d" % code])


CONFIGS = os.path.join(ROOT, "tests", "data", "configs")


def test_real_configs(results, tmp):
    """The real configs of tests/data/configs/: their hand-worked key numbers
    (expected.json), the reference's model part, and the table and CSV forms."""
    expected = json.load(open(os.path.join(CONFIGS, "expected.json")))
    names = sorted(n[:-5] for n in os.listdir(CONFIGS) if n.endswith(".json") and n != "expected.json")
    results.record("every real config has its key numbers", sorted(set(names) ^ (set(expected) - {"_about"})))
    results.record("at least 20 real configs", [] if len(names) >= 20 else ["only %d" % len(names)])
    for name in names:
        path = os.path.join(CONFIGS, name + ".json")
        want = expected.get(name, {})
        code, out, err = run(["--config", path, "--format", "json", "--seq-len", "65536"])
        if code != 0:
            results.record("real config %s" % name, ["exit %d: %s" % (code, err.strip()[:200])])
            continue
        got = json.loads(out)
        model = got["model"]
        problems = []
        for key in ("rope_type", "rotary_dim", "base", "factor", "attention_factor", "softmax_multiplier"):
            if key in want and not testlib.close(got[key], want[key]) if isinstance(want.get(key), (int, float)) \
                    else key in want and got[key] != want[key]:
                problems.append("%s = %r, expected %r" % (key, got[key], want[key]))
        for key in ("read_from", "model_type", "layout", "nope_layers", "query_pre_attn_scalar", "mrope_section"):
            if key in want and model[key] != want[key]:
                problems.append("model.%s = %r, expected %r" % (key, model[key], want[key]))
        if "full_attention" in want:
            types = {t["name"]: t for t in model["layer_types"] or []}
            if types.get("full_attention", {}).get("layers") != want["full_attention"]:
                problems.append("full_attention layers %r" % types.get("full_attention"))
            local = types.get("sliding_attention", {})
            if local.get("base") != want["sliding_attention_base"] or len(local.get("layers", [])) != want["sliding_attention_count"]:
                problems.append("sliding_attention %r" % {k: local.get(k) for k in ("base", "layers")})
            # Gemma 4's sliding layers keep head_dim while the full ones use global_head_dim.
            local_dim = want.get("sliding_attention_rotary_dim", want.get("rotary_dim"))
            if local.get("rotary_dim") != local_dim or len(local.get("pairs", [])) != local_dim // 2:
                problems.append("sliding_attention rotary dim %r, expected %r" % (local.get("rotary_dim"), local_dim))
        for key in ("rotating_pairs", "still_pairs"):
            if key in want and got["resolved"].get(key) != want[key]:
                problems.append("resolved.%s = %r, expected %r" % (key, got["resolved"].get(key), want[key]))
        if "still_pairs" in want:
            still = [p for p in got["pairs"] if p["band"] == "still"]
            if len(still) != want["still_pairs"] or any(p["inv_freq"] != 0 or p["wavelength"] is not None for p in still) \
                    or still and still[0]["i"] != want["rotating_pairs"]:
                problems.append("the still pairs are not the last %d with frequency 0" % want["still_pairs"])
        if "query_scale_at_65536" in want:
            qs = model["query_scale"] or {}
            if not testlib.close(qs.get("value", float("nan")), want["query_scale_at_65536"]):
                problems.append("query_scale %r" % qs)
        # The reference agrees on the model part too.
        exp = ref.figures(ref.resolve(json.load(open(path)), 65536.0))["model"]
        for key in ("read_from", "layout", "nope_layers", "num_hidden_layers"):
            if model[key] != exp[key]:
                problems.append("model.%s = %r, the reference says %r" % (key, model[key], exp[key]))
        code, table, _ = run(["--config", path])
        if code != 0 or "pairing %s" % model["layout"] not in table or ("read from %s" % model["read_from"]) not in table.replace("the top level", "top level"):
            problems.append("the table does not state the level read and the pairing")
        results.record("real config %s" % name, problems)


def test_model_options(results, tmp):
    """--layer-type, the old type names and the nested text model's messages."""
    gemma = os.path.join(CONFIGS, "gemma-3-1b-it.json")
    code, out, err = run(["--config", gemma, "--format", "csv", "--layer-type", "sliding_attention"])
    rows = [line.split(",") for line in out.splitlines()[1:]]
    ok = code == 0 and len(rows) == 128 and all(testlib.close(float(r[1]), 10000.0 ** (-2.0 * int(r[0]) / 256)) for r in rows)
    results.record("--layer-type sliding_attention lists the local base's pairs", [] if ok else [out[:200] + err])
    code, out, err = run(["--config", gemma, "--format", "csv", "--layer-type", "full_attention"])
    rows = [line.split(",") for line in out.splitlines()[1:]]
    ok = code == 0 and len(rows) == 128 and testlib.close(float(rows[1][1]), 1e6 ** (-2.0 / 256))
    results.record("--layer-type full_attention lists the main pairs", [] if ok else [out[:200] + err])
    expect_error(results, "--layer-type unknown", ["--config", gemma, "--format", "csv", "--layer-type", "chunked"], "--layer-type")
    expect_error(results, "--layer-type without csv", ["--config", gemma, "--layer-type", "full_attention"], "--layer-type")
    llama = json.load(open(os.path.join(MODELS, "llama-3.1-8b.json")))
    expect_error(results, "--layer-type sliding_attention on one layer type",
                 ["--config", write(tmp, "l.json", json.dumps(llama)), "--format", "csv", "--layer-type", "sliding_attention"],
                 "full_attention only")
    nested = {"model_type": "gemma3", "text_config": {"model_type": "gemma3_text", "hidden_size": 2560,
                                                       "rope_scaling": {"rope_type": "linear"}}}
    expect_error(results, "a nested block names its level", ["--config", write(tmp, "n.json", json.dumps(nested))],
                 "text_config.rope_scaling.factor is missing")
    nested["text_config"]["head_dim"] = "256"
    expect_error(results, "a nested key names its level", ["--config", write(tmp, "n2.json", json.dumps(nested))],
                 "text_config.head_dim must be a number")
    for old, new in (("su", "longrope"), ("mrope", "default")):
        phi = json.load(open(os.path.join(MODELS, "phi-3.5-mini-instruct.json")))
        cfg = phi if old == "su" else dict(llama, rope_scaling={"type": "mrope", "mrope_section": [16, 24, 24]})
        if old == "su":
            cfg["rope_scaling"].pop("rope_type", None)
            cfg["rope_scaling"]["type"] = "su"
        code, out, err = run(["--config", write(tmp, old + ".json", json.dumps(cfg)), "--format", "json"])
        got = json.loads(out) if code == 0 else {}
        ok = got.get("rope_type") == new and "old name of %s" % new in err
        if old == "mrope":
            ok = ok and got["model"]["mrope_section"] == [16, 24, 24]
        results.record("type %s reads as %s" % (old, new), [] if ok else ["exit %d %r" % (code, err[:200])])
    cfg = dict(llama, model_type="smollm3", num_hidden_layers=8, no_rope_layers=[1, 1, 1, 0, 1, 0, 1, 1])
    code, out, err = run(["--config", write(tmp, "nope.json", json.dumps(cfg))])
    results.record("NoPE layers are listed", [] if code == 0 and "layers without RoPE (NoPE, from no_rope_layers): 3, 5" in out else [out[:300]])
    # EXAONE 4: its full-attention layers skip RoPE while a sliding window is set.
    exaone = json.load(open(os.path.join(CONFIGS, "exaone-4.0-32b.json")))
    for name, change, want in (
            ("its layer_types", {}, list(range(3, 64, 4))),
            ("sliding_window null", {"sliding_window": None}, []),
            ("an integer pattern", {"layer_types": None, "sliding_window_pattern": 2, "num_hidden_layers": 6}, [1, 3, 5]),
            ("the class default pattern", {"layer_types": None, "sliding_window_pattern": None, "num_hidden_layers": 8}, [3, 7])):
        cfg = {k: v for k, v in dict(exaone, **change).items() if v is not None or k == "sliding_window"}
        code, out, err = run(["--config", write(tmp, "exaone.json", json.dumps(cfg)), "--format", "json"])
        got = json.loads(out)["model"]["nope_layers"] if code == 0 else None
        results.record("exaone4 NoPE layers from %s" % name, [] if got == want else ["got %r, wanted %r: %s" % (got, want, err[:200])])
    cfg = {k: v for k, v in exaone.items() if k != "layer_types"}
    code, out, err = run(["--config", write(tmp, "exaone.json", json.dumps(cfg)), "--format", "json"])
    ok = code == 0 and json.loads(out)["model"]["nope_layers"] == [] and "sliding_window_pattern is a string and layer_types is missing" in err
    results.record("exaone4 string pattern without layer_types is named", [] if ok else [err[:300]])
    cfg = dict(llama, head_dim=2, rope_scaling={"rope_type": "dynamic", "factor": 2.0})
    expect_error(results, "dynamic at rotary dim 2", ["--config", write(tmp, "d2.json", json.dumps(cfg))],
                 "rope_type dynamic needs a rotary dim above 2 (its base grows as factor^(d/(d-2))), but head_dim gives rotary dim 2")
    cfg = dict(llama, no_rope_layers=[1, 2])
    expect_error(results, "no_rope_layers holds 0 and 1", ["--config", write(tmp, "nope2.json", json.dumps(cfg))], "no_rope_layers[1] must be 0 or 1")
    # Per-layer RoPE tables without num_hidden_layers: the class default lists the layers.
    for mt, layers, every, full, cfg in (
            ("gemma3_text", 26, 6, [5, 11, 17, 23],
             {"head_dim": 256, "rope_parameters": {
                 "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6},
                 "sliding_attention": {"rope_type": "default", "rope_theta": 1e4}}}),
            ("modernbert", 22, 3, [0, 3, 6, 9, 12, 15, 18, 21],
             {"hidden_size": 768, "num_attention_heads": 12, "global_rope_theta": 160000.0,
              "local_rope_theta": 10000.0})):
        cfg = dict(cfg, model_type=mt)
        code, out, err = run(["--config", write(tmp, mt + ".json", json.dumps(cfg)), "--format", "json"])
        kinds = {t["name"]: t["layers"] for t in json.loads(out)["model"]["layer_types"]} if code == 0 else {}
        ok = kinds.get("full_attention") == full and len(kinds.get("sliding_attention", [])) == layers - len(full) \
            and "num_hidden_layers is missing: model_type %s's class default %d is used to list the layers" % (mt, layers) in err
        results.record("%s without num_hidden_layers: its class default %d" % (mt, layers), [] if ok else [out[:300] + err])
    cfg = {"model_type": "not_a_class", "head_dim": 64, "rope_parameters": {
        "full_attention": {"rope_type": "default", "rope_theta": 5e5},
        "sliding_attention": {"rope_type": "default", "rope_theta": 1e4}}}
    code, out, err = run(["--config", write(tmp, "v5.json", json.dumps(cfg))])
    ok = code == 0 and "sliding_attention layers (base 10000, rotary dim 64): not listed (num_hidden_layers is missing)" in out
    results.record("two layer types, no layer count, no class: both tables, no layers", [] if ok else [out[:400] + err])
    # A key whose name holds a dot is one plain key, not a path (issue #35 item 5).
    cfg = {"rope_scaling.rope_type": "linear", "rope_scaling.factor": 2, "rope_theta": 10000.0, "head_dim": 64,
           "text_config.rope_theta": 5.0}
    code, out, err = run(["--config", write(tmp, "dotted.json", json.dumps(cfg)), "--format", "json"])
    got = json.loads(out) if code == 0 else {}
    want = ['"%s" is one key whose name holds a dot, not a path into an object: transformers\' RoPE code reads '
            'nothing from it; ignored' % k for k in ("rope_scaling.rope_type", "rope_scaling.factor", "text_config.rope_theta")]
    ok = got.get("rope_type") == "default" and got.get("base") == 10000 and all(w in err for w in want)
    results.record("dotted top-level keys are plain keys", [] if ok else [out[:200] + err])
    # RoPE-looking keys the rules do not read, an unknown class and custom code are named.
    cfg = {"model_type": "olmo3", "auto_map": {"AutoConfig": "configuration_x.XConfig"}, "rope_theta": 1e4,
           "head_dim": 64, "rope_ratio": 2, "alpha": 1000.0, "qk_nope_head_dim": 128, "freq_base": 5e5,
           "partial_rotary": 0.5, "mrope_window": 4, "vocab_size": 32000}
    # A class of the table (llama) with custom code: each unread key and the code are warnings.
    code, out, err = run(["--config", write(tmp, "unread.json", json.dumps(dict(cfg, model_type="llama")))])
    want = ["%s looks like a RoPE key, but these rules do not read it" % k
            for k in ("rope_ratio", "alpha", "qk_nope_head_dim", "freq_base", "partial_rotary", "mrope_window")]
    want += ["auto_map: the model ships its own modelling code, whose RoPE may differ from transformers' rules "
             "used here"]
    ok = code == 0 and all("ropescope: warning: %s\n" % w in err for w in want) and "vocab_size" not in err
    results.record("unread RoPE-looking keys and auto_map are named", [] if ok else [err])
    # A class the table lacks with such keys: its RoPE cannot be known, and no table is printed.
    code, out, err = run(["--config", write(tmp, "unread2.json", json.dumps(cfg))])
    ok = code == 2 and out == "" and ("the RoPE of model_type olmo3 cannot be known from this config: "
                                      "rope_ratio is a RoPE key its own code reads and these rules do not "
                                      "(6 such keys)") in err
    results.record("an unknown class with unread RoPE keys is refused", [] if ok else [out[:200] + err])
    test_custom_classes(results, tmp)
    # A base below 2 is named as the file spells its key.
    for key, extra in (("rotary_emb_base", {}), ("global_rope_theta", {"model_type": "modernbert"}),
                       ("rope_theta", {})):
        cfg = dict(extra, hidden_size=768, num_attention_heads=12, **{key: 1})
        expect_error(results, "%s 1 is named" % key, ["--config", write(tmp, key + ".json", json.dumps(cfg))],
                     "%s must be > 1, got 1: at a base of 1 or below the pairs would no longer slow down" % key)
    # CRLF and LF line ends: the same line and column, as the page's text box has LF only.
    lines = ['{', '  "rope_theta": 10000,', '  "x": [1, 2,]', '}', '']
    said = []
    for name, end in (("lf", "\n"), ("crlf", "\r\n")):
        path = os.path.join(tmp, name + ".json")
        with open(path, "wb") as f:
            f.write(end.join(lines).encode())
        code, out, err = run(["--config", path])
        said.append((code, err.replace(path, "FILE")))
    ok = said[0] == said[1] and said[0][1].endswith("unexpected token near ']', at line 3, column 14\n")
    results.record("CRLF and LF configs: the same position", [] if ok else [repr(said)])
    oss = json.load(open(os.path.join(MODELS, "gpt-oss-20b.json")))
    code, out, err = run(["--config", os.path.join(MODELS, "gpt-oss-20b.json")])
    results.record("gpt-oss: v4.43-4.44 cannot pair an odd dim", [] if code == 0 and "odd rotary dim 45" in err and "22 pairs" not in err else [err[:400]])
    del oss["rope_theta"]
    code, out, err = run(["--config", write(tmp, "oss.json", json.dumps(oss)), "--format", "json"])
    ok = code == 0 and json.loads(out)["base"] == 150000 and "model_type gpt_oss's class default 150000" in err
    results.record("gpt-oss takes its class's rope_theta", [] if ok else [err[:300]])


# Keys a custom class's own code reads for its RoPE (issue #33): ChatGLM's rope_ratio (10000 x
# rope_ratio, half the head in adjacent pairs), Phi-3-small's rope_embedding_base, Kimi-Linear's
# mla_use_nope (its MLA layers have no RoPE), DeepSeek-V4's compress_rope_theta (a second table for
# its compressed layers); and RoPE-looking names no class here reads.
CUSTOM = [("chatglm", "rope_ratio", 500), ("phi3small", "rope_embedding_base", 1e6),
          ("kimi_linear", "mla_use_nope", True), ("deepseek_v4", "compress_rope_theta", 160000),
          ("exaone", "rotary_base", 5e5)]
UNREAD = ["rope_ratio", "rope_embedding_base", "mla_use_nope", "compress_rope_theta", "rotary_base",
          "alpha", "yarn_theta", "partial_rotary_dims", "mrope_axes", "rope_window", "rotary_dim"]


def test_custom_classes(results, tmp):
    """Each unread RoPE key planted in an unknown class is refused by name; the class alone (no
    such key) reads with a warning naming it; GPT-J's names are read through its attribute_map;
    HunYuan's dynamic alpha is base x alpha^(d/(d-2))."""
    rng = __import__("random").Random(testlib.seed("test_scaling_cli.custom"))
    for mt, key, value in CUSTOM:
        head = rng.choice([64, 128])
        base = {"model_type": mt, "hidden_size": head * 32, "num_attention_heads": 32, "rope_theta": 1e4,
                "auto_map": {"AutoConfig": "configuration_x.XConfig"}}
        code, out, err = run(["--config", write(tmp, mt + ".json", json.dumps(dict(base, **{key: value})))])
        ok = code == 2 and out == "" and ("the RoPE of model_type %s cannot be known from this config: %s is a "
                                          "RoPE key its own code reads" % (mt, key)) in err
        results.record("%s with %s is refused" % (mt, key), [] if ok else [out[:200] + err])
        code, out, err = run(["--config", write(tmp, mt + "-plain.json", json.dumps(base))])
        ok = code == 0 and "model_type %s is not in the class table" % mt in err and "auto_map" in err
        results.record("%s without RoPE keys of its own reads, named" % mt, [] if ok else [out[:200] + err])
    for key in UNREAD:
        cfg = {"model_type": "made_up_%d" % rng.randrange(1000), "head_dim": 64, "rope_theta": 1e4,
               key: rng.choice([2, 5e5, True])}
        code, out, err = run(["--config", write(tmp, "unread-%s.json" % key, json.dumps(cfg))])
        ok = code == 2 and ("%s is a RoPE key its own code reads" % key) in err
        results.record("unread %s in an unknown class is refused" % key, [] if ok else [out[:200] + err])
        # With no model_type and no auto_map nothing says a class of its own reads it: a warning.
        del cfg["model_type"]
        code, out, err = run(["--config", write(tmp, "unread-%s.json" % key, json.dumps(cfg))])
        ok = code == 0 and ("%s looks like a RoPE key, but these rules do not read it" % key) in err
        results.record("unread %s with no class is a warning" % key, [] if ok else [out[:200] + err])
    # GPT-J and CodeGen: n_embd, n_head, n_positions, rotary_dim; rotate_every_two pairs.
    for mt in ("gptj", "codegen"):
        heads = rng.choice([16, 32])
        head = rng.choice([128, 256])
        rd = rng.choice([32, 64, head]) if rng.random() < 0.8 else None
        cfg = {"model_type": mt, "n_embd": heads * head, "n_head": heads, "n_positions": 2048, "n_layer": 28}
        if rd is not None:
            cfg["rotary_dim"] = rd
        code, out, err = run(["--config", write(tmp, mt + "-names.json", json.dumps(cfg)), "--format", "json"])
        got = json.loads(out) if code == 0 else {}
        want = rd if rd is not None else 64
        ok = got.get("rotary_dim") == want and got.get("base") == 10000 and "hidden_size" not in err
        if rd is None:
            ok = ok and "rotary_dim is missing: model_type %s's class default 64 is used" % mt in err
        th = [p["inv_freq_scaled"] for p in got.get("pairs", [])]
        ok = ok and len(th) == want // 2 and all(abs(t - 10000.0 ** (-2.0 * i / want)) <= 1e-12 * 10000.0 ** (-2.0 * i / want)
                                                 for i, t in enumerate(th))
        results.record("%s's names (rotary_dim %s, head %d)" % (mt, rd, head), [] if ok else [out[:300] + err])
    # HunYuan: rope_scaling.alpha with type dynamic.
    for _ in range(3):
        d = rng.choice([64, 128])
        alpha = rng.choice([50.0, 1000.0, rng.uniform(2, 2000)])
        theta = rng.choice([1e4, 5e5])
        cfg = {"model_type": "hunyuan_v1_dense", "hidden_size": d * 32, "num_attention_heads": 32, "head_dim": d,
               "rope_theta": theta, "max_position_embeddings": 32768,
               "rope_scaling": {"type": "dynamic", "alpha": alpha, "factor": 1.0}}
        code, out, err = run(["--config", write(tmp, "hunyuan.json", json.dumps(cfg)), "--format", "json"])
        got = json.loads(out) if code == 0 else {}
        scaled = theta * alpha ** (d / (d - 2.0))
        th = [p["inv_freq_scaled"] for p in got.get("pairs", [])]
        ok = len(th) == d // 2 and all(abs(t - scaled ** (-2.0 * i / d)) <= 1e-12 * scaled ** (-2.0 * i / d)
                                       for i, t in enumerate(th)) and "HunYuan's dynamic NTK by alpha" in err
        results.record("HunYuan alpha %g, d %d: base x alpha^(d/(d-2))" % (alpha, d), [] if ok else [out[:300] + err])


def main():
    global BAD_OUT
    if "--bad-out" in sys.argv[1:-1]:
        BAD_OUT = sys.argv[sys.argv.index("--bad-out") + 1]
    results = testlib.Tally()
    with tempfile.TemporaryDirectory() as tmp:
        for test in testlib.only([test_facts, test_bad_configs, test_overflows, test_files, test_flags,
                                  test_real_configs, test_model_options]):
            test(results, tmp)
    print("%d passed, %d failed" % (results.passed, results.failed))
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
