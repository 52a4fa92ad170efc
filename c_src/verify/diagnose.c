/* Diagnosis (docs/VERIFY.md): each known mistake is a change to the model of
 * how the dump was computed. The config-side changes (base, dim, scaling)
 * are crossed with the precision; the layout, the sign, the amplitude and
 * the position offset are read off the dump. A change set explains the dump
 * when its model matches within the dump's tolerance; the sets with the
 * fewest changes are named. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rope.h"
#include "core/rope_math.h"
#include "verify/verify.h"

#define MAX_VARIANTS 32
#define SAMPLE_ROWS 512
#define RECOVER_ROWS 4096
#define FAILED_ROWS 64
#define OFFSET_SLACK 8
#define PI 3.14159265358979323846
#define AT(t, k) rope_table_at((t), (size_t)(k))

/* One config-side change: a scaling to compute theta from, with its code. */
/* A change to the scaled theta that no rope_scaling describes: llama3's blend
 * run backwards, over its ramp only or over all three bands. */
#define TWIST_NONE 0
#define TWIST_RAMP_REVERSED 1
#define TWIST_BANDS_REVERSED 2

typedef struct {
    rope_scaling s;
    int head_dim_exponent;    /* the exponent's d is head_dim, only the first n pairs kept */
    int twist;                /* TWIST_* */
    const char *code, *code2; /* code2: a second change (a base fitted beside a dim) */
    char message[ROPE_VERIFY_MSG], message2[ROPE_VERIFY_MSG];
} variant;

typedef struct {
    const rope_config *c;
    const rope_dump *d;
    int n_dump;              /* pairs the dump holds */
    double *recovered;       /* per pair theta read off the dump (NULL if not known) */
    int sign, layout, apply; /* the table's layout; how the user applies it (--apply) or unknown */
    double amplitude;
    int stored; /* a float32 or float64 table's values all of this lower dtype, or -1 */
    long rows[SAMPLE_ROWS + FAILED_ROWS]; /* the sample, then rows that failed a confirmation */
    long n_rows, n_sample;
} context;

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static void
add(variant *v, int *n, const rope_scaling *s, const char *code, const char *fmt, ...);
static void add(variant *v, int *n, const rope_scaling *s, const char *code, const char *fmt, ...)
{
    if (*n == MAX_VARIANTS) return;
    variant *x = &v[(*n)++];
    memset(x, 0, sizeof *x);
    x->s = *s;
    x->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->message, sizeof x->message, fmt, ap);
    va_end(ap);
}

/* The variant's theta, n pairs, and its attention factor. */
static int variant_theta(const context *x, const variant *v, double *theta, int n, double *af)
{
    rope_scaling s = v->s;
    if (v->head_dim_exponent) s.dim = (int)x->c->head_dim;
    if (s.dim / 2 < n || (!v->head_dim_exponent && s.dim / 2 != n)) return ROPE_E_LENGTH;
    size_t half = (size_t)(s.dim / 2);
    double *all = malloc(2 * half * sizeof(double));
    int *band = malloc(half * sizeof(int));
    if (!all || !band) {
        free(all), free(band);
        return ROPE_E_NOMEM;
    }
    int rc = rope_scaling_pairs(&s, all + half, all, NULL, NULL, band);
    if (rc == ROPE_OK) rc = rope_scaling_factors(&s, af, NULL);
    /* Reversed, the ratio theta'/theta runs from 1/factor to 1 where it ran from 1 to
     * 1/factor: 1 + 1/factor - ratio (the ramp's smooth and 1 - smooth exchanged). */
    for (size_t i = 0; rc == ROPE_OK && v->twist != TWIST_NONE && i < half; i++)
        if (v->twist == TWIST_BANDS_REVERSED || band[i] == ROPE_BAND_RAMP)
            all[i] = all[half + i] * (1.0 + 1.0 / s.factor) - all[i];
    if (rc == ROPE_OK) memcpy(theta, all, (size_t)n * sizeof(double));
    free(all), free(band);
    return rc;
}

static double wrap(double a)
{
    return a - 2.0 * PI * floor((a + PI) / (2.0 * PI));
}

/* Per pair theta from consecutive rows' phase steps; also the sign of the
 * rotation and the mean radius (the amplitude). */
static void read_off(context *x)
{
    const rope_table *c = x->d->cos, *s = x->d->sin;
    long rows = c->rows < RECOVER_ROWS ? c->rows : RECOVER_ROWS, w = c->width;
    int n = x->n_dump, negative = 0;
    double radius = 0.0;
    for (int i = 0; i < n; i++) {
        int col, unused;
        rope_layout_dims(x->layout, n, i, &col, &unused);
        double sum = 0.0, prev = atan2(AT(s, col), AT(c, col));
        radius += hypot(AT(s, col), AT(c, col));
        for (long r = 1; r < rows; r++) {
            double ph = atan2(AT(s, r * w + col), AT(c, r * w + col));
            radius += hypot(AT(s, r * w + col), AT(c, r * w + col));
            sum += wrap(ph - prev);
            prev = ph;
        }
        x->recovered[i] = rows > 1 ? sum / (double)(rows - 1) : NAN;
        negative += x->recovered[i] < 0.0;
    }
    x->amplitude = radius / ((double)n * (double)rows);
    x->sign = 2 * negative > n ? -1 : 1;
    for (int i = 0; i < n; i++) x->recovered[i] *= x->sign;
}

/* Row r's offset o (row r at position from + r + o), read from its phases
 * from the slowest pair to the fastest, each step narrowing it. */
static double row_offset(const context *x, const double *theta, int n, long r)
{
    const rope_table *c = x->d->cos, *s = x->d->sin;
    long w = c->width;
    double p0 = x->d->from + (double)r, o = 0.0;
    /* theta falls with the pair index: the slowest pair is the last. */
    for (int i = n - 1; i >= 0; i--) {
        int col, unused;
        rope_layout_dims(x->layout, n, i, &col, &unused);
        double ph = x->sign * atan2(AT(s, r * w + col), AT(c, r * w + col)), th = theta[i];
        if (!(th > 0.0)) continue;
        o += wrap(ph - (p0 + o) * th) / th;
    }
    return o;
}

static int by_value(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

/* The integer offset, from the sample rows: angles computed in a low
 * precision round the position itself (bfloat16 holds only every 8th
 * integer from 1024 to 2048), so one row can read an offset a few positions
 * off; the rounding errors of many rows cancel. The mean of the rows within
 * 8 positions of their median (a row read a whole turn off stays out). */
static double read_offset(const context *x, const double *theta, int n)
{
    double o[SAMPLE_ROWS], sorted[SAMPLE_ROWS], sum = 0.0;
    long m = 0;
    for (long k = 0; k < x->n_sample; k++) {
        double v = row_offset(x, theta, n, x->rows[k]);
        if (isfinite(v)) o[m] = sorted[m] = v, m++;
    }
    if (m == 0) return 0.0;
    qsort(sorted, (size_t)m, sizeof sorted[0], by_value);
    double median = sorted[m / 2];
    long kept = 0;
    for (long k = 0; k < m; k++)
        if (fabs(o[k] - median) <= 8.0) sum += o[k], kept++;
    return nearbyint(sum / (double)kept);
}

static double nice(double v, int digits)
{
    double scale = pow(10.0, digits - 1 - floor(log10(v)));
    return nearbyint(v * scale) / scale;
}

/* Fits rope_theta to the recovered slowest pair under the variant's scaling. */
static void add_base_fits(const context *x, variant *v, int *nv, const variant *from)
{
    int n = x->n_dump;
    if (!x->recovered || n < 2 || from->head_dim_exponent || from->s.dim / 2 != n) return;
    double *th = malloc((size_t)n * sizeof(double)), af;
    if (!th) return;
    if (variant_theta(x, from, th, n, &af) == ROPE_OK && x->recovered[n - 1] > 0.0) {
        /* rope_pow: the same bits natively and in the page's module. */
        double ratio = th[n - 1] / rope_pow(from->s.base, -2.0 * (n - 1) / from->s.dim);
        double fit = rope_pow(x->recovered[n - 1] / ratio, -(double)from->s.dim / (2.0 * (n - 1)));
        double tried[4] = {nice(fit, 1), nice(fit, 2), nice(fit, 3), fit};
        for (int k = 0; k < 4 && isfinite(fit) && fit > 1.0; k++) {
            if (k > 0 && tried[k] == tried[k - 1]) continue;
            if (fabs(tried[k] / from->s.base - 1.0) < 1e-12) continue;
            rope_scaling s = from->s;
            s.base = tried[k];
            add(v, nv, &s, "wrong_base", "rope_theta %.10g fits the dump; the config says %.10g",
                tried[k], from->s.base);
            variant *w = &v[*nv - 1];
            /* A base fitted beside another change: that change first. */
            if (from->code) {
                w->code2 = w->code;
                memcpy(w->message2, w->message, sizeof w->message);
                w->code = from->code;
                memcpy(w->message, from->message, sizeof w->message);
            }
        }
    }
    free(th);
}

static void add_scaling_variants(const context *x, variant *v, int *nv)
{
    const rope_scaling *cs = &x->c->scaling;
    const char *name = rope_scaling_name(cs->type);
    if (cs->type == ROPE_SCALING_PROPORTIONAL) {
        /* Its only scaling is the division by factor (1 in Gemma 4's configs). */
        if (cs->factor != 1.0) {
            rope_scaling s = *cs;
            s.factor = 1.0;
            add(v, nv, &s, "scaling_not_applied",
                "the dump's frequencies are not divided by proportional's factor %.10g",
                cs->factor);
        }
        return;
    }
    if (cs->type != ROPE_SCALING_DEFAULT) {
        rope_scaling s = *cs;
        s.type = ROPE_SCALING_DEFAULT;
        add(v, nv, &s, "scaling_not_applied",
            "the dump holds unscaled RoPE: the config's %s "
            "scaling is not applied",
            name);
    }
    double l0 = isfinite(cs->original_max) ? cs->original_max : cs->max_position;
    if (isfinite(cs->factor) && cs->factor > 0.0 && cs->type != ROPE_SCALING_BASE) {
        static const int methods[] = {ROPE_SCALING_LINEAR, ROPE_SCALING_DYNAMIC, ROPE_SCALING_YARN,
                                      ROPE_SCALING_LLAMA3, ROPE_SCALING_NTK};
        for (int k = 0; k < 5; k++) {
            if (methods[k] == cs->type) continue;
            rope_scaling s = *cs;
            s.type = methods[k];
            s.beta_fast = 32.0, s.beta_slow = 1.0, s.mscale = s.mscale_all_dim = 0.0;
            s.truncate = 1, s.attention_factor = NAN, s.low_freq_factor = 1.0;
            s.high_freq_factor = 4.0, s.original_max = l0;
            if (!isfinite(s.max_position)) s.max_position = l0;
            if ((methods[k] != ROPE_SCALING_LINEAR && methods[k] != ROPE_SCALING_NTK) &&
                !isfinite(l0))
                continue;
            /* Up to max_position_embeddings dynamic is the unscaled RoPE: scaling_not_applied. */
            if (methods[k] == ROPE_SCALING_DYNAMIC && !(s.seq_len > s.max_position)) continue;
            add(v, nv, &s, "scaling_wrong_method",
                "%s scaling (factor %.10g, its default "
                "parameters) fits the dump; the config asks for %s",
                rope_scaling_name(methods[k]), cs->factor, name);
        }
    }
    /* Dynamic is the unscaled RoPE up to max_position_embeddings, whatever its factor. */
    int dynamic_scales = cs->type == ROPE_SCALING_DYNAMIC && cs->seq_len > cs->max_position;
    if (cs->type == ROPE_SCALING_LINEAR || cs->type == ROPE_SCALING_LLAMA3 ||
        cs->type == ROPE_SCALING_YARN || dynamic_scales) {
        rope_scaling s = *cs;
        s.factor = cs->factor * cs->factor;
        /* The frequencies divided twice; yarn's attention factor still the config's. */
        double a = 1.0;
        if (cs->type == ROPE_SCALING_YARN && rope_scaling_factors(cs, &a, NULL) == ROPE_OK)
            s.attention_factor = a;
        const char *where = cs->type == ROPE_SCALING_LLAMA3 ? " in llama3's divided band and ramp"
                            : cs->type == ROPE_SCALING_YARN
                                ? " in yarn's interpolated pairs and ramp"
                            : cs->type == ROPE_SCALING_DYNAMIC ? " in dynamic NTK's base"
                                                               : "";
        if (cs->factor != 1.0)
            add(v, nv, &s, "factor_applied_twice",
                "inv_freq is divided by the factor %.10g twice (by %.10g)%s", cs->factor, s.factor,
                where);
    }
    if (cs->type == ROPE_SCALING_LLAMA3) {
        rope_scaling s = *cs;
        s.low_freq_factor = cs->high_freq_factor, s.high_freq_factor = cs->low_freq_factor;
        add(v, nv, &s, "wrong_band_bounds",
            "llama3's band edges are swapped: low_freq_factor "
            "%.10g and high_freq_factor %.10g exchanged fit the dump",
            cs->low_freq_factor, cs->high_freq_factor);
        if (isfinite(cs->max_position) && cs->max_position != cs->original_max) {
            s = *cs;
            s.original_max = cs->max_position;
            add(v, nv, &s, "wrong_band_bounds",
                "llama3's band edges (wavelengths L0 / low_freq_factor and L0 / "
                "high_freq_factor) taken from max_position_embeddings %.10g fit the dump; "
                "L0 is original_max_position_embeddings %.10g",
                cs->max_position, cs->original_max);
        }
        if (cs->factor != 1.0) {
            add(v, nv, cs, "llama3_blend_reversed",
                "llama3's ramp runs backwards: smooth and 1 - smooth exchanged, so the ramp "
                "goes from inv_freq / %.10g at the short-wavelength edge to inv_freq at the "
                "long one",
                cs->factor);
            v[*nv - 1].twist = TWIST_RAMP_REVERSED;
            add(v, nv, cs, "llama3_blend_reversed",
                "llama3's bands are reversed: the high-frequency band (wavelength below L0 / "
                "high_freq_factor %.10g) is divided by factor %.10g and the low-frequency band "
                "kept, the ramp run backwards",
                cs->original_max / cs->high_freq_factor, cs->factor);
            v[*nv - 1].twist = TWIST_BANDS_REVERSED;
        }
    }
    if (cs->type == ROPE_SCALING_YARN) {
        rope_scaling s = *cs;
        s.truncate = !cs->truncate;
        add(v, nv, &s, "wrong_band_bounds",
            "yarn's correction range %s rounded outwards fits the "
            "dump; the config says truncate %s",
            cs->truncate ? "not" : "", cs->truncate ? "true" : "false");
        s = *cs;
        s.beta_fast = cs->beta_slow, s.beta_slow = cs->beta_fast;
        add(v, nv, &s, "wrong_band_bounds",
            "yarn's beta_fast %.10g and beta_slow %.10g "
            "exchanged fit the dump",
            cs->beta_fast, cs->beta_slow);
        double f = cs->max_position / cs->original_max;
        if (isfinite(f) && f > 0.0 && fabs(f / cs->factor - 1.0) > 1e-12) {
            s = *cs;
            s.factor = f;
            add(v, nv, &s, "yarn_factor_from_positions",
                "yarn factor max_position_embeddings / "
                "original_max_position_embeddings = %.10g fits the dump (transformers 4.51-4.55); "
                "the config's factor is %.10g",
                f, cs->factor);
        }
    }
    if (cs->type == ROPE_SCALING_LONGROPE) {
        rope_scaling s = *cs;
        int is_long = cs->seq_len > cs->original_max;
        s.short_factor = cs->long_factor, s.long_factor = cs->short_factor;
        add(v, nv, &s, "longrope_wrong_factors",
            "the %s_factor list fits the dump; at sequence "
            "length %.10g (L0 %.10g) transformers uses %s_factor",
            is_long ? "short" : "long", cs->seq_len, cs->original_max, is_long ? "long" : "short");
    }
}

/* The config-side variants: as configured, dims, scaling, each with a base fit. */
static int build_variants(const context *x, variant *v)
{
    const rope_config *c = x->c;
    const rope_scaling *cs = &c->scaling;
    int nv = 0, n = x->n_dump, d = cs->dim;
    add(v, &nv, cs, NULL, "%s", "");
    int lists = cs->type == ROPE_SCALING_LONGROPE;
    int proportional = cs->type == ROPE_SCALING_PROPORTIONAL;
    if (proportional && n == d / 2 - cs->still) {
        /* proportional's table cut to its rotating pairs: right frequencies, wrong width. */
        add(v, &nv, cs, "wrong_rotary_dim",
            "the dump holds only the %d rotating pairs; rope_type proportional keeps all %d "
            "pairs of the head (%d dims), the last %d with frequency 0, so rotate_half pairs "
            "dim i with i + %d, not i + %d",
            n, d / 2, d, cs->still, d / 2, n);
        v[nv - 1].head_dim_exponent = 1;
    } else if (n != d / 2 && !lists) {
        rope_scaling s = *cs;
        s.dim = 2 * n;
        s.still = 0;
        int full = c->partial_rotary_factor < 1.0 && 2 * n == (int)c->head_dim;
        if (full)
            add(v, &nv, &s, "partial_rotary_ignored",
                "partial_rotary_factor %.10g is ignored: the "
                "dump rotates all %d dims of head_dim, the config rotates %d",
                c->partial_rotary_factor, 2 * n, d);
        else
            add(v, &nv, &s, "wrong_rotary_dim",
                "the dump's rotary dim is %d (%d pairs); the "
                "config's is %d (from %s)",
                2 * n, n, d, c->dim_source ? c->dim_source : "head_dim");
    }
    if (proportional && n == d / 2) {
        rope_scaling s = *cs;
        s.still = 0;
        add(v, &nv, &s, "partial_rotary_ignored",
            "the last %d pairs rotate; rope_type proportional gives them frequency 0 "
            "(partial_rotary_factor %.10g rotates %d of %d pairs)",
            cs->still, c->partial_rotary_factor, d / 2 - cs->still, d / 2);
    } else if (n == d / 2 && c->partial_rotary_factor < 1.0 && !lists) {
        add(v, &nv, cs, "partial_rotary_ignored",
            "inv_freq's exponent uses head_dim %.10g in "
            "place of the rotary dim %d (partial_rotary_factor %.10g)",
            c->head_dim, d, c->partial_rotary_factor);
        v[nv - 1].head_dim_exponent = 1;
    }
    if (n == d / 2) add_scaling_variants(x, v, &nv);
    int structural = nv;
    for (int k = 0; k < structural && k < 2; k++) add_base_fits(x, v, &nv, &v[k]);
    return nv;
}

typedef struct {
    const char *codes[6];
    char messages[6][ROPE_VERIFY_MSG];
    int n;
} explanation;

static void push(explanation *e, const char *code, const char *message)
{
    e->codes[e->n] = code;
    snprintf(e->messages[e->n++], ROPE_VERIFY_MSG, "%s", message);
}

/* yarn's get_mscale: 0.1 mscale ln(factor) + 1. */
static double yarn_mscale(double factor, double mscale)
{
    return factor > 1.0 && mscale > 0.0 ? 0.1 * mscale * log(factor) + 1.0 : 1.0;
}

/* The amplitude, from the measured one: the config's A, 1 (missing), A^2 (twice), or another
 * (attention_factor_wrong): A^3, 1/A, yarn's mscale terms not divided out (DeepSeek's
 * mscale = mscale_all_dim, whose A is 1, applied as get_mscale(factor, mscale)), or, past
 * 1% from all of these, the measured amplitude itself, rounded to float32. */
static void amplitude(const context *x, rope_model *m, double af, explanation *e)
{
    const rope_scaling *cs = &x->c->scaling;
    double f = cs->factor, g = yarn_mscale(f, cs->mscale), ga = yarn_mscale(f, cs->mscale_all_dim);
    int yarn = cs->type == ROPE_SCALING_YARN;
    double cands[8] = {af,       1.0,           af * af,        af * af * af,
                       1.0 / af, yarn ? g : af, yarn ? ga : af, yarn ? yarn_mscale(f, 1.0) : af};
    int best = 0;
    for (int k = 1; k < 8; k++)
        if (fabs(log(x->amplitude / cands[k])) < fabs(log(x->amplitude / cands[best]))) best = k;
    double a = cands[best];
    if (fabs(log(x->amplitude / a)) > 0.01) a = (double)(float)x->amplitude, best = 8;
    if (fabs(a / af - 1.0) < 1e-12) best = 0;
    if (fabs(af - 1.0) < 1e-12 && best <= 4) best = 0;
    m->amp = best == 0 ? af : a;
    char msg[ROPE_VERIFY_MSG];
    if (best == 1) {
        snprintf(msg, sizeof msg,
                 "cos and sin are not multiplied by the attention factor %.10g "
                 "(amplitude 1 found)",
                 af);
        push(e, "attention_factor_missing", msg);
    } else if (best == 2) {
        snprintf(msg, sizeof msg,
                 "cos and sin carry the attention factor %.10g twice (amplitude "
                 "%.10g found)",
                 af, af * af);
        push(e, "attention_factor_twice", msg);
    } else if (best > 2) {
        const char *why = best == 3   ? " (the attention factor three times)"
                          : best == 4 ? " (divided by the attention factor, not multiplied)"
                          : best == 5 ? " (yarn's get_mscale(factor, mscale), not divided by "
                                        "get_mscale(factor, mscale_all_dim))"
                          : best == 6 ? " (yarn's get_mscale(factor, mscale_all_dim), which "
                                        "belongs to the softmax scale)"
                          : best == 7 ? " (yarn's default 0.1 ln(factor) + 1, where the config's "
                                        "mscale terms set it)"
                                      : "";
        snprintf(msg, sizeof msg,
                 "cos and sin have amplitude %.10g%s; the config's attention factor is %.10g", a,
                 why, af);
        push(e, "attention_factor_wrong", msg);
    }
}

/* The orthogonal changes read off the dump, as codes. */
static void orthogonal(const context *x, rope_model *m, double af, explanation *e, double offset)
{
    char msg[ROPE_VERIFY_MSG];
    if (!x->d->cos) return;
    if (x->apply != ROPE_LAYOUT_UNKNOWN && x->layout != x->apply) {
        int half = x->apply == ROPE_LAYOUT_HALF;
        rope_verify_layout_fix(x->c, x->apply, msg, sizeof msg);
        push(e, half ? "layout_interleaved" : "layout_half", msg);
    }
    if (x->stored >= 0) {
        snprintf(msg, sizeof msg,
                 "the values are %s numbers stored in a %s file: rounded to %s before they were "
                 "written, the file holds %s's precision, not its dtype's",
                 rope_dtype_name(x->stored), rope_dtype_name(x->d->dtype),
                 rope_dtype_name(x->stored), rope_dtype_name(x->stored));
        push(e, "low_precision", msg);
    }
    if (x->sign < 0) push(e, "sign_flipped", "sin has the wrong sign: the dump rotates clockwise");
    amplitude(x, m, af, e);
    m->offset = offset;
    if (m->offset != 0.0) {
        snprintf(msg, sizeof msg, "positions are off by %.0f: row r holds position %.0f + r",
                 m->offset, x->d->from + m->offset);
        push(e, "position_offset", msg);
    }
}

static void precision_code(explanation *e, const rope_model *m, const rope_verify_err *err,
                           int table)
{
    char msg[ROPE_VERIFY_MSG];
    const char *t = rope_dtype_name(m->angle_dtype);
    if (m->theta_only || !table)
        snprintf(msg, sizeof msg, "inv_freq rounded to %s fits the dump; %s %.3g", t,
                 table ? "the angle error reaches" : "its relative error reaches",
                 err->max_angle_error);
    else
        snprintf(msg, sizeof msg,
                 "angles computed in %s fit the dump: position x inv_freq is off by "
                 "up to %.3g rad at these positions",
                 t, err->max_angle_error);
    push(e, "low_precision", msg);
}

/* Whether every value of t is a number of dtype t; *plain counts those other than 0 and +-1. */
static int all_in(const rope_table *t, int dtype, long *plain)
{
    size_t n = (size_t)(t->rows * t->width);
    for (size_t k = 0; k < n; k++) {
        double v = rope_table_at(t, k);
        /* Exactness is the question here: a value is a number of dtype or it is not. */
        if (rope_round_to(dtype, v) != v) return 0;
        *plain += v != 0.0 && fabs(v) != 1.0;
    }
    return 1;
}

/* The lower dtype a float32 or float64 table's values all belong to (bfloat16 first: its
 * numbers are almost all float16 numbers too), or -1. 0 and +-1 belong to every dtype: a
 * table needs 16 other values to tell. */
static int stored_dtype(const rope_dump *d)
{
    static const int lower[] = {ROPE_DT_BF16, ROPE_DT_F16};
    if (!d->cos || (d->dtype != ROPE_DT_F32 && d->dtype != ROPE_DT_F64)) return -1;
    for (int k = 0; k < 2; k++) {
        long plain = 0;
        if (all_in(d->cos, lower[k], &plain) && all_in(d->sin, lower[k], &plain) && plain >= 16)
            return lower[k];
    }
    return -1;
}

/* The model matches the sample rows, then (for a table) every row. A row that fails the
 * confirmation joins the sample: the next candidate that the sample alone would pass for the
 * same reason is turned down on it, not after another pass over every row (issue #33: a
 * 131,072-row table whose mismatch lies between the sample's rows took 30 s). */
static int fits(context *x, const rope_dump *d, const rope_model *m, rope_verify_err *err)
{
    const long *rows = d->cos ? x->rows : NULL;
    if (rope_verify_eval_until(d, m, rows, x->n_rows, err) != ROPE_OK || err->n_over > 0) return 0;
    if (!rows) return rope_verify_eval(d, m, NULL, 0, err) == ROPE_OK;
    /* A pass that met no value over its tolerance went through every row: its figures are the
     * whole table's, as a pass that does not stop would give them. */
    if (rope_verify_eval_until(d, m, NULL, 0, err) == ROPE_OK && err->n_over == 0) return 1;
    if (x->n_rows < SAMPLE_ROWS + FAILED_ROWS && err->worst_row >= 0)
        x->rows[x->n_rows++] = err->worst_row;
    return 0;
}

int rope_verify_diagnose(const rope_config *c, const rope_dump *d, int layout, int apply,
                         rope_diagnosis *diag, int *n_diag)
{
    context x = {.c = c, .d = d, .sign = 1, .amplitude = 1.0, .apply = apply};
    /* Values of a lower dtype are held to that dtype's tolerance (the code says so). */
    x.stored = stored_dtype(d);
    rope_dump held = *d;
    if (x.stored >= 0) held.dtype = x.stored;
    int table = d->cos != NULL;
    x.n_dump = (int)(table ? d->cos->width / 2 : d->inv->width);
    x.layout = layout == ROPE_LAYOUT_UNKNOWN ? ROPE_LAYOUT_HALF : layout;
    x.recovered = malloc((size_t)(x.n_dump > 0 ? x.n_dump : 1) * sizeof(double));
    variant *v = malloc(MAX_VARIANTS * sizeof *v);
    double *theta = malloc((size_t)(x.n_dump > 0 ? x.n_dump : 1) * sizeof(double));
    explanation *best = malloc(4 * sizeof *best);
    if (!x.recovered || !v || !theta || !best) {
        free(x.recovered), free(v), free(theta), free(best);
        return ROPE_E_NOMEM;
    }
    if (table) {
        read_off(&x);
        long rows = d->cos->rows;
        x.n_rows = rows < SAMPLE_ROWS ? rows : SAMPLE_ROWS;
        for (long k = 0; k < x.n_rows; k++)
            x.rows[k] = x.n_rows == rows
                            ? k
                            : (long)((double)k * (double)(rows - 1) / (double)(x.n_rows - 1));
        x.n_sample = x.n_rows;
    } else {
        for (int i = 0; i < x.n_dump; i++) x.recovered[i] = AT(d->inv, i);
    }
    int nv = build_variants(&x, v), n_best = 0, fewest = 99;
    int native = d->dtype == ROPE_DT_F64 ? ROPE_DT_F64 : ROPE_DT_F32;
    static const int lows[][2] = {{-1, 0},           {ROPE_DT_F32, 0},  {ROPE_DT_F32, 1},
                                  {ROPE_DT_BF16, 0}, {ROPE_DT_BF16, 1}, {ROPE_DT_F16, 0},
                                  {ROPE_DT_F16, 1}};
    /* The offset read with the dump's own theta (its phase steps): an inv_freq rounded to a
     * low precision moves the slow pairs' angles by p times the rounding, which can lead the
     * reading with the config's theta a whole turn of a fast pair astray. */
    double own_offset = table ? read_offset(&x, x.recovered, x.n_dump) : 0.0;
    for (int k = 0; k < nv; k++) {
        double af = 1.0;
        if (variant_theta(&x, &v[k], theta, x.n_dump, &af) != ROPE_OK) continue;
        /* No offset is tried first, below: reading one off a low-precision dump can go astray. */
        double offset = table ? read_offset(&x, theta, x.n_dump) : 0.0;
        for (int p = 0; p < 7; p++) {
            int dt = lows[p][0] < 0 ? native : lows[p][0];
            if (p > 0 && (dt == native || (native == ROPE_DT_F32 && dt == ROPE_DT_F32))) continue;
            if (!table && lows[p][1]) continue;
            /* Tried: no offset, the offset read, and, where the angles or inv_freq were computed
             * in a low precision (which rounds the positions themselves, or the slow pairs'
             * theta), the offsets up to OFFSET_SLACK positions either side of it, nearest
             * first, then likewise around the offset read with the dump's own theta. */
            int span = table && p > 0 ? 1 + 2 * OFFSET_SLACK : offset != 0.0 ? 1 : 0;
            int centers = table && p > 0 && own_offset != offset ? 2 : 1;
            for (int o = 0; o < 1 + centers * span; o++) {
                int q = o == 0 ? 0 : (o - 1) % span + 1;
                double center = o == 0 ? 0.0 : o <= span ? offset : own_offset;
                double at = o == 0 ? 0.0 : center + (q % 2 ? 1 : -1) * (double)(q / 2);
                if (o > 0 && at == 0.0) continue;
                if (o > span && fabs(at - offset) <= OFFSET_SLACK) continue; /* tried above */
                rope_model m = {theta, x.n_dump, dt,     lows[p][1], native,
                                1.0,   0.0,      x.sign, x.layout};
                explanation e = {.n = 0};
                if (v[k].code) push(&e, v[k].code, v[k].message);
                if (v[k].code2) push(&e, v[k].code2, v[k].message2);
                orthogonal(&x, &m, af, &e, at);
                if (e.n + (p > 0) == 0 || e.n + (p > 0) > fewest) continue;
                rope_verify_err err;
                if (!fits(&x, &held, &m, &err)) continue;
                if (p > 0) precision_code(&e, &m, &err, table);
                if (e.n < fewest) fewest = e.n, n_best = 0;
                if (n_best < 4) best[n_best++] = e;
                if (o > 0) break; /* the nearest offset that fits */
            }
        }
    }
    int n = 0;
    for (int b = 0; b < n_best; b++)
        for (int j = 0; j < best[b].n && n < ROPE_DIAG_MAX; j++) {
            int seen = 0;
            for (int q = 0; q < n; q++) seen |= strcmp(diag[q].code, best[b].codes[j]) == 0;
            if (seen) continue;
            diag[n].code = best[b].codes[j];
            snprintf(diag[n].message, ROPE_VERIFY_MSG, "%s", best[b].messages[j]);
            n++;
        }
    if (n == 0) {
        diag[0].code = "unexplained";
        snprintf(diag[0].message, ROPE_VERIFY_MSG,
                 "none of the known mistakes, alone or two at a "
                 "time, reproduces the dump");
        n = 1;
    }
    *n_diag = n;
    free(x.recovered), free(v), free(theta), free(best);
    return ROPE_OK;
}
