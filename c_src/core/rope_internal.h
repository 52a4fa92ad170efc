/*
 * What the core's sources share: the argument checks of check.c, each
 * returning ROPE_OK or the ROPE_E_* code of the first argument that fails (in
 * the order the arguments are listed), and the two frequencies of
 * docs/SPEC.md. Not part of the public API.
 */
#ifndef ROPE_INTERNAL_H
#define ROPE_INTERNAL_H

#define ROPE_TWO_PI 6.283185307179586476925286766559

/* For the `rotated` arguments below: a position only checked to be finite
 * (ROPE_E_POSITION), or one something is rotated by, whose largest angle
 * |p| x theta_max must also lie within ROPE_MAX_ANGLE (ROPE_E_FAR). Rotating
 * positions are checked for finiteness in argument order, then the base, then
 * their angles, since an angle needs a valid base. */
#define ROPE_AT_FINITE 0
#define ROPE_AT_ROTATED 1

int rope_check_count(int count);
int rope_check_position(double pos);
/* The largest angle |pos| x theta_max within ROPE_MAX_ANGLE: the one far check,
 * which rope_check_rotating and the explicit-theta functions share. */
int rope_check_angle(double pos, double theta_max);
/* theta_0 = 1, the largest theta of every base > 1 (INFINITY otherwise, so
 * that nothing passes with a base that should have been refused). */
double rope_theta_max(double base);
/* count finite positions (count in [0, ROPE_MAX_COUNT]) */
int rope_check_positions(const double *pos, int count);
/* Each of count positions (already checked finite) rotated at base. */
int rope_check_rotating_positions(const double *pos, int count, double base);
/* n finite entries, n in [0, ROPE_MAX_DIM] */
int rope_check_vector(const double *v, int n);
int rope_check_pair_of_vectors(const double *q, int nq, const double *k, int nk);

/* The argument lists the entry points share, checked in their order. */
/* d, one position, base: the per-pair functions. */
int rope_check_pairs_args(int d, double pos, int rotated, double base);
/* d, count positions, base: the per-pair functions over many positions. */
int rope_check_batch_args(int d, const double *pos, int count, int rotated, double base);
/* q and k, then each of n_pos positions finite, base, then each rotated. */
int rope_check_vectors_at(const double *q, int nq, const double *k, int nk, const double *pos,
                          int n_pos, double base);
/* q and k, positions m and n, base, then out: rope_score's arguments. */
int rope_check_score_args(const double *q, int nq, const double *k, int nk, double m, double n,
                          double base, const double *out);
/* q and k, a finite offset, count finite starts, base, the starts rotated
 * when `rotated`, then the work nq x count. */
int rope_check_scan_args(const double *q, int nq, const double *k, int nk, double offset,
                         const double *starts, int count, int rotated, double base);
/* q and k, offset and start0 (finite), a finite step, count, base, then
 * offset and start0 rotated when `rotated`, then the work nq x count. */
int rope_check_sweep_args(const double *q, int nq, const double *k, int nk, double offset,
                          double start0, double step, int count, int rotated, double base);

/* ROPE_E_RANGE if any of out[0..n) overflowed to Inf or NaN */
int rope_check_results(const double *out, int n);

/* theta_i = base^(-2i/d): pair i's angle per position, in radians. */
double rope_theta(int i, int d, double base);
/* pos / base^(2 (j/2) / d): element j's angle in the sinusoidal position vector. */
double rope_sin_pos_angle(double pos, int j, int d, double base);

#endif /* ROPE_INTERNAL_H */
