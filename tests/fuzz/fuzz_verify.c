/* libFuzzer target for verify's readers: random bytes as a dump file (npy,
 * npz, safetensors, JSON, text, told apart by their first bytes), then the
 * layout check, the comparison with a default RoPE model and, for a table,
 * the diagnosis. Checked besides ASan/UBSan: a refusal carries a message; a
 * table read holds finite values of a 1-D or 2-D shape. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "rope.h"
#include "verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = {"cos", "cos_cached"};

static void check_table(const rope_table *t, rope_config *c)
{
    size_t n = (size_t)t->rows * (size_t)t->width;
    if (t->ndim < 1 || t->ndim > 2 || n == 0) abort();
    for (size_t k = 0; k < n; k++)
        if (!isfinite(rope_table_at(t, k))) abort();
    int pairs = (int)(t->ndim == 2 ? t->width / 2 : t->width);
    if (pairs < 1 || pairs > 256 || t->rows > 4096) return;
    rope_config_init(c);
    double d = 2.0 * pairs;
    rope_config_put(c, "head_dim", ROPE_CONFIG_NUMBER, d, NULL, NULL, 0);
    rope_config_put(c, "rope_theta", ROPE_CONFIG_NUMBER, 10000.0, NULL, NULL, 0);
    if (rope_config_resolve(c, 0.0) != ROPE_OK) abort();
    double theta[256];
    if (rope_scaling_pairs(&c->scaling, NULL, theta, NULL, NULL, NULL) != ROPE_OK) abort();
    rope_dump dump = {NULL, NULL, NULL, t->dtype, 3.0, ROPE_PROFILE_TRANSFORMERS};
    if (t->ndim == 2)
        dump.cos = dump.sin = t;
    else
        dump.inv = t;
    int native = t->dtype == ROPE_DT_F64 ? ROPE_DT_F64 : ROPE_DT_F32;
    int found = rope_verify_layout(t);
    rope_model m = {theta, pairs,  native,
                    0,     native, 1.0,
                    0.0,   1,      found == ROPE_LAYOUT_UNKNOWN ? ROPE_LAYOUT_HALF : found};
    rope_verify_err err;
    int rc = rope_verify_eval(&dump, &m, NULL, 0, &err);
    if (rc != ROPE_OK && rc != ROPE_E_LENGTH) abort();
    rope_diagnosis diag[ROPE_DIAG_MAX];
    int n_diag = 0;
    if (rope_verify_diagnose(c, &dump, m.layout, ROPE_LAYOUT_HALF, diag, &n_diag) != ROPE_OK)
        abort();
    if (n_diag < 1 || n_diag > ROPE_DIAG_MAX) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rope_config *c;
    if (!c && !(c = malloc(sizeof *c))) return 0;
    rope_table_want want = {names, 2};
    rope_table t;
    char msg[ROPE_VERIFY_MSG];
    msg[0] = '\0';
    int rc = rope_table_read(data, size, &want, &t, msg);
    if (rc != ROPE_OK) {
        if (msg[0] == '\0' || !memchr(msg, '\0', sizeof msg)) abort();
        return 0;
    }
    check_table(&t, c);
    rope_table_free(&t);
    return 0;
}
