"""Dump files written byte by byte for `ropescope verify`'s readers (docs/VERIFY.md, "Inputs" and
"Limits"): the hostile ones (a zip64 offset near 2^64, fractional safetensors sizes) and the odd but
valid ones (Fortran order, a byte order mark, a text that ends where a page ends).
tests/cli/test_verify.py runs them; `python3 tests/cli/crafted.py` writes the small hostile ones,
and a valid seed of each format and dtype, into tests/fuzz/verify-corpus, where the verify fuzzer
replays and mutates them."""
import io
import json
import os
import struct
import sys
import zlib

import numpy as np


def npy_bytes(a, fortran=False):
    """np.save's bytes; fortran: the array stored in Fortran order, as np.save writes an
    F-contiguous array."""
    b = io.BytesIO()
    np.save(b, np.asfortranarray(a) if fortran else np.ascontiguousarray(a))
    return b.getvalue()


def npz_bytes(members, local_offsets=None):
    """A stored zip of .npy members, as np.savez writes them (a zip64 extra field in each local
    header); local_offsets: a member's local header offset written into its directory entry's
    zip64 field instead of the true one."""
    local, directory = b"", b""
    for name, a in members.items():
        data, fname = npy_bytes(a), (name + ".npy").encode()
        at = len(local)
        extra = struct.pack("<HHQQ", 1, 16, len(data), len(data))
        crc = zlib.crc32(data)
        local += struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 0, 0, 0, crc, 0xFFFFFFFF, 0xFFFFFFFF,
                             len(fname), len(extra)) + fname + extra + data
        offset = (local_offsets or {}).get(name, at)
        cd_extra = struct.pack("<HHQ", 1, 8, offset)
        directory += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 0, 0, 0, crc, len(data),
                                 len(data), len(fname), len(cd_extra), 0, 0, 0, 0, 0xFFFFFFFF) \
            + fname + cd_extra
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(directory),
                      len(local), 0)
    return local + directory + end


def safetensors_raw(header, data):
    """A safetensors file of the given header (a dict) and data bytes."""
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + data


def text_to_page(rows, page=4096):
    """CSV rows padded by a leading comment so the file is a whole number of pages long and its
    last byte is a digit (no newline): a reader that parses in place reads past the end."""
    body = "\n".join(",".join(repr(float(v)) for v in row) for row in rows)
    assert body[-1].isdigit()
    pad = -(len(body) + 2) % page
    return ("#" + "x" * pad + "\n" + body).encode()


def hostile(good):
    """name -> bytes of each small hostile file, from a good float32 table."""
    n = good.shape[1]
    raw = good[:1].astype("<f4").tobytes()
    return {
        "zip64-offset.npz": npz_bytes({"cos": good[:2], "sin": good[:2]},
                                      {"cos": 2**64 - 16, "sin": 2**64 - 16}),
        "fraction-shape.safetensors": safetensors_raw(
            {"cos": {"dtype": "F32", "shape": [1, n + 0.5], "data_offsets": [0, len(raw)]}}, raw),
        "fraction-offsets.safetensors": safetensors_raw(
            {"cos": {"dtype": "F32", "shape": [1, n], "data_offsets": [0.5, len(raw) + 0.5]}},
            raw + b"\0"),
        "negative-shape.safetensors": safetensors_raw(
            {"cos": {"dtype": "F32", "shape": [-1, n], "data_offsets": [0, len(raw)]}}, raw),
        "text-to-page.csv": text_to_page(good[:2]),
        "past-float32.csv": b"0.5 -0.416146815 -1.4551e299 0.25\n",
    }


def seeds(good):
    """name -> bytes of a small valid file of each format and dtype, for the fuzzer to start from."""
    g64, g16 = good.astype(np.float64), good.astype(np.float16)
    bf16 = (good.view(np.uint32) >> 16).astype("<u2").tobytes()
    raw = {"F64": g64.astype("<f8").tobytes(), "F32": good.astype("<f4").tobytes(),
           "F16": g16.astype("<f2").tobytes(), "BF16": bf16}
    out = {
        "seed-f8.npy": npy_bytes(g64), "seed-f2.npy": npy_bytes(g16),
        "seed-fortran.npy": npy_bytes(good, True), "seed-neox.npy": npy_bytes(good[:, None, None, :]),
        "seed-zip64.npz": npz_bytes({"cos": good, "sin": -good}),
        "seed-object.json": json.dumps({"cos": good.tolist(), "sin": good.tolist()}).encode(),
        "seed-bom.csv": b"\xef\xbb\xbf" + "\n".join(" ".join("%.9g" % v for v in r) for r in good).encode(),
    }
    for dt, data in raw.items():
        header = {"__metadata__": {"format": "pt"},
                  "cos": {"dtype": dt, "shape": list(good.shape), "data_offsets": [0, len(data)]},
                  "sin": {"dtype": dt, "shape": list(good.shape), "data_offsets": [0, len(data)]}}
        out["seed-%s.safetensors" % dt.lower()] = safetensors_raw(header, data)
    return out


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "verify-corpus")
    good = np.cos(np.arange(16, dtype=np.float32).reshape(2, 8))
    files = dict(hostile(good), **seeds(good))
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print("wrote %d files into %s" % (len(files), os.path.normpath(out)))


if __name__ == "__main__":
    sys.exit(main())
