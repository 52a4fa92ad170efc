/*
 * `ropescope verify` (docs/VERIFY.md): reads a dumped inv_freq or cos/sin
 * table, computes what the config says it must hold at the dump's own
 * precision, and names the known mistakes that explain a difference.
 * Readers fill a rope_table (values as doubles, the stored dtype kept);
 * a reader that refuses a file writes one line (without the file name) into
 * msg. Tables own their values: free them with rope_table_free.
 */
#ifndef ROPE_VERIFY_H
#define ROPE_VERIFY_H

#include <stddef.h>

#include "port/port.h"
#include "scaling/config.h"

/* Stored dtypes are port.h's ROPE_DT_*. Text files are F32 when every value
 * is an exact float32. */

/* Hard limits, from what the largest accepted dump needs (docs/VERIFY.md, "Limits"): one
 * table's values; an npy or safetensors header's bytes; a binary file's bytes (two float64
 * tables at the value limit and their headers); a text dump's (a 131,072 x 128 float32 table
 * at up to 16 bytes a value, %.9g with a sign, an exponent and a separator; a pair of such files
 * is read and checked in under 2 s, where two of 416 MiB took 2.5 to 3.2 s); a JSON dump's (what
 * jansson parses in 2 s and 1 GB). A file is refused by its size before it is parsed. */
#define ROPE_VERIFY_MAX_VALUES (1L << 25)
#define ROPE_VERIFY_MAX_HEADER (1L << 20)
#define ROPE_VERIFY_MAX_BINARY ((1L << 29) + (1L << 21))
#define ROPE_VERIFY_MAX_TEXT (256L << 20)
#define ROPE_VERIFY_MAX_JSON (16L << 20)
#define ROPE_VERIFY_MSG 512

typedef struct {
    int dtype;        /* ROPE_DT_* as stored */
    int ndim;         /* 1 or 2 after leading 1s are dropped */
    long rows, width; /* a 1-D table has rows 1 */
    double *v;        /* rows * width values, row-major, malloc'd: float64 files and text */
    float *f;         /* the same for float32/16 and bfloat16 files, and text of float32 values
                         (exact, half the memory) */
    long bad_row;     /* a 2-D table refused for a NaN or infinite value: that value's row (its
                         position is known only with --positions), else -1 */
    int borrowed;     /* 1: f or v points into the buffer read (little-endian float32 or float64
                         data, used in place): that buffer must outlive the table */
    int complex;      /* 1: each row holds (re, im) pairs, columns 2i and 2i + 1: a complex
                         array (npy <c8, safetensors C64) or a trailing dimension of 2 kept as
                         a complex array's real view (Meta's freqs_cis) */
} rope_table;

/* Value k of a table (row-major). */
static inline double rope_table_at(const rope_table *t, size_t k)
{
    return t->f ? (double)t->f[k] : t->v[k];
}

/* What a reader looks for: the wanted names in order ("cos", "cos_cached"). found (NULL: not
 * asked) gets the index of the name the tensor was found by, or -1 when it was the only one. */
typedef struct {
    const char *const *names;
    int n_names;
    int *found;
} rope_table_want;

void rope_table_free(rope_table *t);
const char *rope_dtype_name(int dtype);

/* Maps a whole regular file read-only, refused by its size when past its format's limit
 * (the ROPE_VERIFY_MAX_* above); an empty file gives *buf NULL, *len 0. Release it with
 * rope_verify_unslurp. */
int rope_verify_slurp(const char *path, unsigned char **buf, size_t *len, char *msg);
void rope_verify_unslurp(unsigned char *buf, size_t len);

/* Any supported file in memory: .npy, uncompressed .npz, safetensors, JSON
 * or CSV/whitespace text, told apart by their first bytes. want picks the
 * tensor in files that hold several. 0, or ROPE_E_VALUE / ROPE_E_NOMEM with
 * msg filled (ROPE_VERIFY_MSG bytes). */
int rope_table_read(const unsigned char *buf, size_t len, const rope_table_want *want,
                    rope_table *t, char *msg);

/* The format readers under rope_table_read. npy: one array at buf. */
int rope_npy_read(const unsigned char *buf, size_t len, rope_table *t, char *msg);
int rope_npz_read(const unsigned char *buf, size_t len, const rope_table_want *want, rope_table *t,
                  char *msg);
int rope_safetensors_read(const unsigned char *buf, size_t len, const rope_table_want *want,
                          rope_table *t, char *msg);
int rope_text_read(const unsigned char *buf, size_t len, const rope_table_want *want, rope_table *t,
                   char *msg);

/* Shared by the readers: which of names (count n) wanted; exact name first,
 * then the last dotted part, then the only one. Returns the index, -1 for
 * none (msg says so), -2 for several (msg lists them). */
int rope_table_pick(const char *const *names, int n, const rope_table_want *want, char *msg);

/* Where a text dump's text begins: after a UTF-8 byte order mark, if any. */
size_t rope_text_start(const unsigned char *buf, size_t len);

/* Sets t's ndim, rows and width from shape (the rules of rope_table_fill) and *n its values.
 * Three dimensions above 1 whose last is 2 are a complex array's real view: t->complex, and
 * width twice the pairs. */
int rope_table_shape(rope_table *t, const long long *shape, int ndim, int fortran, size_t *n,
                     char *msg);

/* Fills t from shape (long long: a file may claim dimensions past a 32-bit
 * long; 1s dropped while more than 2 dims remain, at most 2 left) and n values
 * of dtype dt at raw (little-endian) with elem bytes each; fortran: column-
 * major 2-D. Refuses NaN/infinity. */
int rope_table_fill(rope_table *t, const long long *shape, int ndim, int dt,
                    const unsigned char *raw, size_t raw_len, int fortran, char *msg);

/* How the dump was computed, as a model: the per-pair inv_freq theta (n
 * doubles, owned by the caller), the precision of the angles, the amplitude,
 * the position offset, the sign of sin and the layout. */
typedef struct {
    const double *theta;
    int n;
    int angle_dtype; /* F64 or F32: the native path; F16/BF16 emulate low precision */
    int theta_only;  /* 1: only theta is rounded to angle_dtype, the product is native */
    int native;      /* the dump's native angle dtype (F64 or F32) */
    double amp, offset;
    int sign, layout;
} rope_model;

/* Which computation a table is held to (docs/VERIFY.md, "Tolerance"):
 * transformers' (theta by pow, the angle one product p x theta), or a
 * recurrence of float32 products (llama.cpp's theta *= theta_scale), whose
 * error grows with the pair index. */
#define ROPE_PROFILE_TRANSFORMERS 0
#define ROPE_PROFILE_RECURRENCE 1

/* The dump as checked: inv_freq (cos NULL) or cos and sin of one shape. */
typedef struct {
    const rope_table *inv, *cos, *sin;
    int dtype;   /* the stored dtype (cos's for a table) */
    double from; /* row r holds position from + r */
    int profile; /* ROPE_PROFILE_*: the computation the tolerance follows */
} rope_dump;

typedef struct {
    double max_abs, max_rel, worst_ratio; /* worst |error| / tolerance */
    long worst_row, n_over, n_values;
    int worst_pair;
    double max_angle_error; /* |model angle - exact angle|, for low_precision */
} rope_verify_err;

/* Compares the dump with the model on rows[0..n_rows) (NULL: every row).
 * The tolerance is docs/VERIFY.md's, from the dump's dtype. */
int rope_verify_eval(const rope_dump *d, const rope_model *m, const long *rows, long n_rows,
                     rope_verify_err *out);
/* The same, returning at the first value over its tolerance (n_over 1, worst_row its row):
 * whether the model fits, without the errors' whole account. */
int rope_verify_eval_until(const rope_dump *d, const rope_model *m, const long *rows, long n_rows,
                           rope_verify_err *out);
/* The same, and each pair's worst |error| / tolerance in pair_worst (m->n
 * doubles; NULL: not wanted), for the page's per-pair chart. */
int rope_verify_eval_pairs(const rope_dump *d, const rope_model *m, const long *rows, long n_rows,
                           double *pair_worst, rope_verify_err *out);

/* The attention score's error the table causes (docs/VERIFY.md, "Attention score"): the key
 * at the table's first row, the query at each row r (gap r); for each pair, the table's map
 * x' = x cos_a - y sin_a, y' = y cos_b + x sin_b against the exact rotation by A (p theta_i)
 * in float64, the score's error for the worst unit q and k being the largest singular value
 * of T_r^T T_0 - R_r^T R_0. Its largest over rows and pairs, with that gap and pair. */
typedef struct {
    double error; /* NaN when not computed (an inv_freq dump, a table not compared) */
    long gap;
    int pair;
} rope_verify_score;

int rope_verify_score_of(const rope_dump *d, const double *theta, int n, double amp, int layout,
                         rope_verify_score *out);

/* One value's tolerance (docs/VERIFY.md, "Tolerance"), as the comparison uses it: for a table
 * (is_table), cos or sin of pair i at position p, inverse frequency theta, amplitude amp,
 * absolute; for inv_freq, absolute around theta (p and amp unused). */
double rope_verify_value_tolerance(int dtype, int profile, int is_table, long i, double theta,
                                   double p, double amp);

/* The tolerance rule in words, for the output: for a table, under the
 * profile, with A (the attention factor) other than 1 when scaled. */
const char *rope_verify_tolerance_text(int dtype, int is_table, int profile, int scaled);

/* The dump forms that hold one value per pair (docs/VERIFY.md, "Forms"): a cos and a sin
 * table of one column per pair; Meta's freqs_cis (complex, or its real view); vLLM's
 * cos_sin_cache (cos | sin halves); GPT-J's embed_positions (sin | cos halves). */
enum {
    ROPE_FORM_TABLE, /* two columns per pair, in a layout */
    ROPE_FORM_PAIRS,
    ROPE_FORM_FREQS_CIS,
    ROPE_FORM_COS_SIN_CACHE,
    ROPE_FORM_EMBED_POSITIONS
};
const char *rope_verify_form_name(int form);

/* One tensor of a per-pair form into its cos and sin halves, one column per pair (new tables
 * of src's dtype, malloc'd). ROPE_E_VALUE with msg when its width cannot be split. */
int rope_verify_split(const rope_table *src, int form, rope_table *cos, rope_table *sin, char *msg);
/* A table of one column per pair widened in place to two columns per pair in layout. */
int rope_verify_widen(rope_table *t, int layout);

/* The layout the cos table's duplicate columns show, or ROPE_LAYOUT_UNKNOWN. */
int rope_verify_layout(const rope_table *cos);

/* The layout of the checkpoint's q/k rows, as the config reader decides it
 * (rope_interleave, the model class: docs/SCALING.md). */
int rope_verify_checkpoint_layout(const rope_config *c);
/* In words, what a table in layout table (ROPE_LAYOUT_UNKNOWN: its values
 * are the same in both) asks of q and k; into buf (cap bytes). held (NULL: from table) says
 * what the table holds, for a form of one value per pair. */
void rope_verify_layout_needs(const rope_config *c, int table, const char *held, char *buf,
                              size_t cap);
/* The fix for a table in the other layout than the user's code applies
 * (apply): layout_interleaved's or layout_half's message. */
void rope_verify_layout_fix(const rope_config *c, int apply, char *buf, size_t cap);

#define ROPE_DIAG_MAX 8
typedef struct {
    const char *code;
    char message[ROPE_VERIFY_MSG];
} rope_diagnosis;

/* Tests the known mistakes against a mismatching dump (c resolved). Fills
 * diag (ROPE_DIAG_MAX entries), *n: the codes of the simplest explanations
 * that fit, or one `unexplained`. layout: the table's (rope_verify_layout's,
 * or the one it was compared in when its columns show none); apply: how the
 * user's code applies the table (--apply), ROPE_LAYOUT_UNKNOWN when not
 * said: then either layout is right and none is a mistake. */
int rope_verify_diagnose(const rope_config *c, const rope_dump *d, int layout, int apply,
                         rope_diagnosis *diag, int *n);

#endif /* ROPE_VERIFY_H */
