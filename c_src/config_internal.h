/*
 * What config.c (taking values) shares with config_resolve.c (the key table's
 * rules) and scaling_write.c. Not part of the public API.
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

#endif /* ROPE_CONFIG_INTERNAL_H */
