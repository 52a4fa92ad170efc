/*
 * Unit tests of the ropescope core (c_src/core/rope.c) and report writer
 * (c_src/report/report.c) against docs/SPEC.md.
 *
 * - Every float comparison goes through is_close() / assert_close():
 *   docs/SPEC.md's tolerance abs(a - b) <= 1e-9 + 1e-6 * abs(b), never ==.
 * - Expected values come from the contract's formulas, written out again
 *   here (the ref_* functions), or from hand-worked cases, never from the
 *   function under test.
 * - Randomized tests draw from ROPE_TEST_SEED (a time-based seed when unset).
 *   The seed is printed first; repeat a run with
 *       ROPE_TEST_SEED=<n> build/test_rope
 * - tests/c/mutants.sh plants the common RoPE mistakes in a copy of the core
 *   and requires this file to fail on each; the comments marked
 *   "Catches mistake:" say which tests do it.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "core/rope.h"
#include "explain/explain.h"
#include "report/report.h"
#include "testlib.h"

#define TEST_PI 3.14159265358979323846
#define TEST_MAXD 256
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define TEST_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TEST_PRINTF(f, a)
#endif

/* ------------------------------------------------------------------------ */
/* Tolerance, return codes and failure context                              */
/* ------------------------------------------------------------------------ */

/* What the current check is about (a random case, a bad argument); printed
 * with any failure so that it can be reproduced. */
static char case_note[320];

static void note(const char *fmt, ...) TEST_PRINTF(1, 2);
static void note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(case_note, sizeof case_note, fmt, ap);
    va_end(ap);
}

/* docs/SPEC.md, "Accuracy": the one float comparison used by every test. */
static int is_close(double a, double b)
{
    return testlib_close(a, b);
}

#define assert_close(a, b) close_or_fail((a), (b), #a, #b, __FILE__, __LINE__)
static void close_or_fail(double a, double b, const char *ea, const char *eb, const char *file,
                          int line)
{
    if (is_close(a, b)) return;
    print_error("%s = %.17g, expected %s = %.17g (tolerance 1e-9 + 1e-6*|expected|)%s%s\n", ea, a,
                eb, b, case_note[0] ? "; case: " : "", case_note);
    _fail(file, line);
}

#define assert_vec_close(a, b, n) vec_close_or_fail((a), (b), (n), #a, #b, __FILE__, __LINE__)
static void vec_close_or_fail(const double *a, const double *b, int n, const char *ea,
                              const char *eb, const char *file, int line)
{
    for (int j = 0; j < n; j++) {
        if (is_close(a[j], b[j])) continue;
        print_error("%s[%d] = %.17g, expected %s[%d] = %.17g (tolerance 1e-9 + 1e-6*|expected|)"
                    "%s%s\n",
                    ea, j, a[j], eb, j, b[j], case_note[0] ? "; case: " : "", case_note);
        _fail(file, line);
    }
}

#define assert_code(call, want) code_or_fail((call), (want), #call, __FILE__, __LINE__)
static void code_or_fail(int got, int want, const char *what, const char *file, int line)
{
    if (got == want) return;
    print_error("%s returned %d (%s), expected %d (%s)%s%s\n", what, got, rope_strerror(got), want,
                rope_strerror(want), case_note[0] ? "; case: " : "", case_note);
    _fail(file, line);
}

/* Every test is <unit>_should_<behaviour>; the wrapper clears the context. */
#define TEST(name)                                                                                 \
    static void name##_body(void);                                                                 \
    static void name(void **state)                                                                 \
    {                                                                                              \
        (void)state;                                                                               \
        case_note[0] = '\0';                                                                       \
        name##_body();                                                                             \
    }                                                                                              \
    static void name##_body(void)

static void rng_vector(double *v, int n)
{
    for (int j = 0; j < n; j++) v[j] = rng_uniform(-1.0, 1.0);
}

/* ------------------------------------------------------------------------ */
/* docs/SPEC.md's formulas, written out plainly                              */
/* ------------------------------------------------------------------------ */

static double ref_theta(int i, int d, double base)
{
    return pow(base, -2.0 * i / d);
}

static double ref_dot(const double *a, const double *b, int n)
{
    double sum = 0.0;
    for (int j = 0; j < n; j++) sum += a[j] * b[j];
    return sum;
}

static double ref_norm(const double *a, int n)
{
    return sqrt(ref_dot(a, a, n));
}

static void ref_apply_rope(const double *v, int d, double pos, double base, double *out)
{
    for (int j = 0; j < d; j++) out[j] = v[j];
    for (int i = 0; i < d / 2; i++) {
        double a = pos * ref_theta(i, d, base);
        out[2 * i] = v[2 * i] * cos(a) - v[2 * i + 1] * sin(a);
        out[2 * i + 1] = v[2 * i] * sin(a) + v[2 * i + 1] * cos(a);
    }
}

static void ref_sin_pos(double pos, int d, double base, double *out)
{
    for (int j = 0; j < d; j++) {
        double a = pos / pow(base, 2.0 * (j / 2) / d);
        out[j] = (j % 2 == 0) ? sin(a) : cos(a);
    }
}

static double ref_rope_score(const double *q, const double *k, int d, double m, double n,
                             double base)
{
    double rq[TEST_MAXD], rk[TEST_MAXD];
    assert_true(d <= TEST_MAXD);
    ref_apply_rope(q, d, m, base, rq);
    ref_apply_rope(k, d, n, base, rk);
    return ref_dot(rq, rk, d);
}

static double ref_add_score(const double *q, const double *k, int d, double m, double n,
                            double base)
{
    double pm[TEST_MAXD], pn[TEST_MAXD], sum = 0.0;
    assert_true(d <= TEST_MAXD);
    ref_sin_pos(m, d, base, pm);
    ref_sin_pos(n, d, base, pn);
    for (int j = 0; j < d; j++) sum += (q[j] + pm[j]) * (k[j] + pn[j]);
    return sum;
}

/* ------------------------------------------------------------------------ */
/* Constants, demo vectors, dot, norm                                       */
/* ------------------------------------------------------------------------ */

TEST(constants_should_match_contract)
{
    static const int codes[] = {ROPE_E_DIM,   ROPE_E_BASE,   ROPE_E_POSITION,
                                ROPE_E_VALUE, ROPE_E_LENGTH, ROPE_E_COUNT,
                                ROPE_E_NULL,  ROPE_E_RANGE,  ROPE_E_SPACE};
    assert_int_equal(ROPE_DIM, 64);
    assert_close(ROPE_THETA_BASE, 10000.0);
    assert_int_equal(ROPE_MAX_DIM, 65536);
    assert_int_equal(ROPE_MAX_COUNT, 65536);
    assert_int_equal(ROPE_OK, 0);
    for (size_t a = 0; a < COUNT_OF(codes); a++) {
        assert_true(codes[a] < 0);
        for (size_t b = a + 1; b < COUNT_OF(codes); b++) assert_int_not_equal(codes[a], codes[b]);
    }
}

TEST(demo_vectors_should_follow_contract_formulas)
{
    double q[ROPE_DIM], k[ROPE_DIM], q5[5], k5[5];
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    assert_close(q[0], 0.955336489125606);  /* cos(0.3) */
    assert_close(k[0], 0.8912073600614354); /* sin(1.1) */
    for (int j = 0; j < ROPE_DIM; j++) {
        note("j = %d", j);
        assert_close(q[j], cos(0.7 * j + 0.3));
        assert_close(k[j], sin(0.4 * j + 1.1));
    }
    assert_code(rope_demo_vectors(5, q5, k5), ROPE_OK);
    assert_vec_close(q5, q, 5);
    assert_vec_close(k5, k, 5);
    assert_code(rope_demo_vectors(0, NULL, NULL), ROPE_OK);
}

TEST(dot_should_sum_products)
{
    static const double a[] = {1.0, 2.0, 3.0}, b[] = {4.0, -5.0, 6.0};
    double out = -1.0;
    assert_code(rope_dot(a, 3, b, 3, &out), ROPE_OK);
    assert_close(out, 12.0);
    assert_code(rope_dot(NULL, 0, NULL, 0, &out), ROPE_OK);
    assert_close(out, 0.0);
}

TEST(norm_should_be_square_root_of_sum_of_squares)
{
    static const double a[] = {3.0, -4.0};
    double q[ROPE_DIM], k[ROPE_DIM], out = -1.0;
    assert_code(rope_norm(a, 2, &out), ROPE_OK);
    assert_close(out, 5.0);
    assert_code(rope_norm(NULL, 0, &out), ROPE_OK);
    assert_close(out, 0.0);
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    assert_code(rope_norm(q, ROPE_DIM, &out), ROPE_OK);
    assert_close(out, 5.6944329562331983); /* norm_before in the default report (docs/SPEC.md) */
}

/* ------------------------------------------------------------------------ */
/* thetas, rotate_pair                                                      */
/* ------------------------------------------------------------------------ */

/* Catches mistakes: angle per dimension (theta_1 would be 10000^(-4/64)) and
 * one angle for all pairs, if made in the shared theta. */
TEST(thetas_should_give_one_value_per_pair_with_known_values)
{
    double t[ROPE_DIM];
    t[ROPE_DIM / 2] = 123.0;
    assert_code(rope_thetas(ROPE_DIM, ROPE_THETA_BASE, t), ROPE_OK);
    assert_close(t[0], 1.0);
    assert_close(t[1], 0.7498942093324559); /* 10000^(-2/64) */
    assert_close(t[1], pow(10000.0, -2.0 / 64.0));
    assert_close(t[31], 0.0001333521432163324); /* 10000^(-62/64) */
    for (int i = 0; i < ROPE_DIM / 2; i++) {
        note("i = %d", i);
        assert_close(t[i], ref_theta(i, ROPE_DIM, ROPE_THETA_BASE));
    }
    assert_close(t[ROPE_DIM / 2], 123.0); /* d / 2 values, not d */
    assert_code(rope_thetas(8, ROPE_THETA_BASE, t), ROPE_OK);
    assert_close(t[0], 1.0);
    assert_close(t[1], 0.1);
    assert_close(t[2], 0.01);
    assert_close(t[3], 0.001);
}

TEST(thetas_should_divide_exponent_by_odd_d)
{
    double t[4] = {-1.0, -1.0, -1.0, -1.0};
    assert_code(rope_thetas(7, ROPE_THETA_BASE, t), ROPE_OK);
    assert_close(t[0], 1.0);
    assert_close(t[1], pow(10000.0, -2.0 / 7.0));
    assert_close(t[2], pow(10000.0, -4.0 / 7.0));
    assert_close(t[3], -1.0); /* 7 // 2 = 3 values */
}

TEST(thetas_should_be_empty_for_d_zero_and_one)
{
    double t[1] = {42.0};
    assert_code(rope_thetas(0, ROPE_THETA_BASE, NULL), ROPE_OK);
    assert_code(rope_thetas(1, ROPE_THETA_BASE, NULL), ROPE_OK);
    assert_code(rope_thetas(1, ROPE_THETA_BASE, t), ROPE_OK);
    assert_close(t[0], 42.0);
}

TEST(thetas_should_accept_the_largest_dimension)
{
    double *t = malloc((size_t)ROPE_MAX_DIM / 2 * sizeof(double));
    assert_non_null(t);
    assert_code(rope_thetas(ROPE_MAX_DIM, ROPE_THETA_BASE, t), ROPE_OK);
    assert_close(t[0], 1.0);
    assert_close(t[ROPE_MAX_DIM / 2 - 1], ref_theta(ROPE_MAX_DIM / 2 - 1, ROPE_MAX_DIM, 1e4));
    free(t);
}

/* Catches mistake: clockwise rotation. */
TEST(rotate_pair_should_turn_counterclockwise)
{
    double out[2];
    assert_code(rope_rotate_pair(1.0, 0.0, TEST_PI / 2, out), ROPE_OK);
    assert_close(out[0], 0.0);
    assert_close(out[1], 1.0);
    assert_code(rope_rotate_pair(0.0, 1.0, TEST_PI / 2, out), ROPE_OK);
    assert_close(out[0], -1.0);
    assert_close(out[1], 0.0);
    assert_code(rope_rotate_pair(1.0, 0.0, TEST_PI / 6, out), ROPE_OK);
    assert_close(out[0], sqrt(3.0) / 2);
    assert_close(out[1], 0.5); /* above the x axis: counterclockwise */
    assert_code(rope_rotate_pair(2.0, -3.0, 0.7, out), ROPE_OK);
    assert_close(out[0], 2.0 * cos(0.7) + 3.0 * sin(0.7));
    assert_close(out[1], 2.0 * sin(0.7) - 3.0 * cos(0.7));
}

TEST(rotate_pair_should_undo_with_negative_angle)
{
    double out[2], back[2];
    assert_code(rope_rotate_pair(0.3, -1.7, 2.9, out), ROPE_OK);
    assert_close(out[0] * out[0] + out[1] * out[1], 0.3 * 0.3 + 1.7 * 1.7);
    assert_code(rope_rotate_pair(out[0], out[1], -2.9, back), ROPE_OK);
    assert_close(back[0], 0.3);
    assert_close(back[1], -1.7);
}

/* ------------------------------------------------------------------------ */
/* apply_rope                                                               */
/* ------------------------------------------------------------------------ */

TEST(apply_rope_should_be_identity_at_position_zero)
{
    double q[ROPE_DIM], k[ROPE_DIM], out[ROPE_DIM];
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    assert_code(rope_apply_rope(q, ROPE_DIM, 0.0, ROPE_THETA_BASE, out), ROPE_OK);
    assert_vec_close(out, q, ROPE_DIM);
    assert_code(rope_apply_rope(k, 7, 0.0, 3.0, out), ROPE_OK);
    assert_vec_close(out, k, 7);
    assert_code(rope_apply_rope(NULL, 0, 5.0, ROPE_THETA_BASE, NULL), ROPE_OK);
}

/* Catches mistakes: angle per dimension (pair 1 would turn by 3 * 0.01), one
 * angle for all pairs (every pair would turn by 3) and clockwise rotation
 * (the sines would change sign). Pair i of [1, 0, 1, 0, ...] at position 3
 * with d = 8 lands on (cos(3 * 10^-i), sin(3 * 10^-i)). */
TEST(apply_rope_should_rotate_pair_i_by_pos_times_theta_i)
{
    static const double unit[8] = {1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0};
    double v[8], out[8], want[8];
    memcpy(v, unit, sizeof v);
    assert_code(rope_apply_rope(v, 8, 3.0, ROPE_THETA_BASE, out), ROPE_OK);
    for (int i = 0; i < 4; i++) {
        double a = 3.0 * pow(10.0, -i);
        note("pair %d", i);
        assert_close(out[2 * i], cos(a));
        assert_close(out[2 * i + 1], sin(a));
    }
    assert_code(rope_demo_vectors(8, v, want), ROPE_OK);
    assert_code(rope_apply_rope(v, 8, 11.0, 500.0, out), ROPE_OK);
    ref_apply_rope(v, 8, 11.0, 500.0, want);
    assert_vec_close(out, want, 8);
}

/* Catches mistake: clockwise rotation (the first pair would land on [0, -1]). */
TEST(apply_rope_should_rotate_first_pair_counterclockwise)
{
    double v[4] = {1.0, 0.0, 0.0, 1.0}, out[4];
    assert_code(rope_apply_rope(v, 4, TEST_PI / 2, ROPE_THETA_BASE, out), ROPE_OK);
    assert_close(out[0], 0.0);
    assert_close(out[1], 1.0);
}

TEST(apply_rope_should_preserve_norm)
{
    static const double positions[] = {1.0, 7.0, 100.0, 4096.0, -250.5};
    double q[ROPE_DIM], k[ROPE_DIM], out[ROPE_DIM];
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    for (size_t p = 0; p < COUNT_OF(positions); p++) {
        note("pos = %g", positions[p]);
        assert_code(rope_apply_rope(q, ROPE_DIM, positions[p], ROPE_THETA_BASE, out), ROPE_OK);
        assert_close(ref_norm(out, ROPE_DIM), ref_norm(q, ROPE_DIM));
    }
}

TEST(apply_rope_should_undo_with_negative_position)
{
    static const double positions[] = {1.0, 7.5, 100.0, 4096.0, -33.0};
    double q[ROPE_DIM], k[ROPE_DIM], there[ROPE_DIM], back[ROPE_DIM];
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    for (size_t p = 0; p < COUNT_OF(positions); p++) {
        note("pos = %g", positions[p]);
        assert_code(rope_apply_rope(q, ROPE_DIM, positions[p], ROPE_THETA_BASE, there), ROPE_OK);
        assert_code(rope_apply_rope(there, ROPE_DIM, -positions[p], ROPE_THETA_BASE, back),
                    ROPE_OK);
        assert_vec_close(back, q, ROPE_DIM);
    }
}

TEST(apply_rope_should_keep_last_element_of_odd_length)
{
    double q[7], k[7], out[7], want[7];
    assert_code(rope_demo_vectors(7, q, k), ROPE_OK);
    assert_code(rope_apply_rope(q, 7, 13.0, ROPE_THETA_BASE, out), ROPE_OK);
    assert_close(out[6], q[6]);
    ref_apply_rope(q, 7, 13.0, ROPE_THETA_BASE, want);
    assert_vec_close(out, want, 7);
    assert_code(rope_apply_rope(q, 1, 13.0, ROPE_THETA_BASE, out), ROPE_OK);
    assert_close(out[0], q[0]);
}

/* Catches mistake: modifying the input in place. */
TEST(apply_rope_should_not_modify_input)
{
    double q[ROPE_DIM], k[ROPE_DIM], copy[ROPE_DIM], out[ROPE_DIM];
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    memcpy(copy, q, sizeof q);
    assert_code(rope_apply_rope(q, ROPE_DIM, 37.0, ROPE_THETA_BASE, out), ROPE_OK);
    assert_memory_equal(q, copy, sizeof q); /* bit for bit: nothing may touch it */
    assert_code(rope_apply_rope(q, 9, -5.5, ROPE_THETA_BASE, out), ROPE_OK);
    assert_memory_equal(q, copy, sizeof q);
}

TEST(apply_rope_should_accept_fractional_and_negative_positions)
{
    static const double positions[] = {0.5, 2.25, -1.0, -3.75, 1e-3, 4095.5};
    double q[ROPE_DIM], k[ROPE_DIM], out[ROPE_DIM], want[ROPE_DIM], step[ROPE_DIM];
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    for (size_t p = 0; p < COUNT_OF(positions); p++) {
        note("pos = %g", positions[p]);
        assert_code(rope_apply_rope(q, ROPE_DIM, positions[p], ROPE_THETA_BASE, out), ROPE_OK);
        ref_apply_rope(q, ROPE_DIM, positions[p], ROPE_THETA_BASE, want);
        assert_vec_close(out, want, ROPE_DIM);
    }
    /* Rotations compose: 1.25 then 2.5 is 3.75. */
    assert_code(rope_apply_rope(q, ROPE_DIM, 1.25, ROPE_THETA_BASE, step), ROPE_OK);
    assert_code(rope_apply_rope(step, ROPE_DIM, 2.5, ROPE_THETA_BASE, out), ROPE_OK);
    assert_code(rope_apply_rope(q, ROPE_DIM, 3.75, ROPE_THETA_BASE, want), ROPE_OK);
    assert_vec_close(out, want, ROPE_DIM);
}

/* Randomized: identity at 0, the contract's rotation, norm kept, inverse,
 * input untouched. Catches every rotation mistake for random d and bases. */
TEST(apply_rope_should_hold_rotation_properties_for_random_cases)
{
    double v[TEST_MAXD], copy[TEST_MAXD], out[TEST_MAXD], want[TEST_MAXD], back[TEST_MAXD];
    rng_start(1);
    for (int c = 0; c < 300; c++) {
        int d = rng_int(0, 130);
        double pos = (c % 4 == 0) ? (double)rng_int(-4096, 4096) : rng_uniform(-4096.0, 4096.0);
        double base = (c % 3 == 0) ? rng_uniform(2.0, 1e6) : ROPE_THETA_BASE;
        rng_vector(v, d);
        memcpy(copy, v, sizeof v);
        note("random case %d: d=%d pos=%.17g base=%.17g (seed %llu)", c, d, pos, base,
             testlib_seed);
        assert_code(rope_apply_rope(v, d, 0.0, base, out), ROPE_OK);
        assert_vec_close(out, v, d);
        assert_code(rope_apply_rope(v, d, pos, base, out), ROPE_OK);
        assert_memory_equal(v, copy, sizeof v);
        ref_apply_rope(v, d, pos, base, want);
        assert_vec_close(out, want, d);
        assert_close(ref_norm(out, d), ref_norm(v, d));
        assert_code(rope_apply_rope(out, d, -pos, base, back), ROPE_OK);
        assert_vec_close(back, v, d);
    }
}

/* ------------------------------------------------------------------------ */
/* rope_score                                                               */
/* ------------------------------------------------------------------------ */

TEST(rope_score_should_equal_dot_when_positions_match)
{
    static const double positions[] = {0.0, 1.0, 42.5, 4096.0, -9.0};
    double q[ROPE_DIM], k[ROPE_DIM], score;
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    for (size_t p = 0; p < COUNT_OF(positions); p++) {
        note("m = n = %g", positions[p]);
        assert_code(rope_score(q, ROPE_DIM, k, ROPE_DIM, positions[p], positions[p],
                               ROPE_THETA_BASE, &score),
                    ROPE_OK);
        assert_close(score, ref_dot(q, k, ROPE_DIM));
    }
}

/* Catches mistake: rotating only the query (the score would follow the
 * query's position, not the gap). The additive method is the contrast: at
 * the same gap its score moves with the start by far more than 1. */
TEST(rope_score_should_give_same_score_for_same_gap)
{
    double q[ROPE_DIM], k[ROPE_DIM], first, score, add, lo = INFINITY, hi = -INFINITY;
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    assert_code(rope_score(q, ROPE_DIM, k, ROPE_DIM, 2.0, 0.0, ROPE_THETA_BASE, &first), ROPE_OK);
    assert_close(first, ref_rope_score(q, k, ROPE_DIM, 2.0, 0.0, ROPE_THETA_BASE));
    for (int s = 0; s <= 4096; s++) {
        note("start %d, gap 2", s);
        assert_code(rope_score(q, ROPE_DIM, k, ROPE_DIM, s + 2.0, s, ROPE_THETA_BASE, &score),
                    ROPE_OK);
        assert_close(score, first);
        assert_code(rope_add_score(q, ROPE_DIM, k, ROPE_DIM, s + 2.0, s, ROPE_THETA_BASE, &add),
                    ROPE_OK);
        lo = add < lo ? add : lo;
        hi = add > hi ? add : hi;
    }
    assert_true(hi - lo > 1.0);
}

/* Catches mistakes: rotating only the query, clockwise rotation and the
 * per-dimension or single angle, each of which breaks the reference. */
TEST(rope_score_should_equal_dot_of_rotated_vectors)
{
    static const double mn[][2] = {
        {5.0, 3.0}, {3.0, 5.0}, {0.0, 17.0}, {100.5, -2.0}, {4096.0, 1.0}};
    double q[ROPE_DIM], k[ROPE_DIM], rq[ROPE_DIM], rk[ROPE_DIM], score;
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    for (size_t j = 0; j < COUNT_OF(mn); j++) {
        double m = mn[j][0], n = mn[j][1];
        note("m = %g, n = %g", m, n);
        assert_code(rope_apply_rope(q, ROPE_DIM, m, ROPE_THETA_BASE, rq), ROPE_OK);
        assert_code(rope_apply_rope(k, ROPE_DIM, n, ROPE_THETA_BASE, rk), ROPE_OK);
        assert_code(rope_score(q, ROPE_DIM, k, ROPE_DIM, m, n, ROPE_THETA_BASE, &score), ROPE_OK);
        assert_close(score, ref_dot(rq, rk, ROPE_DIM));
        assert_close(score, ref_rope_score(q, k, ROPE_DIM, m, n, ROPE_THETA_BASE));
    }
    /* Odd length: the unrotated last element still joins the dot product. */
    assert_code(rope_score(q, 7, k, 7, 9.0, 4.0, 50.0, &score), ROPE_OK);
    assert_close(score, ref_rope_score(q, k, 7, 9.0, 4.0, 50.0));
}

/* Catches mistakes: clockwise rotation (gives -sin), rotating only the query
 * (gives sin(m)) and the per-dimension or single angle. q = [1, 0, ...] and
 * k = [0, 1, ...] score sum_i sin((m - n) * theta_i); no 1/sqrt(d). */
TEST(rope_score_should_be_sine_of_gap_for_unit_pairs)
{
    static const double q[8] = {1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0};
    static const double k[8] = {0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0};
    double score;
    assert_code(rope_score(q, 8, k, 8, 5.0, 2.0, ROPE_THETA_BASE, &score), ROPE_OK);
    assert_close(score, sin(3.0) + sin(0.3) + sin(0.03) + sin(0.003));
    assert_code(rope_score(q, 2, k, 2, TEST_PI / 2, 0.0, ROPE_THETA_BASE, &score), ROPE_OK);
    assert_close(score, 1.0);
}

/* Randomized: relative position (shifting both positions keeps the score),
 * m == n gives dot, and the contract's reference formula. */
TEST(rope_score_should_depend_on_gap_only_for_random_cases)
{
    double q[TEST_MAXD], k[TEST_MAXD], a, b;
    rng_start(2);
    for (int c = 0; c < 300; c++) {
        int d = rng_int(0, 130);
        double m = rng_uniform(0.0, 4096.0), n = rng_uniform(0.0, 4096.0);
        double lo = m < n ? m : n, hi = m > n ? m : n;
        double shift = rng_uniform(-lo, 4096.0 - hi);
        double base = (c % 3 == 0) ? rng_uniform(2.0, 1e6) : ROPE_THETA_BASE;
        rng_vector(q, d);
        rng_vector(k, d);
        note("random case %d: d=%d m=%.17g n=%.17g shift=%.17g base=%.17g (seed %llu)", c, d, m, n,
             shift, base, testlib_seed);
        assert_code(rope_score(q, d, k, d, m, n, base, &a), ROPE_OK);
        assert_close(a, ref_rope_score(q, k, d, m, n, base));
        assert_code(rope_score(q, d, k, d, m + shift, n + shift, base, &b), ROPE_OK);
        assert_close(b, a);
        assert_code(rope_score(q, d, k, d, m, m, base, &b), ROPE_OK);
        assert_close(b, ref_dot(q, k, d));
    }
}

/* ------------------------------------------------------------------------ */
/* sin_pos, add_score                                                       */
/* ------------------------------------------------------------------------ */

/* Catches mistake: angle per dimension (element 1 would use 10000^(2/8)).
 * With d = 8 and base 10000 the pair frequencies are 1, 1/10, 1/100, 1/1000. */
TEST(sin_pos_should_put_sin_on_even_and_cos_on_odd_elements)
{
    double p[8], want[8];
    assert_code(rope_sin_pos(3.0, 8, ROPE_THETA_BASE, p), ROPE_OK);
    assert_close(p[0], sin(3.0));
    assert_close(p[1], cos(3.0));
    assert_close(p[2], sin(0.3));
    assert_close(p[3], cos(0.3));
    assert_close(p[4], sin(0.03));
    assert_close(p[5], cos(0.03));
    assert_close(p[6], sin(0.003));
    assert_close(p[7], cos(0.003));
    assert_code(rope_sin_pos(-17.5, 8, 321.0, p), ROPE_OK);
    ref_sin_pos(-17.5, 8, 321.0, want);
    assert_vec_close(p, want, 8);
}

TEST(sin_pos_should_be_zero_one_at_position_zero_and_handle_odd_d)
{
    double p[ROPE_DIM], want[5];
    assert_code(rope_sin_pos(0.0, ROPE_DIM, ROPE_THETA_BASE, p), ROPE_OK);
    for (int j = 0; j < ROPE_DIM; j++) {
        note("j = %d", j);
        assert_close(p[j], (j % 2 == 0) ? 0.0 : 1.0);
    }
    assert_code(rope_sin_pos(40.0, 5, ROPE_THETA_BASE, p), ROPE_OK);
    assert_close(p[4], sin(40.0 / pow(10000.0, 4.0 / 5.0)));
    ref_sin_pos(40.0, 5, ROPE_THETA_BASE, want);
    assert_vec_close(p, want, 5);
    assert_code(rope_sin_pos(40.0, 0, ROPE_THETA_BASE, NULL), ROPE_OK);
}

/* Catches mistake: adding the position to one side only (with q = k = 0 the
 * score would be 0 instead of P[m].P[n] = sum_i cos(gap * theta_i)). */
TEST(add_score_should_add_position_to_both_sides)
{
    static const double zero[8] = {0};
    double q[ROPE_DIM], k[ROPE_DIM], pm[ROPE_DIM], pn[ROPE_DIM], qp[ROPE_DIM], kp[ROPE_DIM];
    double score;
    assert_code(rope_add_score(zero, 8, zero, 8, 5.0, 2.0, ROPE_THETA_BASE, &score), ROPE_OK);
    assert_close(score, cos(3.0) + cos(0.3) + cos(0.03) + cos(0.003));
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    assert_code(rope_sin_pos(12.0, ROPE_DIM, ROPE_THETA_BASE, pm), ROPE_OK);
    assert_code(rope_sin_pos(10.0, ROPE_DIM, ROPE_THETA_BASE, pn), ROPE_OK);
    for (int j = 0; j < ROPE_DIM; j++) {
        qp[j] = q[j] + pm[j];
        kp[j] = k[j] + pn[j];
    }
    assert_code(rope_add_score(q, ROPE_DIM, k, ROPE_DIM, 12.0, 10.0, ROPE_THETA_BASE, &score),
                ROPE_OK);
    assert_close(score, ref_dot(qp, kp, ROPE_DIM));
    assert_close(score, ref_add_score(q, k, ROPE_DIM, 12.0, 10.0, ROPE_THETA_BASE));
    assert_code(rope_add_score(q, 7, k, 7, -3.5, 250.0, 77.0, &score), ROPE_OK);
    assert_close(score, ref_add_score(q, k, 7, -3.5, 250.0, 77.0));
}

/* Randomized against the contract formula, for random d, m, n and base. */
TEST(add_score_should_match_reference_for_random_cases)
{
    double q[TEST_MAXD], k[TEST_MAXD], score;
    rng_start(3);
    for (int c = 0; c < 200; c++) {
        int d = rng_int(0, 130);
        double m = rng_uniform(-100.0, 4096.0), n = rng_uniform(-100.0, 4096.0);
        double base = (c % 2 == 0) ? rng_uniform(2.0, 1e6) : ROPE_THETA_BASE;
        rng_vector(q, d);
        rng_vector(k, d);
        note("random case %d: d=%d m=%.17g n=%.17g base=%.17g (seed %llu)", c, d, m, n, base,
             testlib_seed);
        assert_code(rope_add_score(q, d, k, d, m, n, base, &score), ROPE_OK);
        assert_close(score, ref_add_score(q, k, d, m, n, base));
    }
}

/* ------------------------------------------------------------------------ */
/* offset_scan, offset_sweep                                                */
/* ------------------------------------------------------------------------ */

TEST(offset_scan_should_put_query_at_start_plus_offset)
{
    static const double starts[] = {3.0, 10.5, -4.0, 100.0, 4000.0};
    enum { N = (int)COUNT_OF(starts) };
    double q[ROPE_DIM], k[ROPE_DIM], rows[3 * N], score;
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    assert_code(rope_offset_scan(q, ROPE_DIM, k, ROPE_DIM, 2.0, starts, N, ROPE_THETA_BASE, rows),
                ROPE_OK);
    for (int j = 0; j < N; j++) {
        double s = starts[j];
        note("row %d, start %g", j, s);
        assert_close(rows[3 * j], s);
        assert_code(rope_score(q, ROPE_DIM, k, ROPE_DIM, s + 2.0, s, ROPE_THETA_BASE, &score),
                    ROPE_OK);
        assert_close(rows[3 * j + 1], score);
        assert_close(rows[3 * j + 1], ref_rope_score(q, k, ROPE_DIM, s + 2.0, s, 1e4));
        assert_code(rope_add_score(q, ROPE_DIM, k, ROPE_DIM, s + 2.0, s, ROPE_THETA_BASE, &score),
                    ROPE_OK);
        assert_close(rows[3 * j + 2], score);
        assert_close(rows[3 * j + 2], ref_add_score(q, k, ROPE_DIM, s + 2.0, s, 1e4));
        /* The key at s + offset instead would be told apart. */
        assert_false(is_close(rows[3 * j + 1], ref_rope_score(q, k, ROPE_DIM, s, s + 2.0, 1e4)));
        assert_false(is_close(rows[3 * j + 2], ref_add_score(q, k, ROPE_DIM, s, s + 2.0, 1e4)));
    }
    assert_code(rope_offset_scan(q, ROPE_DIM, k, ROPE_DIM, 2.0, NULL, 0, ROPE_THETA_BASE, NULL),
                ROPE_OK);
}

static void check_sweep(const double *q, const double *k, int d, double offset, double start0,
                        double step, int count, double base)
{
    double *sweep = malloc((size_t)(3 * count) * sizeof(double));
    double *rows = malloc((size_t)(3 * count) * sizeof(double));
    double *starts = malloc((size_t)count * sizeof(double));
    assert_non_null(sweep);
    assert_non_null(rows);
    assert_non_null(starts);
    for (int j = 0; j < count; j++) starts[j] = start0 + j * step;
    note("sweep d=%d offset=%g start0=%g step=%g count=%d base=%g", d, offset, start0, step, count,
         base);
    assert_code(rope_offset_sweep(q, d, k, d, offset, start0, step, count, base, sweep), ROPE_OK);
    assert_code(rope_offset_scan(q, d, k, d, offset, starts, count, base, rows), ROPE_OK);
    for (int j = 0; j < count; j++) {
        double s = starts[j];
        /* Planar: all starts, then all rope scores, then all additive scores. */
        assert_close(sweep[j], rows[3 * j]);
        assert_close(sweep[count + j], rows[3 * j + 1]);
        assert_close(sweep[2 * count + j], rows[3 * j + 2]);
        if (j % 7 == 0 || j == count - 1) {
            assert_close(sweep[count + j], ref_rope_score(q, k, d, s + offset, s, base));
            assert_close(sweep[2 * count + j], ref_add_score(q, k, d, s + offset, s, base));
        }
    }
    free(sweep);
    free(rows);
    free(starts);
}

/* The sweep computes its angles its own way (block anchors times a step
 * table), so it is held to offset_scan and to the reference for block edges
 * (63, 64, 65, 130 starts), odd dims and fractional or negative starts. */
/* offset_scan before it took pairs outer: one rope_score and one
 * rope_add_score per start. Kept here to prove the results are the same bits. */
static int scan_start_by_start(const double *q, const double *k, int d, double offset,
                               const double *starts, int count, double base, double *out)
{
    for (int j = 0; j < count; j++) {
        double s = starts[j];
        out[3 * j] = s;
        int rc = rope_score(q, d, k, d, s + offset, s, base, &out[3 * j + 1]);
        if (rc == ROPE_OK) rc = rope_add_score(q, d, k, d, s + offset, s, base, &out[3 * j + 2]);
        if (rc != ROPE_OK) return rc;
    }
    return ROPE_OK;
}

TEST(offset_scan_should_give_the_bits_of_score_and_add_score_per_start)
{
    double q[TEST_MAXD], k[TEST_MAXD], starts[40], got[120], want[120];
    rng_start(7);
    for (int c = 0; c < 200; c++) {
        int d = rng_int(0, 130), count = rng_int(0, 40);
        double offset = (c % 3 == 0) ? (double)rng_int(-50, 50) : rng_uniform(-1e4, 1e4);
        double base = (c % 4 == 0) ? rng_uniform(1.5, 1e6) : ROPE_THETA_BASE;
        rng_vector(q, d);
        rng_vector(k, d);
        for (int j = 0; j < count; j++)
            starts[j] = (j % 2) ? (double)rng_int(-5000, 5000) : rng_uniform(-1e9, 1e9);
        note("random case %d: d=%d count=%d offset=%.17g base=%.17g (seed %llu)", c, d, count,
             offset, base, testlib_seed);
        assert_code(rope_offset_scan(q, d, k, d, offset, starts, count, base, got), ROPE_OK);
        assert_code(scan_start_by_start(q, k, d, offset, starts, count, base, want), ROPE_OK);
        assert_memory_equal(got, want, (size_t)count * 3 * sizeof(double));
    }
}

TEST(offset_sweep_should_match_offset_scan_in_planar_layout)
{
    static const int dims[] = {0, 1, 2, 7, 63, 64};
    static const int counts[] = {1, 63, 64, 65, 130, 200};
    static const double grids[][3] = {/* offset, start0, step */
                                      {2.0, 0.0, 1.0},
                                      {2.0, -7.25, 0.5},
                                      {-3.5, 3.0, 20.4},
                                      {1.0, 4096.0, -20.0}};
    double q[ROPE_DIM], k[ROPE_DIM];
    for (size_t a = 0; a < COUNT_OF(dims); a++) {
        assert_code(rope_demo_vectors(dims[a], q, k), ROPE_OK);
        for (size_t b = 0; b < COUNT_OF(counts); b++)
            for (size_t g = 0; g < COUNT_OF(grids); g++)
                check_sweep(q, k, dims[a], grids[g][0], grids[g][1], grids[g][2], counts[b],
                            ROPE_THETA_BASE);
    }
    assert_code(rope_demo_vectors(9, q, k), ROPE_OK);
    check_sweep(q, k, 9, 5.0, 1.0, 3.0, 100, 77.0);
}

/* Catches mistake: an envelope start counted as max(d, 1) units, so that d = 0
 * to 3 passed 2^27 starts, minutes of work (issue #35). A start costs
 * ROPE_ENVELOPE_START_WORK units whatever d, plus d. */
TEST(envelope_work_should_count_each_start_whatever_the_dim)
{
    const double most = ROPE_MAX_ENVELOPE_WORK;
    assert_int_equal(ROPE_ENVELOPE_START_WORK, 16);
    for (int d = 0; d <= 4; d++) {
        double starts = floor(most / (d + ROPE_ENVELOPE_START_WORK));
        note("d = %d, %.0f starts", d, starts);
        assert_code(rope_check_envelope_work(d, starts), ROPE_OK);
        assert_code(rope_check_envelope_work(d, starts + 1.0), ROPE_E_WORK);
        assert_code(rope_check_envelope_work(d, most / (d > 0 ? d : 1)), ROPE_E_WORK);
    }
    /* The page's widest range, dim 1024 from 0 to 65536, still fits. */
    assert_code(rope_check_envelope_work(1024, 65537.0), ROPE_OK);
    assert_code(rope_check_envelope_work(8, NAN), ROPE_E_WORK);
}

TEST(offset_sweep_should_match_offset_scan_for_random_cases)
{
    double q[TEST_MAXD], k[TEST_MAXD];
    rng_start(4);
    for (int c = 0; c < 30; c++) {
        int d = rng_int(0, 130), count = rng_int(1, 300);
        double start0 = rng_uniform(0.0, 2000.0), step = rng_uniform(-6.0, 6.0);
        double offset = rng_uniform(-50.0, 50.0);
        double base = (c % 2 == 0) ? rng_uniform(2.0, 1e6) : ROPE_THETA_BASE;
        rng_vector(q, d);
        rng_vector(k, d);
        check_sweep(q, k, d, offset, start0, step, count, base);
    }
}

TEST(offset_sweep_should_keep_rope_flat_and_additive_moving)
{
    enum { N = 4097 };
    double q[ROPE_DIM], k[ROPE_DIM], lo = INFINITY, hi = -INFINITY;
    double *out = malloc(3 * N * sizeof(double));
    assert_non_null(out);
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    assert_code(rope_offset_sweep(q, ROPE_DIM, k, ROPE_DIM, 2.0, 0.0, 1.0, N, ROPE_THETA_BASE, out),
                ROPE_OK);
    for (int j = 0; j < N; j++) {
        note("start %d", j);
        assert_close(out[j], (double)j);
        assert_close(out[N + j], out[N]);
        lo = out[2 * N + j] < lo ? out[2 * N + j] : lo;
        hi = out[2 * N + j] > hi ? out[2 * N + j] : hi;
    }
    assert_true(hi - lo > 1.0);
    assert_code(
        rope_offset_sweep(q, ROPE_DIM, k, ROPE_DIM, 2.0, 0.0, 1.0, 0, ROPE_THETA_BASE, NULL),
        ROPE_OK);
    free(out);
}

/* ------------------------------------------------------------------------ */
/* turns, slow_pairs, pair_angles, slow_pairs_batch, norm_gaps              */
/* ------------------------------------------------------------------------ */

/* Catches mistake: forgetting to divide by 2*pi (turns would equal angles). */
TEST(turns_should_divide_angle_by_two_pi)
{
    double t[ROPE_DIM / 2];
    assert_code(rope_turns(ROPE_DIM, 1.0, ROPE_THETA_BASE, t), ROPE_OK);
    assert_close(t[0], 0.15915494309189535); /* 1 / (2 pi) */
    for (int i = 0; i < ROPE_DIM / 2; i++) {
        note("pair %d", i);
        assert_close(t[i], ref_theta(i, ROPE_DIM, ROPE_THETA_BASE) / (2 * TEST_PI));
    }
    assert_code(rope_turns(8, 2000.0 * TEST_PI, ROPE_THETA_BASE, t), ROPE_OK);
    assert_close(t[0], 1000.0);
    assert_close(t[1], 100.0);
    assert_close(t[2], 10.0);
    assert_close(t[3], 1.0);
    assert_code(rope_turns(7, -4096.0, 500.0, t), ROPE_OK);
    for (int i = 0; i < 3; i++)
        assert_close(t[i], -4096.0 * ref_theta(i, 7, 500.0) / (2 * TEST_PI));
    assert_code(rope_turns(1, 5.0, ROPE_THETA_BASE, NULL), ROPE_OK);
}

/* Catches mistake: forgetting to divide by 2*pi (delta 1 would give 31). */
TEST(slow_pairs_should_count_default_pairs)
{
    static const double deltas[] = {1.0, 16.0, 256.0, 4096.0};
    static const int want[] = {32, 28, 19, 9};
    for (size_t j = 0; j < COUNT_OF(deltas); j++) {
        int n = -1;
        note("delta %g", deltas[j]);
        assert_code(rope_slow_pairs(ROPE_DIM, deltas[j], ROPE_THETA_BASE, &n), ROPE_OK);
        assert_int_equal(n, want[j]);
    }
}

TEST(slow_pairs_should_count_turns_below_one)
{
    double t[TEST_MAXD / 2];
    rng_start(5);
    for (int c = 0; c < 200; c++) {
        int d = rng_int(0, TEST_MAXD), n = -1, want = 0;
        double delta = (c % 2 == 0) ? rng_uniform(0.0, 5000.0) : (double)rng_int(0, 5000);
        double base = (c % 3 == 0) ? rng_uniform(2.0, 1e6) : ROPE_THETA_BASE;
        note("random case %d: d=%d delta=%.17g base=%.17g (seed %llu)", c, d, delta, base,
             testlib_seed);
        assert_code(rope_turns(d, delta, base, t), ROPE_OK);
        for (int i = 0; i < d / 2; i++) want += t[i] < 1.0;
        assert_code(rope_slow_pairs(d, delta, base, &n), ROPE_OK);
        assert_int_equal(n, want);
    }
}

TEST(pair_angles_should_be_gap_times_theta)
{
    double a[ROPE_DIM / 2];
    assert_code(rope_pair_angles(ROPE_DIM, 2.0, ROPE_THETA_BASE, a), ROPE_OK);
    for (int i = 0; i < ROPE_DIM / 2; i++) {
        note("pair %d", i);
        assert_close(a[i], 2.0 * ref_theta(i, ROPE_DIM, ROPE_THETA_BASE));
    }
    assert_code(rope_pair_angles(9, -3.5, 40.0, a), ROPE_OK);
    for (int i = 0; i < 4; i++) assert_close(a[i], -3.5 * ref_theta(i, 9, 40.0));
    assert_code(rope_pair_angles(1, 3.0, ROPE_THETA_BASE, NULL), ROPE_OK);
}

TEST(slow_pairs_batch_should_match_slow_pairs)
{
    static const double deltas[] = {0.0, 1.0, 16.0, 256.0, 4096.0, 1e5, -3.0, 0.5, 6.2831853};
    static const int dims[] = {0, 1, 7, 64, 128};
    static const double bases[] = {ROPE_THETA_BASE, 500.0, 1.5};
    enum { N = (int)COUNT_OF(deltas) };
    int out[N];
    for (size_t a = 0; a < COUNT_OF(dims); a++)
        for (size_t b = 0; b < COUNT_OF(bases); b++) {
            assert_code(rope_slow_pairs_batch(dims[a], deltas, N, bases[b], out), ROPE_OK);
            for (int j = 0; j < N; j++) {
                int one = -1;
                note("d=%d base=%g delta=%g", dims[a], bases[b], deltas[j]);
                assert_code(rope_slow_pairs(dims[a], deltas[j], bases[b], &one), ROPE_OK);
                assert_int_equal(out[j], one);
            }
        }
    assert_code(rope_slow_pairs_batch(ROPE_DIM, deltas, 4, ROPE_THETA_BASE, out), ROPE_OK);
    assert_int_equal(out[0], 32); /* a gap of 0 turns no pair at all */
    assert_int_equal(out[1], 32);
    assert_int_equal(out[2], 28);
    assert_int_equal(out[3], 19);
    assert_code(rope_slow_pairs_batch(ROPE_DIM, NULL, 0, ROPE_THETA_BASE, NULL), ROPE_OK);
}

TEST(norm_gaps_should_measure_norm_change_after_rotation)
{
    static const double positions[] = {0.0, 1.0, 7.0, 100.0, 4096.0, -3.5};
    enum { N = (int)COUNT_OF(positions) };
    double q[ROPE_DIM], k[ROPE_DIM], gaps[N], rot[ROPE_DIM];
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    assert_code(rope_norm_gaps(q, ROPE_DIM, positions, N, ROPE_THETA_BASE, gaps), ROPE_OK);
    for (int j = 0; j < N; j++) {
        note("pos %g", positions[j]);
        ref_apply_rope(q, ROPE_DIM, positions[j], ROPE_THETA_BASE, rot);
        assert_close(gaps[j], fabs(ref_norm(rot, ROPE_DIM) - ref_norm(q, ROPE_DIM)));
        assert_true(gaps[j] >= 0.0 && gaps[j] < 1e-12);
    }
    assert_code(rope_norm_gaps(k, 7, positions, N, 3.0, gaps), ROPE_OK);
    for (int j = 0; j < N; j++) assert_true(gaps[j] >= 0.0 && gaps[j] < 1e-12);
    assert_code(rope_norm_gaps(q, ROPE_DIM, NULL, 0, ROPE_THETA_BASE, NULL), ROPE_OK);
}

/* ------------------------------------------------------------------------ */
/* Bad input: a table of (function, argument, bad value, expected code),    */
/* one bad argument at a time, every other argument valid                   */
/* ------------------------------------------------------------------------ */

/* Every argument a public function takes, in one struct, so that one loop
 * can vary any of them. */
typedef struct {
    const double *q, *k;
    int nq, nk, d, count;
    double base, x[3];
    const double *list;
    void *out;
} call_args;

typedef int (*call_fn)(const call_args *a);

/* What an argument is, which decides its bad values and their codes. */
enum {
    K_NONE,
    K_VEC,        /* vector + length: bad lengths, NULL, non-finite entries */
    K_DIM,        /* a dimension */
    K_REPORT_DIM, /* the report's dimension: at least one pair */
    K_COUNT,      /* a count of list entries */
    K_BASE,       /* a base */
    K_ROTATING,   /* a position something is rotated by: non-finite, and beyond ROPE_MAX_POSITION */
    K_REAL,       /* a gap or angle nothing is rotated by: non-finite only */
    K_ENTRY,      /* a vector entry passed as a number: non-finite */
    K_ROT_LIST,   /* a list of rotating positions */
    K_LIST,       /* a list of deltas */
    K_OUT         /* the out pointer */
};
enum { S_Q, S_K, S_D, S_BASE, S_X0, S_X1, S_X2, S_LIST, S_COUNT, S_OUT, N_SLOTS };

static const double good_q[8] = {0.9, -0.2, 0.4, 0.7, -0.5, 0.1, 0.3, -0.8};
static const double good_k[8] = {0.1, 0.6, -0.7, 0.2, 0.5, -0.4, 0.9, 0.3};
static const double good_list[3] = {0.0, 3.5, 100.0};
static double ws[1024];
static double ws_out[2048];
#define ws_text ((char *)ws_out)

static int call_demo(const call_args *a)
{
    return rope_demo_vectors(a->d, a->out, ws + 512);
}
static int call_dot(const call_args *a)
{
    return rope_dot(a->q, a->nq, a->k, a->nk, a->out);
}
static int call_norm(const call_args *a)
{
    return rope_norm(a->q, a->nq, a->out);
}
static int call_thetas(const call_args *a)
{
    return rope_thetas(a->d, a->base, a->out);
}
static int call_rotate(const call_args *a)
{
    return rope_rotate_pair(a->x[0], a->x[1], a->x[2], a->out);
}
static int call_apply(const call_args *a)
{
    return rope_apply_rope(a->q, a->nq, a->x[0], a->base, a->out);
}
static int call_score(const call_args *a)
{
    return rope_score(a->q, a->nq, a->k, a->nk, a->x[0], a->x[1], a->base, a->out);
}
static int call_sin_pos(const call_args *a)
{
    return rope_sin_pos(a->x[0], a->d, a->base, a->out);
}
static int call_add(const call_args *a)
{
    return rope_add_score(a->q, a->nq, a->k, a->nk, a->x[0], a->x[1], a->base, a->out);
}
static int call_scan(const call_args *a)
{
    return rope_offset_scan(a->q, a->nq, a->k, a->nk, a->x[0], a->list, a->count, a->base, a->out);
}
static int call_turns(const call_args *a)
{
    return rope_turns(a->d, a->x[0], a->base, a->out);
}
static int call_slow(const call_args *a)
{
    return rope_slow_pairs(a->d, a->x[0], a->base, a->out);
}
static int call_angles(const call_args *a)
{
    return rope_pair_angles(a->d, a->x[0], a->base, a->out);
}
static int call_sweep(const call_args *a)
{
    return rope_offset_sweep(a->q, a->nq, a->k, a->nk, a->x[0], a->x[1], a->x[2], a->count, a->base,
                             a->out);
}
static int call_slow_batch(const call_args *a)
{
    return rope_slow_pairs_batch(a->d, a->list, a->count, a->base, a->out);
}
static int call_norm_gaps(const call_args *a)
{
    return rope_norm_gaps(a->q, a->nq, a->list, a->count, a->base, a->out);
}
/* The report with its starts, deltas or norm positions as the varied list. */
static int call_report(const call_args *a, int which)
{
    int len;
    const double *lists[3] = {good_list, good_list, good_list};
    int counts[3] = {3, 3, 3};
    lists[which] = a->list;
    counts[which] = a->count;
    return rope_report_write(ROPE_REPORT_MARKDOWN, a->d, a->base, a->x[0], lists[0], counts[0],
                             lists[1], counts[1], lists[2], counts[2], a->out,
                             a->out ? (int)sizeof ws_out : 16, &len);
}
static int call_report_starts(const call_args *a)
{
    return call_report(a, 0);
}
static int call_report_deltas(const call_args *a)
{
    return call_report(a, 1);
}
static int call_report_norms(const call_args *a)
{
    return call_report(a, 2);
}

/* Each public function and the kind of each of its arguments (slot order:
 * q, k, d, base, x0, x1, x2, list, count, out). */
static const struct {
    const char *name;
    call_fn call;
    unsigned char kind[N_SLOTS];
} functions[] = {
    {"demo_vectors", call_demo, {0, 0, K_DIM, 0, 0, 0, 0, 0, 0, K_OUT}},
    {"dot", call_dot, {K_VEC, K_VEC, 0, 0, 0, 0, 0, 0, 0, K_OUT}},
    {"norm", call_norm, {K_VEC, 0, 0, 0, 0, 0, 0, 0, 0, K_OUT}},
    {"thetas", call_thetas, {0, 0, K_DIM, K_BASE, 0, 0, 0, 0, 0, K_OUT}},
    {"rotate_pair", call_rotate, {0, 0, 0, 0, K_ENTRY, K_ENTRY, K_REAL, 0, 0, K_OUT}},
    {"apply_rope", call_apply, {K_VEC, 0, 0, K_BASE, K_ROTATING, 0, 0, 0, 0, K_OUT}},
    {"score", call_score, {K_VEC, K_VEC, 0, K_BASE, K_ROTATING, K_ROTATING, 0, 0, 0, K_OUT}},
    {"sin_pos", call_sin_pos, {0, 0, K_DIM, K_BASE, K_ROTATING, 0, 0, 0, 0, K_OUT}},
    {"add_score", call_add, {K_VEC, K_VEC, 0, K_BASE, K_ROTATING, K_ROTATING, 0, 0, 0, K_OUT}},
    {"offset_scan",
     call_scan,
     {K_VEC, K_VEC, 0, K_BASE, K_ROTATING, 0, 0, K_ROT_LIST, K_COUNT, K_OUT}},
    {"turns", call_turns, {0, 0, K_DIM, K_BASE, K_REAL, 0, 0, 0, 0, K_OUT}},
    {"slow_pairs", call_slow, {0, 0, K_DIM, K_BASE, K_REAL, 0, 0, 0, 0, K_OUT}},
    {"pair_angles", call_angles, {0, 0, K_DIM, K_BASE, K_ROTATING, 0, 0, 0, 0, K_OUT}},
    {"offset_sweep",
     call_sweep,
     {K_VEC, K_VEC, 0, K_BASE, K_ROTATING, K_ROTATING, K_ROTATING, 0, K_COUNT, K_OUT}},
    {"slow_pairs_batch", call_slow_batch, {0, 0, K_DIM, K_BASE, 0, 0, 0, K_LIST, K_COUNT, K_OUT}},
    {"norm_gaps", call_norm_gaps, {K_VEC, 0, 0, K_BASE, 0, 0, 0, K_ROT_LIST, K_COUNT, K_OUT}},
    {"report(starts)",
     call_report_starts,
     {0, 0, K_REPORT_DIM, K_BASE, K_ROTATING, 0, 0, K_ROT_LIST, K_COUNT, K_OUT}},
    {"report(deltas)", call_report_deltas, {0, 0, 0, 0, 0, 0, 0, K_LIST, K_COUNT, 0}},
    {"report(norm_positions)", call_report_norms, {0, 0, 0, 0, 0, 0, 0, K_ROT_LIST, K_COUNT, 0}},
};

/* Bad numbers for each kind of number argument, and the code each must give;
 * code ROPE_OK rows are good values that must be accepted. */
static const struct {
    unsigned char kind;
    double value;
    int code;
} numbers[] = {
    {K_BASE, 10000.0, ROPE_OK},
    {K_BASE, 1.5, ROPE_OK},
    {K_BASE, 1.0000001, ROPE_OK},
    /* base <= 1: theta_i no longer falls with i, so the pairs would not slow down. */
    {K_BASE, 1.0, ROPE_E_BASE},
    {K_BASE, 0.5, ROPE_E_BASE},
    {K_BASE, 1e-10, ROPE_E_BASE},
    {K_BASE, 1e-300, ROPE_E_BASE},
    {K_BASE, 4.9e-324, ROPE_E_BASE},
    {K_BASE, 0.0, ROPE_E_BASE},
    {K_BASE, -0.0, ROPE_E_BASE},
    {K_BASE, -1.0, ROPE_E_BASE},
    {K_BASE, NAN, ROPE_E_BASE},
    {K_BASE, INFINITY, ROPE_E_BASE},
    {K_BASE, -INFINITY, ROPE_E_BASE},
    {K_ROTATING, 0.0, ROPE_OK},
    {K_ROTATING, -2.25, ROPE_OK},
    {K_ROTATING, 4096.5, ROPE_OK},
    {K_ROTATING, NAN, ROPE_E_POSITION},
    {K_ROTATING, INFINITY, ROPE_E_POSITION},
    {K_ROTATING, -INFINITY, ROPE_E_POSITION},
    {K_ROTATING, 2e10, ROPE_E_FAR},
    /* The far check is on the largest angle, |p| x theta_0 = |p|. */
    {K_ROTATING, -1.0000001e10, ROPE_E_FAR},
    {K_ROTATING, -1e16, ROPE_E_FAR},
    {K_ROTATING, 1e308, ROPE_E_FAR},
    {K_REAL, 0.0, ROPE_OK},
    {K_REAL, -2.25, ROPE_OK},
    {K_REAL, 1e16, ROPE_OK},
    {K_REAL, NAN, ROPE_E_POSITION},
    {K_REAL, INFINITY, ROPE_E_POSITION},
    {K_REAL, -INFINITY, ROPE_E_POSITION},
    {K_ENTRY, 0.0, ROPE_OK},
    {K_ENTRY, -3.5, ROPE_OK},
    {K_ENTRY, NAN, ROPE_E_VALUE},
    {K_ENTRY, INFINITY, ROPE_E_VALUE},
    {K_ENTRY, -INFINITY, ROPE_E_VALUE},
    /* List entries: the same rules as one number of that kind. */
    {K_ROT_LIST, 7.0, ROPE_OK},
    {K_ROT_LIST, NAN, ROPE_E_POSITION},
    {K_ROT_LIST, -INFINITY, ROPE_E_POSITION},
    {K_ROT_LIST, 1e16, ROPE_E_FAR},
    {K_LIST, 1e16, ROPE_OK},
    {K_LIST, NAN, ROPE_E_POSITION},
    {K_LIST, INFINITY, ROPE_E_POSITION},
};

static const struct {
    unsigned char kind;
    int value;
    int code;
} integers[] = {
    {K_DIM, 1, ROPE_OK},
    {K_DIM, 3, ROPE_OK},
    {K_DIM, 8, ROPE_OK},
    {K_DIM, -1, ROPE_E_DIM},
    {K_DIM, ROPE_MAX_DIM + 1, ROPE_E_DIM},
    {K_DIM, INT_MIN, ROPE_E_DIM},
    {K_DIM, INT_MAX, ROPE_E_DIM},
    {K_REPORT_DIM, 2, ROPE_OK},
    {K_REPORT_DIM, 3, ROPE_OK},
    {K_REPORT_DIM, 1, ROPE_E_DIM},
    {K_REPORT_DIM, 0, ROPE_E_DIM},
    {K_REPORT_DIM, -1, ROPE_E_DIM},
    {K_REPORT_DIM, ROPE_MAX_DIM + 1, ROPE_E_DIM},
    {K_COUNT, 1, ROPE_OK},
    {K_COUNT, 2, ROPE_OK},
    {K_COUNT, -1, ROPE_E_COUNT},
    {K_COUNT, ROPE_MAX_COUNT + 1, ROPE_E_COUNT},
    {K_COUNT, INT_MIN, ROPE_E_COUNT},
    {K_COUNT, INT_MAX, ROPE_E_COUNT},
};

static call_args good_args(void)
{
    call_args a = {good_q, good_k, 8, 8, 8, 3, ROPE_THETA_BASE, {1.5, 2.0, 0.5}, good_list, NULL};
    a.out = ws_out; /* big enough for every function's output, the report's included */
    return a;
}

static void expect(int fn, const call_args *a, int want, const char *what)
{
    note("%s with %s", functions[fn].name, what);
    code_or_fail(functions[fn].call(a), want, functions[fn].name, __FILE__, __LINE__);
}

/* The vector slot (q or k): bad lengths, NULL, and a non-finite entry. */
static void vary_vector(int fn, int slot)
{
    static const int bad_lengths[] = {-1, ROPE_MAX_DIM + 1, INT_MIN, INT_MAX};
    static const double entries[] = {NAN, INFINITY, -INFINITY};
    double bad[8];
    char what[96];
    for (size_t j = 0; j < COUNT_OF(bad_lengths); j++) {
        call_args a = good_args();
        *(slot == S_Q ? &a.nq : &a.nk) = bad_lengths[j];
        snprintf(what, sizeof what, "vector %d of length %d", slot, bad_lengths[j]);
        expect(fn, &a, ROPE_E_DIM, what);
    }
    call_args a = good_args();
    *(slot == S_Q ? &a.q : &a.k) = NULL;
    expect(fn, &a, ROPE_E_NULL, "a NULL vector of length 8");
    for (size_t j = 0; j < COUNT_OF(entries); j++)
        for (int at = 0; at < 8; at += 7) {
            memcpy(bad, slot == S_Q ? good_q : good_k, sizeof bad);
            bad[at] = entries[j];
            a = good_args();
            *(slot == S_Q ? &a.q : &a.k) = bad;
            snprintf(what, sizeof what, "vector %d entry %d = %g", slot, at, entries[j]);
            expect(fn, &a, ROPE_E_VALUE, what);
        }
}

/* One number slot (x0..x2 or base) or a list entry set to each value of its kind. */
static void vary_number(int fn, int slot, unsigned char kind)
{
    char what[96];
    for (size_t j = 0; j < COUNT_OF(numbers); j++) {
        if (numbers[j].kind != kind) continue;
        call_args a = good_args();
        double list[3] = {good_list[0], good_list[1], good_list[2]};
        if (slot == S_BASE)
            a.base = numbers[j].value;
        else if (slot == S_LIST)
            list[2] = numbers[j].value, a.list = list;
        else
            a.x[slot - S_X0] = numbers[j].value;
        snprintf(what, sizeof what, "argument %d = %g", slot, numbers[j].value);
        expect(fn, &a, numbers[j].code, what);
    }
}

static void vary_integer(int fn, int slot, unsigned char kind)
{
    char what[96];
    for (size_t j = 0; j < COUNT_OF(integers); j++) {
        if (integers[j].kind != kind) continue;
        call_args a = good_args();
        *(slot == S_D ? &a.d : &a.count) = integers[j].value;
        snprintf(what, sizeof what, "argument %d = %d", slot, integers[j].value);
        expect(fn, &a, integers[j].code, what);
    }
}

TEST(every_function_should_reject_each_bad_argument_with_its_code)
{
    for (int fn = 0; fn < (int)COUNT_OF(functions); fn++) {
        call_args a = good_args();
        expect(fn, &a, ROPE_OK, "valid arguments");
        for (int slot = 0; slot < N_SLOTS; slot++) {
            unsigned char kind = functions[fn].kind[slot];
            if (kind == K_VEC)
                vary_vector(fn, slot);
            else if (kind == K_DIM || kind == K_REPORT_DIM || kind == K_COUNT)
                vary_integer(fn, slot, kind);
            else if (kind != K_NONE && kind != K_OUT)
                vary_number(fn, slot, kind);
            if (kind == K_OUT || kind == K_ROT_LIST || kind == K_LIST) {
                a = good_args();
                *(kind == K_OUT ? &a.out : (void **)&a.list) = NULL;
                expect(fn, &a, ROPE_E_NULL, kind == K_OUT ? "a NULL out" : "a NULL list");
            }
        }
        if (functions[fn].kind[S_Q] == K_VEC && functions[fn].kind[S_K] == K_VEC) {
            a = good_args();
            a.nk = 7;
            expect(fn, &a, ROPE_E_LENGTH, "vectors of lengths 8 and 7");
        }
    }
}

/* The results-check: inputs in range whose results overflow. With base > 1
 * every theta is at most 1 and every angle within ROPE_MAX_ANGLE, so only
 * huge vector entries can overflow now. */
TEST(functions_should_report_overflow_as_range)
{
    static const double one[1] = {1.0};
    static const double big[4] = {1e200, 1e200, 1e200, 1e200};
    double out[16];
    assert_code(rope_dot(big, 2, big, 2, out), ROPE_E_RANGE);
    assert_code(rope_norm(big, 2, out), ROPE_E_RANGE);
    assert_code(rope_rotate_pair(1.5e308, -1.5e308, TEST_PI / 4, out), ROPE_E_RANGE);
    assert_code(rope_score(big, 4, big, 4, 1.0, 0.0, 1e4, out), ROPE_E_RANGE);
    assert_code(rope_add_score(big, 4, big, 4, 1.0, 0.0, 1e4, out), ROPE_E_RANGE);
    assert_code(rope_offset_scan(big, 4, big, 4, 1.0, one, 1, 1e4, out), ROPE_E_RANGE);
    assert_code(rope_offset_sweep(big, 4, big, 4, 1.0, 1.0, 1.0, 1, 1e4, out), ROPE_E_RANGE);
    assert_code(rope_norm_gaps(big, 4, one, 1, 1e4, out), ROPE_E_RANGE);
}

/* Issue 22: tiny bases once got past "honest numbers" (base 1e-300 gave angles
 * of 1e293). Each base <= 1 is now refused by every function that takes one,
 * and the largest angle |p| x theta_0 is what the far check guards. */
TEST(every_base_at_or_below_one_should_be_refused)
{
    static const double bases[] = {1.0, 0.999999, 0.5, 1e-10, 1e-300, 4.9e-324};
    double q[8], k[8], out[64];
    int n;
    assert_code(rope_demo_vectors(8, q, k), ROPE_OK);
    for (size_t j = 0; j < COUNT_OF(bases); j++) {
        double b = bases[j];
        note("base %g", b);
        assert_code(rope_thetas(8, b, out), ROPE_E_BASE);
        assert_code(rope_apply_rope(q, 8, 1.0, b, out), ROPE_E_BASE);
        assert_code(rope_score(q, 8, k, 8, 1.0, 0.0, b, out), ROPE_E_BASE);
        assert_code(rope_sin_pos(1.0, 8, b, out), ROPE_E_BASE);
        assert_code(rope_turns(8, 1.0, b, out), ROPE_E_BASE);
        assert_code(rope_slow_pairs(8, 1.0, b, &n), ROPE_E_BASE);
        assert_code(rope_pair_angles(8, 1.0, b, out), ROPE_E_BASE);
        assert_code(rope_check_base(b), ROPE_E_BASE);
        /* A far position with a bad base: the base is what is wrong. */
        assert_code(rope_apply_rope(q, 8, 1e16, b, out), ROPE_E_BASE);
    }
    assert_non_null(strstr(rope_strerror(ROPE_E_BASE), "would no longer slow down"));
    assert_non_null(strstr(rope_strerror(ROPE_E_FAR), "angle"));
    assert_code(rope_check_rotating(1e10, 1e4), ROPE_OK);
    assert_code(rope_check_rotating(nextafter(1e10, 1e11), 1e4), ROPE_E_FAR);
    assert_code(rope_check_rotating(NAN, 1e4), ROPE_E_POSITION);
    /* Where theta is given (pair_example), the angle m theta itself is what is guarded. */
    assert_code(rope_pair_example(1, 0, 1, 0, 1e9, 0, 20.0, out), ROPE_E_FAR);
    assert_code(rope_pair_example(1, 0, 1, 0, 1e11, 0, 0.01, out), ROPE_OK);
}

/* docs/SPEC.md, "Numbers and lists": one grammar for the CLI and the page. */
TEST(parse_decimal_should_accept_plain_decimals_only)
{
    static const struct {
        const char *text;
        int code, form;
        double value;
    } rows[] = {
        {"0", ROPE_OK, 0, 0.0},
        {"-0", ROPE_OK, 0, -0.0},
        {"+5", ROPE_OK, 1, 5.0},
        {"1.5", ROPE_OK, 1, 1.5},
        {"1e3", ROPE_OK, 1, 1000.0},
        {"2.5E-3", ROPE_OK, 1, 0.0025},
        {"007", ROPE_OK, 1, 7.0},
        {"0e-400", ROPE_OK, 0, 0.0},
        {"5e-324", ROPE_OK, 1, 5e-324},
        {"1.7976931348623157e308", ROPE_OK, 1, 1.7976931348623157e308},
        {"", ROPE_E_VALUE, ROPE_E_VALUE, 0},
        {" 1", ROPE_E_VALUE, ROPE_E_VALUE, 0},
        {"1 ", ROPE_E_VALUE, ROPE_E_VALUE, 0},
        {"0x10", ROPE_E_VALUE, ROPE_E_VALUE, 0},
        {"inf", ROPE_E_VALUE, ROPE_E_VALUE, 0},
        {"nan", ROPE_E_VALUE, ROPE_E_VALUE, 0},
        {".5", ROPE_E_VALUE, ROPE_E_VALUE, 0},
        {"5.", ROPE_E_VALUE, ROPE_E_VALUE, 0},
        {"1e", ROPE_E_VALUE, ROPE_E_VALUE, 0},
        {"1e+", ROPE_E_VALUE, ROPE_E_VALUE, 0},
        {"--1", ROPE_E_VALUE, ROPE_E_VALUE, 0},
        {"1,2", ROPE_E_VALUE, ROPE_E_VALUE, 0},
        {"1e400", ROPE_E_RANGE, 1, 0},
        {"-1e309", ROPE_E_RANGE, 1, 0},
        {"1e-400", ROPE_E_RANGE, 1, 0},
    };
    for (size_t j = 0; j < COUNT_OF(rows); j++) {
        double v = -42.0;
        note("text '%s'", rows[j].text);
        assert_code(rope_parse_decimal(rows[j].text, &v), rows[j].code);
        assert_code(rope_decimal_form(rows[j].text), rows[j].form);
        if (rows[j].code == ROPE_OK) assert_memory_equal(&v, &rows[j].value, sizeof v);
    }
    double v;
    int n = -1;
    assert_code(rope_parse_decimal(NULL, &v), ROPE_E_NULL);
    assert_code(rope_parse_decimal("1", NULL), ROPE_E_NULL);
    assert_code(rope_parse_int("-12", &n), ROPE_OK);
    assert_int_equal(n, -12);
    assert_code(rope_parse_int("8.0", &n), ROPE_E_VALUE);
    assert_code(rope_parse_int("1e3", &n), ROPE_E_VALUE);
    assert_code(rope_parse_int("99999999999", &n), ROPE_E_RANGE);
}

/* A count of 0 writes nothing, so out may be NULL (found by the fuzzer: the
 * sweep once offset a NULL out, undefined behaviour UBSan reports). */
TEST(batch_functions_should_accept_count_zero_with_a_null_out)
{
    assert_code(rope_offset_sweep(good_q, 8, good_k, 8, 2.0, 0.0, 1.0, 0, 1e4, NULL), ROPE_OK);
    assert_code(rope_offset_scan(good_q, 8, good_k, 8, 2.0, NULL, 0, 1e4, NULL), ROPE_OK);
    assert_code(rope_norm_gaps(good_q, 8, NULL, 0, 1e4, NULL), ROPE_OK);
    assert_code(rope_slow_pairs_batch(8, NULL, 0, 1e4, NULL), ROPE_OK);
}

/* ROPE_MAX_WORK: d x count above it is refused before any work is done. */
TEST(batch_functions_should_refuse_work_above_the_limit)
{
    int count = ROPE_MAX_WORK / ROPE_MAX_DIM + 1;
    double *v = calloc((size_t)ROPE_MAX_DIM, sizeof(double));
    double *list = calloc((size_t)count, sizeof(double));
    int *slow = calloc((size_t)count, sizeof(int));
    assert_non_null(v);
    assert_non_null(list);
    assert_non_null(slow);
    assert_code(rope_offset_scan(v, ROPE_MAX_DIM, v, ROPE_MAX_DIM, 0.0, list, count, 1e4, ws),
                ROPE_E_WORK);
    assert_code(rope_offset_sweep(v, ROPE_MAX_DIM, v, ROPE_MAX_DIM, 0.0, 0.0, 1.0, count, 1e4, ws),
                ROPE_E_WORK);
    assert_code(rope_slow_pairs_batch(ROPE_MAX_DIM, list, count, 1e4, slow), ROPE_E_WORK);
    assert_code(rope_norm_gaps(v, ROPE_MAX_DIM, list, count, 1e4, ws), ROPE_E_WORK);
    /* Exactly at the limit is allowed (the cheapest batch function shows it). */
    assert_code(rope_slow_pairs_batch(ROPE_MAX_DIM, list, count - 1, 1e4, slow), ROPE_OK);
    assert_int_equal(slow[0], ROPE_MAX_DIM / 2);
    free(v);
    free(list);
    free(slow);
}

TEST(slow_pairs_batch_should_accept_the_largest_count)
{
    double *deltas = malloc((size_t)ROPE_MAX_COUNT * sizeof(double));
    int *out = malloc((size_t)ROPE_MAX_COUNT * sizeof(int));
    assert_non_null(deltas);
    assert_non_null(out);
    for (int j = 0; j < ROPE_MAX_COUNT; j++) deltas[j] = j;
    assert_code(rope_slow_pairs_batch(2, deltas, ROPE_MAX_COUNT, ROPE_THETA_BASE, out), ROPE_OK);
    assert_int_equal(out[0], 1);
    assert_int_equal(out[6], 1); /* 6 / (2 pi) < 1 */
    assert_int_equal(out[7], 0); /* 7 / (2 pi) > 1 */
    assert_int_equal(out[ROPE_MAX_COUNT - 1], 0);
    free(deltas);
    free(out);
}

TEST(strerror_should_give_text_for_every_code)
{
    static const int codes[] = {ROPE_OK,      ROPE_E_DIM,    ROPE_E_BASE,  ROPE_E_POSITION,
                                ROPE_E_VALUE, ROPE_E_LENGTH, ROPE_E_COUNT, ROPE_E_NULL,
                                ROPE_E_RANGE, ROPE_E_SPACE,  ROPE_E_NOMEM, ROPE_E_FAR,
                                ROPE_E_WORK};
    static const int unknown[] = {1, 42, -1000, INT_MIN, INT_MAX};
    const char *unknown_text = rope_strerror(-1000);
    for (size_t a = 0; a < COUNT_OF(codes); a++) {
        const char *text = rope_strerror(codes[a]);
        note("code %d", codes[a]);
        assert_non_null(text);
        assert_true(strlen(text) > 0);
        assert_string_not_equal(text, unknown_text);
        for (size_t b = 0; b < a; b++) assert_string_not_equal(text, rope_strerror(codes[b]));
    }
    for (size_t j = 0; j < COUNT_OF(unknown); j++) {
        note("unknown code %d", unknown[j]);
        assert_string_equal(rope_strerror(unknown[j]), unknown_text);
    }
    assert_non_null(strstr(rope_strerror(ROPE_E_FAR), "1e10"));
    assert_non_null(strstr(rope_strerror(ROPE_E_DIM), "65536"));
}

/* ------------------------------------------------------------------------ */
/* The report                                                               */
/* ------------------------------------------------------------------------ */

/* Builds a report into a fresh heap buffer of exactly the needed size
 * (learned from a first call with no buffer); the caller frees it. */
static char *build_report(const rope_report_options *o, int format, int *len_out)
{
    int need = -1, len = -1;
    char *buf;
    assert_code(rope_report_build(o, format, NULL, 0, &need), ROPE_E_SPACE);
    assert_true(need > 0);
    buf = malloc((size_t)need + 1);
    assert_non_null(buf);
    assert_code(rope_report_build(o, format, buf, need + 1, &len), ROPE_OK);
    assert_int_equal(len, need);
    assert_int_equal(strlen(buf), (size_t)need);
    if (len_out != NULL) *len_out = len;
    return buf;
}

/* The number after "key": in the JSON text (NaN when the key is missing). */
static double json_number(const char *json, const char *key)
{
    char pattern[64];
    const char *at;
    snprintf(pattern, sizeof pattern, "\"%s\": ", key);
    at = strstr(json, pattern);
    return at ? strtod(at + strlen(pattern), NULL) : NAN;
}

/* The numbers of the array after "key": in the JSON text; returns how many. */
static int json_array(const char *json, const char *key, double *out, int max)
{
    char pattern[64], *end;
    const char *at;
    int n = 0;
    snprintf(pattern, sizeof pattern, "\"%s\": [", key);
    at = strstr(json, pattern);
    if (at == NULL) return -1;
    at += strlen(pattern);
    while (n < max && *at != ']') {
        out[n++] = strtod(at, &end);
        if (end == at) return -1;
        at = end;
        while (*at == ',' || *at == ' ') at++;
    }
    return n;
}

static int count_substrings(const char *text, const char *sub)
{
    int n = 0;
    for (const char *at = strstr(text, sub); at != NULL; at = strstr(at + 1, sub)) n++;
    return n;
}

/* True when the text states `value` as a number with at least 6 decimals. */
static int states_number(const char *text, double value)
{
    for (const char *at = text; *at != '\0'; at++) {
        char *end;
        const char *dot;
        double v;
        int decimals = 0;
        if (!(*at >= '0' && *at <= '9')) continue;
        if (at > text && ((at[-1] >= '0' && at[-1] <= '9') || at[-1] == '.')) continue;
        if (at > text && at[-1] == '-') at--;
        v = strtod(at, &end);
        dot = strchr(at, '.');
        if (dot != NULL && dot < end)
            for (const char *p = dot + 1; p < end && *p >= '0' && *p <= '9'; p++) decimals++;
        if (decimals >= 6 && is_close(v, value)) return 1;
        at = end - 1;
    }
    return 0;
}

static const char *const json_keys[] = {"dim",         "base",        "offset",       "starts",
                                        "deltas",      "rope_scores", "add_scores",   "rope_spread",
                                        "add_spread",  "norm_before", "norm_max_gap", "slow_pairs",
                                        "turns_first", "turns_last"};

TEST(report_build_should_write_the_fourteen_json_keys)
{
    rope_report_options o;
    char *json;
    rope_report_defaults(&o);
    json = build_report(&o, ROPE_REPORT_JSON, NULL);
    assert_int_equal(COUNT_OF(json_keys), 14);
    for (size_t j = 0; j < COUNT_OF(json_keys); j++) {
        char pattern[64];
        snprintf(pattern, sizeof pattern, "\"%s\": ", json_keys[j]);
        note("key %s", json_keys[j]);
        assert_int_equal(count_substrings(json, pattern), 1);
    }
    assert_int_equal(count_substrings(json, "\": "), 14); /* and no other key */
    assert_int_equal(json[0], '{');
    assert_non_null(strstr(json, "}\n"));
    free(json);
}

TEST(report_build_should_state_the_default_numbers)
{
    static const double starts[] = {3.0, 10.0, 100.0, 4000.0};
    static const double deltas[] = {1.0, 16.0, 256.0, 4096.0};
    rope_report_options o;
    double q[ROPE_DIM], k[ROPE_DIM], v[8], turns[ROPE_DIM / 2];
    char *json;
    rope_report_defaults(&o);
    assert_int_equal(o.dim, 64);
    assert_close(o.base, 10000.0);
    assert_close(o.offset, 2.0);
    assert_int_equal(o.n_starts, 4);
    assert_int_equal(o.n_deltas, 4);
    assert_int_equal(o.n_norm_positions, 5);
    json = build_report(&o, ROPE_REPORT_JSON, NULL);
    assert_non_null(strstr(json, "\"slow_pairs\": [32, 28, 19, 9]"));
    assert_close(json_number(json, "dim"), 64.0);
    assert_close(json_number(json, "base"), 10000.0);
    assert_close(json_number(json, "offset"), 2.0);
    assert_int_equal(json_array(json, "starts", v, 8), 4);
    assert_vec_close(v, starts, 4);
    assert_int_equal(json_array(json, "deltas", v, 8), 4);
    assert_vec_close(v, deltas, 4);
    assert_true(json_number(json, "rope_spread") >= 0.0);
    assert_true(json_number(json, "rope_spread") < 1e-12);
    assert_true(json_number(json, "add_spread") > 13.8);
    assert_true(json_number(json, "add_spread") < 13.9);
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    assert_close(json_number(json, "norm_before"), ref_norm(q, ROPE_DIM));
    assert_true(json_number(json, "norm_max_gap") >= 0.0);
    assert_true(json_number(json, "norm_max_gap") < 1e-12);
    assert_int_equal(json_array(json, "rope_scores", v, 8), 4);
    for (int j = 0; j < 4; j++)
        assert_close(v[j], ref_rope_score(q, k, ROPE_DIM, starts[j] + 2.0, starts[j], 1e4));
    assert_int_equal(json_array(json, "add_scores", v, 8), 4);
    for (int j = 0; j < 4; j++)
        assert_close(v[j], ref_add_score(q, k, ROPE_DIM, starts[j] + 2.0, starts[j], 1e4));
    assert_int_equal(json_array(json, "turns_first", v, 8), 4);
    for (int j = 0; j < 4; j++) {
        assert_code(rope_turns(ROPE_DIM, deltas[j], ROPE_THETA_BASE, turns), ROPE_OK);
        assert_close(v[j], turns[0]);
        assert_close(v[j], deltas[j] / (2 * TEST_PI));
    }
    assert_int_equal(json_array(json, "turns_last", v, 8), 4);
    for (int j = 0; j < 4; j++)
        assert_close(v[j], deltas[j] * ref_theta(31, ROPE_DIM, 1e4) / (2 * TEST_PI));
    free(json);
}

TEST(report_build_should_write_the_four_markdown_headings)
{
    static const char *const headings[] = {"\n## 무엇을 쟀나\n", "\n## 같은 간격이면 같은 점수다\n",
                                           "\n## 더하는 방식은 왜 다른가\n",
                                           "\n## 멀어지면 어느 성분이 남는가\n"};
    rope_report_options o;
    double q[ROPE_DIM], k[ROPE_DIM], first, lo = INFINITY, hi = -INFINITY, add;
    const char *last = NULL;
    char *md;
    rope_report_defaults(&o);
    md = build_report(&o, ROPE_REPORT_MARKDOWN, NULL);
    for (size_t j = 0; j < COUNT_OF(headings); j++) {
        const char *at = strstr(md, headings[j]);
        note("heading %zu", j);
        assert_non_null(at);
        assert_true(last == NULL || at > last); /* in the contract's order */
        last = at;
    }
    assert_int_equal(count_substrings(md, "\n## "), 4);
    /* The text states the first rope score, the additive spread and |q|. */
    assert_code(rope_demo_vectors(ROPE_DIM, q, k), ROPE_OK);
    first = ref_rope_score(q, k, ROPE_DIM, 5.0, 3.0, ROPE_THETA_BASE);
    for (int j = 0; j < 4; j++) {
        add = ref_add_score(q, k, ROPE_DIM, o.starts[j] + 2.0, o.starts[j], ROPE_THETA_BASE);
        lo = add < lo ? add : lo;
        hi = add > hi ? add : hi;
    }
    assert_true(states_number(md, first));
    assert_true(states_number(md, hi - lo));
    assert_true(states_number(md, ref_norm(q, ROPE_DIM)));
    /* ... and names the two cross terms (written q.P[n] or q·P[n]). */
    assert_true(strstr(md, "q.P[n]") != NULL || strstr(md, "q·P[n]") != NULL);
    assert_true(strstr(md, "P[m].k") != NULL || strstr(md, "P[m]·k") != NULL);
    free(md);
}

TEST(report_build_should_report_needed_length_when_buffer_is_too_small)
{
    static const int formats[] = {ROPE_REPORT_JSON, ROPE_REPORT_MARKDOWN};
    rope_report_options o;
    rope_report_defaults(&o);
    for (size_t f = 0; f < COUNT_OF(formats); f++) {
        char small[16];
        int need = -1, len = -1;
        char *buf, *again;
        note("format %d", formats[f]);
        assert_code(rope_report_build(&o, formats[f], small, (int)sizeof small, &need),
                    ROPE_E_SPACE);
        assert_true(need > (int)sizeof small);
        buf = malloc((size_t)need + 1);
        assert_non_null(buf);
        /* Room for the text but not its NUL is still too small. */
        assert_code(rope_report_build(&o, formats[f], buf, need, &len), ROPE_E_SPACE);
        assert_int_equal(len, need);
        len = -1;
        assert_code(rope_report_build(&o, formats[f], buf, need + 1, &len), ROPE_OK);
        assert_int_equal(len, need);
        assert_int_equal(strlen(buf), (size_t)need);
        again = build_report(&o, formats[f], NULL);
        assert_string_equal(buf, again);
        free(again);
        free(buf);
    }
}

TEST(report_write_should_give_the_same_bytes_as_report_build)
{
    static const double starts[] = {0.0, 1.25, 4096.0};
    static const double deltas[] = {2.0, 64.0};
    static const double norms[] = {0.0, 3.0};
    static const int formats[] = {ROPE_REPORT_JSON, ROPE_REPORT_MARKDOWN};
    rope_report_options settings[2];
    rope_report_defaults(&settings[0]);
    settings[1] = settings[0];
    settings[1].dim = 7;
    settings[1].base = 500.0;
    settings[1].offset = 3.5;
    settings[1].starts = starts;
    settings[1].n_starts = 3;
    settings[1].deltas = deltas;
    settings[1].n_deltas = 2;
    settings[1].norm_positions = norms;
    settings[1].n_norm_positions = 2;
    for (size_t s = 0; s < COUNT_OF(settings); s++)
        for (size_t f = 0; f < COUNT_OF(formats); f++) {
            const rope_report_options *o = &settings[s];
            int len = -1, wlen = -1;
            char *built = build_report(o, formats[f], &len);
            char *written = malloc((size_t)len + 1);
            note("settings %zu, format %d", s, formats[f]);
            assert_non_null(written);
            assert_code(rope_report_write(formats[f], o->dim, o->base, o->offset, o->starts,
                                          o->n_starts, o->deltas, o->n_deltas, o->norm_positions,
                                          o->n_norm_positions, written, len + 1, &wlen),
                        ROPE_OK);
            assert_int_equal(wlen, len);
            assert_memory_equal(written, built, (size_t)len + 1);
            free(written);
            free(built);
        }
}

/* The CLI's one measurement for both files (issue #35: a report at the limit
 * measured everything once per format): the same bytes as rope_report_build,
 * ROPE_E_SPACE with both lengths when either buffer is short, and the checks. */
TEST(report_build_both_should_give_the_bytes_of_report_build)
{
    rope_report_options o;
    rope_report_defaults(&o);
    o.dim = 9;
    int jlen = -1, mlen = -1;
    char *json = build_report(&o, ROPE_REPORT_JSON, &jlen);
    char *md = build_report(&o, ROPE_REPORT_MARKDOWN, &mlen);
    char *bj = malloc((size_t)jlen + 1), *bm = malloc((size_t)mlen + 1);
    assert_non_null(bj);
    assert_non_null(bm);
    int a = -1, b = -1;
    assert_code(rope_report_build_both(&o, bj, jlen + 1, &a, bm, mlen + 1, &b), ROPE_OK);
    assert_int_equal(a, jlen);
    assert_int_equal(b, mlen);
    assert_memory_equal(bj, json, (size_t)jlen + 1);
    assert_memory_equal(bm, md, (size_t)mlen + 1);
    for (int short_one = 0; short_one < 2; short_one++) {
        a = b = -1;
        assert_code(rope_report_build_both(&o, bj, short_one == 0 ? jlen : jlen + 1, &a, bm,
                                           short_one == 1 ? mlen : mlen + 1, &b),
                    ROPE_E_SPACE);
        assert_int_equal(a, jlen);
        assert_int_equal(b, mlen);
    }
    assert_code(rope_report_build_both(&o, NULL, 0, &a, NULL, 0, &b), ROPE_E_SPACE);
    assert_code(rope_report_build_both(&o, NULL, 8, &a, bm, mlen + 1, &b), ROPE_E_NULL);
    assert_code(rope_report_build_both(&o, bj, jlen + 1, NULL, bm, mlen + 1, &b), ROPE_E_NULL);
    assert_code(rope_report_build_both(NULL, bj, jlen + 1, &a, bm, mlen + 1, &b), ROPE_E_NULL);
    o.dim = 1;
    assert_code(rope_report_build_both(&o, bj, jlen + 1, &a, bm, mlen + 1, &b), ROPE_E_DIM);
    free(bj);
    free(bm);
    free(json);
    free(md);
}

TEST(report_build_should_reject_bad_input)
{
    static const double huge[1] = {1e308};
    rope_report_options o, bad;
    char buf[64];
    int len = -1;
    rope_report_defaults(&o);
    assert_code(rope_report_build(NULL, ROPE_REPORT_JSON, ws_text, (int)sizeof ws_out, &len),
                ROPE_E_NULL);
    assert_code(rope_report_build(&o, ROPE_REPORT_JSON, ws_text, (int)sizeof ws_out, NULL),
                ROPE_E_NULL);
    assert_code(rope_report_build(&o, ROPE_REPORT_JSON, NULL, 64, &len), ROPE_E_NULL);
    assert_code(rope_report_build(&o, 2, ws_text, (int)sizeof ws_out, &len), ROPE_E_VALUE);
    assert_code(rope_report_build(&o, -1, ws_text, (int)sizeof ws_out, &len), ROPE_E_VALUE);
    assert_code(rope_report_build(&o, ROPE_REPORT_JSON, buf, -1, &len), ROPE_E_SPACE);
    bad = o;
    bad.starts = NULL;
    assert_code(rope_report_build(&bad, ROPE_REPORT_JSON, ws_text, (int)sizeof ws_out, &len),
                ROPE_E_NULL);
    bad = o;
    bad.deltas = NULL;
    assert_code(rope_report_build(&bad, ROPE_REPORT_JSON, ws_text, (int)sizeof ws_out, &len),
                ROPE_E_NULL);
    bad = o;
    bad.norm_positions = NULL;
    assert_code(rope_report_build(&bad, ROPE_REPORT_JSON, ws_text, (int)sizeof ws_out, &len),
                ROPE_E_NULL);
    bad = o;
    bad.starts = huge;
    bad.n_starts = 1;
    assert_code(rope_report_build(&bad, ROPE_REPORT_JSON, ws_text, (int)sizeof ws_out, &len),
                ROPE_E_FAR);
    bad = o;
    bad.base = 4.9e-324; /* once theta_31 of dim 64 overflowed; now base <= 1 is refused */
    assert_code(rope_report_build(&bad, ROPE_REPORT_JSON, ws_text, (int)sizeof ws_out, &len),
                ROPE_E_BASE);
}

/* Catches mistake: a report with no pair, whose turns of pair 0 were NaN in the
 * Markdown (issue #35). Both formats refuse dim 0 and 1; dim 2 and an odd 3 are reports. */
TEST(report_build_should_refuse_a_dimension_without_a_pair)
{
    static const int dims[] = {0, 1, -1, ROPE_MAX_DIM + 1};
    static const int formats[] = {ROPE_REPORT_JSON, ROPE_REPORT_MARKDOWN};
    rope_report_options o;
    int len = -1;
    rope_report_defaults(&o);
    for (int f = 0; f < 2; f++) {
        for (int j = 0; j < 4; j++) {
            o.dim = dims[j];
            assert_code(rope_report_build(&o, formats[f], ws_text, (int)sizeof ws_out, &len),
                        ROPE_E_DIM);
            assert_code(rope_report_check_dim(dims[j]), ROPE_E_DIM);
        }
        for (int dim = ROPE_REPORT_MIN_DIM; dim <= 3; dim++) {
            o.dim = dim;
            assert_code(rope_report_build(&o, formats[f], ws_text, (int)sizeof ws_out, &len),
                        ROPE_OK);
            assert_null(strstr(ws_text, "nan"));
        }
    }
    assert_int_equal(ROPE_REPORT_MIN_DIM, 2);
    assert_code(rope_report_check_dim(ROPE_MAX_DIM), ROPE_OK);
}

/* The test build links with -Wl,--wrap=malloc: malloc_failure_in(n) makes the
 * n-th malloc from now return NULL, as an exhausted heap would. */
void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);
static int malloc_countdown = -1;

void *__wrap_malloc(size_t size)
{
    if (malloc_countdown >= 0 && malloc_countdown-- == 0) return NULL;
    return __real_malloc(size);
}

/* Not ROPE_E_SPACE, which would send a caller retrying with a bigger buffer. */
TEST(report_build_should_return_nomem_when_malloc_fails)
{
    rope_report_options o;
    int len = -1, failures = 0, rc = ROPE_E_NOMEM;
    rope_report_defaults(&o);
    for (int n = 0; n < 64 && rc == ROPE_E_NOMEM; n++) {
        note("malloc number %d fails", n);
        malloc_countdown = n;
        rc = rope_report_build(&o, ROPE_REPORT_JSON, ws_text, (int)sizeof ws_out, &len);
        malloc_countdown = -1;
        if (rc == ROPE_E_NOMEM)
            failures++;
        else
            assert_code(rc, ROPE_OK);
    }
    assert_code(rc, ROPE_OK);
    assert_true(failures >= 10); /* every temporary's malloc was reached and failed once */
}

TEST(report_write_should_reject_bad_counts_and_format)
{
    int len = -1;
    assert_code(rope_report_write(ROPE_REPORT_MARKDOWN, 8, 1e4, 2.0, good_list, 0, good_list, 3,
                                  good_list, 3, ws_text, (int)sizeof ws_out, &len),
                ROPE_E_COUNT); /* the spreads need a score */
    assert_code(rope_report_write(ROPE_REPORT_MARKDOWN, 8, 1e4, 2.0, good_list, 3, NULL, 0, NULL, 0,
                                  ws_text, (int)sizeof ws_out, &len),
                ROPE_OK);
    assert_code(rope_report_write(7, 8, 1e4, 2.0, good_list, 3, good_list, 3, good_list, 3, ws_text,
                                  (int)sizeof ws_out, &len),
                ROPE_E_VALUE);
    assert_code(rope_report_write(ROPE_REPORT_MARKDOWN, 8, 1e4, 2.0, good_list, 3, good_list, 3,
                                  good_list, 3, ws_text, (int)sizeof ws_out, NULL),
                ROPE_E_NULL);
}

/* ------------------------------------------------------------------------ */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(constants_should_match_contract),
        cmocka_unit_test(demo_vectors_should_follow_contract_formulas),
        cmocka_unit_test(dot_should_sum_products),
        cmocka_unit_test(norm_should_be_square_root_of_sum_of_squares),
        cmocka_unit_test(thetas_should_give_one_value_per_pair_with_known_values),
        cmocka_unit_test(thetas_should_divide_exponent_by_odd_d),
        cmocka_unit_test(thetas_should_be_empty_for_d_zero_and_one),
        cmocka_unit_test(thetas_should_accept_the_largest_dimension),
        cmocka_unit_test(rotate_pair_should_turn_counterclockwise),
        cmocka_unit_test(rotate_pair_should_undo_with_negative_angle),
        cmocka_unit_test(apply_rope_should_be_identity_at_position_zero),
        cmocka_unit_test(apply_rope_should_rotate_pair_i_by_pos_times_theta_i),
        cmocka_unit_test(apply_rope_should_rotate_first_pair_counterclockwise),
        cmocka_unit_test(apply_rope_should_preserve_norm),
        cmocka_unit_test(apply_rope_should_undo_with_negative_position),
        cmocka_unit_test(apply_rope_should_keep_last_element_of_odd_length),
        cmocka_unit_test(apply_rope_should_not_modify_input),
        cmocka_unit_test(apply_rope_should_accept_fractional_and_negative_positions),
        cmocka_unit_test(apply_rope_should_hold_rotation_properties_for_random_cases),
        cmocka_unit_test(rope_score_should_equal_dot_when_positions_match),
        cmocka_unit_test(rope_score_should_give_same_score_for_same_gap),
        cmocka_unit_test(rope_score_should_equal_dot_of_rotated_vectors),
        cmocka_unit_test(rope_score_should_be_sine_of_gap_for_unit_pairs),
        cmocka_unit_test(rope_score_should_depend_on_gap_only_for_random_cases),
        cmocka_unit_test(sin_pos_should_put_sin_on_even_and_cos_on_odd_elements),
        cmocka_unit_test(sin_pos_should_be_zero_one_at_position_zero_and_handle_odd_d),
        cmocka_unit_test(add_score_should_add_position_to_both_sides),
        cmocka_unit_test(add_score_should_match_reference_for_random_cases),
        cmocka_unit_test(offset_scan_should_put_query_at_start_plus_offset),
        cmocka_unit_test(offset_scan_should_give_the_bits_of_score_and_add_score_per_start),
        cmocka_unit_test(offset_sweep_should_match_offset_scan_in_planar_layout),
        cmocka_unit_test(offset_sweep_should_match_offset_scan_for_random_cases),
        cmocka_unit_test(offset_sweep_should_keep_rope_flat_and_additive_moving),
        cmocka_unit_test(turns_should_divide_angle_by_two_pi),
        cmocka_unit_test(slow_pairs_should_count_default_pairs),
        cmocka_unit_test(slow_pairs_should_count_turns_below_one),
        cmocka_unit_test(pair_angles_should_be_gap_times_theta),
        cmocka_unit_test(slow_pairs_batch_should_match_slow_pairs),
        cmocka_unit_test(norm_gaps_should_measure_norm_change_after_rotation),
        cmocka_unit_test(strerror_should_give_text_for_every_code),
        cmocka_unit_test(every_function_should_reject_each_bad_argument_with_its_code),
        cmocka_unit_test(functions_should_report_overflow_as_range),
        cmocka_unit_test(every_base_at_or_below_one_should_be_refused),
        cmocka_unit_test(batch_functions_should_refuse_work_above_the_limit),
        cmocka_unit_test(batch_functions_should_accept_count_zero_with_a_null_out),
        cmocka_unit_test(parse_decimal_should_accept_plain_decimals_only),
        cmocka_unit_test(slow_pairs_batch_should_accept_the_largest_count),
        cmocka_unit_test(envelope_work_should_count_each_start_whatever_the_dim),
        cmocka_unit_test(report_build_should_write_the_fourteen_json_keys),
        cmocka_unit_test(report_build_should_refuse_a_dimension_without_a_pair),
        cmocka_unit_test(report_build_both_should_give_the_bytes_of_report_build),
        cmocka_unit_test(report_build_should_state_the_default_numbers),
        cmocka_unit_test(report_build_should_write_the_four_markdown_headings),
        cmocka_unit_test(report_build_should_report_needed_length_when_buffer_is_too_small),
        cmocka_unit_test(report_write_should_give_the_same_bytes_as_report_build),
        cmocka_unit_test(report_build_should_reject_bad_input),
        cmocka_unit_test(report_build_should_return_nomem_when_malloc_fails),
        cmocka_unit_test(report_write_should_reject_bad_counts_and_format),
    };
    if (testlib_read_seed("test_rope") != 0) return 2;
    return cmocka_run_group_tests_name("ropescope core", tests, NULL, NULL);
}
