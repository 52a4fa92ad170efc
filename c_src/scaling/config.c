/* The config reader's intake: keys and typed values from a JSON walker. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config_internal.h"

const char *const rope_config_top_names[ROPE_CONFIG_TOP_KEYS] = {
    "rope_theta", "partial_rotary_factor", "head_dim", "qk_rope_head_dim", "hidden_size",
    "num_attention_heads", "max_position_embeddings", "original_max_position_embeddings",
    "rope_scaling", "rope_parameters"};

const char *const rope_config_block_names[ROPE_CONFIG_BLOCK_KEYS] = {
    "rope_type", "type", "factor", "attention_factor", "beta_fast", "beta_slow", "mscale",
    "mscale_all_dim", "truncate", "low_freq_factor", "high_freq_factor",
    "original_max_position_embeddings", "short_factor", "long_factor", "rope_theta",
    "partial_rotary_factor", "new_rope_theta"};

static const char *const block_prefix[2] = {"rope_scaling", "rope_parameters"};

int rope_config_size(void)
{
    return (int)sizeof(rope_config);
}

void rope_config_init(rope_config *c)
{
    if (c == NULL) return;
    memset(c, 0, sizeof *c);
    c->factor_shown = NAN;
}

const char *rope_config_message(const rope_config *c)
{
    return c == NULL ? "" : c->error;
}

int rope_config_warning_count(const rope_config *c)
{
    return c == NULL ? 0 : c->n_warnings;
}

const char *rope_config_warning(const rope_config *c, int i)
{
    return c != NULL && i >= 0 && i < c->n_warnings ? c->warnings[i] : NULL;
}

/* Control characters in echoed text become '?', so every message stays one line. */
static void clean(char *text)
{
    for (char *p = text; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
}

int rope_config_fail(rope_config *c, int code, const char *fmt, ...)
{
    if (c->code != 0) return c->code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof c->error, fmt, ap);
    va_end(ap);
    clean(c->error);
    c->code = code;
    return code;
}

void rope_config_warn(rope_config *c, const char *fmt, ...)
{
    if (c->n_warnings >= ROPE_CONFIG_MAX_WARNINGS) {
        c->n_dropped++;
        return;
    }
    char *slot = c->warnings[c->n_warnings++];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(slot, ROPE_CONFIG_MESSAGE, fmt, ap);
    va_end(ap);
    clean(slot);
}

const char *rope_config_block_name(const rope_config *c)
{
    return c->top[K_ROPE_PARAMETERS].kind == ROPE_CONFIG_OBJECT ? block_prefix[1] : block_prefix[0];
}

void rope_config_show(const rope_config_value *v, char *out, size_t cap)
{
    switch (v->kind) {
    case ROPE_CONFIG_NUMBER: snprintf(out, cap, "%.17g", v->number); break;
    case ROPE_CONFIG_STRING: snprintf(out, cap, "\"%s\"", v->text); break;
    case ROPE_CONFIG_BOOL: snprintf(out, cap, "%s", v->number != 0.0 ? "true" : "false"); break;
    case ROPE_CONFIG_NULL: snprintf(out, cap, "null"); break;
    case ROPE_CONFIG_LIST: snprintf(out, cap, "a list of %d numbers", v->n); break;
    case ROPE_CONFIG_OBJECT: snprintf(out, cap, "an object"); break;
    default: snprintf(out, cap, "%s", v->text[0] ? v->text : "a value of another type"); break;
    }
}

static int find(const char *const *names, int count, const char *key)
{
    for (int j = 0; j < count; j++)
        if (strcmp(names[j], key) == 0) return j;
    return -1;
}

static void store(rope_config_value *v, int kind, double number, const char *text)
{
    v->set = 1;
    v->kind = kind;
    v->number = number;
    v->n = 0;
    v->text[0] = '\0';
    if (text != NULL) {
        size_t len = strlen(text);
        size_t keep = len < sizeof v->text - 1 ? len : sizeof v->text - 4;
        memcpy(v->text, text, keep);
        /* A cut string says so, and is never mistaken for a known rope_type. */
        strcpy(v->text + keep, len > keep ? "..." : "");
    }
}

/* Which block (0 or 1) holds members; -1 while none. */
static int block_in_use(const rope_config *c)
{
    for (int b = 0; b < 2; b++)
        if (c->top[K_ROPE_SCALING + b].kind == ROPE_CONFIG_OBJECT) return b;
    return -1;
}

static int put_block_marker(rope_config *c, int b, int kind, double number, const char *text)
{
    rope_config_value *v = &c->top[K_ROPE_SCALING + b];
    if (v->set) return rope_config_fail(c, ROPE_E_CONFIG, "%s is given twice", block_prefix[b]);
    store(v, kind, number, text);
    if (kind != ROPE_CONFIG_OBJECT && kind != ROPE_CONFIG_NULL) {
        char shown[96];
        rope_config_show(v, shown, sizeof shown);
        return rope_config_fail(c, ROPE_E_CONFIG, "%s must be an object or null, got %s",
                                block_prefix[b], shown);
    }
    if (kind == ROPE_CONFIG_OBJECT && c->top[K_ROPE_SCALING + 1 - b].kind == ROPE_CONFIG_OBJECT)
        return rope_config_fail(c, ROPE_E_CONFIG,
                                "rope_parameters: both rope_scaling and rope_parameters are "
                                "given; a config has one rope block");
    return ROPE_OK;
}

static int put_member(rope_config *c, int b, const char *member, int kind, double number,
                      const char *text, const double *list, int n)
{
    rope_config_value *marker = &c->top[K_ROPE_SCALING + b];
    if (!marker->set) {
        int rc = put_block_marker(c, b, ROPE_CONFIG_OBJECT, 0.0, NULL);
        if (rc != ROPE_OK) return rc;
    } else if (marker->kind != ROPE_CONFIG_OBJECT) {
        return rope_config_fail(c, ROPE_E_CONFIG, "%s.%.60s: %s is not an object",
                                block_prefix[b], member, block_prefix[b]);
    }
    int j = find(rope_config_block_names, ROPE_CONFIG_BLOCK_KEYS, member);
    if (j < 0) {
        rope_config_warn(c, "%s.%.60s is not a key of the rope block: ignored", block_prefix[b],
                         member);
        return ROPE_OK;
    }
    rope_config_value *v = &c->block[j];
    if (v->set)
        return rope_config_fail(c, ROPE_E_CONFIG, "%s.%s is given twice", block_prefix[b], member);
    store(v, kind, number, kind == ROPE_CONFIG_STRING || kind == ROPE_CONFIG_OTHER ? text : NULL);
    v->block = b;
    if (kind == ROPE_CONFIG_LIST) {
        if (n > ROPE_CONFIG_MAX_LIST)
            return rope_config_fail(c, ROPE_E_CONFIG, "%s.%s has %d entries; at most %d are "
                                    "accepted", block_prefix[b], member, n, ROPE_CONFIG_MAX_LIST);
        v->n = n;
        double *dest = j == B_SHORT_FACTOR ? c->short_factor
                       : j == B_LONG_FACTOR ? c->long_factor : NULL;
        if (dest != NULL && n > 0) memcpy(dest, list, (size_t)n * sizeof(double));
    }
    return ROPE_OK;
}

int rope_config_put(rope_config *c, const char *key, int kind, double number,
                    const char *text, const double *list, int n)
{
    if (c == NULL || key == NULL) return ROPE_E_NULL;
    if (c->code != 0) return c->code;
    if (kind < ROPE_CONFIG_NUMBER || kind > ROPE_CONFIG_OTHER)
        return rope_config_fail(c, ROPE_E_CONFIG, "%.60s: unknown value kind %d", key, kind);
    if (kind == ROPE_CONFIG_LIST && (n < 0 || (n > 0 && list == NULL)))
        return rope_config_fail(c, ROPE_E_CONFIG, "%.60s: a list needs n >= 0 values", key);
    const char *dot = strchr(key, '.');
    if (dot == NULL) {
        int j = find(rope_config_top_names, ROPE_CONFIG_TOP_KEYS, key);
        if (j == K_ROPE_SCALING || j == K_ROPE_PARAMETERS)
            return put_block_marker(c, j - K_ROPE_SCALING, kind, number, text);
        if (j < 0) return ROPE_OK; /* a config.json has many keys that do not concern RoPE */
        if (c->top[j].set) return rope_config_fail(c, ROPE_E_CONFIG, "%s is given twice", key);
        store(&c->top[j], kind, number,
              kind == ROPE_CONFIG_STRING || kind == ROPE_CONFIG_OTHER ? text : NULL);
        if (kind == ROPE_CONFIG_LIST) c->top[j].n = n;
        return ROPE_OK;
    }
    for (int b = 0; b < 2; b++) {
        size_t len = strlen(block_prefix[b]);
        if ((size_t)(dot - key) != len || strncmp(key, block_prefix[b], len) != 0) continue;
        int other = block_in_use(c);
        if (other >= 0 && other != b)
            return rope_config_fail(c, ROPE_E_CONFIG,
                                    "rope_parameters: both rope_scaling and rope_parameters are "
                                    "given; a config has one rope block");
        return put_member(c, b, dot + 1, kind, number, text, list, n);
    }
    return ROPE_OK; /* a member of some other top-level object */
}
