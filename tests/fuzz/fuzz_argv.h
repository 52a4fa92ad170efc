/* What the two CLI fuzz targets share (tests/fuzz/fuzz_cli.c, tests/fuzz/fuzz_files.c):
 * the fuzzed bytes as an input stream, and an argv made of them: a command,
 * then up to FUZZ_MAX_TOKENS tokens, each a known word or raw bytes. The
 * caller decides what --out and --config may name (fix_value). */
#ifndef ROPE_FUZZ_ARGV_H
#define ROPE_FUZZ_ARGV_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define FUZZ_MAX_TOKENS 12
#define FUZZ_MAX_TOKEN 48

typedef struct {
    const uint8_t *data;
    size_t size;
} fuzz_input;

static uint8_t fuzz_byte(fuzz_input *in)
{
    uint8_t v = 0;
    if (in->size > 0) {
        v = in->data[0];
        in->data++;
        in->size--;
    }
    return v;
}

typedef struct {
    char tokens[FUZZ_MAX_TOKENS][FUZZ_MAX_TOKEN];
    char *argv[FUZZ_MAX_TOKENS + 8];
    int argc;
} fuzz_argv;

/* Rewrites token (the value after flag prev) so a run stays small and touches
 * only what the target allows; called for every token. */
typedef void (*fuzz_fix_value)(const char *prev, char *token, size_t cap, uint8_t choice);

static int fuzz_has(const fuzz_argv *a, const char *word)
{
    for (int j = 2; j < a->argc; j++)
        if (strcmp(a->argv[j], word) == 0) return 1;
    return 0;
}

/* argv[0] "ropescope", argv[1] a command, then the tokens; --dim 6 appended
 * when no --dim was given (the default 64 is slow under the sanitizers). */
static void fuzz_make_argv(fuzz_input *in, fuzz_argv *a, fuzz_fix_value fix)
{
    static const char *const commands[] = {"report", "scan", "scaling", "--help", "bogus"};
    static const char *const words[] = {"--dim",
                                        "--base",
                                        "--gap",
                                        "--from",
                                        "--to",
                                        "--step",
                                        "--starts",
                                        "--deltas",
                                        "--norm-positions",
                                        "--out",
                                        "--help",
                                        "-h",
                                        "1e16",
                                        "-0",
                                        "1,2, 3",
                                        "0x10",
                                        "--rope-type",
                                        "yarn",
                                        "--factor",
                                        "--format",
                                        "json",
                                        "--seq-len",
                                        "--train-len",
                                        "--short-factor",
                                        "--config",
                                        "0.5",
                                        "1",
                                        "--partial-rotary-factor"};
    const int n_words = (int)(sizeof words / sizeof words[0]);
    a->argc = 0;
    a->argv[a->argc++] = (char *)"ropescope";
    a->argv[a->argc++] = (char *)commands[fuzz_byte(in) % 5];
    int n = fuzz_byte(in) % (FUZZ_MAX_TOKENS + 1);
    for (int t = 0; t < n; t++) {
        uint8_t kind = fuzz_byte(in);
        char *token = a->tokens[t];
        if (kind < 128) {
            snprintf(token, FUZZ_MAX_TOKEN, "%s", words[kind % n_words]);
        } else { /* raw bytes up to a NUL or the token's end */
            int len = 0;
            while (len < FUZZ_MAX_TOKEN - 1 && in->size > 0) {
                char ch = (char)fuzz_byte(in);
                if (ch == '\0') break;
                token[len++] = ch;
            }
            token[len] = '\0';
        }
        const char *prev = a->argc > 2 ? a->argv[a->argc - 1] : "";
        if (strcmp(prev, "--dim") == 0 && strlen(token) > 2) snprintf(token, FUZZ_MAX_TOKEN, "64");
        fix(prev, token, FUZZ_MAX_TOKEN, kind);
        a->argv[a->argc++] = token;
    }
    if (!fuzz_has(a, "--dim")) {
        a->argv[a->argc++] = (char *)"--dim";
        a->argv[a->argc++] = (char *)"6";
    }
}

#endif /* ROPE_FUZZ_ARGV_H */
