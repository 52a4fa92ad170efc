#!/bin/sh
# One libFuzzer run: run.sh TARGET SECONDS CORPUS... [-FLAG=VALUE...]
# build/TARGET for SECONDS under ASan + UBSan, seeded by ROPE_TEST_SEED, reading the committed
# seeds in each CORPUS and growing its own corpus under build/fuzz-corpus/TARGET (never in the
# repository); what it finds is written as build/TARGET-crash-*. Prints one line: runs,
# execs/s and coverage (edges "cov", features "ft"); on a finding, the log's end and exit 1.
set -u
t=$1 seconds=$2
shift 2
mkdir -p "build/fuzz-corpus/$t"
if ! "build/$t" -max_total_time="$seconds" -seed="${ROPE_TEST_SEED:-0}" -print_final_stats=1 \
    -artifact_prefix="build/$t-" "build/fuzz-corpus/$t" "$@" >"build/$t.log" 2>&1; then
    tail -40 "build/$t.log"
    echo "$t: a finding (build/$t.log; reproduce with build/$t build/$t-crash-*)"
    exit 1
fi
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build/$t.log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "build/$t.log")
cov=$(grep -E '(DONE|pulse|NEW|REDUCE|INITED) +cov:' "build/$t.log" | tail -1 |
    sed -E 's/.*(cov: [0-9]+ ft: [0-9]+).*/\1/')
echo "$t: $runs runs in $seconds s, $rate execs/s, $cov, no findings"
