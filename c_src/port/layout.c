/* Pairing layouts: which dimensions form a pair, and what a cos/sin table
 * built for one layout does when the rotation pairs the other way. */
#include <math.h>
#include <stddef.h>

#include "core/rope.h"
#include "core/rope_internal.h"
#include "core/rope_math.h"
#include "port/port.h"

void rope_layout_dims(int layout, int n, int i, int *a, int *b)
{
    *a = layout == ROPE_LAYOUT_INTERLEAVED ? 2 * i : i;
    *b = layout == ROPE_LAYOUT_INTERLEAVED ? 2 * i + 1 : i + n;
}

static int pair_of(int layout, int n, int j)
{
    return layout == ROPE_LAYOUT_INTERLEAVED ? j / 2 : j % n;
}

int rope_layout_pairs(int layout, int n, int *out)
{
    if (n < 1 || n > ROPE_MAX_DIM / 2) return ROPE_E_DIM;
    if (layout != ROPE_LAYOUT_HALF && layout != ROPE_LAYOUT_INTERLEAVED) return ROPE_E_VALUE;
    if (!out) return ROPE_E_NULL;
    for (int j = 0; j < 2 * n; j++) out[j] = pair_of(layout, n, j);
    return ROPE_OK;
}

/* Dimensions a and b of x at position p: the angle of each dimension from
 * the table's layout, the pairing from the rotation's. */
static void rotate_two(const double *x, const double *theta, int n, double p, int table, int a,
                       int b, double *ra, double *rb)
{
    double sa, ca, sb, cb;
    rope_sincos(p * theta[pair_of(table, n, a)], &sa, &ca);
    rope_sincos(p * theta[pair_of(table, n, b)], &sb, &cb);
    *ra = x[a] * ca - x[b] * sa;
    *rb = x[b] * cb + x[a] * sb;
}

static double mixed_score(const double *q, const double *k, int n, const double *theta, double m,
                          double s, int table, int rotation)
{
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
        int a, b;
        double qa, qb, ka, kb;
        rope_layout_dims(rotation, n, i, &a, &b);
        rotate_two(q, theta, n, m, table, a, b, &qa, &qb);
        rotate_two(k, theta, n, s, table, a, b, &ka, &kb);
        sum += qa * ka + qb * kb;
    }
    return sum;
}

int rope_layout_scores(const double *q, const double *k, int n, const double *theta, int layout,
                       double gap, double start0, double step, int count, double *out)
{
    if (n < 1 || n > ROPE_MAX_DIM / 2) return ROPE_E_DIM;
    if (layout != ROPE_LAYOUT_HALF && layout != ROPE_LAYOUT_INTERLEAVED) return ROPE_E_VALUE;
    int rc = rope_check_count(count);
    if (rc != ROPE_OK) return rc;
    if (!q || !k || !theta || (count > 0 && !out)) return ROPE_E_NULL;
    if ((rc = rope_check_vector(q, 2 * n)) != ROPE_OK || (rc = rope_check_vector(k, 2 * n)))
        return rc;
    double top;
    if ((rc = rope_check_freqs(theta, n, &top)) != ROPE_OK) return rc;
    if (!isfinite(gap) || !isfinite(start0) || !isfinite(step)) return ROPE_E_POSITION;
    if ((rc = rope_check_work(2 * n, count)) != ROPE_OK) return rc;
    if (count == 0) return ROPE_OK;
    double last = start0 + (count - 1) * step;
    if ((rc = rope_check_angle(start0, top)) || (rc = rope_check_angle(start0 + gap, top)) ||
        (rc = rope_check_angle(last, top)) || (rc = rope_check_angle(last + gap, top)))
        return rc;
    int other = layout == ROPE_LAYOUT_HALF ? ROPE_LAYOUT_INTERLEAVED : ROPE_LAYOUT_HALF;
    const int table[] = {layout, other, layout}, rotation[] = {layout, other, other};
    for (int c = 0; c < ROPE_MIX_CASES; c++) {
        for (int j = 0; j < count; j++) {
            double s = start0 + j * step;
            out[c * count + j] = mixed_score(q, k, n, theta, s + gap, s, table[c], rotation[c]);
        }
    }
    return rope_check_results(out, ROPE_MIX_CASES * count);
}
