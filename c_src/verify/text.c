/* Text dumps: a JSON list (of numbers, or of equal-length lists), a JSON
 * object of such lists named like tensors, or CSV/whitespace rows. Text has
 * no dtype: values that are all exact float32 numbers are judged as float32. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jansson.h"
#include "rope.h"
#include "verify.h"

/* Hands n doubles to rope_table_fill (which reads little-endian bytes, as
 * every host this builds for stores them) and picks the dtype. */
static int finish(rope_table *t, const long long *shape, int nd, double *v, size_t n, char *msg)
{
    int rc = rope_table_fill(t, shape, nd, ROPE_DT_F64, (const unsigned char *)v,
                             n * sizeof(double), 0, msg);
    free(v);
    if (rc != ROPE_OK) return rc;
    int f32 = 1;
    for (size_t j = 0; j < n && f32; j++) f32 = (double)(float)t->v[j] == t->v[j];
    t->dtype = f32 ? ROPE_DT_F32 : ROPE_DT_F64;
    return ROPE_OK;
}

/* The shape of a rectangular nest of lists; -1 with msg when it is not one. */
static int json_shape(const json_t *a, long long *shape, int *nd, char *msg)
{
    *nd = 0;
    for (const json_t *x = a; json_is_array(x); x = json_array_get(x, 0)) {
        if (*nd == 8) break;
        shape[(*nd)++] = (long long)json_array_size(x);
        if (json_array_size(x) == 0) break;
    }
    (void)msg;
    return 0;
}

static int json_flatten(const json_t *a, const long long *shape, int nd, int depth, double *v,
                        size_t *at, char *msg)
{
    if (depth == nd) {
        if (!json_is_number(a)) {
            snprintf(msg, ROPE_VERIFY_MSG, "JSON value %zu is not a number", *at);
            return ROPE_E_VALUE;
        }
        v[(*at)++] = json_number_value(a);
        return ROPE_OK;
    }
    if (!json_is_array(a) || (long long)json_array_size(a) != shape[depth]) {
        snprintf(msg, ROPE_VERIFY_MSG, "JSON lists of unequal length (not a %d-D array)", nd);
        return ROPE_E_VALUE;
    }
    size_t j;
    const json_t *e;
    json_array_foreach(a, j, e)
    {
        int rc = json_flatten(e, shape, nd, depth + 1, v, at, msg);
        if (rc != ROPE_OK) return rc;
    }
    return ROPE_OK;
}

static int json_table(const json_t *a, rope_table *t, char *msg)
{
    long long shape[8];
    int nd = 0;
    json_shape(a, shape, &nd, msg);
    double total = 1.0;
    for (int k = 0; k < nd; k++) total *= (double)shape[k];
    if (total > (double)ROPE_VERIFY_MAX_VALUES || total == 0.0) {
        snprintf(msg, ROPE_VERIFY_MSG, total == 0.0 ? "an empty JSON list" : "too many values");
        return ROPE_E_VALUE;
    }
    double *v = malloc((size_t)total * sizeof(double));
    if (!v) return ROPE_E_NOMEM;
    size_t at = 0;
    int rc = json_flatten(a, shape, nd, 0, v, &at, msg);
    if (rc != ROPE_OK) {
        free(v);
        return rc;
    }
    /* A column of single values is a 1-D list. */
    if (nd == 2 && shape[1] == 1) nd = 1;
    return finish(t, shape, nd, v, (size_t)total, msg);
}

static int read_json(const char *text, size_t len, const rope_table_want *want, rope_table *t,
                     char *msg)
{
    json_error_t err;
    json_t *root = json_loadb(
        text, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &err);
    int rc = ROPE_E_VALUE;
    if (!root) {
        snprintf(msg, ROPE_VERIFY_MSG, "not valid JSON: %s, at line %d, column %d", err.text,
                 err.line, err.column);
    } else if (json_is_array(root)) {
        rc = json_table(root, t, msg);
    } else if (json_is_object(root)) {
        const char *names[256];
        const json_t *items[256];
        int n = 0;
        const char *key;
        json_t *e;
        json_object_foreach(root, key, e) if (n < 256)
        {
            names[n] = key;
            items[n++] = e;
        }
        int k = rope_table_pick(names, n, want, msg);
        if (k >= 0) {
            rc = json_is_array(items[k]) ? json_table(items[k], t, msg) : ROPE_E_VALUE;
            if (!json_is_array(items[k]))
                snprintf(msg, ROPE_VERIFY_MSG, "JSON member '%.64s' is not a list", names[k]);
        }
    } else {
        snprintf(msg, ROPE_VERIFY_MSG, "JSON that is neither a list nor an object of lists");
    }
    json_decref(root);
    return rc;
}

static int is_sep(char ch)
{
    return ch == ',' || ch == ' ' || ch == '\t' || ch == '\r' || ch == ';';
}

/* CSV or whitespace columns: one row a line; blank lines and # lines skipped. */
static int read_rows(const char *text, size_t len, rope_table *t, char *msg)
{
    size_t cap = 1024, n = 0;
    long rows = 0, width = -1, line = 0;
    double *v = malloc(cap * sizeof(double));
    if (!v) return ROPE_E_NOMEM;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        line++;
        long fields = 0;
        const char *q = p;
        while (q < eol && is_sep(*q)) q++;
        if (q < eol && *q != '#') {
            while (q < eol) {
                char *stop;
                double x = strtod(q, &stop);
                if (stop == q || stop > eol || (stop < eol && !is_sep(*stop))) {
                    snprintf(msg, ROPE_VERIFY_MSG, "line %ld, field %ld is not a number", line,
                             fields + 1);
                    free(v);
                    return ROPE_E_VALUE;
                }
                if (!isfinite(x)) {
                    snprintf(msg, ROPE_VERIFY_MSG, "line %ld, field %ld is %s", line, fields + 1,
                             isnan(x) ? "NaN" : "infinite");
                    free(v);
                    return ROPE_E_VALUE;
                }
                if (n == cap) {
                    double *grown = n < (size_t)ROPE_VERIFY_MAX_VALUES
                                        ? realloc(v, 2 * cap * sizeof(double))
                                        : NULL;
                    if (!grown) {
                        snprintf(msg, ROPE_VERIFY_MSG, "more than %ld values",
                                 ROPE_VERIFY_MAX_VALUES);
                        free(v);
                        return ROPE_E_VALUE;
                    }
                    v = grown;
                    cap *= 2;
                }
                v[n++] = x;
                fields++;
                q = stop;
                while (q < eol && is_sep(*q)) q++;
            }
            if (width >= 0 && fields != width) {
                snprintf(msg, ROPE_VERIFY_MSG, "line %ld has %ld values, the rows above %ld", line,
                         fields, width);
                free(v);
                return ROPE_E_VALUE;
            }
            width = fields;
            rows++;
        }
        p = eol + 1;
    }
    if (rows == 0) {
        free(v);
        snprintf(msg, ROPE_VERIFY_MSG, "no numbers in it");
        return ROPE_E_VALUE;
    }
    long long shape[2] = {rows, width};
    /* A single column is a 1-D list, like a single row. */
    if (width == 1) shape[1] = 1, shape[0] = rows;
    return finish(t, width == 1 ? &shape[0] : shape, width == 1 ? 1 : 2, v, n, msg);
}

int rope_text_read(const unsigned char *buf, size_t len, const rope_table_want *want, rope_table *t,
                   char *msg)
{
    memset(t, 0, sizeof *t);
    const char *text = (const char *)buf;
    if (memchr(buf, '\0', len)) {
        snprintf(msg, ROPE_VERIFY_MSG,
                 "neither npy, npz, safetensors nor text (it holds NUL bytes)");
        return ROPE_E_VALUE;
    }
    size_t k = 0;
    while (k < len && (text[k] == ' ' || text[k] == '\n' || text[k] == '\t' || text[k] == '\r'))
        k++;
    if (k < len && (text[k] == '[' || text[k] == '{')) return read_json(text, len, want, t, msg);
    return read_rows(text, len, t, msg);
}
