/* The CLI's flag table parser and its one-line error writer. Numbers follow
 * the core's grammar (rope_parse_decimal / rope_parse_int, docs/SPEC.md). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/rope.h"
#include "report/writer.h"

int rope_cli_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *line = rope_vformat(fmt, ap);
    va_end(ap);
    if (!line) {
        fputs("ropescope: out of memory for a message\n", rope_cli_err);
        fflush(rope_cli_err);
        return code;
    }
    size_t head, tail;
    if (!rope_line_cut(line, &head, &tail))
        fprintf(rope_cli_err, "ropescope: %s\n", line);
    else
        fprintf(rope_cli_err, "ropescope: %.*s ... %s\n", (int)head, line, line + tail);
    fflush(rope_cli_err);
    free(line);
    return code;
}

const char *rope_cli_write_error(int err)
{
    if (err == EPIPE) return "the output was closed (its reader went away: broken pipe)";
    return strerror(err ? err : EIO);
}

int rope_cli_usage(const char *text)
{
    errno = 0;
    if (fputs(text, rope_cli_out) >= 0 && fflush(rope_cli_out) == 0 && !ferror(rope_cli_out))
        return 0;
    return rope_cli_fail(ROPE_CLI_EXIT_IO, "cannot write the usage to standard output: %s",
                         rope_cli_write_error(errno));
}

int rope_cli_refuse(const char *flag, const char *value, int rc)
{
    return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "%s '%s': %s", flag, value, rope_strerror(rc));
}

char *rope_cli_render(rope_cli_writer write, void *ctx, size_t cap, int *len, int *rc)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        char *buf = malloc(cap);
        if (!buf) {
            *rc = ROPE_E_NOMEM;
            return NULL;
        }
        *rc = write(ctx, buf, (int)cap, len);
        if (*rc == ROPE_OK) return buf;
        free(buf);
        if (*rc != ROPE_E_SPACE) return NULL;
        cap = (size_t)*len + 1;
    }
    return NULL;
}

const char *rope_cli_number(double v, char *buf, size_t cap)
{
    /* The shortest %g that reads back to v, with the exponent as people write it (1e16). */
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, cap, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) break;
    }
    char *e = strchr(buf, 'e');
    if (e) {
        char *from = e + 1, *to = e + 1;
        if (*from == '+')
            from++;
        else if (*from == '-')
            *to++ = *from++;
        while (*from == '0' && from[1] != '\0') from++;
        memmove(to, from, strlen(from) + 1);
    }
    return buf;
}

rope_cli_flag *rope_cli_flag_named(rope_cli_flag *flags, int n_flags, const char *name)
{
    for (int j = 0; j < n_flags; j++)
        if (strcmp(flags[j].name, name) == 0) return &flags[j];
    return NULL;
}

void rope_cli_free_flags(rope_cli_flag *flags, int n_flags)
{
    for (int j = 0; j < n_flags; j++) {
        free(flags[j].list);
        flags[j].list = NULL;
    }
}

/* Why text is not a number: the grammar, or the size of a double. */
static int number_problem(const rope_cli_flag *f, int rc, const char *what)
{
    if (rc == ROPE_E_RANGE)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                             "%s '%s' is outside what a double holds "
                             "(it overflows, or a nonzero value rounds to 0)",
                             f->name, what);
    return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                         "%s must be a plain decimal number (like 2, -0.5 "
                         "or 1e4; no spaces, hex, inf or nan), got '%s'",
                         f->name, what);
}

/* Most bytes of a bad list item a message echoes: the "(item N '...' is not
 * one)" part must fit the third of a long line that rope_cli_fail keeps at its
 * end, or the item's number would be cut away with the middle. */
#define ITEM_SHOWN 48

/* item, or its first ITEM_SHOWN bytes (cut at a character boundary) and "...". */
static const char *shown_item(const char *item, char *buf, size_t cap)
{
    size_t n = strlen(item);
    if (n <= ITEM_SHOWN) return item;
    n = ITEM_SHOWN;
    while (n > 0 && ((unsigned char)item[n] & 0xC0) == 0x80) n--;
    snprintf(buf, cap, "%.*s...", (int)n, item);
    return buf;
}

/* Comma-separated plain decimals, spaces allowed after each comma. */
static int parse_list(rope_cli_flag *f, const char *text)
{
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    double *values = malloc((len / 2 + 1) * sizeof(double));
    int n = 0, code = 0;
    if (!copy || !values) {
        code = rope_cli_fail(ROPE_CLI_EXIT_IO, "out of memory reading %s", f->name);
    } else {
        memcpy(copy, text, len + 1);
        char *item = copy;
        for (;;) {
            char *comma = strchr(item, ',');
            if (comma) *comma = '\0';
            if (n > 0)
                while (*item == ' ') item++;
            if (n >= ROPE_MAX_COUNT) {
                code = rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                                     "%s has more than %d numbers, got '%.40s...'", f->name,
                                     ROPE_MAX_COUNT, text);
                break;
            }
            int rc = rope_parse_decimal(item, &values[n]);
            if (rc != ROPE_OK) {
                char cut[ITEM_SHOWN + 4];
                code = rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                                     "%s must be a comma-separated list of 1 to "
                                     "%d plain decimal numbers, got '%s' (item %d '%s' %s)",
                                     f->name, ROPE_MAX_COUNT, text, n + 1,
                                     shown_item(item, cut, sizeof cut),
                                     rc == ROPE_E_RANGE ? "does not fit a double" : "is not one");
                break;
            }
            n++;
            if (!comma) break;
            item = comma + 1;
        }
    }
    free(copy);
    if (code != 0) {
        free(values);
        return code;
    }
    f->list = values;
    f->count = n;
    return 0;
}

static int parse_value(rope_cli_flag *f, const char *text)
{
    int rc;
    f->text = text;
    switch (f->kind) {
    case ROPE_FLAG_INT:
        rc = rope_parse_int(text, &f->integer);
        if (rc == ROPE_OK) return 0;
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                             "%s must be a whole number (digits, optional "
                             "sign), got '%s'",
                             f->name, text);
    case ROPE_FLAG_NUMBER:
        rc = rope_parse_decimal(text, &f->number);
        return rc == ROPE_OK ? 0 : number_problem(f, rc, text);
    case ROPE_FLAG_LIST: return parse_list(f, text);
    case ROPE_FLAG_TEXT:
    default: return 0;
    }
}

int rope_cli_parse_flags(const char *command, rope_cli_flag *flags, int n_flags, int argc,
                         char **argv, int *help)
{
    *help = 0;
    for (int i = 0; i < argc; i += 2) {
        const char *name = argv[i];
        if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
            *help = 1;
            return 0;
        }
        rope_cli_flag *f = rope_cli_flag_named(flags, n_flags, name);
        if (f == NULL)
            return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                                 "unknown flag '%s' for '%s' (see 'ropescope "
                                 "%s --help')",
                                 name, command, command);
        if (i + 1 >= argc) return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "%s needs a value", name);
        if (f->text != NULL)
            return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                                 "%s is given twice ('%s' and '%s'); give it "
                                 "once",
                                 name, f->text, argv[i + 1]);
        int code = parse_value(f, argv[i + 1]);
        if (code != 0) return code;
    }
    return 0;
}
