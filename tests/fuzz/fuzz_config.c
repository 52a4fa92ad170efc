/* libFuzzer target for the config reader: random key/value sequences, and
 * random text read as the CLI and the page read a config file
 * (rope_config_read_json), each followed by every writer. Checked besides
 * ASan/UBSan: a success gives NUL-terminated text of the stated length whose
 * JSON parses back strictly (valid UTF-8 included); a refusal of the
 * config carries a message; nothing depends on the buffer size but the code. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/rope.h"
#include "jansson.h"
#include "scaling/config.h"
#include "scaling/scaling.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const keys[] = {"rope_theta",
                                   "head_dim",
                                   "qk_rope_head_dim",
                                   "hidden_size",
                                   "num_attention_heads",
                                   "partial_rotary_factor",
                                   "max_position_embeddings",
                                   "original_max_position_embeddings",
                                   "rope_scaling",
                                   "rope_parameters",
                                   "rope_scaling.rope_type",
                                   "rope_scaling.type",
                                   "rope_scaling.factor",
                                   "rope_scaling.attention_factor",
                                   "rope_scaling.beta_fast",
                                   "rope_scaling.beta_slow",
                                   "rope_scaling.mscale",
                                   "rope_scaling.mscale_all_dim",
                                   "rope_scaling.truncate",
                                   "rope_scaling.low_freq_factor",
                                   "rope_scaling.high_freq_factor",
                                   "rope_scaling.original_max_position_embeddings",
                                   "rope_scaling.short_factor",
                                   "rope_scaling.long_factor",
                                   "rope_scaling.new_rope_theta",
                                   "rope_parameters.rope_theta",
                                   "rope_parameters.rope_type",
                                   "rope_parameters.factor",
                                   "rope_scaling.bogus",
                                   "x.y"};
static const char *const types[] = {"default", "linear", "dynamic",     "yarn", "longrope",
                                    "llama3",  "ntk",    "base_change", "su",   ""};

typedef struct {
    const uint8_t *p;
    size_t n;
} input;

static unsigned byte(input *in)
{
    if (in->n == 0) return 0;
    in->n--;
    return *in->p++;
}

/* Mostly sensible numbers (small integers, powers of ten), sometimes raw bits. */
static double number(input *in)
{
    unsigned how = byte(in) % 4;
    if (how == 0) {
        uint64_t bits = 0;
        for (int j = 0; j < 8; j++) bits = bits << 8 | byte(in);
        double v;
        memcpy(&v, &bits, sizeof v);
        return v;
    }
    if (how == 1) return (double)(int)(byte(in) - 64);
    if (how == 2) return pow(10.0, (double)(byte(in) % 16) - 4.0);
    return (double)(1u << (byte(in) % 20));
}

static void put_random(rope_config *c, input *in)
{
    const char *key = keys[byte(in) % (sizeof keys / sizeof keys[0])];
    int kind = (int)(byte(in) % 8) - 1; /* -1 and 7: kinds the reader must refuse */
    double list[64];
    int n = (int)(byte(in) % 65);
    for (int j = 0; j < n; j++) list[j] = number(in);
    const char *text = types[byte(in) % (sizeof types / sizeof types[0])];
    rope_config_put(c, key, kind, number(in), byte(in) % 8 ? text : NULL, n ? list : NULL, n);
}

static void check_writers(rope_config *c, input *in)
{
    double seq = byte(in) % 4 ? (double)(byte(in) << 8) : number(in);
    double train = byte(in) % 2 ? NAN : number(in), gap = byte(in) % 2 ? NAN : number(in);
    for (int format = -1; format <= 3; format++) {
        int len = -1, len2 = -1;
        int small = (int)(byte(in) % 64);
        char tiny[64];
        int rc = rope_scaling_write(c, format, seq, train, gap, tiny, small, &len);
        if (rc == ROPE_E_CONFIG || rc == ROPE_E_SCALING) {
            if (rope_config_message(c)[0] == '\0') abort();
            continue;
        }
        if (rc != ROPE_E_SPACE && rc != ROPE_OK) continue;
        if (len < 0) abort();
        char *buf = malloc((size_t)len + 1);
        if (!buf) return;
        int rc2 = rope_scaling_write(c, format, seq, train, gap, buf, len + 1, &len2);
        if (rc2 != ROPE_OK || len2 != len || strlen(buf) != (size_t)len) abort();
        if (format == ROPE_SCALING_JSON) {
            /* Parsed back strictly: valid JSON, and valid UTF-8 whatever the keys held. */
            json_t *back = json_loadb(buf, (size_t)len, JSON_REJECT_DUPLICATES, NULL);
            if (!back) abort();
            json_decref(back);
        }
        free(buf);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rope_config *c;
    if (!c && !(c = malloc(sizeof *c))) return 0;
    rope_config_init(c);
    input in = {data, size};
    if (size > 0 && data[0] % 2 == 0) {
        /* Random text, read as the CLI and the page read a file: a refusal names why. */
        int rc = rope_config_read_json(c, (const char *)data + 1, size - 1);
        if (rc != ROPE_OK && rc != ROPE_E_NOMEM && rope_config_message(c)[0] == '\0') abort();
        in.n = 0;
    } else {
        byte(&in);
        for (int count = (int)byte(&in) % 24; count > 0 && in.n > 0; count--) put_random(c, &in);
    }
    check_writers(c, &in);
    return 0;
}
