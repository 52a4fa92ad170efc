/* The argument checks every entry point shares (rope_internal.h): each returns
 * ROPE_OK or the ROPE_E_* code of the first argument that fails, in the order
 * the arguments are listed, so every function reports its errors alike. */
#include <math.h>
#include <stddef.h>

#include "core/rope.h"
#include "core/rope_internal.h"

int rope_check_dim(int d)
{
    return (d < 0 || d > ROPE_MAX_DIM) ? ROPE_E_DIM : ROPE_OK;
}

int rope_check_count(int count)
{
    return (count < 0 || count > ROPE_MAX_COUNT) ? ROPE_E_COUNT : ROPE_OK;
}

int rope_check_base(double base)
{
    /* At base <= 1, theta_i = base^(-2i/d) no longer falls with i: no pair is
     * slower than another, and at base < 1 the angles grow past resolving. */
    return (isfinite(base) && base > 1.0) ? ROPE_OK : ROPE_E_BASE;
}

int rope_check_position(double pos)
{
    return isfinite(pos) ? ROPE_OK : ROPE_E_POSITION;
}

double rope_theta_max(double base)
{
    return base > 1.0 ? 1.0 : INFINITY;
}

int rope_check_angle(double pos, double theta_max)
{
    if (!isfinite(pos)) return ROPE_E_POSITION;
    /* Written so that a NaN product (0 x Inf) is refused too. */
    return fabs(pos) * theta_max <= ROPE_MAX_ANGLE ? ROPE_OK : ROPE_E_FAR;
}

int rope_check_rotating(double pos, double base)
{
    return rope_check_angle(pos, rope_theta_max(base));
}

int rope_check_work(int d, int count)
{
    return (long long)d * (long long)count > (long long)ROPE_MAX_WORK ? ROPE_E_WORK : ROPE_OK;
}

int rope_check_envelope_work(int d, double starts)
{
    /* Each start costs its row whatever d (issue #35: d = 1 at 2^27 starts took
     * minutes). Written so that a NaN count of starts is refused too. */
    double work = ((double)d + ROPE_ENVELOPE_START_WORK) * starts;
    return work <= ROPE_MAX_ENVELOPE_WORK ? ROPE_OK : ROPE_E_WORK;
}

/* n entries of v, n already in range: ROPE_E_NULL for a missing array, bad
 * for the first entry that is not finite. */
static int check_finite(const double *v, int n, int bad)
{
    if (n > 0 && v == NULL) return ROPE_E_NULL;
    for (int j = 0; j < n; j++)
        if (!isfinite(v[j])) return bad;
    return ROPE_OK;
}

int rope_check_positions(const double *pos, int count)
{
    int rc = rope_check_count(count);
    return rc != ROPE_OK ? rc : check_finite(pos, count, ROPE_E_POSITION);
}

int rope_check_rotating_positions(const double *pos, int count, double base)
{
    int rc = ROPE_OK;
    for (int j = 0; j < count && rc == ROPE_OK; j++) rc = rope_check_rotating(pos[j], base);
    return rc;
}

int rope_check_vector(const double *v, int n)
{
    int rc = rope_check_dim(n);
    return rc != ROPE_OK ? rc : check_finite(v, n, ROPE_E_VALUE);
}

int rope_check_pair_of_vectors(const double *q, int nq, const double *k, int nk)
{
    int rc = rope_check_vector(q, nq);
    if (rc == ROPE_OK) rc = rope_check_vector(k, nk);
    if (rc == ROPE_OK && nq != nk) rc = ROPE_E_LENGTH;
    return rc;
}

int rope_check_pairs_args(int d, double pos, int rotated, double base)
{
    int rc = rope_check_dim(d);
    if (rc == ROPE_OK) rc = rope_check_position(pos);
    if (rc == ROPE_OK) rc = rope_check_base(base);
    if (rc == ROPE_OK && rotated) rc = rope_check_rotating(pos, base);
    return rc;
}

int rope_check_batch_args(int d, const double *pos, int count, int rotated, double base)
{
    int rc = rope_check_dim(d);
    if (rc == ROPE_OK) rc = rope_check_positions(pos, count);
    if (rc == ROPE_OK) rc = rope_check_base(base);
    if (rc == ROPE_OK && rotated) rc = rope_check_rotating_positions(pos, count, base);
    return rc;
}

int rope_check_vectors_at(const double *q, int nq, const double *k, int nk, const double *pos,
                          int n_pos, double base)
{
    int rc = rope_check_pair_of_vectors(q, nq, k, nk);
    if (rc == ROPE_OK) rc = check_finite(pos, n_pos, ROPE_E_POSITION);
    if (rc == ROPE_OK) rc = rope_check_base(base);
    if (rc == ROPE_OK) rc = rope_check_rotating_positions(pos, n_pos, base);
    return rc;
}

int rope_check_scan_args(const double *q, int nq, const double *k, int nk, double offset,
                         const double *starts, int count, int rotated, double base)
{
    int rc = rope_check_pair_of_vectors(q, nq, k, nk);
    if (rc == ROPE_OK) rc = rope_check_position(offset);
    if (rc == ROPE_OK) rc = rope_check_positions(starts, count);
    if (rc == ROPE_OK) rc = rope_check_base(base);
    if (rc == ROPE_OK && rotated) rc = rope_check_rotating_positions(starts, count, base);
    if (rc == ROPE_OK) rc = rope_check_work(nq, count);
    return rc;
}

int rope_check_sweep_args(const double *q, int nq, const double *k, int nk, double offset,
                          double start0, double step, int count, int rotated, double base)
{
    int rc = rope_check_pair_of_vectors(q, nq, k, nk);
    if (rc == ROPE_OK) rc = rope_check_position(offset);
    if (rc == ROPE_OK) rc = rope_check_position(start0);
    if (rc == ROPE_OK) rc = rope_check_position(step);
    if (rc == ROPE_OK) rc = rope_check_count(count);
    if (rc == ROPE_OK) rc = rope_check_base(base);
    if (rc == ROPE_OK && rotated) rc = rope_check_rotating(offset, base);
    if (rc == ROPE_OK && rotated) rc = rope_check_rotating(start0, base);
    if (rc == ROPE_OK) rc = rope_check_work(nq, count);
    return rc;
}

int rope_check_score_args(const double *q, int nq, const double *k, int nk, double m, double n,
                          double base, const double *out)
{
    int rc = rope_check_vectors_at(q, nq, k, nk, (const double[]){m, n}, 2, base);
    if (rc == ROPE_OK && out == NULL) rc = ROPE_E_NULL;
    return rc;
}

/* A result that overflowed (huge vector entries) is reported, never handed
 * on as Inf or NaN. */
int rope_check_results(const double *out, int n)
{
    for (int j = 0; j < n; j++)
        if (!isfinite(out[j])) return ROPE_E_RANGE;
    return ROPE_OK;
}
