/* rope_math against the C library: rope_sincos, rope_pow and rope_exp exist so that
 * native and wasm builds agree bit for bit, and they must stay as accurate as
 * libm. Random inputs from ROPE_TEST_SEED; ends with "N passed, N failed". */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rope_math.h"
#include "testlib.h"

#define SAMPLES 400000

static struct testlib_tally tally;

/* Distance in units in the last place, for finite doubles of the same sign. */
static uint64_t ulps(double a, double b)
{
    int64_t ia, ib;
    memcpy(&ia, &a, sizeof a);
    memcpy(&ib, &b, sizeof b);
    if ((ia < 0) != (ib < 0)) return a == b ? 0 : UINT64_MAX;
    return ia > ib ? (uint64_t)(ia - ib) : (uint64_t)(ib - ia);
}

/* Within 1 ulp where the result is not tiny; where it is (x near a multiple
 * of pi/2) the error is absolute, at most 1e-16. */
static void sincos_should_match_libm_within_one_ulp(double lo, double hi, const char *name)
{
    char detail[160] = "";
    int ok = 1;
    for (int j = 0; j < SAMPLES && ok; j++) {
        double x = rng_uniform(lo, hi), s, c;
        rope_sincos(x, &s, &c);
        double es = sin(x), ec = cos(x);
        int s_ok = fabs(es) > 1e-3 ? ulps(s, es) <= 1 : fabs(s - es) <= 1e-16;
        int c_ok = fabs(ec) > 1e-3 ? ulps(c, ec) <= 1 : fabs(c - ec) <= 1e-16;
        if (!s_ok || !c_ok) {
            ok = 0;
            snprintf(detail, sizeof detail, "x=%.17g sin %.17g vs %.17g, cos %.17g vs %.17g", x, s,
                     es, c, ec);
        }
    }
    testlib_check(&tally, name, ok, detail);
}

/* Past 8e5 the argument is reduced by whole turns; to 1e15 the result stays
 * within 1e-15 of libm's (whose reduction is exact). */
static void sincos_should_match_libm_past_cody_waite(void)
{
    char detail[160] = "";
    int ok = 1;
    for (int j = 0; j < SAMPLES && ok; j++) {
        double x = pow(10.0, rng_uniform(5.9, 15.0)) * ((rng_next() & 1) ? 1.0 : -1.0), s, c;
        rope_sincos(x, &s, &c);
        if (fabs(s - sin(x)) > 1e-15 || fabs(c - cos(x)) > 1e-15) {
            ok = 0;
            snprintf(detail, sizeof detail, "x=%.17g sin %.17g vs %.17g, cos %.17g vs %.17g", x, s,
                     sin(x), c, cos(x));
        }
    }
    testlib_check(&tally, "sincos_should_match_libm_past_cody_waite", ok, detail);
}

static void sincos_should_be_exact_at_special_points(void)
{
    double s, c;
    rope_sincos(0.0, &s, &c);
    testlib_check(&tally, "sincos_should_give_0_and_1_at_zero", s == 0.0 && c == 1.0,
                  "sincos(0) != (0, 1)");
    rope_sincos(-0.0, &s, &c);
    testlib_check(&tally, "sincos_should_keep_negative_zero", signbit(s) && c == 1.0,
                  "sin(-0) is not -0");
    rope_sincos(NAN, &s, &c);
    testlib_check(&tally, "sincos_should_give_nan_for_nan", isnan(s) && isnan(c),
                  "sincos(NaN) is not NaN");
    rope_sincos(INFINITY, &s, &c);
    testlib_check(&tally, "sincos_should_give_nan_for_infinity", isnan(s) && isnan(c),
                  "sincos(Inf) is not NaN");
}

/* theta_i = base^(-2i/d) keeps |y ln base| small (<= 17 for base <= 1e7):
 * there rope_pow is within 2 ulps. ln is carried to ~2^-60, so at extreme
 * exponents (|y ln base| up to 700) a few more ulps are allowed. */
static void pow_should_match_libm(double y_lo, double y_hi, uint64_t max_ulps, const char *name)
{
    char detail[160] = "";
    int ok = 1;
    for (int j = 0; j < SAMPLES && ok; j++) {
        double base = pow(10.0, rng_uniform(-3.0, 7.0));
        double y = (rng_next() & 1) ? -2.0 * (double)(rng_next() % 4096) / 4096.0 * y_hi
                                    : rng_uniform(y_lo, y_hi);
        double got = rope_pow(base, y), want = pow(base, y);
        if (!isfinite(want) || want < 1e-300) continue;
        if (ulps(got, want) > max_ulps) {
            ok = 0;
            snprintf(detail, sizeof detail, "pow(%.17g, %.17g) = %.17g, libm %.17g", base, y, got,
                     want);
        }
    }
    testlib_check(&tally, name, ok, detail);
}

static void pow_should_handle_edges(void)
{
    testlib_check(&tally, "pow_should_give_1_for_exponent_0", rope_pow(12345.0, 0.0) == 1.0,
                  "x^0 != 1");
    testlib_check(&tally, "pow_should_give_1_for_base_1", rope_pow(1.0, 1e300) == 1.0, "1^y != 1");
    testlib_check(&tally, "pow_should_be_exact_for_powers_of_two", rope_pow(2.0, 10.0) == 1024.0,
                  "2^10 != 1024");
    testlib_check(&tally, "pow_should_overflow_to_infinity", isinf(rope_pow(1e300, 2.0)),
                  "no +Inf");
    testlib_check(&tally, "pow_should_underflow_to_zero", rope_pow(1e-300, 2.0) == 0.0, "no 0");
}

/* rope_exp serves the ziggurat's acceptance test (arguments in [-7, 0]) and
 * must be as accurate as libm there and beyond. */
static void exp_should_match_libm_within_one_ulp(double lo, double hi, const char *name)
{
    char detail[160] = "";
    int ok = 1;
    for (int j = 0; j < SAMPLES && ok; j++) {
        double x = rng_uniform(lo, hi);
        double got = rope_exp(x), want = exp(x);
        if (want < 1e-300) continue;
        if (ulps(got, want) > 1) {
            ok = 0;
            snprintf(detail, sizeof detail, "exp(%.17g) = %.17g, libm %.17g", x, got, want);
        }
    }
    testlib_check(&tally, name, ok, detail);
}

int main(void)
{
    if (testlib_read_seed("test_math") != 0) return 2;
    rng_start(0);
    sincos_should_match_libm_within_one_ulp(-3.2, 3.2, "sincos_should_match_libm_near_zero");
    sincos_should_match_libm_within_one_ulp(-9000.0, 9000.0, "sincos_should_match_libm_to_9000");
    sincos_should_match_libm_within_one_ulp(-8.2e5, 8.2e5, "sincos_should_match_libm_to_8e5");
    sincos_should_be_exact_at_special_points();
    sincos_should_match_libm_past_cody_waite();
    pow_should_match_libm(-2.0, 2.0, 2, "pow_should_match_libm_within_2_ulps_for_theta_exponents");
    pow_should_match_libm(-40.0, 40.0, 8, "pow_should_match_libm_within_8_ulps_at_large_exponents");
    pow_should_handle_edges();
    exp_should_match_libm_within_one_ulp(-7.0, 0.0,
                                         "exp_should_match_libm_within_1_ulp_on_the_ziggurat");
    exp_should_match_libm_within_one_ulp(-700.0, 700.0,
                                         "exp_should_match_libm_within_1_ulp_to_700");
    testlib_check(&tally, "exp_should_give_1_at_0", rope_exp(0.0) == 1.0, "e^0 != 1");
    return testlib_report(&tally);
}
