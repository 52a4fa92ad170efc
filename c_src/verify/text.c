/* Text dumps: a JSON list (of numbers, or of equal-length lists), a JSON
 * object of such lists named like tensors, or CSV/whitespace rows. Text has
 * no dtype: values that are all float32 numbers (exact, or printed with 9
 * significant digits) are judged as float32, and held as those float32s.
 * The bytes read are not NUL-terminated (a mapped file ends where it ends):
 * each number is parsed from a bounded copy, never in place. */
/* madvise and MADV_HUGEPAGE, which POSIX (the build's _POSIX_C_SOURCE) does not name. */
#define _DEFAULT_SOURCE
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "core/rope.h"
#include "jansson.h"
#include "verify/verify.h"

/* The longest number a text dump may spell: float64's 17 digits take 24 characters; the
 * exact decimal of a float32 (up to 112 digits for the smallest normal) fits too. */
#define MAX_TOKEN 127
/* The members a JSON object dump may have: safetensors' cap on tensors. */
#define MAX_MEMBERS 4096

size_t rope_text_start(const unsigned char *buf, size_t len)
{
    return len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
}

/* Whether x is a float32 as text holds one: exactly, or printed with 9 significant digits (the
 * shortest that always reads back to the same float32, numpy's and printf's %.9g), which is
 * within 5e-9 of it, relative. A float64 value is that near a float32 one time in six or so:
 * a whole table of them is not. */
static int near_f32(double x)
{
    if (!(fabs(x) <= FLT_MAX)) return 0; /* a float32 holds no such value (and the cast is UB) */
    float f = (float)x;
    return fabs(x - (double)f) <= 5e-9 * fabs((double)f);
}

/* n doubles at v (malloc'd, taken) into t: kept as doubles, or narrowed in place to the
 * floats they all are, which halves the memory a float32 dump holds. */
static int finish(rope_table *t, const long long *shape, int nd, double *v, size_t n, int f32,
                  char *msg)
{
    size_t count = 0;
    int rc = rope_table_shape(t, shape, nd, 0, &count, msg);
    if (rc == ROPE_OK && count != n) rc = ROPE_E_VALUE; /* every caller passes its shape's n */
    if (rc != ROPE_OK) {
        free(v);
        return rc;
    }
    t->dtype = f32 ? ROPE_DT_F32 : ROPE_DT_F64;
    if (!f32) {
        t->v = v;
        return ROPE_OK;
    }
    float *f = (float *)(void *)v;
    /* Float j lands at or before double j's bytes, which are read first. */
    for (size_t j = 0; j < n; j++) {
        float x = (float)v[j];
        memcpy(f + j, &x, sizeof x);
    }
    float *shrunk = realloc(f, n * sizeof(float));
    t->f = shrunk ? shrunk : f;
    return ROPE_OK;
}

/* n floats at f (malloc'd, taken) into t as a float32 table. */
static int finish_f32(rope_table *t, const long long *shape, int nd, float *f, size_t n, char *msg)
{
    size_t count = 0;
    int rc = rope_table_shape(t, shape, nd, 0, &count, msg);
    if (rc == ROPE_OK && count != n) rc = ROPE_E_VALUE;
    if (rc != ROPE_OK) {
        free(f);
        return rc;
    }
    t->dtype = ROPE_DT_F32;
    float *shrunk = realloc(f, (n ? n : 1) * sizeof(float));
    t->f = shrunk ? shrunk : f;
    return ROPE_OK;
}

/* The shape of a rectangular nest of lists (its first elements'). */
static void json_shape(const json_t *a, long long *shape, int *nd)
{
    *nd = 0;
    for (const json_t *x = a; json_is_array(x); x = json_array_get(x, 0)) {
        if (*nd == 8) break;
        shape[(*nd)++] = (long long)json_array_size(x);
        if (json_array_size(x) == 0) break;
    }
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
    json_shape(a, shape, &nd);
    double total = 1.0;
    for (int k = 0; k < nd; k++) total *= (double)shape[k];
    if (total > (double)ROPE_VERIFY_MAX_VALUES || total == 0.0) {
        if (total == 0.0)
            snprintf(msg, ROPE_VERIFY_MSG, "an empty JSON list");
        else
            snprintf(msg, ROPE_VERIFY_MSG, "its lists hold %.0f values; the limit is %ld", total,
                     ROPE_VERIFY_MAX_VALUES);
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
    int f32 = 1;
    for (size_t j = 0; j < at && f32; j++) f32 = near_f32(v[j]);
    return finish(t, shape, nd, v, at, f32, msg);
}

static int json_object_table(json_t *root, const rope_table_want *want, rope_table *t, char *msg)
{
    size_t n = json_object_size(root);
    if (n > MAX_MEMBERS) {
        snprintf(msg, ROPE_VERIFY_MSG, "a JSON object of %zu members; the limit is %d", n,
                 MAX_MEMBERS);
        return ROPE_E_VALUE;
    }
    const char **names = malloc((n ? n : 1) * sizeof *names);
    const json_t **items = malloc((n ? n : 1) * sizeof *items);
    int rc = ROPE_E_NOMEM, count = 0;
    if (names && items) {
        const char *key;
        json_t *e;
        json_object_foreach(root, key, e)
        {
            names[count] = key;
            items[count++] = e;
        }
        int k = rope_table_pick(names, count, want, msg);
        rc = ROPE_E_VALUE;
        if (k >= 0 && json_is_array(items[k]))
            rc = json_table(items[k], t, msg);
        else if (k >= 0)
            snprintf(msg, ROPE_VERIFY_MSG, "JSON member '%.64s' is not a list", names[k]);
    }
    free(names);
    free(items);
    return rc;
}

static int read_json(const char *text, size_t len, const rope_table_want *want, rope_table *t,
                     char *msg)
{
    json_error_t err;
    json_t *root = json_loadb(
        text, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &err);
    int rc = ROPE_E_VALUE;
    if (!root)
        snprintf(msg, ROPE_VERIFY_MSG, "not valid JSON: %s, at line %d, column %d", err.text,
                 err.line, err.column);
    else if (json_is_array(root))
        rc = json_table(root, t, msg);
    else if (json_is_object(root))
        rc = json_object_table(root, want, t, msg);
    else
        snprintf(msg, ROPE_VERIFY_MSG, "JSON that is neither a list nor an object of lists");
    json_decref(root);
    return rc;
}

static int is_sep(char ch)
{
    return ch == ',' || ch == ' ' || ch == '\t' || ch == '\r' || ch == ';';
}

/* Exact powers of ten: every one up to 10^22 is a double. */
static const double powers_of_ten[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Where long double is x87's 80-bit format (64-bit significand, stored first), a decimal of 16
 * to 19 significant digits (float64's %.17g) is parsed exactly too: the digits and every power
 * of ten up to 10^27 (5^27 < 2^64) are exact long doubles, so their product or quotient is the
 * true value rounded once to 64 bits. Rounding that to a double gives the true value's rounding
 * unless a tie of two doubles lies within one 64-bit unit of it, which the 11 bits the double
 * drops show (0x3FF to 0x401): only then is strtod asked. */
#if LDBL_MANT_DIG == 64 && (defined(__x86_64__) || defined(__i386__))
#define LONG_FAST_PATH 1
static const long double long_powers_of_ten[] = {1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,
                                                 1e7L,  1e8L,  1e9L,  1e10L, 1e11L, 1e12L, 1e13L,
                                                 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L,
                                                 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};

static int long_decimal(uint64_t m, int scale, double *out)
{
    if (scale < -27 || scale > 27) return 0;
    long double x = (long double)m;
    x = scale < 0 ? x / long_powers_of_ten[-scale] : x * long_powers_of_ten[scale];
    uint64_t significand;
    memcpy(&significand, &x, sizeof significand);
    unsigned dropped = (unsigned)(significand & 0x7FF);
    if (dropped >= 0x3FF && dropped <= 0x401) return 0;
    *out = (double)x;
    return 1;
}
#else
#define LONG_FAST_PATH 0
#endif

/* Eight ASCII digits read as one little-endian 64-bit word: whether they are all digits, and
 * their value (each step pairs neighbours: digits into 2-digit, then 4-digit, then 8-digit
 * numbers, by multiplies that keep the lanes apart). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define EIGHT_AT_ONCE 1
static int eight_digits(uint64_t w)
{
    return ((w & 0xF0F0F0F0F0F0F0F0u) | (((w + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) >> 4)) ==
           0x3333333333333333u;
}

static uint64_t parse_eight(uint64_t w)
{
    w -= 0x3030303030303030u;
    w = w * 10 + (w >> 8); /* byte 2k: the 2-digit number of digits 2k and 2k + 1 */
    w = ((w & 0x000000FF000000FFu) * 0x000F424000000064u +
         ((w >> 16) & 0x000000FF000000FFu) * 0x0000271000000001u) >>
        32;
    return w & 0xFFFFFFFFu;
}
#else
#define EIGHT_AT_ONCE 0
#endif

/* A plain decimal of at most 15 significant digits and a power of ten within 10^±22 is one
 * correctly rounded product or quotient of two exact doubles (Clinger's fast path), the value
 * strtod gives; up to 19 digits, long_decimal above where it can. Parses s up to end and no
 * further; returns 0 for strtod to parse a copy, else 1 with *stop after the number. */
static int fast_decimal(const char *s, const char *end, double *out, const char **stop)
{
    int neg = s < end && *s == '-';
    if (s < end && (*s == '-' || *s == '+')) s++;
    uint64_t m = 0;
    int digits = 0, scale = 0, any = 0;
    for (; s < end && *s >= '0' && *s <= '9'; s++, any = 1)
        if (m || *s != '0') m = m * 10 + (uint64_t)(*s - '0'), digits++;
    if (s < end && *s == '.')
        for (s++; s < end && *s >= '0' && *s <= '9'; s++, any = 1) {
#if EIGHT_AT_ONCE
            /* Past the first significant digit, eight digits at a time where eight follow
             * (float32's %.9g: 0.d, then eight). digits may pass 19 here, which sends the
             * number to strtod as below. */
            uint64_t chunk;
            if (m && end - s >= 8 && (memcpy(&chunk, s, sizeof chunk), eight_digits(chunk))) {
                m = m * 100000000u + parse_eight(chunk);
                digits += 8, scale -= 8, s += 7;
                continue;
            }
#endif
            if (m || *s != '0') m = m * 10 + (uint64_t)(*s - '0'), digits++;
            scale--;
        }
    if (!any || digits > 19) return 0; /* 19 digits are below 2^64; more may have wrapped */
    if (s < end && (*s == 'e' || *s == 'E')) {
        s++;
        int eneg = s < end && *s == '-', e = 0;
        if (s < end && (*s == '-' || *s == '+')) s++;
        if (s == end || *s < '0' || *s > '9') return 0;
        for (; s < end && *s >= '0' && *s <= '9'; s++)
            if ((e = e * 10 + (*s - '0')) > 400) return 0;
        scale += eneg ? -e : e;
    }
    double x;
    if (digits <= 15 && scale >= -22 && scale <= 22) {
        x = (double)m;
        x = scale < 0 ? x / powers_of_ten[-scale] : x * powers_of_ten[scale];
    } else {
#if LONG_FAST_PATH
        if (!long_decimal(m, scale, &x)) return 0;
#else
        return 0;
#endif
    }
    *out = neg ? -x : x;
    *stop = s;
    return 1;
}

/* Where a field ends: at a separator, a line's end or the end of the text. */
static int field_end(const char *p, const char *end)
{
    return p == end || is_sep(*p) || *p == '\n';
}

/* The number at p (its field ends at a separator, a newline or end): ROPE_OK with *stop after
 * it, or ROPE_E_VALUE. */
static int parse_number(const char *p, const char *end, double *x, const char **stop)
{
    if (fast_decimal(p, end, x, stop) && field_end(*stop, end)) return ROPE_OK;
    const char *e = p;
    while (!field_end(e, end)) e++;
    *stop = e;
    size_t n = (size_t)(e - p);
    char tok[MAX_TOKEN + 1];
    if (n > MAX_TOKEN || n == 0) return ROPE_E_VALUE;
    memcpy(tok, p, n);
    tok[n] = '\0';
    char *after;
    *x = strtod(tok, &after);
    return after == tok + n ? ROPE_OK : ROPE_E_VALUE;
}

/* CSV or whitespace rows as they are read: the values, their count and shape. While every
 * value so far is a float32 (f32), they are kept as floats, which halves what a float32 dump
 * costs; the first that is not sends the reader back to the start to read doubles (a float64
 * table shows it within its first few values). */
typedef struct {
    float *f;
    double *v;
    size_t n, cap;
    long rows, width;
    int f32;
} rows_read;

/* What push returns when a float32 read meets a value that is not one. */
#define NOT_F32 (-1000)

static int push(rows_read *r, double x, char *msg)
{
    if (r->f32 && !near_f32(x)) return NOT_F32;
    if (r->n == r->cap) {
        size_t cap = r->cap * 2 < (size_t)ROPE_VERIFY_MAX_VALUES ? r->cap * 2
                                                                 : (size_t)ROPE_VERIFY_MAX_VALUES;
        if (r->n >= cap) {
            snprintf(msg, ROPE_VERIFY_MSG, "more than %ld values; the limit is %ld",
                     ROPE_VERIFY_MAX_VALUES, ROPE_VERIFY_MAX_VALUES);
            return ROPE_E_VALUE;
        }
        void *grown =
            r->f32 ? realloc(r->f, cap * sizeof(float)) : realloc(r->v, cap * sizeof(double));
        if (!grown) return ROPE_E_NOMEM;
        if (r->f32)
            r->f = grown;
        else
            r->v = grown;
        r->cap = cap;
    }
    if (r->f32)
        r->f[r->n++] = (float)x;
    else
        r->v[r->n++] = x;
    return ROPE_OK;
}

/* One data line's fields, from *at to its newline or the end of the text (where *at is left):
 * pushed, their count in *fields. */
static int read_line(rows_read *r, const char **at, const char *end, long line, long *fields,
                     char *msg)
{
    const char *q = *at;
    int rc = ROPE_OK;
    while (q < end && *q != '\n' && rc == ROPE_OK) {
        const char *stop = q;
        double x = 0.0;
        if (parse_number(q, end, &x, &stop) != ROPE_OK) {
            if (stop - q > MAX_TOKEN)
                snprintf(msg, ROPE_VERIFY_MSG,
                         "line %ld, field %ld is longer than %d characters; no number is", line,
                         *fields + 1, MAX_TOKEN);
            else
                snprintf(msg, ROPE_VERIFY_MSG, "line %ld, field %ld is not a number", line,
                         *fields + 1);
            return ROPE_E_VALUE;
        }
        if (!isfinite(x)) {
            snprintf(msg, ROPE_VERIFY_MSG, "line %ld, field %ld is %s", line, *fields + 1,
                     isnan(x) ? "NaN" : "infinite");
            return ROPE_E_VALUE;
        }
        rc = push(r, x, msg);
        ++*fields;
        q = stop;
        while (q < end && is_sep(*q)) q++;
    }
    *at = q;
    return rc;
}

/* Room for a large table's values, free()d as any malloc'd block. On Linux a block of 2 MiB or
 * more is asked for in 2 MiB pages: a 400 MB text dump's 128 MB of values then costs 64 page
 * faults where it cost 32,768, a third of the time the reader took. */
static void *values_alloc(size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    size_t huge = (size_t)2 << 20;
    if (bytes >= huge) {
        void *p = NULL;
        if (posix_memalign(&p, huge, bytes) != 0) return NULL;
        (void)madvise(p, bytes, MADV_HUGEPAGE); /* a hint: 4 KiB pages where it is refused */
        return p;
    }
#endif
    return malloc(bytes);
}

/* One pass over the rows into r (its f32 set by the caller). */
static int scan_rows(const char *text, size_t len, rows_read *r, char *msg)
{
    /* A guess at the count (float32's %.9g takes 11 to 16 bytes a value), grown if short. */
    size_t guess = len / 8 + 16;
    r->cap = guess < (size_t)ROPE_VERIFY_MAX_VALUES ? guess : (size_t)ROPE_VERIFY_MAX_VALUES;
    r->f = r->f32 ? values_alloc(r->cap * sizeof(float)) : NULL;
    r->v = r->f32 ? NULL : values_alloc(r->cap * sizeof(double));
    if (!r->f && !r->v) return ROPE_E_NOMEM;
    long line = 0;
    const char *p = text, *end = text + len;
    int rc = ROPE_OK;
    /* One line a turn, read field by field up to its newline (no search for it first). */
    while (p < end && rc == ROPE_OK) {
        line++;
        while (p < end && is_sep(*p)) p++;
        if (p < end && *p == '#') {
            const char *eol = memchr(p, '\n', (size_t)(end - p));
            if (!eol) eol = end;
            if (memchr(p, '\0', (size_t)(eol - p))) rc = ROPE_E_VALUE; /* named by the caller */
            p = eol;
        } else if (p < end && *p != '\n') {
            long fields = 0;
            rc = read_line(r, &p, end, line, &fields, msg);
            if (rc == ROPE_OK && r->width >= 0 && fields != r->width) {
                snprintf(msg, ROPE_VERIFY_MSG, "line %ld has %ld values, the rows above %ld", line,
                         fields, r->width);
                rc = ROPE_E_VALUE;
            }
            r->width = fields;
            r->rows++;
        }
        p++; /* past the newline (or the end) */
    }
    return rc;
}

/* CSV or whitespace columns: one row a line; blank lines and # lines skipped. */
static int read_rows(const char *text, size_t len, rope_table *t, char *msg)
{
    rows_read r = {NULL, NULL, 0, 0, 0, -1, 1};
    int rc = scan_rows(text, len, &r, msg);
    if (rc == NOT_F32) {
        free(r.f);
        r = (rows_read){NULL, NULL, 0, 0, 0, -1, 0};
        rc = scan_rows(text, len, &r, msg);
    }
    if (rc == ROPE_OK && r.rows == 0) {
        snprintf(msg, ROPE_VERIFY_MSG, "no numbers in it");
        rc = ROPE_E_VALUE;
    }
    /* A NUL byte anywhere makes the file no text, whatever line first tripped on it. */
    if (rc == ROPE_E_VALUE && memchr(text, '\0', len))
        snprintf(msg, ROPE_VERIFY_MSG,
                 "neither npy, npz, safetensors nor text (it holds NUL bytes)");
    if (rc != ROPE_OK) {
        free(r.f);
        free(r.v);
        if (rc == ROPE_E_NOMEM) snprintf(msg, ROPE_VERIFY_MSG, "out of memory for its values");
        return rc;
    }
    long long shape[2] = {r.rows, r.width};
    /* A single column is a 1-D list, like a single row. */
    int nd = r.width == 1 ? 1 : 2;
    return r.f32 ? finish_f32(t, shape, nd, r.f, r.n, msg) : finish(t, shape, nd, r.v, r.n, 0, msg);
}

int rope_text_read(const unsigned char *buf, size_t len, const rope_table_want *want, rope_table *t,
                   char *msg)
{
    memset(t, 0, sizeof *t);
    size_t k = rope_text_start(buf, len);
    const char *text = (const char *)buf + k;
    len -= k;
    k = 0;
    while (k < len && (text[k] == ' ' || text[k] == '\n' || text[k] == '\t' || text[k] == '\r'))
        k++;
    int json = k < len && (text[k] == '[' || text[k] == '{');
    /* Rows look for NUL bytes only when a line fails (a 400 MB table is not read twice). */
    if (json && memchr(text, '\0', len)) {
        snprintf(msg, ROPE_VERIFY_MSG,
                 "neither npy, npz, safetensors nor text (it holds NUL bytes)");
        return ROPE_E_VALUE;
    }
    return json ? read_json(text, len, want, t, msg) : read_rows(text, len, t, msg);
}
