/* NumPy's .npy (one array: a magic, a Python-literal header, raw data) and
 * uncompressed .npz (a zip of .npy members), read with hard limits: every
 * size is checked against the bytes present before anything is allocated. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rope.h"
#include "verify/verify.h"

static int fail(char *msg, const char *text)
{
    snprintf(msg, ROPE_VERIFY_MSG, "%s", text);
    return ROPE_E_VALUE;
}

/* The header's value after 'key': (a pointer into the NUL-terminated header). */
static const char *value_of(const char *header, const char *key)
{
    char quoted[32];
    snprintf(quoted, sizeof quoted, "'%s'", key);
    const char *at = strstr(header, quoted);
    if (!at) return NULL;
    at += strlen(quoted);
    while (*at == ' ') at++;
    if (*at != ':') return NULL;
    at++;
    while (*at == ' ') at++;
    return at;
}

/* A dtype numpy names: float64, float32, float16, or complex (Meta's freqs_cis is complex64),
 * whose (re, im) float pairs are read as a trailing dimension of 2. */
static int parse_descr(const char *v, int *dt, int *complex, char *msg)
{
    if (!v || *v != '\'') return fail(msg, "npy header: no 'descr' string");
    static const char *const known[] = {"<f8'", "<f4'", "<f2'"};
    *complex = 0;
    for (int j = 0; j < 3; j++)
        if (strncmp(v + 1, known[j], 4) == 0) {
            *dt = j;
            return ROPE_OK;
        }
    if (strncmp(v + 1, "<c8'", 4) == 0 || strncmp(v + 1, "<c16'", 5) == 0) {
        *dt = v[2] == 'c' && v[3] == '8' ? ROPE_DT_F32 : ROPE_DT_F64;
        *complex = 1;
        return ROPE_OK;
    }
    char shown[16] = {0};
    for (int j = 0; j < 10 && v[j + 1] && v[j + 1] != '\''; j++)
        shown[j] = (v[j + 1] >= 32 && v[j + 1] < 127) ? v[j + 1] : '?';
    snprintf(msg, ROPE_VERIFY_MSG,
             "npy dtype '%s' is not supported (little-endian float64, "
             "float32, float16 or complex: <f8, <f4, <f2, <c8, <c16)",
             shown);
    return ROPE_E_VALUE;
}

static int parse_shape(const char *v, long long *shape, int *ndim, char *msg)
{
    if (!v || *v != '(') return fail(msg, "npy header: no 'shape' tuple");
    v++;
    *ndim = 0;
    for (;;) {
        while (*v == ' ') v++;
        if (*v == ')') return ROPE_OK;
        if (*v < '0' || *v > '9')
            return fail(msg, "npy header: a shape that is not a tuple of integers");
        long long x = 0;
        while (*v >= '0' && *v <= '9') {
            if (x > (1LL << 40)) return fail(msg, "npy header: a dimension above 2^40");
            x = x * 10 + (*v++ - '0');
        }
        if (*ndim == 8) return fail(msg, "npy header: more than 8 dimensions");
        shape[(*ndim)++] = x;
        while (*v == ' ') v++;
        if (*v == ',')
            v++;
        else if (*v != ')')
            return fail(msg, "npy header: a shape that is not a tuple of integers");
    }
}

int rope_npy_read(const unsigned char *buf, size_t len, rope_table *t, char *msg)
{
    memset(t, 0, sizeof *t);
    if (len < 10 || memcmp(buf, "\x93NUMPY", 6) != 0) return fail(msg, "truncated npy header");
    int major = buf[6];
    size_t hlen, start;
    if (major == 1) {
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
        start = 10;
    } else if (major == 2 || major == 3) {
        if (len < 12) return fail(msg, "truncated npy header");
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        start = 12;
    } else {
        snprintf(msg, ROPE_VERIFY_MSG, "npy format version %d is unknown", major);
        return ROPE_E_VALUE;
    }
    if (hlen > (size_t)ROPE_VERIFY_MAX_HEADER) {
        snprintf(msg, ROPE_VERIFY_MSG, "npy header of %zu bytes; the limit is %ld", hlen,
                 ROPE_VERIFY_MAX_HEADER);
        return ROPE_E_VALUE;
    }
    if (hlen > len - start) {
        snprintf(msg, ROPE_VERIFY_MSG, "truncated: the npy header claims %zu bytes, %zu follow",
                 hlen, len - start);
        return ROPE_E_VALUE;
    }
    char *header = malloc(hlen + 1);
    if (!header) return fail(msg, "out of memory for the npy header");
    memcpy(header, buf + start, hlen);
    header[hlen] = '\0';
    if (strlen(header) != hlen || header[0] != '{') {
        free(header);
        return fail(msg, "npy header is not a Python dict literal");
    }
    int dt = 0, ndim = 0, complex = 0;
    long long shape[9];
    int rc = parse_descr(value_of(header, "descr"), &dt, &complex, msg);
    const char *fo = value_of(header, "fortran_order");
    int fortran = fo && strncmp(fo, "True", 4) == 0;
    if (rc == ROPE_OK && (!fo || (!fortran && strncmp(fo, "False", 5) != 0)))
        rc = fail(msg, "npy header: no 'fortran_order' True/False");
    if (rc == ROPE_OK) rc = parse_shape(value_of(header, "shape"), shape, &ndim, msg);
    free(header);
    if (rc != ROPE_OK) return rc;
    if (fortran) {
        /* Dimensions of size 1 do not change the order of the bytes: with at most one other
         * dimension, Fortran order is C order; with two, the bytes are that 2-D array's. */
        int big = 0;
        for (int k = 0; k < ndim; k++)
            if (shape[k] != 1) shape[big++] = shape[k];
        if (big > 2) {
            snprintf(msg, ROPE_VERIFY_MSG,
                     "a Fortran-order array with %d dimensions above 1; a dump is 1-D or 2-D", big);
            return ROPE_E_VALUE;
        }
        if (big == 0 && ndim > 0) shape[big++] = 1;
        ndim = big;
        fortran = big == 2;
        if (complex && fortran)
            return fail(msg, "a Fortran-order complex array; save it in C order "
                             "(np.ascontiguousarray)");
    }
    if (complex) shape[ndim++] = 2; /* re, im */
    rc = rope_table_fill(t, shape, ndim, dt, buf + start + hlen, len - start - hlen, fortran, msg);
    if (rc == ROPE_OK && complex) t->complex = 1;
    return rc;
}

static uint32_t u16(const unsigned char *p)
{
    return (uint32_t)(p[0] | p[1] << 8);
}
static uint32_t u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t u64(const unsigned char *p)
{
    return (uint64_t)u32(p) | (uint64_t)u32(p + 4) << 32;
}

#define MAX_MEMBERS 64

/* One stored member: its name (".npy" cut) and where its bytes lie. */
typedef struct {
    char name[128];
    size_t offset, size;
    int method;
} member;

/* Fields of 0xffffffff live in the zip64 extra field, in this order, only
 * those that overflowed (numpy writes them so). */
static void zip64_fields(const unsigned char *extra, size_t n, uint64_t *usize, uint64_t *csize,
                         uint64_t *local)
{
    for (size_t at = 0; n - at >= 4;) {
        size_t id = u16(extra + at), sz = u16(extra + at + 2);
        if (sz > n - at - 4) return;
        if (id == 1) {
            uint64_t *fields[3] = {usize, csize, local};
            size_t k = 0;
            for (int j = 0; j < 3; j++)
                if (*fields[j] == 0xffffffffu && sz - k >= 8) {
                    *fields[j] = u64(extra + at + 4 + k);
                    k += 8;
                }
        }
        at += 4 + sz;
    }
}

/* Whether n bytes at offset off lie inside len bytes, without computing off + n (a zip64 field
 * may hold any 64-bit number). */
static int inside(uint64_t off, uint64_t n, size_t len)
{
    return off <= (uint64_t)len && n <= (uint64_t)len - off;
}

static int zip_members(const unsigned char *buf, size_t len, member *ms, int *count, char *msg)
{
    if (len < 22) return fail(msg, "truncated zip: no end record");
    size_t eocd = len - 22, stop = len > 22 + 65535 ? len - 22 - 65535 : 0;
    while (u32(buf + eocd) != 0x06054b50u) {
        if (eocd == stop) return fail(msg, "truncated zip: no end record");
        eocd--;
    }
    size_t n = u16(buf + eocd + 10);
    uint64_t cd = u32(buf + eocd + 16);
    if (n > MAX_MEMBERS) return fail(msg, "npz holds more than 64 members");
    *count = 0;
    for (size_t j = 0; j < n; j++) {
        if (!inside(cd, 46, len) || u32(buf + cd) != 0x02014b50u)
            return fail(msg, "npz: a broken zip directory");
        const unsigned char *e = buf + cd;
        member *m = &ms[*count];
        m->method = (int)u16(e + 10);
        uint64_t csize = u32(e + 20), usize = u32(e + 24);
        size_t nlen = u16(e + 28), elen = u16(e + 30), clen = u16(e + 32);
        uint64_t local = u32(e + 42);
        if (!inside(cd + 46, (uint64_t)nlen + elen + clen, len))
            return fail(msg, "npz: a broken zip directory");
        size_t keep = nlen < sizeof m->name ? nlen : sizeof m->name - 1;
        memcpy(m->name, e + 46, keep);
        m->name[keep] = '\0';
        char *dot = strstr(m->name, ".npy");
        if (dot && dot[4] == '\0') *dot = '\0';
        zip64_fields(e + 46 + nlen, elen, &usize, &csize, &local);
        if (!inside(local, 30, len)) {
            snprintf(msg, ROPE_VERIFY_MSG,
                     "npz member '%.64s': its local header at byte %llu lies past the end of "
                     "the file (%zu bytes)",
                     m->name, (unsigned long long)local, len);
            return ROPE_E_VALUE;
        }
        if (u32(buf + local) != 0x04034b50u) {
            snprintf(msg, ROPE_VERIFY_MSG,
                     "npz member '%.64s': no local header at byte %llu, where the zip "
                     "directory puts it",
                     m->name, (unsigned long long)local);
            return ROPE_E_VALUE;
        }
        uint64_t data = local + 30 + u16(buf + local + 26) + u16(buf + local + 28);
        /* The compressed size bounds the bytes; a stored member's is its size. */
        if (!inside(data, csize, len)) {
            snprintf(msg, ROPE_VERIFY_MSG,
                     "truncated npz: member '%.64s' claims %llu bytes from byte %llu, the file "
                     "holds %zu",
                     m->name, (unsigned long long)csize, (unsigned long long)data, len);
            return ROPE_E_VALUE;
        }
        m->offset = (size_t)data;
        m->size = (size_t)csize;
        (*count)++;
        cd += 46 + nlen + elen + clen;
    }
    return ROPE_OK;
}

int rope_npz_read(const unsigned char *buf, size_t len, const rope_table_want *want, rope_table *t,
                  char *msg)
{
    memset(t, 0, sizeof *t);
    member ms[MAX_MEMBERS];
    const char *names[MAX_MEMBERS];
    int n = 0, rc = zip_members(buf, len, ms, &n, msg);
    if (rc != ROPE_OK) return rc;
    for (int j = 0; j < n; j++) names[j] = ms[j].name;
    int k = rope_table_pick(names, n, want, msg);
    if (k < 0) return ROPE_E_VALUE;
    if (ms[k].method != 0) {
        snprintf(msg, ROPE_VERIFY_MSG,
                 "npz member '%s' is compressed: save with np.savez, "
                 "not np.savez_compressed",
                 ms[k].name);
        return ROPE_E_VALUE;
    }
    rc = rope_npy_read(buf + ms[k].offset, ms[k].size, t, msg);
    if (rc != ROPE_OK) {
        char inner[ROPE_VERIFY_MSG];
        memcpy(inner, msg, sizeof inner);
        snprintf(msg, ROPE_VERIFY_MSG, "npz member '%s': %.*s", ms[k].name, 200, inner);
    }
    return rc;
}
