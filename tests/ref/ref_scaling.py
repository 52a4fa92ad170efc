"""An independent reference for RoPE scaling (docs/SCALING.md), in plain float64
Python: shares nothing with the C core. Used by tests/diff/diff_scaling.py.

resolve(config, seq_len) applies the key table to a parsed config.json (the
valid cases; it raises RefError naming the key for the errors it predicts),
and figures(resolved, train_len, gap) computes every per-pair number.
"""
import math
import os
import sys

# The method names and which scale by a factor come from the methods' table
# (c_src/scaling/methods.c, read by tests/lib/methods_table.py): only the
# formulas below are this module's own.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import methods_table  # noqa: E402

TWO_PI = 2.0 * math.pi
YARN_DEFAULTS = {"beta_fast": 32.0, "beta_slow": 1.0, "mscale": 0.0, "mscale_all_dim": 0.0}


class RefError(Exception):
    """A config the key table refuses; .key names the key."""

    def __init__(self, key, text):
        super().__init__("%s: %s" % (key, text))
        self.key = key


def thetas(d, base, still=0):
    """inv_freq per pair; the last `still` pairs (proportional's) have frequency 0."""
    return [math.pow(base, -2.0 * i / d) if i < d // 2 - still else 0.0 for i in range(d // 2)]


def g(s, m):
    """YaRN's mscale: 1 for s <= 1, else 0.1 m ln s + 1."""
    return 1.0 if s <= 1 else 0.1 * m * math.log(s) + 1.0


def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# Model classes (docs/SCALING.md, "Model classes"): defaults of missing keys,
# in this module's own table. Fields: rope_theta, head_dim (None: hidden_size //
# heads), qk_rope_head_dim, hidden_size, heads, partial, interleaved pairs, the
# yarn softmax multiplier applied, NoPE interval, local (sliding-window) theta.
N = None
CLASSES = {
    "llama": (1e4, N, N, 4096, 32, N, False, False, N, N),
    "mistral": (1e4, N, N, 4096, 32, N, False, False, N, N),
    "ministral3": (N, N, N, N, N, N, False, False, N, N),
    "qwen2": (1e4, N, N, 4096, 32, N, False, False, N, N),
    "qwen3": (1e4, 128, N, 4096, 32, N, False, False, N, N),
    "qwen2_5_vl": (1e6, N, N, 8192, 64, N, False, False, N, N),
    "qwen2_5_vl_text": (1e6, N, N, 8192, 64, N, False, False, N, N),
    "gemma2": (1e4, 256, N, 2304, 8, N, False, False, N, N),
    "gemma3": (1e6, 256, N, 2304, 8, N, False, False, N, 1e4),
    "gemma3_text": (1e6, 256, N, 2304, 8, N, False, False, N, 1e4),
    "cohere": (5e5, N, N, 8192, 64, N, True, False, N, N),
    "smollm3": (2e6, N, N, 2048, 16, N, False, False, 4, N),
    "llama4": (5e5, 128, N, 5120, 40, N, True, False, 4, N),
    "llama4_text": (5e5, 128, N, 5120, 40, N, True, False, 4, N),
    "gpt_oss": (1.5e5, 64, N, 2880, 64, N, False, False, N, N),
    "deepseek_v2": (1e4, N, 64, 5120, 128, N, True, True, N, N),
    "deepseek_v3": (1e4, N, 64, 7168, 128, N, True, True, N, N),
    "kimi_k2": (1e4, N, 64, 7168, 128, N, True, True, N, N),
    "phi3": (1e4, N, N, 3072, 32, N, False, False, N, N),
    "gpt_neox": (1e4, N, N, 6144, 64, 0.25, False, False, N, N),
    "modernbert": (1.6e5, N, N, 768, 12, N, False, False, N, 1e4),
    "olmo2": (1e4, N, N, 4096, 32, N, False, False, N, N),
    "ernie4_5": (5e5, 128, N, 1024, 16, N, True, False, N, N),
    "glm": (1e4, 128, N, 4096, 32, 0.5, True, False, N, N),
    "stablelm": (1e4, N, N, 2560, 32, 0.25, False, False, N, N),
    "falcon": (1e4, N, N, 4544, 71, N, False, False, N, N),
    "exaone4": (1e4, N, N, 4096, 32, N, False, False, N, N),
    "gemma4": (N, N, N, N, N, N, False, False, N, N),
    "gemma4_text": (N, N, N, N, N, N, False, False, N, N),
}
# Classes whose full-attention layers take no RoPE while a sliding window is set
# (EXAONE 4's hybrid attention; its sliding_window defaults to 4096, its
# sliding_window_pattern to 4).
NOPE_FULL = {"exaone4"}
FIELDS = ("theta", "head", "qk", "hidden", "heads", "partial", "interleaved", "softmax", "nope", "local")
TEXT_KEYS = ("rope_theta", "partial_rotary_factor", "head_dim", "qk_rope_head_dim", "hidden_size",
             "num_attention_heads", "rope_scaling", "rope_parameters", "rotary_pct", "rotary_emb_base",
             "global_rope_theta")
NESTS = ("text_config", "llm_config", "language_config")
OLD_NAMES = dict(methods_table.ALIASES)


def text_model(config):
    """(the dict the rules read, its name or None, the model class row or None)."""
    nest = next((n for n in NESTS if isinstance(config.get(n), dict)), None)
    has_text = any(config.get(k) is not None for k in TEXT_KEYS)
    inner = config[nest] if nest and not has_text else config
    mt = inner.get("model_type") if isinstance(inner.get("model_type"), str) else config.get("model_type")
    row = CLASSES.get(mt) if isinstance(mt, str) else None
    return inner, (nest if inner is not config else None), mt, (dict(zip(FIELDS, row)) if row else None)


def first(config, *keys):
    for k in keys:
        if config.get(k) is not None:
            return config[k]
    return None


def resolve(config, seq_len=0.0):
    """The resolved description: a dict with type, d, base and the method's values."""
    top = config
    config, nest, model_type, k = text_model(top)
    k = k or {}
    block_name = "rope_parameters" if isinstance(config.get("rope_parameters"), dict) else "rope_scaling"
    block = config.get(block_name) or {}
    # transformers v5 keeps one block per layer type: full_attention is the main one.
    sliding = None
    if isinstance(block.get("full_attention"), dict) or isinstance(block.get("sliding_attention"), dict):
        sliding = block.get("sliding_attention")
        block = block.get("full_attention") or {}
    rope_type = block.get("rope_type", block.get("type")) if block else "default"
    if rope_type is None:
        raise RefError(block_name + ".rope_type", "missing")
    rope_type = OLD_NAMES.get(rope_type, rope_type)
    base = block.get("rope_theta", first(config, "rope_theta", "rotary_emb_base", "global_rope_theta"))
    if base is None:
        base = k.get("theta") or 10000.0
    prf = first(config, "partial_rotary_factor", "rotary_pct")
    if prf is None:
        prf = block.get("partial_rotary_factor", k.get("partial") or 1.0)
    head = config.get("qk_rope_head_dim")
    if head is None:
        head = config.get("head_dim")
    if head is None:
        head = k.get("qk") or k.get("head")
    if head is None:
        hidden = first(config, "hidden_size") or k.get("hidden")
        heads = first(config, "num_attention_heads") or k.get("heads")
        if hidden is None or heads is None:
            raise RefError("hidden_size" if hidden is None else "num_attention_heads", "missing")
        head = hidden // heads
    # Gemma 4: the full-attention heads are global_head_dim wide, the sliding ones head_dim.
    local_head = head
    if config.get("global_head_dim") is not None:
        head = config["global_head_dim"]
    # proportional keeps every pair of the head; only the first prf * head / 2 rotate.
    d = int(head) if rope_type == "proportional" else int(head * prf)
    if d % 2 or d < 2:
        raise RefError("partial_rotary_factor", "odd rotary dim %d" % d)
    still = 0
    if rope_type == "proportional":
        rotating = math.floor(prf * head / 2)
        if rotating < 1:
            raise RefError("partial_rotary_factor", "no rotating pair")
        still = d // 2 - rotating
    # With global_head_dim the sliding layers keep head_dim, and their table pairs it too: even.
    if config.get("global_head_dim") is not None and (local_head < 2 or local_head != int(local_head) or int(local_head) % 2):
        raise RefError("head_dim", "the sliding layers' head_dim %s is not even" % local_head)
    local_d = int(local_head) if config.get("global_head_dim") is not None else d
    if rope_type in ("ntk", "dynamic") and d == 2:
        # The NTK-aware base grows as factor^(d/(d-2)): no value at d = 2.
        raise RefError(block_name, "rope_type %s at rotary dim 2" % rope_type)
    max_pos = config.get("max_position_embeddings")
    l0 = config.get("original_max_position_embeddings", block.get("original_max_position_embeddings"))
    r = {"type": rope_type, "d": d, "base": float(base), "seq_len": seq_len, "max": max_pos,
         "l0": l0, "factor": block.get("factor"), "nest": nest, "model_type": model_type, "class": k,
         "config": config, "block": block, "sliding": sliding, "still": still, "local_d": local_d}
    if rope_type == "proportional" and r["factor"] is None:
        r["factor"] = 1.0
    if rope_type == "yarn":
        for k, v in YARN_DEFAULTS.items():
            r[k] = block.get(k, v)
        r["truncate"] = block.get("truncate", True)
        r["attention_factor"] = block.get("attention_factor")
        if r["l0"] is None:
            r["l0"] = max_pos
    elif rope_type == "longrope":
        if r["l0"] is None:
            r["l0"] = max_pos
        if r["factor"] is None:
            r["factor"] = max_pos / r["l0"]
        r["attention_factor"] = block.get("attention_factor")
        r["short_factor"] = block["short_factor"]
        r["long_factor"] = block["long_factor"]
        for name in ("short_factor", "long_factor"):
            if len(block[name]) < d // 2:
                raise RefError(block_name + "." + name, "too few entries for %d pairs" % (d // 2))
    elif rope_type == "llama3":
        r["low"] = block["low_freq_factor"]
        r["high"] = block["high_freq_factor"]
    elif rope_type == "base_change":
        r["new_base"] = block["new_rope_theta"]
    return r


def yarn_range(r):
    d, base, l0 = r["d"], r["base"], r["l0"]

    def cd(turns):
        return d * math.log(l0 / (TWO_PI * turns)) / (2.0 * math.log(base))

    lo, hi = cd(r["beta_fast"]), cd(r["beta_slow"])
    if r["truncate"]:
        lo, hi = math.floor(lo), math.ceil(hi)
    lo, hi = max(lo, 0), min(hi, d - 1)
    if lo == hi:
        hi += 0.001
    return float(lo), float(hi)


def scaled(r):
    """(theta', band) per pair and any figures the method adds (yarn's range)."""
    d, base, t = r["d"], r["base"], r["type"]
    th = thetas(d, base, r["still"])
    extra = {}
    if t == "proportional":
        extra["rotating_pairs"] = d // 2 - r["still"]
        extra["still_pairs"] = r["still"]
        bands = ["still" if x == 0 else "keep" if r["factor"] == 1 else "divide" for x in th]
        return [x / r["factor"] for x in th], bands, extra
    if t == "default":
        return th[:], ["keep"] * len(th), extra
    if t == "linear":
        return [x / r["factor"] for x in th], ["divide"] * len(th), extra
    if t in ("ntk", "dynamic", "base_change"):
        if t == "base_change":
            new = r["new_base"]
        elif t == "ntk":
            new = base * r["factor"] ** (d / (d - 2))
        else:
            s = max(r["seq_len"], r["max"])
            new = base * (r["factor"] * s / r["max"] - (r["factor"] - 1)) ** (d / (d - 2))
        extra["base_used"] = new
        return thetas(d, new), ["ratio"] * len(th), extra
    if t == "longrope":
        lst = r["long_factor"] if r["seq_len"] > r["l0"] else r["short_factor"]
        return [x / lst[i] for i, x in enumerate(th)], ["ratio"] * len(th), extra
    if t == "yarn":
        lo, hi = yarn_range(r)
        extra["correction_range"] = [lo, hi]
        out, bands = [], []
        for i, x in enumerate(th):
            ramp = min(max((i - lo) / (hi - lo), 0.0), 1.0)
            out.append(x * (1 - ramp) + (x / r["factor"]) * ramp)
            bands.append("keep" if ramp == 0 else "divide" if ramp == 1 else "ramp")
        return out, bands, extra
    if t == "llama3":
        l0, f, low, high = r["l0"], r["factor"], r["low"], r["high"]
        out, bands = [], []
        for x in th:
            lam = TWO_PI / x
            if lam < l0 / high:
                out.append(x)
                bands.append("keep")
            elif lam > l0 / low:
                out.append(x / f)
                bands.append("divide")
            else:
                s = (l0 / lam - low) / (high - low)
                out.append((1 - s) * x / f + s * x)
                bands.append("ramp")
        return out, bands, extra
    raise RefError("rope_type", "unknown %r" % t)


def factors(r):
    """(attention_factor, softmax multiplier)."""
    if r["type"] == "yarn":
        f, ms, mad = r["factor"], r["mscale"], r["mscale_all_dim"]
        if r["attention_factor"] is not None:
            att = r["attention_factor"]
        elif ms and mad:
            att = g(f, ms) / g(f, mad)
        else:
            att = g(f, 1.0)
        applies = not r["class"] or r["class"]["softmax"]
        return att, (g(f, mad) ** 2 if mad and applies else 1.0)
    if r["type"] == "longrope":
        if r["attention_factor"] is not None:
            return r["attention_factor"], 1.0
        f = r["factor"]
        return (1.0 if f <= 1 else math.sqrt(1 + math.log(f) / math.log(r["l0"]))), 1.0
    return 1.0, 1.0


def training_range(r, th_scaled, train_len, gap):
    """Per pair (trained angle, gap angle, status) and the counts."""
    rows, counts = [], {"covered": 0, "inside": 0, "unseen": 0}
    for x, xs in zip(thetas(r["d"], r["base"], r["still"]), th_scaled):
        trained, at_gap = train_len * x, gap * xs
        status = "covered" if trained >= TWO_PI else "unseen" if at_gap > trained else "inside"
        counts[status] += 1
        rows.append((trained, at_gap, status))
    return rows, counts


def figures(r, train_len=None, gap=None):
    """Everything `ropescope scaling --format json` states, as plain values."""
    th = thetas(r["d"], r["base"], r["still"])
    sc, bands, extra = scaled(r)
    att, soft = factors(r)
    out = {
        "rope_type": r["type"], "rotary_dim": r["d"], "base": r["base"],
        "factor": None if r["type"] in methods_table.WITHOUT_FACTOR else float(r["factor"]),
        "attention_factor": att, "softmax_multiplier": soft, "extra": extra,
        # A still pair: no wavelength and no ratio (JSON null).
        "pairs": [{"i": i, "wavelength": TWO_PI / th[i] if th[i] else None, "inv_freq": th[i],
                   "inv_freq_scaled": sc[i], "ratio": sc[i] / th[i] if th[i] else None, "band": bands[i]}
                  for i in range(len(th))],
    }
    names = ("keep", "ramp", "divide", "ratio") + (("still",) if r["type"] == "proportional" else ())
    out["bands"] = {b: bands.count(b) for b in names}
    out["model"] = model_figures(r)
    out["resolved"] = extra
    if train_len is not None:
        rows, counts = training_range(r, sc, train_len, gap)
        out["range"] = dict(counts, critical_dimension=2 * counts["covered"],
                            pairs=[{"i": i, "trained_angle": a, "gap_angle": b, "status": s}
                                   for i, (a, b, s) in enumerate(rows)])
    return out


CLASS_LAYERS = {"gemma3": 26, "gemma3_text": 26, "modernbert": 22}


def model_figures(r):
    """The model part: level read, layout, layer types, NoPE layers, query scales."""
    c, k, block = r["config"], r["class"], r["block"]
    if c.get("rope_interleave") is not None:
        layout = "interleaved" if c["rope_interleave"] else "rotate_half"
    else:
        layout = "interleaved" if k and k["interleaved"] else "rotate_half"
    n = c.get("num_hidden_layers") or 0
    local = first(c, "rope_local_base_freq", "local_rope_theta")
    if local is None and r["sliding"]:
        local = r["sliding"].get("rope_theta")
    if local is None and k:
        local = k["local"]
    kinds = c.get("layer_types")
    kinds = kinds if isinstance(kinds, list) and kinds and all(isinstance(x, str) for x in kinds) else None
    if local is not None and kinds:
        n = n or len(kinds)
    if local is not None and not n:
        # transformers' class default num_hidden_layers; another class's layers are not listed.
        n = CLASS_LAYERS.get(r["model_type"], 0)
    layer_types = None
    if local is not None:
        if kinds:
            full = [i for i in range(n) if kinds[i] != "sliding_attention"]
        elif r["model_type"] == "modernbert" or c.get("local_rope_theta") is not None:
            every = c.get("global_attn_every_n_layers") or 3
            full = [i for i in range(n) if i % every == 0]
        else:
            every = c.get("sliding_window_pattern") or 6
            full = [i for i in range(n) if (i + 1) % every == 0]
        layer_types = [{"name": "full_attention", "base": r["base"], "rotary_dim": r["d"], "layers": full},
                       {"name": "sliding_attention", "base": float(local),
                        "layers": [i for i in range(n) if i not in full],
                        "rotary_dim": r["local_d"], "inv_freq": thetas(r["local_d"], float(local))}]
    flags = c.get("no_rope_layers")
    if flags:
        n = n or len(flags)
        nope = [i for i in range(n) if flags[i] == 0]
    elif k and r["model_type"] in NOPE_FULL:
        names = c.get("layer_types")
        pattern = c.get("sliding_window_pattern")
        if "sliding_window" in c and c["sliding_window"] is None:
            nope = []
        elif isinstance(names, list) and names:
            n = n or len(names)
            nope = [i for i in range(n) if names[i] == "full_attention"]
        elif isinstance(pattern, str):
            nope = []
        else:
            every = pattern or 4
            nope = [i for i in range(n) if (i + 1) % every == 0]
    else:
        every = c.get("no_rope_layer_interval") or (k and k["nope"])
        nope = [i for i in range(n) if (i + 1) % every == 0] if every and n else []
    if layer_types:
        for t in layer_types:
            t["layers"] = [i for i in t["layers"] if i not in nope]
    beta = block.get("llama_4_scaling_beta")
    scale = None
    if beta is not None:
        l0 = r["l0"] if r["l0"] is not None else r["max"]
        pos = r["seq_len"] - 1 if r["seq_len"] >= 1 else l0
        scale = {"beta": beta, "L0": l0, "position": pos, "layers": "all",
                 "value": 1 + beta * math.log(1 + math.floor(pos / l0))}
    else:
        tuning = c.get("attn_temperature_tuning")
        if tuning is None:
            tuning = str(r["model_type"]).startswith("llama4") and r["model_type"] in CLASSES
        if tuning:
            beta = c.get("attn_scale", 0.1)
            l0 = c.get("floor_scale", 8192)
            pos = r["seq_len"] - 1 if r["seq_len"] >= 1 else l0
            scale = {"beta": beta, "L0": l0, "position": pos, "layers": "nope",
                     "value": 1 + beta * math.log(1 + math.floor((pos + 1) / l0))}
    return {"read_from": r["nest"] or "top level", "model_type": r["model_type"], "layout": layout,
            "num_hidden_layers": n or None, "nope_layers": nope, "layer_types": layer_types,
            "query_scale": scale, "query_pre_attn_scalar": c.get("query_pre_attn_scalar"),
            "mrope_section": block.get("mrope_section")}
