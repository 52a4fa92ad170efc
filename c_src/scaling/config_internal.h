/*
 * What config.c (taking values) shares with resolve.c (the key table's
 * rules) and write.c. Not part of the public API.
 */
#ifndef ROPE_CONFIG_INTERNAL_H
#define ROPE_CONFIG_INTERNAL_H

#include <stddef.h>

#include "config.h"

/* Top-level keys, in the order of config.c's top_names. */
enum {
    K_ROPE_THETA, K_PARTIAL, K_HEAD_DIM, K_QK_ROPE_HEAD_DIM, K_HIDDEN_SIZE, K_HEADS,
    K_MAX_POSITION, K_ORIGINAL_MAX, K_ROPE_SCALING, K_ROPE_PARAMETERS
};

/* Block members, in the order of config.c's block_names. */
enum {
    B_ROPE_TYPE, B_TYPE, B_FACTOR, B_ATTENTION_FACTOR, B_BETA_FAST, B_BETA_SLOW, B_MSCALE,
    B_MSCALE_ALL_DIM, B_TRUNCATE, B_LOW_FREQ, B_HIGH_FREQ, B_ORIGINAL_MAX, B_SHORT_FACTOR,
    B_LONG_FACTOR, B_ROPE_THETA, B_PARTIAL, B_NEW_ROPE_THETA
};

extern const char *const rope_config_top_names[ROPE_CONFIG_TOP_KEYS];
extern const char *const rope_config_block_names[ROPE_CONFIG_BLOCK_KEYS];

/* "rope_scaling" or "rope_parameters": the block the config uses. */
const char *rope_config_block_name(const rope_config *c);

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

/* One rope_type's row of the key table: bit masks of block members. */
typedef struct {
    const char *name;
    int type;
    unsigned required, optional;
} rope_config_rule;

/* One resolution in progress. */
typedef struct {
    rope_config *c;
    const rope_config_rule *rule;
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
/* Block member j with a default, checked > 0 when given and positive is set. */
int rope_config_block_number(const rope_config_ctx *x, int j, int mode, double fallback,
                             int positive, double *out);
/* The rope_type's own keys and rules (method.c). */
int rope_config_resolve_method(rope_config_ctx *x, rope_scaling *s, int l0_from);

#endif /* ROPE_CONFIG_INTERNAL_H */
