/* ropescope core: see rope.h and docs/SPEC.md for the meaning of each function. */
#include "core/rope.h"

#include <math.h>
#include <stddef.h>

#include "core/rope_internal.h"
#include "core/rope_math.h"

/* The limits appear in messages exactly as rope.h defines them. */
#define ROPE_STR(x) #x
#define ROPE_XSTR(x) ROPE_STR(x)

/* ROPE_E_WORK's text, each limit as rope.h defines it. */
/* clang-format off */
static const char work_text[] =
    "too much work for one call (dimension x count above " ROPE_XSTR(ROPE_MAX_WORK)
    ", (dimension + " ROPE_XSTR(ROPE_ENVELOPE_START_WORK) ") x starts above "
    ROPE_XSTR(ROPE_MAX_ENVELOPE_WORK) " for an envelope)";
/* clang-format on */

const char *rope_strerror(int code)
{
    switch (code) {
    case ROPE_OK: return "ok";
    case ROPE_E_DIM:
        return "dimension must be an integer in [0, " ROPE_XSTR(
            ROPE_MAX_DIM) "], and at least 2 (one pair) for the report";
    case ROPE_E_BASE:
        return "base must be a finite number > 1 (at base <= 1 theta_i = base^(-2i/d) no longer "
               "falls with i, so the pairs would no longer slow down)";
    case ROPE_E_POSITION: return "position, offset, gap, delta or angle must be a finite number";
    case ROPE_E_VALUE: return "vector entries must be finite numbers";
    case ROPE_E_LENGTH: return "vector lengths do not match";
    case ROPE_E_COUNT: return "count must be an integer in [0, " ROPE_XSTR(ROPE_MAX_COUNT) "]";
    case ROPE_E_NULL: return "a required array is missing (NULL)";
    case ROPE_E_RANGE:
        return "result overflowed (angle or score is not finite); use smaller vector entries";
    case ROPE_E_SPACE: return "output buffer is too small";
    case ROPE_E_NOMEM: return "out of memory";
    case ROPE_E_FAR:
        return "the largest angle, position x theta_0 (theta_0 = 1 for base > 1), is "
               "beyond " ROPE_XSTR(
                   ROPE_MAX_ANGLE) " radians, where doubles can no longer resolve it";
    case ROPE_E_WORK: return work_text;
    case ROPE_E_SCALING: return "a scaling parameter is missing or out of range";
    case ROPE_E_CONFIG: return "a model config key is missing, mistyped or inconsistent";
    default: return "unknown error";
    }
}

/* theta_i written as base^(-2i/d), the exponent divided exactly as docs/SPEC.md does. */
double rope_theta(int i, int d, double base)
{
    return rope_pow(base, (double)(-2 * i) / (double)d);
}

/* The additive method divides by base^(2(j/2)/d) rather than multiplying by theta. */
double rope_sin_pos_angle(double pos, int j, int d, double base)
{
    return pos / rope_pow(base, (double)(2 * (j / 2)) / (double)d);
}

int rope_demo_vectors(int d, double *q, double *k)
{
    int rc = rope_check_dim(d);
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
    int rc = rope_check_pair_of_vectors(a, na, b, nb);
    if (rc != ROPE_OK) return rc;
    if (out == NULL) return ROPE_E_NULL;
    double sum = 0.0;
    for (int j = 0; j < na; j++) sum += a[j] * b[j];
    *out = sum;
    return rope_check_results(out, 1);
}

int rope_norm(const double *a, int n, double *out)
{
    int rc = rope_check_vector(a, n);
    if (rc != ROPE_OK) return rc;
    if (out == NULL) return ROPE_E_NULL;
    double sum = 0.0;
    for (int j = 0; j < n; j++) sum += a[j] * a[j];
    *out = sqrt(sum);
    return rope_check_results(out, 1);
}

int rope_thetas(int d, double base, double *out)
{
    int rc = rope_check_dim(d);
    if (rc == ROPE_OK) rc = rope_check_base(base);
    if (rc != ROPE_OK) return rc;
    if (d >= 2 && out == NULL) return ROPE_E_NULL;
    for (int i = 0; i < d / 2; i++) out[i] = rope_theta(i, d, base);
    return rope_check_results(out, d / 2);
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
    return rope_check_results(out, 2);
}

int rope_apply_rope(const double *vec, int d, double pos, double base, double *out)
{
    int rc = rope_check_vector(vec, d);
    if (rc == ROPE_OK) rc = rope_check_pairs_args(d, pos, ROPE_AT_ROTATED, base);
    if (rc != ROPE_OK) return rc;
    if (d > 0 && out == NULL) return ROPE_E_NULL;
    for (int i = 0; i < d / 2; i++) {
        double a = pos * rope_theta(i, d, base);
        double s, c;
        rope_sincos(a, &s, &c);
        double x0 = vec[2 * i], x1 = vec[2 * i + 1];
        out[2 * i] = x0 * c - x1 * s;
        out[2 * i + 1] = x0 * s + x1 * c;
    }
    if (d % 2 == 1) out[d - 1] = vec[d - 1];
    return rope_check_results(out, d);
}

/* The sum of rope_score: each pair of q rotated by m theta_i, of k by n theta_i. */
static double rotated_sum(const double *q, const double *k, int nq, double m, double n, double base)
{
    double sum = 0.0;
    for (int i = 0; i < nq / 2; i++) {
        double theta = rope_theta(i, nq, base);
        double am = m * theta, an = n * theta;
        double cm, sm, cn, sn;
        rope_sincos(am, &sm, &cm);
        rope_sincos(an, &sn, &cn);
        double q0 = q[2 * i], q1 = q[2 * i + 1], k0 = k[2 * i], k1 = k[2 * i + 1];
        sum += (q0 * cm - q1 * sm) * (k0 * cn - k1 * sn);
        sum += (q0 * sm + q1 * cm) * (k0 * sn + k1 * cn);
    }
    if (nq % 2 == 1) sum += q[nq - 1] * k[nq - 1];
    return sum;
}

/* The sum of rope_add_score: sin_pos(m) added to q, sin_pos(n) to k, element by element. */
static double additive_sum(const double *q, const double *k, int nq, double m, double n,
                           double base)
{
    double sum = 0.0;
    for (int j = 0; j < nq; j++) {
        double sm, cm, sn, cn;
        rope_sincos(rope_sin_pos_angle(m, j, nq, base), &sm, &cm);
        rope_sincos(rope_sin_pos_angle(n, j, nq, base), &sn, &cn);
        double pm = (j % 2 == 0) ? sm : cm;
        double pn = (j % 2 == 0) ? sn : cn;
        sum += (q[j] + pm) * (k[j] + pn);
    }
    return sum;
}

/* rope_score and rope_add_score take the same arguments, checked the same way,
 * and differ only in the sum. */
static int score(int additive, const double *q, int nq, const double *k, int nk, double m, double n,
                 double base, double *out)
{
    int rc = rope_check_score_args(q, nq, k, nk, m, n, base, out);
    if (rc != ROPE_OK) return rc;
    *out = additive ? additive_sum(q, k, nq, m, n, base) : rotated_sum(q, k, nq, m, n, base);
    return rope_check_results(out, 1);
}

int rope_score(const double *q, int nq, const double *k, int nk, double m, double n, double base,
               double *out)
{
    return score(0, q, nq, k, nk, m, n, base, out);
}

int rope_add_score(const double *q, int nq, const double *k, int nk, double m, double n,
                   double base, double *out)
{
    return score(1, q, nq, k, nk, m, n, base, out);
}

int rope_sin_pos(double pos, int d, double base, double *out)
{
    int rc = rope_check_pairs_args(d, pos, ROPE_AT_ROTATED, base);
    if (rc != ROPE_OK) return rc;
    if (d > 0 && out == NULL) return ROPE_E_NULL;
    for (int j = 0; j < d; j++) {
        double a = rope_sin_pos_angle(pos, j, d, base);
        double s, c;
        rope_sincos(a, &s, &c);
        out[j] = (j % 2 == 0) ? s : c;
    }
    return rope_check_results(out, d);
}

int rope_turns(int d, double delta, double base, double *out)
{
    int rc = rope_check_pairs_args(d, delta, ROPE_AT_FINITE, base);
    if (rc != ROPE_OK) return rc;
    if (d >= 2 && out == NULL) return ROPE_E_NULL;
    for (int i = 0; i < d / 2; i++) out[i] = delta * rope_theta(i, d, base) / ROPE_TWO_PI;
    return rope_check_results(out, d / 2);
}

/* Counts without storing: the count is what the slow-pairs chart needs. A
 * theta that overflowed (a subnormal base) cannot be counted either way. */
static int count_slow(int d, double delta, double base, int *out)
{
    int slow = 0;
    for (int i = 0; i < d / 2; i++) {
        double theta = rope_theta(i, d, base);
        if (!isfinite(theta)) return ROPE_E_RANGE;
        if (delta * theta / ROPE_TWO_PI < 1.0) slow++;
    }
    *out = slow;
    return ROPE_OK;
}

int rope_slow_pairs(int d, double delta, double base, int *out)
{
    int rc = rope_check_pairs_args(d, delta, ROPE_AT_FINITE, base);
    if (rc != ROPE_OK) return rc;
    if (out == NULL) return ROPE_E_NULL;
    return count_slow(d, delta, base, out);
}
