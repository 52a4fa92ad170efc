/* safetensors: an 8-byte little-endian header size, a JSON header naming
 * each tensor's dtype, shape and byte range, then the bytes. The header is
 * parsed strictly by jansson (a key given twice is refused); every range is
 * checked against the file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jansson.h"
#include "rope.h"
#include "verify.h"

/* The format's own cap on the header. */
#define MAX_ST_HEADER (100L << 20)
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

/* Reads the picked tensor's entry into t. */
static int read_entry(const char *name, const json_t *e, const unsigned char *data, size_t data_len,
                      rope_table *t, char *msg)
{
    const json_t *dtype = json_object_get(e, "dtype");
    const json_t *shape = json_object_get(e, "shape");
    const json_t *offs = json_object_get(e, "data_offsets");
    int dt = 0;
    if (!json_is_string(dtype) || !json_is_array(shape) || !json_is_array(offs) ||
        json_array_size(offs) != 2 || !json_is_number(json_array_get(offs, 0)) ||
        !json_is_number(json_array_get(offs, 1)))
        snprintf(msg, ROPE_VERIFY_MSG, "safetensors entry '%s' lacks dtype, shape or data_offsets",
                 name);
    else if (!dtype_named(json_string_value(dtype), &dt))
        snprintf(msg, ROPE_VERIFY_MSG,
                 "safetensors tensor '%s' is %.16s; verify reads F64, F32, "
                 "F16 and BF16",
                 name, json_string_value(dtype));
    else {
        long long dims[8];
        size_t nd = json_array_size(shape);
        if (nd > 8) return fail(msg, "safetensors: a tensor of more than 8 dimensions");
        for (size_t k = 0; k < nd; k++) {
            const json_t *x = json_array_get(shape, k);
            if (!json_is_number(x) || json_number_value(x) < 0 || json_number_value(x) > 1e12)
                return fail(msg, "safetensors: a shape that is not a list of sizes");
            dims[k] = (long long)json_number_value(x);
        }
        double b = json_number_value(json_array_get(offs, 0)),
               end = json_number_value(json_array_get(offs, 1));
        if (!(b >= 0 && end >= b))
            return fail(msg, "safetensors: data_offsets that are not a byte range");
        if (end > (double)data_len) {
            snprintf(msg, ROPE_VERIFY_MSG,
                     "truncated: tensor '%s' ends at byte %.0f of the data, "
                     "which holds %zu",
                     name, end, data_len);
            return ROPE_E_VALUE;
        }
        return rope_table_fill(t, dims, (int)nd, dt, data + (size_t)b, (size_t)(end - b), 0, msg);
    }
    return ROPE_E_VALUE;
}

int rope_safetensors_read(const unsigned char *buf, size_t len, const rope_table_want *want,
                          rope_table *t, char *msg)
{
    memset(t, 0, sizeof *t);
    if (len < 8) return fail(msg, "truncated safetensors header");
    uint64_t n = 0;
    for (int k = 7; k >= 0; k--) n = (n << 8) | buf[k];
    if (n > (uint64_t)MAX_ST_HEADER) {
        snprintf(msg, ROPE_VERIFY_MSG, "safetensors header of %llu bytes; the limit is %ld",
                 (unsigned long long)n, MAX_ST_HEADER);
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
