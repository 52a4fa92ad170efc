/* Number formats: rounding to float32, float16 and bfloat16, the angle
 * position x inv_freq computed in one of them, and its error per pair. */
#include <math.h>

#include "core/rope.h"
#include "core/rope_internal.h"
#include "port/port.h"

/* Nearest with ties to even at bits of precision, subnormals below 2^min_exp. */
static double round_bits(double v, int bits, int min_exp, double max)
{
    if (v == 0.0 || !isfinite(v)) return v;
    int ex;
    frexp(v, &ex);
    int e = ex - 1 < min_exp ? min_exp : ex - 1;
    double r = ldexp(nearbyint(ldexp(v, bits - 1 - e)), e - (bits - 1));
    return fabs(r) > max ? copysign(INFINITY, v) : r;
}

double rope_round_to(int dtype, double v)
{
    /* Torch casts float32 to the half types: round through float32 first. */
    double f = (double)(float)v;
    if (dtype == ROPE_DT_F32) return f;
    if (dtype == ROPE_DT_F16) return round_bits(f, 11, -14, 65504.0);
    if (dtype == ROPE_DT_BF16) return round_bits(f, 8, -126, 3.3895313892515355e38);
    return v;
}

double rope_angle_in(int t, int theta_only, int native, double p, double theta)
{
    /* Two values of at most 24 significant bits: their product is exact in a
     * double, so rounding it once to t is the format's own multiplication. */
    if (theta_only)
        return rope_round_to(native, rope_round_to(native, p) * rope_round_to(t, theta));
    return rope_round_to(t, rope_round_to(t, p) * rope_round_to(t, theta));
}

int rope_check_freqs(const double *theta, int n, double *top)
{
    if (n < 1 || n > ROPE_MAX_DIM / 2) return ROPE_E_DIM;
    if (!theta) return ROPE_E_NULL;
    *top = 0.0;
    for (int i = 0; i < n; i++) {
        if (!isfinite(theta[i]) || theta[i] <= 0.0) return ROPE_E_VALUE;
        if (theta[i] > *top) *top = theta[i];
    }
    return ROPE_OK;
}

int rope_precision_errors(const double *theta, int n, double pos, double *out)
{
    double top;
    int rc = rope_check_freqs(theta, n, &top);
    if (rc != ROPE_OK) return rc;
    if (!out) return ROPE_E_NULL;
    if ((rc = rope_check_angle(pos, top)) != ROPE_OK) return rc;
    static const int dtype[] = {ROPE_DT_F32, ROPE_DT_BF16, ROPE_DT_F16, ROPE_DT_BF16, ROPE_DT_F16};
    for (int c = 0; c < ROPE_PREC_CASES; c++) {
        int theta_only = c >= ROPE_PREC_THETA_BF16;
        for (int i = 0; i < n; i++) {
            double exact = pos * theta[i];
            double a = rope_angle_in(dtype[c], theta_only, ROPE_DT_F32, pos, theta[i]);
            /* Past 65504 float16's p is infinite, and times a theta that rounded to
             * 0 it is NaN: either way the angle is lost. */
            out[c * n + i] = isfinite(a) ? fabs(a - exact) : INFINITY;
        }
    }
    return ROPE_OK;
}
