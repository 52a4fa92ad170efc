/* `ropescope verify`: reads a config and a dumped inv_freq or cos/sin table,
 * says whether the dump matches the config at its own precision (exit 0),
 * how far off it is and which known mistakes explain it (exit 1); bad input
 * exits 2 with one line on stderr and nothing on stdout. docs/VERIFY.md.
 * The steps themselves are c_src/verify/run.c's, which the page runs too;
 * this file reads the files from disk and prints. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_scaling.h"
#include "core/rope.h"
#include "scaling/config.h"
#include "verify/run.h"
#include "verify/verify.h"

static const char usage[] =
    "usage: ropescope verify --config config.json (--inv-freq FILE | --cos FILE --sin FILE |\n"
    "                        --cache FILE | --cos-sin-cache FILE | --embed-positions FILE)\n"
    "                        [--positions FROM:COUNT] [--seq-len N]\n"
    "                        [--layer-type NAME] [--apply rotate_half|interleaved]\n"
    "                        [--profile transformers|recurrence] [--format text|json]\n"
    "\n"
    "Checks a dumped inv_freq or cos/sin table against what the config says it must hold,\n"
    "at the dump's own precision. Files: .npy (float64/32/16), safetensors (F64/F32/F16/\n"
    "BF16, C64; the tensor by exact name, last dotted part, or the only one), .npz (--cache:\n"
    "uncompressed, holding cos and sin), JSON lists or CSV/whitespace text. One value per\n"
    "pair: cos and sin as wide as the pairs; --cache of Meta's freqs_cis (complex, or its\n"
    "real view [positions, pairs, 2]); vLLM's cos_sin_cache (cos | sin halves); GPT-J's\n"
    "embed_positions (sin | cos halves), by flag or by tensor name in a --cache file.\n"
    "Row r of a table is position FROM + r (default 0:rows). --layer-type sliding_attention\n"
    "holds the dump to the sliding-window layers' own table (Gemma 3, Gemma 4, ModernBERT);\n"
    "full_attention, the default, to the main one. A table in either pairing layout is right\n"
    "(the output says what it asks of q and k); --apply says how your code applies it, and\n"
    "the other layout is then a mismatch. --profile recurrence holds a table made by a\n"
    "float32 recurrence theta *= theta_scale (llama.cpp) to that computation's bound.\n"
    "Exit 0: match; 1: mismatch (with a diagnosis); 2: bad input.\n";

enum {
    F_CONFIG,
    F_INV,
    F_COS,
    F_SIN,
    F_CACHE,
    F_CSC,
    F_EMB,
    F_POSITIONS,
    F_LAYER,
    F_SEQ,
    F_FORMAT,
    F_APPLY,
    F_PROFILE,
    N_FLAGS
};

/* The dump files, mapped read-only. */
static int read_file(void *ctx, const char *path, unsigned char **buf, size_t *len, char *msg)
{
    (void)ctx;
    return rope_verify_slurp(path, buf, len, msg);
}

static void release_file(void *ctx, unsigned char *buf, size_t len)
{
    (void)ctx;
    rope_verify_unslurp(buf, len);
}

/* The config's file, then the config step; the reader of the text says why it
 * cannot read a file itself (rope_cli_config_text). */
static int configure(rope_verify_job *j, rope_cli_flag *f)
{
    size_t size = 0;
    int code = 0;
    char *text = rope_cli_config_text(f[F_CONFIG].text, &size, &code);
    if (!text) return -code;
    code = rope_verify_configure(j, f[F_CONFIG].text, text, size, f[F_SEQ].text, f[F_SEQ].number,
                                 f[F_LAYER].text);
    free(text);
    return code;
}

/* The steps in order: a step's code, or minus the exit code when the line is already out. */
static int steps(rope_verify_job *j, rope_cli_flag *f)
{
    const char *names[ROPE_VERIFY_ROLES] = {f[F_INV].text,   f[F_COS].text, f[F_SIN].text,
                                            f[F_CACHE].text, f[F_CSC].text, f[F_EMB].text};
    int code = rope_verify_options(j, f[F_APPLY].text, f[F_PROFILE].text);
    if (code == ROPE_VERIFY_GOOD) code = rope_verify_load(j, names);
    if (code == ROPE_VERIFY_GOOD) code = rope_verify_positions(j, f[F_POSITIONS].text);
    if (code == ROPE_VERIFY_GOOD) code = configure(j, f);
    if (code == ROPE_VERIFY_GOOD) code = rope_verify_check(j);
    return code;
}

static int print(rope_verify_job *j)
{
    for (int k = 0; k < rope_config_warning_count(j->c); k++)
        fprintf(rope_cli_err, "ropescope: warning: %s\n", rope_config_warning(j->c, k));
    int len = 0, rc;
    char *text = rope_cli_render(rope_verify_write, j, 4096, &len, &rc);
    if (!text) return rope_cli_fail(ROPE_CLI_EXIT_IO, "out of memory for the result");
    errno = 0;
    size_t wrote = fwrite(text, 1, (size_t)len, rope_cli_out);
    free(text);
    if (wrote != (size_t)len || fflush(rope_cli_out) != 0 || ferror(rope_cli_out))
        return rope_cli_fail(ROPE_CLI_EXIT_IO, "cannot write to standard output: %s",
                             rope_cli_write_error(errno));
    return 0;
}

static int run(rope_verify_job *j, rope_cli_flag *f, int argc, char **argv)
{
    int help, code = rope_cli_parse_flags("verify", f, N_FLAGS, argc, argv, &help);
    if (code != 0) return code;
    if (help) {
        return rope_cli_usage(usage);
    }
    const char *format = f[F_FORMAT].text ? f[F_FORMAT].text : "text";
    if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--format must be text or json, got '%s'",
                             format);
    if (!f[F_CONFIG].text) return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--config FILE is required");
    rope_verify_io io = {read_file, release_file, NULL};
    if (rope_verify_start(j, &io, strcmp(format, "json") == 0) != ROPE_VERIFY_GOOD)
        return rope_cli_fail(ROPE_CLI_EXIT_IO, "%s", j->msg);
    code = steps(j, f);
    if (code < 0) return -code;
    if (code == ROPE_VERIFY_REFUSED) return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "%s", j->msg);
    if (code == ROPE_VERIFY_FAILED) return rope_cli_fail(ROPE_CLI_EXIT_IO, "%s", j->msg);
    int printed = print(j);
    return printed != 0 ? printed : code;
}

int rope_cli_verify(int argc, char **argv)
{
    rope_cli_flag f[N_FLAGS];
    memset(f, 0, sizeof f);
    static const char *const names[N_FLAGS] = {
        "--config",        "--inv-freq",        "--cos",       "--sin",        "--cache",
        "--cos-sin-cache", "--embed-positions", "--positions", "--layer-type", "--seq-len",
        "--format",        "--apply",           "--profile"};
    for (int k = 0; k < N_FLAGS; k++) {
        f[k].name = names[k];
        f[k].kind = k == F_SEQ ? ROPE_FLAG_NUMBER : ROPE_FLAG_TEXT;
    }
    rope_verify_job j;
    memset(&j, 0, sizeof j);
    int code = run(&j, f, argc, argv);
    rope_cli_free_flags(f, N_FLAGS);
    rope_verify_end(&j);
    return code;
}
