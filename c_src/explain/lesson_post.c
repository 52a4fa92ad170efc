/* ropescope lesson, "the post, checked": every number the blog post prints,
 * as data (what it prints, to how many decimals, and which lesson function
 * with which inputs recomputes it), and the recomputed table. The rows and
 * the post's slips are listed in docs/LESSON.md. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "lesson.h"
#include "rope.h"
#include "rope_internal.h"

/* Which function recomputes a row; p[] are its inputs, slot the output read. */
enum source {
    SRC_SLOT,        /* rope_lesson_slot(nolan, p0)[slot] */
    SRC_DIVIDE,      /* rope_lesson_normalized(p0, p1) */
    SRC_CLOCK,       /* rope_lesson_clock(pair p0, dim p1, base p2, position p3, 1)[slot] */
    SRC_PERIOD,      /* 1 / theta of rope_lesson_clock(p0, p1, p2, ...) */
    SRC_SIN_DEG,     /* rope_lesson_identity(p0 degrees, 0): sin */
    SRC_MARK,        /* rope_lesson_marks(position p0, width p1, base p2)[slot] */
    SRC_MARKED,      /* rope_lesson_marked(nolan, slot p0, base p2)[slot] */
    SRC_IDENTITY,    /* rope_lesson_identity(p0, p1)[slot] */
    SRC_CAT,         /* rope_lesson_cat(cat, cat, m p0, n p1, theta p2)[slot] */
    SRC_PROOF,       /* rope_lesson_proof(cat, cat, m p0, n p1, theta p2)[slot] */
    SRC_CLOCK_THETA, /* rope_lesson_clock_theta(p0, p1, divide p2)[slot] */
    SRC_REBASE       /* rope_lesson_rebase(255, 512, p0, p1, gap p2, train p3)[slot] */
};

/* The chapters in the lesson's order; a row names its chapter by index. */
enum chapter {
    CH_SLOT = 1,
    CH_NORMALIZED,
    CH_MARKS,
    CH_EXTRAPOLATE,
    CH_IDENTITY,
    CH_CAT,
    CH_PROOF,
    CH_PLANES,
    CH_CLOCK,
    CH_WEIGHTS
};
static const char *const chapters[] = {"order",       "slot",     "normalized", "marks",
                                       "extrapolate", "identity", "cat",        "proof",
                                       "planes",      "clock",    "weights"};

/* id, label and the number as the post prints it, in one string with NULs
 * between (its decimals are counted from the text); the chapter; which
 * function recomputes it, which output slot is read and with which inputs. */
struct row {
    const char *text;
    unsigned char chapter, src, slot, in;
};

#define BASE_OLD 10000.0
#define BASE_NEW 500000.0
/* The inputs rows recompute with (see enum source for their meaning). */
enum input {
    IN_SLOT_1,
    IN_SLOT_5,
    IN_1_OF_512,
    IN_256_OF_512,
    IN_512_OF_512,
    IN_256_OF_1024,
    IN_30_DEG,
    IN_150_DEG,
    IN_W4_PAIR0,
    IN_W4_PAIR1,
    IN_W4_PERIOD1,
    IN_MARK_3,
    IN_MARK_4,
    IN_NOLAN_3,
    IN_MARK_512,
    IN_MARK_513,
    IN_MARK_10000,
    IN_47_4,
    IN_CAT_3_7,
    IN_CAT_10_14,
    IN_SLOW_3,
    IN_SLOW_3000,
    IN_FAST_TRAIN,
    IN_SLOW_TRAIN,
    IN_SLOW_GAP,
    IN_SLOW_GAP_DIV8,
    IN_P255_OLD,
    IN_P255_NEW,
    IN_REBASE,
    IN_P255_NEW_GAP,
    IN_P255_OLD_GAP,
    IN_P255_OLD_TRAIN,
    IN_TOKENS,
};

static const double inputs[][4] = {
    [IN_SLOT_1] = {1},
    [IN_SLOT_5] = {5},
    [IN_1_OF_512] = {1, 512},
    [IN_256_OF_512] = {256, 512},
    [IN_512_OF_512] = {512, 512},
    [IN_256_OF_1024] = {256, 1024},
    [IN_30_DEG] = {30},
    [IN_150_DEG] = {150},
    [IN_W4_PAIR0] = {0, 4, BASE_OLD, 1},
    [IN_W4_PAIR1] = {1, 4, BASE_OLD, 1},
    [IN_W4_PERIOD1] = {1, 4, BASE_OLD},
    [IN_MARK_3] = {3, 4, BASE_OLD},
    [IN_MARK_4] = {4, 4, BASE_OLD},
    [IN_NOLAN_3] = {3, 0, BASE_OLD},
    [IN_MARK_512] = {512, 4, BASE_OLD},
    [IN_MARK_513] = {513, 4, BASE_OLD},
    [IN_MARK_10000] = {10000, 4, BASE_OLD},
    [IN_47_4] = {47, 4},
    [IN_CAT_3_7] = {3, 7, 0.1},
    [IN_CAT_10_14] = {10, 14, 0.1},
    [IN_SLOW_3] = {3, 0, 1e-4},
    [IN_SLOW_3000] = {3000, 0, 1e-4},
    [IN_FAST_TRAIN] = {0.1, 8192, 1},
    [IN_SLOW_TRAIN] = {1e-4, 8192, 1},
    [IN_SLOW_GAP] = {1e-4, 50000, 1},
    [IN_SLOW_GAP_DIV8] = {1e-4, 50000, 8},
    [IN_P255_OLD] = {255, 512, BASE_OLD, 1},
    [IN_P255_NEW] = {255, 512, BASE_NEW, 1},
    [IN_REBASE] = {BASE_OLD, BASE_NEW, 50000, 8192},
    [IN_P255_NEW_GAP] = {255, 512, BASE_NEW, 50000},
    [IN_P255_OLD_GAP] = {255, 512, BASE_OLD, 50000},
    [IN_P255_OLD_TRAIN] = {255, 512, BASE_OLD, 8192},
    [IN_TOKENS] = {800, 10},
};

static const struct row rows[] = {
    {"slot.1.0\0"
     "nolan + slot 1, component 0\0"
     "3",
     CH_SLOT, SRC_SLOT, 0, IN_SLOT_1},
    {"slot.1.1\0"
     "nolan + slot 1, component 1\0"
     "2",
     CH_SLOT, SRC_SLOT, 1, IN_SLOT_1},
    {"slot.1.2\0"
     "nolan + slot 1, component 2\0"
     "2",
     CH_SLOT, SRC_SLOT, 2, IN_SLOT_1},
    {"slot.1.3\0"
     "nolan + slot 1, component 3\0"
     "1",
     CH_SLOT, SRC_SLOT, 3, IN_SLOT_1},
    {"slot.5.0\0"
     "nolan + slot 5, component 0\0"
     "7",
     CH_SLOT, SRC_SLOT, 0, IN_SLOT_5},
    {"slot.5.1\0"
     "nolan + slot 5, component 1\0"
     "6",
     CH_SLOT, SRC_SLOT, 1, IN_SLOT_5},
    {"slot.5.2\0"
     "nolan + slot 5, component 2\0"
     "6",
     CH_SLOT, SRC_SLOT, 2, IN_SLOT_5},
    {"slot.5.3\0"
     "nolan + slot 5, component 3\0"
     "5",
     CH_SLOT, SRC_SLOT, 3, IN_SLOT_5},
    {"norm.1of512\0"
     "slot 1 of 512\0"
     "0.00195",
     CH_NORMALIZED, SRC_DIVIDE, 0, IN_1_OF_512},
    {"norm.256of512\0"
     "slot 256 of 512\0"
     "0.500",
     CH_NORMALIZED, SRC_DIVIDE, 0, IN_256_OF_512},
    {"norm.512of512\0"
     "slot 512 of 512\0"
     "1.000",
     CH_NORMALIZED, SRC_DIVIDE, 0, IN_512_OF_512},
    {"norm.256of1024\0"
     "slot 256 of 1024\0"
     "0.25",
     CH_NORMALIZED, SRC_DIVIDE, 0, IN_256_OF_1024},
    {"marks.sin30deg\0"
     "sin 30 degrees\0"
     "0.5",
     CH_MARKS, SRC_SIN_DEG, 0, IN_30_DEG},
    {"marks.sin150deg\0"
     "sin 150 degrees\0"
     "0.5",
     CH_MARKS, SRC_SIN_DEG, 0, IN_150_DEG},
    {"marks.freq0\0"
     "width 4: frequency of pair 0\0"
     "1.0",
     CH_MARKS, SRC_CLOCK, ROPE_CLOCK_THETA, IN_W4_PAIR0},
    {"marks.freq1\0"
     "width 4: frequency of pair 1\0"
     "0.01",
     CH_MARKS, SRC_CLOCK, ROPE_CLOCK_THETA, IN_W4_PAIR1},
    {"marks.sqrtbase\0"
     "10000 to the power 0.5\0"
     "100",
     CH_MARKS, SRC_PERIOD, 0, IN_W4_PERIOD1},
    {"marks.p3.0\0"
     "mark of position 3, dim 0: sin 3\0"
     "0.141",
     CH_MARKS, SRC_MARK, 0, IN_MARK_3},
    {"marks.p3.1\0"
     "mark of position 3, dim 1: cos 3\0"
     "-0.990",
     CH_MARKS, SRC_MARK, 1, IN_MARK_3},
    {"marks.p3.2\0"
     "mark of position 3, dim 2: sin 0.03\0"
     "0.030",
     CH_MARKS, SRC_MARK, 2, IN_MARK_3},
    {"marks.p3.3\0"
     "mark of position 3, dim 3: cos 0.03\0"
     "0.9996",
     CH_MARKS, SRC_MARK, 3, IN_MARK_3},
    {"marks.p4.0\0"
     "mark of position 4, dim 0: sin 4\0"
     "-0.757",
     CH_MARKS, SRC_MARK, 0, IN_MARK_4},
    {"marks.p4.1\0"
     "mark of position 4, dim 1: cos 4\0"
     "-0.654",
     CH_MARKS, SRC_MARK, 1, IN_MARK_4},
    {"marks.p4.2\0"
     "mark of position 4, dim 2: sin 0.04\0"
     "0.040",
     CH_MARKS, SRC_MARK, 2, IN_MARK_4},
    {"marks.p4.3\0"
     "mark of position 4, dim 3: cos 0.04\0"
     "0.999",
     CH_MARKS, SRC_MARK, 3, IN_MARK_4},
    {"marks.code.p3.0\0"
     "code comment: sin 3\0"
     "0.1411",
     CH_MARKS, SRC_MARK, 0, IN_MARK_3},
    {"marks.code.p3.1\0"
     "code comment: cos 3\0"
     "-0.9900",
     CH_MARKS, SRC_MARK, 1, IN_MARK_3},
    {"marks.code.p3.2\0"
     "code comment: sin 0.03\0"
     "0.0300",
     CH_MARKS, SRC_MARK, 2, IN_MARK_3},
    {"marks.code.p4.0\0"
     "code comment: sin 4\0"
     "-0.7568",
     CH_MARKS, SRC_MARK, 0, IN_MARK_4},
    {"marks.code.p4.1\0"
     "code comment: cos 4\0"
     "-0.6536",
     CH_MARKS, SRC_MARK, 1, IN_MARK_4},
    {"marks.code.p4.2\0"
     "code comment: sin 0.04\0"
     "0.0400",
     CH_MARKS, SRC_MARK, 2, IN_MARK_4},
    {"marks.code.p4.3\0"
     "code comment: cos 0.04\0"
     "0.9992",
     CH_MARKS, SRC_MARK, 3, IN_MARK_4},
    {"marks.nolan3.0\0"
     "nolan at slot 3, component 0\0"
     "2.141",
     CH_MARKS, SRC_MARKED, 0, IN_NOLAN_3},
    {"marks.nolan3.1\0"
     "nolan at slot 3, component 1\0"
     "0.010",
     CH_MARKS, SRC_MARKED, 1, IN_NOLAN_3},
    {"marks.nolan3.2\0"
     "nolan at slot 3, component 2\0"
     "1.030",
     CH_MARKS, SRC_MARKED, 2, IN_NOLAN_3},
    {"marks.nolan3.3\0"
     "nolan at slot 3, component 3\0"
     "0.9996",
     CH_MARKS, SRC_MARKED, 3, IN_NOLAN_3},
    {"extra.sin512\0"
     "sin 512: pair 0 at position 512\0"
     "-0.398",
     CH_EXTRAPOLATE, SRC_MARK, 0, IN_MARK_512},
    {"extra.sin513\0"
     "sin 513: pair 0 at position 513\0"
     "0.257",
     CH_EXTRAPOLATE, SRC_MARK, 0, IN_MARK_513},
    {"extra.sin100\0"
     "sin 100: pair 1 at position 10000\0"
     "-0.506",
     CH_EXTRAPOLATE, SRC_MARK, 2, IN_MARK_10000},
    {"id.sin47\0"
     "sin 47\0"
     "0.124",
     CH_IDENTITY, SRC_IDENTITY, ROPE_ID_SIN_A, IN_47_4},
    {"id.cos47\0"
     "cos 47\0"
     "-0.992",
     CH_IDENTITY, SRC_IDENTITY, ROPE_ID_COS_A, IN_47_4},
    {"id.turn47\0"
     "47 reduced by whole turns\0"
     "3.018",
     CH_IDENTITY, SRC_IDENTITY, ROPE_ID_A_TURN, IN_47_4},
    {"id.quadrant47\0"
     "quadrant 47 lands in\0"
     "2",
     CH_IDENTITY, SRC_IDENTITY, ROPE_ID_QUADRANT, IN_47_4},
    {"id.cos4\0"
     "cos 4\0"
     "-0.654",
     CH_IDENTITY, SRC_IDENTITY, ROPE_ID_COS_B, IN_47_4},
    {"id.sin4\0"
     "sin 4\0"
     "-0.757",
     CH_IDENTITY, SRC_IDENTITY, ROPE_ID_SIN_B, IN_47_4},
    {"id.sa_cb\0"
     "sin 47 cos 4\0"
     "-0.081",
     CH_IDENTITY, SRC_IDENTITY, ROPE_ID_SA_CB, IN_47_4},
    {"id.ca_sb\0"
     "cos 47 sin 4\0"
     "0.751",
     CH_IDENTITY, SRC_IDENTITY, ROPE_ID_CA_SB, IN_47_4},
    {"id.sum\0"
     "sin 51 by the identity\0"
     "0.670",
     CH_IDENTITY, SRC_IDENTITY, ROPE_ID_SIN_SUM, IN_47_4},
    {"id.direct\0"
     "sin 51 directly\0"
     "0.670",
     CH_IDENTITY, SRC_IDENTITY, ROPE_ID_SIN_DIRECT, IN_47_4},
    {"cat.angle3\0"
     "3 x 0.1 radians\0"
     "0.3",
     CH_CAT, SRC_CAT, ROPE_CAT_ANGLE_M, IN_CAT_3_7},
    {"cat.cos03\0"
     "cos 0.3\0"
     "0.9553",
     CH_CAT, SRC_CAT, ROPE_CAT_COS_M, IN_CAT_3_7},
    {"cat.sin03\0"
     "sin 0.3\0"
     "0.2955",
     CH_CAT, SRC_CAT, ROPE_CAT_SIN_M, IN_CAT_3_7},
    {"cat.q3.xa\0"
     "0.9 cos 0.3\0"
     "0.860",
     CH_CAT, SRC_CAT, ROPE_CAT_Q0_COS_M, IN_CAT_3_7},
    {"cat.q3.xb\0"
     "0.4 sin 0.3\0"
     "0.118",
     CH_CAT, SRC_CAT, ROPE_CAT_Q1_SIN_M, IN_CAT_3_7},
    {"cat.q3.x\0"
     "cat at 3, x\0"
     "0.742",
     CH_CAT, SRC_CAT, ROPE_CAT_QM0, IN_CAT_3_7},
    {"cat.q3.ya\0"
     "0.9 sin 0.3\0"
     "0.266",
     CH_CAT, SRC_CAT, ROPE_CAT_Q0_SIN_M, IN_CAT_3_7},
    {"cat.q3.yb\0"
     "0.4 cos 0.3\0"
     "0.382",
     CH_CAT, SRC_CAT, ROPE_CAT_Q1_COS_M, IN_CAT_3_7},
    {"cat.q3.y\0"
     "cat at 3, y\0"
     "0.648",
     CH_CAT, SRC_CAT, ROPE_CAT_QM1, IN_CAT_3_7},
    {"cat.angle7\0"
     "7 x 0.1 radians\0"
     "0.7",
     CH_CAT, SRC_CAT, ROPE_CAT_ANGLE_N, IN_CAT_3_7},
    {"cat.cos07\0"
     "cos 0.7\0"
     "0.7648",
     CH_CAT, SRC_CAT, ROPE_CAT_COS_N, IN_CAT_3_7},
    {"cat.sin07\0"
     "sin 0.7\0"
     "0.6442",
     CH_CAT, SRC_CAT, ROPE_CAT_SIN_N, IN_CAT_3_7},
    {"cat.k7.xa\0"
     "0.9 cos 0.7\0"
     "0.688",
     CH_CAT, SRC_CAT, ROPE_CAT_K0_COS_N, IN_CAT_3_7},
    {"cat.k7.xb\0"
     "0.4 sin 0.7\0"
     "0.258",
     CH_CAT, SRC_CAT, ROPE_CAT_K1_SIN_N, IN_CAT_3_7},
    {"cat.k7.x\0"
     "cat at 7, x\0"
     "0.430",
     CH_CAT, SRC_CAT, ROPE_CAT_KN0, IN_CAT_3_7},
    {"cat.k7.ya\0"
     "0.9 sin 0.7\0"
     "0.580",
     CH_CAT, SRC_CAT, ROPE_CAT_K0_SIN_N, IN_CAT_3_7},
    {"cat.k7.yb\0"
     "0.4 cos 0.7\0"
     "0.306",
     CH_CAT, SRC_CAT, ROPE_CAT_K1_COS_N, IN_CAT_3_7},
    {"cat.k7.y\0"
     "cat at 7, y\0"
     "0.886",
     CH_CAT, SRC_CAT, ROPE_CAT_KN1, IN_CAT_3_7},
    {"cat.length\0"
     "length of cat, kept by rotation\0"
     "0.985",
     CH_CAT, SRC_CAT, ROPE_CAT_LEN_QM, IN_CAT_3_7},
    {"cat.code.q3.x\0"
     "code: cat at 3, x\0"
     "0.7416",
     CH_CAT, SRC_CAT, ROPE_CAT_QM0, IN_CAT_3_7},
    {"cat.code.q3.y\0"
     "code: cat at 3, y\0"
     "0.6481",
     CH_CAT, SRC_CAT, ROPE_CAT_QM1, IN_CAT_3_7},
    {"cat.code.k7.x\0"
     "code: cat at 7, x\0"
     "0.4307",
     CH_CAT, SRC_CAT, ROPE_CAT_KN0, IN_CAT_3_7},
    {"cat.code.k7.y\0"
     "code: cat at 7, y\0"
     "0.8857",
     CH_CAT, SRC_CAT, ROPE_CAT_KN1, IN_CAT_3_7},
    {"proof.x0\0"
     "0.742 x 0.430, unrounded\0"
     "0.319",
     CH_PROOF, SRC_CAT, ROPE_CAT_X0, IN_CAT_3_7},
    {"proof.x1\0"
     "0.648 x 0.886, unrounded\0"
     "0.574",
     CH_PROOF, SRC_CAT, ROPE_CAT_X1, IN_CAT_3_7},
    {"proof.direct\0"
     "score 3 vs 7, rotated vectors\0"
     "0.893",
     CH_PROOF, SRC_PROOF, ROPE_PROOF_DIRECT, IN_CAT_3_7},
    {"proof.q0k0\0"
     "0.9 x 0.9\0"
     "0.81",
     CH_PROOF, SRC_PROOF, ROPE_PROOF_PRODUCTS, IN_CAT_3_7},
    {"proof.q1k1\0"
     "0.4 x 0.4\0"
     "0.16",
     CH_PROOF, SRC_PROOF, ROPE_PROOF_PRODUCTS + 3, IN_CAT_3_7},
    {"proof.dot\0"
     "q . k\0"
     "0.97",
     CH_PROOF, SRC_PROOF, ROPE_PROOF_DOT, IN_CAT_3_7},
    {"proof.q0k1\0"
     "0.9 x 0.4\0"
     "0.36",
     CH_PROOF, SRC_PROOF, ROPE_PROOF_PRODUCTS + 1, IN_CAT_3_7},
    {"proof.q1k0\0"
     "0.4 x 0.9\0"
     "0.36",
     CH_PROOF, SRC_PROOF, ROPE_PROOF_PRODUCTS + 2, IN_CAT_3_7},
    {"proof.cross\0"
     "q x k\0"
     "0.00",
     CH_PROOF, SRC_PROOF, ROPE_PROOF_CROSS, IN_CAT_3_7},
    {"proof.gap\0"
     "(3 - 7) x 0.1 radians\0"
     "-0.4",
     CH_PROOF, SRC_CAT, ROPE_CAT_ANGLE_GAP, IN_CAT_3_7},
    {"proof.cosg\0"
     "cos -0.4\0"
     "0.921",
     CH_PROOF, SRC_PROOF, ROPE_PROOF_IDENTITIES, IN_CAT_3_7},
    {"proof.sing\0"
     "sin -0.4\0"
     "-0.389",
     CH_PROOF, SRC_PROOF, ROPE_PROOF_IDENTITIES + 1, IN_CAT_3_7},
    {"proof.formula\0"
     "score 3 vs 7 by the formula\0"
     "0.894",
     CH_PROOF, SRC_PROOF, ROPE_PROOF_RESULT, IN_CAT_3_7},
    {"proof.code.direct\0"
     "code: direct score\0"
     "0.8934",
     CH_PROOF, SRC_PROOF, ROPE_PROOF_DIRECT, IN_CAT_3_7},
    {"proof.code.cosg\0"
     "code: cos -0.4\0"
     "0.9211",
     CH_PROOF, SRC_PROOF, ROPE_PROOF_IDENTITIES, IN_CAT_3_7},
    {"proof.code.sing\0"
     "code: sin -0.4\0"
     "-0.3894",
     CH_PROOF, SRC_PROOF, ROPE_PROOF_IDENTITIES + 1, IN_CAT_3_7},
    {"proof.code.formula\0"
     "code: formula score\0"
     "0.8934",
     CH_PROOF, SRC_PROOF, ROPE_PROOF_RESULT, IN_CAT_3_7},
    {"proof.code.cos1\0"
     "code: cos 1.0\0"
     "0.5403",
     CH_PROOF, SRC_CAT, ROPE_CAT_COS_M, IN_CAT_10_14},
    {"proof.code.sin1\0"
     "code: sin 1.0\0"
     "0.8415",
     CH_PROOF, SRC_CAT, ROPE_CAT_SIN_M, IN_CAT_10_14},
    {"proof.code.q10.x\0"
     "code: cat at 10, x\0"
     "0.1497",
     CH_PROOF, SRC_CAT, ROPE_CAT_QM0, IN_CAT_10_14},
    {"proof.code.q10.y\0"
     "code: cat at 10, y\0"
     "0.9734",
     CH_PROOF, SRC_CAT, ROPE_CAT_QM1, IN_CAT_10_14},
    {"proof.code.cos14\0"
     "code: cos 1.4\0"
     "0.1700",
     CH_PROOF, SRC_CAT, ROPE_CAT_COS_N, IN_CAT_10_14},
    {"proof.code.sin14\0"
     "code: sin 1.4\0"
     "0.9854",
     CH_PROOF, SRC_CAT, ROPE_CAT_SIN_N, IN_CAT_10_14},
    {"proof.code.k14.x\0"
     "code: cat at 14, x\0"
     "-0.2412",
     CH_PROOF, SRC_CAT, ROPE_CAT_KN0, IN_CAT_10_14},
    {"proof.code.k14.y\0"
     "code: cat at 14, y\0"
     "0.9549",
     CH_PROOF, SRC_CAT, ROPE_CAT_KN1, IN_CAT_10_14},
    {"proof.code.x0\0"
     "code: x halves at 10 and 14\0"
     "-0.0361",
     CH_PROOF, SRC_CAT, ROPE_CAT_X0, IN_CAT_10_14},
    {"proof.code.x1\0"
     "code: y halves at 10 and 14\0"
     "0.9295",
     CH_PROOF, SRC_CAT, ROPE_CAT_X1, IN_CAT_10_14},
    {"proof.code.shifted\0"
     "code: score 10 vs 14\0"
     "0.8934",
     CH_PROOF, SRC_CAT, ROPE_CAT_DIRECT, IN_CAT_10_14},
    {"planes.slow.angle\0"
     "slow pair at 3: 3 x 0.0001 radians\0"
     "0.0003",
     CH_PLANES, SRC_CAT, ROPE_CAT_ANGLE_M, IN_SLOW_3},
    {"planes.slow.cos\0"
     "cos 0.0003\0"
     "1.000",
     CH_PLANES, SRC_CAT, ROPE_CAT_COS_M, IN_SLOW_3},
    {"planes.slow.sin\0"
     "sin 0.0003\0"
     "0.000300",
     CH_PLANES, SRC_CAT, ROPE_CAT_SIN_M, IN_SLOW_3},
    {"planes.slow.xa\0"
     "0.9 cos 0.0003\0"
     "0.900",
     CH_PLANES, SRC_CAT, ROPE_CAT_Q0_COS_M, IN_SLOW_3},
    {"planes.slow.xb\0"
     "0.4 sin 0.0003\0"
     "0.000120",
     CH_PLANES, SRC_CAT, ROPE_CAT_Q1_SIN_M, IN_SLOW_3},
    {"planes.slow.x\0"
     "slow pair at 3, x\0"
     "0.8999",
     CH_PLANES, SRC_CAT, ROPE_CAT_QM0, IN_SLOW_3},
    {"planes.slow.ya\0"
     "0.9 sin 0.0003\0"
     "0.000270",
     CH_PLANES, SRC_CAT, ROPE_CAT_Q0_SIN_M, IN_SLOW_3},
    {"planes.slow.yb\0"
     "0.4 cos 0.0003\0"
     "0.4",
     CH_PLANES, SRC_CAT, ROPE_CAT_Q1_COS_M, IN_SLOW_3},
    {"planes.slow.y\0"
     "slow pair at 3, y\0"
     "0.4003",
     CH_PLANES, SRC_CAT, ROPE_CAT_QM1, IN_SLOW_3},
    {"planes.slow3000\0"
     "slow pair at 3000: radians\0"
     "0.3",
     CH_PLANES, SRC_CAT, ROPE_CAT_ANGLE_M, IN_SLOW_3000},
    {"clock.fast.rad\0"
     "fast pair over 8192: radians\0"
     "819.2",
     CH_CLOCK, SRC_CLOCK_THETA, ROPE_CLOCK_RADIANS, IN_FAST_TRAIN},
    {"clock.fast.turns\0"
     "fast pair over 8192: turns\0"
     "130",
     CH_CLOCK, SRC_CLOCK_THETA, ROPE_CLOCK_TURNS, IN_FAST_TRAIN},
    {"clock.train.rad\0"
     "slow pair over 8192: radians\0"
     "0.8192",
     CH_CLOCK, SRC_CLOCK_THETA, ROPE_CLOCK_RADIANS, IN_SLOW_TRAIN},
    {"clock.train.deg\0"
     "slow pair over 8192: degrees\0"
     "46.9",
     CH_CLOCK, SRC_CLOCK_THETA, ROPE_CLOCK_DEGREES, IN_SLOW_TRAIN},
    {"clock.train.deg0\0"
     "slow pair over 8192: whole degrees\0"
     "47",
     CH_CLOCK, SRC_CLOCK_THETA, ROPE_CLOCK_DEGREES, IN_SLOW_TRAIN},
    {"clock.gap.rad\0"
     "slow pair at gap 50,000: radians\0"
     "5.0",
     CH_CLOCK, SRC_CLOCK_THETA, ROPE_CLOCK_RADIANS, IN_SLOW_GAP},
    {"clock.gap.deg\0"
     "slow pair at gap 50,000: degrees\0"
     "287",
     CH_CLOCK, SRC_CLOCK_THETA, ROPE_CLOCK_DEGREES, IN_SLOW_GAP},
    {"clock.div8.rad\0"
     "gap 50,000 slowed 8 times: radians\0"
     "0.625",
     CH_CLOCK, SRC_CLOCK_THETA, ROPE_CLOCK_RADIANS, IN_SLOW_GAP_DIV8},
    {"clock.div8.deg\0"
     "gap 50,000 slowed 8 times: degrees\0"
     "35.8",
     CH_CLOCK, SRC_CLOCK_THETA, ROPE_CLOCK_DEGREES, IN_SLOW_GAP_DIV8},
    {"clock.theta.old\0"
     "pair 255 of 512, base 10000\0"
     "0.000104",
     CH_CLOCK, SRC_CLOCK, ROPE_CLOCK_THETA, IN_P255_OLD},
    {"clock.theta.new\0"
     "pair 255 of 512, base 500000\0"
     "0.0000021",
     CH_CLOCK, SRC_CLOCK, ROPE_CLOCK_THETA, IN_P255_NEW},
    {"clock.ratio\0"
     "how much slower pair 255 turns\0"
     "49",
     CH_CLOCK, SRC_REBASE, ROPE_REBASE_RATIO, IN_REBASE},
    {"clock.new.rad\0"
     "gap 50,000, base 500000: radians\0"
     "0.105",
     CH_CLOCK, SRC_CLOCK, ROPE_CLOCK_RADIANS, IN_P255_NEW_GAP},
    {"clock.new.deg\0"
     "gap 50,000, base 500000: degrees\0"
     "6",
     CH_CLOCK, SRC_CLOCK, ROPE_CLOCK_DEGREES, IN_P255_NEW_GAP},
    {"clock.old.rad\0"
     "gap 50,000, base 10000: radians\0"
     "5.2",
     CH_CLOCK, SRC_CLOCK, ROPE_CLOCK_RADIANS, IN_P255_OLD_GAP},
    {"clock.old.deg\0"
     "gap 50,000, base 10000: degrees\0"
     "298",
     CH_CLOCK, SRC_CLOCK, ROPE_CLOCK_DEGREES, IN_P255_OLD_GAP},
    {"clock.trained.rad\0"
     "pair 255 over 8192: radians\0"
     "0.85",
     CH_CLOCK, SRC_CLOCK, ROPE_CLOCK_RADIANS, IN_P255_OLD_TRAIN},
    {"clock.trained.deg\0"
     "pair 255 over 8192: degrees\0"
     "49",
     CH_CLOCK, SRC_CLOCK, ROPE_CLOCK_DEGREES, IN_P255_OLD_TRAIN},
    {"weights.cheaper\0"
     "800 billion tokens over 10 billion\0"
     "80",
     CH_WEIGHTS, SRC_DIVIDE, 0, IN_TOKENS},
};
#define ROW_COUNT ((int)(sizeof rows / sizeof rows[0]))

/* The post's running examples: the word "nolan" and the word "cat". */
static const double nolan[4] = {2, 1, 1, 0};
static const double cat[2] = {0.9, 0.4};

/* A row's value; room for the largest output any source writes. */
static int recompute(const struct row *r, double *value)
{
    double o[ROPE_CAT_LEN + ROPE_PROOF_LEN];
    const double *p = inputs[r->in];
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

/* The table's own texts: [-]digits[.digits], at most 15 digits. The digits
 * form an exact integer and 10^decimals is exact, so one division rounds
 * like a decimal parser would (strtod is not linked in for this). Returns
 * the number of decimals. */
static int printed_value(const char *text, double *value)
{
    double digits = 0.0, scale = 1.0;
    int decimals = -1, negative = *text == '-';
    for (const char *c = text + negative; *c != '\0'; c++) {
        if (*c == '.') {
            decimals = 0;
            continue;
        }
        digits = digits * 10.0 + (double)(*c - '0');
        if (decimals >= 0) {
            decimals++;
            scale *= 10.0;
        }
    }
    *value = (negative ? -digits : digits) / scale;
    return decimals < 0 ? 0 : decimals;
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
    double value = 0.0, printed = 0.0;
    int rc = recompute(r, &value);
    if (rc != ROPE_OK) return rc;
    int decimals = printed_value(rope_lesson_post_text(row), &printed);
    double half = 0.5;
    for (int d = 0; d < decimals; d++) half /= 10.0;
    out[ROPE_POST_PRINTED] = printed;
    out[ROPE_POST_DECIMALS] = decimals;
    out[ROPE_POST_VALUE] = value;
    out[ROPE_POST_MATCH] = fabs(value - printed) <= half * (1.0 + 1e-9) ? 1.0 : 0.0;
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
    return (row >= 0 && row < ROW_COUNT) ? rows[row].text : NULL;
}

const char *rope_lesson_post_label(int row)
{
    const char *id = rope_lesson_post_id(row);
    return id == NULL ? NULL : id + strlen(id) + 1;
}

const char *rope_lesson_post_text(int row)
{
    const char *label = rope_lesson_post_label(row);
    return label == NULL ? NULL : label + strlen(label) + 1;
}

const char *rope_lesson_chapter(int index)
{
    int n = (int)(sizeof chapters / sizeof chapters[0]);
    return (index >= 0 && index < n) ? chapters[index] : NULL;
}
