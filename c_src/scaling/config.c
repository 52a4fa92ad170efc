/* The config reader's intake: keys and typed values from a JSON walker. */
#include "scaling/config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaling/config_internal.h"

const char *const rope_config_top_names[ROPE_CONFIG_TOP_KEYS] = {"rope_theta",
                                                                 "partial_rotary_factor",
                                                                 "head_dim",
                                                                 "qk_rope_head_dim",
                                                                 "hidden_size",
                                                                 "num_attention_heads",
                                                                 "max_position_embeddings",
                                                                 "original_max_position_embeddings",
                                                                 "rope_scaling",
                                                                 "rope_parameters",
                                                                 "model_type",
                                                                 "rotary_pct",
                                                                 "rotary_emb_base",
                                                                 "rope_local_base_freq",
                                                                 "sliding_window_pattern",
                                                                 "global_rope_theta",
                                                                 "local_rope_theta",
                                                                 "global_attn_every_n_layers",
                                                                 "num_hidden_layers",
                                                                 "no_rope_layers",
                                                                 "no_rope_layer_interval",
                                                                 "query_pre_attn_scalar",
                                                                 "rope_interleave",
                                                                 "attn_temperature_tuning",
                                                                 "floor_scale",
                                                                 "attn_scale",
                                                                 "layer_types",
                                                                 "sliding_window",
                                                                 "global_head_dim",
                                                                 "auto_map",
                                                                 "n_embd",
                                                                 "n_head",
                                                                 "n_positions",
                                                                 "n_layer",
                                                                 "rotary_dim"};

const char *const rope_config_block_names[ROPE_CONFIG_BLOCK_KEYS] = {
    "rope_type",
    "type",
    "factor",
    "attention_factor",
    "beta_fast",
    "beta_slow",
    "mscale",
    "mscale_all_dim",
    "truncate",
    "low_freq_factor",
    "high_freq_factor",
    "original_max_position_embeddings",
    "short_factor",
    "long_factor",
    "rope_theta",
    "partial_rotary_factor",
    "new_rope_theta",
    "mrope_section",
    "mrope_interleaved",
    "llama_4_scaling_beta",
    "alpha"};

static const char *const block_prefix[2] = {"rope_scaling", "rope_parameters"};
/* Objects that hold a multimodal checkpoint's text model. */
static const char *const nest_names[3] = {"text_config", "llm_config", "language_config"};

int rope_config_size(void)
{
    return (int)sizeof(rope_config);
}

void rope_config_init(rope_config *c)
{
    if (c == NULL) return;
    memset(c, 0, sizeof *c);
    c->factor_shown = NAN;
    rope_config_pick_level(c);
}

int rope_config_layer_type(rope_config *c, const char *name)
{
    if (c == NULL) return ROPE_E_NULL;
    if (name == NULL) name = "";
    if (strlen(name) >= sizeof c->layer_type)
        return rope_config_fail(c, ROPE_E_CONFIG, "layer_type \"%.40s...\" is not a layer type",
                                name);
    snprintf(c->layer_type, sizeof c->layer_type, "%s", name);
    return ROPE_OK;
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
    return c->block_label;
}

const char *rope_config_block_prefix(int b)
{
    return block_prefix[b != 0];
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
static int block_in_use(const rope_config_level *l)
{
    for (int b = 0; b < 2; b++)
        if (l->top[K_ROPE_SCALING + b].kind == ROPE_CONFIG_OBJECT) return b;
    return -1;
}

/* pre: "" or "text_config." for a nested key's messages. */
static int put_block_marker(rope_config *c, rope_config_level *l, const char *pre, int b, int kind,
                            double number, const char *text)
{
    rope_config_value *v = &l->top[K_ROPE_SCALING + b];
    if (v->set)
        return rope_config_fail(c, ROPE_E_CONFIG, "%s%s is given twice", pre, block_prefix[b]);
    store(v, kind, number, text);
    if (kind != ROPE_CONFIG_OBJECT && kind != ROPE_CONFIG_NULL) {
        char shown[96];
        rope_config_show(v, shown, sizeof shown);
        return rope_config_fail(c, ROPE_E_CONFIG, "%s%s must be an object or null, got %s", pre,
                                block_prefix[b], shown);
    }
    if (kind == ROPE_CONFIG_OBJECT && l->top[K_ROPE_SCALING + 1 - b].kind == ROPE_CONFIG_OBJECT)
        return rope_config_fail(c, ROPE_E_CONFIG,
                                "%srope_parameters: both rope_scaling and rope_parameters are "
                                "given; a config has one rope block",
                                pre);
    return ROPE_OK;
}

/* A list value: where its numbers are kept and how many fit (0: not kept). */
static double *list_home(rope_config_level *l, int block, int j, int *cap)
{
    *cap = ROPE_CONFIG_MAX_LIST;
    if (block && j == B_SHORT_FACTOR) return l->short_factor;
    if (block && j == B_LONG_FACTOR) return l->long_factor;
    *cap = ROPE_CONFIG_MAX_SECTION;
    if (block && j == B_MROPE_SECTION) return l->section;
    *cap = ROPE_CONFIG_MAX_LAYERS;
    if (!block && j == K_NO_ROPE_LAYERS) return l->layers;
    *cap = 0;
    return NULL;
}

static int store_list(rope_config *c, rope_config_level *l, int block, int j, const char *name,
                      const double *list, int n)
{
    int cap = 0;
    double *dest = list_home(l, block, j, &cap);
    rope_config_value *v = block ? &l->block[j] : &l->top[j];
    if (dest == NULL) return ROPE_OK;
    if (n > cap)
        return rope_config_fail(c, ROPE_E_CONFIG, "%s has %d entries; at most %d are accepted",
                                name, n, cap);
    v->n = n;
    if (n > 0) memcpy(dest, list, (size_t)n * sizeof(double));
    return ROPE_OK;
}

static int put_member(rope_config *c, rope_config_level *l, const char *pre, int b,
                      const char *member, int kind, double number, const char *text,
                      const double *list, int n)
{
    rope_config_value *marker = &l->top[K_ROPE_SCALING + b];
    if (!marker->set) {
        int rc = put_block_marker(c, l, pre, b, ROPE_CONFIG_OBJECT, 0.0, NULL);
        if (rc != ROPE_OK) return rc;
    } else if (marker->kind != ROPE_CONFIG_OBJECT) {
        return rope_config_fail(c, ROPE_E_CONFIG, "%s%s.%.60s: %s is not an object", pre,
                                block_prefix[b], member, block_prefix[b]);
    }
    /* transformers v5 keeps one block per layer type: full_attention is the
     * main block, sliding_attention gives the local layers' base. */
    if (b == 1 && strncmp(member, "full_attention", 14) == 0 &&
        (member[14] == '\0' || member[14] == '.')) {
        l->per_type = 1;
        return member[14] == '\0'
                   ? ROPE_OK
                   : put_member(c, l, pre, b, member + 15, kind, number, text, list, n);
    }
    if (b == 1 && strncmp(member, "sliding_attention", 17) == 0 &&
        (member[17] == '\0' || member[17] == '.')) {
        l->per_type = 1;
        const char *m = member + 18;
        rope_config_value *v = member[17] == '\0'             ? NULL
                               : strcmp(m, "rope_theta") == 0 ? &l->sliding_theta
                               : strcmp(m, "rope_type") == 0  ? &l->sliding_type
                                                              : NULL;
        if (v == NULL && member[17] == '.' && strcmp(m, "type") != 0)
            rope_config_warn(c,
                             "%s%s.%.60s: only the sliding layers' rope_theta and rope_type are "
                             "read",
                             pre, block_prefix[b], member);
        if (v != NULL) store(v, kind, number, kind == ROPE_CONFIG_STRING ? text : NULL);
        return ROPE_OK;
    }
    /* Members of a member object: the object itself was already named. */
    if (strchr(member, '.') != NULL) return ROPE_OK;
    int j = find(rope_config_block_names, ROPE_CONFIG_BLOCK_KEYS, member);
    if (j < 0) {
        rope_config_warn(c, "%s%s.%.60s is not a key of the rope block: ignored", pre,
                         block_prefix[b], member);
        return ROPE_OK;
    }
    rope_config_value *v = &l->block[j];
    if (v->set)
        return rope_config_fail(c, ROPE_E_CONFIG, "%s%s.%s is given twice", pre, block_prefix[b],
                                member);
    store(v, kind, number, kind == ROPE_CONFIG_STRING || kind == ROPE_CONFIG_OTHER ? text : NULL);
    v->block = b;
    if (kind != ROPE_CONFIG_LIST) return ROPE_OK;
    char name[96];
    snprintf(name, sizeof name, "%s%s.%s", pre, block_prefix[b], member);
    return store_list(c, l, 1, j, name, list, n);
}

/* One entry of layer_types, handed over as "layer_types.N" (a walker splits a
 * list of strings so): its code, in order; other entries are ignored. */
static int put_layer_type(rope_config_level *l, const char *index, int kind, const char *text)
{
    char *end = NULL;
    long j = strtol(index, &end, 10);
    if (end == index || *end != '\0' || j != l->n_layer_types || j >= ROPE_CONFIG_MAX_LAYERS)
        return ROPE_OK;
    l->layer_type[j] = kind != ROPE_CONFIG_STRING || text == NULL ? ROPE_LAYER_TYPE_OTHER
                       : strcmp(text, "full_attention") == 0      ? ROPE_LAYER_TYPE_FULL
                       : strcmp(text, "sliding_attention") == 0   ? ROPE_LAYER_TYPE_SLIDING
                                                                  : ROPE_LAYER_TYPE_OTHER;
    l->n_layer_types++;
    return ROPE_OK;
}

/* A top-level name of the kind RoPE keys have: *rope*, *rotary*, *theta*,
 * alpha, *_base, *nope*, partial_rotary*, mrope*. */
static int looks_like_rope(const char *key)
{
    static const char *const parts[] = {"rope", "rotary", "theta", "nope"};
    for (size_t j = 0; j < sizeof parts / sizeof parts[0]; j++)
        if (strstr(key, parts[j]) != NULL) return 1;
    size_t n = strlen(key);
    return strcmp(key, "alpha") == 0 || (n > 5 && strcmp(key + n - 5, "_base") == 0) ||
           strncmp(key, "partial_rotary", 14) == 0 || strncmp(key, "mrope", 5) == 0;
}

/* One key of a level: a top-level name, or a member of its rope block. */
static int put_level(rope_config *c, rope_config_level *l, const char *pre, const char *key,
                     int kind, double number, const char *text, const double *list, int n)
{
    const char *dot = strchr(key, '.');
    if (dot != NULL && (size_t)(dot - key) == 11 && strncmp(key, "layer_types", 11) == 0)
        return put_layer_type(l, dot + 1, kind, text);
    if (dot == NULL) {
        int j = find(rope_config_top_names, ROPE_CONFIG_TOP_KEYS, key);
        if (j == K_ROPE_SCALING || j == K_ROPE_PARAMETERS)
            return put_block_marker(c, l, pre, j - K_ROPE_SCALING, kind, number, text);
        /* A config.json has many keys that do not concern RoPE; one that looks like a RoPE
         * key and is not read is named (docs/SCALING.md, "Warnings"). */
        if (j < 0 && looks_like_rope(key)) {
            rope_config_warn(c, "%s%.60s looks like a RoPE key, but these rules do not read it",
                             pre, key);
            if (c->n_unread_rope++ == 0)
                snprintf(c->unread_rope, sizeof c->unread_rope, "%s%.40s", pre, key);
        }
        if (j < 0) return ROPE_OK;
        if (l->top[j].set)
            return rope_config_fail(c, ROPE_E_CONFIG, "%s%s is given twice", pre, key);
        store(&l->top[j], kind, number,
              kind == ROPE_CONFIG_STRING || kind == ROPE_CONFIG_OTHER ? text : NULL);
        if (kind != ROPE_CONFIG_LIST) return ROPE_OK;
        l->top[j].n = n;
        char name[96];
        snprintf(name, sizeof name, "%s%s", pre, key);
        return store_list(c, l, 0, j, name, list, n);
    }
    for (int b = 0; b < 2; b++) {
        size_t len = strlen(block_prefix[b]);
        if ((size_t)(dot - key) != len || strncmp(key, block_prefix[b], len) != 0) continue;
        int other = block_in_use(l);
        if (other >= 0 && other != b)
            return rope_config_fail(c, ROPE_E_CONFIG,
                                    "%srope_parameters: both rope_scaling and rope_parameters "
                                    "are given; a config has one rope block",
                                    pre);
        return put_member(c, l, pre, b, dot + 1, kind, number, text, list, n);
    }
    return ROPE_OK; /* a member of some other top-level object */
}

/* The nested object a key belongs to (0..2), its length in *len; -1 for none. */
static int nest_of(const char *key, size_t *len)
{
    for (int j = 0; j < 3; j++) {
        *len = strlen(nest_names[j]);
        if (strncmp(key, nest_names[j], *len) == 0 && (key[*len] == '.' || key[*len] == '\0'))
            return j;
    }
    return -1;
}

int rope_config_put(rope_config *c, const char *key, int kind, double number, const char *text,
                    const double *list, int n)
{
    if (c == NULL || key == NULL) return ROPE_E_NULL;
    if (c->code != 0) return c->code;
    if (kind < ROPE_CONFIG_NUMBER || kind > ROPE_CONFIG_OTHER)
        return rope_config_fail(c, ROPE_E_CONFIG, "%.60s: unknown value kind %d", key, kind);
    if (kind == ROPE_CONFIG_LIST && (n < 0 || (n > 0 && list == NULL)))
        return rope_config_fail(c, ROPE_E_CONFIG, "%.60s: a list needs n >= 0 values", key);
    size_t len = 0;
    int nest = nest_of(key, &len);
    if (nest < 0) return put_level(c, &c->level[0], "", key, kind, number, text, list, n);
    /* The first nested text model is kept; a second one is not read. */
    if (c->nest[0] != '\0' && strcmp(c->nest, nest_names[nest]) != 0) return ROPE_OK;
    if (key[len] == '\0') {
        if (c->nest[0] != '\0')
            return rope_config_fail(c, ROPE_E_CONFIG, "%s is given twice", nest_names[nest]);
        if (kind == ROPE_CONFIG_OBJECT) snprintf(c->nest, sizeof c->nest, "%s", nest_names[nest]);
        return ROPE_OK; /* a null or other value: no nested text model */
    }
    if (c->nest[0] == '\0') return ROPE_OK; /* members without their object: not from a walker */
    char pre[24];
    snprintf(pre, sizeof pre, "%s.", c->nest);
    return put_level(c, &c->level[1], pre, key + len + 1, kind, number, text, list, n);
}
