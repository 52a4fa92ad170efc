/* The rules of each rope_type's own keys (docs/SCALING.md, "Reading a
 * config"): yarn, longrope, llama3, dynamic and the rest. */
#include <math.h>
#include <stdio.h>

#include "scaling/config.h"
#include "scaling/config_internal.h"
#include "scaling/methods.h"

/* The two factor lists of longrope: lists of d/2 positive numbers. */
static int factor_list(const rope_config_ctx *x, int j, int pairs)
{
    rope_config *c = x->c;
    const rope_config_value *v = &c->block[j];
    const double *list = j == B_SHORT_FACTOR ? c->short_factor : c->long_factor;
    char name[96], shown[96];
    rope_config_bname(x, j, name, sizeof name);
    if (rope_config_absent(v))
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
        return rope_config_fail(c, ROPE_E_SCALING, "%s has %d entries, too few for %d pairs", name,
                                v->n, pairs);
    for (int i = 0; i < pairs; i++)
        if (!(isfinite(list[i]) && list[i] > 0.0))
            return rope_config_fail(c, ROPE_E_SCALING,
                                    "%s[%d] must be a finite number > 0, "
                                    "got %.17g",
                                    name, i, list[i]);
    return ROPE_OK;
}

static int yarn(const rope_config_ctx *x, rope_scaling *s, int l0_from)
{
    rope_config *c = x->c;
    char fast[96], slow[96];
    /* The defaults of the optional keys are the page's too: the methods' table holds them. */
    const rope_method_param *p = rope_method_params;
    double truncate = p[ROPE_P_TRUNCATE].fallback;
    int rc = ROPE_OK;
    if (rc == ROPE_OK)
        rc = rope_config_block_number(x, B_ATTENTION_FACTOR, ROPE_CONFIG_OPTIONAL, NAN, 1,
                                      &s->attention_factor);
    if (rc == ROPE_OK)
        rc = rope_config_block_number(x, B_BETA_FAST, ROPE_CONFIG_OPTIONAL,
                                      p[ROPE_P_BETA_FAST].fallback, 1, &s->beta_fast);
    if (rc == ROPE_OK)
        rc = rope_config_block_number(x, B_BETA_SLOW, ROPE_CONFIG_OPTIONAL,
                                      p[ROPE_P_BETA_SLOW].fallback, 1, &s->beta_slow);
    if (rc == ROPE_OK)
        rc = rope_config_block_number(x, B_MSCALE, ROPE_CONFIG_OPTIONAL, p[ROPE_P_MSCALE].fallback,
                                      0, &s->mscale);
    if (rc == ROPE_OK)
        rc = rope_config_block_number(x, B_MSCALE_ALL_DIM, ROPE_CONFIG_OPTIONAL,
                                      p[ROPE_P_MSCALE_ALL_DIM].fallback, 0, &s->mscale_all_dim);
    if (rc != ROPE_OK) return rc;
    /* g(s, m) must stay >= 1: a negative m could make the attention factor divide by zero. */
    if (s->mscale < 0.0 || s->mscale_all_dim < 0.0)
        return rope_config_fail(
            c, ROPE_E_SCALING, "%s must be >= 0, got %.17g",
            rope_config_bname(x, s->mscale < 0.0 ? B_MSCALE : B_MSCALE_ALL_DIM, fast, sizeof fast),
            s->mscale < 0.0 ? s->mscale : s->mscale_all_dim);
    const rope_config_value *t = &c->block[B_TRUNCATE];
    if (!rope_config_absent(t) && t->kind != ROPE_CONFIG_BOOL) {
        char shown[96];
        rope_config_show(t, shown, sizeof shown);
        rope_config_warn(c, "%s.truncate must be true or false, got %s: ignored, true is used",
                         x->blk, shown);
    } else if (!rope_config_absent(t)) {
        truncate = t->number;
    }
    s->truncate = truncate != 0.0;
    if (!l0_from) {
        if (isnan(s->max_position))
            return rope_config_fail(c, ROPE_E_CONFIG,
                                    "original_max_position_embeddings is "
                                    "missing, and so is max_position_embeddings (yarn needs one)");
        s->original_max = s->max_position;
    }
    if (s->beta_fast < s->beta_slow)
        rope_config_warn(c, "%s %.17g is below %s %.17g: they look swapped",
                         rope_config_bname(x, B_BETA_FAST, fast, sizeof fast), s->beta_fast,
                         rope_config_bname(x, B_BETA_SLOW, slow, sizeof slow), s->beta_slow);
    if (s->base == 1.0)
        return rope_config_fail(c, ROPE_E_SCALING,
                                "rope_theta 1 leaves yarn's correction range "
                                "undefined (it divides by ln rope_theta)");
    if (l0_from && !isnan(s->max_position)) {
        double implied = s->max_position / s->original_max;
        if (fabs(implied - s->factor) > 1e-9 * s->factor)
            rope_config_warn(c,
                             "%s.factor %.17g disagrees with max_position_embeddings / "
                             "original_max_position_embeddings = %.17g: transformers v4.51-4.55 "
                             "use %.17g instead",
                             x->blk, s->factor, implied, implied);
        if (s->original_max != s->max_position)
            rope_config_warn(c,
                             "original_max_position_embeddings: transformers up to v4.50 "
                             "ignore it for yarn and use max_position_embeddings %.17g as L0",
                             s->max_position);
    }
    if (s->mscale != 0.0 || s->mscale_all_dim != 0.0)
        rope_config_warn(c,
                         "%s.mscale: transformers up to v4.50 have no mscale or "
                         "mscale_all_dim; their attention_factor is %.17g",
                         x->blk, rope_yarn_mscale(s->factor, 1.0));
    if (s->mscale_all_dim != 0.0) {
        double g = rope_yarn_mscale(s->factor, s->mscale_all_dim);
        if (c->softmax_applies)
            rope_config_warn(c,
                             "%s.mscale_all_dim: the softmax scale is also multiplied by "
                             "%.17g; ports often miss it",
                             x->blk, g * g);
        else
            rope_config_warn(c,
                             "%s.mscale_all_dim: model_type %s's attention applies no "
                             "softmax multiplier (DeepSeek's does, %.17g): 1 is reported",
                             x->blk, c->model_class, g * g);
    }
    if (!s->truncate)
        rope_config_warn(c,
                         "%s.truncate false is honoured only from transformers v4.56; "
                         "earlier versions floor and ceil the correction range",
                         x->blk);
    return ROPE_OK;
}

static int longrope(const rope_config_ctx *x, rope_scaling *s, int l0_from)
{
    rope_config *c = x->c;
    int pairs = s->dim / 2, given = 0;
    int rc = factor_list(x, B_SHORT_FACTOR, pairs);
    if (rc == ROPE_OK) rc = factor_list(x, B_LONG_FACTOR, pairs);
    if (rc == ROPE_OK)
        rc = rope_config_block_number(x, B_ATTENTION_FACTOR, ROPE_CONFIG_OPTIONAL, NAN, 1,
                                      &s->attention_factor);
    if (rc != ROPE_OK) return rc;
    s->short_factor = c->short_factor;
    s->long_factor = c->long_factor;
    if (!isnan(s->factor)) given = 1;
    if (!l0_from) s->original_max = s->max_position;
    if (isnan(s->original_max))
        return rope_config_fail(c, ROPE_E_CONFIG,
                                "max_position_embeddings is missing (longrope "
                                "needs it, or original_max_position_embeddings)");
    double implied = isnan(s->max_position) ? NAN : s->max_position / s->original_max;
    if (!given) {
        if (isnan(implied))
            return rope_config_fail(c, ROPE_E_CONFIG,
                                    "max_position_embeddings is missing "
                                    "(longrope needs it when %s.factor is not given)",
                                    x->blk);
        s->factor = implied;
    }
    if (given && !isnan(implied) && fabs(implied - s->factor) > 1e-9 * s->factor)
        rope_config_warn(c,
                         "%s.factor %.17g: transformers before v5 replace it by "
                         "max_position_embeddings / original_max_position_embeddings = %.17g",
                         x->blk, s->factor, implied);
    if (l0_from == 2 && s->original_max != s->max_position)
        rope_config_warn(c,
                         "%s.original_max_position_embeddings: transformers before v5 ignore "
                         "it for longrope",
                         x->blk);
    if (!(s->seq_len > s->original_max) && s->max_position > s->original_max)
        rope_config_warn(c,
                         "%s.short_factor is used at sequence length %.17g (long_factor only "
                         "above %.17g); transformers up to v4.47 use long_factor whenever "
                         "max_position_embeddings > original_max_position_embeddings",
                         x->blk, s->seq_len, s->original_max);
    return ROPE_OK;
}

/* HunYuan's dynamic NTK by alpha: transformers' HunYuan classes compute the base once,
 * base x alpha^(d/(d-2)), which is static NTK at factor alpha: read as that. */
static int hunyuan_alpha(rope_config_ctx *x, rope_scaling *s)
{
    rope_config *c = x->c;
    char name[96];
    double alpha = NAN;
    int rc = rope_config_block_number(x, B_ALPHA, ROPE_CONFIG_NEEDED, NAN, 1, &alpha);
    if (rc < 0) return rc;
    rope_config_bname(x, B_ALPHA, name, sizeof name);
    s->type = ROPE_SCALING_NTK;
    s->factor = alpha;
    rope_config_warn(c,
                     "%s %.17g: HunYuan's dynamic NTK by alpha, base x alpha^(d/(d-2)) as "
                     "transformers' HunYuan classes compute it at start-up: read as rope_type ntk "
                     "at factor %.17g (%s.factor is not used); whether a sequence past "
                     "max_position_embeddings changes it again is not known here",
                     name, alpha, alpha, x->blk);
    return ROPE_OK;
}

int rope_config_resolve_method(rope_config_ctx *x, rope_scaling *s, int l0_from)
{
    rope_config *c = x->c;
    const rope_method *r = x->rule;
    int t = r->type, rc;
    char name[96], other[96];
    if (ROPE_CONFIG_BIT(B_FACTOR) & (r->required | r->optional)) {
        rc = rope_config_block_number(
            x, B_FACTOR,
            (ROPE_CONFIG_BIT(B_FACTOR) & r->required) ? ROPE_CONFIG_REQUIRED : ROPE_CONFIG_OPTIONAL,
            NAN, 1, &s->factor);
        if (rc < 0) return rc;
        if (s->factor < 1.0)
            rope_config_warn(c,
                             "%s %.17g is below 1: it shrinks the context instead of "
                             "stretching it",
                             rope_config_bname(x, B_FACTOR, name, sizeof name), s->factor);
    }
    /* The NTK-aware base grows as x^(d/(d-2)), undefined at d = 2. */
    if ((t == ROPE_SCALING_NTK || t == ROPE_SCALING_DYNAMIC) && s->dim == 2)
        return rope_config_fail(c, ROPE_E_SCALING,
                                "%s: rope_type %s needs a rotary dim above 2 (its base grows as "
                                "factor^(d/(d-2))), but %s gives rotary dim 2",
                                x->blk, r->name, c->dim_source);
    if (t == ROPE_SCALING_BASE) {
        rc = rope_config_block_number(x, B_NEW_ROPE_THETA, ROPE_CONFIG_REQUIRED, NAN, 1,
                                      &s->new_base);
        if (rc >= 0 &&
            rope_config_need_base(x, rope_config_bname(x, B_NEW_ROPE_THETA, name, sizeof name),
                                  s->new_base) < 0)
            return c->code;
    } else if (t == ROPE_SCALING_DYNAMIC && c->block[B_ALPHA].set &&
               !rope_config_absent(&c->block[B_ALPHA])) {
        rc = hunyuan_alpha(x, s);
    } else if (t == ROPE_SCALING_DYNAMIC) {
        if (isnan(s->max_position))
            return rope_config_fail(c, ROPE_E_CONFIG,
                                    "max_position_embeddings is missing "
                                    "(rope_type dynamic needs it)");
        if (s->seq_len <= s->max_position)
            rope_config_warn(c,
                             "%s.factor: dynamic scaling follows the sequence length (%.17g), "
                             "and up to max_position_embeddings %.17g nothing changes",
                             x->blk, s->seq_len, s->max_position);
        rc = ROPE_OK;
    } else if (t == ROPE_SCALING_YARN) {
        rc = yarn(x, s, l0_from);
    } else if (t == ROPE_SCALING_LONGROPE) {
        rc = longrope(x, s, l0_from);
    } else if (t == ROPE_SCALING_LLAMA3) {
        rc = rope_config_block_number(x, B_LOW_FREQ, ROPE_CONFIG_REQUIRED, NAN, 1,
                                      &s->low_freq_factor);
        if (rc == ROPE_OK)
            rc = rope_config_block_number(x, B_HIGH_FREQ, ROPE_CONFIG_REQUIRED, NAN, 1,
                                          &s->high_freq_factor);
        if (rc == ROPE_OK && !l0_from)
            rc = rope_config_fail(c, ROPE_E_CONFIG, "%s is missing (rope_type llama3 requires it)",
                                  rope_config_bname(x, B_ORIGINAL_MAX, name, sizeof name));
        if (rc == ROPE_OK && s->low_freq_factor >= s->high_freq_factor)
            rope_config_warn(
                c, "%s %.17g is not below %s %.17g: the smooth band is empty",
                rope_config_bname(x, B_LOW_FREQ, name, sizeof name), s->low_freq_factor,
                rope_config_bname(x, B_HIGH_FREQ, other, sizeof other), s->high_freq_factor);
    } else {
        rc = ROPE_OK;
    }
    if (t == ROPE_SCALING_PROPORTIONAL && isnan(s->factor)) s->factor = 1.0; /* transformers' */
    if (rc < 0) return rc;
    const rope_method *used = rope_method_of_type(s->type); /* HunYuan's alpha: ntk */
    if (used != NULL && used->factor) c->factor_shown = s->factor;
    return ROPE_OK;
}
