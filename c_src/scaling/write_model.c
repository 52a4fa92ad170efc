/* The model-aware figures of a config (docs/SCALING.md, "Model classes") as
 * JSON members and terminal lines: which level was read, the pairing layout,
 * the layer types with their layers, the NoPE layers, the query-side scales. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rope_math.h"
#include "port/port.h"
#include "report/writer.h"
#include "scaling/config.h"
#include "scaling/config_internal.h"
#include "scaling/write_model.h"

const char *rope_layer_type_name(int local)
{
    return local ? "sliding_attention" : "full_attention";
}

/* The layers of one kind (mask bits must equal want), comma-separated. */
static int put_layers(rope_writer *w, const rope_config *c, int want)
{
    int n = 0;
    for (int i = 0; i < c->n_layers; i++)
        if ((c->layer_kind[i] & (ROPE_LAYER_LOCAL | ROPE_LAYER_NOPE)) == want)
            rope_put(w, "%s%d", n++ > 0 ? ", " : "", i);
    return n;
}

void rope_put_json_text(rope_writer *w, const char *text)
{
    if (text == NULL) {
        rope_put(w, "null");
        return;
    }
    rope_put(w, "\"");
    for (const char *p = text; *p; p++) {
        if (*p == '"' || *p == '\\')
            rope_put(w, "\\%c", *p);
        else if ((unsigned char)*p < 0x20)
            rope_put(w, "\\u%04x", (unsigned)(unsigned char)*p);
        else
            rope_put(w, "%c", *p);
    }
    rope_put(w, "\"");
}

/* rope_log, not the C library's: native and wasm builds must print the same digits. */
double rope_query_scale(const rope_config *c, double position)
{
    return rope_query_scale_at(c->query_scale_beta, c->query_scale_l0, c->query_scale_offset,
                               position);
}

/* The position the query scale is shown at: the last of seq_len tokens. */
static double scale_position(const rope_config *c)
{
    double seq = c->scaling.seq_len;
    return seq >= 1.0 ? seq - 1.0 : c->query_scale_l0;
}

void rope_config_local_scaling(const rope_config *c, rope_scaling *s)
{
    *s = c->scaling;
    s->type = ROPE_SCALING_DEFAULT;
    s->base = c->local_base;
    s->dim = c->local_dim;
    s->still = 0;
}

/* A layer type's scaling: the config's, or the sliding layers' (local). */
static rope_scaling layer_scaling(const rope_config *c, int local)
{
    rope_scaling s = c->scaling;
    if (local) rope_config_local_scaling(c, &s);
    return s;
}

/* One layer type's pairs, from its scaling (layer_scaling). */
static int put_pairs(rope_writer *w, const rope_scaling *s)
{
    int pairs = s->dim / 2;
    double *theta = malloc((size_t)(pairs > 0 ? pairs : 1) * 2 * sizeof(double));
    if (theta == NULL) return ROPE_E_NOMEM;
    int rc = rope_scaling_pairs(s, theta, theta + pairs, NULL, NULL, NULL);
    for (int i = 0; i < pairs && rc == ROPE_OK; i++) {
        rope_put(w, "%s{\"i\": %d", i > 0 ? ", " : "", i);
        rope_put_field(w, ", ", "inv_freq", theta[i]);
        rope_put_field(w, ", ", "inv_freq_scaled", theta[pairs + i]);
        rope_put(w, "}");
    }
    free(theta);
    return rc;
}

/* Writes the model object's next key, and null where its value is absent; returns whether the
 * value is present, for the caller to write. */
static int put_key(rope_writer *w, const char *key, int present)
{
    rope_put(w, ",\n    \"%s\": ", key);
    if (!present) rope_put(w, "null");
    return present;
}

int rope_write_model_json(rope_writer *w, const rope_config *c)
{
    int rc = ROPE_OK;
    rope_put(w, ",\n  \"model\": {\"read_from\": ");
    rope_put_json_text(w, c->use_nest ? c->nest : "top level");
    rope_put(w, ", \"model_type\": ");
    rope_put_json_text(w, c->model_class);
    rope_put(w, ", \"class_known\": %s", rope_config_class_of(c->model_class) ? "true" : "false");
    rope_put(w, ",\n    \"layout\": ");
    rope_put_json_text(w, c->layout);
    rope_put(w, ", \"layout_from\": ");
    rope_put_json_text(w, c->layout_from);
    const rope_config_value *sec = &c->block[B_MROPE_SECTION];
    if (put_key(w, "mrope_section", sec->kind == ROPE_CONFIG_LIST)) {
        rope_put(w, "[");
        for (int j = 0; j < sec->n; j++) rope_put(w, "%s%.17g", j > 0 ? ", " : "", c->section[j]);
        rope_put(w, "]");
    }
    if (put_key(w, "num_hidden_layers", c->n_layers > 0)) rope_put(w, "%d", c->n_layers);
    rope_put(w, ", \"nope_layers\": [");
    int n = 0;
    for (int i = 0; i < c->n_layers; i++)
        if (c->layer_kind[i] & ROPE_LAYER_NOPE) rope_put(w, "%s%d", n++ > 0 ? ", " : "", i);
    rope_put(w, "], \"nope_from\": ");
    rope_put_json_text(w, c->nope_from);
    if (put_key(w, "layer_types", !isnan(c->local_base))) {
        for (int local = 0; local < 2; local++) {
            rope_scaling s = layer_scaling(c, local);
            rope_put(w, "%s\n      {\"name\": \"%s\", \"rope_type\": \"%s\"", local ? "," : "[",
                     rope_layer_type_name(local), rope_scaling_name(s.type));
            rope_put_field(w, ", ", "base", s.base);
            rope_put(w, ", \"rotary_dim\": %d", s.dim);
            rope_put(w, ", \"layers\": [");
            put_layers(w, c, local ? ROPE_LAYER_LOCAL : 0);
            rope_put(w, "],\n       \"pairs\": [");
            if (rc == ROPE_OK) rc = put_pairs(w, &s);
            rope_put(w, "]}");
        }
        rope_put(w, "]");
    }
    rope_put(w, ", \"layer_pattern_from\": ");
    rope_put_json_text(w, c->local_from);
    if (put_key(w, "query_scale", !isnan(c->query_scale_beta))) {
        rope_put(w, "{\"formula\": \"1 + beta * ln(1 + floor(%s / L0))\", \"layers\": \"%s\"",
                 c->query_scale_offset ? "(position + 1)" : "position",
                 c->query_scale_nope_only ? "nope" : "all");
        rope_put_field(w, ", ", "beta", c->query_scale_beta);
        rope_put_field(w, ", ", "L0", c->query_scale_l0);
        double p = scale_position(c);
        rope_put_field(w, ", ", "position", p);
        rope_put_field(w, ", ", "value", rope_query_scale(c, p));
        rope_put(w, "}");
    }
    rope_put_field(w, ", ", "query_pre_attn_scalar", c->query_pre_attn_scalar);
    rope_put(w, "}");
    return rc;
}

void rope_write_model_table(rope_writer *w, const rope_config *c)
{
    rope_put(w, "read from %s", c->use_nest ? c->nest : "the top level");
    if (c->model_class != NULL)
        rope_put(w, ", model_type %s%s", c->model_class,
                 rope_config_class_of(c->model_class) ? "" : " (not in the class table)");
    rope_put(w, "\npairing %s %s, decided by %s\n", c->layout,
             strcmp(c->layout, "interleaved") == 0 ? "(2i, 2i+1)" : "(i, i+d/2)", c->layout_from);
    const rope_config_value *sec = &c->block[B_MROPE_SECTION];
    if (sec->kind == ROPE_CONFIG_LIST) {
        rope_put(w, "mrope_section [");
        for (int j = 0; j < sec->n; j++) rope_put(w, "%s%.10g", j > 0 ? ", " : "", c->section[j]);
        rope_put(w, "] pairs for time, height and width\n");
    }
    if (!isnan(c->local_base)) {
        for (int local = 0; local < 2; local++) {
            rope_scaling s = layer_scaling(c, local);
            rope_put(w, "%s layers (base %.10g, rotary dim %d): ", rope_layer_type_name(local),
                     s.base, s.dim);
            if (c->n_layers == 0)
                rope_put(w, "not listed (num_hidden_layers is missing)");
            else
                put_layers(w, c, local ? ROPE_LAYER_LOCAL : 0);
            rope_put(w, "\n");
        }
    }
    int nope = 0;
    for (int i = 0; i < c->n_layers; i++) nope += (c->layer_kind[i] & ROPE_LAYER_NOPE) != 0;
    if (nope > 0) {
        rope_put(w, "layers without RoPE (NoPE, from %s): ", c->nope_from);
        for (int i = 0, n = 0; i < c->n_layers; i++)
            if (c->layer_kind[i] & ROPE_LAYER_NOPE) rope_put(w, "%s%d", n++ > 0 ? ", " : "", i);
        rope_put(w, "\n");
    }
    if (!isnan(c->query_scale_beta)) {
        double p = scale_position(c);
        rope_put(w,
                 "query scale%s 1 + %.10g ln(1 + floor(%s / %.10g)) = %.10g at position "
                 "%.10g\n",
                 c->query_scale_nope_only ? " (NoPE layers)" : "", c->query_scale_beta,
                 c->query_scale_offset ? "(position + 1)" : "position", c->query_scale_l0,
                 rope_query_scale(c, p), p);
    }
    if (!isnan(c->query_pre_attn_scalar))
        rope_put(
            w, "query_pre_attn_scalar %.10g: scores are scaled by %.10g^-1/2, not head_dim^-1/2\n",
            c->query_pre_attn_scalar, c->query_pre_attn_scalar);
}
