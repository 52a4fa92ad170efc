/* `ropescope scaling`: reads a config.json file (or takes the same keys as
 * flags), hands it to the config reader, prints its output. */
#include "cli/cli_scaling.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/rope.h"
#include "scaling/config.h"
#include "scaling/methods.h"

#define MAX_CONFIG_BYTES ((long)ROPE_CONFIG_MAX_BYTES)

/* The usage, in two parts around the rope_type names (the methods' table). */
static const char usage_head[] =
    "usage: ropescope scaling --config FILE.json [--seq-len N] [--train-len N --gap N]\n"
    "                         [--format table|json|csv] [--layer-type NAME]\n"
    "       ropescope scaling --dim D [--base B] [--rope-type T] [--factor F] ... (no file)\n"
    "\n"
    "Prints what a model's RoPE scaling does to every pair: the inverse frequency\n"
    "before and after scaling, the wavelength, the ratio and the band, the attention\n"
    "factor and the softmax multiplier, and every warning about the config (also on\n"
    "stderr). With --train-len and --gap it adds which angles each pair met in training.\n"
    "\n"
    "Instead of --config, flags named after the config keys:\n"
    "  --dim (head_dim) --base (rope_theta) --partial-rotary-factor\n"
    "  --max-position-embeddings --rope-type T --factor\n"
    "  --original-max-position-embeddings\n"
    "  --low-freq-factor --high-freq-factor --beta-fast --beta-slow --mscale\n"
    "  --mscale-all-dim --attention-factor --truncate true|false\n"
    "  --short-factor a,b,... --long-factor a,b,... --new-base (base_change)\n"
    "  T, the rope_type:";
static const char usage_tail[] =
    "\n"
    "A multimodal config's text model (text_config, llm_config, language_config)\n"
    "is read when the top level has none. --layer-type full_attention or\n"
    "sliding_attention picks the layer type whose pairs the CSV lists.\n"
    "Files above 1 MiB (1048576 bytes) and anything but a regular\n"
    "file (a FIFO, a device, a folder) are refused. Default format: table.\n";

/* Each key flag is one config key; the reader applies the rules. The rows
 * below them are the command's own options. Most key flags take a number:
 * NUMBER_KEY rows; the others name their kind. */
#define NUMBER_KEY(flag, key)                                                                      \
    {                                                                                              \
        flag, key, ROPE_FLAG_NUMBER                                                                \
    }
static const struct {
    const char *flag, *key;
    rope_flag_kind kind;
} key_flags[] = {
    NUMBER_KEY("--dim", "head_dim"),
    NUMBER_KEY("--base", "rope_theta"),
    NUMBER_KEY("--partial-rotary-factor", "partial_rotary_factor"),
    NUMBER_KEY("--max-position-embeddings", "max_position_embeddings"),
    {"--rope-type", "rope_scaling.rope_type", ROPE_FLAG_TEXT},
    NUMBER_KEY("--factor", "rope_scaling.factor"),
    NUMBER_KEY("--original-max-position-embeddings",
               "rope_scaling.original_max_position_embeddings"),
    NUMBER_KEY("--low-freq-factor", "rope_scaling.low_freq_factor"),
    NUMBER_KEY("--high-freq-factor", "rope_scaling.high_freq_factor"),
    NUMBER_KEY("--beta-fast", "rope_scaling.beta_fast"),
    NUMBER_KEY("--beta-slow", "rope_scaling.beta_slow"),
    NUMBER_KEY("--mscale", "rope_scaling.mscale"),
    NUMBER_KEY("--mscale-all-dim", "rope_scaling.mscale_all_dim"),
    NUMBER_KEY("--attention-factor", "rope_scaling.attention_factor"),
    {"--truncate", "rope_scaling.truncate", ROPE_FLAG_TEXT}, /* true or false */
    {"--short-factor", "rope_scaling.short_factor", ROPE_FLAG_LIST},
    {"--long-factor", "rope_scaling.long_factor", ROPE_FLAG_LIST},
    NUMBER_KEY("--new-base", "rope_scaling.new_rope_theta"),
};
#undef NUMBER_KEY
#define N_KEY_FLAGS ((int)(sizeof key_flags / sizeof key_flags[0]))
/* The options after the key flags in the table. */
enum {
    OPT_CONFIG = N_KEY_FLAGS,
    OPT_SEQ_LEN,
    OPT_TRAIN_LEN,
    OPT_GAP,
    OPT_FORMAT,
    OPT_LAYER_TYPE,
    N_FLAGS
};

static void flag_table(rope_cli_flag *flags)
{
    memset(flags, 0, N_FLAGS * sizeof *flags);
    for (int j = 0; j < N_KEY_FLAGS; j++) {
        flags[j].name = key_flags[j].flag;
        flags[j].kind = key_flags[j].kind;
    }
    flags[OPT_CONFIG] = (rope_cli_flag){.name = "--config", .kind = ROPE_FLAG_TEXT};
    flags[OPT_SEQ_LEN] = (rope_cli_flag){.name = "--seq-len", .kind = ROPE_FLAG_NUMBER};
    flags[OPT_TRAIN_LEN] = (rope_cli_flag){.name = "--train-len", .kind = ROPE_FLAG_NUMBER};
    flags[OPT_GAP] = (rope_cli_flag){.name = "--gap", .kind = ROPE_FLAG_NUMBER};
    flags[OPT_FORMAT] = (rope_cli_flag){.name = "--format", .kind = ROPE_FLAG_TEXT};
    flags[OPT_LAYER_TYPE] = (rope_cli_flag){.name = "--layer-type", .kind = ROPE_FLAG_TEXT};
}

/* What a path that is not a regular file is, for the message. */
static const char *file_kind(mode_t mode)
{
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a plain file";
}

/* The whole file, read until EOF (st_size is 0 for /proc files and may change
 * under us), at most MAX_CONFIG_BYTES + 1: a malloc'd NUL-terminated text, or NULL
 * after one line on stderr (*code set). O_NONBLOCK makes opening a FIFO with no
 * writer return at once, and fstat refuses it before a byte is read. */
static char *slurp(const char *path, size_t *size, int *code)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    *code = ROPE_CLI_EXIT_USAGE;
    if (fd < 0) {
        rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--config: cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0) {
        rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--config: cannot read '%s': %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--config: '%s' is %s, not a regular file", path,
                      file_kind(st.st_mode));
        close(fd);
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap + 1);
    while (text) {
        if (len == cap) {
            /* One byte past the limit is enough to know the file is too big. */
            size_t grown =
                cap * 2 > (size_t)MAX_CONFIG_BYTES + 1 ? (size_t)MAX_CONFIG_BYTES + 1 : cap * 2;
            char *more = grown > cap ? realloc(text, grown + 1) : NULL;
            if (!more) break;
            text = more;
            cap = grown;
        }
        ssize_t n = read(fd, text + len, cap - len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--config: cannot read '%s': %s", path,
                          strerror(errno));
            free(text);
            close(fd);
            return NULL;
        }
        if (n == 0) break;
        len += (size_t)n;
        /* The reader refuses the text by its length, in the page's words too. */
        if (len > (size_t)MAX_CONFIG_BYTES) break;
    }
    close(fd);
    if (!text ||
        (len == cap && len <= (size_t)MAX_CONFIG_BYTES)) { /* a realloc failed before EOF */
        *code = ROPE_CLI_EXIT_IO;
        rope_cli_fail(ROPE_CLI_EXIT_IO, "--config: out of memory reading '%s'", path);
        free(text);
        return NULL;
    }
    text[len] = '\0';
    *size = len;
    *code = 0;
    return text;
}

static int read_config(rope_config *c, const char *path)
{
    size_t size = 0;
    int code = 0;
    char *text = slurp(path, &size, &code);
    if (!text) return code;
    /* The page reads a pasted config through this same call: same verdict, same words. */
    int rc = rope_config_read_json(c, text, size);
    free(text);
    if (rc == ROPE_OK) return 0;
    if (rc == ROPE_E_NOMEM)
        return rope_cli_fail(ROPE_CLI_EXIT_IO, "--config: out of memory reading '%s'", path);
    return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--config: '%s': %s", path,
                         c->code ? rope_config_message(c) : rope_strerror(rc));
}

/* Hands one parsed key flag to the reader: 0, or 2 (its message is printed later). */
static int put_flag(rope_config *c, const rope_cli_flag *f, int j)
{
    int rc;
    const char *key = key_flags[j].key;
    if (strcmp(f->name, "--truncate") == 0) {
        if (strcmp(f->text, "true") != 0 && strcmp(f->text, "false") != 0)
            return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "%s must be true or false, got '%s'", f->name,
                                 f->text);
        rc = rope_config_put(c, key, ROPE_CONFIG_BOOL, f->text[0] == 't', NULL, NULL, 0);
    } else if (f->kind == ROPE_FLAG_TEXT) {
        rc = rope_config_put(c, key, ROPE_CONFIG_STRING, 0.0, f->text, NULL, 0);
    } else if (f->kind == ROPE_FLAG_LIST) {
        rc = rope_config_put(c, key, ROPE_CONFIG_LIST, 0.0, NULL, f->list, f->count);
    } else {
        /* A base goes through the core's one check (rope_check_base) like
         * report's and scan's --base: at base <= 1 no pair slows down. */
        if (strcmp(key, "rope_theta") == 0 || strcmp(key, "rope_scaling.new_rope_theta") == 0) {
            rc = rope_check_base(f->number);
            if (rc != ROPE_OK) return rope_cli_refuse(f->name, f->text, rc);
        }
        rc = rope_config_put(c, key, ROPE_CONFIG_NUMBER, f->number, NULL, NULL, 0);
    }
    return rc == ROPE_OK ? 0 : ROPE_CLI_EXIT_USAGE;
}

/* "<flag>: <msg>", with the reader's %.17g of the flag's number (1e300 read back as
 * 1.0000000000000001e+300) shown as the user typed it, where the message holds it
 * as a whole word. */
static int fail_as_typed(const char *flag, const char *msg, const rope_cli_flag *f)
{
    char num[40];
    snprintf(num, sizeof num, "%.17g", f->number);
    size_t n = strlen(num);
    const char *at = NULL;
    if (f->kind == ROPE_FLAG_NUMBER && f->text && strcmp(f->text, num) != 0)
        for (const char *hit = strstr(msg, num); hit && !at; hit = strstr(hit + 1, num))
            if ((hit == msg || hit[-1] == ' ') &&
                (hit[n] == '\0' || !strchr("0123456789.eE", hit[n])))
                at = hit;
    if (!at) return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "%s: %s", flag, msg);
    return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "%s: %.*s%s%s", flag, (int)(at - msg), msg, f->text,
                         at + n);
}

/* The reader names config keys; with flags, say which flag that is too. */
static int config_error(const rope_config *c, int from_flags, const char *given,
                        const rope_cli_flag *flags)
{
    static const char *const options[][2] = {{"seq_len", "--seq-len"},
                                             {"train_len", "--train-len"},
                                             {"gap ", "--gap"},
                                             {"layer_type \"", "--layer-type"}};
    const char *msg = rope_config_message(c), *flag = NULL;
    size_t best = 0;
    int named = -1;
    for (int j = 0; j < 4; j++)
        if (strncmp(msg, options[j][0], strlen(options[j][0])) == 0)
            return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "%s: %s", options[j][1], msg);
    /* The key the message names first (at one place, the longest:
     * rope_scaling.new_rope_theta, not rope_theta), among the flags the user
     * gave first: `--dim 3` is blamed on --dim, not on partial_rotary_factor. */
    const char *at = NULL;
    for (int pass = 0; pass < 2 && !flag; pass++)
        for (int j = 0; from_flags && j < N_KEY_FLAGS; j++) {
            size_t len = strlen(key_flags[j].key);
            const char *hit = strstr(msg, key_flags[j].key);
            if (!hit || (pass == 0 && !given[j])) continue;
            if (!flag || hit < at || (hit == at && len > best)) {
                best = len;
                at = hit;
                flag = key_flags[j].flag;
                named = j;
            }
        }
    return flag ? fail_as_typed(flag, msg, &flags[named])
                : rope_cli_fail(ROPE_CLI_EXIT_USAGE, "%s", msg);
}

/* One config's text and its settings, for rope_cli_render. */
typedef struct {
    rope_config *c;
    int format;
    double seq_len, train_len, gap;
} scaling_job;

static int write_scaling(void *ctx, char *buf, int cap, int *len)
{
    const scaling_job *job = ctx;
    return rope_scaling_write(job->c, job->format, job->seq_len, job->train_len, job->gap, buf, cap,
                              len);
}

static char *render(rope_config *c, int format, double seq_len, double train_len, double gap,
                    int *len, int *rc)
{
    scaling_job job = {c, format, seq_len, train_len, gap};
    return rope_cli_render(write_scaling, &job, (size_t)1 << 16, len, rc);
}

static int format_named(const char *text, int *format)
{
    static const char *const names[] = {"table", "json", "csv"};
    static const int formats[] = {ROPE_SCALING_TABLE, ROPE_SCALING_JSON, ROPE_SCALING_CSV};
    for (int j = 0; j < 3; j++)
        if (strcmp(text, names[j]) == 0) {
            *format = formats[j];
            return 0;
        }
    return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--format must be table, json or csv, got '%s'",
                         text);
}

/* The warnings on stderr, the text on stdout; every write checked. */
static int print(const rope_config *c, const char *text, int len)
{
    for (int j = 0; j < rope_config_warning_count(c); j++)
        if (fprintf(rope_cli_err, "ropescope: warning: %s\n", rope_config_warning(c, j)) < 0)
            return rope_cli_fail(ROPE_CLI_EXIT_IO,
                                 "cannot write the warnings to standard error: %s",
                                 rope_cli_write_error(errno));
    if (fwrite(text, 1, (size_t)len, rope_cli_out) != (size_t)len || fflush(rope_cli_out) != 0)
        return rope_cli_fail(ROPE_CLI_EXIT_IO,
                             "cannot write the scaling table to standard output: %s",
                             rope_cli_write_error(errno));
    return 0;
}

static int run(rope_config *c, rope_cli_flag *flags, int argc, char **argv)
{
    int format = ROPE_SCALING_TABLE, from_flags = 0, help, code;
    if ((code = rope_cli_parse_flags("scaling", flags, N_FLAGS, argc, argv, &help)) != 0)
        return code;
    if (help) {
        char text[sizeof usage_head + sizeof usage_tail + 160], names[160];
        snprintf(text, sizeof text, "%s %s%s", usage_head,
                 rope_method_list(names, sizeof names, " ", -1), usage_tail);
        return rope_cli_usage(text);
    }
    const char *config = flags[OPT_CONFIG].text;
    if (flags[OPT_FORMAT].text && (code = format_named(flags[OPT_FORMAT].text, &format)) != 0)
        return code;
    char given[N_KEY_FLAGS];
    for (int j = 0; j < N_KEY_FLAGS; j++) {
        given[j] = flags[j].text != NULL;
        from_flags |= given[j];
    }
    if (config && from_flags)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "--config cannot be combined with config-key "
                                                  "flags such as --dim or --factor");
    if (!config && !from_flags)
        return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "give --config FILE.json, or the config's keys "
                                                  "as flags (--dim 128 ...)");
    for (int j = 0; j < N_KEY_FLAGS; j++)
        if (flags[j].text && (code = put_flag(c, &flags[j], j)) != 0)
            return c->code ? config_error(c, 1, given, flags) : code;
    if (config && (code = read_config(c, config)) != 0) return code;
    if (flags[OPT_LAYER_TYPE].text) {
        if (format != ROPE_SCALING_CSV)
            return rope_cli_fail(ROPE_CLI_EXIT_USAGE,
                                 "--layer-type picks the CSV's table: give "
                                 "it with --format csv (json and table show every layer type)");
        rope_config_layer_type(c, flags[OPT_LAYER_TYPE].text);
    }
    if (c->code) return config_error(c, from_flags, given, flags);
    /* --seq-len, --train-len, --gap: the writer checks their range. */
    double seq_len = flags[OPT_SEQ_LEN].text ? flags[OPT_SEQ_LEN].number : 0.0;
    double train_len = flags[OPT_TRAIN_LEN].text ? flags[OPT_TRAIN_LEN].number : NAN;
    double gap = flags[OPT_GAP].text ? flags[OPT_GAP].number : NAN;
    int len = 0, rc = ROPE_OK;
    char *text = render(c, format, seq_len, train_len, gap, &len, &rc);
    if (!text)
        return c->code ? config_error(c, from_flags, given, flags)
                       : rope_cli_fail(rc == ROPE_E_NOMEM ? ROPE_CLI_EXIT_IO : ROPE_CLI_EXIT_USAGE,
                                       "scaling: %s", rope_strerror(rc));
    code = print(c, text, len);
    free(text);
    return code;
}

int rope_cli_scaling(int argc, char **argv)
{
    /* The reader holds two factor lists of up to 32768 doubles: static, not on
     * the stack, and not malloc'd per call (the fuzzers call this thousands of
     * times a second; rope_config_init resets it). */
    static rope_config config;
    rope_config *c = &config;
    rope_cli_flag flags[N_FLAGS];
    flag_table(flags);
    rope_config_init(c);
    int code = run(c, flags, argc, argv);
    rope_cli_free_flags(flags, N_FLAGS);
    return code;
}

/* The same config reading for `ropescope verify`: 0, or 2 with the line written. */
char *rope_cli_config_text(const char *path, size_t *size, int *code)
{
    return slurp(path, size, code);
}
