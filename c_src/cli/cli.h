/* What the ropescope CLI's files share: the output streams, the one-line
 * error writer, the flag table and the commands. Not part of the core. */
#ifndef ROPE_CLI_H
#define ROPE_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "report/writer.h"

#define ROPE_CLI_EXIT_USAGE 2 /* bad input: nothing was written */
#define ROPE_CLI_EXIT_IO 1    /* an output could not be written */

/* Where the commands print; rope_cli_run sets them for one call. */
extern FILE *rope_cli_out;
extern FILE *rope_cli_err;

/* One line "ropescope: ..." on rope_cli_err: control characters and bytes that
 * are not UTF-8 shown as '?'; past ROPE_LINE_MAX bytes (writer.h) the middle gives way
 * to " ... ", cut at character boundaries, so the end of the line (which item
 * of a list is wrong) survives. Returns code, for `return rope_cli_fail(2, ...)`. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int rope_cli_fail(int code, const char *fmt, ...);

/* Why a write failed, for "cannot write ... to standard output: %s": err's
 * strerror (EIO for 0), or, for EPIPE, that the reader closed the output (the
 * CLI ignores SIGPIPE so that a closed pipe is an exit 1 with a message). */
const char *rope_cli_write_error(int err);

/* Writes a usage text to rope_cli_out: 0, or 1 after one line saying the
 * write failed (a full disk, a closed pipe). */
int rope_cli_usage(const char *text);

/* One line "<flag> '<value>': <rope_strerror(rc)>" for a value a core check
 * (rope_check_*) refused, so the CLI states each limit in the core's words;
 * returns ROPE_CLI_EXIT_USAGE. */
int rope_cli_refuse(const char *flag, const char *value, int rc);

/* A text the core writes into buf: write(ctx, buf, cap, len) returns a ROPE_E_* code and sets
 * *len. It is written into a malloc'd buffer of cap bytes, and on ROPE_E_SPACE (*len then the
 * length it needs) once more into one that fits. Returns the buffer, or NULL with *rc set. */
typedef int (*rope_cli_writer)(void *ctx, char *buf, int cap, int *len);
char *rope_cli_render(rope_cli_writer write, void *ctx, size_t cap, int *len, int *rc);

typedef enum { ROPE_FLAG_INT, ROPE_FLAG_NUMBER, ROPE_FLAG_LIST, ROPE_FLAG_TEXT } rope_flag_kind;

/* One row of a command's flag table; the parser fills the last four fields. */
typedef struct {
    const char *name; /* "--dim" */
    rope_flag_kind kind;
    const char *text; /* the value as given; NULL when the flag is absent */
    int integer;      /* ROPE_FLAG_INT */
    double number;    /* ROPE_FLAG_NUMBER */
    double *list;     /* ROPE_FLAG_LIST: malloc'd, free with rope_cli_free_flags */
    int count;
} rope_cli_flag;

/* Parses "--flag value" pairs into the table: unknown, repeated or valueless
 * flags and values outside the grammar of docs/SPEC.md are refused with one
 * line naming the flag and value. Returns 0, or the exit code (message
 * written). *help is set when --help or -h was given (usage is the caller's). */
int rope_cli_parse_flags(const char *command, rope_cli_flag *flags, int n_flags, int argc,
                         char **argv, int *help);
void rope_cli_free_flags(rope_cli_flag *flags, int n_flags);
/* v in its shortest form that reads back exactly ("1e16", "0.1"); buf: 32 bytes. */
const char *rope_cli_number(double v, char *buf, size_t cap);

/* The row named name (it must exist). */
rope_cli_flag *rope_cli_flag_named(rope_cli_flag *flags, int n_flags, const char *name);

/* The limits and defaults as written in rope.h and report.h, for messages and
 * usage texts (variadic, so that a comma list stays one string). */
#define ROPE_CLI_STR(...) #__VA_ARGS__
#define ROPE_CLI_XSTR(...) ROPE_CLI_STR(__VA_ARGS__)

int rope_cli_report(int argc, char **argv);
int rope_cli_scan(int argc, char **argv);
/* `ropescope verify` (c_src/cli/verify.c): 0 match, 1 mismatch, 2 bad input. */
int rope_cli_verify(int argc, char **argv);

/* The whole CLI: argv[0] is the program name. main() is a thin wrapper over
 * it, and the fuzzer calls it in-process with its own streams. */
int rope_cli_run(int argc, char **argv, FILE *out, FILE *err);

#endif /* ROPE_CLI_H */
