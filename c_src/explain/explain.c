/* ropescope explainer figures: the worked pair, the per-pair proof, the
 * additive breakdown and the heatmap. Meanings in explain.h, formulas in
 * docs/EXPLAIN.md. */
#include "explain/explain.h"

#include <math.h>
#include <stddef.h>

#include "core/rope.h"
#include "core/rope_internal.h"
#include "core/rope_math.h"

/* Starts per exactly anchored block in rope_add_terms_sweep. */
#define ROPE_ADD_BLOCK 64

/* dot(R(m t) q, R(n t) k) = q^T R(m t)^T R(n t) k = q^T R((n - m) t) k, and
 * expanding R((n - m) t) gives (q.k) cos((m - n) t) + (q0 k1 - q1 k0) sin((m - n) t). */
int rope_pair_example(double q0, double q1, double k0, double k1, double m, double n, double theta,
                      double *out)
{
    if (!isfinite(q0) || !isfinite(q1) || !isfinite(k0) || !isfinite(k1)) return ROPE_E_VALUE;
    /* theta is given, so the far check is on the angles m theta and n theta themselves. */
    int rc = rope_check_position(m);
    if (rc == ROPE_OK) rc = rope_check_position(n);
    if (rc == ROPE_OK && !isfinite(theta)) rc = ROPE_E_POSITION;
    if (rc == ROPE_OK) rc = rope_check_angle(m, fabs(theta));
    if (rc == ROPE_OK) rc = rope_check_angle(n, fabs(theta));
    if (rc != ROPE_OK) return rc;
    if (out == NULL) return ROPE_E_NULL;
    double am = m * theta, an = n * theta, gap = (m - n) * theta;
    double sm, cm, sn, cn, sg, cg;
    rope_sincos(am, &sm, &cm);
    rope_sincos(an, &sn, &cn);
    rope_sincos(gap, &sg, &cg);
    out[ROPE_EX_QM0] = q0 * cm - q1 * sm;
    out[ROPE_EX_QM1] = q0 * sm + q1 * cm;
    out[ROPE_EX_KN0] = k0 * cn - k1 * sn;
    out[ROPE_EX_KN1] = k0 * sn + k1 * cn;
    out[ROPE_EX_ANGLE_M] = am;
    out[ROPE_EX_ANGLE_N] = an;
    out[ROPE_EX_ANGLE_MN] = gap;
    out[ROPE_EX_DOT] = q0 * k0 + q1 * k1;
    out[ROPE_EX_CROSS] = q0 * k1 - q1 * k0;
    out[ROPE_EX_DIRECT] = out[ROPE_EX_QM0] * out[ROPE_EX_KN0] + out[ROPE_EX_QM1] * out[ROPE_EX_KN1];
    out[ROPE_EX_FORMULA] = out[ROPE_EX_DOT] * cg + out[ROPE_EX_CROSS] * sg;
    return rope_check_results(out, ROPE_EX_LEN);
}

int rope_pair_terms(const double *q, int nq, const double *k, int nk, double m, double n,
                    double base, double *out)
{
    int rc = rope_check_score_args(q, nq, k, nk, m, n, base, out);
    if (rc != ROPE_OK) return rc;
    int h = nq / 2;
    double r = m - n, sum = 0.0;
    for (int i = 0; i < h; i++) {
        double q0 = q[2 * i], q1 = q[2 * i + 1], k0 = k[2 * i], k1 = k[2 * i + 1];
        double s, c;
        rope_sincos(r * rope_theta(i, nq, base), &s, &c);
        out[h + i] = q0 * k0 + q1 * k1;
        out[2 * h + i] = q0 * k1 - q1 * k0;
        out[i] = out[h + i] * c + out[2 * h + i] * s;
        sum += out[i];
    }
    if (nq % 2 == 1) sum += q[nq - 1] * k[nq - 1];
    out[3 * h] = sum;
    rc = rope_score(q, nq, k, nk, m, n, base, &out[3 * h + 1]);
    if (rc != ROPE_OK) return rc;
    return rope_check_results(out, ROPE_PAIR_TERMS_LEN(nq));
}

/* One start's share of the five blocks from the angle group g = elements
 * (e, e + 1) of sin_pos, whose sin and cos at m and n are given. */
static void add_group(const double *q, const double *k, int e, int odd, double sm, double cm,
                      double sn, double cn, double *blocks, int count, int j)
{
    double *qpn = blocks + count, *pmk = blocks + 2 * count, *pmpn = blocks + 3 * count;
    double *total = blocks + 4 * count;
    qpn[j] += q[e] * sn;
    pmk[j] += sm * k[e];
    pmpn[j] += sm * sn;
    total[j] += (q[e] + sm) * (k[e] + sn);
    if (odd) {
        qpn[j] += q[e + 1] * cn;
        pmk[j] += cm * k[e + 1];
        pmpn[j] += cm * cn;
        total[j] += (q[e + 1] + cm) * (k[e + 1] + cn);
    }
}

static void add_terms_start(const double *q, const double *k, int nq, int count, double *out)
{
    double dot = 0.0;
    for (int j = 0; j < nq; j++) dot += q[j] * k[j];
    for (int j = 0; j < count; j++) {
        out[j] = dot;
        out[count + j] = out[2 * count + j] = out[3 * count + j] = out[4 * count + j] = 0.0;
    }
}

/* Elements 2i (sin) and 2i+1 (cos) of sin_pos share one angle, so each
 * (group, start) costs one sincos for m and one for n; the fifth block adds
 * (q[j] + P[m][j]) (k[j] + P[n][j]) in rope_add_score's order, so it is
 * rope_add_score bit for bit. */
int rope_add_terms(const double *q, int nq, const double *k, int nk, double offset,
                   const double *starts, int count, double base, double *out)
{
    /* Like rope_offset_scan: offset is never rotated by alone, only start + offset. */
    int rc = rope_check_scan_args(q, nq, k, nk, offset, starts, count, ROPE_AT_ROTATED, base);
    if (rc != ROPE_OK) return rc;
    if (count > 0 && out == NULL) return ROPE_E_NULL;
    if (count == 0) return ROPE_OK; /* out may be NULL: no pointer arithmetic on it */
    for (int j = 0; j < count; j++)
        if (rope_check_rotating(starts[j] + offset, base) != ROPE_OK) return ROPE_E_FAR;
    add_terms_start(q, k, nq, count, out);
    for (int g = 0; 2 * g < nq; g++) {
        double div = rope_pow(base, (double)(2 * g) / (double)nq);
        for (int j = 0; j < count; j++) {
            double sm, cm, sn, cn;
            rope_sincos((starts[j] + offset) / div, &sm, &cm);
            rope_sincos(starts[j] / div, &sn, &cn);
            add_group(q, k, 2 * g, 2 * g + 1 < nq, sm, cm, sn, cn, out, count, j);
        }
    }
    return rope_check_results(out, 5 * count);
}

/* As rope_offset_sweep does for the scores: each block of starts anchors its
 * two angles exactly, and the in-block step j * step / div comes from one
 * table shared by all blocks, joined by a complex product, so the inner loop
 * needs no trigonometry and errors stay near 1e-15. */
int rope_add_terms_sweep(const double *q, int nq, const double *k, int nk, double offset,
                         double start0, double step, int count, double base, double *out)
{
    int rc =
        rope_check_sweep_args(q, nq, k, nk, offset, start0, step, count, ROPE_AT_ROTATED, base);
    if (rc != ROPE_OK) return rc;
    if (count > 0 && out == NULL) return ROPE_E_NULL;
    if (count == 0) return ROPE_OK; /* out may be NULL: no pointer arithmetic on it */
    double end = start0 + (count - 1) * step;
    rc = rope_check_rotating(end, base);
    if (rc == ROPE_OK) rc = rope_check_rotating(end + offset, base);
    if (rc == ROPE_OK) rc = rope_check_rotating(start0 + offset, base);
    if (rc != ROPE_OK) return rc;
    add_terms_start(q, k, nq, count, out);
    double tc[ROPE_ADD_BLOCK], ts[ROPE_ADD_BLOCK];
    int table = count < ROPE_ADD_BLOCK ? count : ROPE_ADD_BLOCK;
    for (int g = 0; 2 * g < nq; g++) {
        double div = rope_pow(base, (double)(2 * g) / (double)nq);
        for (int j = 0; j < table; j++) rope_sincos((j * step) / div, &ts[j], &tc[j]);
        for (int b = 0; b < count; b += ROPE_ADD_BLOCK) {
            double s = start0 + b * step, asm_, acm, asn, acn;
            rope_sincos((s + offset) / div, &asm_, &acm);
            rope_sincos(s / div, &asn, &acn);
            int len = count - b < ROPE_ADD_BLOCK ? count - b : ROPE_ADD_BLOCK;
            for (int j = 0; j < len; j++) {
                double cm = acm * tc[j] - asm_ * ts[j], sm = asm_ * tc[j] + acm * ts[j];
                double cn = acn * tc[j] - asn * ts[j], sn = asn * tc[j] + acn * ts[j];
                add_group(q, k, 2 * g, 2 * g + 1 < nq, sm, cm, sn, cn, out, count, b + j);
            }
        }
    }
    return rope_check_results(out, 5 * count);
}

int rope_cos_grid(int d, const double *positions, int count, double base, double *out)
{
    int rc = rope_check_batch_args(d, positions, count, ROPE_AT_ROTATED, base);
    if (rc != ROPE_OK) return rc;
    int h = d / 2;
    if (rope_check_work(h, count) != ROPE_OK) return ROPE_E_WORK;
    if (h > 0 && count > 0 && out == NULL) return ROPE_E_NULL;
    if (count == 0) return ROPE_OK; /* out may be NULL: no row pointer into it */
    for (int i = 0; i < h; i++) {
        double theta = rope_theta(i, d, base), *row = out + (size_t)i * (size_t)count;
        for (int p = 0; p < count; p++) {
            double unused;
            rope_sincos(positions[p] * theta, &unused, &row[p]);
        }
    }
    return rope_check_results(out, h * count);
}
