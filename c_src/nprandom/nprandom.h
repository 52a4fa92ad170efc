/*
 * NumPy's default generator, bit for bit: np.random.default_rng(seed) is a
 * PCG64 (128-bit LCG, XSL-RR output) seeded through a SeedSequence, and
 * .normal() draws with NumPy's 256-layer ziggurat. docs/EXPLAIN.md ("NumPy's
 * random numbers") describes the three steps. It exists so that the blog's
 * random-token example (seed 42, 512 dimensions) can be rerun exactly, with
 * any seed. rope.h's conventions hold: the caller owns every buffer, 0 or a
 * negative ROPE_E_* code, nothing useful written on failure.
 */
#ifndef ROPE_NPRANDOM_H
#define ROPE_NPRANDOM_H

#include <stdint.h>

/* np.random.SeedSequence(seed).generate_state(4, np.uint64): the words that
 * seed PCG64 (state high, state low, increment high, increment low).
 * out: 4 uint64, never NULL (ROPE_E_NULL). */
int rope_np_seed_words(uint64_t seed, uint64_t *out);

/* np.random.PCG64(seed).random_raw(n): the generator's 64-bit outputs.
 * n in [0, ROPE_MAX_WORK] (ROPE_E_COUNT below, ROPE_E_WORK above).
 * out: n uint64 (NULL allowed when n is 0). */
int rope_np_raw(uint64_t seed, uint64_t *out, int n);

/* np.random.default_rng(seed).normal(size=n): n standard normal draws, the
 * same doubles NumPy gives (checked against Debian 12's NumPy 1.24).
 * n as for rope_np_raw. out: n doubles (NULL allowed when n is 0). */
int rope_np_normal(uint64_t seed, double *out, int n);

/* log1p(x) rounded as glibc's rounds it on x86-64 with FMA (NumPy's tail
 * draws call it there), for -1 < x <= 0 (else ROPE_E_VALUE): the same bits in
 * every build. out: 1 double, never NULL (ROPE_E_NULL). */
int rope_np_log1p(double x, double *out);

/* The blog's 512-dimension example: one token drawn as
 * default_rng(seed).normal(size=dim), scored against itself with the query at
 * m and the key at n (rope_score(token, token, m, n, base)). dim, m, n, base
 * are checked as rope_score checks them. out: token (dim doubles; NULL
 * allowed when dim is 0) and score (1 double, never NULL). */
int rope_planes_example(uint64_t seed, int dim, double base, double m, double n, double *token,
                        double *score);

#endif /* ROPE_NPRANDOM_H */
