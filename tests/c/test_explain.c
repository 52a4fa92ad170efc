/*
 * Unit tests of the explainer functions (c_src/explain/explain.h), run plain and
 * under ASan + UBSan (make test-explain). Outputs are malloc'ed at exactly
 * the documented length, so a write past it is caught by ASan.
 * - Floats compare with docs/SPEC.md's tolerance (assert_close), never ==,
 *   except where the same bits are the point (random vectors, the total of
 *   rope_add_terms against rope_add_score).
 * - Expected values come from the definitions written out again here with
 *   libm, or from published numbers (the blog's example, splitmix64's first
 *   output), never from the function under test.
 * - Randomized tests draw from ROPE_TEST_SEED (printed; time-based if unset).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cmocka.h>

#include "core/rope.h"
#include "explain/explain.h"

static unsigned long long rng_state;

static double uniform(double lo, double hi)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (double)(rng_state >> 11) * 0x1p-53;
}

static int is_close(double got, double want)
{
    return isfinite(got) && fabs(got - want) <= 1e-9 + 1e-6 * fabs(want);
}

#define assert_close(got, want)                                                                    \
    do {                                                                                           \
        double g_ = (got), w_ = (want);                                                            \
        if (!is_close(g_, w_)) fail_msg("%s = %.17g, expected %.17g", #got, g_, w_);               \
    } while (0)

static double *alloc(size_t n)
{
    double *p = malloc((n > 0 ? n : 1) * sizeof(double));
    assert_non_null(p);
    return p;
}

static void fill(double *v, int n)
{
    for (int j = 0; j < n; j++) v[j] = uniform(-2.0, 2.0);
}

static double theta_of(int i, int d, double base)
{
    return pow(base, -2.0 * i / d);
}

static void pair_example_should_give_the_blog_numbers(void **state)
{
    (void)state;
    double out[ROPE_EX_LEN];
    assert_int_equal(rope_pair_example(0.9, 0.4, 0.9, 0.4, 3, 7, 0.1, out), ROPE_OK);
    assert_true(fabs(out[ROPE_EX_QM0] - 0.7416) < 5e-5 && fabs(out[ROPE_EX_QM1] - 0.6481) < 5e-5);
    assert_true(fabs(out[ROPE_EX_KN0] - 0.4307) < 5e-5 && fabs(out[ROPE_EX_KN1] - 0.8857) < 5e-5);
    assert_true(fabs(out[ROPE_EX_DIRECT] - 0.8934) < 5e-5);
    assert_true(fabs(out[ROPE_EX_FORMULA] - 0.8934) < 5e-5);
    double later[ROPE_EX_LEN];
    assert_int_equal(rope_pair_example(0.9, 0.4, 0.9, 0.4, 10, 14, 0.1, later), ROPE_OK);
    assert_close(later[ROPE_EX_DIRECT], out[ROPE_EX_DIRECT]);
}

/* Catches mistake: the cross product or the angle difference with the wrong sign. */
static void pair_example_formula_should_equal_the_rotated_dot(void **state)
{
    (void)state;
    for (int t = 0; t < 200; t++) {
        double q0 = uniform(-2, 2), q1 = uniform(-2, 2), k0 = uniform(-2, 2), k1 = uniform(-2, 2);
        double m = uniform(-100, 100), n = uniform(-100, 100), th = uniform(0, 1), out[ROPE_EX_LEN];
        assert_int_equal(rope_pair_example(q0, q1, k0, k1, m, n, th, out), ROPE_OK);
        double a = m * th, b = n * th;
        double direct = (q0 * cos(a) - q1 * sin(a)) * (k0 * cos(b) - k1 * sin(b)) +
                        (q0 * sin(a) + q1 * cos(a)) * (k0 * sin(b) + k1 * cos(b));
        assert_close(out[ROPE_EX_DIRECT], direct);
        assert_close(out[ROPE_EX_FORMULA], direct);
        assert_close(out[ROPE_EX_CROSS], q0 * k1 - q1 * k0);
    }
}

static void pair_terms_should_sum_to_rope_score(void **state)
{
    (void)state;
    const int dims[] = {0, 1, 2, 3, 8, 65, 128};
    for (size_t t = 0; t < sizeof dims / sizeof dims[0]; t++) {
        int d = dims[t];
        double *q = alloc((size_t)d), *k = alloc((size_t)d);
        double *out = alloc((size_t)ROPE_PAIR_TERMS_LEN(d)), score;
        fill(q, d);
        fill(k, d);
        double n = uniform(0, 4096), m = n + uniform(-4096, 4096);
        assert_int_equal(rope_pair_terms(q, d, k, d, m, n, 10000.0, out), ROPE_OK);
        assert_int_equal(rope_score(q, d, k, d, m, n, 10000.0, &score), ROPE_OK);
        assert_close(out[3 * (d / 2)], score);
        assert_close(out[3 * (d / 2) + 1], score);
        free(q);
        free(k);
        free(out);
    }
}

static void add_terms_should_sum_to_add_score(void **state)
{
    (void)state;
    const int d = 7, count = 9;
    double q[7], k[7], starts[9], *out = alloc(5 * count), *sweep = alloc(5 * count);
    fill(q, d);
    fill(k, d);
    double offset = uniform(-20, 20), start0 = uniform(0, 4000), step = uniform(0.5, 3);
    for (int j = 0; j < count; j++) starts[j] = start0 + j * step;
    assert_int_equal(rope_add_terms(q, d, k, d, offset, starts, count, 500000.0, out), ROPE_OK);
    assert_int_equal(rope_add_terms_sweep(q, d, k, d, offset, start0, step, count, 500000.0, sweep),
                     ROPE_OK);
    for (int j = 0; j < count; j++) {
        double add;
        assert_int_equal(rope_add_score(q, d, k, d, starts[j] + offset, starts[j], 500000.0, &add),
                         ROPE_OK);
        assert_true(out[4 * count + j] == add); /* the same sum, in the same order */
        assert_close(out[j] + out[count + j] + out[2 * count + j] + out[3 * count + j], add);
        for (int b = 0; b < 5; b++) assert_close(sweep[b * count + j], out[b * count + j]);
    }
    free(out);
    free(sweep);
}

/* splitmix64 seeded with 0 first returns 0xe220a8397b1dcdaf (Vigna's reference code). */
static void random_vectors_should_follow_splitmix64(void **state)
{
    (void)state;
    double q[3], k[3];
    assert_int_equal(rope_random_vectors(3, 0, q, k), ROPE_OK);
    assert_true(q[0] == (double)(0xe220a8397b1dcdafull >> 11) * 0x1p-52 - 1.0);
    for (int j = 0; j < 3; j++)
        assert_true(q[j] >= -1.0 && q[j] < 1.0 && k[j] >= -1.0 && k[j] < 1.0);
    uint64_t s = 0;
    double stream[6];
    rope_random_stream(&s, stream, 6);
    assert_true(stream[3] == k[0] && stream[5] == k[2]);
}

static void decay_should_match_its_definition(void **state)
{
    (void)state;
    const int d = 9, count = 5, samples = 4, h = d / 2;
    const double dist[5] = {0.0, 1.0, 37.5, 1e4, 1e6};
    double q[9], k[9], *out = alloc(3 * count), v[4 * 9];
    fill(q, d);
    fill(k, d);
    assert_int_equal(rope_decay(q, d, k, d, dist, count, samples, 77u, 10000.0, out), ROPE_OK);
    uint64_t s = 77u;
    rope_random_stream(&s, v, samples * d);
    for (int j = 0; j < count; j++) {
        double score, mean = 0.0, re = 0.0, im = 0.0, bound = 0.0;
        assert_int_equal(rope_score(q, d, k, d, dist[j], 0.0, 10000.0, &score), ROPE_OK);
        for (int p = 0; p < samples; p++) {
            double one;
            assert_int_equal(rope_score(&v[p * d], d, &v[p * d], d, dist[j], 0.0, 10000.0, &one),
                             ROPE_OK);
            mean += one / samples;
        }
        for (int i = 0; i < h; i++) {
            re += cos(dist[j] * theta_of(i, d, 10000.0));
            im += sin(dist[j] * theta_of(i, d, 10000.0));
            bound += hypot(re, im) / h;
        }
        assert_close(out[j], score);
        assert_close(out[count + j], mean);
        assert_close(out[2 * count + j], bound);
    }
    assert_close(out[2 * count], (h + 1) / 2.0); /* at r = 0 every S_j has length j + 1 */
    free(out);
}

static void cos_grid_should_hold_cos_of_position_times_theta(void **state)
{
    (void)state;
    const int d = 12, count = 7;
    double pos[7], *out = alloc((size_t)(d / 2 * count));
    for (int p = 0; p < count; p++) pos[p] = uniform(-1e5, 1e5);
    assert_int_equal(rope_cos_grid(d, pos, count, 10000.0, out), ROPE_OK);
    for (int i = 0; i < d / 2; i++)
        for (int p = 0; p < count; p++)
            assert_close(out[i * count + p], cos(pos[p] * theta_of(i, d, 10000.0)));
    free(out);
}

/* Catches mistake: a bin that drops its last start, or bins that overlap. */
static void offset_envelope_should_match_a_dense_scan(void **state)
{
    (void)state;
    const int d = 5;
    double q[5], k[5];
    fill(q, d);
    fill(k, d);
    const double from = 10.3, to = 2710.9, offset = 2.5;
    const int c = 2700; /* 11 .. 2710 */
    double *starts = alloc(c), *dense = alloc(3 * (size_t)c);
    for (int j = 0; j < c; j++) starts[j] = 11.0 + j;
    assert_int_equal(rope_offset_scan(q, d, k, d, offset, starts, c, 10000.0, dense), ROPE_OK);
    const int bins_list[] = {1, 7, 640, 2700};
    for (size_t t = 0; t < 4; t++) {
        int bins = bins_list[t];
        double *env = alloc((size_t)(ROPE_ENV_BLOCKS * bins));
        assert_int_equal(rope_offset_envelope(q, d, k, d, offset, from, to, bins, 10000.0, env),
                         ROPE_OK);
        for (int b = 0; b < bins; b++) {
            double rmin = INFINITY, rmax = -INFINITY, amin = INFINITY, amax = -INFINITY;
            int first = -1, last = -1;
            for (int j = 0; j < c; j++) {
                if ((long long)j * bins / c != b) continue;
                if (first < 0) first = j;
                last = j;
                rmin = fmin(rmin, dense[3 * j + 1]);
                rmax = fmax(rmax, dense[3 * j + 1]);
                amin = fmin(amin, dense[3 * j + 2]);
                amax = fmax(amax, dense[3 * j + 2]);
            }
            assert_true(first >= 0);
            assert_true(env[ROPE_ENV_FIRST * bins + b] == starts[first]);
            assert_true(env[ROPE_ENV_LAST * bins + b] == starts[last]);
            assert_close(env[ROPE_ENV_ROPE_MIN * bins + b], rmin);
            assert_close(env[ROPE_ENV_ROPE_MAX * bins + b], rmax);
            assert_close(env[ROPE_ENV_ADD_MIN * bins + b], amin);
            assert_close(env[ROPE_ENV_ADD_MAX * bins + b], amax);
        }
        free(env);
    }
    free(starts);
    free(dense);
}

/* No starts, no output: a NULL out is fine and never offset (the fuzzer found
 * NULL + 0 in cos_grid and decay). */
static void count_zero_should_accept_a_null_out(void **state)
{
    (void)state;
    double q[4] = {1, 2, 3, 4}, k[4] = {4, 3, 2, 1}, none[1] = {0};
    assert_int_equal(rope_add_terms(q, 4, k, 4, 1, none, 0, 1e4, NULL), ROPE_OK);
    assert_int_equal(rope_add_terms_sweep(q, 4, k, 4, 1, 0, 1, 0, 1e4, NULL), ROPE_OK);
    assert_int_equal(rope_decay(q, 4, k, 4, none, 0, 1, 7, 1e4, NULL), ROPE_OK);
    assert_int_equal(rope_cos_grid(4, none, 0, 1e4, NULL), ROPE_OK);
}

static void explain_should_reject_bad_input(void **state)
{
    (void)state;
    double q[4] = {1, 2, 3, 4}, k[4] = {4, 3, 2, 1}, out[64], pos[2] = {1, NAN};
    double far[1] = {-2e10};
    /* The far check is on the angle m theta itself, the largest one the pair makes. */
    assert_int_equal(rope_pair_example(1, 0, 1, 0, 1e11, 0, 0.5, out), ROPE_E_FAR);
    assert_int_equal(rope_pair_example(1, 0, 1, 0, 1, 0, 1e11, out), ROPE_E_FAR);
    assert_int_equal(rope_pair_example(1, 0, 1, 0, 1e11, 0, 0.01, out), ROPE_OK);
    /* base <= 1 is refused by every explainer that takes a base. */
    assert_int_equal(rope_pair_terms(q, 4, k, 4, 1, 0, 1.0, out), ROPE_E_BASE);
    assert_int_equal(rope_add_terms(q, 4, k, 4, 0, far, 1, 0.5, out), ROPE_E_BASE);
    assert_int_equal(rope_decay(q, 4, k, 4, far, 1, 1, 0, 1e-300, out), ROPE_E_BASE);
    assert_int_equal(rope_cos_grid(4, far, 1, 1e-10, out), ROPE_E_BASE);
    assert_int_equal(rope_pair_example(1, INFINITY, 1, 0, 1, 0, 0.1, out), ROPE_E_VALUE);
    assert_int_equal(rope_pair_terms(q, 4, k, 4, 1, 0, NAN, out), ROPE_E_BASE);
    assert_int_equal(rope_pair_terms(q, 4, k, 4, 1, 0, 1e4, NULL), ROPE_E_NULL);
    assert_int_equal(rope_add_terms(q, 4, k, 4, 0, pos, 2, 1e4, out), ROPE_E_POSITION);
    assert_int_equal(rope_add_terms(q, 4, k, 4, 0, far, 1, 1e4, out), ROPE_E_FAR);
    assert_int_equal(rope_add_terms_sweep(q, 4, k, 4, 0, 0, 1, -1, 1e4, out), ROPE_E_COUNT);
    assert_int_equal(rope_decay(q, 4, k, 4, far, 1, 1, 0, 1e4, out), ROPE_E_FAR);
    assert_int_equal(rope_decay(q, 4, k, 3, pos, 1, 1, 0, 1e4, out), ROPE_E_LENGTH);
    assert_int_equal(rope_cos_grid(4, far, 1, 1e4, out), ROPE_E_FAR);
    assert_int_equal(rope_random_vectors(-1, 0, out, out), ROPE_E_DIM);
    assert_int_equal(rope_offset_envelope(q, 4, k, 4, 0, 0, 1, 3, 1e4, out), ROPE_E_COUNT);
    assert_int_equal(rope_offset_envelope(q, 4, k, 4, 0, 0, 1e9, 9, 1e4, out), ROPE_E_WORK);
    /* Empty inputs are legal and write nothing. */
    assert_int_equal(rope_add_terms(q, 4, k, 4, 0, NULL, 0, 1e4, NULL), ROPE_OK);
    assert_int_equal(rope_decay(q, 4, k, 4, NULL, 0, 1, 0, 1e4, NULL), ROPE_OK);
    assert_int_equal(rope_cos_grid(0, pos, 1, 1e4, NULL), ROPE_OK);
}

int main(void)
{
    const char *env = getenv("ROPE_TEST_SEED");
    rng_state = env ? strtoull(env, NULL, 10) : (unsigned long long)time(NULL);
    printf("test_explain: ROPE_TEST_SEED=%llu (set it to reproduce this run)\n", rng_state);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pair_example_should_give_the_blog_numbers),
        cmocka_unit_test(pair_example_formula_should_equal_the_rotated_dot),
        cmocka_unit_test(pair_terms_should_sum_to_rope_score),
        cmocka_unit_test(add_terms_should_sum_to_add_score),
        cmocka_unit_test(random_vectors_should_follow_splitmix64),
        cmocka_unit_test(decay_should_match_its_definition),
        cmocka_unit_test(cos_grid_should_hold_cos_of_position_times_theta),
        cmocka_unit_test(offset_envelope_should_match_a_dense_scan),
        cmocka_unit_test(explain_should_reject_bad_input),
        cmocka_unit_test(count_zero_should_accept_a_null_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
