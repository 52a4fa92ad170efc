/*
 * What config.c (taking values) shares with resolve.c (the key table's
 * rules) and write.c. Not part of the public API.
 */
#ifndef ROPE_CONFIG_INTERNAL_H
#define ROPE_CONFIG_INTERNAL_H

#include <stddef.h>

#include "scaling/config.h"

/* Top-level keys, in the order of config.c's top_names. */
enum {
    K_ROPE_THETA,
    K_PARTIAL,
    K_HEAD_DIM,
    K_QK_ROPE_HEAD_DIM,
    K_HIDDEN_SIZE,
    K_HEADS,
    K_MAX_POSITION,
    K_ORIGINAL_MAX,
    K_ROPE_SCALING,
    K_ROPE_PARAMETERS,
    K_MODEL_TYPE,
    K_ROTARY_PCT,
    K_ROTARY_EMB_BASE,
    K_LOCAL_BASE,
    K_SLIDING_PATTERN,
    K_GLOBAL_THETA,
    K_LOCAL_THETA,
    K_GLOBAL_EVERY,
    K_LAYERS,
    K_NO_ROPE_LAYERS,
    K_NO_ROPE_INTERVAL,
    K_QUERY_PRE_ATTN,
    K_ROPE_INTERLEAVE,
    K_ATTN_TEMPERATURE,
    K_FLOOR_SCALE,
    K_ATTN_SCALE,
    K_LAYER_TYPES,
    K_SLIDING_WINDOW,
    K_GLOBAL_HEAD_DIM,
    K_AUTO_MAP,
    /* GPT-J's and CodeGen's names, which their classes' attribute_map reads as hidden_size,
     * num_attention_heads, max_position_embeddings and num_hidden_layers; and their rotary_dim. */
    K_N_EMBD,
    K_N_HEAD,
    K_N_POSITIONS,
    K_N_LAYER,
    K_ROTARY_DIM
};

/* Block members, in the order of config.c's block_names. */
enum {
    B_ROPE_TYPE,
    B_TYPE,
    B_FACTOR,
    B_ATTENTION_FACTOR,
    B_BETA_FAST,
    B_BETA_SLOW,
    B_MSCALE,
    B_MSCALE_ALL_DIM,
    B_TRUNCATE,
    B_LOW_FREQ,
    B_HIGH_FREQ,
    B_ORIGINAL_MAX,
    B_SHORT_FACTOR,
    B_LONG_FACTOR,
    B_ROPE_THETA,
    B_PARTIAL,
    B_NEW_ROPE_THETA,
    B_MROPE_SECTION,
    B_MROPE_INTERLEAVED,
    B_LLAMA4_BETA,
    B_ALPHA /* HunYuan's dynamic NTK by alpha */
};

extern const char *const rope_config_top_names[ROPE_CONFIG_TOP_KEYS];
extern const char *const rope_config_block_names[ROPE_CONFIG_BLOCK_KEYS];

/* "rope_scaling" or "rope_parameters": the block the config uses, prefixed
 * with the nested object's name when the rules read a nested text model. */
const char *rope_config_block_name(const rope_config *c);
/* "rope_scaling" (b 0) or "rope_parameters" (b 1). */
const char *rope_config_block_prefix(int b);

/* A value as a message shows it: 8, "yarn", true, null, a list of 3 numbers. */
void rope_config_show(const rope_config_value *v, char *out, size_t cap);

/* Records the first error (code, printf-style text); returns the code. */
int rope_config_fail(rope_config *c, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Appends a warning (printf-style); past ROPE_CONFIG_MAX_WARNINGS they are counted. */
void rope_config_warn(rope_config *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#define ROPE_CONFIG_BIT(k) (1u << (k))

/* One resolution in progress; rule is the rope_type's row of the methods'
 * table (methods.h), whose bit masks of block members are the key table's. */
typedef struct {
    rope_config *c;
    const struct rope_method *rule;
    const char *blk;
} rope_config_ctx;

/* How strictly a value is read: missing is an error (REQUIRED); a wrong type
 * is an error (NEEDED) or a warning and the default (OPTIONAL). */
enum { ROPE_CONFIG_REQUIRED, ROPE_CONFIG_NEEDED, ROPE_CONFIG_OPTIONAL };

/* The full name of block member j: "rope_scaling.factor". */
const char *rope_config_bname(const rope_config_ctx *x, int j, char *buf, size_t cap);
/* Never put, or null. */
int rope_config_absent(const rope_config_value *v);
/* 1 and *out set: a number; 0: absent (or an optional value of the wrong
 * type, with a warning); negative: the error recorded. */
int rope_config_number(const rope_config_ctx *x, const rope_config_value *v, const char *name,
                       int mode, double *out);
/* 0, or ROPE_E_SCALING recorded when v <= 0. */
int rope_config_need_positive(const rope_config_ctx *x, const char *name, double v);
/* 0, or ROPE_E_SCALING recorded when v is not a base (rope_check_base: finite, > 1). */
int rope_config_need_base(const rope_config_ctx *x, const char *name, double v);
/* Block member j with a default, checked > 0 when given and positive is set. */
int rope_config_block_number(const rope_config_ctx *x, int j, int mode, double fallback,
                             int positive, double *out);
/* The rope_type's own keys and rules (method.c). */
int rope_config_resolve_method(rope_config_ctx *x, rope_scaling *s, int l0_from);

/* One model class's defaults (model.c); NaN where the class
 * has none (the generic rule applies). */
typedef struct {
    const char *model_type;
    double rope_theta, head_dim, qk_rope_head_dim, hidden_size, heads, partial;
    int interleaved;        /* pairs (2i, 2i + 1) instead of rotate_half's (i, i + d/2); 2: whatever
                               rope_interleave says */
    const char *why_layout; /* what in the modelling code decides the layout */
    int softmax;            /* the attention applies yarn's mscale_all_dim softmax multiplier */
    double nope_interval; /* a NoPE layer every n layers when no_rope_layers is absent; NaN none */
    double local_theta;   /* sliding-window layers' rope_theta; NaN none */
    int nope_full; /* with a sliding window, the full-attention layers skip RoPE (EXAONE 4) */
} rope_config_class;

/* The class row of a model_type, or NULL for a type the table does not hold. */
const rope_config_class *rope_config_class_of(const char *model_type);

/* Chooses the level the rules read (the top level, or the nested text model
 * when the top level holds none) and points c->top, c->block, ... at it. */
void rope_config_pick_level(rope_config *c);

/* After the common keys: the layout, the per-layer RoPE, the NoPE layers and
 * the attention-side factors (model.c). */
int rope_config_resolve_model(rope_config_ctx *x, const rope_config_class *k);

#endif /* ROPE_CONFIG_INTERNAL_H */
