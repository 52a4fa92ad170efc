/*
 * The ropescope report (docs/SPEC.md, "The report"): the JSON and Markdown
 * texts for any settings, written into a caller-owned buffer. Nothing here
 * touches files, so the CLI and the page's download buttons share it.
 */
#ifndef ROPE_REPORT_H
#define ROPE_REPORT_H

#define ROPE_REPORT_JSON 0
#define ROPE_REPORT_MARKDOWN 1

/* The report's default settings (docs/SPEC.md, "The report"). */
#define ROPE_REPORT_DEFAULT_OFFSET 2.0
#define ROPE_REPORT_DEFAULT_STARTS 3, 10, 100, 4000
#define ROPE_REPORT_DEFAULT_DELTAS 1, 16, 256, 4096
#define ROPE_REPORT_DEFAULT_NORM_POSITIONS 0, 1, 7, 100, 4096
/* The report's smallest dimension: its last section tells which pairs stay
 * slow, and a dimension below 2 has no pair (the turns of pair 0 would be NaN). */
#define ROPE_REPORT_MIN_DIM 2

typedef struct {
    int dim; /* in [ROPE_REPORT_MIN_DIM, ROPE_MAX_DIM] */
    double base;
    double offset; /* the gap: query at start + offset, key at start */
    const double *starts;
    int n_starts; /* at least 1: the spreads need a score */
    const double *deltas;
    int n_deltas;
    const double *norm_positions;
    int n_norm_positions;
} rope_report_options;

/* Fill o with the default settings (the ROPE_REPORT_DEFAULT_* macros, dim
 * ROPE_DIM, base ROPE_THETA_BASE); its arrays point at static data the
 * caller must not free. o never NULL. */
void rope_report_defaults(rope_report_options *o);

/* dim in [ROPE_REPORT_MIN_DIM, ROPE_MAX_DIM], else ROPE_E_DIM. */
int rope_report_check_dim(int dim);

/* Write the report in format ROPE_REPORT_JSON or ROPE_REPORT_MARKDOWN.
 * The caller allocates buf: cap bytes, NUL-terminated on success; buf may be
 * NULL only when cap is 0 (a size query). o and len are never NULL. *len
 * receives the text's length (without the NUL) even when the return is
 * ROPE_E_SPACE, so a caller can retry with len + 1 bytes. The measurements
 * need temporaries it mallocs and frees itself: ROPE_E_NOMEM if that fails
 * (retrying with a bigger buffer will not help). Other negative codes are
 * those of rope.h. */
int rope_report_build(const rope_report_options *o, int format, char *buf, int cap, int *len);

/* Both texts from one measurement (the measuring is most of a report's time):
 * the JSON into json (json_cap bytes), the Markdown into md, each as
 * rope_report_build writes it. ROPE_E_SPACE when either does not fit, with
 * both lengths set. */
int rope_report_build_both(const rope_report_options *o, char *json, int json_cap, int *json_len,
                           char *md, int md_cap, int *md_len);

/* rope_report_build with the options spread out, for callers (WebAssembly)
 * that cannot pass a struct. */
int rope_report_write(int format, int dim, double base, double offset, const double *starts,
                      int n_starts, const double *deltas, int n_deltas,
                      const double *norm_positions, int n_norm_positions, char *buf, int cap,
                      int *len);

#endif /* ROPE_REPORT_H */
