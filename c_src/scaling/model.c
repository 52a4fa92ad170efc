/* The model-aware part of the config reader (docs/SCALING.md, "Model
 * classes"): which level of a multimodal config holds the text model, each
 * model class's defaults, the pairing layout, sliding-window layers with their
 * own base, NoPE layers and the attention-side factors of some families. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaling/config.h"
#include "scaling/config_internal.h"

#define N NAN
#define HALF 0, "rotate_half"
#define COMPLEX 1, "its complex-number rotation"
#define GLM_STYLE 1, "its GLM-style rotation"

/* The defaults of transformers' configuration classes for the keys RoPE
 * needs (NaN: none, the generic rule applies). A NaN head_dim means
 * hidden_size / num_attention_heads. */
static const rope_config_class classes[] = {
    /* model_type     theta    head  qk   hidden heads partial layout     softmax nope local
     * [nope_full] */
    {"llama", 1e4, N, N, 4096, 32, N, HALF, 0, N, N, 0},
    {"mistral", 1e4, N, N, 4096, 32, N, HALF, 0, N, N, 0},
    {"ministral3", N, N, N, N, N, N, HALF, 0, N, N, 0},
    {"qwen2", 1e4, N, N, 4096, 32, N, HALF, 0, N, N, 0},
    {"qwen3", 1e4, 128, N, 4096, 32, N, HALF, 0, N, N, 0},
    {"qwen2_5_vl", 1e6, N, N, 8192, 64, N, HALF, 0, N, N, 0},
    {"qwen2_5_vl_text", 1e6, N, N, 8192, 64, N, HALF, 0, N, N, 0},
    {"gemma2", 1e4, 256, N, 2304, 8, N, HALF, 0, N, N, 0},
    {"gemma3", 1e6, 256, N, 2304, 8, N, HALF, 0, N, 1e4, 0},
    {"gemma3_text", 1e6, 256, N, 2304, 8, N, HALF, 0, N, 1e4, 0},
    /* Gemma 4 ships every RoPE value in its per-layer-type rope_parameters. */
    {"gemma4", N, N, N, N, N, N, HALF, 0, N, N, 0},
    {"gemma4_text", N, N, N, N, N, N, HALF, 0, N, N, 0},
    {"cohere", 5e5, N, N, 8192, 64, N, 1, "its rotation of even/odd pairs", 0, N, N, 0},
    {"smollm3", 2e6, N, N, 2048, 16, N, HALF, 0, 4, N, 0},
    {"llama4", 5e5, 128, N, 5120, 40, N, COMPLEX, 0, 4, N, 0},
    {"llama4_text", 5e5, 128, N, 5120, 40, N, COMPLEX, 0, 4, N, 0},
    {"gpt_oss", 1.5e5, 64, N, 2880, 64, N, HALF, 0, N, N, 0},
    {"deepseek_v2", 1e4, N, 64, 5120, 128, N, COMPLEX, 1, N, N, 0},
    {"deepseek_v3", 1e4, N, 64, 7168, 128, N, 1, "rope_interleave, true by default", 1, N, N, 0},
    /* Its main attention de-interleaves q and k whatever rope_interleave says (2: fixed). */
    {"deepseek_v32", 1e4, N, 64, 7168, 128, N, 2, "its attention always de-interleaves q and k", 1,
     N, N, 0},
    {"glm4_moe_lite", N, N, 64, 2048, 20, N, 1, "rope_interleave, true by default", 0, N, N, 0},
    {"kimi_k2", 1e4, N, 64, 7168, 128, N, 1, "DeepSeek-V3's modelling code, which it ships", 1, N,
     N, 0},
    {"phi3", 1e4, N, N, 3072, 32, N, HALF, 0, N, N, 0},
    {"gpt_neox", 1e4, N, N, 6144, 64, 0.25, HALF, 0, N, N, 0},
    {"modernbert", 1.6e5, N, N, 768, 12, N, HALF, 0, N, 1e4, 0},
    {"olmo2", 1e4, N, N, 4096, 32, N, HALF, 0, N, N, 0},
    {"ernie4_5", 5e5, 128, N, 1024, 16, N, GLM_STYLE, 0, N, N, 0},
    {"glm", 1e4, 128, N, 4096, 32, 0.5, GLM_STYLE, 0, N, N, 0},
    {"stablelm", 1e4, N, N, 2560, 32, 0.25, HALF, 0, N, N, 0},
    {"falcon", 1e4, N, N, 4544, 71, N, HALF, 0, N, N, 0},
    {"exaone4", 1e4, N, N, 4096, 32, N, HALF, 0, N, N, 1},
    /* GPT-J and CodeGen: rotate_every_two over rotary_dim (resolve.c reads their names). */
    {"gptj", 1e4, N, N, 4096, 16, N, 1, "its rotate_every_two", 0, N, N, 0},
    {"codegen", 1e4, N, N, 4096, 16, N, 1, "its rotate_every_two", 0, N, N, 0},
};
#define N_CLASSES ((int)(sizeof classes / sizeof classes[0]))

const rope_config_class *rope_config_class_of(const char *model_type)
{
    for (int j = 0; model_type != NULL && j < N_CLASSES; j++)
        if (strcmp(classes[j].model_type, model_type) == 0) return &classes[j];
    return NULL;
}

/* Keys only a text model has: a vision tower or a wrapper has none of them. */
static int holds_text_model(const rope_config_level *l)
{
    static const int keys[] = {K_ROPE_THETA,  K_PARTIAL,         K_HEAD_DIM,     K_QK_ROPE_HEAD_DIM,
                               K_HIDDEN_SIZE, K_HEADS,           K_ROPE_SCALING, K_ROPE_PARAMETERS,
                               K_ROTARY_PCT,  K_ROTARY_EMB_BASE, K_GLOBAL_THETA};
    for (size_t j = 0; j < sizeof keys / sizeof keys[0]; j++)
        if (!rope_config_absent(&l->top[keys[j]])) return 1;
    return 0;
}

void rope_config_pick_level(rope_config *c)
{
    /* A nested text model that names only its class (LLaVA's text_config) is
     * still read: its class defaults fill in the rest. */
    c->use_nest = c->nest[0] != '\0' && !holds_text_model(&c->level[0]);
    rope_config_level *l = &c->level[c->use_nest];
    c->top = l->top;
    c->block = l->block;
    c->short_factor = l->short_factor;
    c->long_factor = l->long_factor;
    c->layers = l->layers;
    c->section = l->section;
    const char *pre = c->use_nest ? c->nest : "";
    const char *dot = c->use_nest ? "." : "";
    int b = c->top[K_ROPE_PARAMETERS].kind == ROPE_CONFIG_OBJECT;
    snprintf(c->block_label, sizeof c->block_label, "%s%s%s", pre, dot,
             rope_config_block_prefix(b));
    for (int j = 0; j < ROPE_CONFIG_TOP_KEYS; j++)
        snprintf(c->top_label[j], sizeof c->top_label[j], "%s%s%s", pre, dot,
                 rope_config_top_names[j]);
}

/* An optional top-level number: 1 and *out, 0 absent, negative an error. */
static int optional(const rope_config_ctx *x, int key, double *out)
{
    return rope_config_number(x, &x->c->top[key], x->c->top_label[key], ROPE_CONFIG_NEEDED, out);
}

/* A whole number of layers or a layer interval, >= 1. */
static int whole_count(const rope_config_ctx *x, int key, double *out)
{
    int got = optional(x, key, out);
    if (got == 1 && !(*out >= 1.0 && *out == floor(*out) && *out <= 1e9))
        return rope_config_fail(x->c, ROPE_E_SCALING, "%s must be a whole number >= 1, got %.17g",
                                x->c->top_label[key], *out);
    return got;
}

static int layout(const rope_config_ctx *x, const rope_config_class *k)
{
    rope_config *c = x->c;
    const rope_config_value *v = &c->top[K_ROPE_INTERLEAVE];
    c->layout = "rotate_half";
    c->layout_from = "transformers' usual rotate_half (the model_type is not in the class table)";
    if (!rope_config_absent(v) && !(k != NULL && k->interleaved == 2)) {
        if (v->kind != ROPE_CONFIG_BOOL) {
            char shown[96];
            rope_config_show(v, shown, sizeof shown);
            return rope_config_fail(c, ROPE_E_CONFIG, "%s must be true or false, got %s",
                                    c->top_label[K_ROPE_INTERLEAVE], shown);
        }
        c->layout = v->number != 0.0 ? "interleaved" : "rotate_half";
        c->layout_from = "rope_interleave";
    } else if (k != NULL) {
        if (!rope_config_absent(v))
            rope_config_warn(c, "%s is not read by model_type %s: %s",
                             c->top_label[K_ROPE_INTERLEAVE], k->model_type, k->why_layout);
        c->layout = k->interleaved ? "interleaved" : "rotate_half";
        snprintf(c->layout_why, sizeof c->layout_why, "model_type %s (%s)", k->model_type,
                 k->why_layout);
        c->layout_from = c->layout_why;
    }
    return ROPE_OK;
}

/* The num_hidden_layers of transformers' configuration classes that have
 * sliding-window layers of their own base; 0 for another class. */
static int class_layers(const rope_config_class *k)
{
    static const struct {
        const char *model_type;
        int layers;
    } defaults[] = {{"gemma3", 26}, {"gemma3_text", 26}, {"modernbert", 22}};
    for (size_t j = 0; k != NULL && j < sizeof defaults / sizeof defaults[0]; j++)
        if (strcmp(defaults[j].model_type, k->model_type) == 0) return defaults[j].layers;
    return 0;
}

/* Sliding-window layers with their own base: Gemma 3 (every pattern-th layer
 * is global, the rest local), ModernBERT (every n-th layer from 0 is global),
 * transformers v5's rope_parameters.sliding_attention; layer_types, when
 * given, says which layers are sliding. */
static int local_layers(const rope_config_ctx *x, const rope_config_class *k)
{
    rope_config *c = x->c;
    const rope_config_level *lv = &c->level[c->use_nest];
    double local = NAN, every = 0.0;
    char v5[96];
    snprintf(v5, sizeof v5, "%s.sliding_attention.rope_theta", c->block_label);
    const char *from = NULL;
    int key = -1, g = optional(x, K_LOCAL_BASE, &local);
    if (g == 1) key = K_LOCAL_BASE;
    if (g == 0 && (g = optional(x, K_LOCAL_THETA, &local)) == 1) key = K_LOCAL_THETA;
    if (g == 0 &&
        (g = rope_config_number(x, &lv->sliding_theta, v5, ROPE_CONFIG_NEEDED, &local)) == 1)
        from = v5;
    if (g < 0) return g;
    if (key >= 0) from = c->top_label[key];
    if (g == 0 && k != NULL && !isnan(k->local_theta)) {
        local = k->local_theta;
        rope_config_warn(
            c,
            "%s is missing: model_type %s's class default %.17g is used for the "
            "sliding-window layers",
            c->top_label[strcmp(k->model_type, "modernbert") == 0 ? K_LOCAL_THETA : K_LOCAL_BASE],
            k->model_type, local);
    }
    if (isnan(local)) return ROPE_OK;
    if (from != NULL && rope_config_need_base(x, from, local) < 0) return c->code;
    if (lv->sliding_type.kind == ROPE_CONFIG_STRING &&
        strcmp(lv->sliding_type.text, "default") != 0)
        rope_config_warn(c,
                         "%s.sliding_attention.rope_type \"%s\": the sliding layers are shown "
                         "with the default frequencies at their rope_theta",
                         c->block_label, lv->sliding_type.text);
    if (lv->n_layer_types > 0) {
        if (c->n_layers == 0) c->n_layers = lv->n_layer_types;
        if (lv->n_layer_types != c->n_layers)
            return rope_config_fail(c, ROPE_E_CONFIG,
                                    "%s has %d entries, but num_hidden_layers "
                                    "is %d",
                                    c->top_label[K_LAYER_TYPES], lv->n_layer_types, c->n_layers);
        c->local_base = local;
        c->local_from = c->top_label[K_LAYER_TYPES];
        for (int i = 0; i < c->n_layers; i++)
            if (lv->layer_type[i] == ROPE_LAYER_TYPE_SLIDING) c->layer_kind[i] |= ROPE_LAYER_LOCAL;
        return ROPE_OK;
    }
    int modern = k != NULL && strcmp(k->model_type, "modernbert") == 0;
    int pkey = modern || key == K_LOCAL_THETA ? K_GLOBAL_EVERY : K_SLIDING_PATTERN;
    g = whole_count(x, pkey, &every);
    if (g < 0) return g;
    if (g == 0) {
        every = pkey == K_GLOBAL_EVERY ? 3.0 : 6.0;
        rope_config_warn(c, "%s is missing: %.17g is used (the class default)", c->top_label[pkey],
                         every);
    }
    c->local_base = local;
    c->local_from = c->top_label[pkey];
    if (c->n_layers == 0 && (c->n_layers = class_layers(k)) > 0)
        rope_config_warn(c,
                         "%s is missing: model_type %s's class default %d is used to list the "
                         "layers",
                         c->top_label[K_LAYERS], k->model_type, c->n_layers);
    if (c->n_layers == 0) {
        /* The sliding layers' table is known; only which layers they are is not. */
        rope_config_warn(c, "%s: num_hidden_layers is missing, so the layers cannot be listed",
                         from != NULL ? from : c->top_label[pkey]);
        return ROPE_OK;
    }
    for (int i = 0; i < c->n_layers; i++) {
        int global = pkey == K_GLOBAL_EVERY ? i % (int)every == 0 : (i + 1) % (int)every == 0;
        if (!global) c->layer_kind[i] |= ROPE_LAYER_LOCAL;
    }
    return ROPE_OK;
}

/* EXAONE 4's hybrid attention: while sliding_window is set (4096 by the class
 * default), its full-attention layers apply no RoPE. Those layers are the
 * full_attention entries of layer_types, else every sliding_window_pattern-th
 * (4 by default). */
static int nope_full_layers(const rope_config_ctx *x, const rope_config_class *k)
{
    rope_config *c = x->c;
    const rope_config_level *lv = &c->level[c->use_nest];
    const rope_config_value *w = &c->top[K_SLIDING_WINDOW];
    if (w->set && w->kind == ROPE_CONFIG_NULL) return ROPE_OK; /* no window: RoPE on every layer */
    if (lv->n_layer_types > 0) {
        if (c->n_layers == 0) c->n_layers = lv->n_layer_types;
        if (lv->n_layer_types != c->n_layers)
            return rope_config_fail(c, ROPE_E_CONFIG,
                                    "%s has %d entries, but num_hidden_layers is %d",
                                    c->top_label[K_LAYER_TYPES], lv->n_layer_types, c->n_layers);
        for (int i = 0; i < c->n_layers; i++)
            if (lv->layer_type[i] == ROPE_LAYER_TYPE_FULL) c->layer_kind[i] |= ROPE_LAYER_NOPE;
        c->nope_from = "layer_types: its model class skips RoPE on the full_attention layers";
        return ROPE_OK;
    }
    const rope_config_value *p = &c->top[K_SLIDING_PATTERN];
    if (p->set && p->kind == ROPE_CONFIG_STRING) {
        rope_config_warn(c,
                         "%s is a string and layer_types is missing: the full-attention layers, "
                         "which model_type %s runs without RoPE, cannot be listed",
                         c->top_label[K_SLIDING_PATTERN], k->model_type);
        return ROPE_OK;
    }
    double every = 4.0;
    int g = whole_count(x, K_SLIDING_PATTERN, &every);
    if (g < 0) return g;
    if (c->n_layers == 0) {
        rope_config_warn(c,
                         "num_hidden_layers is missing, so the full-attention layers, which "
                         "model_type %s runs without RoPE, cannot be listed",
                         k->model_type);
        return ROPE_OK;
    }
    for (int i = 0; i < c->n_layers; i++)
        if ((i + 1) % (int)every == 0) c->layer_kind[i] |= ROPE_LAYER_NOPE;
    c->nope_from =
        g ? "sliding_window_pattern: model_type exaone4 skips RoPE on each full-attention "
            "layer"
          : "sliding_window_pattern (class default 4): model_type exaone4 skips RoPE on "
            "each full-attention layer";
    return ROPE_OK;
}

/* NoPE layers: no_rope_layers (1 = RoPE, 0 = none), else every n-th layer. */
static int nope_layers(const rope_config_ctx *x, const rope_config_class *k)
{
    rope_config *c = x->c;
    const rope_config_value *v = &c->top[K_NO_ROPE_LAYERS];
    double every = NAN;
    if (!rope_config_absent(v) && !(v->kind == ROPE_CONFIG_LIST && v->n == 0)) {
        if (v->kind != ROPE_CONFIG_LIST)
            return rope_config_fail(c, ROPE_E_CONFIG,
                                    "%s must be a list of 0 and 1, got a "
                                    "value of another type",
                                    c->top_label[K_NO_ROPE_LAYERS]);
        for (int i = 0; i < v->n; i++)
            if (c->layers[i] != 0.0 && c->layers[i] != 1.0)
                return rope_config_fail(c, ROPE_E_CONFIG, "%s[%d] must be 0 or 1, got %.17g",
                                        c->top_label[K_NO_ROPE_LAYERS], i, c->layers[i]);
        if (c->n_layers == 0) c->n_layers = v->n;
        if (v->n < c->n_layers)
            return rope_config_fail(c, ROPE_E_CONFIG,
                                    "%s has %d entries, fewer than "
                                    "num_hidden_layers %d",
                                    c->top_label[K_NO_ROPE_LAYERS], v->n, c->n_layers);
        for (int i = 0; i < c->n_layers; i++)
            if (c->layers[i] == 0.0) c->layer_kind[i] |= ROPE_LAYER_NOPE;
        c->nope_from = c->top_label[K_NO_ROPE_LAYERS];
        return ROPE_OK;
    }
    if (k != NULL && k->nope_full) return nope_full_layers(x, k);
    int g = whole_count(x, K_NO_ROPE_INTERVAL, &every);
    if (g < 0) return g;
    if (g == 0 && (k == NULL || isnan(k->nope_interval))) return ROPE_OK;
    if (g == 0) every = k->nope_interval;
    if (c->n_layers == 0) {
        rope_config_warn(c, "no_rope_layer_interval: num_hidden_layers is missing, so the NoPE "
                            "layers cannot be listed");
        return ROPE_OK;
    }
    for (int i = 0; i < c->n_layers; i++)
        if ((i + 1) % (int)every == 0) c->layer_kind[i] |= ROPE_LAYER_NOPE;
    c->nope_from = g ? c->top_label[K_NO_ROPE_INTERVAL] : "no_rope_layer_interval (class default)";
    return ROPE_OK;
}

/* Llama 4's attention temperature on its NoPE layers: the query at position p is
 * scaled by 1 + attn_scale ln(1 + floor((p + 1) / floor_scale)) when
 * attn_temperature_tuning is set (true by default in the llama4 classes). */
static int temperature(const rope_config_ctx *x, const rope_config_class *k)
{
    rope_config *c = x->c;
    const rope_config_value *v = &c->top[K_ATTN_TEMPERATURE];
    int llama4 = k != NULL && strncmp(k->model_type, "llama4", 6) == 0;
    int on = llama4;
    if (!rope_config_absent(v)) {
        if (v->kind != ROPE_CONFIG_BOOL && v->kind != ROPE_CONFIG_NUMBER) {
            char shown[96];
            rope_config_show(v, shown, sizeof shown);
            return rope_config_fail(c, ROPE_E_CONFIG, "%s must be true, false or a number, got %s",
                                    c->top_label[K_ATTN_TEMPERATURE], shown);
        }
        on = v->number != 0.0; /* shipped Llama 4 configs write it as a number (4) */
    }
    if (!on) return ROPE_OK;
    double beta = 0.1, l0 = 8192.0;
    int g = optional(x, K_ATTN_SCALE, &beta);
    if (g < 0) return g;
    if (g == 1 && beta < 0.0)
        return rope_config_fail(c, ROPE_E_SCALING, "%s must be >= 0, got %.17g",
                                c->top_label[K_ATTN_SCALE], beta);
    if ((g = whole_count(x, K_FLOOR_SCALE, &l0)) < 0) return g;
    c->query_scale_beta = beta;
    c->query_scale_l0 = l0;
    c->query_scale_offset = 1;
    c->query_scale_nope_only = 1;
    return ROPE_OK;
}

/* Gemma's query_pre_attn_scalar and Ministral 3's position-dependent query scale. */
static int attention_side(const rope_config_ctx *x, const rope_config_class *k)
{
    rope_config *c = x->c;
    double q = NAN, beta = NAN;
    int g = optional(x, K_QUERY_PRE_ATTN, &q);
    if (g < 0) return g;
    if (g == 1 && rope_config_need_positive(x, c->top_label[K_QUERY_PRE_ATTN], q) < 0)
        return c->code;
    c->query_pre_attn_scalar = q;
    char name[96];
    g = rope_config_block_number(x, B_LLAMA4_BETA, ROPE_CONFIG_OPTIONAL, NAN, 0, &beta);
    if (g < 0) return g;
    if (isnan(beta)) return temperature(x, k);
    rope_config_bname(x, B_LLAMA4_BETA, name, sizeof name);
    if (beta < 0.0)
        return rope_config_fail(c, ROPE_E_SCALING, "%s must be >= 0, got %.17g", name, beta);
    double l0 = c->scaling.original_max;
    if (isnan(l0)) l0 = c->scaling.max_position;
    if (isnan(l0))
        return rope_config_fail(c, ROPE_E_CONFIG,
                                "%s needs original_max_position_embeddings "
                                "or max_position_embeddings",
                                name);
    c->query_scale_beta = beta;
    c->query_scale_l0 = l0;
    c->query_scale_offset = 0;
    c->query_scale_nope_only = 0;
    return ROPE_OK;
}

int rope_config_resolve_model(rope_config_ctx *x, const rope_config_class *k)
{
    rope_config *c = x->c;
    double layers = 0.0;
    c->local_base = c->query_scale_beta = c->query_scale_l0 = c->query_pre_attn_scalar = NAN;
    c->n_layers = 0;
    c->local_from = c->nope_from = NULL;
    memset(c->layer_kind, 0, sizeof c->layer_kind);
    if (k == NULL && c->model_class != NULL && c->model_class[0] != '\0')
        rope_config_warn(c,
                         "model_type %s is not in the class table: transformers' generic rules "
                         "are used, which a class of its own may not follow",
                         c->model_class);
    int custom = !rope_config_absent(&c->top[K_AUTO_MAP]);
    if (custom)
        rope_config_warn(c,
                         "%s: the model ships its own modelling code, whose RoPE may differ from "
                         "transformers' rules used here",
                         c->top_label[K_AUTO_MAP]);
    /* A class the table lacks, whose config holds a RoPE key no rule reads: its own code reads
     * that key (ChatGLM's rope_ratio, Phi-3-small's rope_embedding_base, Kimi-Linear's
     * mla_use_nope, DeepSeek-V4's compress_rope_theta), so any table printed would be a guess. */
    /* rotary_dim is read by GPT-J's classes alone, which are in the table. */
    int unread = c->n_unread_rope + !rope_config_absent(&c->top[K_ROTARY_DIM]);
    if (k == NULL && unread > 0 &&
        (custom || (c->model_class != NULL && c->model_class[0] != '\0')))
        return rope_config_fail(
            c, ROPE_E_CONFIG,
            "the RoPE of %s%s%s cannot be known from this config: %s is a RoPE key its own code "
            "reads and these rules do not (%d such key%s); its class is not in the table",
            c->model_class ? "model_type " : "a model with its own code (",
            c->model_class ? c->model_class : c->top_label[K_AUTO_MAP], c->model_class ? "" : ")",
            c->unread_rope, unread, unread == 1 ? "" : "s");
    int rc = layout(x, k);
    if (rc == ROPE_OK && (rc = whole_count(x, K_LAYERS, &layers)) == 1) {
        if (layers > ROPE_CONFIG_MAX_LAYERS)
            return rope_config_fail(c, ROPE_E_SCALING, "%s %.17g: at most %d layers are listed",
                                    c->top_label[K_LAYERS], layers, ROPE_CONFIG_MAX_LAYERS);
        c->n_layers = (int)layers;
    }
    if (rc >= 0) rc = local_layers(x, k);
    if (rc >= 0) rc = nope_layers(x, k);
    if (rc >= 0) rc = attention_side(x, k);
    return rc < 0 ? rc : ROPE_OK;
}
