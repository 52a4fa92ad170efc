/* `verify --against` (docs/VERIFY.md, "Two dumps"): a config inferred from the reference
 * when none is given, the two dumps compared value by value within the sum of both sides'
 * tolerances, and the reference's part of the result. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/rope.h"
#include "scaling/write_model.h"
#include "verify/run.h"

#define RECOVER_ROWS 4096
#define PI 3.14159265358979323846

static double wrap(double a)
{
    return a - 2.0 * PI * floor((a + PI) / (2.0 * PI));
}

/* v to digits significant digits. */
static double nice(double v, int digits)
{
    /* By a power of ten that is exact (10^k, k >= 0): 5e5 stays 500000, not 499999.99999999994. */
    double e = digits - 1 - floor(log10(v));
    return e >= 0 ? nearbyint(v * pow(10.0, e)) / pow(10.0, e)
                  : nearbyint(v / pow(10.0, -e)) * pow(10.0, -e);
}

/* The column of pair i in the reference's cos and sin as loaded (before any widening), and the
 * pairs it holds: a table of two columns per pair shows its layout; one that shows none, and a
 * form of one value per pair, hold a column per pair. */
static int pairs_of(const rope_verify_job *r, int *layout)
{
    *layout = r->form == ROPE_FORM_TABLE ? rope_verify_layout(&r->cos) : ROPE_LAYOUT_UNKNOWN;
    return (int)(*layout == ROPE_LAYOUT_UNKNOWN ? r->cos.width : r->cos.width / 2);
}

/* Pair i's frequency from the mean phase step between consecutive rows (its sign dropped: a
 * reference with sin negated fails its own check against the inferred config). */
static double frequency(const rope_verify_job *r, int layout, int n, int i)
{
    const rope_table *c = &r->cos, *s = &r->sin;
    long rows = c->rows < RECOVER_ROWS ? c->rows : RECOVER_ROWS, w = c->width;
    int col = i, unused;
    if (layout != ROPE_LAYOUT_UNKNOWN) rope_layout_dims(layout, n, i, &col, &unused);
    double sum = 0.0, prev = atan2(rope_table_at(s, (size_t)col), rope_table_at(c, (size_t)col));
    for (long k = 1; k < rows; k++) {
        size_t at = (size_t)(k * w + col);
        double ph = atan2(rope_table_at(s, at), rope_table_at(c, at));
        sum += wrap(ph - prev);
        prev = ph;
    }
    return fabs(sum / (double)(rows - 1));
}

int rope_verify_infer(const rope_verify_job *r, double *bases, int *n_out, int *dim, char *msg)
{
    int table = r->dump.cos != NULL, layout = ROPE_LAYOUT_UNKNOWN;
    int n = table ? pairs_of(r, &layout) : (int)r->inv.width;
    *n_out = 0;
    *dim = 2 * n;
    if (table && r->cos.rows < 2) {
        snprintf(msg, ROPE_VERIFY_MSG,
                 "one row shows no frequency to infer rope_theta from: give --config");
        return ROPE_VERIFY_REFUSED;
    }
    if (n < 2) {
        bases[(*n_out)++] = 10000.0; /* one pair's frequency is 1 at any base */
        return ROPE_VERIFY_GOOD;
    }
    /* base = theta_i^(-d/2i): theta_i's relative error grows d/2i times, and the phases fix
     * theta_i to about the same absolute error at every pair: the pair of largest i theta_i. */
    double best = -1.0, base = NAN;
    for (int i = 1; i < n; i++) {
        double th = table ? frequency(r, layout, n, i) : rope_table_at(&r->inv, (size_t)i);
        if (!(th > 0.0 && th < 3.0) || (double)i * th <= best) continue;
        best = (double)i * th;
        base = pow(th, -(double)*dim / (2.0 * i));
    }
    if (!(base > 1.0 && base < 1e300)) {
        snprintf(msg, ROPE_VERIFY_MSG,
                 "its frequencies fit no rope_theta of a default RoPE (they must fall from 1 "
                 "pair by pair): give --config");
        return ROPE_VERIFY_REFUSED;
    }
    for (int digits = 1; digits <= 5; digits++) {
        double b = digits == 5 ? base : nice(base, digits);
        int seen = 0;
        for (int k = 0; k < *n_out; k++) seen |= bases[k] == b;
        if (!seen) bases[(*n_out)++] = b;
    }
    return ROPE_VERIFY_GOOD;
}

/* One value's difference against the sum of both sides' tolerances. */
static void note(rope_verify_err *o, double diff, double tol, double amp, long row, int pair)
{
    double ratio = diff / tol;
    o->n_values++;
    if (!(ratio <= 1.0)) o->n_over++;
    if (!(diff <= o->max_abs)) o->max_abs = isnan(diff) ? INFINITY : diff;
    if (!(diff / amp <= o->max_rel)) o->max_rel = isnan(diff) ? INFINITY : diff / amp;
    if (!(ratio <= o->worst_ratio)) {
        o->worst_ratio = isnan(ratio) ? INFINITY : ratio;
        o->worst_row = row;
        o->worst_pair = pair;
    }
}

static void compare_tables(const rope_verify_job *j, rope_verify_against *a, long rows, int n)
{
    const rope_verify_job *r = a->ref;
    int du = j->dump.dtype, dr = r->dump.dtype, prof = j->dump.profile;
    double amp = fabs(j->af) > 0.0 ? fabs(j->af) : 1.0;
    for (long k = 0; k < rows; k++) {
        double p = j->dump.from + (double)k;
        for (int i = 0; i < n; i++) {
            int ua, ub, ra, rb;
            rope_layout_dims(j->layout_used, n, i, &ua, &ub);
            rope_layout_dims(r->layout_used, n, i, &ra, &rb);
            double th = j->theta[i];
            double tol = rope_verify_value_tolerance(du, prof, 1, i, th, p, j->af) +
                         rope_verify_value_tolerance(dr, prof, 1, i, th, p, j->af);
            size_t u0 = (size_t)(k * 2 * n), r0 = u0;
            const int uc[2] = {ua, ub}, rc[2] = {ra, rb};
            for (int side = 0; side < 2; side++) {
                const rope_table *ut = side ? &j->sin : &j->cos, *rt = side ? &r->sin : &r->cos;
                for (int q = 0; q < 2; q++) {
                    double diff = fabs(rope_table_at(ut, u0 + (size_t)uc[q]) -
                                       rope_table_at(rt, r0 + (size_t)rc[q]));
                    note(&a->err, diff, tol, amp, k, i);
                }
            }
        }
    }
}

int rope_verify_compare_against(const rope_verify_job *j, rope_verify_against *a)
{
    const rope_verify_job *r = a->ref;
    int tu = j->dump.cos != NULL, tr = r->dump.cos != NULL, n = j->c->scaling.dim / 2;
    memset(&a->err, 0, sizeof a->err);
    a->err.worst_row = -1;
    a->err.worst_pair = -1;
    a->err.worst_ratio = -1.0;
    a->direct = 0;
    if (tu != tr)
        snprintf(a->direct_why, sizeof a->direct_why,
                 "the dump is %s, the reference %s: each was checked against the config",
                 tu ? "a cos/sin table" : "an inv_freq", tr ? "a cos/sin table" : "an inv_freq");
    else if (!j->compared || !r->compared)
        snprintf(a->direct_why, sizeof a->direct_why,
                 "the %s's width differs from the config's rotary dim %d",
                 !j->compared ? "dump" : "reference", 2 * n);
    else
        a->direct = 1;
    if (!a->direct) return ROPE_VERIFY_GOOD;
    if (!tu) {
        for (int i = 0; i < n; i++) {
            double th = j->theta[i];
            double tol = rope_verify_value_tolerance(j->dump.dtype, 0, 0, i, th, 0.0, 1.0) +
                         rope_verify_value_tolerance(r->dump.dtype, 0, 0, i, th, 0.0, 1.0);
            double diff =
                fabs(rope_table_at(&j->inv, (size_t)i) - rope_table_at(&r->inv, (size_t)i));
            note(&a->err, diff, tol, fabs(th) > 0.0 ? fabs(th) : 1.0, 0, i);
        }
        return ROPE_VERIFY_GOOD;
    }
    long rows = j->cos.rows < r->cos.rows ? j->cos.rows : r->cos.rows;
    compare_tables(j, a, rows, n);
    return ROPE_VERIFY_GOOD;
}

static const char *layout_name(int layout)
{
    return layout == ROPE_LAYOUT_HALF          ? "rotate_half"
           : layout == ROPE_LAYOUT_INTERLEAVED ? "interleaved"
                                               : "unknown";
}

/* The reference as its run read it: kind, form, size, dtype, layout. */
static void describe(const rope_verify_job *r, char *buf, size_t cap)
{
    if (!r->dump.cos) {
        snprintf(buf, cap, "inv_freq, %ld pairs, %s", r->inv.width, rope_dtype_name(r->dump.dtype));
        return;
    }
    snprintf(buf, cap, "%s, %ld positions (%.0f..%.0f) x %ld, %s, layout %s",
             rope_verify_form_name(r->form), r->cos.rows, r->dump.from,
             r->dump.from + (double)r->cos.rows - 1.0, r->cos.width, rope_dtype_name(r->dump.dtype),
             r->form != ROPE_FORM_TABLE ? "per_pair" : layout_name(r->layout_found));
}

void rope_verify_against_text(const rope_verify_job *j, rope_writer *w)
{
    const rope_verify_against *a = j->against;
    const rope_verify_job *r = a->ref;
    char what[256];
    describe(r, what, sizeof what);
    rope_put(w, "against: '%s'%s%s%s: %s: %s the config%s\n", a->file, a->sin_file ? ", sin '" : "",
             a->sin_file ? a->sin_file : "", a->sin_file ? "'" : "", what,
             r->match ? "matches" : "does not match", a->inferred ? " inferred from it" : "");
    for (int k = 0; k < r->n_diag; k++)
        rope_put(w, "  against %s: %s\n", r->diag[k].code, r->diag[k].message);
    if (!a->direct) {
        rope_put(w, "dump vs reference: not compared value by value: %s\n", a->direct_why);
        return;
    }
    const rope_verify_err *e = &a->err;
    rope_put(w,
             "dump vs reference, value by value (tolerance: the sum of both sides'): max abs "
             "difference %.3g; worst: pair %d",
             e->max_abs, e->worst_pair);
    if (j->dump.cos) rope_put(w, " at position %.0f", j->dump.from + (double)e->worst_row);
    rope_put(w, " (%.3g x the tolerance); values over: %ld of %ld\n", e->worst_ratio, e->n_over,
             e->n_values);
}

void rope_verify_against_json(const rope_verify_job *j, rope_writer *w)
{
    const rope_verify_against *a = j->against;
    const rope_verify_job *r = a->ref;
    int table = r->dump.cos != NULL;
    const rope_table *t = table ? &r->cos : &r->inv;
    rope_put(w, ",\n  \"against\": {\"file\": ");
    rope_put_json_text(w, a->file);
    rope_put(w, ", \"sin_file\": ");
    rope_put_json_text(w, a->sin_file);
    rope_put(w, ", \"verdict\": \"%s\", \"kind\": \"%s\", \"form\": \"%s\", \"dtype\": \"%s\"",
             r->match ? "match" : "mismatch", table ? "cos_sin" : "inv_freq",
             table ? rope_verify_form_name(r->form) : "inv_freq", rope_dtype_name(r->dump.dtype));
    rope_put(w, ", \"rows\": %ld, \"width\": %ld, \"layout_found\": \"%s\"", t->rows, t->width,
             !table                       ? "unknown"
             : r->form != ROPE_FORM_TABLE ? "per_pair"
                                          : layout_name(r->layout_found));
    rope_put(w, ", \"config_inferred\": %s", a->inferred ? "true" : "false");
    const rope_verify_err *e = &a->err;
    double none = NAN;
    rope_put_field(w, ", ", "max_abs_difference", a->direct ? e->max_abs : none);
    rope_put_field(w, ", ", "max_rel_difference", a->direct ? e->max_rel : none);
    rope_put_field(w, ", ", "worst_pair", a->direct ? (double)e->worst_pair : none);
    rope_put_field(w, ", ", "worst_position",
                   a->direct && table ? j->dump.from + (double)e->worst_row : none);
    rope_put_field(w, ", ", "worst_ratio", a->direct ? e->worst_ratio : none);
    rope_put_field(w, ", ", "values_over_tolerance", a->direct ? (double)e->n_over : none);
    rope_put_field(w, ", ", "values", a->direct ? (double)e->n_values : none);
    rope_put(w, ", \"not_compared\": ");
    rope_put_json_text(w, a->direct ? NULL : a->direct_why);
    rope_put(w, ", \"diagnoses\": [");
    rope_verify_put_diagnoses(w, r->diag, r->n_diag, "", ", ");
    rope_put(w, "]}");
}
