/* ropescope lesson, the chapters before rotation: order, slot, normalized,
 * marks, extrapolate and the sum identity. Meanings in lesson.h, formulas in
 * docs/LESSON.md. */
#include "lesson/lesson.h"

#include <math.h>
#include <stddef.h>

#include "core/rope.h"
#include "core/rope_internal.h"
#include "core/rope_math.h"

/* A word (a stick) must have at least one component to be scored or drowned. */
static int check_stick(const double *v, int n)
{
    if (n < 1) return ROPE_E_DIM;
    return rope_check_vector(v, n);
}

/* One scheme's block: word u at slot su scored against word v at slot sv. */
typedef int (*score_fn)(const double *, int, const double *, int, double, double, double, double *);

static int plain_score(const double *q, int nq, const double *k, int nk, double m, double n,
                       double base, double *out)
{
    (void)m;
    (void)n;
    (void)base;
    return rope_dot(q, nq, k, nk, out);
}

/* In "a b" a sits at s0 and b at s0 + 1; in "b a" the slots swap. The four
 * scores are indexed by word, not by slot, so equal blocks mean the order
 * cannot be seen. */
static int order_block(score_fn f, const double *a, const double *b, int n, double s0, double base,
                       double *out)
{
    const double *w[2] = {a, b};
    double slot_ab[2] = {s0, s0 + 1.0}, slot_ba[2] = {s0 + 1.0, s0};
    double diff = 0.0;
    for (int u = 0; u < 2; u++)
        for (int v = 0; v < 2; v++) {
            double *x = &out[2 * u + v], *y = &out[ROPE_ORDER_SWAPPED + 2 * u + v];
            int rc = f(w[u], n, w[v], n, slot_ab[u], slot_ab[v], base, x);
            if (rc == ROPE_OK) rc = f(w[u], n, w[v], n, slot_ba[u], slot_ba[v], base, y);
            if (rc != ROPE_OK) return rc;
            if (fabs(*x - *y) > diff) diff = fabs(*x - *y);
        }
    out[ROPE_ORDER_DIFF] = diff;
    return ROPE_OK;
}

int rope_lesson_order(const double *a, int na, const double *b, int nb, double s0, double base,
                      double *out)
{
    int rc = check_stick(a, na);
    if (rc == ROPE_OK) rc = check_stick(b, nb);
    if (rc == ROPE_OK && na != nb) rc = ROPE_E_LENGTH;
    if (rc == ROPE_OK) rc = rope_check_base(base);
    if (rc == ROPE_OK) rc = rope_check_rotating(s0, base);
    if (rc == ROPE_OK) rc = rope_check_rotating(s0 + 1.0, base);
    if (rc != ROPE_OK) return rc;
    if (out == NULL) return ROPE_E_NULL;
    score_fn schemes[3] = {plain_score, rope_add_score, rope_score};
    for (int s = 0; s < 3; s++) {
        rc = order_block(schemes[s], a, b, na, s0, base, out + s * ROPE_ORDER_BLOCK);
        if (rc != ROPE_OK) return rc;
    }
    return rope_check_results(out, ROPE_ORDER_LEN);
}

/* The added part is the same number in every component, so its length is
 * |slot| sqrt(n) and it points along (1, ..., 1) whatever the word. */
int rope_lesson_slot(const double *stick, int n, double slot, double *out)
{
    int rc = check_stick(stick, n);
    if (rc == ROPE_OK) rc = rope_check_angle(slot, 1.0);
    if (rc != ROPE_OK) return rc;
    if (out == NULL) return ROPE_E_NULL;
    double ss = 0.0, sp = 0.0, pp = 0.0, sum = 0.0;
    for (int j = 0; j < n; j++) {
        out[j] = stick[j] + slot;
        ss += stick[j] * stick[j];
        sp += stick[j] * out[j];
        pp += out[j] * out[j];
        sum += out[j];
    }
    double ns = sqrt(ss), np = sqrt(pp), added = fabs(slot) * sqrt((double)n);
    double *m = out + n;
    m[ROPE_SLOT_COS] = (ns > 0.0 && np > 0.0) ? sp / (ns * np) : 0.0;
    m[ROPE_SLOT_STICK_NORM] = ns;
    m[ROPE_SLOT_POS_NORM] = added;
    m[ROPE_SLOT_SHARE] = (ns + added > 0.0) ? added / (ns + added) : 0.0;
    m[ROPE_SLOT_COS_POS] = np > 0.0 ? sum / (sqrt((double)n) * np) : 0.0;
    return rope_check_results(out, ROPE_SLOT_LEN(n));
}

int rope_lesson_normalized(double slot, double length, double *out)
{
    if (!isfinite(slot) || !isfinite(length) || length <= 0.0) return ROPE_E_POSITION;
    if (out == NULL) return ROPE_E_NULL;
    *out = slot / length;
    return rope_check_results(out, 1);
}

int rope_lesson_marks(const double *positions, int count, int width, double base, double *out)
{
    int rc = rope_check_batch_args(width, positions, count, ROPE_AT_ROTATED, base);
    if (rc != ROPE_OK) return rc;
    if (rope_check_work(width, count) != ROPE_OK) return ROPE_E_WORK;
    if (width > 0 && count > 0 && out == NULL) return ROPE_E_NULL;
    for (int p = 0; p < count; p++) {
        /* Width 0 writes nothing, and out may be NULL: no offset into it. */
        double *row = width > 0 ? out + (size_t)p * (size_t)width : out;
        rc = rope_sin_pos(positions[p], width, base, row);
        if (rc != ROPE_OK) return rc;
    }
    return ROPE_OK;
}

int rope_lesson_marked(const double *stick, int n, double slot, double base, double *out)
{
    int rc = check_stick(stick, n);
    if (rc == ROPE_OK) rc = rope_check_base(base);
    if (rc == ROPE_OK) rc = rope_check_rotating(slot, base);
    if (rc != ROPE_OK) return rc;
    if (out == NULL) return ROPE_E_NULL;
    rc = rope_sin_pos(slot, n, base, out);
    if (rc != ROPE_OK) return rc;
    for (int j = 0; j < n; j++) out[j] += stick[j];
    return rope_check_results(out, n);
}

/* The range is taken over the integer positions a model of that training
 * length was shown; the value block doubles as the scratch row meanwhile. */
int rope_lesson_extrapolate(double pos, int width, int train, double base, double *out)
{
    int rc = rope_check_pairs_args(width, pos, ROPE_AT_ROTATED, base);
    if (rc != ROPE_OK) return rc;
    if (train < 1 || train > ROPE_MAX_COUNT) return ROPE_E_COUNT;
    if (rope_check_work(width, train) != ROPE_OK) return ROPE_E_WORK;
    if (width == 0) return ROPE_OK;
    if (out == NULL) return ROPE_E_NULL;
    double *value = out + ROPE_EXTRA_VALUE * width, *lo = out + ROPE_EXTRA_MIN * width;
    double *hi = out + ROPE_EXTRA_MAX * width, *outside = out + ROPE_EXTRA_OUTSIDE * width;
    for (int t = 0; t < train; t++) {
        rc = rope_sin_pos((double)t, width, base, value);
        if (rc != ROPE_OK) return rc;
        for (int j = 0; j < width; j++) {
            if (t == 0 || value[j] < lo[j]) lo[j] = value[j];
            if (t == 0 || value[j] > hi[j]) hi[j] = value[j];
        }
    }
    rc = rope_sin_pos(pos, width, base, value);
    if (rc != ROPE_OK) return rc;
    for (int j = 0; j < width; j++) outside[j] = (value[j] < lo[j] || value[j] > hi[j]) ? 1.0 : 0.0;
    return rope_check_results(out, ROPE_EXTRA_BLOCKS * width);
}

/* The quadrant is read from a reduced to one turn: the sign of cos a that
 * the post warns is easy to miss follows from it. */
int rope_lesson_identity(double a, double b, double *out)
{
    int rc = rope_check_angle(a, 1.0); /* a and b are angles themselves */
    if (rc == ROPE_OK) rc = rope_check_angle(b, 1.0);
    if (rc != ROPE_OK) return rc;
    if (out == NULL) return ROPE_E_NULL;
    double sa, ca, sb, cb, s, c;
    rope_sincos(a, &sa, &ca);
    rope_sincos(b, &sb, &cb);
    rope_sincos(a + b, &s, &c);
    double turn = fmod(a, ROPE_TWO_PI);
    if (turn < 0.0) turn += ROPE_TWO_PI;
    if (turn >= ROPE_TWO_PI) turn = 0.0;
    double quadrant = floor(turn / (ROPE_TWO_PI / 4.0)) + 1.0;
    out[ROPE_ID_SIN_A] = sa;
    out[ROPE_ID_COS_A] = ca;
    out[ROPE_ID_SIN_B] = sb;
    out[ROPE_ID_COS_B] = cb;
    out[ROPE_ID_A_TURN] = turn;
    out[ROPE_ID_QUADRANT] = quadrant > 4.0 ? 4.0 : quadrant;
    out[ROPE_ID_SA_CB] = sa * cb;
    out[ROPE_ID_CA_SB] = ca * sb;
    out[ROPE_ID_SIN_SUM] = sa * cb + ca * sb;
    out[ROPE_ID_SIN_DIRECT] = s;
    out[ROPE_ID_CA_CB] = ca * cb;
    out[ROPE_ID_SA_SB] = sa * sb;
    out[ROPE_ID_COS_SUM] = ca * cb - sa * sb;
    out[ROPE_ID_COS_DIRECT] = c;
    return rope_check_results(out, ROPE_ID_LEN);
}
