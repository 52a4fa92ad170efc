/*
 * What rope.c shares with rope_batch.c: argument checks that return ROPE_E_*
 * codes, and the two frequencies of docs/SPEC.md. Not part of the public API.
 */
#ifndef ROPE_INTERNAL_H
#define ROPE_INTERNAL_H

#define ROPE_TWO_PI 6.283185307179586476925286766559

int rope_check_dim(int d);
int rope_check_count(int count);
int rope_check_base(double base);
int rope_check_position(double pos);
/* A position something is rotated by: finite (ROPE_E_POSITION) and within
 * ROPE_MAX_POSITION (ROPE_E_FAR). */
int rope_check_rotating(double pos);
/* ROPE_E_WORK when d x count exceeds ROPE_MAX_WORK. */
int rope_check_work(int d, int count);
/* rope_check_positions, then each within ROPE_MAX_POSITION (ROPE_E_FAR). */
int rope_check_rotating_positions(const double *pos, int count);
/* count finite positions (count in [0, ROPE_MAX_COUNT]) */
int rope_check_positions(const double *pos, int count);
/* n finite entries, n in [0, ROPE_MAX_DIM] */
int rope_check_vector(const double *v, int n);
int rope_check_pair_of_vectors(const double *q, int nq, const double *k, int nk);
/* ROPE_E_RANGE if any of out[0..n) overflowed to Inf or NaN */
int rope_check_results(const double *out, int n);

/* theta_i = base^(-2i/d): pair i's angle per position, in radians. */
double rope_theta(int i, int d, double base);
/* pos / base^(2 (j/2) / d): element j's angle in the sinusoidal position vector. */
double rope_sin_pos_angle(double pos, int j, int d, double base);

#endif /* ROPE_INTERNAL_H */
