#!/bin/sh
# Prints the CLI's scan rate (CSV rows per second, output to /dev/null) at
# dimensions 64 and 1024: the median of three runs of each.
#   sh tools/bench_scan.sh [path/to/ropescope]
set -eu
ROPESCOPE=${1:-build/ropescope}

# seconds ROWS DIM: wall time of one scan of ROWS rows.
seconds() {
    start=$(date +%s.%N)
    "$ROPESCOPE" scan --dim "$2" --from 0 --to "$(($1 - 1))" >/dev/null
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f\n", b - a }'
}

for spec in "64 100000" "1024 8000"; do
    # shellcheck disable=SC2086 # two words on purpose
    set -- $spec
    median=$(for run in 1 2 3; do seconds "$2" "$1"; done | sort -n | sed -n 2p)
    awk -v d="$1" -v n="$2" -v t="$median" \
        'BEGIN { printf "scan: dim %5d, %7d rows: %.3f s, %9.0f rows/s (median of 3)\n", d, n, t, n / t }'
done
