/* libFuzzer target: any bytes become dims, bases, positions and vectors (NaN,
 * Inf, subnormals and huge values included) for every public function. The
 * core must never crash or read out of bounds, and whenever it returns
 * ROPE_OK its results must be finite: a NaN must never reach a chart. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "rope.h"

#define MAX_FUZZ_DIM 70
#define MAX_FUZZ_COUNT 9

typedef struct {
    const uint8_t *data;
    size_t size;
} input;

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

/* Mostly small dims, sometimes out of range, to reach both paths. */
static int take_dim(input *in)
{
    int v = 0;
    if (in->size > 0) {
        v = (int)in->data[0] - 8;
        in->data++;
        in->size--;
    }
    return v > MAX_FUZZ_DIM ? MAX_FUZZ_DIM : v;
}

static void require_finite(int rc, const double *out, int n)
{
    if (rc != ROPE_OK) return;
    for (int j = 0; j < n; j++)
        if (!isfinite(out[j])) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input in = {data, size};
    double q[MAX_FUZZ_DIM], k[MAX_FUZZ_DIM], out[3 * MAX_FUZZ_DIM * MAX_FUZZ_COUNT];
    double starts[MAX_FUZZ_COUNT];
    int slow[MAX_FUZZ_COUNT];
    int d = take_dim(&in), n = d > 0 ? d : 0;
    int count = take_dim(&in) % MAX_FUZZ_COUNT;
    double base = take_double(&in), m = take_double(&in), pos = take_double(&in);
    for (int j = 0; j < n; j++) {
        q[j] = take_double(&in);
        k[j] = take_double(&in);
    }
    for (int j = 0; j < MAX_FUZZ_COUNT; j++) starts[j] = take_double(&in);
    if (rope_strerror(d)[0] == '\0') abort();

    double one;
    require_finite(rope_dot(q, n, k, n, &one), &one, 1);
    require_finite(rope_norm(q, n, &one), &one, 1);
    require_finite(rope_thetas(d, base, out), out, n / 2);
    require_finite(rope_rotate_pair(m, pos, base, out), out, 2);
    require_finite(rope_apply_rope(q, d, pos, base, out), out, n);
    require_finite(rope_score(q, n, k, n, m, pos, base, &one), &one, 1);
    require_finite(rope_sin_pos(pos, d, base, out), out, n);
    require_finite(rope_add_score(q, n, k, n, m, pos, base, &one), &one, 1);
    require_finite(rope_offset_scan(q, n, k, n, m, starts, count, base, out), out, 3 * count);
    require_finite(rope_turns(d, pos, base, out), out, n / 2);
    require_finite(rope_pair_angles(d, pos, base, out), out, n / 2);
    require_finite(rope_offset_sweep(q, n, k, n, m, pos, starts[0], count, base, out), out,
                   3 * count);
    require_finite(rope_norm_gaps(q, n, starts, count, base, out), out, count);
    (void)rope_slow_pairs(d, pos, base, slow);
    (void)rope_slow_pairs_batch(d, starts, count, base, slow);
    (void)rope_demo_vectors(d, q, k);

    char text[256];
    int len = 0;
    rope_report_options o = {d, base, m, starts, count, starts, count, starts, count};
    int rc = rope_report_build(&o, (int)(size & 1), text, (int)sizeof text, &len);
    if (rc == ROPE_OK && (len < 0 || (size_t)len >= sizeof text || text[len] != '\0')) abort();
    if (rc == ROPE_E_SPACE && len < (int)sizeof text - 1) abort();
    return 0;
}
