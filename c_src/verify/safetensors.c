/* safetensors: an 8-byte little-endian header size, a JSON header naming
 * each tensor's dtype, shape and byte range, then the bytes. The header is
 * parsed with cJSON; every range is checked against the file. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static int read_entry(const cJSON *e, const unsigned char *data, size_t data_len, rope_table *t,
                      char *msg)
{
    const cJSON *dtype = cJSON_GetObjectItemCaseSensitive(e, "dtype");
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(e, "shape");
    const cJSON *offs = cJSON_GetObjectItemCaseSensitive(e, "data_offsets");
    int dt = 0;
    if (!cJSON_IsString(dtype) || !cJSON_IsArray(shape) || !cJSON_IsArray(offs) ||
        cJSON_GetArraySize(offs) != 2)
        snprintf(msg, ROPE_VERIFY_MSG, "safetensors entry '%s' lacks dtype, shape or data_offsets",
                 e->string);
    else if (!dtype_named(dtype->valuestring, &dt))
        snprintf(msg, ROPE_VERIFY_MSG,
                 "safetensors tensor '%s' is %.16s; verify reads F64, F32, "
                 "F16 and BF16",
                 e->string, dtype->valuestring);
    else {
        long dims[8];
        int nd = cJSON_GetArraySize(shape);
        if (nd > 8) return fail(msg, "safetensors: a tensor of more than 8 dimensions");
        for (int k = 0; k < nd; k++) {
            const cJSON *x = cJSON_GetArrayItem(shape, k);
            if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > 1e12)
                return fail(msg, "safetensors: a shape that is not a list of sizes");
            dims[k] = (long)x->valuedouble;
        }
        double b = cJSON_GetArrayItem(offs, 0)->valuedouble,
               end = cJSON_GetArrayItem(offs, 1)->valuedouble;
        if (!(b >= 0 && end >= b))
            return fail(msg, "safetensors: data_offsets that are not a byte range");
        if (end > (double)data_len) {
            snprintf(msg, ROPE_VERIFY_MSG,
                     "truncated: tensor '%s' ends at byte %.0f of the data, "
                     "which holds %zu",
                     e->string, end, data_len);
            return ROPE_E_VALUE;
        }
        return rope_table_fill(t, dims, nd, dt, data + (size_t)b, (size_t)(end - b), 0, msg);
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
    cJSON *root = cJSON_ParseWithLength((const char *)buf + 8, (size_t)n);
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return fail(msg, "safetensors header is not a JSON object");
    }
    const char **names = malloc(MAX_TENSORS * sizeof *names);
    const cJSON **entries = malloc(MAX_TENSORS * sizeof *entries);
    int count = 0, rc = ROPE_OK;
    if (!names || !entries) rc = fail(msg, "out of memory for the safetensors header");
    const cJSON *e;
    cJSON_ArrayForEach(e, root)
    {
        if (rc != ROPE_OK || strcmp(e->string, "__metadata__") == 0) continue;
        if (!cJSON_IsObject(e) || count == MAX_TENSORS)
            rc = fail(msg, count == MAX_TENSORS
                               ? "safetensors: more than 4096 tensors"
                               : "safetensors header: an entry that is not an object");
        else {
            names[count] = e->string;
            entries[count++] = e;
        }
    }
    if (rc == ROPE_OK && count == 0) rc = fail(msg, "safetensors file holds no tensor");
    int k = rc == ROPE_OK ? rope_table_pick(names, count, want, msg) : -1;
    if (rc == ROPE_OK && k < 0) rc = ROPE_E_VALUE;
    if (rc == ROPE_OK) rc = read_entry(entries[k], buf + 8 + n, len - 8 - (size_t)n, t, msg);
    free(names);
    free(entries);
    cJSON_Delete(root);
    return rc;
}
