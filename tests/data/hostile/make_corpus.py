#!/usr/bin/env python3
"""Writes the hostile config corpus beside this file: bad-*.json must be refused, ok-*.json
read, by the CLI and the page alike (tests/js/hostile.test.mjs). Run it again after adding a
case; the files are kept in git so that a reader sees each case as bytes."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
LLAMA = (b'{"head_dim": 128, "rope_theta": 500000.0, "max_position_embeddings": 131072, '
         b'"rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, '
         b'"high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}')
BASE = b'{"head_dim": 64, "rope_theta": 10000}'

BAD = {
    "trailing-garbage": BASE + b" garbage",
    "two-objects": BASE + BASE,
    "nul-after": BASE + b"\x00{}",
    "nul-as-space": b'{"head_dim":\x00 64}',
    "ctrl-01-as-space": b'{"head_dim": 64,\x01"rope_theta": 10000}',
    "form-feed-as-space": b'{"head_dim": 64,\x0c"rope_theta": 10000}',
    "leading-zero": b'{"head_dim": 0128}',
    "nul-escape-in-string": b'{"head_dim": 64, "rope_scaling": {"rope_type": "linear\\u0000xyz", "factor": 2}}',
    "invalid-utf8-key": b'{"\xff\xfe": 1, "head_dim": 64}',
    "invalid-utf8-value": b'{"head_dim": 64, "model_type": "ll\xc3ama"}',
    "overlong-utf8": b'{"head_dim": 64, "model_type": "\xc0\xaf"}',
    "utf8-surrogate": b'{"head_dim": 64, "model_type": "\xed\xa0\x80"}',
    "utf8-above-10ffff": b'{"head_dim": 64, "model_type": "\xf4\x90\x80\x80"}',
    "utf8-cut-at-end": b'{"head_dim": 64, "model_type": "\xe2\x82',
    "lone-high-surrogate": b'{"head_dim": 64, "model_type": "\\ud800"}',
    "lone-low-surrogate": b'{"head_dim": 64, "model_type": "\\udc00x"}',
    "duplicate-top-key": b'{"head_dim": 64, "head_dim": 64}',
    "duplicate-nested-key": b'{"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 2, "factor": 4}}',
    "nested-1001": b'{"head_dim": 64, "x": ' + b"[" * 1001 + b"]" * 1001 + b"}",
    "nested-65": b'{"head_dim": 64, "x": ' + b"[" * 65 + b"]" * 65 + b"}",
    "empty": b"",
    "blank": b" \n\t\r\n",
    "bom-only": b"\xef\xbb\xbf",
    "bom-twice": b"\xef\xbb\xbf\xef\xbb\xbf" + BASE,
    "bom-in-the-middle": b'{"head_dim": 64,\xef\xbb\xbf "rope_theta": 10000}',
    "top-list": b"[1, 2, 3]",
    "top-string": b'"config"',
    "top-number": b"64",
    "top-true": b"true",
    "top-null": b"null",
    "nan": b'{"head_dim": 64, "rope_theta": NaN}',
    "infinity": b'{"head_dim": 64, "rope_theta": Infinity}',
    "number-overflow": b'{"head_dim": 64, "rope_theta": 1e400}',
    "trailing-comma": b'{"head_dim": 64, "rope_theta": 10000,}',
    "comment": b'{"head_dim": 64 // the head\n}',
    "single-quotes": b"{'head_dim': 64}",
    "unquoted-key": b"{head_dim: 64}",
    "hex-number": b'{"head_dim": 0x40}',
    "plus-sign": b'{"head_dim": +64}',
    "bare-fraction": b'{"head_dim": 64, "rope_theta": .5e5}',
    "trailing-dot": b'{"head_dim": 64, "rope_theta": 10000.}',
    "bare-exponent": b'{"head_dim": 64, "rope_theta": 1e}',
    "raw-tab-in-string": b'{"head_dim": 64, "model_type": "a\tb"}',
    "raw-newline-in-string": b'{"head_dim": 64, "model_type": "a\nb"}',
    "bad-escape": b'{"head_dim": 64, "model_type": "\\x41"}',
    "cut-short": b'{"head_dim": 64, "rope_theta": 10000',
    "markup": b"<img src=x onerror=alert(1)>",
    "over-the-limit": b'{"head_dim": 64, "pad": "' + b"x" * (1 << 20) + b'"}',
    # Good JSON the reader refuses by its rules: the same words from both sides.
    "theta-as-text": b'{"head_dim": 64, "rope_theta": "10000"}',
    "theta-one": b'{"head_dim": 64, "rope_theta": 1}',
    "theta-below-one": b'{"head_dim": 64, "rope_theta": 0.5}',
    "both-blocks": b'{"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 2}, "rope_parameters": {"rope_type": "linear", "factor": 2}}',
}

OK = {
    "llama": LLAMA,
    "bom": b"\xef\xbb\xbf" + LLAMA,
    "crlf": LLAMA.replace(b", ", b",\r\n  ") + b"\r\n",
    "escaped-slash-and-unicode": b'{"head_dim": 64, "model_type": "a\\/b \\u00e9 \\ud83d\\ude00", "note": "caf\xc3\xa9"}',
    "big-integer": b'{"head_dim": 64, "rope_theta": 10000, "vocab_size": 123456789012345678901234567890}',
    "underflow-to-zero": b'{"head_dim": 64, "rope_theta": 10000, "initializer_range": 1e-400}',
    "upper-exponent": b'{"head_dim": 64, "rope_theta": 1E4}',
    "nested-64": b'{"head_dim": 64, "x": ' + b"[" * 63 + b"]" * 63 + b"}",
    "many-keys": b"{" + b", ".join(b'"k%d": %d' % (j, j) for j in range(5000)) + b', "head_dim": 64}',
    "long-key": b'{"' + b"k" * 10000 + b'": 1, "head_dim": 64}',
}


def main():
    for name in os.listdir(HERE):
        if name.endswith(".json"):
            os.remove(os.path.join(HERE, name))
    for prefix, cases in (("bad", BAD), ("ok", OK)):
        for name, data in cases.items():
            with open(os.path.join(HERE, "%s-%s.json" % (prefix, name)), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
