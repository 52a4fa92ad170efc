#!/bin/sh
# Proves that tests/c/test_rope.c can fail: each of the common RoPE mistakes is
# planted in a copy of the core under build/mutants/<name>/, build/test_rope is
# built against the copy, and the tests must FAIL ("killed"). An edit whose sed
# pattern no longer matches the source stops the script ("did not apply"), so
# a change to c_src/ can never turn a mutant into a silent pass. The unmutated
# copy is built and run first: it must pass, or no "killed" would mean much.
#
# Run from the repository root: make test-mutants   (CC from the environment)
set -u

CC=${CC:-cc}
OUT=build/mutants
# The same sources and standard flags as the Makefile's build/test_rope: `make
# test-mutants` passes them (CORE_SRC, INC, STD, TEST_LDFLAGS), so the two never drift
# apart; warnings stay on, but not as errors.
if [ -z "${CORE_SRC:-}" ] || [ -z "${INC:-}" ]; then
    echo "mutants: run through 'make test-mutants' (CORE_SRC and INC come from the Makefile)" >&2
    exit 1
fi
: "${TEST_LDFLAGS:=-Wl,--wrap=malloc}"
: "${STD:=-std=c11 -D_POSIX_C_SOURCE=200809L}"
FLAGS="$STD -O2 -Wall -Wextra $INC"
TIMEOUT=
# One seed for the control and every mutant, so all runs see the same cases.
if [ -z "${ROPE_TEST_SEED:-}" ]; then
    ROPE_TEST_SEED=$(od -An -N4 -tu4 /dev/urandom 2>/dev/null | tr -d ' ')
    : "${ROPE_TEST_SEED:=$(date +%s)}"
fi
export ROPE_TEST_SEED
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout 60"

if [ ! -f tests/c/test_rope.c ] || [ ! -f c_src/core/rope.c ]; then
    echo "mutants: run from the repository root (tests/c/test_rope.c not found)" >&2
    exit 1
fi

passed=0
failed=0

# build_copy NAME: a fresh copy of every core source under $OUT/NAME.
build_copy() {
    dir=$OUT/$1
    rm -rf "$dir"
    mkdir -p "$dir" || exit 1
    for src in $CORE_SRC; do
        cp "$src" "$dir/" || exit 1
    done
}

# object DIR SRC: compile one C file to DIR/<name>.o.
object() {
    base=$(basename "$2" .c)
    # shellcheck disable=SC2086 # FLAGS is a word list
    $CC $FLAGS -c -o "$1/$base.o" "$2" >>"$1/build.log" 2>&1
}

# compile NAME: the test binary against the copy's sources. The test file and
# every source the mutation left alone reuse the control's objects.
compile() {
    dir=$OUT/$1
    : >"$dir/build.log"
    objs=$OUT/original/test_rope.o
    for src in $CORE_SRC; do
        file=$(basename "$src")
        if [ "$1" != original ] && cmp -s "$dir/$file" "$OUT/original/$file"; then
            objs="$objs $OUT/original/${file%.c}.o"
        else
            object "$dir" "$dir/$file" || return 1
            objs="$objs $dir/${file%.c}.o"
        fi
    done
    # shellcheck disable=SC2086 # objs is a word list
    # shellcheck disable=SC2086 # TEST_LDFLAGS is a word list
    $CC -o "$dir/test_rope" $objs $TEST_LDFLAGS -lcmocka -lm >>"$dir/build.log" 2>&1
}

# Unique names of the tests that failed, from cmocka's output.
failing_tests() {
    sed -n 's/^\[  FAILED  \] \([A-Za-z0-9_]*\)$/\1/p' "$1" | sort -u
}

# mutant NAME EDIT...: each EDIT is "file:sed-script", applied to the copy of
# the core source named <file> (its base name); every edit must change the file.
mutant() {
    name=$1
    shift
    dir=$OUT/$name
    build_copy "$name"
    for edit in "$@"; do
        file=${edit%%:*}
        script=${edit#*:}
        if [ ! -f "$dir/$file" ]; then
            echo "mutant $name: mutation did not apply: no core file $file"
            failed=$((failed + 1))
            return
        fi
        cp "$dir/$file" "$dir/$file.before"
        sed -e "$script" "$dir/$file.before" >"$dir/$file" || {
            echo "mutant $name: mutation did not apply: sed failed on $file: $script"
            failed=$((failed + 1))
            return
        }
        if cmp -s "$dir/$file.before" "$dir/$file"; then
            echo "mutant $name: mutation did not apply: $file unchanged by: $script"
            failed=$((failed + 1))
            return
        fi
        rm -f "$dir/$file.before"
    done
    if ! compile "$name"; then
        echo "mutant $name: mutated copy did not compile (see $dir/build.log)"
        failed=$((failed + 1))
        return
    fi
    if $TIMEOUT "$dir/test_rope" >"$dir/test.log" 2>&1; then
        echo "mutant $name: SURVIVED (every test passed; see $dir/test.log)"
        failed=$((failed + 1))
        return
    fi
    killers=$(failing_tests "$dir/test.log")
    count=$(printf '%s\n' "$killers" | grep -c .)
    first=$(printf '%s\n' "$killers" | head -n 1)
    if [ "$count" -eq 0 ]; then
        # A crash outside any test also fails the run, but say so.
        echo "mutant $name: killed (the test program failed outside a test; see $dir/test.log)"
    else
        echo "mutant $name: killed ($count failing tests, e.g. $first)"
    fi
    passed=$((passed + 1))
}

# The control: the unmutated copy must build and pass.
build_copy original
: >"$OUT/original/build.log"
if ! object "$OUT/original" tests/c/test_rope.c || ! compile original; then
    echo "mutants: the unmutated core did not compile with the tests (see $OUT/original/build.log)"
    exit 1
fi
if ! $TIMEOUT "$OUT/original/test_rope" >"$OUT/original/test.log" 2>&1; then
    echo "mutants: the unmutated core fails its tests (see $OUT/original/test.log)"
    exit 1
fi
echo "control original: passes ($(sed -n 's/^\(ROPE_TEST_SEED=[0-9]*\)$/\1/p' "$OUT/original/test.log"))"

# Pair i must turn by pos * theta_i; the mistake takes theta of dimension j = 2i
# (exponent 4i/d), and sin_pos's exponent 2j/d instead of 2(j//2)/d.
mutant angle_per_dimension \
    'rope.c:/^int rope_apply_rope(/,/^}/s|rope_theta(i, d, base)|rope_theta(2 * i, d, base)|' \
    'rope.c:/^static double rotated_sum(/,/^}/s|rope_theta(i, nq, base)|rope_theta(2 * i, nq, base)|' \
    'batch.c:/^int rope_offset_sweep(/,/^}/s|rope_theta(i, nq, base)|rope_theta(2 * i, nq, base)|' \
    'batch.c:/^int rope_offset_scan(/,/^}/s|rope_theta(i, nq, base)|rope_theta(2 * i, nq, base)|' \
    'rope.c:/^double rope_sin_pos_angle(/,/^}/s|(double)(2 \* (j / 2))|(double)(2 * j)|'

# Every pair turns by the same angle (theta_0 = 1 for all).
mutant one_angle_for_all_pairs \
    'rope.c:/^int rope_apply_rope(/,/^}/s|rope_theta(i, d, base)|rope_theta(0, d, base)|' \
    'rope.c:/^static double rotated_sum(/,/^}/s|rope_theta(i, nq, base)|rope_theta(0, nq, base)|' \
    'batch.c:/^int rope_offset_sweep(/,/^}/s|rope_theta(i, nq, base)|rope_theta(0, nq, base)|' \
    'batch.c:/^int rope_offset_scan(/,/^}/s|rope_theta(i, nq, base)|rope_theta(0, nq, base)|'

# Rotation by -angle: the sine changes sign (the sweep's additive part, which
# uses the same sines as sin_pos values, is left alone).
mutant clockwise_rotation \
    'rope.c:/^int rope_rotate_pair(/,/^}/s|rope_sincos(angle, &s, &c);|& s = -s;|' \
    'rope.c:/^int rope_apply_rope(/,/^}/s|rope_sincos(a, &s, &c);|& s = -s;|' \
    'rope.c:/^static double rotated_sum(/,/^}/s|rope_sincos(am, &sm, &cm);|& sm = -sm;|' \
    'rope.c:/^static double rotated_sum(/,/^}/s|rope_sincos(an, &sn, &cn);|& sn = -sn;|' \
    'batch.c:s|double rq0 = q0 \* cm - q1 \* sm, rq1 = q0 \* sm + q1 \* cm;|double rq0 = q0 * cm + q1 * sm, rq1 = -q0 * sm + q1 * cm;|' \
    'batch.c:s|double rk0 = k0 \* cn - k1 \* sn, rk1 = k0 \* sn + k1 \* cn;|double rk0 = k0 * cn + k1 * sn, rk1 = -k0 * sn + k1 * cn;|'

# The score rotates the query but leaves the key where it is.
mutant query_only_rotated \
    'rope.c:/^static double rotated_sum(/,/^}/s|rope_sincos(an, &sn, &cn);|(void)an; sn = 0.0; cn = 1.0;|' \
    'batch.c:s|double rk0 = k0 \* cn - k1 \* sn, rk1 = k0 \* sn + k1 \* cn;|double rk0 = k0, rk1 = k1;|' \
    'batch.c:/^static void scan_block(/,/^}/s|double cn = kc\[j - b\], sn = ks\[j - b\]|double cn = 1.0, sn = 0.0|'

# The additive score adds P[m] to the query only: (q + P[m]) . k.
mutant position_one_side \
    'rope.c:/^static double additive_sum(/,/^}/s|sum += (q\[j\] + pm) \* (k\[j\] + pn);|sum += (q[j] + pm) * k[j];|' \
    'batch.c:s|aa\[j\] += (q0 + sm) \* (k0 + sn) + (q1 + cm) \* (k1 + cn);|aa[j] += (q0 + sm) * k0 + (q1 + cm) * k1;|' \
    'batch.c:s|aa\[j\] += (ql + sm) \* (kl + sn);|aa[j] += (ql + sm) * kl;|'

# Turns reported in radians: the division by 2*pi is forgotten.
mutant turns_without_two_pi \
    'rope.c:/^int rope_turns(/,/^}/s| / ROPE_TWO_PI||' \
    'rope.c:/^static int count_slow(/,/^}/s| / ROPE_TWO_PI||' \
    'batch.c:/^int rope_slow_pairs_batch(/,/^}/s| / ROPE_TWO_PI||'

# apply_rope rotates the caller's vector in place as well as filling out.
mutant input_modified_in_place \
    'rope.c:/^int rope_apply_rope(/,/^}/s|out\[2 \* i + 1\] = x0 \* s + x1 \* c;|& ((double *)vec)[2 * i] = out[2 * i]; ((double *)vec)[2 * i + 1] = out[2 * i + 1];|'

# Honest limits: a base <= 1 (pairs that no longer slow down) let through.
mutant base_at_or_below_one_accepted \
    'check.c:/^int rope_check_base(/,/^}/s|base > 1.0|base > 0.0|'

# The far check on the position alone, ignoring the largest theta.
mutant far_check_without_theta \
    'check.c:/^int rope_check_angle(/,/^}/s|fabs(pos) \* theta_max|fabs(pos)|'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
