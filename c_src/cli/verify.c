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
    "                        [--against FILE [--against-sin FILE | --against-form FORM]]\n"
    "                        [--positions FROM:COUNT] [--seq-len N]\n"
    "                        [--layer-type NAME] [--apply rotate_half|interleaved]\n"
    "                        [--profile transformers|recurrence] [--format text|json]\n"
    "       ropescope verify --checkpoint DIR [--apply ...] [--profile ...] [--format ...]\n"
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
    "--against FILE: a reference dump (another implementation's, in any form above: an\n"
    "inv_freq, a cache; --against-sin for a cos and a sin file; --against-form inv_freq|\n"
    "cache|cos_sin_cache|embed_positions) checked with the dump: both against the config,\n"
    "and value by value within both sides' tolerances summed. Without --config, the config\n"
    "is a default RoPE inferred from the reference (rotary dim from its width, rope_theta\n"
    "fitted to its frequencies, positions as the dump's); a reference it cannot describe\n"
    "(scaled, or wrong) is bad input asking for --config.\n"
    "--checkpoint DIR: the RoPE buffers a checkpoint stores (tensors named *inv_freq,\n"
    "*cos_cached with its *sin_cached) in DIR's *.safetensors files, each checked against\n"
    "DIR/config.json, one line per buffer; only the headers and those tensors are read.\n"
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
    F_AGAINST,
    F_AGAINST_SIN,
    F_AGAINST_FORM,
    F_CHECKPOINT,
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

/* The dump's steps before the config: the options, the files, the positions. */
static int load_steps(rope_verify_job *j, rope_cli_flag *f)
{
    const char *names[ROPE_VERIFY_ROLES] = {f[F_INV].text,   f[F_COS].text, f[F_SIN].text,
                                            f[F_CACHE].text, f[F_CSC].text, f[F_EMB].text};
    int code = rope_verify_options(j, f[F_APPLY].text, f[F_PROFILE].text);
    if (code == ROPE_VERIFY_GOOD) code = rope_verify_load(j, names);
    if (code == ROPE_VERIFY_GOOD) code = rope_verify_positions(j, f[F_POSITIONS].text);
    return code;
}

/* The config step and the check, on a config's text. */
static int config_steps(rope_verify_job *j, rope_cli_flag *f, const char *name, const char *text,
                        size_t size)
{
    int code =
        rope_verify_configure(j, name, text, size, f[F_SEQ].text, f[F_SEQ].number, f[F_LAYER].text);
    if (code == ROPE_VERIFY_GOOD) code = rope_verify_check(j);
    return code;
}

/* The steps in order: a step's code, or minus the exit code when the line is already out. */
static int steps(rope_verify_job *j, rope_cli_flag *f)
{
    int code = load_steps(j, f);
    if (code != ROPE_VERIFY_GOOD) return code;
    size_t size = 0;
    char *text = rope_cli_config_text(f[F_CONFIG].text, &size, &code);
    if (!text) return -code;
    code = config_steps(j, f, f[F_CONFIG].text, text, size);
    free(text);
    return code;
}

/* The reference's steps up to the config: its file(s), and the dump's first position for its
 * rows (every row of it). */
static int against_load(rope_verify_job *r, const rope_verify_job *j, rope_cli_flag *f, int json)
{
    rope_verify_io io = {read_file, release_file, NULL};
    if (rope_verify_start(r, &io, json) != ROPE_VERIFY_GOOD) return ROPE_VERIFY_FAILED;
    int code = rope_verify_options(r, NULL, f[F_PROFILE].text);
    if (code == ROPE_VERIFY_GOOD)
        code = rope_verify_load_against(r, f[F_AGAINST].text, f[F_AGAINST_SIN].text,
                                        f[F_AGAINST_FORM].text);
    if (code != ROPE_VERIFY_GOOD) return code;
    char at[64];
    snprintf(at, sizeof at, "%.0f:%ld", j->dump.from, r->cos.rows);
    return rope_verify_positions(r, r->dump.cos || r->bad_row >= 0 ? at : NULL);
}

/* The default RoPE config of rotary dim dim at base, as JSON. */
static int inferred_text(char *buf, size_t cap, double base, int dim)
{
    return snprintf(buf, cap,
                    "{\"rope_theta\": %.17g, \"head_dim\": %d, \"hidden_size\": %d, "
                    "\"num_attention_heads\": 1}",
                    base, dim, dim);
}

/* Without --config: the first inferred rope_theta (roundest first) whose default RoPE the
 * reference matches; the reference's run is the one with that config. */
static int infer(rope_verify_job *r, const rope_verify_job *j, rope_cli_flag *f,
                 rope_verify_against *a, char *text, size_t cap)
{
    double bases[5];
    int n = 0, dim = 0, json = r->json;
    char msg[ROPE_VERIFY_MSG];
    if (f[F_LAYER].text)
        return -rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--layer-type needs --config: a config "
                                                   "inferred from --against has one RoPE table");
    if (rope_verify_infer(r, bases, &n, &dim, msg) != ROPE_VERIFY_GOOD)
        return -rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--against '%s': %s", f[F_AGAINST].text, msg);
    for (int k = 0; k < n; k++) {
        if (k > 0) {
            rope_verify_end(r);
            int code = against_load(r, j, f, json);
            if (code != ROPE_VERIFY_GOOD) return code;
        }
        inferred_text(text, cap, bases[k], dim);
        int code = config_steps(r, f, "inferred from --against", text, strlen(text));
        if (code == ROPE_VERIFY_GOOD) {
            a->inferred = 1;
            a->inferred_base = bases[k];
            a->inferred_dim = dim;
            return ROPE_VERIFY_GOOD;
        }
        if (code != ROPE_VERIFY_MISMATCH) return code;
    }
    return -rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                          "--against '%s': not a default RoPE table at any rope_theta near %.6g "
                          "over %d dims (a scaled RoPE, an attention factor, or a mistake in it): "
                          "give --config to say how it was computed",
                          f[F_AGAINST].text, bases[n - 1], dim);
}

/* --against: the dump's and the reference's steps, each against the config (--config's, or
 * one inferred from the reference), then the two compared value by value. */
static int against_steps(rope_verify_job *j, rope_verify_job *r, rope_cli_flag *f,
                         rope_verify_against *a)
{
    int code = load_steps(j, f);
    if (code != ROPE_VERIFY_GOOD) return code;
    if ((code = against_load(r, j, f, j->json)) != ROPE_VERIFY_GOOD) {
        if (r->msg) j->msg = r->msg, r->msg = NULL;
        return code;
    }
    a->file = f[F_AGAINST].text;
    a->sin_file = f[F_AGAINST_SIN].text;
    a->ref = r;
    if (f[F_CONFIG].text) {
        size_t size = 0;
        char *text = rope_cli_config_text(f[F_CONFIG].text, &size, &code);
        if (!text) return -code;
        code = config_steps(j, f, f[F_CONFIG].text, text, size);
        int rc = code == ROPE_VERIFY_GOOD || code == ROPE_VERIFY_MISMATCH
                     ? config_steps(r, f, f[F_CONFIG].text, text, size)
                     : ROPE_VERIFY_GOOD;
        free(text);
        if (rc != ROPE_VERIFY_GOOD && rc != ROPE_VERIFY_MISMATCH) {
            if (r->msg) j->msg = r->msg, r->msg = NULL;
            return rc;
        }
    } else {
        char text[256];
        if ((code = infer(r, j, f, a, text, sizeof text)) != ROPE_VERIFY_GOOD) {
            if (code > 0 && r->msg) j->msg = r->msg, r->msg = NULL;
            return code;
        }
        code = config_steps(j, f, "inferred from --against", text, strlen(text));
    }
    if (code != ROPE_VERIFY_GOOD && code != ROPE_VERIFY_MISMATCH) return code;
    j->against = a;
    rope_verify_compare_against(j, a);
    return r->match && j->match ? ROPE_VERIFY_GOOD : ROPE_VERIFY_MISMATCH;
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

/* --checkpoint DIR: its config.json, and each RoPE buffer its safetensors files store. */
static int checkpoint(rope_cli_flag *f, int json)
{
    const char *dir = f[F_CHECKPOINT].text;
    for (int k = 0; k < N_FLAGS; k++)
        if (f[k].text && k != F_CHECKPOINT && k != F_FORMAT && k != F_APPLY && k != F_PROFILE)
            return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                                 "%s does not go with --checkpoint, which reads DIR/config.json "
                                 "and the buffers DIR's files store",
                                 f[k].name);
    char msg[ROPE_VERIFY_MSG];
    rope_checkpoint cp;
    int code = rope_checkpoint_scan(dir, &cp, msg);
    cp.json = json;
    size_t size = 0, plen = strlen(dir) + sizeof "/config.json";
    char *path = code == ROPE_OK ? malloc(plen) : NULL;
    char *text = NULL;
    if (path) {
        snprintf(path, plen, "%s/config.json", dir);
        FILE *probe = fopen(path, "rb");
        if (probe) fclose(probe);
        if (!probe) snprintf(msg, sizeof msg, "no config.json in it (%s)", strerror(errno));
        if (!probe) code = ROPE_E_VALUE;
    } else if (code == ROPE_OK) {
        snprintf(msg, sizeof msg, "out of memory");
        code = ROPE_E_NOMEM;
    }
    int exit_code = 0;
    if (code == ROPE_OK && (text = rope_cli_config_text(path, &size, &exit_code)) == NULL) {
        free(path);
        rope_checkpoint_free(&cp);
        return exit_code;
    }
    if (code != ROPE_OK) {
        free(path);
        rope_checkpoint_free(&cp);
        return rope_cli_fail(code == ROPE_E_NOMEM ? ROPE_CLI_EXIT_IO : ROPE_CLI_EXIT_USAGE,
                             "--checkpoint '%s': %s", dir, msg);
    }
    code = rope_checkpoint_check(&cp, path, text, size, f[F_APPLY].text, f[F_PROFILE].text, msg);
    free(text);
    free(path);
    if (code == ROPE_VERIFY_REFUSED || code == ROPE_VERIFY_FAILED) {
        rope_checkpoint_free(&cp);
        return rope_cli_fail(code == ROPE_VERIFY_FAILED ? ROPE_CLI_EXIT_IO : ROPE_CLI_EXIT_USAGE,
                             "%s", msg);
    }
    for (int k = 0; k < cp.n_warnings; k++)
        fprintf(rope_cli_err, "ropescope: warning: %s\n", cp.warnings[k]);
    int len = 0, rc;
    char *out = rope_cli_render(rope_checkpoint_write, &cp, 4096, &len, &rc);
    rope_checkpoint_free(&cp);
    if (!out) return rope_cli_fail(ROPE_CLI_EXIT_IO, "out of memory for the result");
    errno = 0;
    size_t wrote = fwrite(out, 1, (size_t)len, rope_cli_out);
    free(out);
    if (wrote != (size_t)len || fflush(rope_cli_out) != 0 || ferror(rope_cli_out))
        return rope_cli_fail(ROPE_CLI_EXIT_IO, "cannot write to standard output: %s",
                             rope_cli_write_error(errno));
    return code == ROPE_VERIFY_GOOD ? 0 : 1;
}

static int run(rope_verify_job *j, rope_verify_job *r, rope_cli_flag *f, int argc, char **argv)
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
    if (f[F_CHECKPOINT].text) return checkpoint(f, strcmp(format, "json") == 0);
    if (!f[F_AGAINST].text && (f[F_AGAINST_SIN].text || f[F_AGAINST_FORM].text))
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "%s goes with --against FILE",
                             f[F_AGAINST_SIN].text ? "--against-sin" : "--against-form");
    if (!f[F_CONFIG].text && !f[F_AGAINST].text)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--config FILE is required");
    rope_verify_io io = {read_file, release_file, NULL};
    if (rope_verify_start(j, &io, strcmp(format, "json") == 0) != ROPE_VERIFY_GOOD)
        return rope_cli_fail(ROPE_CLI_EXIT_IO, "%s", j->msg);
    rope_verify_against a;
    memset(&a, 0, sizeof a);
    code = f[F_AGAINST].text ? against_steps(j, r, f, &a) : steps(j, f);
    if (code < 0) return -code;
    if (code == ROPE_VERIFY_REFUSED) return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "%s", j->msg);
    if (code == ROPE_VERIFY_FAILED) return rope_cli_fail(ROPE_CLI_EXIT_IO, "%s", j->msg);
    int printed = print(j);
    j->against = NULL; /* a lives on this stack only */
    return printed != 0 ? printed : code;
}

int rope_cli_verify(int argc, char **argv)
{
    rope_cli_flag f[N_FLAGS];
    memset(f, 0, sizeof f);
    static const char *const names[N_FLAGS] = {
        "--config",        "--inv-freq",        "--cos",       "--sin",        "--cache",
        "--cos-sin-cache", "--embed-positions", "--positions", "--layer-type", "--seq-len",
        "--format",        "--apply",           "--profile",   "--against",    "--against-sin",
        "--against-form",  "--checkpoint"};
    for (int k = 0; k < N_FLAGS; k++) {
        f[k].name = names[k];
        f[k].kind = k == F_SEQ ? ROPE_FLAG_NUMBER : ROPE_FLAG_TEXT;
    }
    rope_verify_job j, r;
    memset(&j, 0, sizeof j);
    memset(&r, 0, sizeof r);
    int code = run(&j, &r, f, argc, argv);
    rope_cli_free_flags(f, N_FLAGS);
    rope_verify_end(&j);
    rope_verify_end(&r);
    return code;
}
