#!/bin/sh
# Prints `ropescope verify`'s wall time on a 131072 x 128 float32 cos/sin cache of a
# Llama 3.1-style config (goal: <= 1 s), matching, with sin negated (the diagnosis
# runs and names it) and with sin off by no known mistake (unexplained: every candidate tried;
# goal <= 2 s): the median of three runs of each.
#   sh tools/bench_verify.sh [path/to/ropescope] [python3 with numpy]
set -eu
ROPESCOPE=${1:-build/ropescope}
PY=${2:-/usr/bin/python3}
DIR=build/bench-verify
mkdir -p "$DIR"

"$PY" - "$DIR" <<'PYEOF'
import json, math, os, sys
import numpy as np
out = sys.argv[1]
cfg = {"hidden_size": 4096, "num_attention_heads": 32, "head_dim": 128, "rope_theta": 500000.0,
       "max_position_embeddings": 131072,
       "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                        "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}
json.dump(cfg, open(os.path.join(out, "config.json"), "w"))
d, l0 = 128, 8192.0
inv = []
for i in range(d // 2):
    x = 500000.0 ** (-2.0 * i / d)
    lam = 2 * math.pi / x
    if lam < l0 / 4:
        inv.append(x)
    elif lam > l0:
        inv.append(x / 8)
    else:
        s = (l0 / lam - 1) / 3
        inv.append((1 - s) * x / 8 + s * x)
inv = np.array(inv).astype(np.float32)
ang = np.arange(131072, dtype=np.float32)[:, None] * inv[None, :]
emb = np.concatenate([ang, ang], axis=1)
np.save(os.path.join(out, "cos.npy"), np.cos(emb.astype(np.float64)).astype(np.float32))
sin = np.sin(emb.astype(np.float64)).astype(np.float32)
np.save(os.path.join(out, "sin.npy"), sin)
np.save(os.path.join(out, "sin_flipped.npy"), -sin)
# No known mistake fits: every pair's sin scaled by its own random amount near 1 (the diagnosis
# tries every candidate on a sample of rows and names none: unexplained).
rng = np.random.default_rng(1)
np.save(os.path.join(out, "sin_unexplained.npy"),
        (sin * (1 + rng.uniform(0.01, 0.05, sin.shape[1]).astype(np.float32))).astype(np.float32))
PYEOF

# seconds SIN EXPECTED_EXIT: "wall cpu" seconds of one verify run (cpu: user + system, from
# GNU time when present; on a busy machine wall time is mostly waiting for a core).
seconds() {
    code=0
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f "%e %U %S" -o "$DIR/time.txt" "$ROPESCOPE" verify --config "$DIR/config.json" \
            --cos "$DIR/cos.npy" --sin "$DIR/$1" >/dev/null || code=$?
        [ "$code" = "$2" ] || { echo "bench_verify: exit $code, expected $2" >&2; exit 1; }
        tail -1 "$DIR/time.txt" | awk '{ printf "%.6f %.6f\n", $1, $2 + $3 }'
        return
    fi
    start=$(date +%s.%N)
    "$ROPESCOPE" verify --config "$DIR/config.json" --cos "$DIR/cos.npy" --sin "$DIR/$1" \
        >/dev/null || code=$?
    end=$(date +%s.%N)
    [ "$code" = "$2" ] || { echo "bench_verify: exit $code, expected $2" >&2; exit 1; }
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f nan\n", b - a }'
}

for spec in "sin.npy 0 match 1" "sin_flipped.npy 1 mismatch+diagnosis 1" "sin_unexplained.npy 1 unexplained 2"; do
    # shellcheck disable=SC2086 # four words on purpose
    set -- $spec
    median=$(for run in 1 2 3; do seconds "$1" "$2"; done | sort -n | sed -n 2p)
    awk -v wall="${median% *}" -v cpu="${median#* }" -v what="$3" -v goal="$4" -v load="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')" \
        'BEGIN { printf "verify: 131072 x 128 float32 cache, %s: %.3f s wall, %.3f s cpu (median of 3; goal <= %s s; load %s)\n", what, wall, cpu, goal, load }'
done
