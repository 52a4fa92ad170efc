#!/bin/sh
# The worst accepted input of each of verify's and the config reader's size limits
# (docs/SPEC.md, "Input limits"; docs/VERIFY.md, "Limits"), run whole: CPU seconds (user +
# system: a shared machine's wall clock measures its load as much as the run) and the most
# resident memory, from GNU time. Goal: every accepted input under 2 s and 1 GB.
#   sh tools/bench_inputs.sh [path/to/ropescope] [python3 with numpy]
set -eu
ROPESCOPE=${1:-build/ropescope}
PY=${2:-/usr/bin/python3}
DIR=build/bench-inputs
mkdir -p "$DIR"

"$PY" - "$DIR" <<'PYEOF'
import json, os, sys
import numpy as np
out = sys.argv[1]
def path(name):
    return os.path.join(out, name)
def config(name, d):
    json.dump({"hidden_size": 32 * d, "num_attention_heads": 32, "head_dim": d,
               "rope_theta": 10000.0, "max_position_embeddings": 131072}, open(path(name), "w"))
def angles(rows, d, dt):
    inv = 1.0 / (10000.0 ** (np.arange(0, d, 2, dtype=np.int64).astype(dt) / d))
    ang = np.arange(rows, dtype=dt)[:, None] * inv.astype(dt)[None, :]
    return np.concatenate([ang, ang], axis=1)
# 2^25 values (131,072 x 256) as float32 .npy files: the binary limit's widest table.
config("config256.json", 256)
if not os.path.exists(path("sin32.npy")):
    emb = angles(131072, 256, np.float32)
    np.save(path("cos32.npy"), np.cos(emb))
    np.save(path("sin32.npy"), np.sin(emb))
# Text at its 256 MiB limit: float32 printed %.9g, 84,000 x 256 (268 MB), the most values a
# text file holds; float64 printed %.17g, 91,000 x 144 (268 MB), the slowest numbers to read.
if not os.path.exists(path("sin32.txt")):
    emb = angles(84000, 256, np.float32)
    np.savetxt(path("cos32.txt"), np.cos(emb), fmt="%.9g", delimiter=",")
    np.savetxt(path("sin32.txt"), np.sin(emb), fmt="%.9g", delimiter=",")
config("config144.json", 144)
if not os.path.exists(path("sin64.txt")):
    emb = angles(91000, 144, np.float64)
    np.savetxt(path("cos64.txt"), np.cos(emb), fmt="%.17g", delimiter=",")
    np.savetxt(path("sin64.txt"), np.sin(emb), fmt="%.17g", delimiter=",")
# A JSON dump at its limit: one list of zeros, 16 MiB.
if not os.path.exists(path("zeros.json")):
    n = (16 << 20) // 2 - 1
    with open(path("zeros.json"), "w") as f:
        f.write("[" + ",".join(["0"] * n) + "]")
# A config at its 1 MiB limit: a longrope config whose two lists hold the most pairs (32,768)
# and whose remaining bytes are unread keys.
if not os.path.exists(path("config_big.json")):
    pairs = 32768
    c = {"hidden_size": 65536, "num_attention_heads": 1, "head_dim": 65536,
         "rope_theta": 10000.0, "max_position_embeddings": 131072,
         "original_max_position_embeddings": 4096,
         "rope_scaling": {"rope_type": "longrope", "short_factor": [1.5] * pairs,
                          "long_factor": [2.5] * pairs}}
    text = json.dumps(c)
    filler = {}
    k = 0
    while len(text) < (1 << 20) - 64:
        filler["note_%d" % k] = "x" * 40
        k += 1
        c["notes"] = filler
        text = json.dumps(c)
    c["notes"] = dict(list(filler.items())[:-1])
    open(path("config_big.json"), "w").write(json.dumps(c))
PYEOF

# run WHAT EXPECTED_EXIT ARGS...: one line with the CPU time and resident memory.
run() {
    what=$1 want=$2
    shift 2
    code=0
    /usr/bin/time -f '%U %S %M' -o "$DIR/time.txt" "$ROPESCOPE" "$@" >/dev/null 2>"$DIR/err.txt" || code=$?
    [ "$code" = "$want" ] || { echo "bench_inputs: $what exited $code, expected $want" >&2; cat "$DIR/err.txt" >&2; exit 1; }
    tail -1 "$DIR/time.txt" | awk -v what="$what" \
        '{ printf "inputs: %s: %.2f s CPU, %.0f MB (goal: 2 s, 1 GB)\n", what, $1 + $2, $3 / 1000 }'
}

echo "inputs: load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
size() { wc -c <"$DIR/$1" | awk '{ printf "%.0f MB", $1 / 1e6 }'; }
run "verify, float32 text %.9g, 84000 x 256, cos and sin ($(size cos32.txt) each)" 0 \
    verify --config "$DIR/config256.json" --cos "$DIR/cos32.txt" --sin "$DIR/sin32.txt"
run "verify, float64 text %.17g, 91000 x 144, cos and sin ($(size cos64.txt) each)" 0 \
    verify --config "$DIR/config144.json" --cos "$DIR/cos64.txt" --sin "$DIR/sin64.txt"
run "verify, float32 .npy, 131072 x 256, cos and sin" 0 \
    verify --config "$DIR/config256.json" --cos "$DIR/cos32.npy" --sin "$DIR/sin32.npy"
run "verify, a 16 MiB JSON list of zeros as inv_freq (a mismatch: 8,388,607 pairs)" 1 \
    verify --config "$DIR/config256.json" --inv-freq "$DIR/zeros.json"
run "scaling, a 1 MiB longrope config with 32768 pairs" 0 \
    scaling --config "$DIR/config_big.json"
