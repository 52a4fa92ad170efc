#!/usr/bin/env python3
"""Randomized differential test of the long-context core: fresh random configs
(every rope type; dims, partial rotary factors that give odd dims, bases,
factors, beta values, truncate on and off, sequence lengths on both sides of
L0, training lengths and gaps) go through the native core (ctypes on
build/librope.so, keys handed over one by one as the CLI's walker does) and
the CLI (`ropescope scaling --format json`), and are checked against
tests/ref/ref_scaling.py. The cases and the reference's answers are written to
--cases for tests/js/scaling.test.mjs (the wasm build). Also checks the
reference numbers of docs/SCALING.md on the nine configs in web/models/.

    python3 tests/diff/diff_scaling.py [--seed N] [--count N] [--cases build/scaling_cases.json]

Ends with "<n> passed, <m> failed"; exits 1 on any failure.
"""
import argparse
import ctypes
import json
import math
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
# The folders beside this one that it imports from: tests/lib, tests/ref.
sys.path[:0] = [os.path.join(HERE, "..", d) for d in ("lib", "ref")]
import methods_table  # noqa: E402
import ref_scaling as ref  # noqa: E402
import testlib  # noqa: E402
from testlib import CLI, MODELS, ROOT  # noqa: E402

LIB = os.path.join(ROOT, "build", "librope.so")
KIND = {"number": 0, "string": 1, "bool": 2, "null": 3, "list": 4, "object": 5, "other": 6}
JSON_FORMAT = 0
E_SPACE = -9
PAIR_FIELDS = ("wavelength", "inv_freq", "inv_freq_scaled", "ratio")


class Native:
    """The config reader and writer of build/librope.so, fed as the CLI feeds it."""

    def __init__(self, path):
        lib = ctypes.CDLL(path)
        lib.rope_config_size.restype = ctypes.c_int
        lib.rope_config_init.argtypes = [ctypes.c_void_p]
        lib.rope_config_put.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_double,
                                        ctypes.c_char_p, ctypes.POINTER(ctypes.c_double), ctypes.c_int]
        lib.rope_config_put.restype = ctypes.c_int
        lib.rope_config_message.argtypes = [ctypes.c_void_p]
        lib.rope_config_message.restype = ctypes.c_char_p
        lib.rope_scaling_write.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_double, ctypes.c_double,
                                           ctypes.c_double, ctypes.c_char_p, ctypes.c_int,
                                           ctypes.POINTER(ctypes.c_int)]
        lib.rope_scaling_write.restype = ctypes.c_int
        self.lib = lib
        self.reader = ctypes.create_string_buffer(lib.rope_config_size())
        self.text = None

    def put(self, key, value, depth=0):
        lib, c, k = self.lib, self.reader, key.encode()
        if isinstance(value, bool):
            return lib.rope_config_put(c, k, KIND["bool"], 1.0 if value else 0.0, None, None, 0)
        if isinstance(value, (int, float)):
            return lib.rope_config_put(c, k, KIND["number"], float(value), None, None, 0)
        if isinstance(value, str):
            return lib.rope_config_put(c, k, KIND["string"], 0.0, value.encode(), None, 0)
        if value is None:
            return lib.rope_config_put(c, k, KIND["null"], 0.0, None, None, 0)
        if isinstance(value, list):
            if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
                arr = (ctypes.c_double * max(len(value), 1))(*value)
                return lib.rope_config_put(c, k, KIND["list"], 0.0, None, arr, len(value))
            rc = lib.rope_config_put(c, k, KIND["other"], 0.0, b"a list holding non-numbers", None, 0)
            if depth <= 1 and all(isinstance(v, str) for v in value):
                for j, v in enumerate(value):
                    if rc == 0:
                        rc = lib.rope_config_put(c, ("%s.%d" % (key, j)).encode(), KIND["string"], 0.0,
                                                 v.encode(), None, 0)
            return rc
        if depth > 2:
            return lib.rope_config_put(c, k, KIND["other"], 0.0, b"an object", None, 0)
        rc = lib.rope_config_put(c, k, KIND["object"], 0.0, None, None, 0)
        for member, v in value.items():
            if rc != 0:
                break
            rc = self.put(key + "." + member, v, depth + 1)
        return rc

    def run(self, config, seq_len=0.0, train_len=None, gap=None):
        """(parsed JSON, None) or (None, error message)."""
        self.lib.rope_config_init(self.reader)
        rc = 0
        for key, value in config.items():
            if rc == 0:
                rc = self.put(key, value)
        cap, length = 1 << 16, ctypes.c_int(0)
        nan = float("nan")
        while rc == 0:
            buf = ctypes.create_string_buffer(cap)
            rc = self.lib.rope_scaling_write(self.reader, JSON_FORMAT, seq_len,
                                             nan if train_len is None else train_len,
                                             nan if gap is None else gap, buf, cap, ctypes.byref(length))
            if rc == E_SPACE:
                cap, rc = length.value + 1, 0
                continue
            if rc == 0:
                self.text = buf.raw[:length.value].decode()
                return json.loads(self.text), None
        return None, self.lib.rope_config_message(self.reader).decode()


def run_cli(config, seq_len, train_len, gap, tmp):
    path = os.path.join(tmp, "config.json")
    with open(path, "w") as f:
        json.dump(config, f)
    args = [CLI, "scaling", "--config", path, "--format", "json"]
    if seq_len:
        args += ["--seq-len", repr(float(seq_len))]
    if train_len is not None:
        args += ["--train-len", repr(float(train_len)), "--gap", repr(float(gap))]
    p = subprocess.run(args, capture_output=True, timeout=60)
    if p.returncode == 0:
        return json.loads(p.stdout.decode()), None
    lines = p.stderr.decode().splitlines()
    if p.returncode != 2 or p.stdout or len(lines) != 1:
        return None, "BAD EXIT %d, stdout %d bytes, stderr %r" % (p.returncode, len(p.stdout), lines)
    return None, lines[0]


# Every method of the methods' table (c_src/scaling/methods.c), yarn twice (it has the most keys).
RANDOM_TYPES = methods_table.NAMES + ["yarn"]
# The old name of each method that has one ("mrope" for default, "su" for longrope).
OLD_NAME = {name: old for old, name in methods_table.ALIASES.items()}
METHOD = {m["name"]: m for m in methods_table.METHODS}


def random_config(rng):
    """A random config (and options) over every rope type of the methods' table: its factor
    where the table's row requires one (or, 40% of the time, takes one), its own keys below."""
    rope_type = rng.choice(RANDOM_TYPES)
    cfg = {"model_type": "random", "rope_theta": round(10 ** rng.uniform(3, 7), rng.choice([0, 3]))}
    head = rng.choice([32, 48, 64, 80, 96, 100, 128, 256])
    style = rng.choice(["head_dim", "split", "qk"])
    heads = rng.choice([8, 16, 32])
    if style == "head_dim":
        cfg["head_dim"] = head
        cfg.update(hidden_size=head * heads + rng.choice([0, 64]), num_attention_heads=heads)
    elif style == "qk":
        cfg["qk_rope_head_dim"] = head
    else:
        cfg.update(hidden_size=head * heads, num_attention_heads=heads)
    if rng.random() < 0.3:
        cfg["partial_rotary_factor"] = rng.choice([0.25, 0.5, 0.75, 0.3])
    l0 = rng.choice([2048, 4096, 8192, 32768])
    cfg["max_position_embeddings"] = l0 * rng.choice([1, 4, 8, 32])
    factor = round(rng.uniform(1.0, 64.0), rng.choice([0, 2]))
    block = {rng.choice(["rope_type", "type"]): rope_type}
    pairs = int(head * cfg.get("partial_rotary_factor", 1.0)) // 2
    if "factor" in METHOD[rope_type]["required"] or ("factor" in METHOD[rope_type]["optional"] and rng.random() < 0.4):
        block["factor"] = factor
    if rope_type == "yarn":
        if rng.random() < 0.5:
            block["original_max_position_embeddings"] = l0
        if rng.random() < 0.6:
            block["beta_fast"], block["beta_slow"] = rng.choice([(32, 1), (16, 2), (1, 32), (64.5, 0.5)])
        if rng.random() < 0.5:
            block["truncate"] = rng.random() < 0.5
        if rng.random() < 0.3:
            block["mscale"], block["mscale_all_dim"] = rng.choice([(1.0, 1.0), (0.707, 0.707), (1.0, 0.0), (0.0, 1.0)])
        if rng.random() < 0.15:
            block["attention_factor"] = round(rng.uniform(0.5, 2.0), 3)
    elif rope_type == "longrope":
        block["short_factor"] = sorted(round(rng.uniform(1, 3), 4) for _ in range(pairs))
        block["long_factor"] = sorted(round(rng.uniform(1, 64), 4) for _ in range(pairs))
        if rng.random() < 0.5:
            cfg["original_max_position_embeddings"] = l0
        else:
            block["original_max_position_embeddings"] = l0
        if rng.random() < 0.2:
            block["attention_factor"] = round(rng.uniform(0.5, 2.0), 3)
    elif rope_type == "llama3":
        block["original_max_position_embeddings"] = l0
        block["low_freq_factor"] = rng.choice([1, 0.5, 2])
        block["high_freq_factor"] = rng.choice([4, 8, 3])
    elif rope_type == "base_change":
        block["new_rope_theta"] = round(10 ** rng.uniform(3, 7))
    elif rope_type == "proportional":
        if rng.random() < 0.6:
            block["partial_rotary_factor"] = cfg.pop("partial_rotary_factor", rng.choice([0.25, 0.5, 0.3]))
        if rng.random() < 0.4:
            cfg["global_head_dim"] = 2 * head
    if rope_type != "default" or rng.random() < 0.5:
        cfg[rng.choice(["rope_scaling", "rope_scaling", "rope_parameters"])] = block
    if rng.random() < 0.5:
        cfg = modelize(cfg, rng)
    seq_len = rng.choice([0.0, float(rng.randint(1, l0)), float(rng.randint(l0 + 1, 64 * l0))])
    train_len = gap = None
    if rng.random() < 0.6:
        train_len = float(rng.choice([2048, 4096, 8192, rng.randint(100, 10 ** 6)]))
        gap = float(round(10 ** rng.uniform(0, 7)))
    return cfg, {"seq_len": seq_len, "train_len": train_len, "gap": gap}


def modelize(cfg, rng):
    """The model-aware keys on a random config: a class whose defaults fill
    dropped keys, the GPT-NeoX aliases, layer patterns, NoPE layers, the query
    scales, the old type names, and a multimodal wrapper around it all."""
    block_key = next((b for b in ("rope_scaling", "rope_parameters") if isinstance(cfg.get(b), dict)), None)
    block = cfg.get(block_key) if block_key else None
    cls = rng.choice(sorted(ref.CLASSES) + ["random", None])
    if cls is None:
        cfg.pop("model_type", None)
    else:
        cfg["model_type"] = cls
    for key in ("rope_theta", "head_dim", "qk_rope_head_dim", "partial_rotary_factor"):
        if key in cfg and rng.random() < 0.25:
            del cfg[key]
    if "head_dim" not in cfg and "qk_rope_head_dim" not in cfg and rng.random() < 0.3:
        cfg.pop(rng.choice(["hidden_size", "num_attention_heads"]), None)
    if "rope_theta" in cfg and rng.random() < 0.2:
        cfg[rng.choice(["rotary_emb_base", "global_rope_theta"])] = cfg.pop("rope_theta")
    if "partial_rotary_factor" in cfg and rng.random() < 0.3:
        cfg["rotary_pct"] = cfg.pop("partial_rotary_factor")
    layers = rng.choice([0, 6, 26, 34, 48])
    if layers:
        cfg["num_hidden_layers"] = layers
    r = rng.random()
    if r < 0.15:
        local = rng.choice([10000.0, 5e4])
        cfg["rope_local_base_freq"] = local
        if rng.random() < 0.7:
            cfg["sliding_window_pattern"] = rng.choice([2, 4, 6])
        if layers and rng.random() < 0.4:
            cfg["layer_types"] = [rng.choice(["sliding_attention", "full_attention"]) for _ in range(layers)]
        if rng.random() < 0.4:
            # The transformers v5 form: one block per layer type.
            del cfg["rope_local_base_freq"]
            main = cfg.pop("rope_scaling", None) or cfg.pop("rope_parameters", None) or {"rope_type": "default"}
            cfg["rope_parameters"] = {"full_attention": main,
                                      "sliding_attention": {"rope_type": "default", "rope_theta": local}}
            block = main
    elif r < 0.25:
        cfg["local_rope_theta"] = 10000.0
        if rng.random() < 0.7:
            cfg["global_attn_every_n_layers"] = rng.choice([2, 3])
    r = rng.random()
    if r < 0.15 and layers:
        cfg["no_rope_layers"] = [rng.choice([0, 1, 1, 1]) for _ in range(layers + rng.choice([0, 2]))]
    elif r < 0.25:
        cfg["no_rope_layer_interval"] = rng.choice([2, 4])
    if rng.random() < 0.2:
        cfg["sliding_window"] = rng.choice([None, 4096, 512])
    if rng.random() < 0.15:
        cfg["query_pre_attn_scalar"] = rng.choice([144, 168, 224, 256])
    if rng.random() < 0.15:
        cfg["attn_temperature_tuning"] = rng.choice([True, False, 4, 0])
        if rng.random() < 0.5:
            cfg["attn_scale"], cfg["floor_scale"] = rng.choice([0.1, 0.3]), rng.choice([8192, 1024])
    if rng.random() < 0.15:
        cfg["rope_interleave"] = rng.random() < 0.5
    if block is not None:
        if rng.random() < 0.2:
            block["llama_4_scaling_beta"] = rng.choice([0.1, 0.25, 0.0])
        if rng.random() < 0.15:
            block["mrope_section"] = [16, 24, 24]
        name = block.get("rope_type", block.get("type"))
        if name in OLD_NAME and rng.random() < 0.4:
            block.pop("rope_type", None)
            block["type"] = OLD_NAME[name]
    if rng.random() < 0.3:
        nest = rng.choice(ref.NESTS)
        wrapper = {"model_type": rng.choice(["gemma3", "llama4", "mistral3", "llava"]),
                   nest: cfg, "vision_config": {"hidden_size": 1152, "num_attention_heads": 16}}
        if rng.random() < 0.2:
            wrapper["architectures"] = ["SomethingForConditionalGeneration"]
        return wrapper
    return cfg


def real_configs():
    """(name, config) for every real model config kept in tests/data/configs/."""
    folder = os.path.join(ROOT, "tests", "data", "configs")
    return [(name[:-5], json.load(open(os.path.join(folder, name))))
            for name in sorted(os.listdir(folder)) if name.endswith(".json") and name != "expected.json"]


def expected(cfg, opts):
    try:
        r = ref.resolve(cfg, opts["seq_len"])
    except ref.RefError as e:
        return {"error": e.key}
    return ref.figures(r, opts["train_len"], opts["gap"])


def near(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


def compare(got, exp, problems, where):
    """Every figure to the contract's tolerance; bands and statuses exactly,
    unless the pair sits on a boundary (where rounding may pick either side)."""
    for key in ("rope_type", "rotary_dim"):
        if got[key] != exp[key]:
            problems.append("%s %s: got %r, expected %r" % (where, key, got[key], exp[key]))
    for key in ("base", "factor", "attention_factor", "softmax_multiplier"):
        a, b = got[key], exp[key]
        if (a is None) != (b is None) or (b is not None and not testlib.close(a, b)):
            problems.append("%s %s: got %r, expected %r" % (where, key, a, b))
    for key, value in exp["extra"].items():
        g = got["resolved"].get(key)
        vals = value if isinstance(value, list) else [value]
        gvals = g if isinstance(g, list) else [g]
        if g is None or any(not testlib.close(x, y) for x, y in zip(gvals, vals)):
            problems.append("%s resolved.%s: got %r, expected %r" % (where, key, g, value))
    if exp["rope_type"] == "proportional" and got["bands"] != exp["bands"]:
        problems.append("%s bands: got %r, expected %r" % (where, got["bands"], exp["bands"]))
    if len(got["pairs"]) != len(exp["pairs"]):
        problems.append("%s: %d pairs, expected %d" % (where, len(got["pairs"]), len(exp["pairs"])))
        return
    factor = exp["factor"] or 1.0
    for gp, ep in zip(got["pairs"], exp["pairs"]):
        for f in PAIR_FIELDS:
            if ep[f] is None or gp[f] is None:  # a still pair's wavelength and ratio
                if ep[f] is not gp[f]:
                    problems.append("%s pair %d %s: got %r, expected %r" % (where, ep["i"], f, gp[f], ep[f]))
                continue
            if not testlib.close(gp[f], ep[f]):
                problems.append("%s pair %d %s: got %r, expected %r" % (where, ep["i"], f, gp[f], ep[f]))
        on_edge = ep["ratio"] is not None and (near(ep["ratio"], 1.0) or near(ep["ratio"], 1.0 / factor))
        if gp["band"] != ep["band"] and not on_edge:
            problems.append("%s pair %d band: got %s, expected %s" % (where, ep["i"], gp["band"], ep["band"]))
    if "range" in exp:
        gr, er = got.get("range"), exp["range"]
        if gr is None:
            problems.append("%s: no range" % where)
            return
        edges = 0
        for gp, ep in zip(gr["pairs"], er["pairs"]):
            for f in ("trained_angle", "gap_angle"):
                if not testlib.close(gp[f], ep[f]):
                    problems.append("%s range pair %d %s: got %r, expected %r" % (where, ep["i"], f, gp[f], ep[f]))
            edge = near(ep["trained_angle"], 2 * math.pi) or near(ep["gap_angle"], ep["trained_angle"])
            edges += edge
            if gp["status"] != ep["status"] and not edge:
                problems.append("%s range pair %d: got %s, expected %s" % (where, ep["i"], gp["status"], ep["status"]))
        for key in ("covered", "inside", "unseen", "critical_dimension"):
            if not edges and gr[key] != er[key]:
                problems.append("%s range %s: got %r, expected %r" % (where, key, gr[key], er[key]))
    elif "range" in got:
        problems.append("%s: a range nobody asked for" % where)


def compare_model(got, exp, problems, where):
    """The model part: the level read, the layout, the layer lists exactly; numbers to tolerance."""
    g = got.get("model")
    if g is None:
        problems.append("%s: no model part" % where)
        return
    for key in ("read_from", "model_type", "layout", "num_hidden_layers", "nope_layers", "mrope_section"):
        want = exp[key]
        have = g[key]
        if isinstance(want, list) and have is not None:
            ok = len(have) == len(want) and all(testlib.close(a, b) for a, b in zip(have, want))
        else:
            ok = have == want
        if not ok:
            problems.append("%s model.%s: got %r, expected %r" % (where, key, have, want))
    for key in ("query_pre_attn_scalar",):
        a, b = g[key], exp[key]
        if (a is None) != (b is None) or (b is not None and not testlib.close(a, b)):
            problems.append("%s model.%s: got %r, expected %r" % (where, key, a, b))
    es, gs = exp["query_scale"], g["query_scale"]
    if (es is None) != (gs is None):
        problems.append("%s model.query_scale: got %r, expected %r" % (where, gs, es))
    elif es is not None:
        if gs["layers"] != es["layers"]:
            problems.append("%s model.query_scale.layers: got %r, expected %r" % (where, gs["layers"], es["layers"]))
        for key in ("beta", "L0", "position", "value"):
            if not testlib.close(gs[key], es[key]):
                problems.append("%s model.query_scale.%s: got %r, expected %r" % (where, key, gs[key], es[key]))
    et, gt = exp["layer_types"], g["layer_types"]
    if (et is None) != (gt is None):
        problems.append("%s model.layer_types: got %r, expected %r" % (where, gt, et))
    elif et is not None:
        for e, h in zip(et, gt):
            if (h["name"] != e["name"] or h["layers"] != e["layers"] or h["rotary_dim"] != e["rotary_dim"]
                    or not testlib.close(h["base"], e["base"])):
                problems.append("%s layer type %s: got %r %r, expected %r %r" % (where, e["name"], h["base"], h["layers"], e["base"], e["layers"]))
        local = gt[1]["pairs"]
        if len(local) != len(et[1]["inv_freq"]) or any(not testlib.close(p["inv_freq"], x) for p, x in zip(local, et[1]["inv_freq"])):
            problems.append("%s sliding_attention inv_freq differs" % where)


def check_case(native, cfg, opts, exp, tmp, with_cli):
    problems = []
    layers = [("native", lambda: native.run(cfg, opts["seq_len"], opts["train_len"], opts["gap"]))]
    if with_cli:
        layers.append(("cli", lambda: run_cli(cfg, opts["seq_len"], opts["train_len"], opts["gap"], tmp)))
    for name, call in layers:
        got, err = call()
        if "error" in exp:
            if err is None or exp["error"] not in err:
                problems.append("%s: expected an error naming %s, got %r" % (name, exp["error"], err))
        elif err is not None:
            problems.append("%s: unexpected error %s" % (name, err))
        else:
            compare(got, exp, problems, name)
            compare_model(got, exp["model"], problems, name)
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--cases", default=os.path.join(ROOT, "build", "scaling_cases.json"))
    args = ap.parse_args()
    if args.seed is not None:
        os.environ["ROPE_TEST_SEED"] = str(args.seed)
    seed = testlib.seed("diff_scaling")
    rng = random.Random(seed)
    native = Native(LIB)
    passed = failed = 0
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.count):
            cfg, opts = random_config(rng)
            exp = expected(cfg, opts)
            native.text = None
            problems = check_case(native, cfg, opts, exp, tmp, with_cli=True)
            # The native bytes, for the wasm build to match bit for bit.
            cases.append({"config": cfg, "opts": opts, "expect": exp, "native_text": native.text})
            if problems:
                failed += 1
                print("FAIL case %d: %s" % (n, json.dumps({"config": cfg, "opts": opts})))
                for p in problems[:8]:
                    print("  " + p)
            else:
                passed += 1
        # The real configs of tests/data/configs/, at a length inside and beyond their L0.
        for name, cfg in real_configs():
            for seq in (0.0, 65536.0):
                opts = {"seq_len": seq, "train_len": None, "gap": None}
                exp = expected(cfg, opts)
                native.text = None
                problems = check_case(native, cfg, opts, exp, tmp, with_cli=True)
                cases.append({"config": cfg, "opts": opts, "expect": exp, "native_text": native.text,
                              "real": name})
                if problems:
                    failed += 1
                    print("FAIL real config %s at seq_len %g" % (name, seq))
                    for p in problems[:8]:
                        print("  " + p)
                else:
                    passed += 1
    os.makedirs(os.path.dirname(os.path.abspath(args.cases)), exist_ok=True)
    with open(args.cases, "w") as f:
        json.dump({"seed": seed, "cases": cases}, f)
    kinds = {}
    for c in cases:
        kinds[c["expect"].get("rope_type", "error")] = kinds.get(c["expect"].get("rope_type", "error"), 0) + 1
    print("diff_scaling: cases by type %s" % json.dumps(kinds, sort_keys=True))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
