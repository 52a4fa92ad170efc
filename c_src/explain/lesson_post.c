/* ropescope lesson, "the post, checked": every number the blog post prints,
 * as data (what it prints, to how many decimals, and which lesson function
 * with which inputs recomputes it), and the recomputed table. The rows and
 * the post's slips are listed in docs/LESSON.md. */
#include <math.h>
#include <stddef.h>

#include "lesson.h"
#include "rope.h"
#include "rope_internal.h"

/* Which function recomputes a row; p[] are its inputs, slot the output read. */
enum source {
    SRC_SLOT,       /* rope_lesson_slot(nolan, p0)[slot] */
    SRC_DIVIDE,     /* rope_lesson_normalized(p0, p1) */
    SRC_CLOCK,      /* rope_lesson_clock(pair p0, dim p1, base p2, position p3, 1)[slot] */
    SRC_PERIOD,     /* 1 / theta of rope_lesson_clock(p0, p1, p2, ...) */
    SRC_SIN_DEG,    /* rope_lesson_identity(p0 degrees, 0): sin */
    SRC_MARK,       /* rope_lesson_marks(position p0, width p1, base p2)[slot] */
    SRC_MARKED,     /* rope_lesson_marked(nolan, slot p0, base p2)[slot] */
    SRC_IDENTITY,   /* rope_lesson_identity(p0, p1)[slot] */
    SRC_CAT,        /* rope_lesson_cat(cat, cat, m p0, n p1, theta p2)[slot] */
    SRC_PROOF,      /* rope_lesson_proof(cat, cat, m p0, n p1, theta p2)[slot] */
    SRC_CLOCK_THETA, /* rope_lesson_clock_theta(p0, p1, divide p2)[slot] */
    SRC_REBASE      /* rope_lesson_rebase(255, 512, p0, p1, gap p2, train p3)[slot] */
};

/* The chapters in the lesson's order; a row names its chapter by index. */
enum chapter { CH_SLOT = 1, CH_NORMALIZED, CH_MARKS, CH_EXTRAPOLATE, CH_IDENTITY, CH_CAT,
               CH_PROOF, CH_PLANES, CH_CLOCK, CH_WEIGHTS };
static const char *const chapters[] = { "order", "slot", "normalized", "marks", "extrapolate",
                                        "identity", "cat", "proof", "planes", "clock",
                                        "weights" };

struct row {
    const char *id;
    const char *label;
    int chapter;
    double printed;
    int decimals;
    enum source src;
    int slot;
    double p[4];
};

#define BASE_OLD 10000.0
#define BASE_NEW 500000.0
static const struct row rows[] = {
    { "slot.1.0", "nolan + slot 1, component 0", CH_SLOT, 3, 0, SRC_SLOT, 0, { 1 } },
    { "slot.1.1", "nolan + slot 1, component 1", CH_SLOT, 2, 0, SRC_SLOT, 1, { 1 } },
    { "slot.1.2", "nolan + slot 1, component 2", CH_SLOT, 2, 0, SRC_SLOT, 2, { 1 } },
    { "slot.1.3", "nolan + slot 1, component 3", CH_SLOT, 1, 0, SRC_SLOT, 3, { 1 } },
    { "slot.5.0", "nolan + slot 5, component 0", CH_SLOT, 7, 0, SRC_SLOT, 0, { 5 } },
    { "slot.5.1", "nolan + slot 5, component 1", CH_SLOT, 6, 0, SRC_SLOT, 1, { 5 } },
    { "slot.5.2", "nolan + slot 5, component 2", CH_SLOT, 6, 0, SRC_SLOT, 2, { 5 } },
    { "slot.5.3", "nolan + slot 5, component 3", CH_SLOT, 5, 0, SRC_SLOT, 3, { 5 } },
    { "norm.1of512", "slot 1 of 512", CH_NORMALIZED, 0.00195, 5, SRC_DIVIDE, 0, { 1, 512 } },
    { "norm.256of512", "slot 256 of 512", CH_NORMALIZED, 0.5, 3, SRC_DIVIDE, 0, { 256, 512 } },
    { "norm.512of512", "slot 512 of 512", CH_NORMALIZED, 1, 3, SRC_DIVIDE, 0, { 512, 512 } },
    { "norm.256of1024", "slot 256 of 1024", CH_NORMALIZED, 0.25, 2, SRC_DIVIDE, 0, { 256, 1024 } },
    { "marks.sin30deg", "sin 30 degrees", CH_MARKS, 0.5, 1, SRC_SIN_DEG, 0, { 30 } },
    { "marks.sin150deg", "sin 150 degrees", CH_MARKS, 0.5, 1, SRC_SIN_DEG, 0, { 150 } },
    { "marks.freq0", "width 4: frequency of pair 0", CH_MARKS, 1.0, 1, SRC_CLOCK, ROPE_CLOCK_THETA, { 0, 4, BASE_OLD, 1 } },
    { "marks.freq1", "width 4: frequency of pair 1", CH_MARKS, 0.01, 2, SRC_CLOCK, ROPE_CLOCK_THETA, { 1, 4, BASE_OLD, 1 } },
    { "marks.sqrtbase", "10000 to the power 0.5", CH_MARKS, 100, 0, SRC_PERIOD, 0, { 1, 4, BASE_OLD } },
    { "marks.p3.0", "mark of position 3, dim 0: sin 3", CH_MARKS, 0.141, 3, SRC_MARK, 0, { 3, 4, BASE_OLD } },
    { "marks.p3.1", "mark of position 3, dim 1: cos 3", CH_MARKS, -0.990, 3, SRC_MARK, 1, { 3, 4, BASE_OLD } },
    { "marks.p3.2", "mark of position 3, dim 2: sin 0.03", CH_MARKS, 0.030, 3, SRC_MARK, 2, { 3, 4, BASE_OLD } },
    { "marks.p3.3", "mark of position 3, dim 3: cos 0.03", CH_MARKS, 0.9996, 4, SRC_MARK, 3, { 3, 4, BASE_OLD } },
    { "marks.p4.0", "mark of position 4, dim 0: sin 4", CH_MARKS, -0.757, 3, SRC_MARK, 0, { 4, 4, BASE_OLD } },
    { "marks.p4.1", "mark of position 4, dim 1: cos 4", CH_MARKS, -0.654, 3, SRC_MARK, 1, { 4, 4, BASE_OLD } },
    { "marks.p4.2", "mark of position 4, dim 2: sin 0.04", CH_MARKS, 0.040, 3, SRC_MARK, 2, { 4, 4, BASE_OLD } },
    { "marks.p4.3", "mark of position 4, dim 3: cos 0.04", CH_MARKS, 0.999, 3, SRC_MARK, 3, { 4, 4, BASE_OLD } },
    { "marks.code.p3.0", "code comment: sin 3", CH_MARKS, 0.1411, 4, SRC_MARK, 0, { 3, 4, BASE_OLD } },
    { "marks.code.p3.1", "code comment: cos 3", CH_MARKS, -0.9900, 4, SRC_MARK, 1, { 3, 4, BASE_OLD } },
    { "marks.code.p3.2", "code comment: sin 0.03", CH_MARKS, 0.0300, 4, SRC_MARK, 2, { 3, 4, BASE_OLD } },
    { "marks.code.p4.0", "code comment: sin 4", CH_MARKS, -0.7568, 4, SRC_MARK, 0, { 4, 4, BASE_OLD } },
    { "marks.code.p4.1", "code comment: cos 4", CH_MARKS, -0.6536, 4, SRC_MARK, 1, { 4, 4, BASE_OLD } },
    { "marks.code.p4.2", "code comment: sin 0.04", CH_MARKS, 0.0400, 4, SRC_MARK, 2, { 4, 4, BASE_OLD } },
    { "marks.code.p4.3", "code comment: cos 0.04", CH_MARKS, 0.9992, 4, SRC_MARK, 3, { 4, 4, BASE_OLD } },
    { "marks.nolan3.0", "nolan at slot 3, component 0", CH_MARKS, 2.141, 3, SRC_MARKED, 0, { 3, 0, BASE_OLD } },
    { "marks.nolan3.1", "nolan at slot 3, component 1", CH_MARKS, 0.010, 3, SRC_MARKED, 1, { 3, 0, BASE_OLD } },
    { "marks.nolan3.2", "nolan at slot 3, component 2", CH_MARKS, 1.030, 3, SRC_MARKED, 2, { 3, 0, BASE_OLD } },
    { "marks.nolan3.3", "nolan at slot 3, component 3", CH_MARKS, 0.9996, 4, SRC_MARKED, 3, { 3, 0, BASE_OLD } },
    { "extra.sin512", "sin 512: pair 0 at position 512", CH_EXTRAPOLATE, -0.398, 3, SRC_MARK, 0, { 512, 4, BASE_OLD } },
    { "extra.sin513", "sin 513: pair 0 at position 513", CH_EXTRAPOLATE, 0.257, 3, SRC_MARK, 0, { 513, 4, BASE_OLD } },
    { "extra.sin100", "sin 100: pair 1 at position 10000", CH_EXTRAPOLATE, -0.506, 3, SRC_MARK, 2, { 10000, 4, BASE_OLD } },
    { "id.sin47", "sin 47", CH_IDENTITY, 0.124, 3, SRC_IDENTITY, ROPE_ID_SIN_A, { 47, 4 } },
    { "id.cos47", "cos 47", CH_IDENTITY, -0.992, 3, SRC_IDENTITY, ROPE_ID_COS_A, { 47, 4 } },
    { "id.turn47", "47 reduced by whole turns", CH_IDENTITY, 3.018, 3, SRC_IDENTITY, ROPE_ID_A_TURN, { 47, 4 } },
    { "id.quadrant47", "quadrant 47 lands in", CH_IDENTITY, 2, 0, SRC_IDENTITY, ROPE_ID_QUADRANT, { 47, 4 } },
    { "id.cos4", "cos 4", CH_IDENTITY, -0.654, 3, SRC_IDENTITY, ROPE_ID_COS_B, { 47, 4 } },
    { "id.sin4", "sin 4", CH_IDENTITY, -0.757, 3, SRC_IDENTITY, ROPE_ID_SIN_B, { 47, 4 } },
    { "id.sa_cb", "sin 47 cos 4", CH_IDENTITY, -0.081, 3, SRC_IDENTITY, ROPE_ID_SA_CB, { 47, 4 } },
    { "id.ca_sb", "cos 47 sin 4", CH_IDENTITY, 0.751, 3, SRC_IDENTITY, ROPE_ID_CA_SB, { 47, 4 } },
    { "id.sum", "sin 51 by the identity", CH_IDENTITY, 0.670, 3, SRC_IDENTITY, ROPE_ID_SIN_SUM, { 47, 4 } },
    { "id.direct", "sin 51 directly", CH_IDENTITY, 0.670, 3, SRC_IDENTITY, ROPE_ID_SIN_DIRECT, { 47, 4 } },
    { "cat.angle3", "3 x 0.1 radians", CH_CAT, 0.3, 1, SRC_CAT, ROPE_CAT_ANGLE_M, { 3, 7, 0.1 } },
    { "cat.cos03", "cos 0.3", CH_CAT, 0.9553, 4, SRC_CAT, ROPE_CAT_COS_M, { 3, 7, 0.1 } },
    { "cat.sin03", "sin 0.3", CH_CAT, 0.2955, 4, SRC_CAT, ROPE_CAT_SIN_M, { 3, 7, 0.1 } },
    { "cat.q3.xa", "0.9 cos 0.3", CH_CAT, 0.860, 3, SRC_CAT, ROPE_CAT_Q0_COS_M, { 3, 7, 0.1 } },
    { "cat.q3.xb", "0.4 sin 0.3", CH_CAT, 0.118, 3, SRC_CAT, ROPE_CAT_Q1_SIN_M, { 3, 7, 0.1 } },
    { "cat.q3.x", "cat at 3, x", CH_CAT, 0.742, 3, SRC_CAT, ROPE_CAT_QM0, { 3, 7, 0.1 } },
    { "cat.q3.ya", "0.9 sin 0.3", CH_CAT, 0.266, 3, SRC_CAT, ROPE_CAT_Q0_SIN_M, { 3, 7, 0.1 } },
    { "cat.q3.yb", "0.4 cos 0.3", CH_CAT, 0.382, 3, SRC_CAT, ROPE_CAT_Q1_COS_M, { 3, 7, 0.1 } },
    { "cat.q3.y", "cat at 3, y", CH_CAT, 0.648, 3, SRC_CAT, ROPE_CAT_QM1, { 3, 7, 0.1 } },
    { "cat.angle7", "7 x 0.1 radians", CH_CAT, 0.7, 1, SRC_CAT, ROPE_CAT_ANGLE_N, { 3, 7, 0.1 } },
    { "cat.cos07", "cos 0.7", CH_CAT, 0.7648, 4, SRC_CAT, ROPE_CAT_COS_N, { 3, 7, 0.1 } },
    { "cat.sin07", "sin 0.7", CH_CAT, 0.6442, 4, SRC_CAT, ROPE_CAT_SIN_N, { 3, 7, 0.1 } },
    { "cat.k7.xa", "0.9 cos 0.7", CH_CAT, 0.688, 3, SRC_CAT, ROPE_CAT_K0_COS_N, { 3, 7, 0.1 } },
    { "cat.k7.xb", "0.4 sin 0.7", CH_CAT, 0.258, 3, SRC_CAT, ROPE_CAT_K1_SIN_N, { 3, 7, 0.1 } },
    { "cat.k7.x", "cat at 7, x", CH_CAT, 0.430, 3, SRC_CAT, ROPE_CAT_KN0, { 3, 7, 0.1 } },
    { "cat.k7.ya", "0.9 sin 0.7", CH_CAT, 0.580, 3, SRC_CAT, ROPE_CAT_K0_SIN_N, { 3, 7, 0.1 } },
    { "cat.k7.yb", "0.4 cos 0.7", CH_CAT, 0.306, 3, SRC_CAT, ROPE_CAT_K1_COS_N, { 3, 7, 0.1 } },
    { "cat.k7.y", "cat at 7, y", CH_CAT, 0.886, 3, SRC_CAT, ROPE_CAT_KN1, { 3, 7, 0.1 } },
    { "cat.length", "length of cat, kept by rotation", CH_CAT, 0.985, 3, SRC_CAT, ROPE_CAT_LEN_QM, { 3, 7, 0.1 } },
    { "cat.code.q3.x", "code: cat at 3, x", CH_CAT, 0.7416, 4, SRC_CAT, ROPE_CAT_QM0, { 3, 7, 0.1 } },
    { "cat.code.q3.y", "code: cat at 3, y", CH_CAT, 0.6481, 4, SRC_CAT, ROPE_CAT_QM1, { 3, 7, 0.1 } },
    { "cat.code.k7.x", "code: cat at 7, x", CH_CAT, 0.4307, 4, SRC_CAT, ROPE_CAT_KN0, { 3, 7, 0.1 } },
    { "cat.code.k7.y", "code: cat at 7, y", CH_CAT, 0.8857, 4, SRC_CAT, ROPE_CAT_KN1, { 3, 7, 0.1 } },
    { "proof.x0", "0.742 x 0.430, unrounded", CH_PROOF, 0.319, 3, SRC_CAT, ROPE_CAT_X0, { 3, 7, 0.1 } },
    { "proof.x1", "0.648 x 0.886, unrounded", CH_PROOF, 0.574, 3, SRC_CAT, ROPE_CAT_X1, { 3, 7, 0.1 } },
    { "proof.direct", "score 3 vs 7, rotated vectors", CH_PROOF, 0.893, 3, SRC_PROOF, ROPE_PROOF_DIRECT, { 3, 7, 0.1 } },
    { "proof.q0k0", "0.9 x 0.9", CH_PROOF, 0.81, 2, SRC_PROOF, ROPE_PROOF_PRODUCTS, { 3, 7, 0.1 } },
    { "proof.q1k1", "0.4 x 0.4", CH_PROOF, 0.16, 2, SRC_PROOF, ROPE_PROOF_PRODUCTS + 3, { 3, 7, 0.1 } },
    { "proof.dot", "q . k", CH_PROOF, 0.97, 2, SRC_PROOF, ROPE_PROOF_DOT, { 3, 7, 0.1 } },
    { "proof.q0k1", "0.9 x 0.4", CH_PROOF, 0.36, 2, SRC_PROOF, ROPE_PROOF_PRODUCTS + 1, { 3, 7, 0.1 } },
    { "proof.q1k0", "0.4 x 0.9", CH_PROOF, 0.36, 2, SRC_PROOF, ROPE_PROOF_PRODUCTS + 2, { 3, 7, 0.1 } },
    { "proof.cross", "q x k", CH_PROOF, 0.00, 2, SRC_PROOF, ROPE_PROOF_CROSS, { 3, 7, 0.1 } },
    { "proof.gap", "(3 - 7) x 0.1 radians", CH_PROOF, -0.4, 1, SRC_CAT, ROPE_CAT_ANGLE_GAP, { 3, 7, 0.1 } },
    { "proof.cosg", "cos -0.4", CH_PROOF, 0.921, 3, SRC_PROOF, ROPE_PROOF_IDENTITIES, { 3, 7, 0.1 } },
    { "proof.sing", "sin -0.4", CH_PROOF, -0.389, 3, SRC_PROOF, ROPE_PROOF_IDENTITIES + 1, { 3, 7, 0.1 } },
    { "proof.formula", "score 3 vs 7 by the formula", CH_PROOF, 0.894, 3, SRC_PROOF, ROPE_PROOF_RESULT, { 3, 7, 0.1 } },
    { "proof.code.direct", "code: direct score", CH_PROOF, 0.8934, 4, SRC_PROOF, ROPE_PROOF_DIRECT, { 3, 7, 0.1 } },
    { "proof.code.cosg", "code: cos -0.4", CH_PROOF, 0.9211, 4, SRC_PROOF, ROPE_PROOF_IDENTITIES, { 3, 7, 0.1 } },
    { "proof.code.sing", "code: sin -0.4", CH_PROOF, -0.3894, 4, SRC_PROOF, ROPE_PROOF_IDENTITIES + 1, { 3, 7, 0.1 } },
    { "proof.code.formula", "code: formula score", CH_PROOF, 0.8934, 4, SRC_PROOF, ROPE_PROOF_RESULT, { 3, 7, 0.1 } },
    { "proof.code.cos1", "code: cos 1.0", CH_PROOF, 0.5403, 4, SRC_CAT, ROPE_CAT_COS_M, { 10, 14, 0.1 } },
    { "proof.code.sin1", "code: sin 1.0", CH_PROOF, 0.8415, 4, SRC_CAT, ROPE_CAT_SIN_M, { 10, 14, 0.1 } },
    { "proof.code.q10.x", "code: cat at 10, x", CH_PROOF, 0.1497, 4, SRC_CAT, ROPE_CAT_QM0, { 10, 14, 0.1 } },
    { "proof.code.q10.y", "code: cat at 10, y", CH_PROOF, 0.9734, 4, SRC_CAT, ROPE_CAT_QM1, { 10, 14, 0.1 } },
    { "proof.code.cos14", "code: cos 1.4", CH_PROOF, 0.1700, 4, SRC_CAT, ROPE_CAT_COS_N, { 10, 14, 0.1 } },
    { "proof.code.sin14", "code: sin 1.4", CH_PROOF, 0.9854, 4, SRC_CAT, ROPE_CAT_SIN_N, { 10, 14, 0.1 } },
    { "proof.code.k14.x", "code: cat at 14, x", CH_PROOF, -0.2412, 4, SRC_CAT, ROPE_CAT_KN0, { 10, 14, 0.1 } },
    { "proof.code.k14.y", "code: cat at 14, y", CH_PROOF, 0.9549, 4, SRC_CAT, ROPE_CAT_KN1, { 10, 14, 0.1 } },
    { "proof.code.x0", "code: x halves at 10 and 14", CH_PROOF, -0.0361, 4, SRC_CAT, ROPE_CAT_X0, { 10, 14, 0.1 } },
    { "proof.code.x1", "code: y halves at 10 and 14", CH_PROOF, 0.9295, 4, SRC_CAT, ROPE_CAT_X1, { 10, 14, 0.1 } },
    { "proof.code.shifted", "code: score 10 vs 14", CH_PROOF, 0.8934, 4, SRC_CAT, ROPE_CAT_DIRECT, { 10, 14, 0.1 } },
    { "planes.slow.angle", "slow pair at 3: 3 x 0.0001 radians", CH_PLANES, 0.0003, 4, SRC_CAT, ROPE_CAT_ANGLE_M, { 3, 0, 1e-4 } },
    { "planes.slow.cos", "cos 0.0003", CH_PLANES, 1.000, 3, SRC_CAT, ROPE_CAT_COS_M, { 3, 0, 1e-4 } },
    { "planes.slow.sin", "sin 0.0003", CH_PLANES, 0.000300, 6, SRC_CAT, ROPE_CAT_SIN_M, { 3, 0, 1e-4 } },
    { "planes.slow.xa", "0.9 cos 0.0003", CH_PLANES, 0.900, 3, SRC_CAT, ROPE_CAT_Q0_COS_M, { 3, 0, 1e-4 } },
    { "planes.slow.xb", "0.4 sin 0.0003", CH_PLANES, 0.000120, 6, SRC_CAT, ROPE_CAT_Q1_SIN_M, { 3, 0, 1e-4 } },
    { "planes.slow.x", "slow pair at 3, x", CH_PLANES, 0.8999, 4, SRC_CAT, ROPE_CAT_QM0, { 3, 0, 1e-4 } },
    { "planes.slow.ya", "0.9 sin 0.0003", CH_PLANES, 0.000270, 6, SRC_CAT, ROPE_CAT_Q0_SIN_M, { 3, 0, 1e-4 } },
    { "planes.slow.yb", "0.4 cos 0.0003", CH_PLANES, 0.4, 1, SRC_CAT, ROPE_CAT_Q1_COS_M, { 3, 0, 1e-4 } },
    { "planes.slow.y", "slow pair at 3, y", CH_PLANES, 0.4003, 4, SRC_CAT, ROPE_CAT_QM1, { 3, 0, 1e-4 } },
    { "planes.slow3000", "slow pair at 3000: radians", CH_PLANES, 0.3, 1, SRC_CAT, ROPE_CAT_ANGLE_M, { 3000, 0, 1e-4 } },
    { "clock.fast.rad", "fast pair over 8192: radians", CH_CLOCK, 819.2, 1, SRC_CLOCK_THETA, ROPE_CLOCK_RADIANS, { 0.1, 8192, 1 } },
    { "clock.fast.turns", "fast pair over 8192: turns", CH_CLOCK, 130, 0, SRC_CLOCK_THETA, ROPE_CLOCK_TURNS, { 0.1, 8192, 1 } },
    { "clock.train.rad", "slow pair over 8192: radians", CH_CLOCK, 0.8192, 4, SRC_CLOCK_THETA, ROPE_CLOCK_RADIANS, { 1e-4, 8192, 1 } },
    { "clock.train.deg", "slow pair over 8192: degrees", CH_CLOCK, 46.9, 1, SRC_CLOCK_THETA, ROPE_CLOCK_DEGREES, { 1e-4, 8192, 1 } },
    { "clock.train.deg0", "slow pair over 8192: whole degrees", CH_CLOCK, 47, 0, SRC_CLOCK_THETA, ROPE_CLOCK_DEGREES, { 1e-4, 8192, 1 } },
    { "clock.gap.rad", "slow pair at gap 50,000: radians", CH_CLOCK, 5.0, 1, SRC_CLOCK_THETA, ROPE_CLOCK_RADIANS, { 1e-4, 50000, 1 } },
    { "clock.gap.deg", "slow pair at gap 50,000: degrees", CH_CLOCK, 287, 0, SRC_CLOCK_THETA, ROPE_CLOCK_DEGREES, { 1e-4, 50000, 1 } },
    { "clock.div8.rad", "gap 50,000 slowed 8 times: radians", CH_CLOCK, 0.625, 3, SRC_CLOCK_THETA, ROPE_CLOCK_RADIANS, { 1e-4, 50000, 8 } },
    { "clock.div8.deg", "gap 50,000 slowed 8 times: degrees", CH_CLOCK, 35.8, 1, SRC_CLOCK_THETA, ROPE_CLOCK_DEGREES, { 1e-4, 50000, 8 } },
    { "clock.theta.old", "pair 255 of 512, base 10000", CH_CLOCK, 0.000104, 6, SRC_CLOCK, ROPE_CLOCK_THETA, { 255, 512, BASE_OLD, 1 } },
    { "clock.theta.new", "pair 255 of 512, base 500000", CH_CLOCK, 0.0000021, 7, SRC_CLOCK, ROPE_CLOCK_THETA, { 255, 512, BASE_NEW, 1 } },
    { "clock.ratio", "how much slower pair 255 turns", CH_CLOCK, 49, 0, SRC_REBASE, ROPE_REBASE_RATIO, { BASE_OLD, BASE_NEW, 50000, 8192 } },
    { "clock.new.rad", "gap 50,000, base 500000: radians", CH_CLOCK, 0.105, 3, SRC_CLOCK, ROPE_CLOCK_RADIANS, { 255, 512, BASE_NEW, 50000 } },
    { "clock.new.deg", "gap 50,000, base 500000: degrees", CH_CLOCK, 6, 0, SRC_CLOCK, ROPE_CLOCK_DEGREES, { 255, 512, BASE_NEW, 50000 } },
    { "clock.old.rad", "gap 50,000, base 10000: radians", CH_CLOCK, 5.2, 1, SRC_CLOCK, ROPE_CLOCK_RADIANS, { 255, 512, BASE_OLD, 50000 } },
    { "clock.old.deg", "gap 50,000, base 10000: degrees", CH_CLOCK, 298, 0, SRC_CLOCK, ROPE_CLOCK_DEGREES, { 255, 512, BASE_OLD, 50000 } },
    { "clock.trained.rad", "pair 255 over 8192: radians", CH_CLOCK, 0.85, 2, SRC_CLOCK, ROPE_CLOCK_RADIANS, { 255, 512, BASE_OLD, 8192 } },
    { "clock.trained.deg", "pair 255 over 8192: degrees", CH_CLOCK, 49, 0, SRC_CLOCK, ROPE_CLOCK_DEGREES, { 255, 512, BASE_OLD, 8192 } },
    { "weights.cheaper", "800 billion tokens over 10 billion", CH_WEIGHTS, 80, 0, SRC_DIVIDE, 0, { 800, 10 } },
};
#define ROW_COUNT ((int)(sizeof rows / sizeof rows[0]))

/* The post's running examples: the word "nolan" and the word "cat". */
static const double nolan[4] = { 2, 1, 1, 0 };
static const double cat[2] = { 0.9, 0.4 };

/* A row's value; room for the largest output any source writes. */
static int recompute(const struct row *r, double *value)
{
    double o[ROPE_CAT_LEN + ROPE_PROOF_LEN];
    const double *p = r->p;
    int rc = ROPE_OK, at = r->slot;
    switch (r->src) {
    case SRC_SLOT: rc = rope_lesson_slot(nolan, 4, p[0], o); break;
    case SRC_DIVIDE: rc = rope_lesson_normalized(p[0], p[1], o); break;
    case SRC_CLOCK: rc = rope_lesson_clock((int)p[0], (int)p[1], p[2], p[3], 1.0, o); break;
    case SRC_PERIOD:
        rc = rope_lesson_clock((int)p[0], (int)p[1], p[2], 1.0, 1.0, o);
        o[0] = 1.0 / o[ROPE_CLOCK_THETA];
        at = 0;
        break;
    case SRC_SIN_DEG:
        rc = rope_lesson_identity(p[0] * (ROPE_TWO_PI / 360.0), 0.0, o);
        at = ROPE_ID_SIN_A;
        break;
    case SRC_MARK: rc = rope_lesson_marks(&p[0], 1, (int)p[1], p[2], o); break;
    case SRC_MARKED: rc = rope_lesson_marked(nolan, 4, p[0], p[2], o); break;
    case SRC_IDENTITY: rc = rope_lesson_identity(p[0], p[1], o); break;
    case SRC_CAT: rc = rope_lesson_cat(cat[0], cat[1], cat[0], cat[1], p[0], p[1], p[2], o); break;
    case SRC_PROOF:
        rc = rope_lesson_proof(cat[0], cat[1], cat[0], cat[1], p[0], p[1], p[2], o);
        break;
    case SRC_CLOCK_THETA: rc = rope_lesson_clock_theta(p[0], p[1], p[2], o); break;
    case SRC_REBASE: rc = rope_lesson_rebase(255, 512, p[0], p[1], p[2], p[3], o); break;
    }
    if (rc == ROPE_OK) *value = o[at];
    return rc;
}

int rope_lesson_post_count(void)
{
    return ROW_COUNT;
}

/* A printed number matches when the true value rounds to it: within half a
 * unit of its last printed decimal (a hair more, so that an exact tie such as
 * 0.9 x 0.4 = 0.36 is not lost to binary rounding). */
int rope_lesson_post_row(int row, double *out)
{
    if (row < 0 || row >= ROW_COUNT) return ROPE_E_COUNT;
    if (out == NULL) return ROPE_E_NULL;
    const struct row *r = &rows[row];
    double value = 0.0;
    int rc = recompute(r, &value);
    if (rc != ROPE_OK) return rc;
    double half = 0.5;
    for (int d = 0; d < r->decimals; d++) half /= 10.0;
    out[ROPE_POST_PRINTED] = r->printed;
    out[ROPE_POST_DECIMALS] = r->decimals;
    out[ROPE_POST_VALUE] = value;
    out[ROPE_POST_MATCH] = fabs(value - r->printed) <= half * (1.0 + 1e-9) ? 1.0 : 0.0;
    out[ROPE_POST_CHAPTER] = r->chapter;
    return ROPE_OK;
}

int rope_lesson_post_table(double *out, int cap)
{
    if (cap < ROW_COUNT) return ROPE_E_SPACE;
    if (out == NULL) return ROPE_E_NULL;
    for (int j = 0; j < ROW_COUNT; j++) {
        int rc = rope_lesson_post_row(j, out + (size_t)j * ROPE_POST_FIELDS);
        if (rc != ROPE_OK) return rc;
    }
    return ROPE_OK;
}

const char *rope_lesson_post_id(int row)
{
    return (row >= 0 && row < ROW_COUNT) ? rows[row].id : NULL;
}

const char *rope_lesson_post_label(int row)
{
    return (row >= 0 && row < ROW_COUNT) ? rows[row].label : NULL;
}

const char *rope_lesson_chapter(int index)
{
    int n = (int)(sizeof chapters / sizeof chapters[0]);
    return (index >= 0 && index < n) ? chapters[index] : NULL;
}
