/*
 * ropescope explainer figures: one batch call per figure, no allocation, the
 * caller owns every buffer. docs/EXPLAIN.md gives the formulas; rope.h's
 * conventions hold (0 or a negative ROPE_E_* code, nothing useful written on
 * failure). Every position, gap and distance is refused with ROPE_E_POSITION
 * when not finite and ROPE_E_FAR when its largest angle (|position| x theta_0,
 * theta_0 = 1; for rope_pair_example |position| x |theta|) exceeds ROPE_MAX_ANGLE.
 *
 * Sign conventions (rotation counterclockwise, as rope_rotate_pair):
 *   cross(q, k) = q0 k1 - q1 k0 for a pair;
 *   R(m t)^T R(n t) = R((n - m) t), so
 *   dot(R(m t) q, R(n t) k) = (q.k) cos((m - n) t) + cross(q, k) sin((m - n) t).
 * The gap r is always m - n: the query's position minus the key's, which is
 * the offset of rope_offset_scan.
 */
#ifndef ROPE_EXPLAIN_H
#define ROPE_EXPLAIN_H

#include <stdint.h>

/* ---- One pair, rotating (the worked 2-D example and the unit circle) ---- */

/* Slots of rope_pair_example's output. */
#define ROPE_EX_QM0 0      /* q rotated by m theta: x */
#define ROPE_EX_QM1 1      /* q rotated by m theta: y */
#define ROPE_EX_KN0 2      /* k rotated by n theta: x */
#define ROPE_EX_KN1 3      /* k rotated by n theta: y */
#define ROPE_EX_ANGLE_M 4  /* m theta, radians */
#define ROPE_EX_ANGLE_N 5  /* n theta, radians */
#define ROPE_EX_ANGLE_MN 6 /* (m - n) theta, radians */
#define ROPE_EX_DOT 7      /* q.k before rotation */
#define ROPE_EX_CROSS 8    /* q0 k1 - q1 k0 before rotation */
#define ROPE_EX_DIRECT 9   /* dot of the two rotated vectors */
#define ROPE_EX_FORMULA 10 /* (q.k) cos((m-n) theta) + cross sin((m-n) theta) */
#define ROPE_EX_LEN 11

/* The 2-D pair q = (q0, q1), k = (k0, k1) with query at m, key at n and an
 * explicit theta (radians per position; for pair i of a d-vector pass
 * rope_thetas(d, base)[i]). out: ROPE_EX_LEN doubles, slots above. */
int rope_pair_example(double q0, double q1, double k0, double k1, double m, double n, double theta,
                      double *out);

/* ---- The proof, per pair ---- */

/* Length of rope_pair_terms' output for dimension d. */
#define ROPE_PAIR_TERMS_LEN(d) (3 * ((d) / 2) + 2)

/* Each pair's share of rope_score at gap r = m - n. With h = d / 2, out:
 * ROPE_PAIR_TERMS_LEN(d) doubles, planar:
 *   [0, h)    term_i = dot_i cos(r theta_i) + cross_i sin(r theta_i)
 *   [h, 2h)   dot_i = q[2i] k[2i] + q[2i+1] k[2i+1]
 *   [2h, 3h)  cross_i = q[2i] k[2i+1] - q[2i+1] k[2i]
 *   [3h]      the sum of the terms, plus q[d-1] k[d-1] when d is odd
 *   [3h + 1]  rope_score(q, k, m, n, base), the rotated dot product
 * The last two agree to docs/SPEC.md's tolerance. */
int rope_pair_terms(const double *q, int nq, const double *k, int nk, double m, double n,
                    double base, double *out);

/* ---- Why the additive score wobbles ---- */

/* The four terms of add_score(q, k, m, n) with m = starts[j] + offset and
 * n = starts[j], P = rope_sin_pos. out: 5 * count doubles, planar:
 *   [0, c) q.k   [c, 2c) q.P[n]   [2c, 3c) P[m].k   [3c, 4c) P[m].P[n]
 *   [4c, 5c) add_score itself (the same sum rope_add_score computes).
 * Refuses d x count above ROPE_MAX_WORK with ROPE_E_WORK. */
int rope_add_terms(const double *q, int nq, const double *k, int nk, double offset,
                   const double *starts, int count, double base, double *out);

/* rope_add_terms over the evenly spaced starts start0 + j * step, j < count
 * (count in [0, ROPE_MAX_COUNT]), for a dense chart: each block of 64 starts
 * anchors its angles exactly and steps inside the block by one complex
 * product, about ten times faster, within ~1e-15 of rope_add_terms. Same
 * output layout (the total then agrees with add_score to the tolerance). */
int rope_add_terms_sweep(const double *q, int nq, const double *k, int nk, double offset,
                         double start0, double step, int count, double base, double *out);

/* ---- Long-range decay ---- */

/* For each distance r = distances[j], out: 3 * count doubles, planar:
 *   [0, c)   rope_score(q, k, r, 0): the given vectors at gap r;
 *   [c, 2c)  the mean of rope_score(v, v, r, 0) over `samples` random
 *            vectors v (rope_random_stream from seed, d draws each): a
 *            vector scored against its own content at gap r;
 *   [2c, 3c) RoFormer's relative upper bound (1 / h) sum_{j<h} |S_j| with
 *            S_j = sum_{i<=j} exp(1i r theta_i), h = d / 2 (0 when h = 0).
 * samples in [1, ROPE_MAX_COUNT]; refuses d x count and d x samples above
 * ROPE_MAX_WORK with ROPE_E_WORK. */
int rope_decay(const double *q, int nq, const double *k, int nk, const double *distances, int count,
               int samples, uint32_t seed, double base, double *out);

/* ---- Pair x position heatmap ---- */

/* cos(positions[p] theta_i) for i < d / 2 and p < count. out: (d / 2) * count
 * doubles, row-major by pair: out[i * count + p]. Refuses (d / 2) x count
 * above ROPE_MAX_WORK with ROPE_E_WORK. */
int rope_cos_grid(int d, const double *positions, int count, double base, double *out);

/* ---- Random vectors ---- */

/* n uniform doubles in [-1, 1) from a splitmix64 generator whose 64-bit state
 * starts at *state (advanced): each draw x gives (x >> 11) * 2^-52 - 1, exact
 * in doubles, so every build gives the same bits. out: n doubles. */
void rope_random_stream(uint64_t *state, double *out, int n);

/* q then k from one stream seeded with seed: q = the first d draws, k = the
 * next d. out: q and k, d doubles each. */
int rope_random_vectors(int d, uint32_t seed, double *q, double *k);

/* ---- Figure 1 without aliasing ---- */

/* Slots (blocks of `bins` doubles) of rope_offset_envelope's output. */
#define ROPE_ENV_FIRST 0 /* the bin's first start */
#define ROPE_ENV_LAST 1  /* the bin's last start */
#define ROPE_ENV_ROPE_MIN 2
#define ROPE_ENV_ROPE_MAX 3
#define ROPE_ENV_ADD_MIN 4
#define ROPE_ENV_ADD_MAX 5
#define ROPE_ENV_BLOCKS 6

/* Every integer start s with from <= s <= to (c of them, ceil(from) first)
 * goes to bin b = floor(j * bins / c), j its index, so every bin holds at
 * least one start and bins hold consecutive runs; per bin, the least and
 * greatest rope_score(q, k, s + offset, s) and add_score(q, k, s + offset, s).
 * bins in [1, min(c, ROPE_MAX_COUNT)] (else ROPE_E_COUNT); refuses
 * (d + ROPE_ENVELOPE_START_WORK) x c above ROPE_MAX_ENVELOPE_WORK with ROPE_E_WORK.
 * out: ROPE_ENV_BLOCKS * bins doubles, planar in the slot order above. */
int rope_offset_envelope(const double *q, int nq, const double *k, int nk, double offset,
                         double from, double to, int bins, double base, double *out);

#endif /* ROPE_EXPLAIN_H */
