/* The key table of docs/SCALING.md: which keys each rope_type needs, where
 * each figure comes from, what is an error and what only a warning. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "config_internal.h"

#define BIT(k) (1u << (k))

typedef struct {
    const char *name;
    int type;
    unsigned required, optional;
} type_rule;

static const type_rule rules[] = {
    {"default", ROPE_SCALING_DEFAULT, 0, 0},
    {"linear", ROPE_SCALING_LINEAR, BIT(B_FACTOR), 0},
    {"dynamic", ROPE_SCALING_DYNAMIC, BIT(B_FACTOR), BIT(B_ORIGINAL_MAX)},
    {"yarn", ROPE_SCALING_YARN, BIT(B_FACTOR),
     BIT(B_ATTENTION_FACTOR) | BIT(B_BETA_FAST) | BIT(B_BETA_SLOW) | BIT(B_ORIGINAL_MAX)
         | BIT(B_MSCALE) | BIT(B_MSCALE_ALL_DIM) | BIT(B_TRUNCATE)},
    {"longrope", ROPE_SCALING_LONGROPE, BIT(B_SHORT_FACTOR) | BIT(B_LONG_FACTOR),
     BIT(B_FACTOR) | BIT(B_ATTENTION_FACTOR) | BIT(B_ORIGINAL_MAX)},
    {"llama3", ROPE_SCALING_LLAMA3,
     BIT(B_FACTOR) | BIT(B_ORIGINAL_MAX) | BIT(B_LOW_FREQ) | BIT(B_HIGH_FREQ), 0},
    {"ntk", ROPE_SCALING_NTK, BIT(B_FACTOR), 0},
    {"base_change", ROPE_SCALING_BASE, BIT(B_NEW_ROPE_THETA), 0},
};
#define N_RULES ((int)(sizeof rules / sizeof rules[0]))
/* Keys every block may hold. */
static const unsigned always = BIT(B_ROPE_TYPE) | BIT(B_TYPE) | BIT(B_ROPE_THETA) | BIT(B_PARTIAL);

/* How strictly a value is read. */
enum { REQUIRED, NEEDED, OPTIONAL };

/* One resolution in progress. */
typedef struct {
    rope_config *c;
    const type_rule *rule;
    const char *blk;
} ctx;

/* The full name of a block member: "rope_scaling.factor". */
static const char *bname(const ctx *x, int j, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s.%s", x->blk, rope_config_block_names[j]);
    return buf;
}

static int absent(const rope_config_value *v)
{
    return !v->set || v->kind == ROPE_CONFIG_NULL;
}

/* 1 and *out set: a number; 0: absent (or an optional value of the wrong
 * type, with a warning); negative: the error recorded. */
static int number(const ctx *x, const rope_config_value *v, const char *name, int mode,
                  double *out)
{
    char shown[96];
    if (absent(v)) {
        if (mode != REQUIRED) return 0;
        return rope_config_fail(x->c, ROPE_E_CONFIG, "%s is missing (rope_type %s requires it)",
                                name, x->rule->name);
    }
    rope_config_show(v, shown, sizeof shown);
    if (v->kind != ROPE_CONFIG_NUMBER) {
        if (mode == OPTIONAL) {
            rope_config_warn(x->c, "%s must be a number, got %s: ignored, the default is used",
                             name, shown);
            return 0;
        }
        return rope_config_fail(x->c, ROPE_E_CONFIG, "%s must be a number, got %s", name, shown);
    }
    if (!isfinite(v->number))
        return rope_config_fail(x->c, ROPE_E_SCALING, "%s must be a finite number, got %s", name,
                                shown);
    *out = v->number;
    return 1;
}

static int need_positive(const ctx *x, const char *name, double v)
{
    if (v > 0.0) return ROPE_OK;
    return rope_config_fail(x->c, ROPE_E_SCALING, "%s must be > 0, got %.17g", name, v);
}

/* A block number with a default, checked > 0 when given. */
static int block_number(const ctx *x, int j, int mode, double fallback, int positive, double *out)
{
    char name[96];
    bname(x, j, name, sizeof name);
    *out = fallback;
    int got = number(x, &x->c->block[j], name, mode, out);
    if (got < 0) return got;
    if (got == 0) *out = fallback;
    return got == 1 && positive ? need_positive(x, name, *out) : ROPE_OK;
}

static int find_rule(ctx *x)
{
    rope_config *c = x->c;
    x->rule = &rules[0];
    if (c->top[K_ROPE_SCALING].kind != ROPE_CONFIG_OBJECT
        && c->top[K_ROPE_PARAMETERS].kind != ROPE_CONFIG_OBJECT)
        return ROPE_OK;
    const rope_config_value *rt = &c->block[B_ROPE_TYPE], *alias = &c->block[B_TYPE];
    const rope_config_value *v = absent(rt) ? alias : rt;
    char shown[96];
    if (absent(v))
        return rope_config_fail(c, ROPE_E_CONFIG, "%s.rope_type is missing (or its alias type)",
                                x->blk);
    rope_config_show(v, shown, sizeof shown);
    const char *key = v == rt ? "rope_type" : "type";
    if (v->kind != ROPE_CONFIG_STRING)
        return rope_config_fail(c, ROPE_E_CONFIG, "%s.%s must be a string, got %s", x->blk, key,
                                shown);
    if (v == rt && !absent(alias) && (alias->kind != ROPE_CONFIG_STRING
                                      || strcmp(alias->text, rt->text) != 0))
        return rope_config_fail(c, ROPE_E_CONFIG, "%s.type disagrees with %s.rope_type %s",
                                x->blk, x->blk, shown);
    for (int j = 0; j < N_RULES; j++)
        if (strcmp(rules[j].name, v->text) == 0) x->rule = &rules[j];
    if (strcmp(x->rule->name, v->text) != 0)
        return rope_config_fail(c, ROPE_E_CONFIG,
                                "%s.%s %s is not a rope_type (default, linear, dynamic, yarn, "
                                "longrope, llama3; ropescope adds ntk, base_change)",
                                x->blk, key, shown);
    if (x->rule->type == ROPE_SCALING_NTK || x->rule->type == ROPE_SCALING_BASE)
        rope_config_warn(c, "%s.%s %s is ropescope's own: transformers does not know it", x->blk,
                         key, shown);
    char name[96];
    for (int j = 0; j < ROPE_CONFIG_BLOCK_KEYS; j++)
        if (c->block[j].set && !(BIT(j) & (x->rule->required | x->rule->optional | always)))
            rope_config_warn(c, "%s is not used by rope_type %s: ignored",
                             bname(x, j, name, sizeof name), x->rule->name);
    return ROPE_OK;
}

/* A top-level number, or the block's copy (v5 rope_parameters holds it). */
static int top_or_block(const ctx *x, int top, int member, int block_wins, double *out, int *from)
{
    char name[96];
    double a = 0.0, b = 0.0;
    int ga = number(x, &x->c->top[top], rope_config_top_names[top], NEEDED, &a);
    if (ga < 0) return ga;
    int gb = number(x, &x->c->block[member], bname(x, member, name, sizeof name), NEEDED, &b);
    if (gb < 0) return gb;
    *from = (ga && (!gb || !block_wins)) ? 1 : gb ? 2 : 0;
    if (ga && gb && a != b)
        rope_config_warn(x->c, "%s %.17g and %s %.17g disagree: the %s one is used",
                         rope_config_top_names[top], a, name, b,
                         *from == 1 ? "top-level" : "block's");
    if (*from) *out = *from == 1 ? a : b;
    return ROPE_OK;
}

/* A positive whole number of dimensions from a top-level key; 0 when absent. */
static int whole(const ctx *x, int key, double *out)
{
    const char *name = rope_config_top_names[key];
    int got = number(x, &x->c->top[key], name, NEEDED, out);
    if (got <= 0) return got;
    if (!(*out >= 1.0 && *out <= 2147483647.0 && floor(*out) == *out))
        return rope_config_fail(x->c, ROPE_E_SCALING, "%s must be a whole number >= 1, got %.17g",
                                name, *out);
    return 1;
}

static int rotary_dim(ctx *x, rope_scaling *s)
{
    rope_config *c = x->c;
    double prf = 1.0, head = 0.0, hidden = 0.0, heads = 0.0;
    int from = 0, rc = top_or_block(x, K_PARTIAL, B_PARTIAL, 0, &prf, &from);
    if (rc < 0) return rc;
    if (!(prf > 0.0 && prf <= 1.0))
        return rope_config_fail(c, ROPE_E_SCALING, "partial_rotary_factor must be in (0, 1], "
                                "got %.17g", prf);
    int g_hidden = whole(x, K_HIDDEN_SIZE, &hidden), g_heads = g_hidden < 0 ? -1 : whole(x, K_HEADS, &heads);
    if (g_hidden < 0 || g_heads < 0) return c->code;
    /* head_dim is checked even where qk_rope_head_dim wins (DeepSeek has both). */
    double plain = 0.0;
    int g_plain = whole(x, K_HEAD_DIM, &plain);
    if (g_plain < 0) return g_plain;
    int g = whole(x, K_QK_ROPE_HEAD_DIM, &head);
    c->dim_source = "qk_rope_head_dim";
    if (g == 0) {
        g = g_plain;
        head = plain;
        c->dim_source = "head_dim";
    }
    if (g < 0) return g;
    double split = g_hidden && g_heads ? floor(hidden / heads) : 0.0;
    if (g == 0) {
        if (!g_hidden || !g_heads)
            return rope_config_fail(c, ROPE_E_CONFIG, "%s is missing (and so is head_dim)",
                                    g_hidden ? "num_attention_heads" : "hidden_size");
        if (split < 1.0)
            return rope_config_fail(c, ROPE_E_SCALING, "hidden_size %.17g / num_attention_heads "
                                    "%.17g is below 1", hidden, heads);
        if (split * heads != hidden)
            rope_config_warn(c, "hidden_size %.17g is not a multiple of num_attention_heads "
                             "%.17g: head_dim %.17g is used", hidden, heads, split);
        head = split;
        c->dim_source = "hidden_size / num_attention_heads";
    } else if (split > 0.0 && split != head) {
        rope_config_warn(c, "%s: transformers v4.43-4.44 ignore it and use hidden_size / "
                         "num_attention_heads = %.17g (%d pairs)", c->dim_source, split,
                         (int)floor(split * prf) / 2);
    }
    double d = floor(head * prf);
    if (d > (double)ROPE_MAX_DIM)
        return rope_config_fail(c, ROPE_E_SCALING, "%s %.17g x partial_rotary_factor %.17g "
                                "gives a rotary dim above %d", c->dim_source, head, prf,
                                ROPE_MAX_DIM);
    if (d < 2.0 || fmod(d, 2.0) != 0.0)
        return rope_config_fail(c, ROPE_E_CONFIG, "%s %.17g x partial_rotary_factor %.17g gives "
                                "rotary dim %.17g: RoPE needs an even dim of at least 2",
                                c->dim_source, head, prf, d);
    c->head_dim = head;
    c->partial_rotary_factor = prf;
    s->dim = (int)d;
    return ROPE_OK;
}

/* rope_theta, the positions (max_position_embeddings and L0), the dim. */
static int common(ctx *x, rope_scaling *s, int *l0_from)
{
    rope_config *c = x->c;
    int from = 0, rc = top_or_block(x, K_ROPE_THETA, B_ROPE_THETA, 1, &s->base, &from);
    if (rc < 0) return rc;
    if (!from) {
        s->base = 10000.0;
        rope_config_warn(c, "rope_theta is missing: transformers' default 10000 is used");
    }
    if (need_positive(x, "rope_theta", s->base) < 0) return c->code;
    if ((rc = rotary_dim(x, s)) < 0) return rc;
    s->max_position = NAN;
    int got = number(x, &c->top[K_MAX_POSITION], "max_position_embeddings", NEEDED,
                     &s->max_position);
    if (got < 0) return got;
    if (got && need_positive(x, "max_position_embeddings", s->max_position) < 0) return c->code;
    /* L0: the top-level key first (Phi-3; current transformers), then the block's. */
    s->original_max = NAN;
    rc = top_or_block(x, K_ORIGINAL_MAX, B_ORIGINAL_MAX, 0, &s->original_max, l0_from);
    if (rc < 0) return rc;
    char name[96];
    const char *l0_name = *l0_from == 2 ? bname(x, B_ORIGINAL_MAX, name, sizeof name)
                                        : "original_max_position_embeddings";
    if (*l0_from && need_positive(x, l0_name, s->original_max) < 0) return c->code;
    return ROPE_OK;
}

/* The two factor lists of longrope: lists of d/2 positive numbers. */
static int factor_list(const ctx *x, int j, int pairs)
{
    rope_config *c = x->c;
    const rope_config_value *v = &c->block[j];
    const double *list = j == B_SHORT_FACTOR ? c->short_factor : c->long_factor;
    char name[96], shown[96];
    bname(x, j, name, sizeof name);
    if (absent(v))
        return rope_config_fail(c, ROPE_E_CONFIG, "%s is missing (rope_type longrope requires it)",
                                name);
    rope_config_show(v, shown, sizeof shown);
    if (v->kind != ROPE_CONFIG_LIST)
        return rope_config_fail(c, ROPE_E_CONFIG, "%s must be a list of numbers, got %s", name,
                                shown);
    if (v->n != pairs)
        rope_config_warn(c, "%s has %d entries, but rotary dim %d has %d pairs", name, v->n,
                         2 * pairs, pairs);
    if (v->n < pairs)
        return rope_config_fail(c, ROPE_E_SCALING, "%s has %d entries, too few for %d pairs",
                                name, v->n, pairs);
    for (int i = 0; i < pairs; i++)
        if (!(isfinite(list[i]) && list[i] > 0.0))
            return rope_config_fail(c, ROPE_E_SCALING, "%s[%d] must be a finite number > 0, "
                                    "got %.17g", name, i, list[i]);
    return ROPE_OK;
}

static int yarn(const ctx *x, rope_scaling *s, int l0_from)
{
    rope_config *c = x->c;
    char fast[96], slow[96];
    double truncate = 1.0;
    int rc = ROPE_OK;
    if (rc == ROPE_OK) rc = block_number(x, B_ATTENTION_FACTOR, OPTIONAL, NAN, 1, &s->attention_factor);
    if (rc == ROPE_OK) rc = block_number(x, B_BETA_FAST, OPTIONAL, 32.0, 1, &s->beta_fast);
    if (rc == ROPE_OK) rc = block_number(x, B_BETA_SLOW, OPTIONAL, 1.0, 1, &s->beta_slow);
    if (rc == ROPE_OK) rc = block_number(x, B_MSCALE, OPTIONAL, 0.0, 0, &s->mscale);
    if (rc == ROPE_OK) rc = block_number(x, B_MSCALE_ALL_DIM, OPTIONAL, 0.0, 0, &s->mscale_all_dim);
    if (rc != ROPE_OK) return rc;
    /* g(s, m) must stay >= 1: a negative m could make the attention factor divide by zero. */
    if (s->mscale < 0.0 || s->mscale_all_dim < 0.0)
        return rope_config_fail(c, ROPE_E_SCALING, "%s must be >= 0, got %.17g",
                                bname(x, s->mscale < 0.0 ? B_MSCALE : B_MSCALE_ALL_DIM, fast,
                                      sizeof fast),
                                s->mscale < 0.0 ? s->mscale : s->mscale_all_dim);
    const rope_config_value *t = &c->block[B_TRUNCATE];
    if (!absent(t) && t->kind != ROPE_CONFIG_BOOL) {
        char shown[96];
        rope_config_show(t, shown, sizeof shown);
        rope_config_warn(c, "%s.truncate must be true or false, got %s: ignored, true is used",
                         x->blk, shown);
    } else if (!absent(t)) {
        truncate = t->number;
    }
    s->truncate = truncate != 0.0;
    if (!l0_from) {
        if (isnan(s->max_position))
            return rope_config_fail(c, ROPE_E_CONFIG, "original_max_position_embeddings is "
                                    "missing, and so is max_position_embeddings (yarn needs one)");
        s->original_max = s->max_position;
    }
    if (s->beta_fast < s->beta_slow)
        rope_config_warn(c, "%s %.17g is below %s %.17g: they look swapped",
                         bname(x, B_BETA_FAST, fast, sizeof fast), s->beta_fast,
                         bname(x, B_BETA_SLOW, slow, sizeof slow), s->beta_slow);
    if (s->base == 1.0)
        return rope_config_fail(c, ROPE_E_SCALING, "rope_theta 1 leaves yarn's correction range "
                                "undefined (it divides by ln rope_theta)");
    if (l0_from && !isnan(s->max_position)) {
        double implied = s->max_position / s->original_max;
        if (fabs(implied - s->factor) > 1e-9 * s->factor)
            rope_config_warn(c, "%s.factor %.17g disagrees with max_position_embeddings / "
                             "original_max_position_embeddings = %.17g: transformers v4.51-4.55 "
                             "use %.17g instead", x->blk, s->factor, implied, implied);
        if (s->original_max != s->max_position)
            rope_config_warn(c, "original_max_position_embeddings: transformers up to v4.50 "
                             "ignore it for yarn and use max_position_embeddings %.17g as L0",
                             s->max_position);
    }
    if (s->mscale != 0.0 || s->mscale_all_dim != 0.0)
        rope_config_warn(c, "%s.mscale: transformers up to v4.50 have no mscale or "
                         "mscale_all_dim; their attention_factor is %.17g", x->blk,
                         rope_yarn_mscale(s->factor, 1.0));
    if (s->mscale_all_dim != 0.0) {
        double g = rope_yarn_mscale(s->factor, s->mscale_all_dim);
        rope_config_warn(c, "%s.mscale_all_dim: the softmax scale is also multiplied by "
                         "%.17g; ports often miss it", x->blk, g * g);
    }
    if (!s->truncate)
        rope_config_warn(c, "%s.truncate false is honoured only from transformers v4.56; "
                         "earlier versions floor and ceil the correction range", x->blk);
    return ROPE_OK;
}

static int longrope(const ctx *x, rope_scaling *s, int l0_from)
{
    rope_config *c = x->c;
    int pairs = s->dim / 2, given = 0;
    int rc = factor_list(x, B_SHORT_FACTOR, pairs);
    if (rc == ROPE_OK) rc = factor_list(x, B_LONG_FACTOR, pairs);
    if (rc == ROPE_OK) rc = block_number(x, B_ATTENTION_FACTOR, OPTIONAL, NAN, 1, &s->attention_factor);
    if (rc != ROPE_OK) return rc;
    s->short_factor = c->short_factor;
    s->long_factor = c->long_factor;
    if (!isnan(s->factor)) given = 1;
    if (!l0_from) s->original_max = s->max_position;
    if (isnan(s->original_max))
        return rope_config_fail(c, ROPE_E_CONFIG, "max_position_embeddings is missing (longrope "
                                "needs it, or original_max_position_embeddings)");
    double implied = isnan(s->max_position) ? NAN : s->max_position / s->original_max;
    if (!given) {
        if (isnan(implied))
            return rope_config_fail(c, ROPE_E_CONFIG, "max_position_embeddings is missing "
                                    "(longrope needs it when %s.factor is not given)", x->blk);
        s->factor = implied;
    }
    if (given && !isnan(implied) && fabs(implied - s->factor) > 1e-9 * s->factor)
        rope_config_warn(c, "%s.factor %.17g: transformers before v5 replace it by "
                         "max_position_embeddings / original_max_position_embeddings = %.17g",
                         x->blk, s->factor, implied);
    if (l0_from == 2 && s->original_max != s->max_position)
        rope_config_warn(c, "%s.original_max_position_embeddings: transformers before v5 ignore "
                         "it for longrope", x->blk);
    if (!(s->seq_len > s->original_max) && s->max_position > s->original_max)
        rope_config_warn(c, "%s.short_factor is used at sequence length %.17g (long_factor only "
                         "above %.17g); transformers up to v4.47 use long_factor whenever "
                         "max_position_embeddings > original_max_position_embeddings",
                         x->blk, s->seq_len, s->original_max);
    return ROPE_OK;
}

static int resolve_method(ctx *x, rope_scaling *s, int l0_from)
{
    rope_config *c = x->c;
    const type_rule *r = x->rule;
    int t = r->type, rc;
    char name[96], other[96];
    if (BIT(B_FACTOR) & (r->required | r->optional)) {
        rc = block_number(x, B_FACTOR, (BIT(B_FACTOR) & r->required) ? REQUIRED : OPTIONAL, NAN,
                          1, &s->factor);
        if (rc < 0) return rc;
        if (s->factor < 1.0)
            rope_config_warn(c, "%s %.17g is below 1: it shrinks the context instead of "
                             "stretching it", bname(x, B_FACTOR, name, sizeof name), s->factor);
    }
    if (t == ROPE_SCALING_BASE)
        rc = block_number(x, B_NEW_ROPE_THETA, REQUIRED, NAN, 1, &s->new_base);
    else if (t == ROPE_SCALING_DYNAMIC) {
        if (isnan(s->max_position))
            return rope_config_fail(c, ROPE_E_CONFIG, "max_position_embeddings is missing "
                                    "(rope_type dynamic needs it)");
        if (s->seq_len <= s->max_position)
            rope_config_warn(c, "%s.factor: dynamic scaling follows the sequence length (%.17g), "
                             "and up to max_position_embeddings %.17g nothing changes",
                             x->blk, s->seq_len, s->max_position);
        rc = ROPE_OK;
    } else if (t == ROPE_SCALING_YARN) {
        rc = yarn(x, s, l0_from);
    } else if (t == ROPE_SCALING_LONGROPE) {
        rc = longrope(x, s, l0_from);
    } else if (t == ROPE_SCALING_LLAMA3) {
        rc = block_number(x, B_LOW_FREQ, REQUIRED, NAN, 1, &s->low_freq_factor);
        if (rc == ROPE_OK)
            rc = block_number(x, B_HIGH_FREQ, REQUIRED, NAN, 1, &s->high_freq_factor);
        if (rc == ROPE_OK && !l0_from)
            rc = rope_config_fail(c, ROPE_E_CONFIG, "%s is missing (rope_type llama3 requires it)",
                                  bname(x, B_ORIGINAL_MAX, name, sizeof name));
        if (rc == ROPE_OK && s->low_freq_factor >= s->high_freq_factor)
            rope_config_warn(c, "%s %.17g is not below %s %.17g: the smooth band is empty",
                             bname(x, B_LOW_FREQ, name, sizeof name), s->low_freq_factor,
                             bname(x, B_HIGH_FREQ, other, sizeof other), s->high_freq_factor);
    } else {
        rc = ROPE_OK;
    }
    if (rc < 0) return rc;
    if (t != ROPE_SCALING_DEFAULT && t != ROPE_SCALING_BASE) c->factor_shown = s->factor;
    return ROPE_OK;
}

int rope_config_resolve(rope_config *c, double seq_len)
{
    if (c == NULL) return ROPE_E_NULL;
    if (c->code != 0) return c->code;
    if (!c->resolved) {
        c->resolved = 1;
        c->n_put_warnings = c->n_warnings;
        c->n_put_dropped = c->n_dropped;
    }
    c->n_warnings = c->n_put_warnings;
    c->n_dropped = c->n_put_dropped;
    rope_scaling *s = &c->scaling;
    memset(s, 0, sizeof *s);
    s->seq_len = seq_len;
    s->factor = s->attention_factor = NAN;
    c->factor_shown = NAN;
    ctx x = {c, &rules[0], rope_config_block_name(c)};
    int l0_from = 0, rc = find_rule(&x);
    if (rc == ROPE_OK) rc = common(&x, s, &l0_from);
    s->type = x.rule->type;
    if (rc == ROPE_OK) rc = resolve_method(&x, s, l0_from);
    return rc < 0 ? rc : c->code;
}
