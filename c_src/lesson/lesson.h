/*
 * ropescope lesson: the numbers of each chapter of the lesson page, in the
 * order the argument is told (docs/LESSON.md gives every formula). rope.h's
 * conventions hold: the caller owns every buffer, 0 or a negative ROPE_E_*
 * code is returned and nothing useful is written on failure. A position or
 * slot something is rotated by or marked with is refused with ROPE_E_POSITION
 * when not finite and ROPE_E_FAR past ROPE_MAX_POSITION.
 */
#ifndef ROPE_LESSON_H
#define ROPE_LESSON_H

/* ---- order: attention without position cannot tell "a b" from "b a" ---- */

/* Scores of one sentence, by word: a looking at a, a at b, b at a, b at b. */
#define ROPE_ORDER_AA 0
#define ROPE_ORDER_AB 1
#define ROPE_ORDER_BA 2
#define ROPE_ORDER_BB 3
/* One scheme's block: the four scores in "a b", then in "b a", then the
 * largest |difference| between the two orders. */
#define ROPE_ORDER_SWAPPED 4
#define ROPE_ORDER_DIFF 8
#define ROPE_ORDER_BLOCK 9
/* Blocks of rope_lesson_order's output: no position, sinusoidal marks added,
 * RoPE rotation. */
#define ROPE_ORDER_PLAIN 0
#define ROPE_ORDER_ADDED 1
#define ROPE_ORDER_ROTATED 2
#define ROPE_ORDER_LEN 27

/* Words a and b (n doubles each, n >= 1) in the sentence "a b" (a at slot s0,
 * b at s0 + 1) and in "b a", scored as dot products with no learned grids.
 * out: ROPE_ORDER_LEN doubles, three blocks of ROPE_ORDER_BLOCK: the plain
 * block's two orders are equal, the other two are not in general. */
int rope_lesson_order(const double *a, int na, const double *b, int nb, double s0, double base,
                      double *out);

/* ---- slot: the slot number added to every component ---- */

#define ROPE_SLOT_COS 0        /* cosine between the stick and stick + slot */
#define ROPE_SLOT_STICK_NORM 1 /* |stick| */
#define ROPE_SLOT_POS_NORM 2   /* |slot| sqrt(n): the length of what was added */
#define ROPE_SLOT_SHARE 3      /* |added| / (|stick| + |added|), in [0, 1] */
#define ROPE_SLOT_COS_POS 4    /* cosine between stick + slot and (1, ..., 1) */
#define ROPE_SLOT_MEASURES 5
/* Length of rope_lesson_slot's output for a stick of n. */
#define ROPE_SLOT_LEN(n) ((n) + ROPE_SLOT_MEASURES)

/* stick + slot in every component, then how much the word is drowned: as
 * the slot grows the sum turns toward (1, ..., 1), whatever the word.
 * out: ROPE_SLOT_LEN(n) doubles: the n sums, then the measures above (a
 * cosine is 0 when either vector is all zeros: it has no direction). */
int rope_lesson_slot(const double *stick, int n, double slot, double *out);

/* ---- normalized: slot / length ---- */

/* slot / length; length must be finite and > 0 (else ROPE_E_POSITION).
 * out: 1 double. */
int rope_lesson_normalized(double slot, double length, double *out);

/* ---- marks: the sinusoidal marks ---- */

/* rope_sin_pos(positions[p], width, base) for each p: dim 2i is
 * sin(p base^(-2i / width)), dim 2i + 1 its cos. out: count * width doubles,
 * row-major by position. Refuses width x count above ROPE_MAX_WORK. */
int rope_lesson_marks(const double *positions, int count, int width, double base, double *out);

/* stick + rope_sin_pos(slot, n, base): a word carrying its mark.
 * out: n doubles. */
int rope_lesson_marked(const double *stick, int n, double slot, double base, double *out);

/* ---- extrapolate: marks past the training length ---- */

/* Blocks of width doubles in rope_lesson_extrapolate's output. */
#define ROPE_EXTRA_VALUE 0   /* the mark at pos */
#define ROPE_EXTRA_MIN 1     /* least value over training positions 0 .. train - 1 */
#define ROPE_EXTRA_MAX 2     /* greatest value over the same */
#define ROPE_EXTRA_OUTSIDE 3 /* 1 where the value is outside [min, max], else 0 */
#define ROPE_EXTRA_BLOCKS 4

/* Each mark value at pos against the range seen over the integer training
 * positions 0 .. train - 1 (train in [1, ROPE_MAX_COUNT]). out:
 * ROPE_EXTRA_BLOCKS * width doubles, planar; refuses width x train above
 * ROPE_MAX_WORK. */
int rope_lesson_extrapolate(double pos, int width, int train, double base, double *out);

/* ---- identity: sin(a + b) from a and b ---- */

#define ROPE_ID_SIN_A 0
#define ROPE_ID_COS_A 1
#define ROPE_ID_SIN_B 2
#define ROPE_ID_COS_B 3
#define ROPE_ID_A_TURN 4   /* a mod 2 pi, in [0, 2 pi) */
#define ROPE_ID_QUADRANT 5 /* 1 .. 4, the quadrant a lands in */
#define ROPE_ID_SA_CB 6    /* sin a cos b */
#define ROPE_ID_CA_SB 7    /* cos a sin b */
#define ROPE_ID_SIN_SUM 8  /* their sum: sin(a + b) by the identity */
#define ROPE_ID_SIN_DIRECT 9
#define ROPE_ID_CA_CB 10   /* cos a cos b */
#define ROPE_ID_SA_SB 11   /* sin a sin b */
#define ROPE_ID_COS_SUM 12 /* their difference: cos(a + b) by the identity */
#define ROPE_ID_COS_DIRECT 13
#define ROPE_ID_LEN 14

/* sin(a + b) = sin a cos b + cos a sin b and cos(a + b) = cos a cos b -
 * sin a sin b with every intermediate. a, b finite, |a|, |b| within
 * ROPE_MAX_POSITION. out: ROPE_ID_LEN doubles. */
int rope_lesson_identity(double a, double b, double *out);

/* ---- cat: one pair rotated, its angle and its score ---- */

#define ROPE_CAT_QM0 0 /* q rotated by m theta */
#define ROPE_CAT_QM1 1
#define ROPE_CAT_KN0 2 /* k rotated by n theta */
#define ROPE_CAT_KN1 3
#define ROPE_CAT_COS_M 4 /* cos(m theta), sin(m theta), cos(n theta), sin(n theta) */
#define ROPE_CAT_SIN_M 5
#define ROPE_CAT_COS_N 6
#define ROPE_CAT_SIN_N 7
#define ROPE_CAT_Q0_COS_M 8 /* the four products that make q_m: q0 cos, q1 sin, */
#define ROPE_CAT_Q1_SIN_M 9 /* q0 sin, q1 cos (q_m = (8) - (9), (10) + (11)) */
#define ROPE_CAT_Q0_SIN_M 10
#define ROPE_CAT_Q1_COS_M 11
#define ROPE_CAT_K0_COS_N 12 /* the same four for k_n */
#define ROPE_CAT_K1_SIN_N 13
#define ROPE_CAT_K0_SIN_N 14
#define ROPE_CAT_K1_COS_N 15
#define ROPE_CAT_ANGLE_M 16 /* m theta, n theta, (m - n) theta: radians */
#define ROPE_CAT_ANGLE_N 17
#define ROPE_CAT_ANGLE_GAP 18
#define ROPE_CAT_START 19     /* direction(q) - direction(k), radians in (-pi, pi] */
#define ROPE_CAT_AFTER 20     /* direction(q_m) - direction(k_n), measured, (-pi, pi] */
#define ROPE_CAT_PREDICTED 21 /* START + (m - n) theta wrapped to (-pi, pi] */
#define ROPE_CAT_START_DEG 22 /* START, AFTER in degrees */
#define ROPE_CAT_AFTER_DEG 23
#define ROPE_CAT_X0 24 /* q_m[0] k_n[0] and q_m[1] k_n[1]: the two halves */
#define ROPE_CAT_X1 25
#define ROPE_CAT_DIRECT 26 /* q_m . k_n */
#define ROPE_CAT_ADDED 27  /* (q + P(m)) . (k + P(n)), P(p) = (sin p theta, cos p theta) */
#define ROPE_CAT_LEN_Q 28  /* |q| and |q_m|: rotation keeps the length */
#define ROPE_CAT_LEN_QM 29
#define ROPE_CAT_LEN 30

/* The 2-D pair q = (q0, q1) at m, k = (k0, k1) at n, turning theta radians
 * per position; the additive score marks the same pair with the sinusoid of
 * the same frequency. out: ROPE_CAT_LEN doubles, slots above. */
int rope_lesson_cat(double q0, double q1, double k0, double k1, double m, double n, double theta,
                    double *out);

/* ---- proof: q_m . k_n expanded step by step ---- */

/* The eight expanded products, in the order they are written:
 * q0k0 cm cn, -q0k1 cm sn, -q1k0 sm cn, q1k1 sm sn, q0k0 sm sn, q0k1 sm cn,
 * q1k0 cm sn, q1k1 cm cn (cm = cos m theta, sn = sin n theta, ...). */
#define ROPE_PROOF_TERMS 0
#define ROPE_PROOF_EXPANDED 8 /* their sum */
/* The brackets that multiply q0k0, q0k1, q1k0, q1k1 once collected: */
#define ROPE_PROOF_BRACKETS 9    /* cm cn + sm sn, -cm sn + sm cn, -sm cn + cm sn, sm sn + cm cn */
#define ROPE_PROOF_COLLECTED 13  /* sum of bracket x its product */
#define ROPE_PROOF_IDENTITIES 14 /* cos g, sin g, -sin g, cos g with g = (m - n) theta */
#define ROPE_PROOF_IDENTIFIED 18 /* sum of identity x its product */
#define ROPE_PROOF_DOT 19        /* q . k */
#define ROPE_PROOF_CROSS 20      /* q0 k1 - q1 k0 */
#define ROPE_PROOF_RESULT 21     /* dot cos g + cross sin g */
#define ROPE_PROOF_DIRECT 22     /* q_m . k_n from the rotated vectors */
#define ROPE_PROOF_PRODUCTS 23   /* q0k0, q0k1, q1k0, q1k1: what the brackets multiply */
#define ROPE_PROOF_GAP 27        /* g = (m - n) theta, the one angle left */
#define ROPE_PROOF_COS_TERM 28   /* dot cos g: the result's first term */
#define ROPE_PROOF_SIN_TERM 29   /* cross sin g: its second, 0 when q and k are parallel */
#define ROPE_PROOF_LEN 30

/* Each step of the proof as a number: every sum (expanded, collected,
 * identified, result, direct) is the same score up to rounding.
 * out: ROPE_PROOF_LEN doubles. */
int rope_lesson_proof(double q0, double q1, double k0, double k1, double m, double n, double theta,
                      double *out);

/* ---- clock: one pair's angle as a clock hand ---- */

#define ROPE_CLOCK_THETA 0   /* radians per position, after the divide */
#define ROPE_CLOCK_RADIANS 1 /* position x theta */
#define ROPE_CLOCK_DEGREES 2 /* the same in degrees, unwrapped */
#define ROPE_CLOCK_DIAL 3    /* degrees mod 360, in [0, 360) */
#define ROPE_CLOCK_TURNS 4   /* radians / (2 pi) */
#define ROPE_CLOCK_LEN 5

/* Pair `pair` of a dim-vector (theta = base^(-2 pair / dim)) slowed by
 * divide (finite, > 0, else ROPE_E_SCALING), at position. pair in
 * [0, dim / 2) else ROPE_E_DIM. out: ROPE_CLOCK_LEN doubles. */
int rope_lesson_clock(int pair, int dim, double base, double position, double divide, double *out);

/* The same for an explicit theta (finite, any sign). out: ROPE_CLOCK_LEN doubles. */
int rope_lesson_clock_theta(double theta, double position, double divide, double *out);

#define ROPE_REBASE_THETA_OLD 0
#define ROPE_REBASE_THETA_NEW 1
#define ROPE_REBASE_RATIO 2     /* theta_old / theta_new: how much slower */
#define ROPE_REBASE_GAP_OLD 3   /* dial degrees at the gap, old base */
#define ROPE_REBASE_GAP_NEW 4   /* and new base */
#define ROPE_REBASE_TRAIN_OLD 5 /* degrees swept over the training length, unwrapped */
#define ROPE_REBASE_TRAIN_NEW 6
#define ROPE_REBASE_LEN 7

/* One pair under a base change old_base -> new_base: its speeds, the dial
 * at gap, and the sweep over train positions. out: ROPE_REBASE_LEN doubles. */
int rope_lesson_rebase(int pair, int dim, double old_base, double new_base, double gap,
                       double train, double *out);

/* ---- weights: what a base change fixes, and what it cannot ---- */

#define ROPE_WEIGHTS_THETA_OLD 0 /* the pair's theta at each base */
#define ROPE_WEIGHTS_THETA_NEW 1
#define ROPE_WEIGHTS_WEDGE 2    /* train x theta_old in degrees: the angles training reached */
#define ROPE_WEIGHTS_REACH 3    /* wedge / theta_new: up to this gap the new base stays inside */
#define ROPE_WEIGHTS_TURN_OLD 4 /* positions per whole turn at each base */
#define ROPE_WEIGHTS_TURN_NEW 5
#define ROPE_WEIGHTS_FAR_OLD 6 /* dial degrees [0, 360) at gap floor(widest), each base */
#define ROPE_WEIGHTS_FAR_NEW 7
#define ROPE_WEIGHTS_GAPS 8        /* whole gaps 0 .. floor(widest): how many */
#define ROPE_WEIGHTS_INSIDE_OLD 9  /* of them, how many put the pair inside the wedge, */
#define ROPE_WEIGHTS_INSIDE_NEW 10 /* at the old base and at the new */
#define ROPE_WEIGHTS_SEEN 11       /* how many are at most train: gaps training had */
#define ROPE_WEIGHTS_SHARE_OLD 12  /* INSIDE_OLD / GAPS, INSIDE_NEW / GAPS, SEEN / GAPS */
#define ROPE_WEIGHTS_SHARE_NEW 13
#define ROPE_WEIGHTS_SHARE_SEEN 14
#define ROPE_WEIGHTS_LEN 15

/* Pair `pair` of a dim-vector trained on sequences of train positions at
 * old_base, then given new_base: of the whole gaps 0 .. floor(widest), the
 * ones whose angle training met, under each base: every gap once training
 * swept a whole turn, else those whose angle, unwrapped, is at most the
 * wedge train x theta_old (a relative 1e-9 so the training length itself
 * counts; a gap whose angle comes round over the wedge after whole turns is
 * not inside, as in rope_scaling_range); and the ones no longer than train,
 * which no base changes. train and widest finite and >= 0 (else
 * ROPE_E_POSITION), within ROPE_MAX_POSITION as angles (ROPE_E_FAR).
 * out: ROPE_WEIGHTS_LEN doubles. */
int rope_lesson_weights(int pair, int dim, double old_base, double new_base, double train,
                        double widest, double *out);

/* ---- the post, checked ---- */

/* Per row of rope_lesson_post_table: */
#define ROPE_POST_PRINTED 0  /* the value as the post prints it */
#define ROPE_POST_DECIMALS 1 /* decimals printed */
#define ROPE_POST_VALUE 2    /* recomputed by the functions above */
#define ROPE_POST_MATCH 3    /* 1 if |value - printed| <= half a unit of the last decimal */
#define ROPE_POST_CHAPTER 4  /* index into rope_lesson_chapter's names */
#define ROPE_POST_FIELDS 5

/* Number of rows of the checked table. */
int rope_lesson_post_count(void);

/* Every row, row-major: out holds cap rows and cap must be at least
 * rope_lesson_post_count() (else ROPE_E_SPACE); writes ROPE_POST_FIELDS
 * doubles per row. */
int rope_lesson_post_table(double *out, int cap);

/* One row's fields. row in [0, count) else ROPE_E_COUNT. out: ROPE_POST_FIELDS doubles. */
int rope_lesson_post_row(int row, double *out);

/* A row's id (stable, e.g. "cat.k7.x") and its short label: static
 * strings, NULL for a row out of range. */
const char *rope_lesson_post_id(int row);
const char *rope_lesson_post_label(int row);

/* A row's number exactly as the post prints it ("-0.990", "0.0000021"): the
 * printed value and its decimals are read from it. NULL out of range. */
const char *rope_lesson_post_text(int row);

/* Chapter names in the lesson's order ("order", "slot", ...); NULL past the last. */
const char *rope_lesson_chapter(int index);

#endif /* ROPE_LESSON_H */
