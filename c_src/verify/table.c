/* What the dump readers share: the table, dtype rounding, reading a file,
 * telling the formats apart, picking a tensor by name, and filling a table
 * from raw little-endian values. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/rope.h"
#include "verify/verify.h"

#ifdef MAP_POPULATE
#define ROPE_MAP_POPULATE MAP_POPULATE
#else
#define ROPE_MAP_POPULATE 0
#endif

void rope_table_free(rope_table *t)
{
    if (!t) return;
    if (!t->borrowed) {
        free(t->v);
        free(t->f);
    }
    t->v = NULL;
    t->f = NULL;
    t->borrowed = 0;
}

const char *rope_dtype_name(int dtype)
{
    static const char *const names[] = {"float64", "float32", "float16", "bfloat16"};
    return dtype >= 0 && dtype < 4 ? names[dtype] : "?";
}

/* The formats told apart by their first bytes, and the largest file each may be: what its
 * largest accepted table needs (docs/VERIFY.md, "Limits"). */
enum { FMT_NPY, FMT_NPZ, FMT_SAFETENSORS, FMT_JSON, FMT_TEXT };

static int format_of(const unsigned char *buf, size_t len)
{
    if (len >= 6 && memcmp(buf, "\x93NUMPY", 6) == 0) return FMT_NPY;
    if (len >= 4 && memcmp(buf, "PK\x03\x04", 4) == 0) return FMT_NPZ;
    /* safetensors: an 8-byte little-endian header size, then a JSON object. */
    if (len >= 9 && buf[8] == '{' && buf[7] == 0 && buf[6] == 0) return FMT_SAFETENSORS;
    size_t k = rope_text_start(buf, len);
    while (k < len && (buf[k] == ' ' || buf[k] == '\n' || buf[k] == '\t' || buf[k] == '\r')) k++;
    return k < len && (buf[k] == '[' || buf[k] == '{') ? FMT_JSON : FMT_TEXT;
}

static int too_big(int format, double len, char *msg)
{
    static const char *const what[] = {"an npy file", "an npz file", "a safetensors file",
                                       "a JSON dump", "a text dump"};
    static const long limit[] = {ROPE_VERIFY_MAX_BINARY, ROPE_VERIFY_MAX_BINARY,
                                 ROPE_VERIFY_MAX_BINARY, ROPE_VERIFY_MAX_JSON,
                                 ROPE_VERIFY_MAX_TEXT};
    if (len <= (double)limit[format]) return 0;
    snprintf(msg, ROPE_VERIFY_MSG, "%s of %.0f bytes; the limit is %ld bytes (%ld MiB)%s",
             what[format], len, limit[format], limit[format] >> 20,
             format >= FMT_JSON ? ": save a larger table as .npy" : "");
    return 1;
}

static const char *kind_of(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "not a regular file";
}

/* A regular file's first bytes, and its format's size limit, before it is mapped. */
static int check_file(int fd, const struct stat *st, char *msg)
{
    if (!S_ISREG(st->st_mode)) {
        snprintf(msg, ROPE_VERIFY_MSG, "not a regular file (%s)", kind_of(st->st_mode));
        return ROPE_E_VALUE;
    }
    unsigned char head[64];
    ssize_t got = pread(fd, head, sizeof head, 0);
    if (got < 0) {
        snprintf(msg, ROPE_VERIFY_MSG, "cannot read it: %s", strerror(errno));
        return ROPE_E_VALUE;
    }
    if (st->st_size == 0 && got > 0) {
        /* /proc and /sys files say 0 bytes and then read some: their size is unknown. */
        snprintf(msg, ROPE_VERIFY_MSG,
                 "not a regular file: its size is unknown (it reports 0 bytes, yet reads "
                 "some, as /proc and /sys files do); copy it to a file");
        return ROPE_E_VALUE;
    }
    /* Compared as doubles: an off_t past what size_t holds (a 32-bit build) is refused too. */
    return too_big(format_of(head, (size_t)got), (double)st->st_size, msg) ? ROPE_E_VALUE : ROPE_OK;
}

int rope_verify_slurp(const char *path, unsigned char **buf, size_t *len, char *msg)
{
    *buf = NULL;
    *len = 0;
    /* O_NONBLOCK: opening a FIFO waits for a writer otherwise; a FIFO is refused below. */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        snprintf(msg, ROPE_VERIFY_MSG, "cannot open it: %s", strerror(errno));
        return ROPE_E_VALUE;
    }
    struct stat st;
    int rc = ROPE_OK;
    if (fstat(fd, &st) != 0) {
        snprintf(msg, ROPE_VERIFY_MSG, "cannot read it: %s", strerror(errno));
        rc = ROPE_E_VALUE;
    } else {
        rc = check_file(fd, &st, msg);
    }
    if (rc == ROPE_OK && st.st_size > 0) {
        /* Mapped, not read: a 128 MB cache costs no copy into fresh memory. */
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | ROPE_MAP_POPULATE, fd, 0);
        if (m == MAP_FAILED) {
            snprintf(msg, ROPE_VERIFY_MSG, "cannot read it: %s", strerror(errno));
            rc = ROPE_E_VALUE;
        } else {
            *buf = m;
            *len = (size_t)st.st_size;
        }
    }
    close(fd);
    return rc;
}

void rope_verify_unslurp(unsigned char *buf, size_t len)
{
    if (buf && len) munmap(buf, len);
}

int rope_table_read(const unsigned char *buf, size_t len, const rope_table_want *want,
                    rope_table *t, char *msg)
{
    memset(t, 0, sizeof *t);
    if (len == 0) {
        snprintf(msg, ROPE_VERIFY_MSG, "empty file");
        return ROPE_E_VALUE;
    }
    int format = format_of(buf, len);
    if (too_big(format, (double)len, msg)) return ROPE_E_VALUE;
    switch (format) {
    case FMT_NPY: return rope_npy_read(buf, len, t, msg);
    case FMT_NPZ: return rope_npz_read(buf, len, want, t, msg);
    case FMT_SAFETENSORS: return rope_safetensors_read(buf, len, want, t, msg);
    default: return rope_text_read(buf, len, want, t, msg);
    }
}

static const char *last_part(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? dot + 1 : name;
}

/* Whether name is one a dump's tensors are known by, for a role other than want's. */
static int other_role(const char *name, const rope_table_want *want)
{
    static const char *const known[] = {
        "inv_freq",   "cos",       "cos_cached",    "sin",
        "sin_cached", "freqs_cis", "cos_sin_cache", "embed_positions"};
    const char *have = last_part(name);
    for (int w = 0; w < want->n_names; w++)
        if (strcmp(have, want->names[w]) == 0) return 0;
    for (size_t k = 0; k < sizeof known / sizeof *known; k++)
        if (strcmp(have, known[k]) == 0) return 1;
    return 0;
}

int rope_table_pick(const char *const *names, int n, const rope_table_want *want, char *msg)
{
    for (int pass = 0; pass < 2; pass++)
        for (int w = 0; w < want->n_names; w++) {
            int found = -1, count = 0;
            for (int j = 0; j < n; j++) {
                const char *have = pass == 0 ? names[j] : last_part(names[j]);
                if (strcmp(have, want->names[w]) == 0) {
                    if (count++ == 0) found = j;
                }
            }
            if (count == 1) {
                if (want->found) *want->found = w;
                return found;
            }
            if (count > 1) {
                snprintf(msg, ROPE_VERIFY_MSG,
                         "%d tensors are named '%s' (e.g. '%s'): "
                         "save the one to check alone",
                         count, want->names[w], names[found]);
                return -2;
            }
        }
    if (n == 1 && !other_role(names[0], want)) {
        if (want->found) *want->found = -1;
        return 0;
    }
    char wanted[160];
    size_t at = 0;
    for (int w = 0; w < want->n_names && at < sizeof wanted; w++) {
        const char *sep = w == 0 ? "" : w == want->n_names - 1 ? " or " : ", ";
        int k = snprintf(wanted + at, sizeof wanted - at, "%s'%s'", sep, want->names[w]);
        at += k > 0 ? (size_t)k : 0;
    }
    if (n == 1)
        /* A cache holding cos alone is not a sin table: its one tensor is named for another role.
         */
        snprintf(msg, ROPE_VERIFY_MSG, "no tensor named %s: its one tensor is '%.64s'", wanted,
                 names[0]);
    else
        snprintf(msg, ROPE_VERIFY_MSG, "no tensor named %s among its %d", wanted, n);
    return -1;
}

static double half_bits(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

static double load(int dt, const unsigned char *p)
{
    if (dt == ROPE_DT_F64) {
        uint64_t u = 0;
        for (int k = 7; k >= 0; k--) u = (u << 8) | p[k];
        double d;
        memcpy(&d, &u, sizeof d);
        return d;
    }
    if (dt == ROPE_DT_F32) {
        uint32_t u =
            (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    uint16_t h = (uint16_t)(p[0] | p[1] << 8);
    if (dt == ROPE_DT_F16) return half_bits(h);
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static const size_t elem_size[] = {8, 4, 2, 2};

/* n raw values into out: doubles for F64, floats otherwise (every float16
 * and bfloat16 value is a float). A plain copy on a little-endian host. */
static void convert(int dt, const unsigned char *raw, size_t n, double *v, float *f)
{
    const uint16_t one = 1;
    int little = *(const unsigned char *)&one == 1;
    if (little && dt == ROPE_DT_F32)
        memcpy(f, raw, n * sizeof(float));
    else if (little && dt == ROPE_DT_F64)
        memcpy(v, raw, n * sizeof(double));
    else if (dt == ROPE_DT_F64)
        for (size_t j = 0; j < n; j++) v[j] = load(dt, raw + j * elem_size[dt]);
    else
        for (size_t j = 0; j < n; j++) f[j] = (float)load(dt, raw + j * elem_size[dt]);
}

/* Column-major 2-D (numpy's fortran_order) is stored transposed. */
static int transpose(rope_table *t, size_t n)
{
    size_t rows = (size_t)t->rows, w = (size_t)t->width, es = t->f ? sizeof(float) : sizeof(double);
    unsigned char *from = t->f ? (unsigned char *)t->f : (unsigned char *)t->v;
    unsigned char *to = malloc(n * es);
    if (!to) return ROPE_E_NOMEM;
    for (size_t j = 0; j < n; j++) memcpy(to + ((j % rows) * w + j / rows) * es, from + j * es, es);
    free(from);
    if (t->f)
        t->f = (float *)(void *)to;
    else
        t->v = (double *)(void *)to;
    return ROPE_OK;
}

int rope_table_shape(rope_table *t, const long long *shape, int ndim, int fortran, size_t *n,
                     char *msg)
{
    long long dims[8];
    int nd = 0;
    double total = 1.0;
    for (int k = 0; k < ndim; k++) {
        if (shape[k] < 0) {
            snprintf(msg, ROPE_VERIFY_MSG, "a negative dimension in its shape");
            return ROPE_E_VALUE;
        }
        total *= (double)shape[k];
    }
    int k0 = 0;
    while (ndim - k0 > 2 && shape[k0] == 1) k0++;
    /* Past two dimensions, a unit one anywhere (GPT-NeoX's [positions, 1, 1, d]) leaves the
     * bytes in the same order: dropped. */
    int big = 0;
    for (int k = k0; k < ndim; k++) big += shape[k] != 1;
    /* [positions, pairs, 2]: a complex array's real view, (re, im) side by side in a row. */
    int complex = big == 3 && ndim <= 8 && shape[ndim - 1] == 2;
    if (complex) {
        long long flat[2] = {1, 1};
        int seen = 0;
        for (int k = k0; k < ndim - 1; k++)
            if (shape[k] != 1) flat[seen++] = shape[k];
        flat[1] *= 2;
        int rc = rope_table_shape(t, flat, 2, 0, n, msg);
        t->complex = 1;
        return rc;
    }
    if (big > 2 || ndim > 8) {
        snprintf(msg, ROPE_VERIFY_MSG,
                 "a %d-D array; a dump is 1-D (inv_freq) or 2-D "
                 "(positions x width)",
                 big);
        return ROPE_E_VALUE;
    }
    if (ndim == 2 && shape[0] == 1 && !fortran) k0 = 1; /* [1, n]: one row, read as 1-D */
    for (int k = k0; k < ndim; k++)
        if (ndim - k0 <= 2 || shape[k] != 1) dims[nd++] = shape[k];
    if (total > (double)ROPE_VERIFY_MAX_VALUES) {
        snprintf(msg, ROPE_VERIFY_MSG, "its shape holds %.0f values; the limit is %ld", total,
                 ROPE_VERIFY_MAX_VALUES);
        return ROPE_E_VALUE;
    }
    *n = (size_t)total;
    if (*n == 0) {
        snprintf(msg, ROPE_VERIFY_MSG, "an empty array");
        return ROPE_E_VALUE;
    }
    t->ndim = nd == 0 ? 1 : nd;
    /* Each dimension is at most the total, which fits a long. */
    t->rows = nd == 2 ? (long)dims[0] : 1;
    t->width = nd == 2 ? (long)dims[1] : nd == 1 ? (long)dims[0] : 1;
    return ROPE_OK;
}

/* Value j is NaN or infinite: where it is, and for a table why such values come (issue #33):
 * float16's largest number is 65504, past which a position, an angle or a value is infinite,
 * and the cos and sin of an infinite angle NaN. The row's position is FROM + row
 * (--positions, read after the file). */
static void not_finite(rope_table *t, size_t j, double x, int fortran, char *msg)
{
    const char *what = isnan(x) ? "NaN" : "infinite";
    t->bad_row = -1;
    if (t->ndim != 2 || t->rows < 2) {
        snprintf(msg, ROPE_VERIFY_MSG, "value %zu is %s", j, what);
        return;
    }
    size_t rows = (size_t)t->rows, w = (size_t)t->width;
    size_t r = fortran ? j % rows : j / w, col = fortran ? j / rows : j % w;
    int half = t->dtype == ROPE_DT_F16 || r >= 65504;
    t->bad_row = (long)r;
    snprintf(msg, ROPE_VERIFY_MSG, "row %zu, column %zu is %s (position FROM + %zu)%s", r, col,
             what, r,
             half ? ": float16's largest number is 65504; a position or angle held in float16 "
                    "past it is infinite, and its cos and sin NaN (compute the angle in float32)"
                  : "");
}

int rope_table_fill(rope_table *t, const long long *shape, int ndim, int dt,
                    const unsigned char *raw, size_t raw_len, int fortran, char *msg)
{
    size_t n = 0;
    int rc = rope_table_shape(t, shape, ndim, fortran, &n, msg);
    if (rc != ROPE_OK) return rc;
    size_t es = elem_size[dt];
    if (raw_len != n * es) {
        snprintf(msg, ROPE_VERIFY_MSG,
                 "%s: its header claims %zu bytes of data, the file holds %zu",
                 raw_len < n * es ? "truncated" : "trailing bytes", n * es, raw_len);
        return ROPE_E_VALUE;
    }
    t->dtype = dt;
    int nd = t->ndim;
    const uint16_t one = 1;
    int in_place = *(const unsigned char *)&one == 1 && !(fortran && nd == 2) &&
                   ((dt == ROPE_DT_F32 && (uintptr_t)raw % sizeof(float) == 0) ||
                    (dt == ROPE_DT_F64 && (uintptr_t)raw % sizeof(double) == 0));
    if (in_place) {
        /* A large float32 or float64 cache is used where it lies: no copy. */
        if (dt == ROPE_DT_F32)
            t->f = (float *)(uintptr_t)raw;
        else
            t->v = (double *)(uintptr_t)raw;
        t->borrowed = 1;
    } else {
        if (dt == ROPE_DT_F64)
            t->v = malloc(n * sizeof(double));
        else
            t->f = malloc(n * sizeof(float));
        if (!t->v && !t->f) {
            snprintf(msg, ROPE_VERIFY_MSG, "out of memory for %zu values", n);
            return ROPE_E_NOMEM;
        }
        convert(dt, raw, n, t->v, t->f);
    }
    for (size_t j = 0; j < n; j++) {
        double x = rope_table_at(t, j);
        if (!isfinite(x)) {
            not_finite(t, j, x, fortran, msg);
            rope_table_free(t);
            return ROPE_E_VALUE;
        }
    }
    if (fortran && nd == 2 && t->rows > 1 && t->width > 1 && transpose(t, n) != ROPE_OK) {
        rope_table_free(t);
        snprintf(msg, ROPE_VERIFY_MSG, "out of memory for %zu values", n);
        return ROPE_E_NOMEM;
    }
    return ROPE_OK;
}
