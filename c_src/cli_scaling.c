/* `ropescope scaling`: reads a config.json with cJSON (or takes the same keys
 * as flags), hands every key to the config reader, prints its output. */
#include "cli_scaling.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "rope.h"

#define EXIT_USAGE 2
#define MAX_CONFIG_BYTES (1L << 20)

static const char usage[] =
    "usage: ropescope scaling --config FILE.json [--seq-len N] [--train-len N --gap N]\n"
    "                         [--format table|json|csv]\n"
    "       ropescope scaling --dim D [--base B] [--rope-type T] [--factor F] ... (no file)\n"
    "\n"
    "Prints what a model's RoPE scaling does to every pair: the inverse frequency\n"
    "before and after scaling, the wavelength, the ratio and the band, the attention\n"
    "factor and the softmax multiplier, and every warning about the config (also on\n"
    "stderr). With --train-len and --gap it adds which angles each pair met in training.\n"
    "\n"
    "Instead of --config, flags named after the config keys:\n"
    "  --dim (head_dim) --base (rope_theta) --partial-rotary-factor\n"
    "  --max-position-embeddings --rope-type (default linear dynamic yarn longrope\n"
    "  llama3 ntk base_change) --factor --original-max-position-embeddings\n"
    "  --low-freq-factor --high-freq-factor --beta-fast --beta-slow --mscale\n"
    "  --mscale-all-dim --attention-factor --truncate true|false\n"
    "  --short-factor a,b,... --long-factor a,b,... --new-base (base_change)\n"
    "Files above 1 MiB are refused. Default format: table.\n";

enum { NUM, LIST, BOOL, TEXT };

/* Each flag is one config key; the reader applies the rules. */
static const struct {
    const char *flag, *key;
    int kind;
} key_flags[] = {
    {"--dim", "head_dim", NUM},
    {"--base", "rope_theta", NUM},
    {"--partial-rotary-factor", "partial_rotary_factor", NUM},
    {"--max-position-embeddings", "max_position_embeddings", NUM},
    {"--rope-type", "rope_scaling.rope_type", TEXT},
    {"--factor", "rope_scaling.factor", NUM},
    {"--original-max-position-embeddings", "rope_scaling.original_max_position_embeddings", NUM},
    {"--low-freq-factor", "rope_scaling.low_freq_factor", NUM},
    {"--high-freq-factor", "rope_scaling.high_freq_factor", NUM},
    {"--beta-fast", "rope_scaling.beta_fast", NUM},
    {"--beta-slow", "rope_scaling.beta_slow", NUM},
    {"--mscale", "rope_scaling.mscale", NUM},
    {"--mscale-all-dim", "rope_scaling.mscale_all_dim", NUM},
    {"--attention-factor", "rope_scaling.attention_factor", NUM},
    {"--truncate", "rope_scaling.truncate", BOOL},
    {"--short-factor", "rope_scaling.short_factor", LIST},
    {"--long-factor", "rope_scaling.long_factor", LIST},
    {"--new-base", "rope_scaling.new_rope_theta", NUM},
};
#define N_KEY_FLAGS ((int)(sizeof key_flags / sizeof key_flags[0]))

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

/* A plain decimal: optional sign, digits with an optional fraction, an
 * optional exponent. No hex, spaces, inf or nan; no overflow or underflow. */
static int parse_decimal(const char *text, double *out)
{
    const char *p = text;
    int digits = 0, nonzero = 0;
    if (*p == '+' || *p == '-') p++;
    for (; isdigit((unsigned char)*p); p++, digits++) nonzero |= *p != '0';
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++, digits++) nonzero |= *p != '0';
    if (digits == 0) return -1;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!isdigit((unsigned char)*p)) return -1;
        while (isdigit((unsigned char)*p)) p++;
    }
    if (*p != '\0') return -1;
    errno = 0;
    double v = strtod(text, NULL);
    if (!isfinite(v) || (nonzero && (v == 0.0 || errno == ERANGE))) return -1;
    *out = v;
    return 0;
}

/* A comma-separated list of plain decimals; *out is malloc'd. */
static int parse_list(const char *text, double **out, int *n)
{
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    double *values = malloc((len / 2 + 1) * sizeof(double));
    int count = 0, ok = copy && values && len > 0;
    if (ok) memcpy(copy, text, len + 1);
    for (char *item = copy; ok;) {
        char *comma = strchr(item, ',');
        if (comma) *comma = '\0';
        ok = count < ROPE_CONFIG_MAX_LIST && parse_decimal(item, &values[count]) == 0;
        count++;
        if (!comma) break;
        item = comma + 1;
    }
    free(copy);
    if (!ok) {
        free(values);
        return -1;
    }
    *out = values;
    *n = count;
    return 0;
}

/* Hands one JSON value to the reader; objects one level down only. */
static int put_json(rope_config *c, const char *key, const cJSON *item, int depth)
{
    if (cJSON_IsNumber(item))
        return rope_config_put(c, key, ROPE_CONFIG_NUMBER, item->valuedouble, NULL, NULL, 0);
    if (cJSON_IsString(item))
        return rope_config_put(c, key, ROPE_CONFIG_STRING, 0.0, item->valuestring, NULL, 0);
    if (cJSON_IsBool(item))
        return rope_config_put(c, key, ROPE_CONFIG_BOOL, cJSON_IsTrue(item) ? 1.0 : 0.0, NULL,
                               NULL, 0);
    if (cJSON_IsNull(item)) return rope_config_put(c, key, ROPE_CONFIG_NULL, 0.0, NULL, NULL, 0);
    if (cJSON_IsArray(item)) {
        int n = cJSON_GetArraySize(item), all_numbers = 1, j = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, item) all_numbers &= cJSON_IsNumber(e);
        if (!all_numbers)
            return rope_config_put(c, key, ROPE_CONFIG_OTHER, 0.0, "a list holding non-numbers",
                                   NULL, 0);
        double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
        if (!v) return ROPE_E_NOMEM;
        cJSON_ArrayForEach(e, item) v[j++] = e->valuedouble;
        int rc = rope_config_put(c, key, ROPE_CONFIG_LIST, 0.0, NULL, v, n);
        free(v);
        return rc;
    }
    if (!cJSON_IsObject(item) || depth > 0)
        return rope_config_put(c, key, ROPE_CONFIG_OTHER, 0.0,
                               cJSON_IsObject(item) ? "an object" : "an unknown value", NULL, 0);
    int rc = rope_config_put(c, key, ROPE_CONFIG_OBJECT, 0.0, NULL, NULL, 0);
    const cJSON *m;
    cJSON_ArrayForEach(m, item)
    {
        if (rc != ROPE_OK) break;
        size_t len = strlen(key) + strlen(m->string) + 2;
        char *path = malloc(len);
        if (!path) return ROPE_E_NOMEM;
        snprintf(path, len, "%s.%s", key, m->string);
        rc = put_json(c, path, m, depth + 1);
        free(path);
    }
    return rc;
}

static int read_config(rope_config *c, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return fail("--config: cannot open '%s': %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return fail("--config: '%s' is not a regular file", path);
    }
    if (st.st_size > MAX_CONFIG_BYTES) {
        fclose(f);
        return fail("--config: '%s' is %lld bytes; the limit is %ld", path,
                    (long long)st.st_size, MAX_CONFIG_BYTES);
    }
    size_t size = (size_t)st.st_size;
    char *text = malloc(size + 1);
    size_t got = text ? fread(text, 1, size, f) : 0;
    fclose(f);
    if (!text || got != size) {
        free(text);
        return fail("--config: cannot read '%s'", path);
    }
    text[size] = '\0';
    cJSON *root = size > 0 ? cJSON_ParseWithLength(text, size) : NULL;
    int code = 0;
    if (size == 0) {
        code = fail("--config: '%s' is empty, not a JSON object", path);
    } else if (!root) {
        const char *at = cJSON_GetErrorPtr();
        long offset = at && at >= text && at <= text + size ? (long)(at - text) : -1;
        code = fail("--config: '%s' is not JSON (it stops making sense at byte %ld)", path, offset);
    } else if (!cJSON_IsObject(root)) {
        code = fail("--config: '%s' holds JSON but not an object of config keys", path);
    } else {
        const cJSON *item;
        int rc = ROPE_OK;
        cJSON_ArrayForEach(item, root)
        {
            if (rc == ROPE_OK) rc = put_json(c, item->string, item, 0);
        }
        if (rc != ROPE_OK && c->code == 0) code = fail("--config: %s", rope_strerror(rc));
    }
    cJSON_Delete(root);
    free(text);
    return code;
}

static int put_flag(rope_config *c, int j, const char *value)
{
    double v = 0.0, *list = NULL;
    int n = 0, rc;
    const char *flag = key_flags[j].flag;
    switch (key_flags[j].kind) {
    case TEXT:
        rc = rope_config_put(c, key_flags[j].key, ROPE_CONFIG_STRING, 0.0, value, NULL, 0);
        break;
    case BOOL:
        if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0)
            return fail("%s must be true or false, got '%s'", flag, value);
        rc = rope_config_put(c, key_flags[j].key, ROPE_CONFIG_BOOL, value[0] == 't', NULL, NULL, 0);
        break;
    case LIST:
        if (parse_list(value, &list, &n) != 0)
            return fail("%s must be a comma-separated list of plain decimal numbers, got '%s'",
                        flag, value);
        rc = rope_config_put(c, key_flags[j].key, ROPE_CONFIG_LIST, 0.0, NULL, list, n);
        free(list);
        break;
    default:
        if (parse_decimal(value, &v) != 0)
            return fail("%s must be a plain decimal number, got '%s'", flag, value);
        rc = rope_config_put(c, key_flags[j].key, ROPE_CONFIG_NUMBER, v, NULL, NULL, 0);
    }
    return rc == ROPE_OK ? 0 : EXIT_USAGE; /* the reader's message is printed later */
}

/* The reader names config keys; with flags, say which flag that is too. */
static int config_error(const rope_config *c, int from_flags)
{
    static const char *const options[][2] = {
        {"seq_len", "--seq-len"}, {"train_len", "--train-len"}, {"gap ", "--gap"}};
    const char *msg = rope_config_message(c), *flag = NULL;
    size_t best = 0;
    for (int j = 0; j < 3; j++)
        if (strncmp(msg, options[j][0], strlen(options[j][0])) == 0) return fail("%s: %s", options[j][1], msg);
    /* The longest key in the message: rope_scaling.new_rope_theta, not rope_theta. */
    for (int j = 0; from_flags && j < N_KEY_FLAGS; j++) {
        size_t len = strlen(key_flags[j].key);
        if (len > best && strstr(msg, key_flags[j].key)) {
            best = len;
            flag = key_flags[j].flag;
        }
    }
    return flag ? fail("%s: %s", flag, msg) : fail("%s", msg);
}

static char *render(rope_config *c, int format, double seq_len, double train_len, double gap,
                    int *len, int *rc)
{
    int cap = 1 << 16;
    for (int attempt = 0; attempt < 2; attempt++) {
        char *buf = malloc((size_t)cap);
        if (!buf) {
            *rc = ROPE_E_NOMEM;
            return NULL;
        }
        *rc = rope_scaling_write(c, format, seq_len, train_len, gap, buf, cap, len);
        if (*rc == ROPE_OK) return buf;
        free(buf);
        if (*rc != ROPE_E_SPACE) return NULL;
        cap = *len + 1;
    }
    return NULL;
}

/* --seq-len, --train-len, --gap: plain decimals; the core checks their range. */
static int option_value(const char *flag, const char *text, double *out)
{
    if (parse_decimal(text, out) != 0)
        return fail("%s must be a plain decimal number, got '%s'", flag, text);
    return 0;
}

static int run(rope_config *c, int argc, char **argv)
{
    const char *config = NULL;
    int format = ROPE_SCALING_TABLE, from_flags = 0, code = 0;
    double seq_len = 0.0, train_len = NAN, gap = NAN;
    for (int i = 0; i < argc; i += 2) {
        const char *flag = argv[i];
        if (strcmp(flag, "--help") == 0 || strcmp(flag, "-h") == 0) {
            fputs(usage, stdout);
            return -1;
        }
        int key = -1;
        for (int j = 0; j < N_KEY_FLAGS; j++)
            if (strcmp(flag, key_flags[j].flag) == 0) key = j;
        int known = key >= 0 || !strcmp(flag, "--config") || !strcmp(flag, "--seq-len")
                    || !strcmp(flag, "--train-len") || !strcmp(flag, "--gap")
                    || !strcmp(flag, "--format");
        if (!known) return fail("unknown flag '%s' for 'scaling' (see 'ropescope scaling --help')", flag);
        if (i + 1 >= argc) return fail("%s needs a value", flag);
        const char *value = argv[i + 1];
        if (key >= 0) {
            from_flags = 1;
            code = put_flag(c, key, value);
            if (code != 0) return c->code ? config_error(c, 1) : code;
        } else if (strcmp(flag, "--config") == 0) {
            if (config) return fail("--config is given twice");
            config = value;
        } else if (strcmp(flag, "--format") == 0) {
            if (strcmp(value, "table") == 0) format = ROPE_SCALING_TABLE;
            else if (strcmp(value, "json") == 0) format = ROPE_SCALING_JSON;
            else if (strcmp(value, "csv") == 0) format = ROPE_SCALING_CSV;
            else return fail("--format must be table, json or csv, got '%s'", value);
        } else {
            double *target = !strcmp(flag, "--seq-len") ? &seq_len
                             : !strcmp(flag, "--train-len") ? &train_len : &gap;
            if ((code = option_value(flag, value, target)) != 0) return code;
        }
    }
    if (config && from_flags)
        return fail("--config cannot be combined with config-key flags such as --dim or --factor");
    if (!config && !from_flags)
        return fail("give --config FILE.json, or the config's keys as flags (--dim 128 ...)");
    if (config && (code = read_config(c, config)) != 0) return code;
    if (c->code) return config_error(c, from_flags);
    int len = 0, rc = ROPE_OK;
    char *text = render(c, format, seq_len, train_len, gap, &len, &rc);
    if (!text) return c->code ? config_error(c, from_flags) : fail("scaling: %s", rope_strerror(rc));
    for (int j = 0; j < rope_config_warning_count(c); j++)
        fprintf(stderr, "ropescope: warning: %s\n", rope_config_warning(c, j));
    int ok = fwrite(text, 1, (size_t)len, stdout) == (size_t)len;
    free(text);
    return ok && fflush(stdout) == 0 ? 0 : 1;
}

int rope_cli_scaling(int argc, char **argv)
{
    /* The reader holds two factor lists of up to 32768 doubles: on the heap. */
    rope_config *c = malloc(sizeof *c);
    if (!c) return fail("out of memory");
    rope_config_init(c);
    int code = run(c, argc, argv);
    free(c);
    return code < 0 ? 0 : code;
}
