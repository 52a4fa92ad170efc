/* safetensors: an 8-byte little-endian header size, a JSON header naming
 * each tensor's dtype, shape and byte range, then the bytes. The header is
 * parsed strictly by jansson (a key given twice is refused); every range is
 * checked against the file. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rope.h"
#include "jansson.h"
#include "verify/verify.h"

#define MAX_TENSORS 4096

static int fail(char *msg, const char *text)
{
    snprintf(msg, ROPE_VERIFY_MSG, "%s", text);
    return ROPE_E_VALUE;
}

static int dtype_named(const char *s, int *dt)
{
    static const char *const names[] = {"F64", "F32", "F16", "BF16"};
    for (int j = 0; j < 4; j++)
        if (strcmp(s, names[j]) == 0) {
            *dt = j;
            return 1;
        }
    return 0;
}

/* A size or offset: a whole number in [0, 2^53] (every such double is exact; the file's own
 * limit is far below it). */
static int whole(const json_t *x, double *out)
{
    if (!json_is_number(x)) return 0;
    double v = json_number_value(x);
    if (!(v >= 0.0 && v <= 0x1p53) || v != floor(v)) return 0;
    *out = v;
    return 1;
}

/* What is wrong with a JSON value, for a message: a number as written, else its kind. */
static void shown(const json_t *x, char *out, size_t cap)
{
    double v = json_is_number(x) ? json_number_value(x) : 0.0;
    if (json_is_number(x) && v == floor(v) && fabs(v) < 0x1p63)
        snprintf(out, cap, "%.0f", v);
    else if (json_is_number(x))
        snprintf(out, cap, "%.17g", v);
    else
        snprintf(out, cap, "%s", json_is_string(x) ? "a string" : "not a number");
}

static int bad_field(char *msg, const char *name, const char *field, size_t k, const json_t *x)
{
    char v[40];
    shown(x, v, sizeof v);
    snprintf(msg, ROPE_VERIFY_MSG,
             "safetensors tensor '%.64s': %s[%zu] is %s; it must be a whole number from 0 "
             "to 2^53",
             name, field, k, v);
    return ROPE_E_VALUE;
}

/* Reads the picked tensor's entry into t. */
static int read_entry(const char *name, const json_t *e, const unsigned char *data, size_t data_len,
                      rope_table *t, char *msg)
{
    const json_t *dtype = json_object_get(e, "dtype");
    const json_t *shape = json_object_get(e, "shape");
    const json_t *offs = json_object_get(e, "data_offsets");
    int dt = 0;
    if (!json_is_string(dtype) || !json_is_array(shape) || !json_is_array(offs) ||
        json_array_size(offs) != 2) {
        snprintf(msg, ROPE_VERIFY_MSG,
                 "safetensors entry '%.64s' lacks dtype, shape or data_offsets", name);
        return ROPE_E_VALUE;
    }
    /* C64: complex64 (Meta's freqs_cis), float32 (re, im) pairs: a trailing dimension of 2. */
    int complex = strcmp(json_string_value(dtype), "C64") == 0;
    if (complex)
        dt = ROPE_DT_F32;
    else if (!dtype_named(json_string_value(dtype), &dt)) {
        snprintf(msg, ROPE_VERIFY_MSG,
                 "safetensors tensor '%.64s' is %.16s; verify reads F64, F32, "
                 "F16, BF16 and C64",
                 name, json_string_value(dtype));
        return ROPE_E_VALUE;
    }
    long long dims[9];
    size_t nd = json_array_size(shape);
    if (nd > 8) return fail(msg, "safetensors: a tensor of more than 8 dimensions");
    for (size_t k = 0; k < nd; k++) {
        double x;
        if (!whole(json_array_get(shape, k), &x))
            return bad_field(msg, name, "shape", k, json_array_get(shape, k));
        dims[k] = (long long)x;
    }
    double b, end;
    for (size_t k = 0; k < 2; k++)
        if (!whole(json_array_get(offs, k), k ? &end : &b))
            return bad_field(msg, name, "data_offsets", k, json_array_get(offs, k));
    if (end < b) {
        snprintf(msg, ROPE_VERIFY_MSG,
                 "safetensors tensor '%.64s': data_offsets [%.0f, %.0f] end before they begin",
                 name, b, end);
        return ROPE_E_VALUE;
    }
    if (end > (double)data_len) {
        snprintf(msg, ROPE_VERIFY_MSG,
                 "truncated: tensor '%.64s' ends at byte %.0f of the data, "
                 "which holds %zu",
                 name, end, data_len);
        return ROPE_E_VALUE;
    }
    if (complex) dims[nd++] = 2;
    int rc = rope_table_fill(t, dims, (int)nd, dt, data + (size_t)b, (size_t)(end - b), 0, msg);
    if (rc == ROPE_OK && complex) t->complex = 1;
    return rc;
}

int rope_safetensors_read(const unsigned char *buf, size_t len, const rope_table_want *want,
                          rope_table *t, char *msg)
{
    memset(t, 0, sizeof *t);
    if (len < 8) return fail(msg, "truncated safetensors header");
    uint64_t n = 0;
    for (int k = 7; k >= 0; k--) n = (n << 8) | buf[k];
    if (n > (uint64_t)ROPE_VERIFY_MAX_HEADER) {
        snprintf(msg, ROPE_VERIFY_MSG, "safetensors header of %llu bytes; the limit is %ld",
                 (unsigned long long)n, ROPE_VERIFY_MAX_HEADER);
        return ROPE_E_VALUE;
    }
    if (n > len - 8) {
        snprintf(msg, ROPE_VERIFY_MSG,
                 "truncated: the safetensors header claims %llu bytes, %zu follow",
                 (unsigned long long)n, len - 8);
        return ROPE_E_VALUE;
    }
    json_error_t err;
    json_t *root = json_loadb((const char *)buf + 8, (size_t)n,
                              JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &err);
    if (!json_is_object(root)) {
        if (root == NULL)
            snprintf(msg, ROPE_VERIFY_MSG, "safetensors header is not JSON: %s (header byte %d)",
                     err.text, err.position);
        json_decref(root);
        return root == NULL ? ROPE_E_VALUE : fail(msg, "safetensors header is not a JSON object");
    }
    const char **names = malloc(MAX_TENSORS * sizeof *names);
    const json_t **entries = malloc(MAX_TENSORS * sizeof *entries);
    int count = 0, rc = ROPE_OK;
    if (!names || !entries) rc = fail(msg, "out of memory for the safetensors header");
    const char *key;
    json_t *e;
    json_object_foreach(root, key, e)
    {
        if (rc != ROPE_OK || strcmp(key, "__metadata__") == 0) continue;
        if (!json_is_object(e) || count == MAX_TENSORS)
            rc = fail(msg, count == MAX_TENSORS
                               ? "safetensors: more than 4096 tensors"
                               : "safetensors header: an entry that is not an object");
        else {
            names[count] = key;
            entries[count++] = e;
        }
    }
    if (rc == ROPE_OK && count == 0) rc = fail(msg, "safetensors file holds no tensor");
    int k = rc == ROPE_OK ? rope_table_pick(names, count, want, msg) : -1;
    if (rc == ROPE_OK && k < 0) rc = ROPE_E_VALUE;
    if (rc == ROPE_OK)
        rc = read_entry(names[k], entries[k], buf + 8 + n, len - 8 - (size_t)n, t, msg);
    free(names);
    free(entries);
    json_decref(root);
    return rc;
}
