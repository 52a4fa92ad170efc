"""Reference for the page's precision and layout figures (c_src/port, docs/VERIFY.md, "Precision
and layout"), written from the docs with numpy alone and none of the C: numpy's own float32 and
float16 arithmetic, bfloat16 by cutting float32's bits, and the pairing layouts as a port writes
them (x * cos + rotate(x) * sin).

Reads a JSON list of calls on stdin, writes a JSON list of answers:
  {"kind": "precision", "theta": [...], "pos": p}
      -> {"f32", "bf16", "f16", "theta_bf16", "theta_f16"}: |angle - p * theta| per pair,
         null where the format overflowed
  {"kind": "layout", "q", "k", "theta", "layout", "gap", "start0", "step", "count"}
      -> {"same", "swapped", "table"}: the score of q at s + gap against k at s, per start s
  {"kind": "demo", "d": d} -> {"q", "k"}: docs/SPEC.md's demo vectors
Run with a Python that has numpy (Debian's /usr/bin/python3).
"""
import json
import sys

import numpy as np


def bf16(x):
    """float32 values rounded to bfloat16 (nearest, ties to even), as float32."""
    u = np.atleast_1d(np.asarray(x, dtype=np.float32)).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.astype(np.uint32).view(np.float32)


def precision(theta, p):
    theta = np.asarray(theta, dtype=np.float64)
    exact = p * theta
    t32 = theta.astype(np.float32)
    p32 = np.float32(p)
    with np.errstate(over="ignore", invalid="ignore"):
        angles = {
            # transformers' float32 path: theta, p and the product in float32
            "f32": p32 * t32,
            # bfloat16 throughout: the product of two bfloat16 values is exact in float32
            "bf16": bf16(bf16(p32) * bf16(t32)),
            # float16 throughout, in numpy's float16 arithmetic
            "f16": np.float16(p32) * t32.astype(np.float16),
            # inv_freq stored in a half type, the product in float32
            "theta_bf16": p32 * bf16(t32),
            "theta_f16": p32 * t32.astype(np.float16).astype(np.float32),
        }
    out = {}
    for name, a in angles.items():
        err = np.abs(np.asarray(a, dtype=np.float64) - exact)
        out[name] = [float(e) if np.isfinite(e) else None for e in err]
    return out


def rotate(x, theta, p, table, rotation):
    """x at position p: cos/sin of each dimension's angle from the table's layout, the
    dimensions paired by the rotation's layout (rotate_half or interleaved)."""
    n = len(theta)
    dims = np.arange(2 * n)
    pair = dims % n if table == "rotate_half" else dims // 2
    angle = p * theta[pair]
    if rotation == "rotate_half":
        turned = np.concatenate([-x[n:], x[:n]])
    else:
        turned = np.empty_like(x)
        turned[0::2] = -x[1::2]
        turned[1::2] = x[0::2]
    return x * np.cos(angle) + turned * np.sin(angle)


def layout(c):
    q, k, theta = (np.asarray(c[key], dtype=np.float64) for key in ("q", "k", "theta"))
    own = c["layout"]
    other = "interleaved" if own == "rotate_half" else "rotate_half"
    cases = {"same": (own, own), "swapped": (other, other), "table": (own, other)}
    starts = c["start0"] + np.arange(c["count"]) * c["step"]
    return {
        name: [float(rotate(q, theta, s + c["gap"], t, r) @ rotate(k, theta, s, t, r)) for s in starts]
        for name, (t, r) in cases.items()
    }


def demo(d):
    j = np.arange(d)
    return {"q": list(np.cos(0.7 * j + 0.3)), "k": list(np.sin(0.4 * j + 1.1))}


def answer(c):
    if c["kind"] == "precision":
        return precision(c["theta"], c["pos"])
    if c["kind"] == "layout":
        return layout(c)
    if c["kind"] == "demo":
        return demo(c["d"])
    raise ValueError(f"unknown kind {c['kind']!r}")


if __name__ == "__main__":
    json.dump([answer(c) for c in json.load(sys.stdin)], sys.stdout)
