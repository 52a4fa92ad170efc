/* ropescope's batch entry points: one call fills one chart, so nothing crosses
 * the JS/wasm boundary per element. Meanings in rope.h. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "core/rope.h"
#include "core/rope_internal.h"
#include "core/rope_math.h"

/* Starts per block in rope_offset_sweep: each block re-anchors its angles
 * exactly, so rounding never accumulates past one complex product. */
#define ROPE_SWEEP_BLOCK 64
/* Rows per block of rope_offset_scan: the key's sines and cosines of a block
 * are kept, so a query that sits exactly on another row's key reuses them. */
#define ROPE_SCAN_BLOCK 256

int rope_pair_angles(int d, double gap, double base, double *out)
{
    int rc = rope_check_pairs_args(d, gap, ROPE_AT_ROTATED, base);
    if (rc != ROPE_OK) return rc;
    if (d >= 2 && out == NULL) return ROPE_E_NULL;
    for (int i = 0; i < d / 2; i++) out[i] = gap * rope_theta(i, d, base);
    return rope_check_results(out, d / 2);
}

/* Pairs outer, deltas inner: one theta per pair instead of one per (pair, delta). */
int rope_slow_pairs_batch(int d, const double *deltas, int count, double base, int *out)
{
    int rc = rope_check_batch_args(d, deltas, count, ROPE_AT_FINITE, base);
    if (rc == ROPE_OK) rc = rope_check_work(d, count);
    if (rc != ROPE_OK) return rc;
    if (count > 0 && out == NULL) return ROPE_E_NULL;
    for (int j = 0; j < count; j++) out[j] = 0;
    for (int i = 0; i < d / 2; i++) {
        double theta = rope_theta(i, d, base);
        if (!isfinite(theta)) return ROPE_E_RANGE;
        for (int j = 0; j < count; j++)
            if (deltas[j] * theta / ROPE_TWO_PI < 1.0) out[j]++;
    }
    return ROPE_OK;
}

/* Sums of squares accumulate in out, pairs outer, so each theta is computed once. */
int rope_norm_gaps(const double *vec, int d, const double *positions, int count, double base,
                   double *out)
{
    int rc = rope_check_vector(vec, d);
    if (rc == ROPE_OK) rc = rope_check_batch_args(d, positions, count, ROPE_AT_ROTATED, base);
    if (rc == ROPE_OK) rc = rope_check_work(d, count);
    if (rc != ROPE_OK) return rc;
    if (count > 0 && out == NULL) return ROPE_E_NULL;
    double before = 0.0;
    rc = rope_norm(vec, d, &before);
    if (rc != ROPE_OK) return rc;
    for (int j = 0; j < count; j++) out[j] = 0.0;
    for (int i = 0; i < d / 2; i++) {
        double theta = rope_theta(i, d, base), x0 = vec[2 * i], x1 = vec[2 * i + 1];
        for (int j = 0; j < count; j++) {
            double s, c;
            rope_sincos(positions[j] * theta, &s, &c);
            double r0 = x0 * c - x1 * s, r1 = x0 * s + x1 * c;
            out[j] += r0 * r0;
            out[j] += r1 * r1;
        }
    }
    for (int j = 0; j < count; j++) {
        if (d % 2 == 1) out[j] += vec[d - 1] * vec[d - 1];
        out[j] = fabs(sqrt(out[j]) - before);
    }
    return rope_check_results(out, count);
}

/* Its angle within ROPE_MAX_ANGLE; false for NaN and the infinities a sum can overflow to. */
static int near_enough(double pos, double base)
{
    return rope_check_rotating(pos, base) == ROPE_OK;
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* For evenly spaced starts the query of row j sits on the key of row j + g:
 * g is found once at row 0 and then verified bit for bit on each row. -1 if none. */
static int query_row_shift(const double *starts, int count, double offset)
{
    for (int g = 0; g < count && g < ROPE_SCAN_BLOCK; g++)
        if (same_bits(starts[g], starts[0] + offset)) return g;
    return -1;
}

typedef struct {
    double q0, q1, k0, k1, theta, divisor, offset;
    int shift;
} scan_pair;

/* Pair p's terms for the rows [b, e): the same operations, in the same order,
 * as rope_score and rope_add_score; a reused sine is that of the very same
 * argument bits, so every result is bit-identical to theirs. */
static void scan_block(const scan_pair *p, const double *starts, int b, int e, double *out)
{
    double kc[ROPE_SCAN_BLOCK], ks[ROPE_SCAN_BLOCK], pc[ROPE_SCAN_BLOCK], ps[ROPE_SCAN_BLOCK];
    for (int j = b; j < e; j++) {
        rope_sincos(starts[j] * p->theta, &ks[j - b], &kc[j - b]);
        rope_sincos(starts[j] / p->divisor, &ps[j - b], &pc[j - b]);
    }
    for (int j = b; j < e; j++) {
        double m = starts[j] + p->offset, cm, sm, pcm, psm;
        int r = p->shift >= 0 ? j + p->shift : e;
        if (r < e && same_bits(starts[r], m)) {
            cm = kc[r - b], sm = ks[r - b], pcm = pc[r - b], psm = ps[r - b];
        } else {
            rope_sincos(m * p->theta, &sm, &cm);
            rope_sincos(m / p->divisor, &psm, &pcm);
        }
        double cn = kc[j - b], sn = ks[j - b], pcn = pc[j - b], psn = ps[j - b];
        out[3 * j + 1] += (p->q0 * cm - p->q1 * sm) * (p->k0 * cn - p->k1 * sn);
        out[3 * j + 1] += (p->q0 * sm + p->q1 * cm) * (p->k0 * sn + p->k1 * cn);
        /* sin_pos puts sin on the even element and cos on the odd one. */
        out[3 * j + 2] += (p->q0 + psm) * (p->k0 + psn);
        out[3 * j + 2] += (p->q1 + pcm) * (p->k1 + pcn);
    }
}

/* Blocks of starts outer, pairs inner: each theta and each sin_pos divisor
 * is computed once per block instead of once per start, and each start's
 * sums still take their terms pair by pair, as rope_score and rope_add_score
 * do, so the results are bit-identical to calling those per start. */
int rope_offset_scan(const double *q, int nq, const double *k, int nk, double offset,
                     const double *starts, int count, double base, double *out)
{
    int rc = rope_check_scan_args(q, nq, k, nk, offset, starts, count, ROPE_AT_FINITE, base);
    if (rc != ROPE_OK) return rc;
    if (count > 0 && out == NULL) return ROPE_E_NULL;
    for (int j = 0; j < count; j++) {
        /* The query sits at s + offset, the key at s: both are rotated. */
        if (!near_enough(starts[j], base) || !near_enough(starts[j] + offset, base))
            return ROPE_E_FAR;
        out[3 * j] = starts[j];
        out[3 * j + 1] = 0.0;
        out[3 * j + 2] = 0.0;
    }
    int shift = count > 0 ? query_row_shift(starts, count, offset) : -1;
    for (int b = 0; b < count; b += ROPE_SCAN_BLOCK) {
        int e = count - b < ROPE_SCAN_BLOCK ? count : b + ROPE_SCAN_BLOCK;
        for (int i = 0; i < nq / 2; i++) {
            /* sin_pos divides by base^(2(j/2)/d): one divisor for both elements of pair i. */
            scan_pair p = {q[2 * i],
                           q[2 * i + 1],
                           k[2 * i],
                           k[2 * i + 1],
                           rope_theta(i, nq, base),
                           rope_pow(base, (double)(2 * i) / (double)nq),
                           offset,
                           shift};
            scan_block(&p, starts, b, e, out);
        }
    }
    if (nq % 2 == 1) {
        /* rope_sin_pos_angle's divisor once, not a pow per row: the same bits. */
        double ql = q[nq - 1], kl = k[nq - 1];
        double divisor = rope_pow(base, (double)(2 * ((nq - 1) / 2)) / (double)nq);
        for (int j = 0; j < count; j++) {
            double n = starts[j], m = n + offset, sm, sn, unused;
            out[3 * j + 1] += ql * kl;
            rope_sincos(m / divisor, &sm, &unused);
            rope_sincos(n / divisor, &sn, &unused);
            out[3 * j + 2] += (ql + sm) * (kl + sn);
        }
    }
    return rope_check_results(out, 3 * count);
}

/* One pair's contribution to every start of the sweep. The angle at start j
 * is the block's anchor angle (exact sin/cos) plus j_in_block * step * theta
 * (a table of exact sin/cos shared by all blocks), joined by one complex
 * product; the inner loop then has no dependence between starts. */
static void sweep_pair(double q0, double q1, double k0, double k1, double theta, double offset,
                       double start0, double step, int count, double *rope_acc, double *add_acc)
{
    double tc[ROPE_SWEEP_BLOCK], ts[ROPE_SWEEP_BLOCK];
    int table = count < ROPE_SWEEP_BLOCK ? count : ROPE_SWEEP_BLOCK;
    for (int j = 0; j < table; j++) {
        double a = (j * step) * theta;
        rope_sincos(a, &ts[j], &tc[j]);
    }
    for (int b = 0; b < count; b += ROPE_SWEEP_BLOCK) {
        double s = start0 + b * step;
        double an = s * theta, am = (s + offset) * theta;
        double acn, asn, acm, asm_;
        rope_sincos(an, &asn, &acn);
        rope_sincos(am, &asm_, &acm);
        int len = count - b < ROPE_SWEEP_BLOCK ? count - b : ROPE_SWEEP_BLOCK;
        double *ra = rope_acc + b, *aa = add_acc + b;
        for (int j = 0; j < len; j++) {
            double cn = acn * tc[j] - asn * ts[j], sn = asn * tc[j] + acn * ts[j];
            double cm = acm * tc[j] - asm_ * ts[j], sm = asm_ * tc[j] + acm * ts[j];
            double rq0 = q0 * cm - q1 * sm, rq1 = q0 * sm + q1 * cm;
            double rk0 = k0 * cn - k1 * sn, rk1 = k0 * sn + k1 * cn;
            ra[j] += rq0 * rk0 + rq1 * rk1;
            /* sin_pos puts sin on the even element and cos on the odd one. */
            aa[j] += (q0 + sm) * (k0 + sn) + (q1 + cm) * (k1 + cn);
        }
    }
}

/* The unpaired last element's contribution: q.k unrotated, and its sin_pos
 * terms at angle s x theta (theta = base^(-2h/d), the inverse of sin_pos's
 * divisor), anchored and stepped as sweep_pair does. */
static void sweep_odd(double ql, double kl, double theta, double offset, double start0, double step,
                      int count, double *rope_acc, double *add_acc)
{
    double tc[ROPE_SWEEP_BLOCK], ts[ROPE_SWEEP_BLOCK];
    int table = count < ROPE_SWEEP_BLOCK ? count : ROPE_SWEEP_BLOCK;
    for (int j = 0; j < table; j++) rope_sincos((j * step) * theta, &ts[j], &tc[j]);
    for (int b = 0; b < count; b += ROPE_SWEEP_BLOCK) {
        double s = start0 + b * step, acn, asn, acm, asm_;
        rope_sincos(s * theta, &asn, &acn);
        rope_sincos((s + offset) * theta, &asm_, &acm);
        int len = count - b < ROPE_SWEEP_BLOCK ? count - b : ROPE_SWEEP_BLOCK;
        double *ra = rope_acc + b, *aa = add_acc + b;
        for (int j = 0; j < len; j++) {
            double sn = asn * tc[j] + acn * ts[j], sm = asm_ * tc[j] + acm * ts[j];
            ra[j] += ql * kl;
            aa[j] += (ql + sm) * (kl + sn);
        }
    }
}

int rope_offset_sweep(const double *q, int nq, const double *k, int nk, double offset,
                      double start0, double step, int count, double base, double *out)
{
    int rc = rope_check_sweep_args(q, nq, k, nk, offset, start0, step, count, ROPE_AT_FINITE, base);
    if (rc != ROPE_OK) return rc;
    /* Nothing to write; out may be NULL, and NULL + 0 is not a pointer to offset. */
    if (count == 0) return ROPE_OK;
    if (out == NULL) return ROPE_E_NULL;
    /* Positions are linear in j: if both ends are near enough, all are. */
    double last = start0 + (count - 1) * step;
    if (!near_enough(start0, base) || !near_enough(start0 + offset, base) ||
        !near_enough(last, base) || !near_enough(last + offset, base))
        return ROPE_E_FAR;
    double *starts = out, *rope_acc = out + count, *add_acc = out + 2 * count;
    for (int j = 0; j < count; j++) {
        starts[j] = start0 + j * step;
        rope_acc[j] = 0.0;
        add_acc[j] = 0.0;
    }
    for (int i = 0; i < nq / 2; i++)
        sweep_pair(q[2 * i], q[2 * i + 1], k[2 * i], k[2 * i + 1], rope_theta(i, nq, base), offset,
                   start0, step, count, rope_acc, add_acc);
    if (nq % 2 == 1) {
        /* The unpaired last element is not rotated, but still gets sin_pos: its
         * angles by the pairs' anchors and steps, since a pow and two sines per
         * start cost a hundred times a pair's work (issue #35). */
        int h = nq / 2;
        sweep_odd(q[nq - 1], k[nq - 1], rope_theta(h, nq, base), offset, start0, step, count,
                  rope_acc, add_acc);
    }
    return rope_check_results(out, 3 * count);
}
