/*
 * RoPE scaling for long context (docs/SCALING.md): what each method does to
 * every pair's inverse frequency, the attention factor it asks for, and which
 * angles each pair met in training. Pure math: no I/O, no allocation; the
 * caller owns every buffer. Functions return 0 or a negative ROPE_E_* code.
 */
#ifndef ROPE_SCALING_H
#define ROPE_SCALING_H

/* Methods. ROPE_SCALING_NTK (static NTK-aware) and ROPE_SCALING_BASE (a new
 * rope_theta with continued training) are not transformers rope_types.
 * ROPE_SCALING_PROPORTIONAL (Gemma 4) keeps the whole head's pairs, of which
 * the last `still` have frequency 0. */
#define ROPE_SCALING_DEFAULT 0
#define ROPE_SCALING_LINEAR 1
#define ROPE_SCALING_DYNAMIC 2
#define ROPE_SCALING_YARN 3
#define ROPE_SCALING_LONGROPE 4
#define ROPE_SCALING_LLAMA3 5
#define ROPE_SCALING_NTK 6
#define ROPE_SCALING_BASE 7
#define ROPE_SCALING_PROPORTIONAL 8
#define ROPE_SCALING_TYPES 9

/* A pair's band: kept (theta' = theta), ramped (between), divided
 * (theta' = theta / factor), only a ratio (base change, NTK, dynamic,
 * longrope), or still (frequency 0: the pair does not rotate). */
#define ROPE_BAND_KEEP 0
#define ROPE_BAND_RAMP 1
#define ROPE_BAND_DIVIDE 2
#define ROPE_BAND_RATIO 3
#define ROPE_BAND_STILL 4

/* Training-range status of a pair. */
#define ROPE_RANGE_COVERED 0 /* made a full turn in training: every angle seen */
#define ROPE_RANGE_INSIDE 1  /* the gap's angle lies inside the trained range */
#define ROPE_RANGE_UNSEEN 2  /* the gap's angle was never seen in training */

/* A resolved scaling description (the config reader fills one; callers may
 * too). Values a method does not use are ignored. */
typedef struct {
    int type;    /* ROPE_SCALING_* */
    int dim;     /* rotary dim d: even, 2..ROPE_MAX_DIM (0 gives no pairs) */
    int still;   /* PROPORTIONAL: the last `still` of the d/2 pairs do not rotate (< d/2); else 0 */
    double base; /* rope_theta, > 0 */
    double new_base;         /* BASE: the new rope_theta, > 0 */
    double factor;           /* LINEAR, DYNAMIC, YARN, LLAMA3, NTK, LONGROPE, PROPORTIONAL: > 0 */
    double attention_factor; /* YARN, LONGROPE: NaN when not given */
    double beta_fast, beta_slow;              /* YARN: > 0 */
    double mscale, mscale_all_dim;            /* YARN: 0 when not given */
    int truncate;                             /* YARN: floor/ceil the correction range */
    double low_freq_factor, high_freq_factor; /* LLAMA3: > 0 */
    double original_max;                      /* L0 (YARN, LONGROPE, LLAMA3), > 0 */
    double max_position;                      /* max_position_embeddings (DYNAMIC), > 0 */
    double seq_len; /* DYNAMIC, LONGROPE: current sequence length; 0 when none */
    const double *short_factor, *long_factor; /* LONGROPE: d / 2 doubles each, > 0 */
} rope_scaling;

/* Text name of a ROPE_SCALING_* type ("default", "linear", ..., "ntk",
 * "base_change"), or NULL for an unknown code. */
const char *rope_scaling_name(int type);

/* Text of a ROPE_BAND_* or ROPE_RANGE_* code ("keep", "ramp", "divide",
 * "ratio", "still"; "covered", "inside", "unseen"); "?" for an unknown code. */
const char *rope_band_name(int band);
const char *rope_range_name(int status);

/* YaRN's g(s, m) = 1 if s <= 1, else 0.1 m ln(s) + 1. */
double rope_yarn_mscale(double s, double m);

/* Per pair i < d/2: theta_i = base^(-2i/d) (inv_freq), theta'_i (scaled),
 * wavelength 2 pi / theta_i, ratio theta'_i / theta_i and band. A still pair
 * has theta_i = theta'_i = 0, wavelength +infinity and ratio NaN. Each out
 * holds d/2 entries and may be NULL when not wanted. ROPE_E_NULL if s is
 * NULL (or lists are NULL for LONGROPE), ROPE_E_DIM for an odd or
 * out-of-range d, ROPE_E_BASE for a bad base, ROPE_E_SCALING for a parameter
 * out of range, ROPE_E_RANGE if a result is not finite. */
int rope_scaling_pairs(const rope_scaling *s, double *inv_freq, double *inv_freq_scaled,
                       double *wavelength, double *ratio, int *band);

/* The whole-config figures: attention_factor (multiplies cos and sin) and the
 * softmax multiplier (DeepSeek's mscale_all_dim; 1 where none). Either out
 * may be NULL. Same codes as rope_scaling_pairs. */
int rope_scaling_factors(const rope_scaling *s, double *attention_factor,
                         double *softmax_multiplier);

/* YaRN's correction range as used (after truncation and clamping), or
 * ROPE_E_SCALING if s is not YARN. out: *lo, *hi. */
int rope_scaling_yarn_range(const rope_scaling *s, double *lo, double *hi);

/* The base the scaled thetas use: new_base (BASE), base * factor^(d/(d-2))
 * (NTK), the sequence-length one (DYNAMIC), else base. out: *base_used. */
int rope_scaling_base_used(const rope_scaling *s, double *base_used);

/* For a training length train_len > 0 and a gap >= 0, per pair: the angle
 * train_len * theta_i reached in training, the angle gap * theta'_i met at
 * the gap, and its ROPE_RANGE_* status. Outs of d/2 entries, each may be
 * NULL; counts: 3 ints (covered, inside, unseen), may be NULL. ROPE_E_POSITION
 * for a bad train_len or gap, else the codes of rope_scaling_pairs. */
int rope_scaling_range(const rope_scaling *s, double train_len, double gap, double *trained_angle,
                       double *gap_angle, int *status, int *counts);

#endif /* ROPE_SCALING_H */
