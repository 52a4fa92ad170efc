/* The check: a model of how the dump was computed (docs/VERIFY.md) against
 * the dump's values, with a tolerance that follows the dump's precision. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rope.h"
#include "core/rope_math.h"
#include "verify/verify.h"

/* Per dtype, the bound of each stage of a real computation (docs/VERIFY.md,
 * "Tolerance"): theta's relative uncertainty (pow or exp and the scaling
 * formulas in float32 differ from float64 by a few ulps), the angle
 * product's rounding (half an ulp of p x theta), the stored value's (cos or
 * sin of the angle within an ulp, the rounding to the file's dtype), and,
 * when the attention factor A is not 1, the product by A (A rounded to
 * float32, the product rounded). unit: one rounding of the angle's dtype,
 * the step of a recurrence's error. */
typedef struct {
    double rel_theta, u_prod, u_val, u_amp, unit;
} tolerance;

static tolerance tolerance_of(int dtype)
{
    static const tolerance t[] = {
        {1e-9, 0.0, 1e-12, 0.0, 0x1p-53},
        {1e-6, 0x1p-24, 0x1p-23, 0x1p-23, 0x1p-24},
        {1e-6, 0x1p-24, 0x1p-11, 0x1p-23, 0x1p-24},
        {1e-6, 0x1p-24, 0x1p-8, 0x1p-23, 0x1p-24},
    };
    return t[dtype >= 0 && dtype < 4 ? dtype : 0];
}

/* Pair i's relative uncertainty of theta (theta_i: the model's). pow's
 * exponent 2i/d (or a recurrence's -2/d) rounded to the angle's dtype moves
 * base^-(2i/d) by |ln theta_i| roundings. A recurrence theta *= theta_scale
 * (llama.cpp) reaches pair i after i float32 products, each rounding by up
 * to half an ulp, and its theta_scale (powf, within an ulp) raised to the
 * i-th power: (i + 1)(2^-24 + 2^-23) more. */
static double theta_rel(const tolerance *tl, int profile, long i, double theta)
{
    double exponent = theta > 0.0 ? fabs(rope_log(theta)) * tl->unit : 0.0;
    double chain = profile == ROPE_PROFILE_RECURRENCE ? 3.0 * (double)(i + 1) * tl->unit : 0.0;
    return tl->rel_theta + exponent + chain;
}

double rope_verify_value_tolerance(int dtype, int profile, int is_table, long i, double theta,
                                   double p, double amp)
{
    tolerance tl = tolerance_of(dtype);
    if (!is_table) {
        double rel = dtype == ROPE_DT_F16 ? 0x1p-11 : dtype == ROPE_DT_BF16 ? 0x1p-8 : tl.rel_theta;
        double exponent = theta > 0.0 && (dtype == ROPE_DT_F32 || dtype == ROPE_DT_F64)
                              ? fabs(rope_log(theta)) * tl.unit
                              : 0.0;
        return (rel + exponent) * fabs(theta) + (dtype == ROPE_DT_F16 ? 0x1p-25 : 1e-300);
    }
    double a = fabs(amp);
    double u_val = tl.u_val + (fabs(a - 1.0) > 1e-12 ? tl.u_amp : 0.0);
    double rel = theta_rel(&tl, profile, i, theta) + tl.u_prod;
    return a * (fabs(p * theta) * rel + u_val) + 1e-300;
}

const char *rope_verify_tolerance_text(int dtype, int is_table, int profile, int scaled)
{
    /* [dtype][recurrence][scaled]: the product by A adds 2^-23 where A is not 1. */
    static const char *const table[4][2][2] = {
        {{"|error| <= A*((1e-9 + |ln theta|*2^-53)*|p*theta| + 1e-12) (float64)",
          "|error| <= A*((1e-9 + |ln theta|*2^-53)*|p*theta| + 1e-12) (float64)"},
         {"|error| <= A*((1e-9 + |ln theta|*2^-53 + 3(i+1)*2^-53)*|p*theta| + 1e-12) (float64, "
          "pair i)",
          "|error| <= A*((1e-9 + |ln theta|*2^-53 + 3(i+1)*2^-53)*|p*theta| + 1e-12) (float64, "
          "pair i)"}},
        {{"|error| <= A*((1e-6 + |ln theta|*2^-24 + 2^-24)*|p*theta| + 2^-23) (float32)",
          "|error| <= A*((1e-6 + |ln theta|*2^-24 + 2^-24)*|p*theta| + 2^-22) (float32, A != 1)"},
         {"|error| <= A*((1e-6 + |ln theta|*2^-24 + 3(i+1)*2^-24 + 2^-24)*|p*theta| + 2^-23) "
          "(float32, pair i)",
          "|error| <= A*((1e-6 + |ln theta|*2^-24 + 3(i+1)*2^-24 + 2^-24)*|p*theta| + 2^-22) "
          "(float32, pair i, A != 1)"}},
        {{"|error| <= A*((1e-6 + |ln theta|*2^-24 + 2^-24)*|p*theta| + 2^-11) (float16)",
          "|error| <= A*((1e-6 + |ln theta|*2^-24 + 2^-24)*|p*theta| + 2^-11 + 2^-23) (float16, "
          "A != 1)"},
         {"|error| <= A*((1e-6 + |ln theta|*2^-24 + 3(i+1)*2^-24 + 2^-24)*|p*theta| + 2^-11) "
          "(float16, pair i)",
          "|error| <= A*((1e-6 + |ln theta|*2^-24 + 3(i+1)*2^-24 + 2^-24)*|p*theta| + 2^-11 + "
          "2^-23) (float16, pair i, A != 1)"}},
        {{"|error| <= A*((1e-6 + |ln theta|*2^-24 + 2^-24)*|p*theta| + 2^-8) (bfloat16)",
          "|error| <= A*((1e-6 + |ln theta|*2^-24 + 2^-24)*|p*theta| + 2^-8 + 2^-23) (bfloat16, "
          "A != 1)"},
         {"|error| <= A*((1e-6 + |ln theta|*2^-24 + 3(i+1)*2^-24 + 2^-24)*|p*theta| + 2^-8) "
          "(bfloat16, pair i)",
          "|error| <= A*((1e-6 + |ln theta|*2^-24 + 3(i+1)*2^-24 + 2^-24)*|p*theta| + 2^-8 + "
          "2^-23) (bfloat16, pair i, A != 1)"}},
    };
    static const char *const inv[] = {
        "relative error <= 1e-9 + |ln theta|*2^-53 (float64)",
        "relative error <= 1e-6 + |ln theta|*2^-24 (float32)",
        "relative error <= 2^-11, absolute 2^-25 below float16's normal range (float16)",
        "relative error <= 2^-8 (bfloat16)",
    };
    int k = dtype >= 0 && dtype < 4 ? dtype : 0;
    return is_table ? table[k][profile == ROPE_PROFILE_RECURRENCE][scaled != 0] : inv[k];
}

/* The angle the model computes at position p (offset included). */
static double model_angle(const rope_model *m, double p, double theta)
{
    return rope_angle_in(m->angle_dtype, m->theta_only, m->native, p, theta);
}

static void note(rope_verify_err *o, double *pair_worst, double err, double tol, double rel,
                 long row, int pair)
{
    double ratio = err / tol;
    if (!(ratio <= 1.0)) o->n_over++;
    if (pair_worst && !(ratio <= pair_worst[pair]))
        pair_worst[pair] = isnan(ratio) ? INFINITY : ratio;
    if (err > o->max_abs || isnan(err)) o->max_abs = isnan(err) ? INFINITY : err;
    if (rel > o->max_rel || isnan(rel)) o->max_rel = isnan(rel) ? INFINITY : rel;
    if (!(ratio <= o->worst_ratio)) {
        o->worst_ratio = isnan(ratio) ? INFINITY : ratio;
        o->worst_row = row;
        o->worst_pair = pair;
    }
}

static int eval_inv(const rope_dump *d, const rope_model *m, double *pair_worst, rope_verify_err *o)
{
    const rope_table *t = d->inv;
    if (t->width != m->n || t->rows != 1) return ROPE_E_LENGTH;
    tolerance tl = tolerance_of(d->dtype);
    double rel = d->dtype == ROPE_DT_F16    ? 0x1p-11
                 : d->dtype == ROPE_DT_BF16 ? 0x1p-8
                                            : tl.rel_theta;
    for (int i = 0; i < m->n; i++) {
        int low = m->angle_dtype != m->native || m->theta_only;
        double e = low                        ? rope_round_to(m->angle_dtype, m->theta[i])
                   : m->native == ROPE_DT_F32 ? (double)(float)m->theta[i]
                                              : m->theta[i];
        double err = fabs(rope_table_at(t, (size_t)i) - e);
        /* pow's exponent 2i/d rounded in the dump's precision, as for a table (theta_rel). */
        double exponent = e > 0.0 && m->native == d->dtype ? fabs(rope_log(e)) * tl.unit : 0.0;
        double tol = (rel + exponent) * fabs(e) + (d->dtype == ROPE_DT_F16 ? 0x1p-25 : 1e-300);
        note(o, pair_worst, err, tol, err / fabs(e), 0, i);
        double ae = fabs(e - m->theta[i]);
        if (ae > o->max_angle_error) o->max_angle_error = ae;
    }
    o->n_values = m->n;
    return ROPE_OK;
}

static int eval(const rope_dump *d, const rope_model *m, const long *rows, long n_rows,
                double *pair_worst, int stop, rope_verify_err *o);

int rope_verify_eval(const rope_dump *d, const rope_model *m, const long *rows, long n_rows,
                     rope_verify_err *o)
{
    return eval(d, m, rows, n_rows, NULL, 0, o);
}

int rope_verify_eval_until(const rope_dump *d, const rope_model *m, const long *rows, long n_rows,
                           rope_verify_err *o)
{
    return eval(d, m, rows, n_rows, NULL, 1, o);
}

int rope_verify_eval_pairs(const rope_dump *d, const rope_model *m, const long *rows, long n_rows,
                           double *pair_worst, rope_verify_err *o)
{
    return eval(d, m, rows, n_rows, pair_worst, 0, o);
}

/* stop: return at the first value over its tolerance (the diagnosis turns most of its
 * candidates down so, on their first row). */
static int eval(const rope_dump *d, const rope_model *m, const long *rows, long n_rows,
                double *pair_worst, int stop, rope_verify_err *o)
{
    if (!d || !m || !o) return ROPE_E_NULL;
    memset(o, 0, sizeof *o);
    o->worst_pair = -1;
    o->worst_row = -1;
    o->worst_ratio = -1.0;
    for (int i = 0; pair_worst && i < m->n; i++) pair_worst[i] = 0.0;
    if (!d->cos) return eval_inv(d, m, pair_worst, o);
    const rope_table *c = d->cos, *s = d->sin;
    long w = c->width, n = m->n;
    if (w != 2 * n || s->width != w || s->rows != c->rows) return ROPE_E_LENGTH;
    if (!rows) n_rows = c->rows;
    tolerance tl = tolerance_of(d->dtype);
    double amp = fabs(m->amp);
    /* The product by A is a stage of its own only where A is not 1. */
    double u_val = tl.u_val + (fabs(amp - 1.0) > 1e-12 ? tl.u_amp : 0.0);
    /* Each pair's relative bound once, not at every row: its logarithm was most of the time. */
    double *rel = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    if (!rel) return ROPE_E_NOMEM;
    for (long i = 0; i < n; i++) rel[i] = theta_rel(&tl, d->profile, i, m->theta[i]) + tl.u_prod;
    for (long k = 0; k < n_rows && !(stop && o->n_over > 0); k++) {
        long r = rows ? rows[k] : k;
        double p = d->from + (double)r + m->offset;
        size_t row = (size_t)(r * w);
        for (long i = 0; i < n; i++) {
            int a, b;
            rope_layout_dims(m->layout, (int)n, (int)i, &a, &b);
            double th = m->theta[i], exact = p * th;
            double ang = model_angle(m, p, th);
            /* rope_sincos, not libm's: the page's module prints the same bits as the CLI. */
            double sa, ca;
            rope_sincos(ang, &sa, &ca);
            double ec = m->amp * ca, es = m->sign * m->amp * sa;
            double err = fabs(rope_table_at(c, row + (size_t)a) - ec);
            double e2 = fabs(rope_table_at(c, row + (size_t)b) - ec);
            double e3 = fabs(rope_table_at(s, row + (size_t)a) - es);
            double e4 = fabs(rope_table_at(s, row + (size_t)b) - es);
            err = err > e2 ? err : e2;
            err = err > e3 ? err : e3;
            err = err > e4 ? err : e4;
            double tol = amp * (fabs(exact) * rel[i] + u_val) + 1e-300;
            note(o, pair_worst, err, tol, err / (amp > 0 ? amp : 1.0), r, (int)i);
            double ae = fabs(ang - exact);
            if (ae > o->max_angle_error) o->max_angle_error = ae;
            if (stop && o->n_over > 0) break;
        }
    }
    free(rel);
    o->n_values = 4 * n * n_rows;
    return ROPE_OK;
}

/* The largest singular value of [[a, b], [c, d]]: half the sum of the norms of its rotation
 * part (a + d, c - b) and its reflection part (a - d, b + c). sqrt, not libm's hypot: sqrt is
 * correctly rounded everywhere, so the page's module prints the CLI's bits (the entries are
 * at most a few units: no overflow to guard). */
static double norm2(double x, double y)
{
    return sqrt(x * x + y * y);
}

static double largest_singular(double a, double b, double c, double d)
{
    return 0.5 * (norm2(a + d, c - b) + norm2(a - d, b + c));
}

int rope_verify_score_of(const rope_dump *d, const double *theta, int n, double amp, int layout,
                         rope_verify_score *out)
{
    if (!out) return ROPE_E_NULL;
    out->error = NAN;
    out->gap = -1;
    out->pair = -1;
    if (!d || !theta || !d->cos || !d->sin || n < 1) return ROPE_E_NULL;
    const rope_table *c = d->cos, *s = d->sin;
    long w = c->width;
    if (w != 2L * n || s->width != w || s->rows != c->rows || c->rows < 1) return ROPE_E_LENGTH;
    /* Row 0, the key's: the table's map T_0 and the exact R_0 per pair (4 + 2 doubles), then
     * the exact rotation of the current row (cos, sin of p theta) and one position's (of theta):
     * 10 doubles a pair. */
    double *key = malloc((size_t)n * 10 * sizeof(double));
    if (!key) return ROPE_E_NOMEM;
    for (int i = 0; i < n; i++) {
        int a, b;
        rope_layout_dims(layout, n, i, &a, &b);
        double *k = key + 10 * i, sa, ca;
        k[0] = rope_table_at(c, (size_t)a);
        k[1] = rope_table_at(s, (size_t)a);
        k[2] = rope_table_at(c, (size_t)b);
        k[3] = rope_table_at(s, (size_t)b);
        rope_sincos(d->from * theta[i], &sa, &ca);
        k[4] = amp * ca;
        k[5] = amp * sa;
        rope_sincos(theta[i], &k[9], &k[8]);
    }
    double worst = -1.0;
    for (long r = 0; r < c->rows; r++) {
        size_t row = (size_t)(r * w);
        double p = d->from + (double)r;
        for (int i = 0; i < n; i++) {
            int a, b;
            rope_layout_dims(layout, n, i, &a, &b);
            double *k = key + 10 * i;
            double ca = rope_table_at(c, row + (size_t)a), sa = rope_table_at(s, row + (size_t)a);
            double cb = rope_table_at(c, row + (size_t)b), sb = rope_table_at(s, row + (size_t)b);
            /* T = [[c_a, -s_a], [s_b, c_b]]; T_r^T T_0, column by column. */
            double t00 = ca * k[0] + sb * k[3], t01 = -ca * k[1] + sb * k[2];
            double t10 = -sa * k[0] + cb * k[3], t11 = sa * k[1] + cb * k[2];
            /* R_r^T R_0 = A^2 rot(theta (p0 - p)): [[cos, -sin], [sin, cos]] of that angle. */
            /* cos and sin of p theta: computed afresh every 64 rows, stepped by one rotation by
             * theta in between (64 products at most: a few 2^-53 off, where a sine per value
             * was most of this pass's time). */
            if (r % 64 == 0) {
                rope_sincos(p * theta[i], &k[7], &k[6]);
            } else {
                double c0 = k[6], s0 = k[7];
                k[6] = c0 * k[8] - s0 * k[9];
                k[7] = s0 * k[8] + c0 * k[9];
            }
            double cx = k[6], sx = k[7];
            sx *= amp;
            cx *= amp;
            double rc = cx * k[4] + sx * k[5], rs = cx * k[5] - sx * k[4];
            double e = largest_singular(t00 - rc, t01 + rs, t10 - rs, t11 - rc);
            if (!(e <= worst)) {
                worst = isnan(e) ? INFINITY : e;
                out->gap = r;
                out->pair = i;
            }
        }
    }
    free(key);
    out->error = worst;
    return ROPE_OK;
}

static int duplicated(const rope_table *t, int layout)
{
    long w = t->width, h = w / 2;
    for (long r = 0; r < t->rows; r++) {
        size_t row = (size_t)(r * w);
        for (long i = 0; i < h; i++) {
            int a, b;
            rope_layout_dims(layout, (int)h, (int)i, &a, &b);
            double x = rope_table_at(t, row + (size_t)a), y = rope_table_at(t, row + (size_t)b);
            if (x != y) return 0;
        }
    }
    return 1;
}

int rope_verify_layout(const rope_table *cos)
{
    if (!cos || cos->width % 2 != 0) return ROPE_LAYOUT_UNKNOWN;
    int half = duplicated(cos, ROPE_LAYOUT_HALF), inter = duplicated(cos, ROPE_LAYOUT_INTERLEAVED);
    if (half && !inter) return ROPE_LAYOUT_HALF;
    if (inter && !half) return ROPE_LAYOUT_INTERLEAVED;
    return ROPE_LAYOUT_UNKNOWN;
}
