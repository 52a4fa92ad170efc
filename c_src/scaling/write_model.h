/* What write.c asks of write_model.c. Not part of the public API. */
#ifndef ROPE_SCALING_WRITE_MODEL_H
#define ROPE_SCALING_WRITE_MODEL_H

#include "report/writer.h"
#include "scaling/config.h"

/* A JSON string (quotes and backslashes escaped, control bytes as \u00XX:
 * messages echo config values), or null for NULL. */
void rope_put_json_text(rope_writer *w, const char *text);

/* "full_attention" (local 0) or "sliding_attention" (local 1). */
const char *rope_layer_type_name(int local);

/* The sliding-window layers' scaling: the default frequencies at the local
 * base, over their own rotary dim (local_dim), no still pairs. */
void rope_config_local_scaling(const rope_config *c, rope_scaling *s);

/* Ministral 3 / Llama 4's query scale 1 + beta ln(1 + floor((position + offset) / L0)). */
double rope_query_scale(const rope_config *c, double position);

/* The "model" member of the JSON object (with its leading comma). Returns 0,
 * ROPE_E_NOMEM, or the code of a layer type's pairs. */
int rope_write_model_json(rope_writer *w, const rope_config *c);

/* The model lines of the terminal table. */
void rope_write_model_table(rope_writer *w, const rope_config *c);

#endif /* ROPE_SCALING_WRITE_MODEL_H */
