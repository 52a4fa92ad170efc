/* The page's `ropescope verify` (web/src/verify/): the files the user dropped,
 * in memory, through run.c's steps in the CLI's order, so the page shows the
 * CLI's JSON and the CLI's one line for bad input. Built only into the verify
 * module (build/verify.wasm, c_src/verify_exports.txt). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rope.h"
#include "report/writer.h"
#include "verify/run.h"

/* The files by role: config first, then the dump's roles (run.h). */
enum { FILES = 1 + ROPE_VERIFY_ROLES };

typedef struct {
    const char *const *names;
    unsigned char *const *bufs;
    const int *lens;
} files;

/* A file is found by its name's pointer: two files may share a name. */
static int read_file(void *ctx, const char *name, unsigned char **buf, size_t *len, char *msg)
{
    const files *f = ctx;
    for (int k = 1; k < FILES; k++)
        if (f->names[k] == name) {
            *buf = f->bufs[k];
            *len = (size_t)f->lens[k];
            return ROPE_OK;
        }
    snprintf(msg, ROPE_VERIFY_MSG, "no such file");
    return ROPE_E_VALUE;
}

/* A malloc'd line, or NULL. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static char *
line_of(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = rope_vformat(fmt, ap);
    va_end(ap);
    return s;
}

/* --seq-len as the CLI's flag parser reads it (c_src/cli/args.c), in its words. */
static char *seq_problem(const char *text, double *seq)
{
    int rc = rope_parse_decimal(text, seq);
    if (rc == ROPE_OK) return NULL;
    if (rc == ROPE_E_RANGE)
        return line_of("--seq-len '%s' is outside what a double holds (it overflows, or a "
                       "nonzero value rounds to 0)",
                       text);
    return line_of("--seq-len must be a plain decimal number (like 2, -0.5 or 1e4; no spaces, hex, "
                   "inf or nan), got '%s'",
                   text);
}

static int steps(rope_verify_job *j, const files *f, const char *positions, const char *seq_text,
                 double seq, const char *layer)
{
    const char *const *n = f->names;
    int code = rope_verify_load(j, n + 1);
    if (code == ROPE_VERIFY_GOOD) code = rope_verify_positions(j, positions);
    if (code == ROPE_VERIFY_GOOD)
        code = rope_verify_configure(j, n[0], (const char *)f->bufs[0], (size_t)f->lens[0],
                                     seq_text, seq, layer);
    if (code == ROPE_VERIFY_GOOD) code = rope_verify_check(j);
    return code;
}

/* The refusal as the CLI prints it (rope_line_cut: one safe line, its middle cut when long). */
static char *refusal(char *msg)
{
    size_t head, tail;
    if (!rope_line_cut(msg, &head, &tail)) return line_of("%s", msg);
    return line_of("%.*s ... %s", (int)head, msg, msg + tail);
}

/* The JSON, written once more into a buffer that fits if the first was short. */
static char *result(rope_verify_job *j)
{
    int len = 0, cap = 4096;
    for (int attempt = 0; attempt < 2; attempt++) {
        char *buf = malloc((size_t)cap);
        if (!buf) return NULL;
        if (rope_verify_write(j, buf, cap, &len) == ROPE_OK) return buf;
        free(buf);
        cap = len + 1;
    }
    return NULL;
}

/* The config's warnings as the CLI prints them on stderr, a line each; NULL for none. */
static char *warnings_of(const rope_config *c)
{
    static const char line[] = "ropescope: warning: %s\n";
    int n = rope_config_warning_count(c);
    rope_writer w = {NULL, 0, 0};
    for (int k = 0; k < n; k++) rope_put(&w, line, rope_config_warning(c, k));
    char *text = w.len ? malloc(w.len + 1) : NULL;
    if (!text) return NULL;
    w = (rope_writer){text, w.len + 1, 0};
    for (int k = 0; k < n; k++) rope_put(&w, line, rope_config_warning(c, k));
    return text;
}

/* names[0..FILES), bufs and lens: the config (its text NUL-terminated) and the dump's files
 * by role (a NULL name: not given). positions, seq_len, layer_type: as typed (NULL: empty;
 * layer_type is --layer-type's name). Sets *code
 * (0 match, 1 mismatch, 2 bad input, 3 out of memory) and returns a malloc'd text: the JSON
 * of `ropescope verify --format json`, or the line it prints for bad input (without
 * "ropescope: "); NULL when even that could not be made. When compared, *pairs is a malloc'd
 * copy of each pair's worst |error| / tolerance and *n_pairs their count (else NULL, 0);
 * *warnings the config's warnings as the CLI prints them with a result (else NULL). */
char *rope_verify_page(const char *const *names, unsigned char *const *bufs, const int *lens,
                       const char *positions, const char *seq_len, const char *layer_type,
                       int *code, double **pairs, int *n_pairs, char **warnings);

char *rope_verify_page(const char *const *names, unsigned char *const *bufs, const int *lens,
                       const char *positions, const char *seq_len, const char *layer_type,
                       int *code, double **pairs, int *n_pairs, char **warnings)
{
    *warnings = NULL;
    *pairs = NULL;
    *n_pairs = 0;
    *code = ROPE_VERIFY_REFUSED;
    double seq = 0.0;
    char *problem = seq_len ? seq_problem(seq_len, &seq) : NULL;
    if (problem) {
        char *line = refusal(problem);
        free(problem);
        return line;
    }
    if (!names[0]) return line_of("--config FILE is required");
    files f = {names, bufs, lens};
    rope_verify_io io = {read_file, NULL, &f};
    rope_verify_job j;
    *code = rope_verify_start(&j, &io, 1);
    if (*code == ROPE_VERIFY_GOOD) *code = steps(&j, &f, positions, seq_len, seq, layer_type);
    char *text = *code >= ROPE_VERIFY_REFUSED ? refusal(j.msg) : result(&j);
    if (!text) *code = ROPE_VERIFY_FAILED;
    int n = j.c ? j.c->scaling.dim / 2 : 0;
    if (text && *code <= ROPE_VERIFY_MISMATCH) *warnings = warnings_of(j.c);
    if (text && j.compared && n > 0 && (*pairs = malloc((size_t)n * sizeof(double))) != NULL) {
        memcpy(*pairs, j.pair_worst, (size_t)n * sizeof(double));
        *n_pairs = n;
    }
    rope_verify_end(&j);
    return text;
}
