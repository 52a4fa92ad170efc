"""Writes RoPE dumps for `ropescope verify`, from docs/VERIFY.md, with numpy only (it shares
nothing with the C code; the scaled frequencies come from tests/ref/ref_scaling.py).

make_config(rng) draws a model config; dump(...) computes its inv_freq or cos/sin table as the
doc says an implementation must, with any of the doc's mistakes planted; write(...) stores it in
one of the file formats. tests/cli/test_verify.py drives it.
"""
import copy
import json
import math
import os
import struct
import sys
import zipfile

import numpy as np

# The folders beside this one that it imports from: tests/ref.
sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("ref",)]
import ref_scaling  # noqa: E402

NICE_BASES = [5000.0, 10000.0, 20000.0, 50000.0, 100000.0, 500000.0, 1000000.0, 2000000.0]


# ---- precisions ---------------------------------------------------------------------------

def bf16(x):
    """float32 -> bfloat16 (nearest, ties to even), returned as float32."""
    a = np.asarray(x, dtype=np.float32)
    u = a.view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.astype(np.uint32).view(np.float32)


def round_to(t, x):
    """x rounded to dtype t ('float64', 'float32', 'float16', 'bfloat16'), as float64."""
    if t == "float64":
        return np.asarray(x, dtype=np.float64)
    f = np.asarray(x, dtype=np.float64).astype(np.float32)
    if t == "float16":
        f = f.astype(np.float16).astype(np.float32)
    elif t == "bfloat16":
        f = bf16(f)
    return f.astype(np.float64)


# ---- configs ------------------------------------------------------------------------------

def make_config(rng, method):
    """A config of the given rope_type with random values; partial rotary sometimes."""
    head = int(rng.choice([64, 128]))
    cfg = {"hidden_size": head * 8, "num_attention_heads": 8, "head_dim": head,
           "rope_theta": float(rng.choice(NICE_BASES)), "max_position_embeddings": 4096}
    if method == "default":
        if rng.random() < 0.3:
            cfg["partial_rotary_factor"] = 0.5
        return cfg
    f = float(rng.choice([2.0, 4.0, 8.0]))
    if method == "linear":
        cfg["rope_scaling"] = {"rope_type": "linear", "factor": f}
    elif method == "dynamic":
        cfg["max_position_embeddings"] = 256
        cfg["rope_scaling"] = {"rope_type": "dynamic", "factor": f}
    elif method == "llama3":
        cfg["rope_theta"] = 500000.0
        cfg["max_position_embeddings"] = 8192 * int(f)
        cfg["rope_scaling"] = {"rope_type": "llama3", "factor": f, "low_freq_factor": 1.0,
                               "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}
    elif method == "yarn":
        l0 = int(rng.choice([2048, 4096]))
        cfg["max_position_embeddings"] = int(l0 * f * rng.choice([1, 2]))
        cfg["rope_scaling"] = {"rope_type": "yarn", "factor": f, "original_max_position_embeddings": l0}
    elif method == "longrope":
        n = head // 2
        cfg["max_position_embeddings"] = 131072
        cfg["original_max_position_embeddings"] = 4096
        short = 1.0 + rng.random(n) * 0.2
        cfg["rope_scaling"] = {"rope_type": "longrope", "short_factor": [float(x) for x in short],
                               "long_factor": [float(x) for x in short * (1.0 + rng.random(n) * 10)]}
    return cfg


def resolved(cfg, seq_len):
    r = ref_scaling.resolve(cfg, seq_len)
    th, _, _ = ref_scaling.scaled(r)
    af, _ = ref_scaling.factors(r)
    return r, np.array(th, dtype=np.float64), af


def thetas_of(r):
    th, _, _ = ref_scaling.scaled(r)
    return np.array(th, dtype=np.float64), ref_scaling.factors(r)[0]


# ---- the computation, with mistakes -------------------------------------------------------

def planted_frequencies(cfg, seq_len, codes, rng, notes):
    """theta and the attention factor for the config with the config-side mistakes applied."""
    r, th, af = resolved(cfg, seq_len)
    r = copy.deepcopy(r)
    if "scaling_not_applied" in codes:
        r["type"] = "default"
    if "scaling_wrong_method" in codes:
        other = "linear" if r["type"] != "linear" else "ntk"
        r["type"] = other
        notes["method"] = other
    if "wrong_band_bounds" in codes:
        if r["type"] == "llama3":
            r["low"], r["high"] = r["high"], r["low"]
        else:
            r["truncate"] = not r["truncate"]
    if "yarn_factor_from_positions" in codes:
        r["factor"] = r["max"] / r["l0"]
    if "longrope_wrong_factors" in codes:
        r["short_factor"], r["long_factor"] = r["long_factor"], r["short_factor"]
    if "wrong_rotary_dim" in codes:
        r["d"] = r["d"] - 32 if r["d"] > 32 else r["d"] + 32
    if "partial_rotary_ignored" in codes:
        r["d"] = cfg["head_dim"]
    if "wrong_base" in codes:
        choices = [b for b in NICE_BASES if b != r["base"]]
        r["base"] = float(rng.choice(choices))
        notes["base"] = r["base"]
    return thetas_of(r)


def angles(th, pos, dtype, low):
    """positions x pairs angles as the doc's computation at dtype; low: (t, theta_only) or None."""
    p = np.asarray(pos, dtype=np.float64)
    if low:
        t, theta_only = low
        if theta_only:
            tt = round_to(t, th)
            if dtype == "float64":
                return np.outer(p, tt)
            return (p.astype(np.float32)[:, None] * tt.astype(np.float32)[None, :]).astype(np.float64)
        return round_to(t, np.outer(round_to(t, p), round_to(t, th)))
    if dtype == "float64":
        return np.outer(p, th)
    return (p.astype(np.float32)[:, None] * th.astype(np.float32)[None, :]).astype(np.float64)


def store(x, dtype):
    """Values as the file's dtype holds them (cos/sin computed in float32, then cast)."""
    if dtype == "float64":
        return x.astype(np.float64)
    f = x.astype(np.float32)
    if dtype == "float16":
        return f.astype(np.float16)
    if dtype == "bfloat16":
        return bf16(f)  # written as BF16 by the safetensors writer
    return f


def dump(cfg, kind, dtype, rows, start, codes, rng, form="table"):
    """(arrays, notes): {'inv_freq': a} or {'cos': c, 'sin': s}, with codes planted; form other
    than "table" gives the table as a producer of one value per pair writes it (per_pair_form)."""
    notes = {}
    seq = start + rows if kind == "table" else 0
    th, af = planted_frequencies(cfg, seq, codes, rng, notes)
    native = "float64" if dtype == "float64" else "float32"
    if not codes and native == "float32" and "rope_scaling" not in cfg and rng.random() < 0.5:
        # As transformers computes it: pow and the division in float32 (a few ulps off).
        d = 2 * len(th)
        expo = np.arange(0, d, 2, dtype=np.int64).astype(np.float32) / np.float32(d)
        th = (np.float32(1.0) / (np.float32(cfg["rope_theta"]) ** expo)).astype(np.float64)
        notes["float32_pow"] = True
    low = None
    if "low_precision" in codes:
        # A precision below the stored one: an inv_freq in float16 can only hide bfloat16.
        t = "float32" if native == "float64" else str(rng.choice(["bfloat16", "float16"]))
        if kind == "inv" and dtype == "float16":
            t = "bfloat16"
        low = (t, kind == "inv" or bool(rng.random() < 0.3))
        notes["low"] = low
    if kind == "inv":
        v = round_to(low[0], th) if low else th
        return {"inv_freq": store(v, dtype)}, notes
    offset = 0
    if "position_offset" in codes:
        offset = int(rng.integers(1, 40))
        notes["offset"] = offset
    pos = np.arange(start, start + rows, dtype=np.float64) + offset
    a = angles(th, pos, dtype, low)
    amp = af
    if "attention_factor_missing" in codes:
        amp = 1.0
    if "attention_factor_twice" in codes:
        amp = af * af
    c, s = np.cos(a), np.sin(a)
    if native == "float32":
        c = (c.astype(np.float32) * np.float32(amp)).astype(np.float64)
        s = (s.astype(np.float32) * np.float32(amp)).astype(np.float64)
    else:
        c, s = c * amp, s * amp
    if "sign_flipped" in codes:
        s = -s
    if "cos_sin_swapped" in codes:
        c, s = s, c
    if form != "table":
        return per_pair_form(form, c, s, dtype), notes
    if "layout_interleaved" in codes:
        c, s = np.repeat(c, 2, axis=1), np.repeat(s, 2, axis=1)
    else:
        c, s = np.concatenate([c, c], axis=1), np.concatenate([s, s], axis=1)
    return {"cos": store(c, dtype), "sin": store(s, dtype)}, notes


def per_pair_form(form, c, s, dtype):
    """cos and sin of one column per pair (positions x pairs, float64 holding the computed values)
    stored as each producer stores them:
    - "pairs": a cos and a sin table of one column per pair;
    - "freqs_cis": Meta's precompute_freqs_cis, torch.polar(ones, freqs): complex64 (complex128
      for float64), or torch.view_as_real's [positions, pairs, 2] ("freqs_cis_real", and in a
      half dtype);
    - "cos_sin_cache": vLLM's _compute_cos_sin_cache, cat((cos, sin), -1) then cast;
    - "embed_positions": GPT-J's create_sinusoidal_positions, cat((sin, cos), 1)."""
    if form == "pairs":
        return {"cos": store(c, dtype), "sin": store(s, dtype)}
    if form in ("freqs_cis", "freqs_cis_real"):
        if form == "freqs_cis" and dtype in ("float32", "float64"):
            ct = np.complex64 if dtype == "float32" else np.complex128
            return {"freqs_cis": (store(c, dtype) + 1j * store(s, dtype)).astype(ct)}
        return {"freqs_cis": np.stack([store(c, dtype), store(s, dtype)], axis=-1)}
    if form == "cos_sin_cache":
        return {"cos_sin_cache": store(np.concatenate([c, s], axis=1), dtype)}
    if form == "embed_positions":
        return {"embed_positions": store(np.concatenate([s, c], axis=1), dtype)}
    raise ValueError(form)


# The CLI flag of a file holding one named array, by its name.
FLAG_OF = {"inv_freq": "--inv-freq", "cos": "--cos", "sin": "--sin", "freqs_cis": "--cache",
           "cos_sin_cache": "--cos-sin-cache", "embed_positions": "--embed-positions"}


# ---- file formats -------------------------------------------------------------------------

ST_DTYPE = {"float64": "F64", "float32": "F32", "float16": "F16", "bfloat16": "BF16"}


def safetensors_bytes(tensors, dtype, prefix=""):
    """The safetensors layout written by hand: header size, JSON header, raw little-endian data."""
    header, blobs, at = {"__metadata__": {"format": "pt"}}, [], 0
    for name, a in tensors.items():
        st = ST_DTYPE[dtype]
        if np.iscomplexobj(a):
            raw, st = np.ascontiguousarray(a).astype("<c8").tobytes(), "C64"
        elif dtype == "bfloat16":
            raw = (np.asarray(a, dtype=np.float32).view(np.uint32) >> 16).astype("<u2").tobytes()
        else:
            raw = np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes()
        header[prefix + name] = {"dtype": st, "shape": list(a.shape),
                                 "data_offsets": [at, at + len(raw)]}
        blobs.append(raw)
        at += len(raw)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def write(arrays, fmt, dtype, folder, stem, rng):
    """Writes the arrays in format fmt; returns the CLI's file flags."""
    path = os.path.join(folder, stem)
    if fmt == "npy":
        out = []
        for name, a in arrays.items():
            p = "%s.%s.npy" % (path, name)
            x = a[None, :, :] if a.ndim == 2 and rng.random() < 0.3 else a  # a leading 1 dim
            np.save(p, x)
            out += [FLAG_OF[name], p]
        return out
    if fmt in ("json", "csv"):
        out = []
        for name, a in arrays.items():
            p = "%s.%s.%s" % (path, name, fmt)
            x = a.astype(np.float64)
            with open(p, "w") as f:
                if fmt == "json":
                    json.dump(x.tolist(), f)
                else:
                    rows = x if x.ndim == 2 else x[None, :]
                    sep = str(rng.choice([",", " ", "\t"]))
                    for row in rows:
                        f.write(sep.join(repr(float(v)) for v in row) + "\n")
            out += [FLAG_OF[name], p]
        return out
    if fmt == "safetensors":
        p = path + ".safetensors"
        prefix = "model.rotary_emb." if rng.random() < 0.5 else ""
        with open(p, "wb") as f:
            f.write(safetensors_bytes(arrays, dtype, prefix))
        return ["--inv-freq", p] if "inv_freq" in arrays else ["--cache", p]
    if fmt == "npz":
        p = path + ".npz"
        np.savez(p, **arrays)
        return ["--cache", p]
    raise ValueError(fmt)


def write_config(cfg, folder, stem):
    p = os.path.join(folder, stem + ".config.json")
    with open(p, "w") as f:
        json.dump(cfg, f)
    return p


def zip_stored(path, members):
    """An npz written member by member (used for a compressed member in the bad-file table)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, a in members.items():
            import io
            b = io.BytesIO()
            np.save(b, a)
            z.writestr(name + ".npy", b.getvalue())
