/*
 * The model config reader: rope_config_read_json takes a config.json's text
 * (the CLI's file, the page's paste) and hands each key and typed value to
 * rope_config_put; rope_config_resolve then applies docs/SCALING.md's key
 * table and fills a rope_scaling. The key table exists here only.
 *
 * Keys are paths: top-level names ("rope_theta", "head_dim", ...) and block
 * members "rope_scaling.factor" or "rope_parameters.beta_fast". Other
 * top-level keys are ignored (a config.json has many); unknown block members
 * give a warning. Errors and warnings are C strings held in the reader, each
 * naming its key. No allocation: the caller owns the reader (large, because
 * it holds the factor lists: allocate it, do not put it on a small stack).
 */
#ifndef ROPE_CONFIG_H
#define ROPE_CONFIG_H

#include <stddef.h>

#include "core/rope.h"
#include "scaling/scaling.h"

/* Kinds of value a walker hands over. */
#define ROPE_CONFIG_NUMBER 0 /* number: the value */
#define ROPE_CONFIG_STRING 1 /* string: text */
#define ROPE_CONFIG_BOOL 2   /* true/false: number 1 or 0 */
#define ROPE_CONFIG_NULL 3   /* null */
#define ROPE_CONFIG_LIST 4   /* an array of numbers: list, n */
#define ROPE_CONFIG_OBJECT 5 /* an object; its members follow as "key.member" */
#define ROPE_CONFIG_OTHER 6  /* anything else (a mixed array, a deeper object): text says what */

#define ROPE_CONFIG_MAX_BYTES 1048576 /* bytes of config text read: 1 MiB */
#define ROPE_CONFIG_MAX_WARNINGS 24
#define ROPE_CONFIG_MESSAGE 240 /* bytes per message, NUL included */
#define ROPE_CONFIG_MAX_LIST (ROPE_MAX_DIM / 2)
#define ROPE_CONFIG_TEXT 48 /* bytes of a string value kept (longer ones are cut) */
#define ROPE_CONFIG_TOP_KEYS 35
#define ROPE_CONFIG_BLOCK_KEYS 21
#define ROPE_CONFIG_MAX_LAYERS 1024 /* entries of a per-layer list (no_rope_layers) */
#define ROPE_CONFIG_MAX_SECTION 8   /* entries of mrope_section */
#define ROPE_LAYER_TYPE_OTHER 1     /* a layer_types entry other than the two below */
#define ROPE_LAYER_TYPE_FULL 2
#define ROPE_LAYER_TYPE_SLIDING 3
#define ROPE_LAYER_LOCAL 1 /* a sliding-window layer with its own (local) rope_theta */
#define ROPE_LAYER_NOPE 2  /* a layer that applies no RoPE */

typedef struct {
    int set;   /* 0: never put */
    int kind;  /* ROPE_CONFIG_* */
    int block; /* block members: 0 rope_scaling, 1 rope_parameters */
    double number;
    int n; /* list length */
    char text[ROPE_CONFIG_TEXT];
} rope_config_value;

/* The keys of one level of a config: the top level, or the text model nested
 * under text_config / llm_config / language_config (multimodal checkpoints). */
typedef struct {
    rope_config_value top[ROPE_CONFIG_TOP_KEYS];
    rope_config_value block[ROPE_CONFIG_BLOCK_KEYS];
    double short_factor[ROPE_CONFIG_MAX_LIST];
    double long_factor[ROPE_CONFIG_MAX_LIST];
    double layers[ROPE_CONFIG_MAX_LAYERS];   /* no_rope_layers */
    double section[ROPE_CONFIG_MAX_SECTION]; /* mrope_section */
    /* layer_types, one ROPE_LAYER_TYPE_* per entry, as "layer_types.N" strings arrive. */
    unsigned char layer_type[ROPE_CONFIG_MAX_LAYERS];
    int n_layer_types;
    /* transformers v5's per-layer-type blocks: rope_parameters.sliding_attention. */
    rope_config_value sliding_theta, sliding_type;
    int per_type; /* rope_parameters holds full_attention / sliding_attention blocks */
} rope_config_level;

typedef struct {
    rope_config_level level[2]; /* 0: the top level; 1: the nested text model */
    char nest[16];              /* the nested object's name ("text_config"), "" while none */
    /* The level the rules read: the top level unless it holds no text model
     * and a nested one does (chosen by rope_config_resolve). */
    int use_nest;
    char block_label[48];                     /* "rope_scaling", or "text_config.rope_scaling" */
    char top_label[ROPE_CONFIG_TOP_KEYS][48]; /* each top key as messages name it */
    rope_config_value *top, *block;
    double *short_factor, *long_factor, *layers, *section;
    int code; /* the first error's ROPE_E_* code, 0 while none */
    char error[ROPE_CONFIG_MESSAGE];
    int n_warnings, n_dropped;
    int resolved, n_put_warnings, n_put_dropped; /* warnings from the puts, kept on re-resolving */
    /* Top-level keys that look like RoPE's and that no rule reads: how many, the first's name.
     * A model class the table lacks with such a key cannot be read (docs/SCALING.md). */
    int n_unread_rope;
    char unread_rope[64];
    char warnings[ROPE_CONFIG_MAX_WARNINGS][ROPE_CONFIG_MESSAGE];
    /* Filled by rope_config_resolve. */
    rope_scaling scaling;
    double head_dim, partial_rotary_factor;
    double factor_shown;              /* the factor the method uses; NaN for none */
    const char *dim_source;           /* the key(s) the head dim came from */
    const char *model_class;          /* the model_type whose class defaults apply; NULL for none */
    const char *layout, *layout_from; /* "rotate_half" or "interleaved", and what decides it */
    char layout_why[96];
    int softmax_applies; /* 0: this model's attention has no yarn softmax multiplier */
    double local_base;   /* sliding-window layers' rope_theta; NaN when all layers share one */
    int local_dim; /* their rotary dim: head_dim where global_head_dim sizes the full layers */
    /* The query scale 1 + beta ln(1 + floor((pos + offset) / l0)); beta NaN for none.
     * offset 0 (Ministral 3, every layer) or 1 (Llama 4, NoPE layers only). */
    double query_scale_beta, query_scale_l0;
    int query_scale_offset, query_scale_nope_only;
    double query_pre_attn_scalar; /* Gemma: scores scale by its -1/2 power; NaN for none */
    int n_layers;                 /* num_hidden_layers, 0 when unknown */
    char layer_type[24]; /* the layer type whose table a write shows; "" for the main one */
    /* Per layer: ROPE_LAYER_LOCAL (the local base) and ROPE_LAYER_NOPE bits. */
    unsigned char layer_kind[ROPE_CONFIG_MAX_LAYERS];
    const char *local_from, *nope_from; /* the keys the two patterns come from */
} rope_config;

/* Size in bytes of a rope_config, for callers that allocate it (WebAssembly). */
int rope_config_size(void);

/* An empty reader. */
void rope_config_init(rope_config *c);

/* Hands over one key and value. kind is ROPE_CONFIG_*; number is read for
 * NUMBER and BOOL, text for STRING and OTHER (may be NULL), list (n doubles)
 * for LIST. Returns 0, or the reader's first error code (ROPE_E_CONFIG: a key
 * given twice, both blocks, a block that is not an object, a list too long;
 * ROPE_E_NULL: c or key NULL). After an error further puts do nothing. */
int rope_config_put(rope_config *c, const char *key, int kind, double number, const char *text,
                    const double *list, int n);

/* Reads len bytes of config.json text: strict JSON (RFC 8259: nothing after
 * the value, no control bytes, no leading zeros, no \u0000, valid UTF-8, no
 * duplicate key, nested at most 64 deep; a leading UTF-8 BOM is skipped),
 * holding one object, each value of which is put as rope_config_put takes it.
 * Returns 0, ROPE_E_CONFIG (not JSON, not an object, over
 * ROPE_CONFIG_MAX_BYTES, or a put refused; the message names line, column
 * and byte, or the key), ROPE_E_NOMEM or ROPE_E_NULL. */
int rope_config_read_json(rope_config *c, const char *text, size_t len);

/* Applies the key table: fills c->scaling (seq_len is the current sequence
 * length, 0 for none) and the warnings. Returns 0, ROPE_E_CONFIG (a key
 * missing, mistyped or inconsistent) or ROPE_E_SCALING (a value out of
 * range), with the message in rope_config_message. Can be called again. */
int rope_config_resolve(rope_config *c, double seq_len);

/* The error text ("" while none), naming the key and value. */
const char *rope_config_message(const rope_config *c);

/* Number of warnings and the i-th (NULL if i is out of range). */
int rope_config_warning_count(const rope_config *c);
const char *rope_config_warning(const rope_config *c, int i);

/* Picks the layer type ("full_attention", "sliding_attention") whose pairs
 * rope_scaling_write gives; NULL or "" for the main one. ROPE_E_NULL, or
 * ROPE_E_CONFIG for a name too long; a name the config lacks fails the write. */
int rope_config_layer_type(rope_config *c, const char *name);

/* Output formats of rope_scaling_write. */
#define ROPE_SCALING_JSON 0
#define ROPE_SCALING_CSV 1
#define ROPE_SCALING_TABLE 2

/* Resolves c, computes every figure and writes the JSON object, the inv_freq
 * CSV or the terminal table (docs/SCALING.md, "Output"). seq_len: 0 or more
 * (0: none); train_len > 0 and gap >= 0 together, or both NaN for no range.
 * buf: cap bytes, NUL-terminated on success; *len gets the text's length even
 * on ROPE_E_SPACE, so a caller can retry with len + 1 bytes. Errors: those of
 * rope_config_resolve (message in c), ROPE_E_SCALING for a bad seq_len,
 * train_len or gap (message too), ROPE_E_NULL, ROPE_E_NOMEM. */
int rope_scaling_write(rope_config *c, int format, double seq_len, double train_len, double gap,
                       char *buf, int cap, int *len);

#endif /* ROPE_CONFIG_H */
