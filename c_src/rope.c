/* ropescope core: see rope.h and CONTRACT.md for the meaning of each function. */
#include "rope.h"

#include <math.h>
#include <stddef.h>

#include "rope_math.h"

static const double rope_two_pi = 6.283185307179586476925286766559;

/* Starts per block in rope_offset_sweep: each block re-anchors its angles
 * exactly, so rounding never accumulates past one complex product. */
#define ROPE_SWEEP_BLOCK 64

const char *rope_strerror(int code)
{
    switch (code) {
    case ROPE_OK: return "ok";
    case ROPE_E_DIM: return "dimension must be an integer in [0, 65536]";
    case ROPE_E_BASE: return "base must be a finite number > 0";
    case ROPE_E_POSITION: return "position, offset, gap, delta or angle must be a finite number";
    case ROPE_E_VALUE: return "vector entries must be finite numbers";
    case ROPE_E_LENGTH: return "vector lengths do not match";
    case ROPE_E_COUNT: return "count must be an integer in [0, 65536]";
    case ROPE_E_NULL: return "a required array is missing (NULL)";
    case ROPE_E_RANGE: return "result overflowed (angle or score is not finite); use a smaller position or a larger base";
    case ROPE_E_SPACE: return "output buffer is too small";
    default: return "unknown error";
    }
}

static int check_dim(int d)
{
    return (d < 0 || d > ROPE_MAX_DIM) ? ROPE_E_DIM : ROPE_OK;
}

static int check_count(int count)
{
    return (count < 0 || count > ROPE_MAX_COUNT) ? ROPE_E_COUNT : ROPE_OK;
}

static int check_base(double base)
{
    return (isfinite(base) && base > 0.0) ? ROPE_OK : ROPE_E_BASE;
}

static int check_position(double pos)
{
    return isfinite(pos) ? ROPE_OK : ROPE_E_POSITION;
}

static int check_positions(const double *pos, int count)
{
    int rc = check_count(count);
    if (rc != ROPE_OK) return rc;
    if (count > 0 && pos == NULL) return ROPE_E_NULL;
    for (int j = 0; j < count; j++)
        if (!isfinite(pos[j])) return ROPE_E_POSITION;
    return ROPE_OK;
}

static int check_vector(const double *v, int n)
{
    int rc = check_dim(n);
    if (rc != ROPE_OK) return rc;
    if (n > 0 && v == NULL) return ROPE_E_NULL;
    for (int j = 0; j < n; j++)
        if (!isfinite(v[j])) return ROPE_E_VALUE;
    return ROPE_OK;
}

static int check_pair_of_vectors(const double *q, int nq, const double *k, int nk)
{
    int rc = check_vector(q, nq);
    if (rc == ROPE_OK) rc = check_vector(k, nk);
    if (rc == ROPE_OK && nq != nk) rc = ROPE_E_LENGTH;
    return rc;
}

/* rope_score and rope_add_score take the same arguments, checked the same way. */
static int check_score_args(const double *q, int nq, const double *k, int nk, double m,
                            double n, double base, const double *out)
{
    int rc = check_pair_of_vectors(q, nq, k, nk);
    if (rc == ROPE_OK) rc = check_position(m);
    if (rc == ROPE_OK) rc = check_position(n);
    if (rc == ROPE_OK) rc = check_base(base);
    if (rc == ROPE_OK && out == NULL) rc = ROPE_E_NULL;
    return rc;
}

/* A result that overflowed (huge position times a huge theta) is reported,
 * never handed on as NaN. */
static int check_results(const double *out, int n)
{
    for (int j = 0; j < n; j++)
        if (!isfinite(out[j])) return ROPE_E_RANGE;
    return ROPE_OK;
}

/* theta_i written as base^(-2i/d), the exponent divided exactly as CONTRACT.md does. */
static double theta_of(int i, int d, double base)
{
    return rope_pow(base, (double)(-2 * i) / (double)d);
}

/* The additive method divides by base^(2(j/2)/d) rather than multiplying by theta. */
static double sin_pos_angle(double pos, int j, int d, double base)
{
    return pos / rope_pow(base, (double)(2 * (j / 2)) / (double)d);
}

int rope_demo_vectors(int d, double *q, double *k)
{
    int rc = check_dim(d);
    if (rc != ROPE_OK) return rc;
    if (d > 0 && (q == NULL || k == NULL)) return ROPE_E_NULL;
    for (int j = 0; j < d; j++) {
        double unused;
        rope_sincos(0.7 * j + 0.3, &unused, &q[j]);
        rope_sincos(0.4 * j + 1.1, &k[j], &unused);
    }
    return ROPE_OK;
}

int rope_dot(const double *a, int na, const double *b, int nb, double *out)
{
    int rc = check_pair_of_vectors(a, na, b, nb);
    if (rc != ROPE_OK) return rc;
    if (out == NULL) return ROPE_E_NULL;
    double sum = 0.0;
    for (int j = 0; j < na; j++) sum += a[j] * b[j];
    *out = sum;
    return check_results(out, 1);
}

int rope_norm(const double *a, int n, double *out)
{
    int rc = check_vector(a, n);
    if (rc != ROPE_OK) return rc;
    if (out == NULL) return ROPE_E_NULL;
    double sum = 0.0;
    for (int j = 0; j < n; j++) sum += a[j] * a[j];
    *out = sqrt(sum);
    return check_results(out, 1);
}

int rope_thetas(int d, double base, double *out)
{
    int rc = check_dim(d);
    if (rc == ROPE_OK) rc = check_base(base);
    if (rc != ROPE_OK) return rc;
    if (d >= 2 && out == NULL) return ROPE_E_NULL;
    for (int i = 0; i < d / 2; i++) out[i] = theta_of(i, d, base);
    return check_results(out, d / 2);
}

int rope_rotate_pair(double x0, double x1, double angle, double *out)
{
    if (!isfinite(x0) || !isfinite(x1)) return ROPE_E_VALUE;
    if (!isfinite(angle)) return ROPE_E_POSITION;
    if (out == NULL) return ROPE_E_NULL;
    double s, c;
    rope_sincos(angle, &s, &c);
    out[0] = x0 * c - x1 * s;
    out[1] = x0 * s + x1 * c;
    return check_results(out, 2);
}

int rope_apply_rope(const double *vec, int d, double pos, double base, double *out)
{
    int rc = check_vector(vec, d);
    if (rc == ROPE_OK) rc = check_position(pos);
    if (rc == ROPE_OK) rc = check_base(base);
    if (rc != ROPE_OK) return rc;
    if (d > 0 && out == NULL) return ROPE_E_NULL;
    for (int i = 0; i < d / 2; i++) {
        double a = pos * theta_of(i, d, base);
        double s, c;
        rope_sincos(a, &s, &c);
        double x0 = vec[2 * i], x1 = vec[2 * i + 1];
        out[2 * i] = x0 * c - x1 * s;
        out[2 * i + 1] = x0 * s + x1 * c;
    }
    if (d % 2 == 1) out[d - 1] = vec[d - 1];
    return check_results(out, d);
}

int rope_score(const double *q, int nq, const double *k, int nk, double m, double n,
               double base, double *out)
{
    int rc = check_score_args(q, nq, k, nk, m, n, base, out);
    if (rc != ROPE_OK) return rc;
    double sum = 0.0;
    for (int i = 0; i < nq / 2; i++) {
        double theta = theta_of(i, nq, base);
        double am = m * theta, an = n * theta;
        double cm, sm, cn, sn;
        rope_sincos(am, &sm, &cm);
        rope_sincos(an, &sn, &cn);
        double q0 = q[2 * i], q1 = q[2 * i + 1], k0 = k[2 * i], k1 = k[2 * i + 1];
        sum += (q0 * cm - q1 * sm) * (k0 * cn - k1 * sn);
        sum += (q0 * sm + q1 * cm) * (k0 * sn + k1 * cn);
    }
    if (nq % 2 == 1) sum += q[nq - 1] * k[nq - 1];
    *out = sum;
    return check_results(out, 1);
}

int rope_sin_pos(double pos, int d, double base, double *out)
{
    int rc = check_dim(d);
    if (rc == ROPE_OK) rc = check_position(pos);
    if (rc == ROPE_OK) rc = check_base(base);
    if (rc != ROPE_OK) return rc;
    if (d > 0 && out == NULL) return ROPE_E_NULL;
    for (int j = 0; j < d; j++) {
        double a = sin_pos_angle(pos, j, d, base);
        double s, c;
        rope_sincos(a, &s, &c);
        out[j] = (j % 2 == 0) ? s : c;
    }
    return check_results(out, d);
}

int rope_add_score(const double *q, int nq, const double *k, int nk, double m, double n,
                   double base, double *out)
{
    int rc = check_score_args(q, nq, k, nk, m, n, base, out);
    if (rc != ROPE_OK) return rc;
    double sum = 0.0;
    for (int j = 0; j < nq; j++) {
        double am = sin_pos_angle(m, j, nq, base), an = sin_pos_angle(n, j, nq, base);
        double sm, cm, sn, cn;
        rope_sincos(am, &sm, &cm);
        rope_sincos(an, &sn, &cn);
        double pm = (j % 2 == 0) ? sm : cm;
        double pn = (j % 2 == 0) ? sn : cn;
        sum += (q[j] + pm) * (k[j] + pn);
    }
    *out = sum;
    return check_results(out, 1);
}

int rope_offset_scan(const double *q, int nq, const double *k, int nk, double offset,
                     const double *starts, int count, double base, double *out)
{
    int rc = check_pair_of_vectors(q, nq, k, nk);
    if (rc == ROPE_OK) rc = check_position(offset);
    if (rc == ROPE_OK) rc = check_positions(starts, count);
    if (rc == ROPE_OK) rc = check_base(base);
    if (rc != ROPE_OK) return rc;
    if (count > 0 && out == NULL) return ROPE_E_NULL;
    for (int j = 0; j < count; j++) {
        double s = starts[j];
        /* Both finite, yet their sum may not be: that is an overflow, not bad input. */
        if (!isfinite(s + offset)) return ROPE_E_RANGE;
        out[3 * j] = s;
        rc = rope_score(q, nq, k, nk, s + offset, s, base, &out[3 * j + 1]);
        if (rc == ROPE_OK) rc = rope_add_score(q, nq, k, nk, s + offset, s, base, &out[3 * j + 2]);
        if (rc != ROPE_OK) return rc;
    }
    return ROPE_OK;
}

int rope_turns(int d, double delta, double base, double *out)
{
    int rc = check_dim(d);
    if (rc == ROPE_OK) rc = check_position(delta);
    if (rc == ROPE_OK) rc = check_base(base);
    if (rc != ROPE_OK) return rc;
    if (d >= 2 && out == NULL) return ROPE_E_NULL;
    for (int i = 0; i < d / 2; i++) out[i] = delta * theta_of(i, d, base) / rope_two_pi;
    return check_results(out, d / 2);
}

/* Counts without storing: the count is what the slow-pairs chart needs. A
 * theta that overflowed (a subnormal base) cannot be counted either way. */
static int count_slow(int d, double delta, double base, int *out)
{
    int slow = 0;
    for (int i = 0; i < d / 2; i++) {
        double theta = theta_of(i, d, base);
        if (!isfinite(theta)) return ROPE_E_RANGE;
        if (delta * theta / rope_two_pi < 1.0) slow++;
    }
    *out = slow;
    return ROPE_OK;
}

int rope_slow_pairs(int d, double delta, double base, int *out)
{
    int rc = check_dim(d);
    if (rc == ROPE_OK) rc = check_position(delta);
    if (rc == ROPE_OK) rc = check_base(base);
    if (rc != ROPE_OK) return rc;
    if (out == NULL) return ROPE_E_NULL;
    return count_slow(d, delta, base, out);
}

int rope_pair_angles(int d, double gap, double base, double *out)
{
    int rc = check_dim(d);
    if (rc == ROPE_OK) rc = check_position(gap);
    if (rc == ROPE_OK) rc = check_base(base);
    if (rc != ROPE_OK) return rc;
    if (d >= 2 && out == NULL) return ROPE_E_NULL;
    for (int i = 0; i < d / 2; i++) out[i] = gap * theta_of(i, d, base);
    return check_results(out, d / 2);
}

/* Pairs outer, deltas inner: one theta per pair instead of one per (pair, delta). */
int rope_slow_pairs_batch(int d, const double *deltas, int count, double base, int *out)
{
    int rc = check_dim(d);
    if (rc == ROPE_OK) rc = check_positions(deltas, count);
    if (rc == ROPE_OK) rc = check_base(base);
    if (rc != ROPE_OK) return rc;
    if (count > 0 && out == NULL) return ROPE_E_NULL;
    for (int j = 0; j < count; j++) out[j] = 0;
    for (int i = 0; i < d / 2; i++) {
        double theta = theta_of(i, d, base);
        if (!isfinite(theta)) return ROPE_E_RANGE;
        for (int j = 0; j < count; j++)
            if (deltas[j] * theta / rope_two_pi < 1.0) out[j]++;
    }
    return ROPE_OK;
}

/* Sums of squares accumulate in out, pairs outer, so each theta is computed once. */
int rope_norm_gaps(const double *vec, int d, const double *positions, int count,
                   double base, double *out)
{
    int rc = check_vector(vec, d);
    if (rc == ROPE_OK) rc = check_positions(positions, count);
    if (rc == ROPE_OK) rc = check_base(base);
    if (rc != ROPE_OK) return rc;
    if (count > 0 && out == NULL) return ROPE_E_NULL;
    double before = 0.0;
    rc = rope_norm(vec, d, &before);
    if (rc != ROPE_OK) return rc;
    for (int j = 0; j < count; j++) out[j] = 0.0;
    for (int i = 0; i < d / 2; i++) {
        double theta = theta_of(i, d, base), x0 = vec[2 * i], x1 = vec[2 * i + 1];
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
    return check_results(out, count);
}

/* One pair's contribution to every start of the sweep. The angle at start j
 * is the block's anchor angle (exact sin/cos) plus j_in_block * step * theta
 * (a table of exact sin/cos shared by all blocks), joined by one complex
 * product; the inner loop then has no dependence between starts. */
static void sweep_pair(double q0, double q1, double k0, double k1, double theta,
                       double offset, double start0, double step, int count,
                       double *rope_acc, double *add_acc)
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

int rope_offset_sweep(const double *q, int nq, const double *k, int nk, double offset,
                      double start0, double step, int count, double base, double *out)
{
    int rc = check_pair_of_vectors(q, nq, k, nk);
    if (rc == ROPE_OK) rc = check_position(offset);
    if (rc == ROPE_OK) rc = check_position(start0);
    if (rc == ROPE_OK) rc = check_position(step);
    if (rc == ROPE_OK) rc = check_count(count);
    if (rc == ROPE_OK) rc = check_base(base);
    if (rc != ROPE_OK) return rc;
    if (count > 0 && out == NULL) return ROPE_E_NULL;
    if (count > 0 && (!isfinite(start0 + (count - 1) * step)
                      || !isfinite(start0 + (count - 1) * step + offset) || !isfinite(start0 + offset)))
        return ROPE_E_RANGE;
    double *starts = out, *rope_acc = out + count, *add_acc = out + 2 * count;
    for (int j = 0; j < count; j++) {
        starts[j] = start0 + j * step;
        rope_acc[j] = 0.0;
        add_acc[j] = 0.0;
    }
    for (int i = 0; i < nq / 2; i++)
        sweep_pair(q[2 * i], q[2 * i + 1], k[2 * i], k[2 * i + 1], theta_of(i, nq, base),
                   offset, start0, step, count, rope_acc, add_acc);
    if (nq % 2 == 1) {
        /* The unpaired last element is not rotated, but still gets sin_pos. */
        double ql = q[nq - 1], kl = k[nq - 1];
        for (int j = 0; j < count; j++) {
            double s = starts[j];
            rope_acc[j] += ql * kl;
            double sm, sn, unused;
            rope_sincos(sin_pos_angle(s + offset, nq - 1, nq, base), &sm, &unused);
            rope_sincos(sin_pos_angle(s, nq - 1, nq, base), &sn, &unused);
            add_acc[j] += (ql + sm) * (kl + sn);
        }
    }
    return check_results(out, 3 * count);
}
