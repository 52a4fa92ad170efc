/* libFuzzer target over the whole core and the report writer (the CLI's argv
 * is tests/fuzz/fuzz_cli.c's, its files tests/fuzz/fuzz_files.c's).
 *
 * Any bytes become dims, bases, positions, vectors, counts and NULLs for
 * every public function (NaN, Inf, subnormals and huge values included), with
 * outputs malloc'd at exactly their documented size so that ASan sees any
 * write past it. Whenever a function returns ROPE_OK its results must be
 * finite, and the properties must hold: rotating by p then by -p gives the
 * input back, and the score is the dot of the rotated vectors. The report is
 * written into buffers of a fuzzed size up to the one that fits. The explainer functions
 * (explain.h), NumPy's random numbers (nprandom.h) and the lesson's (lesson.h) take the
 * same fuzzed arguments with exact-size outputs. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rope.h"
#include "explain/explain.h"
#include "lesson/lesson.h"
#include "nprandom/nprandom.h"
#include "report/report.h"

#define MAX_FUZZ_DIM 70
#define MAX_FUZZ_COUNT 150 /* past two 64-start blocks of the sweep */

typedef struct {
    const uint8_t *data;
    size_t size;
} input;

static uint8_t take_byte(input *in)
{
    uint8_t v = 0;
    if (in->size > 0) {
        v = in->data[0];
        in->data++;
        in->size--;
    }
    return v;
}

static double take_double(input *in)
{
    double v = 0.0;
    if (in->size >= sizeof v) {
        memcpy(&v, in->data, sizeof v);
        in->data += sizeof v;
        in->size -= sizeof v;
    }
    return v;
}

/* Mostly small values, sometimes out of range below and above. */
static int take_dim(input *in)
{
    int v = (int)take_byte(in) - 8;
    if (v == 247 - 8) return ROPE_MAX_DIM + 1;
    return v > MAX_FUZZ_DIM ? MAX_FUZZ_DIM : v;
}

static int take_count(input *in)
{
    int v = (int)take_byte(in) - 4;
    if (v == 250) return ROPE_MAX_COUNT + 1;
    return v > MAX_FUZZ_COUNT ? MAX_FUZZ_COUNT : v;
}

/* Exactly n doubles (at least one byte, so malloc(0) is never asked). */
static double *exact(int n)
{
    double *p = malloc((size_t)(n > 0 ? n : 0) * sizeof(double) + (n > 0 ? 0 : 1));
    if (!p) abort();
    return p;
}

static void require_finite(int rc, const double *out, int n)
{
    if (rc != ROPE_OK) return;
    for (int j = 0; j < n; j++)
        if (!isfinite(out[j])) abort();
}

static int near(double a, double b, double scale)
{
    return fabs(a - b) <= 1e-9 + 1e-6 * scale;
}

static double sum_abs(const double *v, int n)
{
    double s = 0.0;
    for (int j = 0; j < n; j++) s += fabs(v[j]);
    return s;
}

/* Rotate-then-unrotate and score == dot(rotated), where positions are in the
 * contract's range and the vectors moderate, so the tolerance is meaningful. */
static void check_properties(const double *q, const double *k, int n, double m, double p,
                             double base)
{
    if (fabs(m) > 4096 || fabs(p) > 4096 || !(base >= 2.0 && base <= 1e7)) return;
    if (sum_abs(q, n) > 1e6 || sum_abs(k, n) > 1e6) return;
    double *rq = exact(n), *rk = exact(n), *back = exact(n), score, dot;
    if (rope_apply_rope(q, n, m, base, rq) == ROPE_OK &&
        rope_apply_rope(rq, n, -m, base, back) == ROPE_OK) {
        double scale = sum_abs(q, n);
        for (int j = 0; j < n; j++)
            if (!near(back[j], q[j], scale)) abort();
    }
    if (rope_apply_rope(k, n, p, base, rk) == ROPE_OK &&
        rope_score(q, n, k, n, m, p, base, &score) == ROPE_OK &&
        rope_dot(rq, n, rk, n, &dot) == ROPE_OK) {
        double scale = 0.0;
        for (int j = 0; j < n; j++) scale += fabs(q[j] * k[j]);
        if (!near(score, dot, scale)) abort();
    }
    free(rq);
    free(rk);
    free(back);
}

static void fuzz_core(input *in)
{
    int d = take_dim(in), n = d > 0 && d <= MAX_FUZZ_DIM ? d : 0;
    int count = take_count(in), c = count > 0 && count <= MAX_FUZZ_COUNT ? count : 0;
    uint8_t flags = take_byte(in);
    int nk = (flags & 1) ? n + (int)(flags >> 5) - 3 : n; /* sometimes mismatched */
    double base = take_double(in), m = take_double(in), pos = take_double(in);
    double *q = exact(MAX_FUZZ_DIM + 4), *k = exact(MAX_FUZZ_DIM + 4), *starts = exact(c);
    for (int j = 0; j < MAX_FUZZ_DIM + 4; j++) {
        q[j] = take_double(in);
        k[j] = take_double(in);
    }
    for (int j = 0; j < c; j++) starts[j] = (flags & 2) ? take_double(in) : j * 0.5 + m;
    /* Any pointer may be NULL. */
    const double *qa = (flags & 4) ? NULL : q, *sa = (flags & 8) ? NULL : starts;
    int null_out = (flags & 16) != 0;
    if (nk < 0 || nk > MAX_FUZZ_DIM) nk = n;
    if (rope_strerror(d)[0] == '\0') abort();

    double one;
    /* An output of exactly len doubles (or NULL), checked finite on success. */
#define CHECKED(len, call)                                                                         \
    do {                                                                                           \
        double *o = null_out ? NULL : exact(len);                                                  \
        int rc_ = (call);                                                                          \
        require_finite(rc_, o, o ? (len) : 0);                                                     \
        free(o);                                                                                   \
    } while (0)
    require_finite(rope_dot(qa, n, k, nk, null_out ? NULL : &one), &one, null_out ? 0 : 1);
    require_finite(rope_norm(qa, n, null_out ? NULL : &one), &one, null_out ? 0 : 1);
    CHECKED(n / 2, rope_thetas(d, base, o));
    CHECKED(2, rope_rotate_pair(m, pos, base, o));
    CHECKED(n, rope_apply_rope(qa, d, pos, base, o));
    require_finite(rope_score(qa, n, k, nk, m, pos, base, &one), &one, 1);
    CHECKED(n, rope_sin_pos(pos, d, base, o));
    require_finite(rope_add_score(qa, n, k, nk, m, pos, base, &one), &one, 1);
    CHECKED(3 * c, rope_offset_scan(qa, n, k, nk, m, sa, count, base, o));
    CHECKED(n / 2, rope_turns(d, pos, base, o));
    CHECKED(n / 2, rope_pair_angles(d, pos, base, o));
    CHECKED(3 * c, rope_offset_sweep(qa, n, k, nk, m, pos, 1.0 + (flags >> 6), count, base, o));
    CHECKED(c, rope_norm_gaps(qa, n, sa, count, base, o));
    /* The explainer (explain.h): each output exactly its documented length. */
    uint8_t extra = take_byte(in);
    int samples = (int)(extra & 7) - 1, bins = count, h = n / 2;
    uint32_t seed = (uint32_t)extra * 2654435761u;
    double span = (double)(extra >> 3) * 5.0; /* envelope starts: up to ~156 */
    CHECKED(ROPE_EX_LEN, rope_pair_example(q[0], q[1], k[0], k[1], m, pos, base, o));
    CHECKED(ROPE_PAIR_TERMS_LEN(n), rope_pair_terms(qa, n, k, nk, m, pos, base, o));
    CHECKED(5 * c, rope_add_terms(qa, n, k, nk, m, sa, count, base, o));
    CHECKED(5 * c, rope_add_terms_sweep(qa, n, k, nk, m, pos, 1.0 + (flags >> 6), count, base, o));
    CHECKED(3 * c, rope_decay(qa, n, k, nk, sa, count, samples, seed, base, o));
    CHECKED(h * c, rope_cos_grid(d, sa, count, base, o));
    CHECKED(ROPE_ENV_BLOCKS * (bins > 0 ? bins : 0),
            rope_offset_envelope(qa, n, k, nk, m, pos, pos + span, bins, base, o));
    {
        double *rq = null_out ? NULL : exact(n), *rk = exact(n);
        int rc = rope_random_vectors(d, seed, rq, rk);
        require_finite(rc, rq, rq ? n : 0);
        require_finite(rc, rk, rq ? n : 0);
        if (rc == ROPE_OK) /* uniform in [-1, 1) */
            for (int j = 0; j < n; j++)
                if (!(rq[j] >= -1.0 && rq[j] < 1.0 && rk[j] >= -1.0 && rk[j] < 1.0)) abort();
        free(rq);
        free(rk);
    }
    {
        /* NumPy's random numbers (nprandom.h), from a fuzzed 64-bit seed. */
        uint64_t npseed = 0;
        for (int j = 0; j < 8; j++) npseed = (npseed << 8) | take_byte(in);
        int draws = count <= MAX_FUZZ_COUNT ? count : c; /* negative counts included */
        CHECKED(c, rope_np_normal(npseed, o, draws));
        uint64_t *raw = malloc((size_t)c * sizeof(uint64_t) + 1);
        if (!raw) abort();
        (void)rope_np_raw(npseed, null_out ? NULL : raw, draws);
        free(raw);
        double *tok = null_out ? NULL : exact(n);
        int rc = rope_planes_example(npseed, d, base, m, pos, tok, &one);
        require_finite(rc, tok, tok ? n : 0);
        require_finite(rc, &one, 1);
        free(tok);
        if (rope_np_log1p(pos, &one) == ROPE_OK && !(isfinite(one) && one <= 0.0)) abort();
    }
    /* The lesson (lesson.h), on the same arguments. */
    CHECKED(ROPE_ORDER_LEN, rope_lesson_order(qa, n, k, nk, m, base, o));
    CHECKED(ROPE_SLOT_LEN(n), rope_lesson_slot(qa, n, pos, o));
    CHECKED(1, rope_lesson_normalized(m, pos, o));
    CHECKED(n * c, rope_lesson_marks(sa, count, d, base, o));
    CHECKED(n, rope_lesson_marked(qa, n, pos, base, o));
    CHECKED(ROPE_EXTRA_BLOCKS * n, rope_lesson_extrapolate(pos, d, count, base, o));
    CHECKED(ROPE_ID_LEN, rope_lesson_identity(m, pos, o));
    CHECKED(ROPE_CAT_LEN, rope_lesson_cat(q[0], q[1], k[0], k[1], m, pos, base, o));
    CHECKED(ROPE_PROOF_LEN, rope_lesson_proof(q[0], q[1], k[0], k[1], m, pos, base, o));
    CHECKED(ROPE_CLOCK_LEN, rope_lesson_clock(count, d, base, pos, m, o));
    CHECKED(ROPE_CLOCK_LEN, rope_lesson_clock_theta(base, pos, m, o));
    CHECKED(ROPE_REBASE_LEN, rope_lesson_rebase(count, d, base, m, pos, q[2], o));
    CHECKED(ROPE_WEIGHTS_LEN, rope_lesson_weights(count, d, base, m, q[2], pos, o));
    CHECKED(ROPE_POST_FIELDS, rope_lesson_post_row(count, o));
#undef CHECKED
    int one_int, *slow = malloc(c > 0 ? (size_t)c * sizeof(int) : 1);
    if (!slow) abort();
    (void)rope_slow_pairs(d, pos, base, null_out ? NULL : &one_int);
    (void)rope_slow_pairs_batch(d, sa, count, base, null_out ? NULL : slow);
    free(slow);
    double *dq = exact(n), *dk = exact(n);
    (void)rope_demo_vectors(d, null_out ? NULL : dq, dk);
    free(dq);
    free(dk);
    check_properties(q, k, n, m, pos, base);

    /* The report into a buffer of a fuzzed size up to the one that fits, and
     * into exactly len + 1 bytes. */
    int len = -1;
    rope_report_options opt = {d, base, m, sa, count, starts, c, starts, c};
    int format = (int)(flags >> 7), rc = rope_report_build(&opt, format, NULL, 0, &len);
    if (rc == ROPE_E_SPACE) {
        int sizes[2] = {(int)(take_byte(in) | (take_byte(in) << 8)) % (len + 2), len + 1};
        for (int j = 0; j < 2; j++) {
            char *buf = malloc((size_t)(sizes[j] > 0 ? sizes[j] : 1)); /* exactly cap bytes */
            int got = -1;
            if (!buf) abort();
            rc = rope_report_write(format, d, base, m, sa, count, starts, c, starts, c,
                                   sizes[j] ? buf : NULL, sizes[j], &got);
            if (got != len) abort();
            if (sizes[j] <= len ? rc != ROPE_E_SPACE : (rc != ROPE_OK || buf[len] != '\0')) abort();
            free(buf);
        }
    } else if (rc == ROPE_OK) {
        abort(); /* a NULL buffer of 0 bytes never fits a report */
    }
    free(q);
    free(k);
    free(starts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input in = {data, size};
    take_byte(&in); /* the corpus's target byte: odd inputs are fuzz_cli.c's and fuzz_files.c's */
    fuzz_core(&in);
    return 0;
}
