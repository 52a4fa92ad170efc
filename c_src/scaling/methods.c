/* The scaling methods' table (methods.h): add a method here, give it its
 * formula in scaling.c and its rules in method.c (docs/SCALING.md). */
#include "scaling/methods.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaling/config_internal.h"
#include "scaling/scaling.h"

#define B(k) ROPE_CONFIG_BIT(k)

/* The page's columns (methods.h): kept only where the page's module is written. */
#ifdef ROPE_METHODS_PAGE
#define PAGE(...) , __VA_ARGS__
#else
#define PAGE(...)
#endif

/* The fallbacks of yarn's optional keys are the reader's defaults too
 * (method.c); those of factor (8) and of llama3's required low and high
 * frequency factors (Meta's 1 and 4) only start the page's controls.
 * Columns: fallback PAGE(param, key, boolean, zero_absent). */
const rope_method_param rope_method_params[ROPE_METHOD_PARAMS] = {
    [ROPE_P_FACTOR] = {8.0 PAGE("factor", "factor", 0, 0)},
    [ROPE_P_NEW_BASE] = {NAN PAGE("new-base", "new_rope_theta", 0, 0)},
    [ROPE_P_ORIG_MAX] = {NAN PAGE("orig-max", "original_max_position_embeddings", 0, 0)},
    [ROPE_P_LOW_FREQ] = {1.0 PAGE("low-freq", "low_freq_factor", 0, 0)},
    [ROPE_P_HIGH_FREQ] = {4.0 PAGE("high-freq", "high_freq_factor", 0, 0)},
    [ROPE_P_BETA_FAST] = {32.0 PAGE("beta-fast", "beta_fast", 0, 0)},
    [ROPE_P_BETA_SLOW] = {1.0 PAGE("beta-slow", "beta_slow", 0, 0)},
    [ROPE_P_TRUNCATE] = {1.0 PAGE("truncate", "truncate", 1, 0)},
    [ROPE_P_MSCALE] = {0.0 PAGE("mscale", "mscale", 0, 1)},
    [ROPE_P_MSCALE_ALL_DIM] = {0.0 PAGE("mscale-all-dim", "mscale_all_dim", 0, 1)},
};

#define P(k) ROPE_P(ROPE_P_##k)

/* name, type, required and optional block members, own, factor PAGE(label, params, seq_len,
 * compare);
 * a NULL label keeps a method out of the page's menu (its config is still read there). */
const rope_method rope_methods[] = {
    {"default", ROPE_SCALING_DEFAULT, 0, 0, 0, 0 PAGE("none (plain RoPE)", 0, 0, NULL)},
    {"base_change", ROPE_SCALING_BASE, B(B_NEW_ROPE_THETA), 0, 1,
     0 PAGE("base change (a new rope_theta)", P(NEW_BASE), 0, NULL)},
    {"linear", ROPE_SCALING_LINEAR, B(B_FACTOR), 0, 0,
     1 PAGE("linear (Position Interpolation)", P(FACTOR), 0, "add")},
    {"ntk", ROPE_SCALING_NTK, B(B_FACTOR), 0, 1, 1 PAGE("NTK-aware, static", P(FACTOR), 0, "mark")},
    {"dynamic", ROPE_SCALING_DYNAMIC, B(B_FACTOR), B(B_ORIGINAL_MAX) | B(B_ALPHA), 0,
     1 PAGE("dynamic NTK", P(FACTOR), 1, "slow")},
    {"yarn", ROPE_SCALING_YARN, B(B_FACTOR),
     B(B_ATTENTION_FACTOR) | B(B_BETA_FAST) | B(B_BETA_SLOW) | B(B_ORIGINAL_MAX) | B(B_MSCALE) |
         B(B_MSCALE_ALL_DIM) | B(B_TRUNCATE),
     0,
     1 PAGE("YaRN",
            P(FACTOR) | P(ORIG_MAX) | P(BETA_FAST) | P(BETA_SLOW) | P(TRUNCATE) | P(MSCALE) |
                P(MSCALE_ALL_DIM),
            0, "fast")},
    {"longrope", ROPE_SCALING_LONGROPE, B(B_SHORT_FACTOR) | B(B_LONG_FACTOR),
     B(B_FACTOR) | B(B_ATTENTION_FACTOR) | B(B_ORIGINAL_MAX), 0,
     1 PAGE("LongRoPE (factor lists)", P(ORIG_MAX), 1, NULL)},
    {"llama3", ROPE_SCALING_LLAMA3,
     B(B_FACTOR) | B(B_ORIGINAL_MAX) | B(B_LOW_FREQ) | B(B_HIGH_FREQ), 0, 0,
     1 PAGE("Llama 3 bands", P(FACTOR) | P(ORIG_MAX) | P(LOW_FREQ) | P(HIGH_FREQ), 0, "turn")},
    /* Gemma 4: the menu's dim is the rotary dim, and proportional's still pairs
     * come from a partial_rotary_factor the page has no control for. */
    {"proportional", ROPE_SCALING_PROPORTIONAL, 0, B(B_FACTOR), 0, 1 PAGE(NULL, 0, 0, NULL)},
};
const int rope_method_count = (int)(sizeof rope_methods / sizeof rope_methods[0]);

/* "mrope" (Qwen2-VL, Qwen2.5-VL) is the default frequencies split into
 * sections; "su" (early Phi-3) is longrope. */
const char *const rope_method_aliases[][2] = {{"mrope", "default"}, {"su", "longrope"}};
const int rope_method_alias_count =
    (int)(sizeof rope_method_aliases / sizeof rope_method_aliases[0]);

const rope_method *rope_method_named(const char *name)
{
    for (int j = 0; name != NULL && j < rope_method_count; j++)
        if (strcmp(rope_methods[j].name, name) == 0) return &rope_methods[j];
    return NULL;
}

const rope_method *rope_method_of_type(int type)
{
    for (int j = 0; j < rope_method_count; j++)
        if (rope_methods[j].type == type) return &rope_methods[j];
    return NULL;
}

char *rope_method_list(char *buf, int cap, const char *sep, int own)
{
    int used = 0;
    if (cap <= 0) return buf;
    buf[0] = '\0';
    for (int j = 0; j < rope_method_count; j++) {
        if (own >= 0 && rope_methods[j].own != own) continue;
        int n = snprintf(buf + used, (size_t)(cap - used), "%s%s", used ? sep : "",
                         rope_methods[j].name);
        if (n < 0 || n >= cap - used) break;
        used += n;
    }
    return buf;
}
