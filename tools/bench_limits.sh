#!/bin/sh
# Prints how long the slowest call allowed by ROPE_MAX_WORK takes: every
# batch entry point at dim 4096 x (ROPE_MAX_WORK / 4096) (tools/bench_limits.c),
# then `ropescope report` with all three lists at the limit, in CPU seconds.
# docs/SPEC.md ("Limits") quotes the figures.
#   sh tools/bench_limits.sh [path/to/bench_limits] [path/to/ropescope]
set -eu
BENCH=${1:-build/bench_limits}
ROPESCOPE=${2:-build/ropescope}

echo "limits: load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
"$BENCH"
work=$(sed -n 's/^#define ROPE_MAX_WORK \([0-9]*\).*/\1/p' c_src/core/rope.h)
count=$((work / 4096))
list=$(awk -v n="$count" 'BEGIN { for (j = 0; j < n; j++) printf "%s%d", j ? "," : "", j * 3 + 1 }')
out=$(mktemp -d)
# CPU seconds (user + system), as bench_limits prints: the wall clock of a shared
# machine measures its load as much as the report.
/usr/bin/time -f '%U %S' -o "$out/time" \
    "$ROPESCOPE" report --dim 4096 --starts "$list" --deltas "$list" --norm-positions "$list" \
    --out "$out" >/dev/null
awk -v n="$count" '{ printf "limits: report --dim 4096 with %d starts, deltas and norm positions: %.3f s CPU\n", n, $1 + $2 }' "$out/time"
rm -rf "$out"
