/* ropescope lesson, the chapters on rotation: the cat pair, the proof step by
 * step, the clock of one pair and what a base change leaves undone.
 * Meanings in lesson.h, formulas in docs/LESSON.md. */
#include <math.h>
#include <stddef.h>

#include "core/rope.h"
#include "core/rope_internal.h"
#include "core/rope_math.h"
#include "lesson/lesson.h"

#define ROPE_DEG_PER_RAD 57.295779513082320876798154814105

/* x wrapped to (-pi, pi]: an angle between two arrows, not a count of turns. */
static double wrap_pi(double x)
{
    double r = fmod(x, ROPE_TWO_PI);
    if (r > ROPE_TWO_PI / 2.0) r -= ROPE_TWO_PI;
    if (r <= -ROPE_TWO_PI / 2.0) r += ROPE_TWO_PI;
    return r;
}

/* The checks rope_lesson_cat and rope_lesson_proof share, in argument order. */
static int check_pair(double q0, double q1, double k0, double k1, double m, double n, double theta,
                      const double *out)
{
    if (!isfinite(q0) || !isfinite(q1) || !isfinite(k0) || !isfinite(k1)) return ROPE_E_VALUE;
    if (!isfinite(theta)) return ROPE_E_POSITION;
    int rc = rope_check_angle(m, fabs(theta));
    if (rc == ROPE_OK) rc = rope_check_angle(n, fabs(theta));
    if (rc == ROPE_OK && out == NULL) rc = ROPE_E_NULL;
    return rc;
}

/* (x0, x1) rotated by the angle whose cosine and sine are c and s, and the four products
 * that make it (x0 c, x1 s, x0 s, x1 c): the cat's q_m and k_n with their working. */
static void rotate_terms(double x0, double x1, double c, double s, double *products,
                         double *rotated)
{
    products[0] = x0 * c;
    products[1] = x1 * s;
    products[2] = x0 * s;
    products[3] = x1 * c;
    rotated[0] = x0 * c - x1 * s;
    rotated[1] = x0 * s + x1 * c;
}

/* The angle from k to q is atan2(cross(k, q), k . q); rotating q by m theta
 * and k by n theta adds (m - n) theta to it, which is why the score depends
 * on the gap alone. */
int rope_lesson_cat(double q0, double q1, double k0, double k1, double m, double n, double theta,
                    double *out)
{
    int rc = check_pair(q0, q1, k0, k1, m, n, theta, out);
    if (rc != ROPE_OK) return rc;
    double sm, cm, sn, cn;
    rope_sincos(m * theta, &sm, &cm);
    rope_sincos(n * theta, &sn, &cn);
    out[ROPE_CAT_COS_M] = cm;
    out[ROPE_CAT_SIN_M] = sm;
    out[ROPE_CAT_COS_N] = cn;
    out[ROPE_CAT_SIN_N] = sn;
    rotate_terms(q0, q1, cm, sm, out + ROPE_CAT_Q0_COS_M, out + ROPE_CAT_QM0);
    rotate_terms(k0, k1, cn, sn, out + ROPE_CAT_K0_COS_N, out + ROPE_CAT_KN0);
    double qm0 = out[ROPE_CAT_QM0], qm1 = out[ROPE_CAT_QM1];
    double kn0 = out[ROPE_CAT_KN0], kn1 = out[ROPE_CAT_KN1];
    out[ROPE_CAT_ANGLE_M] = m * theta;
    out[ROPE_CAT_ANGLE_N] = n * theta;
    out[ROPE_CAT_ANGLE_GAP] = (m - n) * theta;
    double start = atan2(k0 * q1 - k1 * q0, k0 * q0 + k1 * q1);
    double after = atan2(kn0 * qm1 - kn1 * qm0, kn0 * qm0 + kn1 * qm1);
    out[ROPE_CAT_START] = start;
    out[ROPE_CAT_AFTER] = after;
    out[ROPE_CAT_PREDICTED] = wrap_pi(start + (m - n) * theta);
    out[ROPE_CAT_START_DEG] = start * ROPE_DEG_PER_RAD;
    out[ROPE_CAT_AFTER_DEG] = after * ROPE_DEG_PER_RAD;
    out[ROPE_CAT_X0] = qm0 * kn0;
    out[ROPE_CAT_X1] = qm1 * kn1;
    out[ROPE_CAT_DIRECT] = qm0 * kn0 + qm1 * kn1;
    /* The additive mark of a width-2 stick at this frequency: (sin, cos). */
    out[ROPE_CAT_ADDED] = (q0 + sm) * (k0 + sn) + (q1 + cm) * (k1 + cn);
    out[ROPE_CAT_LEN_Q] = sqrt(q0 * q0 + q1 * q1);
    out[ROPE_CAT_LEN_QM] = sqrt(qm0 * qm0 + qm1 * qm1);
    return rope_check_results(out, ROPE_CAT_LEN);
}

/* The products of q and k that each step multiplies: q0k0, q0k1, q1k0, q1k1. */
static void proof_sums(const double *p, const double *w, double *out)
{
    *out = p[0] * w[0] + p[1] * w[1] + p[2] * w[2] + p[3] * w[3];
}

int rope_lesson_proof(double q0, double q1, double k0, double k1, double m, double n, double theta,
                      double *out)
{
    int rc = check_pair(q0, q1, k0, k1, m, n, theta, out);
    if (rc != ROPE_OK) return rc;
    double sm, cm, sn, cn, sg, cg;
    rope_sincos(m * theta, &sm, &cm);
    rope_sincos(n * theta, &sn, &cn);
    rope_sincos((m - n) * theta, &sg, &cg);
    double p[4] = {q0 * k0, q0 * k1, q1 * k0, q1 * k1};
    double *t = out + ROPE_PROOF_TERMS;
    t[0] = p[0] * (cm * cn);
    t[1] = -p[1] * (cm * sn);
    t[2] = -p[2] * (sm * cn);
    t[3] = p[3] * (sm * sn);
    t[4] = p[0] * (sm * sn);
    t[5] = p[1] * (sm * cn);
    t[6] = p[2] * (cm * sn);
    t[7] = p[3] * (cm * cn);
    double sum = 0.0;
    for (int j = 0; j < 8; j++) sum += t[j];
    out[ROPE_PROOF_EXPANDED] = sum;
    double *b = out + ROPE_PROOF_BRACKETS, *id = out + ROPE_PROOF_IDENTITIES;
    b[0] = cm * cn + sm * sn;
    b[1] = -cm * sn + sm * cn;
    b[2] = -sm * cn + cm * sn;
    b[3] = sm * sn + cm * cn;
    proof_sums(p, b, &out[ROPE_PROOF_COLLECTED]);
    id[0] = cg;
    id[1] = sg;
    id[2] = -sg;
    id[3] = cg;
    proof_sums(p, id, &out[ROPE_PROOF_IDENTIFIED]);
    out[ROPE_PROOF_DOT] = q0 * k0 + q1 * k1;
    out[ROPE_PROOF_CROSS] = q0 * k1 - q1 * k0;
    out[ROPE_PROOF_GAP] = (m - n) * theta;
    out[ROPE_PROOF_COS_TERM] = out[ROPE_PROOF_DOT] * cg;
    out[ROPE_PROOF_SIN_TERM] = out[ROPE_PROOF_CROSS] * sg;
    out[ROPE_PROOF_RESULT] = out[ROPE_PROOF_COS_TERM] + out[ROPE_PROOF_SIN_TERM];
    double qm0 = q0 * cm - q1 * sm, qm1 = q0 * sm + q1 * cm;
    double kn0 = k0 * cn - k1 * sn, kn1 = k0 * sn + k1 * cn;
    out[ROPE_PROOF_DIRECT] = qm0 * kn0 + qm1 * kn1;
    for (int j = 0; j < 4; j++) out[ROPE_PROOF_PRODUCTS + j] = p[j];
    return rope_check_results(out, ROPE_PROOF_LEN);
}

/* Dividing theta (not the position) is position interpolation: the hand
 * turns slower, so a far gap lands where training already went. */
int rope_lesson_clock_theta(double theta, double position, double divide, double *out)
{
    if (!isfinite(theta)) return ROPE_E_POSITION;
    int rc = rope_check_angle(position, fabs(theta));
    if (rc != ROPE_OK) return rc;
    if (!isfinite(divide) || divide <= 0.0) return ROPE_E_SCALING;
    if (out == NULL) return ROPE_E_NULL;
    double t = theta / divide, rad = position * t, deg = rad * ROPE_DEG_PER_RAD;
    double dial = fmod(deg, 360.0);
    if (dial < 0.0) dial += 360.0;
    if (dial >= 360.0) dial = 0.0;
    out[ROPE_CLOCK_THETA] = t;
    out[ROPE_CLOCK_RADIANS] = rad;
    out[ROPE_CLOCK_DEGREES] = deg;
    out[ROPE_CLOCK_DIAL] = dial;
    out[ROPE_CLOCK_TURNS] = rad / ROPE_TWO_PI;
    return rope_check_results(out, ROPE_CLOCK_LEN);
}

/* pair in [0, dim / 2), base valid: the pair's theta. */
static int pair_theta(int pair, int dim, double base, double *theta)
{
    int rc = rope_check_dim(dim);
    if (rc == ROPE_OK && (pair < 0 || pair >= dim / 2)) rc = ROPE_E_DIM;
    if (rc == ROPE_OK) rc = rope_check_base(base);
    if (rc == ROPE_OK) *theta = rope_theta(pair, dim, base);
    return rc;
}

int rope_lesson_clock(int pair, int dim, double base, double position, double divide, double *out)
{
    double theta = 0.0;
    int rc = pair_theta(pair, dim, base, &theta);
    return rc != ROPE_OK ? rc : rope_lesson_clock_theta(theta, position, divide, out);
}

int rope_lesson_rebase(int pair, int dim, double old_base, double new_base, double gap,
                       double train, double *out)
{
    double old_t = 0.0, new_t = 0.0, c[ROPE_CLOCK_LEN];
    int rc = pair_theta(pair, dim, old_base, &old_t);
    if (rc == ROPE_OK) rc = pair_theta(pair, dim, new_base, &new_t);
    if (rc == ROPE_OK) rc = rope_check_angle(gap, fmax(old_t, new_t));
    if (rc == ROPE_OK) rc = rope_check_angle(train, fmax(old_t, new_t));
    if (rc != ROPE_OK) return rc;
    if (out == NULL) return ROPE_E_NULL;
    out[ROPE_REBASE_THETA_OLD] = old_t;
    out[ROPE_REBASE_THETA_NEW] = new_t;
    out[ROPE_REBASE_RATIO] = new_t > 0.0 ? old_t / new_t : HUGE_VAL;
    const double thetas[2] = {old_t, new_t};
    for (int s = 0; s < 2; s++) {
        rc = rope_lesson_clock_theta(thetas[s], gap, 1.0, c);
        if (rc != ROPE_OK) return rc;
        out[ROPE_REBASE_GAP_OLD + s] = c[ROPE_CLOCK_DIAL];
        rc = rope_lesson_clock_theta(thetas[s], train, 1.0, c);
        if (rc != ROPE_OK) return rc;
        out[ROPE_REBASE_TRAIN_OLD + s] = c[ROPE_CLOCK_DEGREES];
    }
    return rope_check_results(out, ROPE_REBASE_LEN);
}

/* Whole gaps g in [0, last] whose angle g theta is one training met: every
 * angle once training swept a whole turn, else at most the wedge. An angle
 * past the wedge stays unseen when whole turns bring it back over the wedge's
 * dial (rope_scaling_range's rule too): the model never met that angle. */
static double gaps_inside(double theta, double wedge, double last)
{
    if (wedge >= ROPE_TWO_PI) return last + 1.0;
    return fmin(last, floor(wedge / theta)) + 1.0;
}

/* A base change moves where a gap's angle lands; which gaps the weights were
 * trained on is a fact of the training data, so SEEN reads no base. */
int rope_lesson_weights(int pair, int dim, double old_base, double new_base, double train,
                        double widest, double *out)
{
    double old_t = 0.0, new_t = 0.0;
    int rc = pair_theta(pair, dim, old_base, &old_t);
    if (rc == ROPE_OK) rc = pair_theta(pair, dim, new_base, &new_t);
    if (rc == ROPE_OK) rc = rope_check_angle(train, fmax(old_t, new_t));
    if (rc == ROPE_OK) rc = rope_check_angle(widest, fmax(old_t, new_t));
    if (rc == ROPE_OK && (train < 0.0 || widest < 0.0)) rc = ROPE_E_POSITION;
    if (rc != ROPE_OK) return rc;
    double last = floor(widest);
    if (out == NULL) return ROPE_E_NULL;
    double wedge = train * old_t, slack = wedge * (1.0 + 1e-9);
    double c[ROPE_CLOCK_LEN];
    out[ROPE_WEIGHTS_THETA_OLD] = old_t;
    out[ROPE_WEIGHTS_THETA_NEW] = new_t;
    out[ROPE_WEIGHTS_WEDGE] = wedge * ROPE_DEG_PER_RAD;
    out[ROPE_WEIGHTS_REACH] = wedge / new_t;
    out[ROPE_WEIGHTS_TURN_OLD] = ROPE_TWO_PI / old_t;
    out[ROPE_WEIGHTS_TURN_NEW] = ROPE_TWO_PI / new_t;
    const double thetas[2] = {old_t, new_t};
    for (int s = 0; s < 2; s++) {
        rc = rope_lesson_clock_theta(thetas[s], last, 1.0, c);
        if (rc != ROPE_OK) return rc;
        out[ROPE_WEIGHTS_FAR_OLD + s] = c[ROPE_CLOCK_DIAL];
    }
    double gaps = last + 1.0;
    out[ROPE_WEIGHTS_GAPS] = gaps;
    out[ROPE_WEIGHTS_INSIDE_OLD] = gaps_inside(old_t, slack, last);
    out[ROPE_WEIGHTS_INSIDE_NEW] = gaps_inside(new_t, slack, last);
    out[ROPE_WEIGHTS_SEEN] = fmin(last, floor(train)) + 1.0;
    out[ROPE_WEIGHTS_SHARE_OLD] = out[ROPE_WEIGHTS_INSIDE_OLD] / gaps;
    out[ROPE_WEIGHTS_SHARE_NEW] = out[ROPE_WEIGHTS_INSIDE_NEW] / gaps;
    out[ROPE_WEIGHTS_SHARE_SEEN] = out[ROPE_WEIGHTS_SEEN] / gaps;
    return rope_check_results(out, ROPE_WEIGHTS_LEN);
}
