/* `ropescope verify`: reads a config and a dumped inv_freq or cos/sin table,
 * says whether the dump matches the config at its own precision (exit 0),
 * how far off it is and which known mistakes explain it (exit 1); bad input
 * exits 2 with one line on stderr and nothing on stdout. docs/VERIFY.md. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_scaling.h"
#include "config.h"
#include "rope.h"
#include "verify.h"

static const char usage[] =
    "usage: ropescope verify --config config.json (--inv-freq FILE | --cos FILE --sin FILE |\n"
    "                        --cache FILE) [--positions FROM:COUNT] [--seq-len N]\n"
    "                        [--format text|json]\n"
    "\n"
    "Checks a dumped inv_freq or cos/sin table against what the config says it must hold,\n"
    "at the dump's own precision. Files: .npy (float64/32/16), safetensors (F64/F32/F16/\n"
    "BF16; the tensor by exact name, last dotted part, or the only one), .npz (--cache:\n"
    "uncompressed, holding cos and sin), JSON lists or CSV/whitespace text.\n"
    "Row r of a table is position FROM + r (default 0:rows).\n"
    "Exit 0: match; 1: mismatch (with a diagnosis); 2: bad input.\n";

/* The config reader states no pairing layout yet: every config is held to
 * transformers' default, rotate_half. */
#define CONFIG_LAYOUT ROPE_LAYOUT_HALF

enum { F_CONFIG, F_INV, F_COS, F_SIN, F_CACHE, F_POSITIONS, F_LAYER, F_SEQ, F_FORMAT, N_FLAGS };

static const char *const inv_names[] = {"inv_freq"};
static const char *const cos_names[] = {"cos", "cos_cached"};
static const char *const sin_names[] = {"sin", "sin_cached"};

typedef struct {
    unsigned char *map[2]; /* the files read, kept while a table uses one in place */
    size_t map_len[2];
    int n_maps;
    rope_config *c;
    rope_table inv, cos, sin;
    rope_dump dump;
    const char *cos_file, *sin_file;
    double *theta;
    int json, layout_found;
} job;

/* Reads one tensor of a file; 2 with "FLAG 'FILE': problem" on failure. */
static int load(job *j, const char *flag, const char *path, const char *const *names, int n_names,
                rope_table *t)
{
    unsigned char *buf;
    size_t len;
    char msg[ROPE_VERIFY_MSG];
    rope_table_want want = {names, n_names};
    int rc = rope_verify_slurp(path, &buf, &len, msg);
    if (rc == ROPE_OK) rc = rope_table_read(buf, len, &want, t, msg);
    /* At most two loads per run (inv_freq, or cos and sin): both fit. */
    if (rc == ROPE_OK && t->borrowed) {
        j->map[j->n_maps] = buf;
        j->map_len[j->n_maps++] = len;
        return 0;
    }
    rope_verify_unslurp(buf, len);
    if (rc == ROPE_OK) return 0;
    return rope_cli_fail(rc == ROPE_E_NOMEM ? ROPE_CLI_EXIT_IO : ROPE_CLI_EXIT_USAGE, "%s '%s': %s",
                         flag, path, msg);
}

static int load_dump(job *j, rope_cli_flag *f)
{
    int code;
    const char *inv = f[F_INV].text, *cache = f[F_CACHE].text;
    int tables = (f[F_COS].text || f[F_SIN].text) + (inv != NULL) + (cache != NULL);
    if (tables != 1 || ((f[F_COS].text != NULL) != (f[F_SIN].text != NULL)))
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "give one of --inv-freq FILE, --cos FILE --sin "
                                                  "FILE, or --cache FILE");
    if (inv) {
        if ((code = load(j, "--inv-freq", inv, inv_names, 1, &j->inv)) != 0) return code;
        if (j->inv.ndim != 1)
            return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                                 "--inv-freq '%s': a %ld x %ld array; inv_freq "
                                 "is 1-D",
                                 inv, j->inv.rows, j->inv.width);
        j->dump.inv = &j->inv;
        j->dump.dtype = j->inv.dtype;
        return 0;
    }
    j->cos_file = cache ? cache : f[F_COS].text;
    j->sin_file = cache ? cache : f[F_SIN].text;
    const char *cflag = cache ? "--cache" : "--cos", *sflag = cache ? "--cache" : "--sin";
    if ((code = load(j, cflag, j->cos_file, cos_names, 2, &j->cos)) != 0) return code;
    if ((code = load(j, sflag, j->sin_file, sin_names, 2, &j->sin)) != 0) return code;
    if (j->cos.ndim != 2)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                             "%s '%s': a 1-D array of %ld; cos is positions x "
                             "width",
                             cflag, j->cos_file, j->cos.width);
    if (j->sin.ndim != 2 || j->sin.rows != j->cos.rows || j->sin.width != j->cos.width)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                             "%s '%s': sin is %ld x %ld, cos is %ld x %ld; "
                             "they must match",
                             sflag, j->sin_file, j->sin.rows, j->sin.width, j->cos.rows,
                             j->cos.width);
    j->dump.cos = &j->cos;
    j->dump.sin = &j->sin;
    /* The less precise of the two sets the tolerance. */
    j->dump.dtype = j->cos.dtype > j->sin.dtype ? j->cos.dtype : j->sin.dtype;
    return 0;
}

/* --positions FROM:COUNT, COUNT equal to the rows. */
static int positions(job *j, const char *text)
{
    long rows = j->dump.cos ? j->cos.rows : 0;
    if (!text) return 0;
    if (!j->dump.cos)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--positions applies to cos/sin tables, not "
                                                  "to --inv-freq");
    char from[32], count[32];
    const char *colon = strchr(text, ':');
    size_t a = colon ? (size_t)(colon - text) : 0;
    int from_v = -1, count_v = -1;
    if (!colon || a == 0 || a >= sizeof from || strlen(colon + 1) >= sizeof count)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--positions must be FROM:COUNT, got '%s'", text);
    memcpy(from, text, a);
    from[a] = '\0';
    snprintf(count, sizeof count, "%s", colon + 1);
    if (rope_parse_int(from, &from_v) != ROPE_OK || rope_parse_int(count, &count_v) != ROPE_OK ||
        from_v < 0 || count_v < 1)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                             "--positions must be FROM:COUNT with whole "
                             "FROM >= 0 and COUNT >= 1, got '%s'",
                             text);
    if (count_v != rows)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                             "--positions %s: COUNT %d differs from the "
                             "table's %ld rows",
                             text, count_v, rows);
    j->dump.from = from_v;
    return 0;
}

static int config(job *j, rope_cli_flag *f)
{
    int code = rope_cli_read_config(j->c, f[F_CONFIG].text);
    if (code != 0) return code;
    double seq = 0.0;
    if (rope_config_resolve(j->c, 0.0) == ROPE_OK && j->dump.cos &&
        (j->c->scaling.type == ROPE_SCALING_DYNAMIC || j->c->scaling.type == ROPE_SCALING_LONGROPE))
        seq = j->dump.from + (double)j->cos.rows; /* the largest position + 1, as transformers */
    if (f[F_SEQ].text) {
        seq = f[F_SEQ].number;
        if (!(seq >= 0.0) || seq > 1e15)
            return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--seq-len must be in [0, 1e15], got '%s'",
                                 f[F_SEQ].text);
    }
    if (rope_config_resolve(j->c, seq) != ROPE_OK)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--config '%s': %s", f[F_CONFIG].text,
                             rope_config_message(j->c));
    if (f[F_LAYER].text)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                             "--layer-type '%s': config '%s' has one RoPE "
                             "table for every layer",
                             f[F_LAYER].text, f[F_CONFIG].text);
    int n = j->c->scaling.dim / 2;
    j->theta = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    if (!j->theta) return rope_cli_fail(ROPE_CLI_EXIT_IO, "out of memory");
    if (rope_scaling_pairs(&j->c->scaling, NULL, j->theta, NULL, NULL, NULL) != ROPE_OK)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--config '%s': its inv_freq is not finite",
                             f[F_CONFIG].text);
    return 0;
}

/* JSON string: quotes, backslashes and control characters escaped. */
static void put_string(FILE *o, const char *s)
{
    fputc('"', o);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(o, "\\%c", ch);
        else if (ch < 32)
            fprintf(o, "\\u%04x", ch);
        else
            fputc(ch, o);
    }
    fputc('"', o);
}

static void put_num(FILE *o, double v)
{
    if (isfinite(v))
        fprintf(o, "%.17g", v);
    else
        fputs("null", o);
}

static const char *layout_name(int layout)
{
    return layout == ROPE_LAYOUT_HALF          ? "rotate_half"
           : layout == ROPE_LAYOUT_INTERLEAVED ? "interleaved"
                                               : "unknown";
}

typedef struct {
    int compared, match, n_diag;
    double af;
    rope_verify_err err;
    rope_diagnosis diag[ROPE_DIAG_MAX];
} verdict;

static void write_json(const job *j, const verdict *v, FILE *o)
{
    const rope_scaling *s = &j->c->scaling;
    int table = j->dump.cos != NULL;
    const rope_table *t = table ? &j->cos : &j->inv;
    fprintf(o, "{\n  \"verdict\": \"%s\",\n  \"kind\": \"%s\",\n  \"dtype\": \"%s\",\n",
            v->match ? "match" : "mismatch", table ? "cos_sin" : "inv_freq",
            rope_dtype_name(j->dump.dtype));
    fprintf(o, "  \"rows\": %ld,\n  \"width\": %ld,\n", t->rows, t->width);
    if (table)
        fprintf(o, "  \"positions\": {\"from\": %.0f, \"count\": %ld},\n", j->dump.from, t->rows);
    else
        fputs("  \"positions\": null,\n", o);
    fprintf(o, "  \"layout_found\": \"%s\",\n", table ? layout_name(j->layout_found) : "unknown");
    fprintf(o,
            "  \"config\": {\"rope_type\": \"%s\", \"rotary_dim\": %d, \"pairs\": %d, "
            "\"rope_theta\": ",
            rope_scaling_name(s->type), s->dim, s->dim / 2);
    put_num(o, s->base);
    fputs(", \"attention_factor\": ", o);
    put_num(o, v->af);
    fputs(", \"seq_len\": ", o);
    put_num(o, s->seq_len);
    fprintf(o, ", \"layout\": \"%s\"},\n  \"tolerance\": ", layout_name(CONFIG_LAYOUT));
    put_string(o, rope_verify_tolerance_text(j->dump.dtype, table));
    const rope_verify_err *e = &v->err;
    fputs(",\n  \"max_abs_error\": ", o);
    put_num(o, v->compared ? e->max_abs : NAN);
    fputs(",\n  \"max_rel_error\": ", o);
    put_num(o, v->compared ? e->max_rel : NAN);
    fputs(",\n  \"worst_pair\": ", o);
    put_num(o, v->compared ? (double)e->worst_pair : NAN);
    fputs(",\n  \"worst_position\": ", o);
    put_num(o, v->compared && table ? j->dump.from + (double)e->worst_row : NAN);
    fputs(",\n  \"worst_ratio\": ", o);
    put_num(o, v->compared ? e->worst_ratio : NAN);
    fputs(",\n  \"values_over_tolerance\": ", o);
    put_num(o, v->compared ? (double)e->n_over : NAN);
    fputs(",\n  \"values\": ", o);
    put_num(o, v->compared ? (double)e->n_values : NAN);
    fputs(",\n  \"diagnoses\": [", o);
    for (int k = 0; k < v->n_diag; k++) {
        fputs(k ? ",\n    {\"code\": " : "\n    {\"code\": ", o);
        put_string(o, v->diag[k].code);
        fputs(", \"message\": ", o);
        put_string(o, v->diag[k].message);
        fputc('}', o);
    }
    fputs(v->n_diag ? "\n  ]\n}\n" : "]\n}\n", o);
}

static void write_text(const job *j, const verdict *v, FILE *o)
{
    const rope_scaling *s = &j->c->scaling;
    int table = j->dump.cos != NULL;
    if (table)
        fprintf(o, "dump: cos '%s', sin '%s': %ld positions (%.0f..%.0f) x %ld, %s, layout %s\n",
                j->cos_file, j->sin_file, j->cos.rows, j->dump.from,
                j->dump.from + (double)j->cos.rows - 1.0, j->cos.width,
                rope_dtype_name(j->dump.dtype), layout_name(j->layout_found));
    else
        fprintf(o, "dump: inv_freq, %ld pairs, %s\n", j->inv.width, rope_dtype_name(j->dump.dtype));
    fprintf(o,
            "config: %s, rotary dim %d (%d pairs), rope_theta %.10g, attention factor %.10g, "
            "layout %s\n",
            rope_scaling_name(s->type), s->dim, s->dim / 2, s->base, v->af,
            layout_name(CONFIG_LAYOUT));
    fprintf(o, "tolerance: %s\n", rope_verify_tolerance_text(j->dump.dtype, table));
    const rope_verify_err *e = &v->err;
    if (v->compared) {
        fprintf(o, "max abs error %.3g, max rel error %.3g; worst: pair %d", e->max_abs, e->max_rel,
                e->worst_pair);
        if (table) fprintf(o, " at position %.0f", j->dump.from + (double)e->worst_row);
        fprintf(o, " (%.3g x its tolerance)\nvalues over tolerance: %ld of %ld\n", e->worst_ratio,
                e->n_over, e->n_values);
    } else {
        fprintf(o, "not compared: the dump holds %ld pairs, the config %d\n",
                table ? j->cos.width / 2 : j->inv.width, s->dim / 2);
    }
    fprintf(o, "result: %s\n", v->match ? "match" : "mismatch");
    for (int k = 0; k < v->n_diag; k++)
        fprintf(o, "  %s: %s\n", v->diag[k].code, v->diag[k].message);
}

static int check(job *j, int json)
{
    verdict v;
    memset(&v, 0, sizeof v);
    const rope_scaling *s = &j->c->scaling;
    int table = j->dump.cos != NULL;
    if (rope_scaling_factors(s, &v.af, NULL) != ROPE_OK) v.af = 1.0;
    if (table) j->layout_found = rope_verify_layout(&j->cos);
    long pairs = table ? j->cos.width / 2 : j->inv.width;
    if ((!table || j->cos.width % 2 == 0) && pairs == s->dim / 2) {
        int native = j->dump.dtype == ROPE_DT_F64 ? ROPE_DT_F64 : ROPE_DT_F32;
        rope_model m = {j->theta, s->dim / 2, native, 0, native, v.af, 0.0, 1, CONFIG_LAYOUT};
        if (rope_verify_eval(&j->dump, &m, NULL, 0, &v.err) == ROPE_OK) v.compared = 1;
        v.match = v.compared && v.err.n_over == 0;
    }
    if (!v.match && rope_verify_diagnose(j->c, &j->dump, j->layout_found, CONFIG_LAYOUT, v.diag,
                                         &v.n_diag) != ROPE_OK)
        return rope_cli_fail(ROPE_CLI_EXIT_IO, "out of memory for the diagnosis");
    for (int k = 0; k < rope_config_warning_count(j->c); k++)
        fprintf(rope_cli_err, "ropescope: warning: %s\n", rope_config_warning(j->c, k));
    if (json)
        write_json(j, &v, rope_cli_out);
    else
        write_text(j, &v, rope_cli_out);
    if (fflush(rope_cli_out) != 0 || ferror(rope_cli_out))
        return rope_cli_fail(ROPE_CLI_EXIT_IO, "cannot write to standard output: %s",
                             strerror(errno ? errno : EIO));
    return v.match ? 0 : 1;
}

static int run(job *j, rope_cli_flag *f, int argc, char **argv)
{
    int help, code = rope_cli_parse_flags("verify", f, N_FLAGS, argc, argv, &help);
    if (code != 0) return code;
    if (help) {
        fputs(usage, rope_cli_out);
        return fflush(rope_cli_out) == 0 ? 0 : ROPE_CLI_EXIT_IO;
    }
    const char *format = f[F_FORMAT].text ? f[F_FORMAT].text : "text";
    if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--format must be text or json, got '%s'",
                             format);
    if (!f[F_CONFIG].text) return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--config FILE is required");
    if ((code = load_dump(j, f)) != 0) return code;
    if ((code = positions(j, f[F_POSITIONS].text)) != 0) return code;
    if ((code = config(j, f)) != 0) return code;
    return check(j, strcmp(format, "json") == 0);
}

int rope_cli_verify(int argc, char **argv)
{
    rope_cli_flag f[N_FLAGS];
    memset(f, 0, sizeof f);
    static const char *const names[N_FLAGS] = {"--config",     "--inv-freq", "--cos",
                                               "--sin",        "--cache",    "--positions",
                                               "--layer-type", "--seq-len",  "--format"};
    for (int k = 0; k < N_FLAGS; k++) {
        f[k].name = names[k];
        f[k].kind = k == F_SEQ ? ROPE_FLAG_NUMBER : ROPE_FLAG_TEXT;
    }
    job j;
    memset(&j, 0, sizeof j);
    j.c = malloc(sizeof *j.c);
    if (!j.c) return rope_cli_fail(ROPE_CLI_EXIT_IO, "out of memory for the config");
    rope_config_init(j.c);
    int code = run(&j, f, argc, argv);
    rope_cli_free_flags(f, N_FLAGS);
    rope_table_free(&j.inv);
    rope_table_free(&j.cos);
    rope_table_free(&j.sin);
    free(j.theta);
    free(j.c);
    for (int k = 0; k < j.n_maps; k++) rope_verify_unslurp(j.map[k], j.map_len[k]);
    return code;
}
