/* RoPE scaling methods (docs/SCALING.md): every formula, once. */
#include "scaling/scaling.h"

#include <math.h>
#include <stddef.h>

#include "core/rope.h"
#include "core/rope_internal.h"
#include "core/rope_math.h"
#include "scaling/methods.h"

/* What every pair of one config shares, worked out once. */
typedef struct {
    double scaled_base; /* BASE, NTK, DYNAMIC: the base the scaled thetas use */
    double lo, hi;      /* YARN: the correction range */
    const double *list; /* LONGROPE: the factor list in use */
} plan;

/* The names live in the methods' table (methods.c). */
const char *rope_scaling_name(int type)
{
    const rope_method *m = rope_method_of_type(type);
    return m ? m->name : NULL;
}

const char *rope_band_name(int band)
{
    static const char *const names[] = {"keep", "ramp", "divide", "ratio", "still"};
    return band >= 0 && band <= ROPE_BAND_STILL ? names[band] : "?";
}

const char *rope_range_name(int status)
{
    static const char *const names[] = {"covered", "inside", "unseen"};
    return status >= 0 && status < 3 ? names[status] : "?";
}

double rope_yarn_mscale(double s, double m)
{
    return s <= 1.0 ? 1.0 : 0.1 * m * rope_log(s) + 1.0;
}

/* Proportional's last `still` pairs do not rotate. */
static int still_pair(const rope_scaling *s, int i)
{
    return i >= s->dim / 2 - s->still;
}

static int positive(double v)
{
    return isfinite(v) && v > 0.0;
}

/* Pair index at which r full turns fit in L0 (YaRN's correction dimension). */
static double correction_dim(const rope_scaling *s, double r)
{
    return (double)s->dim * rope_log(s->original_max / (ROPE_TWO_PI * r)) /
           (2.0 * rope_log(s->base));
}

static int yarn_plan(const rope_scaling *s, plan *p)
{
    if (!positive(s->beta_fast) || !positive(s->beta_slow) || !positive(s->original_max) ||
        s->base == 1.0 || !isfinite(s->mscale) || !isfinite(s->mscale_all_dim))
        return ROPE_E_SCALING;
    if (!isnan(s->attention_factor) && !positive(s->attention_factor)) return ROPE_E_SCALING;
    double lo = correction_dim(s, s->beta_fast), hi = correction_dim(s, s->beta_slow);
    if (s->truncate) {
        lo = floor(lo);
        hi = ceil(hi);
    }
    lo = lo > 0.0 ? lo : 0.0;
    hi = hi < (double)(s->dim - 1) ? hi : (double)(s->dim - 1);
    /* An empty range would divide by zero in the ramp. */
    if (lo == hi) hi += 0.001;
    if (!isfinite(lo) || !isfinite(hi)) return ROPE_E_RANGE;
    p->lo = lo;
    p->hi = hi;
    return ROPE_OK;
}

/* base * x^(d/(d-2)): the NTK-aware base for a stretch x. */
static double ntk_base(const rope_scaling *s, double x)
{
    return s->base * rope_pow(x, (double)s->dim / (double)(s->dim - 2));
}

static int make_plan(const rope_scaling *s, plan *p)
{
    if (s == NULL) return ROPE_E_NULL;
    if (s->dim < 0 || s->dim > ROPE_MAX_DIM || s->dim % 2 != 0) return ROPE_E_DIM;
    if (!positive(s->base)) return ROPE_E_BASE;
    /* Only proportional has still pairs, and at least one pair rotates. */
    int proportional = s->type == ROPE_SCALING_PROPORTIONAL;
    if (s->still != 0 && (!proportional || s->still < 0 || s->still >= s->dim / 2))
        return ROPE_E_SCALING;
    p->scaled_base = s->base;
    p->lo = p->hi = 0.0;
    p->list = NULL;
    const rope_method *m = rope_method_of_type(s->type);
    int needs_factor = m == NULL || m->factor;
    if (needs_factor && !positive(s->factor)) return ROPE_E_SCALING;
    /* d/(d-2) is undefined at d = 2. */
    int ntk_like = s->type == ROPE_SCALING_NTK || s->type == ROPE_SCALING_DYNAMIC;
    if (ntk_like && s->dim == 2) return ROPE_E_SCALING;
    switch (s->type) {
    case ROPE_SCALING_DEFAULT:
    case ROPE_SCALING_LINEAR:
    case ROPE_SCALING_PROPORTIONAL: return ROPE_OK;
    case ROPE_SCALING_BASE:
        if (!positive(s->new_base)) return ROPE_E_BASE;
        p->scaled_base = s->new_base;
        return ROPE_OK;
    case ROPE_SCALING_NTK:
        p->scaled_base = ntk_base(s, s->factor);
        return positive(p->scaled_base) ? ROPE_OK : ROPE_E_RANGE;
    case ROPE_SCALING_DYNAMIC: {
        if (!positive(s->max_position) || !(s->seq_len >= 0.0) || !isfinite(s->seq_len))
            return ROPE_E_SCALING;
        double len = s->seq_len > s->max_position ? s->seq_len : s->max_position;
        p->scaled_base = ntk_base(s, s->factor * len / s->max_position - (s->factor - 1.0));
        return positive(p->scaled_base) ? ROPE_OK : ROPE_E_RANGE;
    }
    case ROPE_SCALING_YARN: return yarn_plan(s, p);
    case ROPE_SCALING_LONGROPE:
        if (s->short_factor == NULL || s->long_factor == NULL) return ROPE_E_NULL;
        if (!positive(s->original_max) || !(s->seq_len >= 0.0) || !isfinite(s->seq_len))
            return ROPE_E_SCALING;
        if (!isnan(s->attention_factor) && !positive(s->attention_factor)) return ROPE_E_SCALING;
        p->list = s->seq_len > s->original_max ? s->long_factor : s->short_factor;
        for (int i = 0; i < s->dim / 2; i++)
            if (!positive(s->short_factor[i]) || !positive(s->long_factor[i]))
                return ROPE_E_SCALING;
        return ROPE_OK;
    case ROPE_SCALING_LLAMA3:
        if (!positive(s->low_freq_factor) || !positive(s->high_freq_factor) ||
            !positive(s->original_max))
            return ROPE_E_SCALING;
        return ROPE_OK;
    default: return ROPE_E_SCALING;
    }
}

/* Llama 3: short wavelengths keep, long ones divide, a smooth blend between. */
static double llama3_theta(const rope_scaling *s, double theta, int *band)
{
    double wavelength = ROPE_TWO_PI / theta;
    double long_edge = s->original_max / s->low_freq_factor;
    double short_edge = s->original_max / s->high_freq_factor;
    if (wavelength < short_edge) {
        *band = ROPE_BAND_KEEP;
        return theta;
    }
    if (wavelength > long_edge) {
        *band = ROPE_BAND_DIVIDE;
        return theta / s->factor;
    }
    double smooth = (s->original_max / wavelength - s->low_freq_factor) /
                    (s->high_freq_factor - s->low_freq_factor);
    *band = ROPE_BAND_RAMP;
    return (1.0 - smooth) * theta / s->factor + smooth * theta;
}

/* YaRN: pairs below lo keep, above hi are interpolated, a linear ramp between. */
static double yarn_theta(const rope_scaling *s, const plan *p, int i, double theta, int *band)
{
    double ramp = ((double)i - p->lo) / (p->hi - p->lo);
    ramp = ramp < 0.0 ? 0.0 : ramp > 1.0 ? 1.0 : ramp;
    *band = ramp == 0.0 ? ROPE_BAND_KEEP : ramp == 1.0 ? ROPE_BAND_DIVIDE : ROPE_BAND_RAMP;
    return theta * (1.0 - ramp) + (theta / s->factor) * ramp;
}

static double scaled_theta(const rope_scaling *s, const plan *p, int i, double theta, int *band)
{
    switch (s->type) {
    case ROPE_SCALING_LINEAR: *band = ROPE_BAND_DIVIDE; return theta / s->factor;
    case ROPE_SCALING_PROPORTIONAL:
        *band = s->factor == 1.0 ? ROPE_BAND_KEEP : ROPE_BAND_DIVIDE;
        return theta / s->factor;
    case ROPE_SCALING_BASE:
    case ROPE_SCALING_NTK:
    case ROPE_SCALING_DYNAMIC:
        *band = ROPE_BAND_RATIO;
        return rope_theta(i, s->dim, p->scaled_base);
    case ROPE_SCALING_YARN: return yarn_theta(s, p, i, theta, band);
    case ROPE_SCALING_LONGROPE: *band = ROPE_BAND_RATIO; return theta / p->list[i];
    case ROPE_SCALING_LLAMA3: return llama3_theta(s, theta, band);
    default: *band = ROPE_BAND_KEEP; return theta;
    }
}

int rope_scaling_pairs(const rope_scaling *s, double *inv_freq, double *inv_freq_scaled,
                       double *wavelength, double *ratio, int *band)
{
    plan p;
    int rc = make_plan(s, &p);
    if (rc != ROPE_OK) return rc;
    for (int i = 0; i < s->dim / 2; i++) {
        int b;
        if (still_pair(s, i)) {
            if (inv_freq) inv_freq[i] = 0.0;
            if (inv_freq_scaled) inv_freq_scaled[i] = 0.0;
            if (wavelength) wavelength[i] = INFINITY;
            if (ratio) ratio[i] = NAN;
            if (band) band[i] = ROPE_BAND_STILL;
            continue;
        }
        double theta = rope_theta(i, s->dim, s->base);
        double scaled = scaled_theta(s, &p, i, theta, &b);
        double r = scaled / theta, w = ROPE_TWO_PI / theta;
        if (!isfinite(theta) || !isfinite(scaled) || !isfinite(r) || !isfinite(w) || theta == 0.0)
            return ROPE_E_RANGE;
        if (inv_freq) inv_freq[i] = theta;
        if (inv_freq_scaled) inv_freq_scaled[i] = scaled;
        if (wavelength) wavelength[i] = w;
        if (ratio) ratio[i] = r;
        if (band) band[i] = b;
    }
    return ROPE_OK;
}

int rope_scaling_factors(const rope_scaling *s, double *attention_factor,
                         double *softmax_multiplier)
{
    plan p;
    int rc = make_plan(s, &p);
    if (rc != ROPE_OK) return rc;
    double attention = 1.0, softmax = 1.0;
    if (s->type == ROPE_SCALING_YARN) {
        double f = s->factor;
        if (!isnan(s->attention_factor))
            attention = s->attention_factor;
        else if (s->mscale != 0.0 && s->mscale_all_dim != 0.0)
            attention = rope_yarn_mscale(f, s->mscale) / rope_yarn_mscale(f, s->mscale_all_dim);
        else
            attention = rope_yarn_mscale(f, 1.0);
        /* DeepSeek scales the softmax by g(factor, mscale_all_dim)^2 as well. */
        if (s->mscale_all_dim != 0.0) {
            double g = rope_yarn_mscale(f, s->mscale_all_dim);
            softmax = g * g;
        }
    } else if (s->type == ROPE_SCALING_LONGROPE) {
        if (!isnan(s->attention_factor))
            attention = s->attention_factor;
        else if (s->factor > 1.0)
            attention = sqrt(1.0 + rope_log(s->factor) / rope_log(s->original_max));
    }
    if (!isfinite(attention) || !isfinite(softmax)) return ROPE_E_RANGE;
    if (attention_factor) *attention_factor = attention;
    if (softmax_multiplier) *softmax_multiplier = softmax;
    return ROPE_OK;
}

int rope_scaling_yarn_range(const rope_scaling *s, double *lo, double *hi)
{
    plan p;
    int rc = make_plan(s, &p);
    if (rc != ROPE_OK) return rc;
    if (s->type != ROPE_SCALING_YARN) return ROPE_E_SCALING;
    if (lo) *lo = p.lo;
    if (hi) *hi = p.hi;
    return ROPE_OK;
}

int rope_scaling_base_used(const rope_scaling *s, double *base_used)
{
    plan p;
    int rc = make_plan(s, &p);
    if (rc == ROPE_OK && base_used) *base_used = p.scaled_base;
    return rc;
}

int rope_scaling_range(const rope_scaling *s, double train_len, double gap, double *trained_angle,
                       double *gap_angle, int *status, int *counts)
{
    plan p;
    int rc = make_plan(s, &p);
    if (rc != ROPE_OK) return rc;
    if (!positive(train_len) || !isfinite(gap) || gap < 0.0) return ROPE_E_POSITION;
    int n[3] = {0, 0, 0};
    for (int i = 0; i < s->dim / 2; i++) {
        int b;
        /* A still pair stays at angle 0, which training met. */
        int still = still_pair(s, i);
        double theta = still ? 0.0 : rope_theta(i, s->dim, s->base);
        double trained = train_len * theta,
               at_gap = still ? 0.0 : gap * scaled_theta(s, &p, i, theta, &b);
        if (!isfinite(trained) || !isfinite(at_gap)) return ROPE_E_RANGE;
        int st = trained >= ROPE_TWO_PI ? ROPE_RANGE_COVERED
                 : at_gap > trained     ? ROPE_RANGE_UNSEEN
                                        : ROPE_RANGE_INSIDE;
        n[st]++;
        if (trained_angle) trained_angle[i] = trained;
        if (gap_angle) gap_angle[i] = at_gap;
        if (status) status[i] = st;
    }
    if (counts)
        for (int j = 0; j < 3; j++) counts[j] = n[j];
    return ROPE_OK;
}
