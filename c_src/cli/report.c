/* `ropescope report`: measure, then write rope_report.json and rope_report.md
 * into one folder as a pair, both or neither (README.md, "Guarantees"). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/files.h"
#include "core/rope.h"
#include "report/report.h"

static const char
    report_usage
        [] = "usage: ropescope report [--dim N] [--base B] [--gap G] [--starts a,b,...]\n"
             "                        [--deltas a,b,...] [--norm-positions a,b,...] [--out DIR]\n"
             "\n"
             "Writes DIR/rope_report.json and DIR/rope_report.md (DIR defaults to '.', and is\n"
             "created if missing) for the given settings, then prints where it wrote them.\n"
             "Lists are comma-separated plain decimals; a space may follow each comma.\n"
             "Defaults: --dim " ROPE_CLI_XSTR(ROPE_DIM) " --base " ROPE_CLI_XSTR(ROPE_THETA_BASE) " --gap " ROPE_CLI_XSTR(
                 ROPE_REPORT_DEFAULT_OFFSET) "\n"
                                             "          --starts '" ROPE_CLI_XSTR(
                                                 ROPE_REPORT_DEFAULT_STARTS) "'\n"
                                                                             "          --deltas "
                                                                             "'" ROPE_CLI_XSTR(
                                                                                 ROPE_REPORT_DEFAULT_DELTAS) "'\n"
                                                                                                             "          --norm-positions '" ROPE_CLI_XSTR(
                                                                                                                 ROPE_REPORT_DEFAULT_NORM_POSITIONS) "'\n";

enum { F_DIM, F_BASE, F_GAP, F_STARTS, F_DELTAS, F_NORMS, F_OUT, N_FLAGS };

/* Every limit through the core's own checks (rope.h), each named by the flag
 * that set it: the dimension, the base, each position's largest angle, the work. */
static int check_limits(const rope_cli_flag *fl, const rope_report_options *o)
{
    char a[32], b[32], c[32];
    int rc = rope_report_check_dim(o->dim);
    if (rc != ROPE_OK)
        return rope_cli_fail(
            ROPE_CLI_EXIT_USAGE,
            "--dim '%s': the report's dimension must be an integer in "
            "[" ROPE_CLI_XSTR(ROPE_REPORT_MIN_DIM) ", " ROPE_CLI_XSTR(ROPE_MAX_DIM) "]",
            fl[F_DIM].text);
    rc = rope_check_base(o->base);
    if (rc != ROPE_OK) return rope_cli_refuse("--base", fl[F_BASE].text, rc);
    for (int j = 0; j < o->n_starts; j++) {
        double s = o->starts[j];
        rc = rope_check_rotating(s, o->base);
        if (rc != ROPE_OK)
            return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--starts: position %s (item %d): %s",
                                 rope_cli_number(s, a, sizeof a), j + 1, rope_strerror(rc));
        rc = rope_check_rotating(s + o->offset, o->base);
        if (rc != ROPE_OK)
            return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                                 "--gap %s: query position %s (start %s + "
                                 "gap): %s",
                                 rope_cli_number(o->offset, a, sizeof a),
                                 rope_cli_number(s + o->offset, b, sizeof b),
                                 rope_cli_number(s, c, sizeof c), rope_strerror(rc));
    }
    for (int j = 0; j < o->n_norm_positions; j++) {
        rc = rope_check_rotating(o->norm_positions[j], o->base);
        if (rc != ROPE_OK)
            return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--norm-positions: position %s (item %d): %s",
                                 rope_cli_number(o->norm_positions[j], a, sizeof a), j + 1,
                                 rope_strerror(rc));
    }
    /* One core call rotates a vector of dim entries per listed position. */
    static const char *const names[] = {"--starts", "--deltas", "--norm-positions"};
    int counts[] = {o->n_starts, o->n_deltas, o->n_norm_positions};
    for (int j = 0; j < 3; j++) {
        rc = rope_check_work(o->dim, counts[j]);
        if (rc != ROPE_OK)
            return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "%s has %d numbers and --dim is %d: %s",
                                 names[j], counts[j], o->dim, rope_strerror(rc));
    }
    return 0;
}

static int read_options(const rope_cli_flag *fl, rope_report_options *o)
{
    rope_report_defaults(o);
    if (fl[F_DIM].text) o->dim = fl[F_DIM].integer;
    if (fl[F_BASE].text) o->base = fl[F_BASE].number;
    if (fl[F_GAP].text) o->offset = fl[F_GAP].number;
    if (fl[F_STARTS].list) o->starts = fl[F_STARTS].list, o->n_starts = fl[F_STARTS].count;
    if (fl[F_DELTAS].list) o->deltas = fl[F_DELTAS].list, o->n_deltas = fl[F_DELTAS].count;
    if (fl[F_NORMS].list)
        o->norm_positions = fl[F_NORMS].list, o->n_norm_positions = fl[F_NORMS].count;
    if (fl[F_OUT].text && fl[F_OUT].text[0] == '\0')
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--out must name a folder, got ''");
    return check_limits(fl, o);
}

/* Both texts in malloc'd buffers, from one measurement. The first try is a
 * buffer big enough for any report of these counts (no line of it passes 256
 * bytes per listed number); a second build only if it was not. Returns a
 * ROPE_E_* code; on ROPE_OK *json and *md are the caller's to free. */
static int render(const rope_report_options *o, char **json, int *json_len, char **md, int *md_len)
{
    size_t json_cap = 4096 + 256 * (size_t)(o->n_starts + o->n_deltas + o->n_norm_positions);
    size_t md_cap = json_cap;
    int rc = ROPE_E_NOMEM;
    for (int attempt = 0; attempt < 2; attempt++) {
        *json = malloc(json_cap);
        *md = malloc(md_cap);
        rc = *json && *md ? rope_report_build_both(o, *json, (int)json_cap, json_len, *md,
                                                   (int)md_cap, md_len)
                          : ROPE_E_NOMEM;
        if (rc == ROPE_OK) return rc;
        free(*json);
        free(*md);
        *json = *md = NULL;
        if (rc != ROPE_E_SPACE) return rc;
        json_cap = (size_t)*json_len + 1;
        md_cap = (size_t)*md_len + 1;
    }
    return rc;
}

static int measure_failed(const rope_cli_flag *fl, const rope_report_options *o, int rc)
{
    if (rc == ROPE_E_NOMEM)
        return rope_cli_fail(ROPE_CLI_EXIT_IO,
                             "--dim %d: out of memory while measuring the "
                             "report",
                             o->dim);
    /* Every value was in range, yet together they overflow: theta or a
     * position times theta, both set by the base. */
    return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                         "--base %s with --dim %d and these positions cannot "
                         "be measured: %s",
                         fl[F_BASE].text ? fl[F_BASE].text : "10000", o->dim, rope_strerror(rc));
}

int rope_cli_report(int argc, char **argv)
{
    rope_cli_flag fl[N_FLAGS] = {
        {"--dim", ROPE_FLAG_INT, NULL, 0, 0, NULL, 0},
        {"--base", ROPE_FLAG_NUMBER, NULL, 0, 0, NULL, 0},
        {"--gap", ROPE_FLAG_NUMBER, NULL, 0, 0, NULL, 0},
        {"--starts", ROPE_FLAG_LIST, NULL, 0, 0, NULL, 0},
        {"--deltas", ROPE_FLAG_LIST, NULL, 0, 0, NULL, 0},
        {"--norm-positions", ROPE_FLAG_LIST, NULL, 0, 0, NULL, 0},
        {"--out", ROPE_FLAG_TEXT, NULL, 0, 0, NULL, 0},
    };
    rope_report_options o;
    int help = 0, rc = ROPE_OK, json_len = 0, md_len = 0;
    char *json = NULL, *md = NULL;
    int code = rope_cli_parse_flags("report", fl, N_FLAGS, argc, argv, &help);
    if (code == 0 && help) {
        code = rope_cli_usage(report_usage);
        goto done;
    }
    if (code == 0) code = read_options(fl, &o);
    if (code != 0) goto done;
    rc = render(&o, &json, &json_len, &md, &md_len);
    if (rc != ROPE_OK) {
        code = measure_failed(fl, &o, rc);
        goto done;
    }
    const char *dir = fl[F_OUT].text ? fl[F_OUT].text : ".";
    rope_cli_text texts[2] = {{"rope_report.json", json, (size_t)json_len},
                              {"rope_report.md", md, (size_t)md_len}};
    code = rope_cli_write_pair(dir, texts);
    if (code == 0) {
        fprintf(rope_cli_out, "wrote %s/%s\nwrote %s/%s\n", dir, texts[0].name, dir, texts[1].name);
        if (fflush(rope_cli_out) != 0 || ferror(rope_cli_out))
            code = rope_cli_fail(ROPE_CLI_EXIT_IO,
                                 "the report was written, but cannot write to "
                                 "standard output: %s",
                                 rope_cli_write_error(errno));
    }
done:
    free(json);
    free(md);
    rope_cli_free_flags(fl, N_FLAGS);
    return code;
}
