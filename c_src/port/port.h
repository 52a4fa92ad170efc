/*
 * How a port of a model may compute RoPE differently from the config's
 * float64 numbers (docs/VERIFY.md, "Precision and layout"): the number format
 * of the angle position x inv_freq, and the pairing layout of a head's
 * dimensions. `ropescope verify` tests dumps against these rules and the
 * page draws them, so each rule is written here once. Same conventions as
 * rope.h: the caller owns every buffer, 0 or a negative ROPE_E_* code.
 */
#ifndef ROPE_PORT_H
#define ROPE_PORT_H

/* Number formats (a dump's dtype, the format of an angle). */
#define ROPE_DT_F64 0
#define ROPE_DT_F32 1
#define ROPE_DT_F16 2
#define ROPE_DT_BF16 3

/* Pairing layouts: rotate_half pairs (i, i + d/2), interleaved (2i, 2i + 1). */
#define ROPE_LAYOUT_HALF 0
#define ROPE_LAYOUT_INTERLEAVED 1
#define ROPE_LAYOUT_UNKNOWN 2

/* v rounded to float32, float16 or bfloat16 (nearest, ties to even; past the
 * format's largest value, infinity) and back; ROPE_DT_F64 returns v. The half
 * formats are reached through float32, as torch casts them. */
double rope_round_to(int dtype, double v);

/* The angle p x theta as computed in format t: t(t(p) x t(theta)). With
 * theta_only, only theta is stored in t and the product is computed in
 * `native` (ROPE_DT_F64 or ROPE_DT_F32). */
double rope_angle_in(int t, int theta_only, int native, double p, double theta);

/* n frequencies (radians per position), each finite and > 0, n in
 * [1, ROPE_MAX_DIM / 2]; *top: the largest. ROPE_E_DIM, _NULL or _VALUE. */
int rope_check_freqs(const double *theta, int n, double *top);

/* The cases of rope_precision_errors, in the order of its output blocks. */
#define ROPE_PREC_F32 0        /* theta, p and the product in float32 */
#define ROPE_PREC_BF16 1       /* all three in bfloat16 */
#define ROPE_PREC_F16 2        /* all three in float16 */
#define ROPE_PREC_THETA_BF16 3 /* theta stored in bfloat16, p and the product in float32 */
#define ROPE_PREC_THETA_F16 4  /* theta stored in float16, p and the product in float32 */
#define ROPE_PREC_CASES 5

/* |angle in the case - pos x theta[i]| (radians) for each case and pair:
 * out[c * n + i], ROPE_PREC_CASES x n doubles; infinity where the angle is
 * lost (float16 overflows past 65504). theta: n finite values > 0, n in
 * [1, ROPE_MAX_DIM / 2]; pos finite, |pos| x max theta within ROPE_MAX_ANGLE. */
int rope_precision_errors(const double *theta, int n, double pos, double *out);

/* Pair i's two dimensions of 2n under layout: *a and *b. */
void rope_layout_dims(int layout, int n, int i, int *a, int *b);

/* The pair each of the d = 2n dimensions belongs to under layout: d ints. */
int rope_layout_pairs(int layout, int n, int *out);

/* The cases of rope_layout_scores, in the order of its output blocks. */
#define ROPE_MIX_SAME 0    /* table and rotation in the model's own layout */
#define ROPE_MIX_SWAPPED 1 /* both in the other layout */
#define ROPE_MIX_TABLE 2   /* the cos/sin table in the model's layout, the rotation in the other */
#define ROPE_MIX_CASES 3

/* The score q at start + gap against k at start, for starts start0 + j x step
 * (j < count), with n pairs at frequencies theta (radians per position) and
 * q, k of 2n values, rotated as each case says: out[c * count + j],
 * ROPE_MIX_CASES x count doubles. A rotation builds cos and sin of each
 * dimension's angle from the table's layout, then pairs the dimensions as
 * the rotation's layout does (out[a] = x[a] cos - x[b] sin, out[b] = x[b] cos
 * + x[a] sin); with one layout for both, that is RoPE. layout: the model's,
 * ROPE_LAYOUT_HALF or _INTERLEAVED. Work 2n x count within ROPE_MAX_WORK. */
int rope_layout_scores(const double *q, const double *k, int n, const double *theta, int layout,
                       double gap, double start0, double step, int count, double *out);

/* Attention temperature tuning's query scale at a position:
 * 1 + beta ln(1 + floor((position + offset) / l0)). Llama 4 counts from
 * position + 1 (offset 1), Ministral 3 from the position (offset 0). */
double rope_query_scale_at(double beta, double l0, double offset, double position);

/* The largest beta taken: real configs use about 0.1, and with it the scale
 * stays finite at every position. */
#define ROPE_QUERY_BETA_MAX 1000

/* The query scale at n positions: out[j]. beta in [0, ROPE_QUERY_BETA_MAX], l0 finite and
 * >= 1, offset 0 or 1 (else ROPE_E_VALUE); each position finite, in
 * [0, ROPE_MAX_POSITION] (else ROPE_E_POSITION); n in [0, ROPE_MAX_COUNT]. */
int rope_query_scales(double beta, double l0, int offset, const double *positions, int n,
                      double *out);

#endif /* ROPE_PORT_H */
