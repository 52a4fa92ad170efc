/* `ropescope scan`: start,rope,add CSV over evenly spaced starts. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/rope.h"
#include "report/report.h"

/* Rows computed per rope_offset_scan call, so memory stays small. */
#define SCAN_CHUNK 4096
/* Most rows one scan prints, whatever the dimension (about 600 MB of CSV). */
#define SCAN_MAX_ROWS 10000000L
/* The units of ROPE_MAX_WORK one row costs whatever the dimension: its CSV line,
 * three %.17g numbers, takes about 0.4 us of CPU (1 us on a loaded machine), and
 * 8 units of the limit's 2 s / 2^23 (0.24 us each) cover that with room to
 * spare (measured, docs/SPEC.md). */
#define SCAN_ROW_WORK 8

static const char scan_usage[] =
    "usage: ropescope scan [--dim N] [--base B] [--gap G] [--from S0] [--to S1] [--step K]\n"
    "\n"
    "Prints CSV 'start,rope,add': for start = S0, S0+K, ... up to S1, the RoPE and the\n"
    "additive score of the demo vectors with the query at start+G and the key at start.\n"
    "Defaults: --dim " ROPE_CLI_XSTR(ROPE_DIM) " --base " ROPE_CLI_XSTR(
        ROPE_THETA_BASE) " --gap " ROPE_CLI_XSTR(ROPE_REPORT_DEFAULT_OFFSET) " --from 0 --to 100 "
                                                                             "--step 1\n";

enum { F_DIM, F_BASE, F_GAP, F_FROM, F_TO, F_STEP, N_FLAGS };

/* The value as the user wrote it, or the default printed. */
static const char *shown(const rope_cli_flag *f, char *buf, size_t cap)
{
    if (f->text) return f->text;
    if (f->kind == ROPE_FLAG_INT) {
        snprintf(buf, cap, "%d", f->integer);
        return buf;
    }
    return rope_cli_number(f->number, buf, cap);
}

/* Every position a scan rotates passes the core's far check: the positions
 * are linear in the row, so both ends (and both plus the gap) suffice. */
static int check_far(rope_cli_flag *fl, double last)
{
    double from = fl[F_FROM].number, gap = fl[F_GAP].number, base = fl[F_BASE].number;
    double query = fabs(from + gap) > fabs(last + gap) ? from + gap : last + gap;
    char a[40], b[40];
    int rc = rope_check_rotating(from, base);
    if (rc != ROPE_OK)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--from: position %s: %s",
                             shown(&fl[F_FROM], a, sizeof a), rope_strerror(rc));
    rc = rope_check_rotating(last, base);
    if (rc != ROPE_OK)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--to: position %s: %s",
                             rope_cli_number(last, a, sizeof a), rope_strerror(rc));
    /* Not finite is possible here: from + gap can overflow. */
    rc = isfinite(query) ? rope_check_rotating(query, base) : ROPE_E_FAR;
    if (rc != ROPE_OK)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--gap %s: query position %s (start + gap): %s",
                             shown(&fl[F_GAP], a, sizeof a), rope_cli_number(query, b, sizeof b),
                             rope_strerror(rc));
    return 0;
}

static int check_settings(rope_cli_flag *fl, long *total)
{
    char a[40], b[40], c[40];
    int dim = fl[F_DIM].integer;
    double from = fl[F_FROM].number, to = fl[F_TO].number, step = fl[F_STEP].number;
    int rc = rope_check_dim(dim);
    if (rc != ROPE_OK) return rope_cli_refuse("--dim", shown(&fl[F_DIM], a, sizeof a), rc);
    rc = rope_check_base(fl[F_BASE].number);
    if (rc != ROPE_OK) return rope_cli_refuse("--base", shown(&fl[F_BASE], a, sizeof a), rc);
    if (step <= 0.0)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--step must be a number > 0, got '%s'",
                             shown(&fl[F_STEP], a, sizeof a));
    if (to < from)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--to must be >= --from (%s), got '%s'",
                             shown(&fl[F_FROM], a, sizeof a), shown(&fl[F_TO], b, sizeof b));
    /* A hair of slack so that --to lands on the last row despite rounding. */
    double rows = floor((to - from) / step * (1.0 + 1e-12)) + 1.0;
    if (!(rows <= (double)SCAN_MAX_ROWS))
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                             "--step %s is too small: more than %ld rows "
                             "from --from %s to --to %s",
                             shown(&fl[F_STEP], a, sizeof a), SCAN_MAX_ROWS,
                             shown(&fl[F_FROM], b, sizeof b), shown(&fl[F_TO], c, sizeof c));
    /* The whole scan counts as one call's work, though it runs in chunks, and
     * each row costs its line too (issue #35: --dim 0 printed 1e7 rows in 11 s). */
    if ((double)(dim + SCAN_ROW_WORK) * rows > (double)ROPE_MAX_WORK)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                             "--dim %d with --step %s: %.0f rows: too much work for one scan "
                             "(rows x (dimension + " ROPE_CLI_XSTR(
                                 SCAN_ROW_WORK) ") above " ROPE_CLI_XSTR(ROPE_MAX_WORK) ")",
                             dim, shown(&fl[F_STEP], a, sizeof a), rows);
    *total = (long)rows;
    return check_far(fl, from + (double)(*total - 1) * step);
}

/* Prints the rows; returns 0, or the exit code after one line naming the output. */
static int print_rows(const rope_cli_flag *fl, const double *q, const double *k, long total)
{
    static double starts[SCAN_CHUNK], out[3 * SCAN_CHUNK];
    int dim = fl[F_DIM].integer, rc = ROPE_OK, err = 0;
    double from = fl[F_FROM].number, step = fl[F_STEP].number;
    if (fputs("start,rope,add\n", rope_cli_out) < 0) err = errno;
    for (long first = 0; first < total && rc == ROPE_OK && err == 0; first += SCAN_CHUNK) {
        int n = (int)(total - first < SCAN_CHUNK ? total - first : SCAN_CHUNK);
        for (int j = 0; j < n; j++) starts[j] = from + (double)(first + j) * step;
        rc = rope_offset_scan(q, dim, k, dim, fl[F_GAP].number, starts, n, fl[F_BASE].number, out);
        for (int j = 0; j < n && rc == ROPE_OK; j++)
            fprintf(rope_cli_out, "%.17g,%.17g,%.17g\n", out[3 * j], out[3 * j + 1],
                    out[3 * j + 2]);
        if (ferror(rope_cli_out)) err = errno ? errno : EIO;
    }
    if (rc != ROPE_OK)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "scan failed: %s", rope_strerror(rc));
    if (err == 0 && fflush(rope_cli_out) != 0) err = errno;
    if (err == 0 && ferror(rope_cli_out)) err = EIO;
    if (err != 0)
        return rope_cli_fail(ROPE_CLI_EXIT_IO, "cannot write the scan to standard output: %s",
                             rope_cli_write_error(err));
    return 0;
}

int rope_cli_scan(int argc, char **argv)
{
    rope_cli_flag fl[N_FLAGS] = {
        {"--dim", ROPE_FLAG_INT, NULL, ROPE_DIM, 0, NULL, 0},
        {"--base", ROPE_FLAG_NUMBER, NULL, 0, ROPE_THETA_BASE, NULL, 0},
        {"--gap", ROPE_FLAG_NUMBER, NULL, 0, ROPE_REPORT_DEFAULT_OFFSET, NULL, 0},
        {"--from", ROPE_FLAG_NUMBER, NULL, 0, 0.0, NULL, 0},
        {"--to", ROPE_FLAG_NUMBER, NULL, 0, 100.0, NULL, 0},
        {"--step", ROPE_FLAG_NUMBER, NULL, 0, 1.0, NULL, 0},
    };
    int help = 0;
    long total = 0;
    int code = rope_cli_parse_flags("scan", fl, N_FLAGS, argc, argv, &help);
    if (code == 0 && help) {
        return rope_cli_usage(scan_usage);
    }
    if (code == 0) code = check_settings(fl, &total);
    if (code != 0) return code;

    int dim = fl[F_DIM].integer;
    double *q = malloc((size_t)(dim > 0 ? dim : 1) * sizeof(double));
    double *k = malloc((size_t)(dim > 0 ? dim : 1) * sizeof(double));
    int rc = (q && k) ? rope_demo_vectors(dim, q, k) : ROPE_E_NOMEM;
    if (rc == ROPE_OK) {
        /* Scores are largest at one end of the range: if any row overflows,
         * one of these does, so no CSV is ever cut short by an error. */
        double ends[2] = {fl[F_FROM].number,
                          fl[F_FROM].number + (double)(total - 1) * fl[F_STEP].number};
        double rows[6];
        rc = rope_offset_scan(q, dim, k, dim, fl[F_GAP].number, ends, 2, fl[F_BASE].number, rows);
    }
    char a[40], b[40], c[40], e[40];
    if (rc == ROPE_E_NOMEM)
        code = rope_cli_fail(ROPE_CLI_EXIT_IO, "--dim %d: out of memory for the vectors", dim);
    else if (rc != ROPE_OK)
        code = rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                             "--base %s with --dim %d, --gap %s and starts "
                             "--from %s to --to %s cannot be scanned: %s",
                             shown(&fl[F_BASE], a, sizeof a), dim, shown(&fl[F_GAP], b, sizeof b),
                             shown(&fl[F_FROM], c, sizeof c), shown(&fl[F_TO], e, sizeof e),
                             rope_strerror(rc));
    else
        code = print_rows(fl, q, k, total);
    free(q);
    free(k);
    return code;
}
