/* libFuzzer target for verify's readers: random bytes as a dump file (npy,
 * npz, safetensors, JSON, text, told apart by their first bytes), then the
 * layout check, the comparison with a default RoPE model and, for a table,
 * the diagnosis. Checked besides ASan/UBSan: a refusal carries a message; a
 * table read holds finite values of a 1-D or 2-D shape. Each input is read
 * from the end of a page with no page after it, as a mapped file may be:
 * a read past its last byte crashes even where the sanitizers do not look
 * (strtod inside libc). The mutator edits what the formats' readers trust:
 * a binary size or offset field, a number in a JSON header. */
/* MAP_ANONYMOUS, which POSIX (the build's _POSIX_C_SOURCE) does not name. */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/rope.h"
#include "scaling/config.h"
#include "verify/verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

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

/* Values at the edges of what a size or offset field holds. */
static const uint64_t edges[] = {0,          1,          0x7f,        0xff,
                                 0xffff,     0x7fffffff, 0xffffffff,  0x100000000ull,
                                 1ull << 53, 1ull << 63, ~0ull - 15u, ~0ull};
static const char *const numbers[] = {
    "-1",     "0",   "4.5",       "1e300", "-0.5", "18446744073709551616", "9007199254740993",
    "1e-400", "nan", "2147483648"};

static uint32_t next(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

/* A 2-, 4- or 8-byte little-endian field at a random place set to an edge value, or its value
 * moved by one (npy header lengths, zip offsets and sizes, the safetensors header size). */
static void edit_field(uint8_t *data, size_t size, uint32_t *r)
{
    size_t width = (size_t)2 << (next(r) % 3);
    if (size < width) return;
    size_t at = next(r) % (size - width + 1);
    uint64_t v = edges[next(r) % (sizeof edges / sizeof *edges)];
    if (next(r) % 4 == 0) {
        v = 0;
        for (size_t k = 0; k < width; k++) v |= (uint64_t)data[at + k] << (8 * k);
        v += next(r) % 2 ? 1 : (uint64_t)-1;
    }
    for (size_t k = 0; k < width; k++) data[at + k] = (uint8_t)(v >> (8 * k));
}

/* A run of digits (a JSON shape, offset or value) replaced by an awkward number. */
static size_t edit_number(uint8_t *data, size_t size, size_t max_size, uint32_t *r)
{
    if (size == 0) return size;
    size_t at = next(r) % size, end;
    while (at < size && (data[at] < '0' || data[at] > '9')) at++;
    if (at == size) return size;
    for (end = at; end < size && ((data[end] >= '0' && data[end] <= '9') || data[end] == '.');)
        end++;
    const char *with = numbers[next(r) % (sizeof numbers / sizeof *numbers)];
    size_t n = strlen(with);
    if (size - (end - at) + n > max_size) return size;
    memmove(data + at + n, data + end, size - end);
    memcpy(data + at, with, n);
    return size - (end - at) + n;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    uint32_t r = seed | 1u;
    switch (next(&r) % 4) {
    case 0: edit_field(data, size, &r); return size;
    case 1: return edit_number(data, size, max_size, &r);
    default: return LLVMFuzzerMutate(data, size, max_size);
    }
}

/* size bytes ending where a page ends, the page after them unmapped; *base, *span: the mapping. */
static unsigned char *guarded(const uint8_t *data, size_t size, unsigned char **base, size_t *span)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = (size + page - 1) / page + 1;
    *span = pages * page;
    void *m = mmap(NULL, *span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    *base = m;
    if (mprotect(*base + *span - page, page, PROT_NONE) != 0) abort();
    unsigned char *at = *base + *span - page - size;
    if (size) memcpy(at, data, size);
    return at;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rope_config *c;
    if (!c && !(c = malloc(sizeof *c))) return 0;
    unsigned char *base = NULL;
    size_t span = 0;
    const unsigned char *bytes = guarded(data, size, &base, &span);
    if (!bytes) return 0;
    rope_table_want want = {names, 2, NULL};
    rope_table t;
    char msg[ROPE_VERIFY_MSG];
    msg[0] = '\0';
    int rc = rope_table_read(bytes, size, &want, &t, msg);
    if (rc != ROPE_OK) {
        if (msg[0] == '\0' || !memchr(msg, '\0', sizeof msg)) abort();
    } else {
        check_table(&t, c);
        rope_table_free(&t);
    }
    munmap(base, span);
    return 0;
}
