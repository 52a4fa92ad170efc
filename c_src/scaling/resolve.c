/* The key table of docs/SCALING.md: which keys each rope_type needs, where
 * each figure comes from, what is an error and what only a warning. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaling/config.h"
#include "scaling/config_internal.h"
#include "scaling/methods.h"

#define BIT(k) ROPE_CONFIG_BIT(k)

/* Each rope_type's keys (required, optional) are its row of the methods'
 * table (methods.c); its first row, default, applies without a block.
 * Keys every block may hold: */
static const unsigned always = BIT(B_ROPE_TYPE) | BIT(B_TYPE) | BIT(B_ROPE_THETA) | BIT(B_PARTIAL) |
                               BIT(B_MROPE_SECTION) | BIT(B_MROPE_INTERLEAVED) | BIT(B_LLAMA4_BETA);

/* Old names transformers still reads (methods.c's aliases) as their rope_type. */
static const char *canonical(const char *name)
{
    for (int j = 0; j < rope_method_alias_count; j++)
        if (strcmp(name, rope_method_aliases[j][0]) == 0) return rope_method_aliases[j][1];
    return name;
}

const char *rope_config_bname(const rope_config_ctx *x, int j, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s.%s", x->blk, rope_config_block_names[j]);
    return buf;
}

int rope_config_absent(const rope_config_value *v)
{
    return !v->set || v->kind == ROPE_CONFIG_NULL;
}

int rope_config_number(const rope_config_ctx *x, const rope_config_value *v, const char *name,
                       int mode, double *out)
{
    char shown[96];
    if (rope_config_absent(v)) {
        if (mode != ROPE_CONFIG_REQUIRED) return 0;
        return rope_config_fail(x->c, ROPE_E_CONFIG, "%s is missing (rope_type %s requires it)",
                                name, x->rule->name);
    }
    rope_config_show(v, shown, sizeof shown);
    if (v->kind != ROPE_CONFIG_NUMBER) {
        if (mode == ROPE_CONFIG_OPTIONAL) {
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

int rope_config_need_positive(const rope_config_ctx *x, const char *name, double v)
{
    if (v > 0.0) return ROPE_OK;
    return rope_config_fail(x->c, ROPE_E_SCALING, "%s must be > 0, got %.17g", name, v);
}

int rope_config_need_base(const rope_config_ctx *x, const char *name, double v)
{
    if (rope_check_base(v) == ROPE_OK) return ROPE_OK;
    return rope_config_fail(x->c, ROPE_E_SCALING,
                            "%s must be > 1, got %.17g: at a base of 1 or below the pairs would no "
                            "longer slow down",
                            name, v);
}

int rope_config_block_number(const rope_config_ctx *x, int j, int mode, double fallback,
                             int positive, double *out)
{
    char name[96];
    rope_config_bname(x, j, name, sizeof name);
    *out = fallback;
    int got = rope_config_number(x, &x->c->block[j], name, mode, out);
    if (got < 0) return got;
    if (got == 0) *out = fallback;
    return got == 1 && positive ? rope_config_need_positive(x, name, *out) : ROPE_OK;
}

static int find_rule(rope_config_ctx *x)
{
    rope_config *c = x->c;
    x->rule = &rope_methods[0];
    if (c->top[K_ROPE_SCALING].kind != ROPE_CONFIG_OBJECT &&
        c->top[K_ROPE_PARAMETERS].kind != ROPE_CONFIG_OBJECT)
        return ROPE_OK;
    const rope_config_value *rt = &c->block[B_ROPE_TYPE], *alias = &c->block[B_TYPE];
    const rope_config_value *v = rope_config_absent(rt) ? alias : rt;
    char shown[96];
    if (rope_config_absent(v))
        return rope_config_fail(c, ROPE_E_CONFIG, "%s.rope_type is missing (or its alias type)",
                                x->blk);
    rope_config_show(v, shown, sizeof shown);
    const char *key = v == rt ? "rope_type" : "type";
    if (v->kind != ROPE_CONFIG_STRING)
        return rope_config_fail(c, ROPE_E_CONFIG, "%s.%s must be a string, got %s", x->blk, key,
                                shown);
    if (v == rt && !rope_config_absent(alias) &&
        (alias->kind != ROPE_CONFIG_STRING ||
         strcmp(canonical(alias->text), canonical(rt->text)) != 0))
        return rope_config_fail(c, ROPE_E_CONFIG, "%s.type disagrees with %s.rope_type %s", x->blk,
                                x->blk, shown);
    const char *wanted = canonical(v->text);
    const rope_method *m = rope_method_named(wanted);
    if (wanted != v->text)
        rope_config_warn(c, "%s.%s %s is the old name of %s: read as %s", x->blk, key, shown,
                         wanted, wanted);
    if (m == NULL) {
        char known[96], own[48];
        return rope_config_fail(c, ROPE_E_CONFIG,
                                "%s.%s %s is not a rope_type (%s; ropescope adds %s)", x->blk, key,
                                shown, rope_method_list(known, sizeof known, ", ", 0),
                                rope_method_list(own, sizeof own, ", ", 1));
    }
    x->rule = m;
    if (x->rule->own)
        rope_config_warn(c, "%s.%s %s is ropescope's own: transformers does not know it", x->blk,
                         key, shown);
    char name[96];
    for (int j = 0; j < ROPE_CONFIG_BLOCK_KEYS; j++)
        if (c->block[j].set && !(BIT(j) & (x->rule->required | x->rule->optional | always)))
            rope_config_warn(c, "%s is not used by rope_type %s: ignored",
                             rope_config_bname(x, j, name, sizeof name), x->rule->name);
    return ROPE_OK;
}

/* A top-level number, or the block's copy (v5 rope_parameters holds it). */
static int top_or_block(const rope_config_ctx *x, int top, int member, int block_wins, double *out,
                        int *from)
{
    char name[96];
    double a = 0.0, b = 0.0;
    int ga = rope_config_number(x, &x->c->top[top], x->c->top_label[top], ROPE_CONFIG_NEEDED, &a);
    if (ga < 0) return ga;
    int gb =
        rope_config_number(x, &x->c->block[member], rope_config_bname(x, member, name, sizeof name),
                           ROPE_CONFIG_NEEDED, &b);
    if (gb < 0) return gb;
    *from = (ga && (!gb || !block_wins)) ? 1 : gb ? 2 : 0;
    if (ga && gb && a != b)
        rope_config_warn(x->c, "%s %.17g and %s %.17g disagree: the %s one is used",
                         x->c->top_label[top], a, name, b, *from == 1 ? "top-level" : "block's");
    if (*from) *out = *from == 1 ? a : b;
    return ROPE_OK;
}

/* A positive whole number of dimensions from a top-level key; 0 when absent. */
static int whole(const rope_config_ctx *x, int key, double *out)
{
    const char *name = x->c->top_label[key];
    int got = rope_config_number(x, &x->c->top[key], name, ROPE_CONFIG_NEEDED, out);
    if (got <= 0) return got;
    if (!(*out >= 1.0 && *out <= 2147483647.0 && floor(*out) == *out))
        return rope_config_fail(x->c, ROPE_E_SCALING, "%s must be a whole number >= 1, got %.17g",
                                name, *out);
    return 1;
}

/* A number from the first of keys[] given (aliases: GPT-NeoX's rotary_pct,
 * rotary_emb_base; ModernBERT's global_rope_theta); 0 when none is. */
static int first_of(const rope_config_ctx *x, const int *keys, int n, double *out, int *which)
{
    for (int j = 0; j < n; j++) {
        int g = rope_config_number(x, &x->c->top[keys[j]], x->c->top_label[keys[j]],
                                   ROPE_CONFIG_NEEDED, out);
        if (g != 0) {
            *which = keys[j];
            return g;
        }
    }
    return 0;
}

/* A top-level value (or its alias), else the block's copy, else the class
 * default (with a warning naming the class), else the generic default.
 * used (cap bytes, may be NULL): the key as the file spells it, or keys[0]'s
 * name for a default. */
static int with_default(rope_config_ctx *x, const int *keys, int n, int member, double class_value,
                        double generic, const char *what, double *out, char *used, size_t cap)
{
    rope_config *c = x->c;
    int which = keys[0], from = 0;
    double alias = 0.0;
    int g = first_of(x, keys + 1, n - 1, &alias, &which);
    if (g < 0) return g;
    int rc = top_or_block(x, keys[0], member, keys[0] == K_ROPE_THETA, out, &from);
    if (rc < 0) return rc;
    if (used != NULL) {
        if (from == 2)
            rope_config_bname(x, member, used, cap);
        else
            snprintf(used, cap, "%s", c->top_label[from == 0 && g == 1 ? which : keys[0]]);
    }
    if (from && g == 1 && alias != *out)
        rope_config_warn(c, "%s %.17g and %s %.17g disagree: %s is used", c->top_label[which],
                         alias, c->top_label[keys[0]], *out, c->top_label[keys[0]]);
    if (from) return ROPE_OK;
    if (g == 1) {
        *out = alias;
        return ROPE_OK;
    }
    if (!isnan(class_value)) {
        *out = class_value;
        rope_config_warn(c, "%s is missing: model_type %s's class default %.17g is used",
                         c->top_label[keys[0]], c->model_class, class_value);
    } else {
        *out = generic;
        if (what != NULL) rope_config_warn(c, "%s", what);
    }
    return ROPE_OK;
}

/* hidden_size or num_attention_heads, or the class default; 0 when neither. */
static int split_part(rope_config_ctx *x, int key, double class_value, double *out)
{
    int g = whole(x, key, out);
    if (g != 0 || isnan(class_value)) return g;
    *out = class_value;
    rope_config_warn(x->c, "%s is missing: model_type %s's class default %.17g is used",
                     x->c->top_label[key], x->c->model_class, class_value);
    return 1;
}

/* GPT-J's and CodeGen's classes: rotary_dim sizes the rotary dim (64 by default; null: the
 * whole head), and their attribute_map reads n_embd, n_head, n_positions and n_layer as
 * hidden_size, num_attention_heads, max_position_embeddings and num_hidden_layers. */
static int gptj_style(const rope_config *c)
{
    return c->model_class != NULL &&
           (strcmp(c->model_class, "gptj") == 0 || strcmp(c->model_class, "codegen") == 0);
}

#define GPTJ_ROTARY_DIM 64.0

static void attribute_map(rope_config *c)
{
    static const int map[][2] = {{K_N_EMBD, K_HIDDEN_SIZE},
                                 {K_N_HEAD, K_HEADS},
                                 {K_N_POSITIONS, K_MAX_POSITION},
                                 {K_N_LAYER, K_LAYERS}};
    if (!gptj_style(c)) {
        /* rotary_dim is GPT-J's: another class reads nothing from it. */
        if (!rope_config_absent(&c->top[K_ROTARY_DIM])) {
            rope_config_warn(c, "%s looks like a RoPE key, but these rules do not read it",
                             c->top_label[K_ROTARY_DIM]);
            if (c->n_unread_rope == 0) {
                char name[sizeof c->unread_rope];
                snprintf(name, sizeof name, "%s", c->top_label[K_ROTARY_DIM]);
                memcpy(c->unread_rope, name, sizeof name);
            }
        }
        return;
    }
    for (size_t j = 0; j < sizeof map / sizeof map[0]; j++) {
        rope_config_value *from = &c->top[map[j][0]], *to = &c->top[map[j][1]];
        int same = to->set && from->set && to->kind == from->kind && to->number == from->number;
        if (rope_config_absent(from) || (!rope_config_absent(to) && !same)) continue;
        *to = *from;
        memcpy(c->top_label[map[j][1]], c->top_label[map[j][0]], sizeof c->top_label[0]);
    }
}

/* A GPT-J-style class's rotary dim over a head of head dims; 0, or the error recorded. */
static int gptj_rotary_dim(rope_config_ctx *x, double head, double *rd)
{
    rope_config *c = x->c;
    int g = whole(x, K_ROTARY_DIM, rd);
    if (g < 0) return g;
    if (c->top[K_ROTARY_DIM].kind == ROPE_CONFIG_NULL) {
        *rd = head; /* rotary_dim None: the whole head */
    } else if (g == 0) {
        *rd = GPTJ_ROTARY_DIM;
        rope_config_warn(c, "%s is missing: model_type %s's class default %.17g is used",
                         c->top_label[K_ROTARY_DIM], c->model_class, *rd);
    }
    if (*rd > head)
        return rope_config_fail(c, ROPE_E_SCALING, "%s %.17g is above the head dim %.17g (%s)",
                                c->top_label[K_ROTARY_DIM], *rd, head, c->dim_source);
    return 0;
}

static int rotary_dim(rope_config_ctx *x, rope_scaling *s, const rope_config_class *k)
{
    rope_config *c = x->c;
    double prf = 1.0, head = 0.0, hidden = 0.0, heads = 0.0;
    static const int partial_keys[] = {K_PARTIAL, K_ROTARY_PCT};
    int rc =
        with_default(x, partial_keys, 2, B_PARTIAL, k ? k->partial : NAN, 1.0, NULL, &prf, NULL, 0);
    if (rc < 0) return rc;
    if (!(prf > 0.0 && prf <= 1.0))
        return rope_config_fail(c, ROPE_E_SCALING,
                                "partial_rotary_factor must be in (0, 1], "
                                "got %.17g",
                                prf);
    int g_hidden = whole(x, K_HIDDEN_SIZE, &hidden),
        g_heads = g_hidden < 0 ? -1 : whole(x, K_HEADS, &heads);
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
    double class_head = k == NULL                     ? NAN
                        : !isnan(k->qk_rope_head_dim) ? k->qk_rope_head_dim
                                                      : k->head_dim;
    if (g == 0 && !isnan(class_head)) {
        /* A class with a fixed head_dim keeps it whatever hidden_size / heads give. */
        c->dim_source = !isnan(k->qk_rope_head_dim) ? "qk_rope_head_dim (class default)"
                                                    : "head_dim (class default)";
        rope_config_warn(
            c, "%s is missing: model_type %s's class default %.17g is used",
            c->top_label[!isnan(k->qk_rope_head_dim) ? K_QK_ROPE_HEAD_DIM : K_HEAD_DIM],
            c->model_class, class_head);
        head = class_head;
        g = 1;
    }
    double split = g_hidden && g_heads ? floor(hidden / heads) : 0.0;
    if (g == 0) {
        if (k != NULL && (!g_hidden || !g_heads)) {
            if ((g_hidden = split_part(x, K_HIDDEN_SIZE, k->hidden_size, &hidden)) < 0)
                return g_hidden;
            if ((g_heads = split_part(x, K_HEADS, k->heads, &heads)) < 0) return g_heads;
            split = g_hidden && g_heads ? floor(hidden / heads) : 0.0;
        }
        if (!g_hidden || !g_heads)
            return rope_config_fail(c, ROPE_E_CONFIG, "%s is missing (and so is head_dim)",
                                    c->top_label[g_hidden ? K_HEADS : K_HIDDEN_SIZE]);
        if (split < 1.0)
            return rope_config_fail(c, ROPE_E_SCALING,
                                    "hidden_size %.17g / num_attention_heads "
                                    "%.17g is below 1",
                                    hidden, heads);
        if (split * heads != hidden)
            rope_config_warn(c,
                             "hidden_size %.17g is not a multiple of num_attention_heads "
                             "%.17g: head_dim %.17g is used",
                             hidden, heads, split);
        head = split;
        c->dim_source = "hidden_size / num_attention_heads";
    } else if (split > 0.0 && split != head && rope_config_absent(&c->top[K_GLOBAL_HEAD_DIM])) {
        /* (global_head_dim is Gemma 4's, which needs transformers v5.) */
        double old = floor(split * prf);
        if (fmod(old, 2.0) != 0.0)
            rope_config_warn(c,
                             "%s: transformers v4.43-4.44 ignore it and use hidden_size / "
                             "num_attention_heads = %.17g, an odd rotary dim %.17g those versions "
                             "cannot pair (v4.44 raises an error)",
                             c->dim_source, split, old);
        else
            rope_config_warn(c,
                             "%s: transformers v4.43-4.44 ignore it and use hidden_size / "
                             "num_attention_heads = %.17g (%d pairs)",
                             c->dim_source, split, (int)old / 2);
    }
    /* Gemma 4: the full-attention layers' heads are global_head_dim wide; the
     * sliding layers keep head_dim (their table is written at local_dim). */
    double global = 0.0;
    int g_global = whole(x, K_GLOBAL_HEAD_DIM, &global);
    if (g_global < 0) return g_global;
    double local_head = head;
    if (g_global) {
        head = global;
        c->dim_source = "global_head_dim";
    }
    /* proportional keeps the whole head's pairs; partial_rotary_factor says how many rotate. */
    int proportional = x->rule->type == ROPE_SCALING_PROPORTIONAL;
    double d = proportional ? head : floor(head * prf);
    if (gptj_style(c)) {
        if ((rc = gptj_rotary_dim(x, head, &d)) < 0) return rc;
        prf = d / head;
    }
    if (d > (double)ROPE_MAX_DIM)
        return rope_config_fail(c, ROPE_E_SCALING,
                                "%s %.17g x partial_rotary_factor %.17g "
                                "gives a rotary dim above %d",
                                c->dim_source, head, prf, ROPE_MAX_DIM);
    if (d < 2.0 || fmod(d, 2.0) != 0.0)
        return rope_config_fail(c, ROPE_E_CONFIG,
                                "%s %.17g x partial_rotary_factor %.17g gives "
                                "rotary dim %.17g: RoPE needs an even dim of at least 2",
                                c->dim_source, head, prf, d);
    s->still = 0;
    if (proportional) {
        double rotating = floor(prf * head / 2.0);
        if (rotating < 1.0)
            return rope_config_fail(c, ROPE_E_CONFIG,
                                    "%s %.17g x partial_rotary_factor %.17g / 2: no pair rotates",
                                    c->dim_source, head, prf);
        s->still = (int)(d / 2.0 - rotating);
    }
    c->local_dim = (int)d;
    if (g_global) {
        if (local_head > (double)ROPE_MAX_DIM || local_head < 2.0 || fmod(local_head, 2.0) != 0.0)
            return rope_config_fail(c, ROPE_E_CONFIG, "head_dim %.17g must be even, 2 to %d",
                                    local_head, ROPE_MAX_DIM);
        c->local_dim = (int)local_head;
    }
    c->head_dim = head;
    c->partial_rotary_factor = prf;
    s->dim = (int)d;
    return ROPE_OK;
}

/* rope_theta, the positions (max_position_embeddings and L0), the dim. */
static int common(rope_config_ctx *x, rope_scaling *s, int *l0_from, const rope_config_class *k)
{
    rope_config *c = x->c;
    static const int theta_keys[] = {K_ROPE_THETA, K_ROTARY_EMB_BASE, K_GLOBAL_THETA};
    char used[96];
    int rc = with_default(x, theta_keys, 3, B_ROPE_THETA, k ? k->rope_theta : NAN, 10000.0,
                          "rope_theta is missing: transformers' default 10000 is used", &s->base,
                          used, sizeof used);
    if (rc < 0) return rc;
    if (rope_config_need_base(x, used, s->base) < 0) return c->code;
    if ((rc = rotary_dim(x, s, k)) < 0) return rc;
    s->max_position = NAN;
    int got = rope_config_number(x, &c->top[K_MAX_POSITION], "max_position_embeddings",
                                 ROPE_CONFIG_NEEDED, &s->max_position);
    if (got < 0) return got;
    if (got && rope_config_need_positive(x, "max_position_embeddings", s->max_position) < 0)
        return c->code;
    /* L0: the top-level key first (Phi-3; current transformers), then the block's. */
    s->original_max = NAN;
    rc = top_or_block(x, K_ORIGINAL_MAX, B_ORIGINAL_MAX, 0, &s->original_max, l0_from);
    if (rc < 0) return rc;
    char name[96];
    const char *l0_name = *l0_from == 2 ? rope_config_bname(x, B_ORIGINAL_MAX, name, sizeof name)
                                        : "original_max_position_embeddings";
    if (*l0_from && rope_config_need_positive(x, l0_name, s->original_max) < 0) return c->code;
    return ROPE_OK;
}

/* The model_type of the level read, else the top level's (a nested text
 * model without one is its wrapper's class): its class row, or NULL. */
static const rope_config_class *model_class(rope_config *c)
{
    const rope_config_value *v = &c->level[c->use_nest].top[K_MODEL_TYPE];
    if (v->kind != ROPE_CONFIG_STRING) v = &c->level[0].top[K_MODEL_TYPE];
    c->model_class = v->kind == ROPE_CONFIG_STRING ? v->text : NULL;
    return rope_config_class_of(c->model_class);
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
    rope_config_pick_level(c);
    rope_config_ctx x = {c, &rope_methods[0], rope_config_block_name(c)};
    const rope_config_class *k = model_class(c);
    attribute_map(c);
    c->softmax_applies = k == NULL || k->softmax;
    int l0_from = 0, rc = find_rule(&x);
    if (rc == ROPE_OK) rc = common(&x, s, &l0_from, k);
    s->type = x.rule->type;
    if (rc == ROPE_OK) rc = rope_config_resolve_method(&x, s, l0_from);
    if (rc == ROPE_OK) rc = rope_config_resolve_model(&x, k);
    return rc < 0 ? rc : c->code;
}
