/*
 * ropescope core: rotary position embedding (RoPE) and the additive sinusoidal
 * method, in doubles, with no I/O and no allocation. The meaning of every
 * function is fixed by docs/SPEC.md; this header adds C's conventions:
 *   - the caller allocates and owns every buffer; nothing here allocates;
 *     "out: N doubles" says how many are written;
 *   - an out pointer may be NULL only where N is 0 (said per function);
 *     an input array may be NULL only when its length is 0;
 *   - functions return 0 on success or a negative ROPE_E_* code, and write
 *     nothing useful on failure; rope_strerror(code) gives the text;
 *   - lengths and dimensions are `int` so that a negative one can be reported;
 *   - base must be finite and > 1 (ROPE_E_BASE); the largest angle a position
 *     sets, |position| x theta_max, must be within ROPE_MAX_ANGLE (ROPE_E_FAR);
 *     a batch call's d x count must be within ROPE_MAX_WORK. The checks live
 *     in core/check.c alone and are public below, so every caller (the page too) uses them.
 */
#ifndef ROPE_H
#define ROPE_H

#define ROPE_DIM 64
#define ROPE_THETA_BASE 10000.0
/* Largest dimension any function accepts. */
#define ROPE_MAX_DIM 65536
/* Largest number of starts, deltas or positions in one batch call. */
#define ROPE_MAX_COUNT 65536
/* Largest angle |p| x theta_max (radians) any rotating function accepts: past
 * it doubles no longer resolve the angle to the contract's tolerance. */
#define ROPE_MAX_ANGLE 1e10
/* The same limit said as a position: theta_max = theta_0 = 1 for every base
 * accepted (> 1), so the largest angle of position p is |p| itself. */
#define ROPE_MAX_POSITION 1e10
/* Largest work (dimension x count) one call may do: 2^23, so that the slowest
 * call at the limit takes about 2 s (measured: make bench, docs/SPEC.md). */
#define ROPE_MAX_WORK 8388608
/* Largest (d + ROPE_ENVELOPE_START_WORK) x starts of rope_offset_envelope: 2^27.
 * It is a chunked sweep, a few multiply-adds a unit (the slowest call at the
 * limit: docs/SPEC.md), and the page's widest range, dim 1024 from 0 to 65536,
 * must fit. */
#define ROPE_MAX_ENVELOPE_WORK 134217728
/* The units one envelope start costs whatever d: its sweep row and its bin's
 * extremes take what 16 dimensions do (measured, docs/SPEC.md), so d = 0 or 1
 * cannot sweep 2^27 starts. */
#define ROPE_ENVELOPE_START_WORK 16

#define ROPE_OK 0
#define ROPE_E_DIM (-1)      /* d or a vector length outside [0, ROPE_MAX_DIM]; report's d < 2 */
#define ROPE_E_BASE (-2)     /* base NaN, infinite or <= 1 (the pairs would no longer slow down) */
#define ROPE_E_POSITION (-3) /* a position, offset, gap, delta or angle is NaN or infinite */
#define ROPE_E_VALUE (-4)    /* a vector entry is NaN or infinite */
#define ROPE_E_LENGTH (-5)   /* two vectors that must match in length do not */
#define ROPE_E_COUNT (-6)    /* a count is negative or above ROPE_MAX_COUNT */
#define ROPE_E_NULL (-7)     /* a required pointer is NULL */
#define ROPE_E_RANGE (-8)    /* inputs valid, but a result overflowed to Inf or NaN */
#define ROPE_E_SPACE (-9)    /* the output buffer is too small */
#define ROPE_E_NOMEM (-10)   /* memory for a temporary could not be allocated */
#define ROPE_E_FAR (-11)     /* an angle |position| x theta_max exceeds ROPE_MAX_ANGLE */
#define ROPE_E_WORK (-12)    /* one call's work (d x count) exceeds ROPE_MAX_WORK */
#define ROPE_E_SCALING (-13) /* a scaling parameter is missing or out of range */
#define ROPE_E_CONFIG (-14)  /* a model config key is missing, mistyped or inconsistent */

/* Text for a ROPE_E_* code (a static string; never NULL). */
const char *rope_strerror(int code);

/* ---- The limits, checked in one place (core/check.c) for the core, the CLI
 * and the page alike: each returns ROPE_OK or the code whose rope_strerror
 * says why. ---- */

/* d in [0, ROPE_MAX_DIM], else ROPE_E_DIM. */
int rope_check_dim(int d);
/* base finite and > 1, else ROPE_E_BASE: theta_i = base^(-2i/d) must fall as
 * i grows, or no pair would be slower than another. */
int rope_check_base(double base);
/* A position something is rotated by, with a base that passed rope_check_base:
 * ROPE_E_POSITION when not finite, ROPE_E_FAR when its largest angle
 * |pos| x theta_max (theta_max = theta_0 = 1 for base > 1) exceeds ROPE_MAX_ANGLE. */
int rope_check_rotating(double pos, double base);
/* ROPE_E_WORK when d x count exceeds ROPE_MAX_WORK (both already in range). */
int rope_check_work(int d, int count);
/* ROPE_E_WORK when (d + ROPE_ENVELOPE_START_WORK) x starts, rope_offset_envelope's
 * work, exceeds ROPE_MAX_ENVELOPE_WORK (d already in range). */
int rope_check_envelope_work(int d, double starts);

/* The demo vectors q[j] = cos(0.7 j + 0.3), k[j] = sin(0.4 j + 1.1).
 * out: q and k, d doubles each (NULL allowed when d is 0). */
int rope_demo_vectors(int d, double *q, double *k);

/* Sum of a[j] * b[j], in index order. na must equal nb. out: 1 double, never NULL. */
int rope_dot(const double *a, int na, const double *b, int nb, double *out);

/* Euclidean norm of a (sqrt of the sum of squares, in index order).
 * out: 1 double, never NULL. */
int rope_norm(const double *a, int n, double *out);

/* theta_i = base^(-2 i / d) for i < d / 2: one frequency per pair, in
 * radians per position. out: d / 2 doubles (NULL allowed when d < 2). */
int rope_thetas(int d, double base, double *out);

/* Counterclockwise rotation of (x0, x1) by angle radians (any finite angle:
 * an angle is not a position). out: 2 doubles, never NULL. */
int rope_rotate_pair(double x0, double x1, double angle, double *out);

/* Pair (vec[2i], vec[2i+1]) rotated by pos * theta_i; an odd last element is
 * copied unchanged. out: d doubles (NULL allowed when d is 0); out may not
 * alias vec. */
int rope_apply_rope(const double *vec, int d, double pos, double base, double *out);

/* dot(apply_rope(q, m), apply_rope(k, n)), computed without temporaries.
 * out: 1 double, never NULL. */
int rope_score(const double *q, int nq, const double *k, int nk, double m, double n, double base,
               double *out);

/* Sinusoidal position vector: element j is sin(pos / base^(2 (j / 2) / d)) for
 * even j and cos of the same angle for odd j. out: d doubles (NULL allowed
 * when d is 0). */
int rope_sin_pos(double pos, int d, double base, double *out);

/* dot(q + sin_pos(m), k + sin_pos(n)): the position is added to both sides.
 * out: 1 double, never NULL. */
int rope_add_score(const double *q, int nq, const double *k, int nk, double m, double n,
                   double base, double *out);

/* For each starts[s]: (start, rope_score(q, k, start + offset, start),
 * add_score(q, k, start + offset, start)), bit-identical to those calls.
 * out: 3 * count doubles, row-major (NULL allowed when count is 0). */
int rope_offset_scan(const double *q, int nq, const double *k, int nk, double offset,
                     const double *starts, int count, double base, double *out);

/* delta * theta_i / (2 pi): turns pair i makes over a gap of delta. Nothing
 * is rotated, so any finite delta is accepted.
 * out: d / 2 doubles (NULL allowed when d < 2). */
int rope_turns(int d, double delta, double base, double *out);

/* How many pairs make less than one full turn over a gap of delta (any
 * finite delta). out: 1 int, never NULL. */
int rope_slow_pairs(int d, double delta, double base, int *out);

/* ---- Batch entry points: one call fills one chart. ---- */

/* gap * theta_i, the rotation angle of every pair over a gap, in radians.
 * out: d / 2 doubles (NULL allowed when d < 2). */
int rope_pair_angles(int d, double gap, double base, double *out);

/* offset_scan over the evenly spaced starts start0 + j * step, j < count, for
 * the dense flatness chart. Each angle is an exactly computed block anchor
 * joined to an exactly computed in-block step by one complex product, so the
 * inner loop needs no trigonometry and errors stay ~1e-15, far inside
 * docs/SPEC.md's tolerance. out: 3 * count doubles, planar (unlike
 * offset_scan): count starts, then count rope scores, then count additive
 * (NULL allowed when count is 0). */
int rope_offset_sweep(const double *q, int nq, const double *k, int nk, double offset,
                      double start0, double step, int count, double base, double *out);

/* slow_pairs(d, deltas[j], base) for each delta.
 * out: count ints (NULL allowed when count is 0). */
int rope_slow_pairs_batch(int d, const double *deltas, int count, double base, int *out);

/* |norm(apply_rope(vec, positions[j])) - norm(vec)| for each position.
 * out: count doubles (NULL allowed when count is 0). */
int rope_norm_gaps(const double *vec, int d, const double *positions, int count, double base,
                   double *out);

/* ---- The number grammar of every layer (docs/SPEC.md, "Numbers and lists"). ---- */

/* Whether text is in the plain-decimal grammar [+-]digits[.digits][(e|E)[+-]digits]
 * with nothing around it: 1 if it is and a mantissa digit is nonzero, 0 if it
 * is and every mantissa digit is 0, ROPE_E_VALUE if it is not (ROPE_E_NULL for
 * NULL). A caller converting the text itself must refuse a result that is not
 * finite, and a 0 where this returned 1 (underflow), as rope_parse_decimal does. */
int rope_decimal_form(const char *text);

/* text as a plain decimal: [+-]digits[.digits][(e|E)[+-]digits], nothing
 * around it (no spaces, hex, inf or nan). ROPE_E_VALUE if text is not in that
 * form, ROPE_E_RANGE if it overflows or a nonzero value underflows to 0.
 * text and out never NULL (ROPE_E_NULL); out: 1 double. */
int rope_parse_decimal(const char *text, double *out);

/* text as an integer: [+-]digits only. ROPE_E_VALUE if not in that form,
 * ROPE_E_RANGE if outside int. out: 1 int, never NULL. */
int rope_parse_int(const char *text, int *out);

#endif /* ROPE_H */
