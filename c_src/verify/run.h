/*
 * One `ropescope verify` run in steps, on files the caller reads (docs/VERIFY.md):
 * the CLI reads them from disk (c_src/cli/verify.c), the page from what the user
 * dropped (c_src/verify/page.c). Both take the same steps in the same order, so
 * they refuse the same input with the same words and print the same result.
 *
 * Each step returns ROPE_VERIFY_GOOD (go on), ROPE_VERIFY_MISMATCH (the
 * check's verdict), ROPE_VERIFY_REFUSED (bad input) or ROPE_VERIFY_FAILED
 * (out of memory); the last two leave one line in job->msg, or NULL when the
 * caller's reader has already said why.
 */
#ifndef ROPE_VERIFY_RUN_H
#define ROPE_VERIFY_RUN_H

#include <stddef.h>

#include "report/writer.h"
#include "scaling/config.h"
#include "verify/verify.h"

#define ROPE_VERIFY_GOOD 0
#define ROPE_VERIFY_MISMATCH 1
#define ROPE_VERIFY_REFUSED 2
#define ROPE_VERIFY_FAILED 3

/* The dump files a run takes, indexed by role, under the CLI's flag names: --inv-freq, --cos,
 * --sin, --cache, --cos-sin-cache (vLLM's), --embed-positions (GPT-J's). */
enum {
    ROPE_VERIFY_INV,
    ROPE_VERIFY_COS,
    ROPE_VERIFY_SIN,
    ROPE_VERIFY_CACHE,
    ROPE_VERIFY_COS_SIN_CACHE,
    ROPE_VERIFY_EMBED_POSITIONS,
    ROPE_VERIFY_ROLES
};

/* Gives the bytes of the file named name: ROPE_OK, or a ROPE_E_* code with
 * msg (ROPE_VERIFY_MSG bytes) saying why, without the name. release gets the
 * bytes back once no table uses them. */
typedef struct {
    int (*read)(void *ctx, const char *name, unsigned char **buf, size_t *len, char *msg);
    void (*release)(void *ctx, unsigned char *buf, size_t len);
    void *ctx;
} rope_verify_io;

struct rope_verify_against;

typedef struct {
    rope_verify_io io;
    unsigned char *map[2]; /* the files read, kept while a table uses one in place */
    size_t map_len[2];
    int n_maps;
    rope_config *c;
    rope_table inv, cos, sin;
    rope_dump dump;
    const char *cos_file, *sin_file;
    const char *one_flag; /* a per-pair form held in one file: its flag, else NULL */
    int form;             /* ROPE_FORM_*: how the dump holds its values (verify.h) */
    long bad_row; /* a table refused for a NaN at this row: the refusal waits for --positions to
                     name its position, -1 none */
    double *theta;
    double *pair_worst; /* each pair's worst |error| / tolerance, when compared */
    int json, layout_found;
    int apply; /* --apply: how the user's code applies the table; ROPE_LAYOUT_UNKNOWN: not said */
    int layout_used;                    /* the layout the table was compared in */
    char layout_needs[ROPE_VERIFY_MSG]; /* what the table asks of q and k */
    int compared, match, n_diag;
    double af;
    const char *layer_type; /* --layer-type's table ("sliding_attention"), NULL for the main one */
    rope_verify_err err;
    rope_verify_score score; /* the attention score's error the table causes (error NaN: none) */
    rope_diagnosis diag[ROPE_DIAG_MAX];
    char *msg;           /* the refusal, malloc'd (or a static out-of-memory line) */
    int against_side;    /* 1: this run reads the reference of --against: refusals name --against */
    const char *flag_as; /* refusals name this flag for every dump file (--checkpoint), or NULL */
    const struct rope_verify_against *against; /* with --against: the reference and the two
                                                  dumps' comparison, printed with the result */
} rope_verify_job;

/* `verify --against` (docs/VERIFY.md, "Two dumps"): the reference's own run against the same
 * config (given, or inferred from the reference), and the two dumps compared value by value. */
typedef struct rope_verify_against {
    const char *file, *sin_file;      /* --against, --against-sin (NULL: not given) */
    const rope_verify_job *ref;       /* the reference's run */
    int inferred;                     /* 1: the config was inferred from the reference */
    int inferred_dim;                 /* its rotary dim (the reference's width) */
    double inferred_base;             /* its rope_theta (fitted to the reference's frequencies) */
    int direct;                       /* 1: the dumps were compared value by value */
    char direct_why[ROPE_VERIFY_MSG]; /* why not, when not */
    rope_verify_err err;              /* that comparison: tolerance the sum of both sides' */
} rope_verify_against;

/* Zeroes job and allocates its config reader; json picks the output format. */
int rope_verify_start(rope_verify_job *job, const rope_verify_io *io, int json);
/* --apply rotate_half|interleaved and --profile transformers|recurrence, as
 * given (NULL: not given). */
int rope_verify_options(rope_verify_job *job, const char *apply, const char *profile);
/* The dump: names[role] as given (NULL: not given). A table refused for a NaN or infinite
 * value is GOOD here and refused by rope_verify_positions, which names the value's position. */
int rope_verify_load(rope_verify_job *job, const char *const names[ROPE_VERIFY_ROLES]);
/* --positions FROM:COUNT (NULL: not given). */
int rope_verify_positions(rope_verify_job *job, const char *text);
/* The config's text (len bytes, NUL after them) from the file name; seq_text
 * and seq: --seq-len as given and its value (seq_text NULL: not given);
 * layer: --layer-type (NULL: not given). */
int rope_verify_configure(rope_verify_job *job, const char *name, const char *text, size_t len,
                          const char *seq_text, double seq, const char *layer);
/* The reference of --against: file as one file (a 1-D array or a tensor named inv_freq read
 * as --inv-freq, else as --cache), or as form names it (inv_freq, cache, cos_sin_cache,
 * embed_positions), or, with sin_file, as --cos and --sin. Refusals name --against. */
int rope_verify_load_against(rope_verify_job *job, const char *file, const char *sin_file,
                             const char *form);
/* The rope_theta candidates (roundest first, *n of at most 5) of a default RoPE over the
 * loaded reference's pairs, fitted to the frequencies its values show; *dim its rotary dim.
 * REFUSED with msg (ROPE_VERIFY_MSG bytes, without the file) when it shows none. */
int rope_verify_infer(const rope_verify_job *ref, double *bases, int *n, int *dim, char *msg);
/* The --against block of the result, after the dump's (job->against set). */
/* The diagnoses diag[0..n) as JSON objects {"code", "message"}, the first after `first`, each
 * other after `next` (the job's, the reference's and a checkpoint line's lists). */
void rope_verify_put_diagnoses(rope_writer *w, const rope_diagnosis *diag, int n, const char *first,
                               const char *next);
void rope_verify_against_text(const rope_verify_job *job, rope_writer *w);
void rope_verify_against_json(const rope_verify_job *job, rope_writer *w);
/* The two dumps value by value, once both were checked against one config: each value within
 * the sum of both sides' tolerances (a->err); a->direct 0 with a->direct_why when they cannot
 * be (kinds, widths or rows differ). */
int rope_verify_compare_against(const rope_verify_job *job, rope_verify_against *a);
/* The check and, on a mismatch, the diagnosis: GOOD for a match. */
int rope_verify_check(rope_verify_job *job);
/* The result as text or JSON, snprintf-like (rope_cli_writer's shape): ROPE_OK,
 * or ROPE_E_SPACE with *len the length needed. */
int rope_verify_write(void *job, char *buf, int cap, int *len);
void rope_verify_end(rope_verify_job *job);

/* `verify --checkpoint DIR` (docs/VERIFY.md, "A checkpoint"): the RoPE buffers stored in a
 * folder's *.safetensors files (a tensor whose name ends in inv_freq, cos_cached or sin_cached),
 * found from each file's header; only those tensors' bytes are read. */
#define ROPE_CHECKPOINT_MAX 4096
typedef struct {
    char *file, *name;    /* the file in the folder, the tensor's name */
    char *label;          /* "file:name": the name its run reads it by */
    int role;             /* ROPE_VERIFY_INV, _COS or _SIN */
    unsigned char *bytes; /* the tensor alone as a safetensors file (len bytes) */
    size_t len;
} rope_checkpoint_buffer;

/* One line of the result: a buffer (an inv_freq, or a cos with its sin) and its check. */
typedef struct {
    int first, second; /* the buffers: inv_freq or cos; its sin, or -1 */
    int match, compared, table, dtype;
    double worst_ratio;
    long n_over, n_values;
    int n_diag;
    rope_diagnosis diag[ROPE_DIAG_MAX];
} rope_checkpoint_line;

typedef struct {
    rope_checkpoint_buffer *b; /* in file order, then header order */
    int n, files;              /* buffers found; *.safetensors files read */
    rope_checkpoint_line *lines;
    int n_lines, json;
    const char *dir;
    char config[ROPE_VERIFY_MSG]; /* the config as the checks read it, in words */
    char *warnings[16];           /* the config reader's, malloc'd */
    int n_warnings;
} rope_checkpoint;

/* Every *.safetensors file of dir, in name order: ROPE_OK, or ROPE_E_VALUE / ROPE_E_NOMEM with
 * msg (ROPE_VERIFY_MSG bytes, naming the file). Free with rope_checkpoint_free. */
int rope_checkpoint_scan(const char *dir, rope_checkpoint *cp, char *msg);
/* Checks every buffer found against the config's text (the name for messages), with --apply
 * and --profile as given: GOOD (all match, or none stored), MISMATCH, or REFUSED / FAILED with
 * msg, a whole line naming --checkpoint and the tensor. cp->dir must be set. */
int rope_checkpoint_check(rope_checkpoint *cp, const char *name, const char *text, size_t len,
                          const char *apply, const char *profile, char *msg);
/* The result, one line per buffer, as text or JSON (cp->json), snprintf-like. */
int rope_checkpoint_write(void *cp, char *buf, int cap, int *len);
void rope_checkpoint_free(rope_checkpoint *cp);

#endif /* ROPE_VERIFY_RUN_H */
