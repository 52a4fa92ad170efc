/* ropescope CLI: `report` writes rope_report.json and rope_report.md; `scan`
 * prints start,rope,add CSV. Bad input exits 2 with one line on stderr. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_scaling.h"
#include "report.h"
#include "rope.h"

#define EXIT_USAGE 2
/* Scan rows are computed this many at a time, so memory stays small. */
#define SCAN_CHUNK 4096
#define SCAN_MAX_ROWS 10000000L

static const char report_usage[] =
    "usage: ropescope report [--dim N] [--base B] [--gap G] [--starts a,b,...]\n"
    "                        [--deltas a,b,...] [--norm-positions a,b,...] [--out DIR]\n"
    "\n"
    "Writes DIR/rope_report.json and DIR/rope_report.md (DIR defaults to '.', and is\n"
    "created if missing) for the given settings, then prints where it wrote them.\n"
    "Defaults: --dim 64 --base 10000 --gap 2 --starts 3,10,100,4000\n"
    "          --deltas 1,16,256,4096 --norm-positions 0,1,7,100,4096\n";

static const char scan_usage[] =
    "usage: ropescope scan [--dim N] [--base B] [--gap G] [--from S0] [--to S1] [--step K]\n"
    "\n"
    "Prints CSV 'start,rope,add': for start = S0, S0+K, ... up to S1, the RoPE and the\n"
    "additive score of the demo vectors with the query at start+G and the key at start.\n"
    "Defaults: --dim 64 --base 10000 --gap 2 --from 0 --to 100 --step 1\n";

static const char main_usage[] =
    "usage: ropescope <command> [flags]\n"
    "\n"
    "Measures why rotary position embedding (RoPE) encodes relative position and the\n"
    "additive sinusoidal method does not.\n"
    "\n"
    "commands:\n"
    "  report   write rope_report.json and rope_report.md for the given settings\n"
    "  scan     print the RoPE and additive scores over a range of starts as CSV\n"
    "  scaling  what a model config's RoPE scaling does to each pair (long context)\n"
    "\n"
    "Run 'ropescope <command> --help' for its flags.\n";

/* One line on stderr, always: control characters in echoed values (a newline
 * in a flag's value, say) are shown as '?'. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static int fail(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    for (char *p = line; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
    fprintf(stderr, "ropescope: %s\n", line);
    return EXIT_USAGE;
}

static int parse_int(const char *text, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi) return -1;
    *out = (int)v;
    return 0;
}

static int parse_double(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (*text == '\0' || *end != '\0' || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

/* A comma-separated list of 1 to ROPE_MAX_COUNT finite numbers; *out is malloc'd. */
static int parse_list(const char *text, double **out, int *count)
{
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    double *values = malloc((len / 2 + 1) * sizeof(double));
    int n = 0, ok = copy != NULL && values != NULL && len > 0;
    if (ok) {
        memcpy(copy, text, len + 1);
        char *item = copy;
        for (;;) {
            char *comma = strchr(item, ',');
            if (comma) *comma = '\0';
            if (n >= ROPE_MAX_COUNT || parse_double(item, &values[n]) != 0) {
                ok = 0;
                break;
            }
            n++;
            if (!comma) break;
            item = comma + 1;
        }
    }
    free(copy);
    if (!ok) {
        free(values);
        return -1;
    }
    free(*out);
    *out = values;
    *count = n;
    return 0;
}

/* Writes text to path atomically: a temporary file renamed into place. */
static int write_file(const char *path, const char *text, size_t len, char *tmp, size_t tmp_cap)
{
    snprintf(tmp, tmp_cap, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) return -1;
    int ok = fwrite(text, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (!ok) remove(tmp);
    return ok ? 0 : -1;
}

static int make_dirs(const char *dir)
{
    char path[4096];
    size_t len = strlen(dir);
    if (len == 0 || len >= sizeof path) return -1;
    memcpy(path, dir, len + 1);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(path, 0777) != 0 && errno != EEXIST) return -1;
    struct stat st;
    return (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) ? 0 : -1;
}

static char *render(const rope_report_options *o, int format, int *len, int *rc)
{
    int cap = 1 << 16;
    for (int attempt = 0; attempt < 2; attempt++) {
        char *buf = malloc((size_t)cap);
        if (!buf) break;
        *rc = rope_report_build(o, format, buf, cap, len);
        if (*rc == ROPE_OK) return buf;
        free(buf);
        if (*rc != ROPE_E_SPACE) return NULL;
        cap = *len + 1;
    }
    return NULL;
}

/* Flags come as "--flag value" pairs; the index of the value, or -1. */
static int flag_value(int argc, int i)
{
    return i + 1 < argc ? i + 1 : -1;
}

static int cmd_report(int argc, char **argv)
{
    rope_report_options o;
    rope_report_defaults(&o);
    double *starts = NULL, *deltas = NULL, *norms = NULL;
    const char *out_dir = ".";
    int code = 0;

    for (int i = 0; i < argc && code == 0; i += 2) {
        const char *flag = argv[i];
        if (strcmp(flag, "--help") == 0 || strcmp(flag, "-h") == 0) {
            fputs(report_usage, stdout);
            goto done;
        }
        int v = flag_value(argc, i);
        if (strncmp(flag, "--", 2) != 0 || (strcmp(flag, "--dim") && strcmp(flag, "--base")
            && strcmp(flag, "--gap") && strcmp(flag, "--starts") && strcmp(flag, "--deltas")
            && strcmp(flag, "--norm-positions") && strcmp(flag, "--out"))) {
            code = fail("unknown flag '%s' for 'report' (see 'ropescope report --help')", flag);
        } else if (v < 0) {
            code = fail("%s needs a value", flag);
        } else if (strcmp(flag, "--dim") == 0) {
            if (parse_int(argv[v], 0, ROPE_MAX_DIM, &o.dim) != 0)
                code = fail("--dim must be an integer in [0, 65536], got '%s'", argv[v]);
        } else if (strcmp(flag, "--base") == 0) {
            if (parse_double(argv[v], &o.base) != 0 || o.base <= 0.0)
                code = fail("--base must be a finite number > 0, got '%s'", argv[v]);
        } else if (strcmp(flag, "--gap") == 0) {
            if (parse_double(argv[v], &o.offset) != 0)
                code = fail("--gap must be a finite number, got '%s'", argv[v]);
        } else if (strcmp(flag, "--out") == 0) {
            out_dir = argv[v];
            if (*out_dir == '\0') code = fail("--out must name a directory, got '%s'", out_dir);
        } else {
            double **list = strcmp(flag, "--starts") == 0 ? &starts
                            : strcmp(flag, "--deltas") == 0 ? &deltas : &norms;
            int *n = list == &starts ? &o.n_starts : list == &deltas ? &o.n_deltas : &o.n_norm_positions;
            if (parse_list(argv[v], list, n) != 0)
                code = fail("%s must be a comma-separated list of 1 to 65536 finite numbers, got '%s'",
                            flag, argv[v]);
        }
    }
    if (code != 0) goto done;
    if (starts) o.starts = starts;
    if (deltas) o.deltas = deltas;
    if (norms) o.norm_positions = norms;

    int json_len = 0, md_len = 0, rc = ROPE_OK;
    char *json = render(&o, ROPE_REPORT_JSON, &json_len, &rc);
    char *md = json ? render(&o, ROPE_REPORT_MARKDOWN, &md_len, &rc) : NULL;
    if (!json || !md) {
        /* Each value was finite, yet together they overflow (start + gap, or a
         * position times theta): name the flags that place the positions. */
        code = fail("--gap %.17g with --starts/--norm-positions/--deltas and --base %.17g "
                    "cannot be measured: %s", o.offset, o.base, rope_strerror(rc));
    } else if (make_dirs(out_dir) != 0) {
        code = fail("--out: cannot create directory '%s': %s", out_dir, strerror(errno));
    } else {
        size_t cap = strlen(out_dir) + 32;
        char *json_path = malloc(cap), *md_path = malloc(cap);
        char *json_tmp = malloc(cap + 8), *md_tmp = malloc(cap + 8);
        if (!json_path || !md_path || !json_tmp || !md_tmp) {
            code = fail("out of memory");
        } else {
            snprintf(json_path, cap, "%s/rope_report.json", out_dir);
            snprintf(md_path, cap, "%s/rope_report.md", out_dir);
            /* Both files are written aside first, so a failure leaves neither half-written. */
            if (write_file(json_path, json, (size_t)json_len, json_tmp, cap + 8) != 0) {
                code = fail("cannot write '%s': %s", json_tmp, strerror(errno));
            } else if (write_file(md_path, md, (size_t)md_len, md_tmp, cap + 8) != 0) {
                code = fail("cannot write '%s': %s", md_tmp, strerror(errno));
                remove(json_tmp);
            } else if (rename(json_tmp, json_path) != 0 || rename(md_tmp, md_path) != 0) {
                code = fail("cannot move the report into '%s': %s", out_dir, strerror(errno));
                remove(json_tmp);
                remove(md_tmp);
            } else {
                printf("wrote %s\nwrote %s\n", json_path, md_path);
            }
        }
        free(json_path);
        free(md_path);
        free(json_tmp);
        free(md_tmp);
    }
    free(json);
    free(md);
done:
    free(starts);
    free(deltas);
    free(norms);
    return code;
}

static int cmd_scan(int argc, char **argv)
{
    int dim = ROPE_DIM;
    double base = ROPE_THETA_BASE, gap = 2.0, from = 0.0, to = 100.0, step = 1.0;
    for (int i = 0; i < argc; i += 2) {
        const char *flag = argv[i];
        if (strcmp(flag, "--help") == 0 || strcmp(flag, "-h") == 0) {
            fputs(scan_usage, stdout);
            return 0;
        }
        double *target = strcmp(flag, "--base") == 0 ? &base
                         : strcmp(flag, "--gap") == 0 ? &gap
                         : strcmp(flag, "--from") == 0 ? &from
                         : strcmp(flag, "--to") == 0 ? &to
                         : strcmp(flag, "--step") == 0 ? &step : NULL;
        if (target == NULL && strcmp(flag, "--dim") != 0)
            return fail("unknown flag '%s' for 'scan' (see 'ropescope scan --help')", flag);
        int v = flag_value(argc, i);
        if (v < 0) return fail("%s needs a value", flag);
        if (target == NULL) {
            if (parse_int(argv[v], 0, ROPE_MAX_DIM, &dim) != 0)
                return fail("--dim must be an integer in [0, 65536], got '%s'", argv[v]);
        } else if (parse_double(argv[v], target) != 0) {
            return fail("%s must be a finite number, got '%s'", flag, argv[v]);
        } else if (target == &base && base <= 0.0) {
            return fail("--base must be a finite number > 0, got '%s'", argv[v]);
        } else if (target == &step && step <= 0.0) {
            return fail("--step must be a finite number > 0, got '%s'", argv[v]);
        }
    }
    if (to < from) {
        char text[64];
        snprintf(text, sizeof text, "%.17g", to);
        return fail("--to must be >= --from, got '%s'", text);
    }
    /* A hair of slack so that --to lands on the last row despite rounding. */
    double rows = floor((to - from) / step * (1.0 + 1e-12)) + 1.0;
    if (!(rows <= (double)SCAN_MAX_ROWS))
        return fail("--step %.17g is too small: more than 10000000 rows from --from %.17g to "
                    "--to %.17g", step, from, to);

    double *q = malloc((size_t)(dim > 0 ? dim : 1) * sizeof(double));
    double *k = malloc((size_t)(dim > 0 ? dim : 1) * sizeof(double));
    double starts[SCAN_CHUNK], out[3 * SCAN_CHUNK];
    int rc = (q && k) ? rope_demo_vectors(dim, q, k) : ROPE_E_SPACE;
    long total = (long)rows;
    if (rc == ROPE_OK) {
        /* Positions are largest in size at one end of the range: if any row
         * overflows, one of these does, so no CSV is ever cut short by an error. */
        starts[0] = from;
        starts[1] = from + (double)(total - 1) * step;
        rc = rope_offset_scan(q, dim, k, dim, gap, starts, 2, base, out);
    }
    if (rc != ROPE_OK) {
        free(q);
        free(k);
        return fail("--from %.17g to --to %.17g with --gap %.17g and --base %.17g cannot be "
                    "scanned: %s", from, to, gap, base, rope_strerror(rc));
    }
    if (rc == ROPE_OK) printf("start,rope,add\n");
    for (long first = 0; first < total && rc == ROPE_OK; first += SCAN_CHUNK) {
        int n = (int)(total - first < SCAN_CHUNK ? total - first : SCAN_CHUNK);
        for (int j = 0; j < n; j++) starts[j] = from + (double)(first + j) * step;
        rc = rope_offset_scan(q, dim, k, dim, gap, starts, n, base, out);
        for (int j = 0; j < n && rc == ROPE_OK; j++)
            printf("%.17g,%.17g,%.17g\n", out[3 * j], out[3 * j + 1], out[3 * j + 2]);
    }
    free(q);
    free(k);
    if (rc != ROPE_OK) return fail("scan failed: %s", rope_strerror(rc));
    return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(main_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : 0;
    }
    if (strcmp(argv[1], "report") == 0) return cmd_report(argc - 2, argv + 2);
    if (strcmp(argv[1], "scan") == 0) return cmd_scan(argc - 2, argv + 2);
    if (strcmp(argv[1], "scaling") == 0) return rope_cli_scaling(argc - 2, argv + 2);
    return fail("unknown command '%s' (try 'ropescope --help')", argv[1]);
}
