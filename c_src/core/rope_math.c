/* Deterministic sin, cos and pow: see rope_math.h for why they exist. */
#include "core/rope_math.h"

#include <math.h>

/* pi/2 split so that n * PIO2_1 and n * PIO2_2 are exact for |n| < 2^20
 * (33 significant bits each); PIO2_3 carries the rest. */
static const double PIO2_1 = 1.5707963267341256;
static const double PIO2_2 = 6.077100506303966e-11;
static const double PIO2_3 = 2.0222662487959506e-21;
static const double INV_PIO2 = 0.6366197723675814;
static const double PI_4 = 0.7853981633974483;

/* ln 2 as a double-double. */
static const double LN2_HI = 0.6931471805599453;
static const double LN2_LO = 2.3190468138462996e-17;
static const double INV_LN2 = 1.4426950408889634;
static const double SQRT_HALF = 0.7071067811865476;

/* An unevaluated sum hi + lo with |lo| <= ulp(hi) / 2: about 106 bits. */
typedef struct {
    double hi, lo;
} dd;

/* a + b exactly (Knuth). */
static dd two_sum(double a, double b)
{
    double s = a + b, bb = s - a;
    dd r = {s, (a - (s - bb)) + (b - bb)};
    return r;
}

/* a * b exactly (Dekker, Veltkamp split; needs no fused multiply-add). */
static dd two_prod(double a, double b)
{
    const double split = 134217729.0; /* 2^27 + 1 */
    double p = a * b;
    double ta = split * a, ah = ta - (ta - a), al = a - ah;
    double tb = split * b, bh = tb - (tb - b), bl = b - bh;
    dd r = {p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
    return r;
}

static dd dd_add(dd a, dd b)
{
    dd s = two_sum(a.hi, b.hi);
    return two_sum(s.hi, s.lo + a.lo + b.lo);
}

static dd dd_mul_d(dd a, double b)
{
    dd p = two_prod(a.hi, b);
    return two_sum(p.hi, p.lo + a.lo * b);
}

/* Taylor series to x^17 and x^18: on |x| <= pi/4 the next terms are below
 * 1e-19, far under an ulp, so no fitted (minimax) coefficients are needed. */
static double sin_kernel(double x, double tail)
{
    double z = x * x;
    double p =
        -1.0 / 6 +
        z * (1.0 / 120 +
             z * (-1.0 / 5040 +
                  z * (1.0 / 362880 +
                       z * (-1.0 / 39916800 +
                            z * (1.0 / 6227020800.0 +
                                 z * (-1.0 / 1307674368000.0 + z * (1.0 / 355687428096000.0)))))));
    /* sin(x + tail) = sin(x) + tail * cos(x), to first order in the tiny tail. */
    return x + (x * z * p + tail * (1.0 - 0.5 * z));
}

static double cos_kernel(double x, double tail)
{
    double z = x * x;
    double p =
        1.0 / 24 +
        z * (-1.0 / 720 +
             z * (1.0 / 40320 +
                  z * (-1.0 / 3628800 +
                       z * (1.0 / 479001600 +
                            z * (-1.0 / 87178291200.0 + z * (1.0 / 20922789888000.0 +
                                                             z * (-1.0 / 6402373705728000.0)))))));
    double hz = 0.5 * z, w = 1.0 - hz;
    /* 1 - hz is split off first so its rounding error is added back exactly. */
    return w + (((1.0 - w) - hz) + (z * z * p - x * tail));
}

/* x minus a whole number of turns, for |x| past the Cody-Waite range. fmod is
 * exact in IEEE arithmetic, so every C library gives the same bits; the
 * turns' tail k * TWO_PI_LO is then taken off. Past 2^52 turns the spacing of
 * doubles exceeds a turn and no reduction can mean anything. */
static double reduce_two_pi(double x)
{
    const double TWO_PI_HI = 6.283185307179586, TWO_PI_LO = 2.4492935982947064e-16;
    double r = fmod(x, TWO_PI_HI);
    double k = floor((x - r) / TWO_PI_HI + 0.5);
    return fabs(k) < 4503599627370496.0 ? r - k * TWO_PI_LO : r;
}

void rope_sincos(double x, double *s, double *c)
{
    if (x == 0.0) { /* keeps the sign of -0 */
        *s = x;
        *c = 1.0;
        return;
    }
    if (!isfinite(x)) {
        *s = *c = x - x; /* NaN, as sin and cos give */
        return;
    }
    if (fabs(x) > ROPE_SINCOS_EXACT_MAX) {
        rope_sincos(reduce_two_pi(x), s, c);
        return;
    }
    double n = 0.0, hi = x, lo = 0.0;
    if (fabs(x) > PI_4) {
        /* x = n * pi/2 + (hi + lo): Cody-Waite reduction, carried in double-double. */
        n = floor(x * INV_PIO2 + 0.5);
        double r = x - n * PIO2_1; /* exact: n * PIO2_1 is exact and close to x */
        dd t = two_sum(r, -(n * PIO2_2));
        t.lo -= n * PIO2_3;
        t = two_sum(t.hi, t.lo);
        hi = t.hi;
        lo = t.lo;
    }
    double sk = sin_kernel(hi, lo), ck = cos_kernel(hi, lo);
    long quadrant = ((long)n % 4 + 4) % 4;
    switch (quadrant) {
    case 0:
        *s = sk;
        *c = ck;
        break;
    case 1:
        *s = ck;
        *c = -sk;
        break;
    case 2:
        *s = -sk;
        *c = -ck;
        break;
    default:
        *s = -ck;
        *c = sk;
        break;
    }
}

/* ln(x) for finite x > 0 as a double-double: x = 2^k m with m in [sqrt(1/2),
 * sqrt(2)), ln m = 2 atanh(s) with s = (m - 1) / (m + 1), |s| <= 0.172. */
static dd dd_log(double x)
{
    int k;
    double m = frexp(x, &k);
    if (m < SQRT_HALF) {
        m *= 2.0;
        k -= 1;
    }
    double f = m - 1.0; /* exact (Sterbenz) */
    dd den = two_sum(1.0, m);
    double q1 = f / den.hi;
    dd p = two_prod(q1, den.hi);
    double q2 = (((f - p.hi) - p.lo) - q1 * den.lo) / den.hi;
    dd s = two_sum(q1, q2);
    double z = s.hi * s.hi;
    /* 2 s^3/3 + 2 s^5/5 + ... to s^25: the rest is below 1e-20 of the result. */
    double tail =
        s.hi * z *
        (2.0 / 3 +
         z * (2.0 / 5 +
              z * (2.0 / 7 +
                   z * (2.0 / 9 +
                        z * (2.0 / 11 +
                             z * (2.0 / 13 +
                                  z * (2.0 / 15 +
                                       z * (2.0 / 17 +
                                            z * (2.0 / 19 +
                                                 z * (2.0 / 21 +
                                                      z * (2.0 / 23 + z * (2.0 / 25))))))))))));
    dd ln_m = two_sum(2.0 * s.hi, 2.0 * s.lo + tail);
    dd k_ln2 = two_prod((double)k, LN2_HI);
    k_ln2.lo += (double)k * LN2_LO;
    return dd_add(k_ln2, ln_m);
}

/* e^(t.hi + t.lo): t = n ln 2 + r, |r| <= 0.35, e^r by its Taylor series. */
static double dd_exp(dd t)
{
    if (t.hi > 709.8) return INFINITY;
    if (t.hi < -745.2) return 0.0;
    double n = floor(t.hi * INV_LN2 + 0.5);
    dd p = two_prod(n, LN2_HI);
    double rh = t.hi - p.hi; /* exact (Sterbenz) */
    dd r = two_sum(rh, ((t.lo - p.lo) - n * LN2_LO));
    double x = r.hi;
    double q =
        x * x *
        (1.0 / 2 +
         x * (1.0 / 6 +
              x * (1.0 / 24 +
                   x * (1.0 / 120 +
                        x * (1.0 / 720 +
                             x * (1.0 / 5040 +
                                  x * (1.0 / 40320 +
                                       x * (1.0 / 362880 +
                                            x * (1.0 / 3628800 +
                                                 x * (1.0 / 39916800 +
                                                      x * (1.0 / 479001600 +
                                                           x * (1.0 / 6227020800.0 +
                                                                x * (1.0 / 87178291200.0 +
                                                                     x * (1.0 /
                                                                          1307674368000.0))))))))))))));
    /* e^(x + lo) = e^x (1 + lo): (1 + x) exactly, then the small terms. */
    dd e = two_sum(1.0, x);
    e.lo += q + r.lo * (1.0 + x);
    return ldexp(e.hi + e.lo, (int)n);
}

double rope_pow(double base, double y)
{
    if (y == 0.0 || base == 1.0) return 1.0;
    return dd_exp(dd_mul_d(dd_log(base), y));
}

double rope_log(double x)
{
    dd l = dd_log(x);
    return l.hi + l.lo;
}

double rope_exp(double x)
{
    dd t = {x, 0.0};
    return dd_exp(t);
}
