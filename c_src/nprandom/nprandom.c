/* NumPy's default_rng(seed).normal() in C (nprandom.h): SeedSequence, PCG64 and
 * the ziggurat, each step written to give NumPy's bits. docs/EXPLAIN.md says
 * why each step is as it is. */
#include "nprandom/nprandom.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "core/rope.h"
#include "core/rope_internal.h"
#include "core/rope_math.h"
#include "nprandom/np_ziggurat.h"

/* ---- 128-bit unsigned arithmetic (modulo 2^128) ---- */

/* Native compilers and emscripten's clang have a 128-bit integer; elsewhere
 * (or with -DROPE_NP_NO_INT128, which the tests build too) two 64-bit halves. */
#if defined(__SIZEOF_INT128__) && !defined(ROPE_NP_NO_INT128)
__extension__ typedef unsigned __int128 u128;

static u128 u128_make(uint64_t hi, uint64_t lo)
{
    return ((u128)hi << 64) | lo;
}
static uint64_t u128_hi(u128 a)
{
    return (uint64_t)(a >> 64);
}
static uint64_t u128_lo(u128 a)
{
    return (uint64_t)a;
}
static u128 u128_add(u128 a, u128 b)
{
    return a + b;
}
static u128 u128_mul(u128 a, u128 b)
{
    return a * b;
}
#else
typedef struct {
    uint64_t hi, lo;
} u128;

static u128 u128_make(uint64_t hi, uint64_t lo)
{
    u128 r;
    r.hi = hi;
    r.lo = lo;
    return r;
}
static uint64_t u128_hi(u128 a)
{
    return a.hi;
}
static uint64_t u128_lo(u128 a)
{
    return a.lo;
}

static u128 u128_add(u128 a, u128 b)
{
    uint64_t lo = a.lo + b.lo;
    return u128_make(a.hi + b.hi + (lo < a.lo), lo);
}

/* The full 128-bit product of two 64-bit words, from four 32-bit products. */
static u128 mul_64x64(uint64_t x, uint64_t y)
{
    uint64_t x0 = x & 0xffffffffu, x1 = x >> 32, y0 = y & 0xffffffffu, y1 = y >> 32;
    uint64_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    return u128_make(p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32),
                     (mid << 32) | (p00 & 0xffffffffu));
}

/* Modulo 2^128 the high x high product vanishes and the cross terms only
 * reach the high word. */
static u128 u128_mul(u128 a, u128 b)
{
    u128 r = mul_64x64(a.lo, b.lo);
    r.hi += a.hi * b.lo + a.lo * b.hi;
    return r;
}
#endif

/* ---- SeedSequence (pool of four 32-bit words) ---- */

#define NP_POOL 4
#define NP_INIT_A 0x43b0d7e5u
#define NP_MULT_A 0x931e8875u
#define NP_INIT_B 0x8b51f9ddu
#define NP_MULT_B 0x58f38dedu
#define NP_MIX_L 0xca01f9ddu
#define NP_MIX_R 0x4973f715u

/* One hashing step; the multiplier changes at every call, so it is state. */
static uint32_t hashmix(uint32_t value, uint32_t *mult)
{
    value ^= *mult;
    *mult *= NP_MULT_A;
    value *= *mult;
    return value ^ (value >> 16);
}

static uint32_t mix(uint32_t x, uint32_t y)
{
    uint32_t r = NP_MIX_L * x - NP_MIX_R * y;
    return r ^ (r >> 16);
}

int rope_np_seed_words(uint64_t seed, uint64_t *out)
{
    if (out == NULL) return ROPE_E_NULL;
    /* NumPy splits an integer seed into 32-bit words, low first, and keeps the
     * high word only when it is nonzero (0 itself is one word). */
    uint32_t entropy[2] = {(uint32_t)(seed & 0xffffffffu), (uint32_t)(seed >> 32)};
    int words = entropy[1] != 0 ? 2 : 1;
    uint32_t pool[NP_POOL];
    uint32_t mult = NP_INIT_A;
    for (int i = 0; i < NP_POOL; i++) pool[i] = hashmix(i < words ? entropy[i] : 0u, &mult);
    /* Every word is mixed into every other, so late bits reach early words. */
    for (int src = 0; src < NP_POOL; src++)
        for (int dst = 0; dst < NP_POOL; dst++)
            if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src], &mult));
    /* generate_state(4, uint64): eight 32-bit words cycling over the pool,
     * paired little-endian into 64-bit ones. */
    uint32_t state[2 * NP_POOL];
    mult = NP_INIT_B;
    for (int i = 0; i < 2 * NP_POOL; i++) {
        uint32_t v = pool[i % NP_POOL] ^ mult;
        mult *= NP_MULT_B;
        v *= mult;
        state[i] = v ^ (v >> 16);
    }
    for (int i = 0; i < NP_POOL; i++)
        out[i] = (uint64_t)state[2 * i] | ((uint64_t)state[2 * i + 1] << 32);
    return ROPE_OK;
}

/* ---- PCG64: state' = state * A + inc (mod 2^128), output XSL-RR ---- */

typedef struct {
    u128 state, inc;
} pcg64;

static u128 pcg_multiplier(void)
{
    return u128_make(2549297995355413924u, 4865540595714422341u);
}

static void pcg_step(pcg64 *g)
{
    g->state = u128_add(u128_mul(g->state, pcg_multiplier()), g->inc);
}

/* PCG's srandom: the increment must be odd, and the seed is stirred in
 * between two steps so that nearby seeds start far apart. */
static void pcg_seed(pcg64 *g, uint64_t seed)
{
    uint64_t w[4];
    (void)rope_np_seed_words(seed, w);
    g->inc = u128_make((w[2] << 1) | (w[3] >> 63), (w[3] << 1) | 1u);
    g->state = u128_make(0, 0);
    pcg_step(g);
    g->state = u128_add(g->state, u128_make(w[0], w[1]));
    pcg_step(g);
}

/* XOR the halves, then rotate right by the state's top six bits. */
static uint64_t pcg_next(pcg64 *g)
{
    pcg_step(g);
    uint64_t hi = u128_hi(g->state);
    uint64_t x = hi ^ u128_lo(g->state);
    unsigned rot = (unsigned)(hi >> 58);
    return (x >> rot) | (x << ((64u - rot) & 63u));
}

/* The top 53 bits as a double in [0, 1): exact, no rounding. */
static double pcg_double(pcg64 *g)
{
    return (double)(pcg_next(g) >> 11) * (1.0 / 9007199254740992.0);
}

static int check_draws(const void *out, int n)
{
    if (n < 0) return ROPE_E_COUNT;
    if (n > ROPE_MAX_WORK) return ROPE_E_WORK;
    return (n > 0 && out == NULL) ? ROPE_E_NULL : ROPE_OK;
}

int rope_np_raw(uint64_t seed, uint64_t *out, int n)
{
    int rc = check_draws(out, n);
    if (rc != ROPE_OK) return rc;
    pcg64 g;
    pcg_seed(&g, seed);
    for (int i = 0; i < n; i++) out[i] = pcg_next(&g);
    return ROPE_OK;
}

/* ---- log1p as NumPy's platform computes it ---- */

static uint32_t high_word(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return (uint32_t)(bits >> 32);
}

static double with_high_word(double x, uint32_t hi)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits = (bits & 0xffffffffu) | ((uint64_t)hi << 32);
    memcpy(&x, &bits, sizeof bits);
    return x;
}

/* log1p(x) for -1 < x <= 0, the only inputs the tail gives it. The tail's
 * value is this logarithm itself, so it must round as glibc's log1p does on
 * x86-64 with FMA (what NumPy calls there); musl's (wasm) differs in ~1 in
 * 1000 results. glibc's is fdlibm's log1p with a split polynomial, built with
 * fused multiply-adds: the fma() calls below sit exactly where that build
 * fuses, so any correctly rounded fma() (glibc's, musl's) gives its bits. */
static double np_log1p(double x)
{
    static const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    static const double lp[8] = {0.0,
                                 6.666666666666735130e-01,
                                 3.999999999940941908e-01,
                                 2.857142874366239149e-01,
                                 2.222219843214978396e-01,
                                 1.818357216161805012e-01,
                                 1.531383769920937332e-01,
                                 1.479819860511658591e-01};
    uint32_t ax = high_word(x) & 0x7fffffffu;
    double f, c = 0.0;
    int k, hu;
    if (ax < 0x3e200000u) { /* |x| < 2^-29: two terms of the series */
        if (ax < 0x3c900000u) return x;
        return fma(-(x * x), 0.5, x);
    }
    if (ax < 0x3fd2bec4u) { /* -0.2929 < x: no reduction */
        k = 0;
        f = x;
        hu = 1;
    } else {
        /* 1 + x = 2^k u with u near 1; c restores what rounding 1 + x lost. */
        double u = 1.0 + x;
        uint32_t hi = high_word(u);
        k = (int)(hi >> 20) - 1023;
        c = (k > 0) ? 1.0 - (u - x) : x - (u - 1.0);
        c /= u;
        hu = (int)(hi & 0x000fffffu);
        if (hu < 0x6a09e) {
            u = with_high_word(u, (uint32_t)hu | 0x3ff00000u);
        } else {
            k += 1;
            u = with_high_word(u, (uint32_t)hu | 0x3fe00000u);
            hu = (0x00100000 - hu) >> 2;
        }
        f = u - 1.0;
    }
    double dk = (double)k;
    double hfsq = 0.5 * f * f;
    if (hu == 0) { /* |f| < 2^-20 */
        if (f == 0.0) return k == 0 ? 0.0 : fma(dk, ln2_hi, fma(dk, ln2_lo, c));
        double r = fma(-f, 0.66666666666666666, 1.0) * hfsq;
        if (k == 0) return f - r;
        return fma(dk, ln2_hi, -((r - fma(dk, ln2_lo, c)) - f));
    }
    double s = f / (2.0 + f);
    double z = s * s, z2 = z * z, z4 = z2 * z2, z6 = z4 * z2;
    double r = fma(z, lp[1], z2 * fma(z, lp[3], lp[2]));
    r = fma(z4, fma(z, lp[5], lp[4]), r);
    r = fma(z6, fma(z, lp[7], lp[6]), r);
    double sr = s * (hfsq + r);
    if (k == 0) return f - (hfsq - sr);
    return fma(dk, ln2_hi, -((hfsq - (sr + fma(dk, ln2_lo, c))) - f));
}

int rope_np_log1p(double x, double *out)
{
    if (out == NULL) return ROPE_E_NULL;
    if (!(x > -1.0 && x <= 0.0)) return ROPE_E_VALUE;
    *out = np_log1p(x);
    return ROPE_OK;
}

/* ---- The ziggurat (NumPy's random_standard_normal) ---- */

/* One 64-bit draw gives the layer (low 8 bits), the sign (next bit) and a
 * 52-bit magnitude; 99% of draws land inside their layer's rectangle and
 * are done. The exp() below only decides between two outcomes: a last-bit
 * difference from NumPy's libm matters only when the uniform lands within an
 * ulp of the curve (under 1 in 10^13 tests), so the core's own exp (same bits
 * native and wasm, no libm exp in the module) does. */
static double zig_normal(pcg64 *g)
{
    for (;;) {
        uint64_t r = pcg_next(g);
        int layer = (int)(r & 0xffu);
        r >>= 8;
        int negative = (int)(r & 1u);
        uint64_t mag = (r >> 1) & 0x000fffffffffffffu;
        double x = (double)mag * rope_np_zig_w[layer];
        if (negative) x = -x;
        if (mag < rope_np_zig_k[layer]) return x;
        if (layer == 0) {
            /* The tail beyond r, by Marsaglia's exponential method; 1 - U
             * (as log1p(-U)) keeps the logarithm away from 0. */
            for (;;) {
                double xx = -ROPE_NP_ZIG_INV_R * np_log1p(-pcg_double(g));
                double yy = -np_log1p(-pcg_double(g));
                if (yy + yy > xx * xx)
                    return ((mag >> 8) & 1u) ? -(ROPE_NP_ZIG_R + xx) : ROPE_NP_ZIG_R + xx;
            }
        }
        /* Outside the rectangle: accept under the density's curve. */
        double f_in = rope_np_zig_f[layer - 1], f_out = rope_np_zig_f[layer];
        if ((f_in - f_out) * pcg_double(g) + f_out < rope_exp(-0.5 * x * x)) return x;
    }
}

int rope_np_normal(uint64_t seed, double *out, int n)
{
    int rc = check_draws(out, n);
    if (rc != ROPE_OK) return rc;
    pcg64 g;
    pcg_seed(&g, seed);
    /* normal() is loc + scale * z with loc 0 and scale 1: kept so that a
     * z of -0.0 comes out as NumPy's +0.0. */
    for (int i = 0; i < n; i++) out[i] = 0.0 + 1.0 * zig_normal(&g);
    return ROPE_OK;
}

int rope_planes_example(uint64_t seed, int dim, double base, double m, double n, double *token,
                        double *score)
{
    int rc = rope_check_dim(dim);
    if (rc == ROPE_OK) rc = rope_check_base(base);
    if (rc == ROPE_OK) rc = rope_check_rotating(m, base);
    if (rc == ROPE_OK) rc = rope_check_rotating(n, base);
    if (rc != ROPE_OK) return rc;
    if ((dim > 0 && token == NULL) || score == NULL) return ROPE_E_NULL;
    /* The post draws one token and scores it against itself: q = k. */
    rc = rope_np_normal(seed, token, dim);
    if (rc != ROPE_OK) return rc;
    return rope_score(token, dim, token, dim, m, n, base, score);
}
