/* Times every batch entry point at a work of d x count (default ROPE_MAX_WORK),
 * d = 4096, to show how long the slowest call allowed by the limit takes.
 *   bench_limits [work]      (built and run by tools/bench_limits.sh)
 * Prints one line per function and, last, the slowest with its seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/rope.h"
#include "explain/explain.h"

#define BENCH_DIM 4096

/* CPU seconds of this process: on a machine shared with other work the wall
 * clock measures the load as much as the call. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    long work = argc > 1 ? atol(argv[1]) : ROPE_MAX_WORK;
    int d = BENCH_DIM, count = (int)(work / BENCH_DIM);
    if (count < 1 || count > ROPE_MAX_COUNT) {
        fprintf(stderr, "bench_limits: work %ld gives %d starts at dim %d\n", work, count, d);
        return 2;
    }
    double *q = malloc((size_t)d * sizeof(double)), *k = malloc((size_t)d * sizeof(double));
    double *pos = malloc((size_t)count * sizeof(double));
    /* The largest output: cos_grid's, one double per unit of work. */
    size_t out_len = (size_t)d * (size_t)count + 5 * (size_t)count;
    double *out = malloc(out_len * sizeof(double));
    int *slow = malloc((size_t)count * sizeof(int));
    if (!q || !k || !pos || !out || !slow || rope_demo_vectors(d, q, k) != ROPE_OK) return 1;
    for (int j = 0; j < count; j++) pos[j] = 0.37 * j + 3.0; /* no row reuses another's key */
    const char *names[] = {"offset_scan", "offset_sweep", "slow_pairs_batch",
                           "norm_gaps",   "add_terms",    "add_terms_sweep",
                           "cos_grid",    "decay",        "offset_envelope"};
    const char *slowest = NULL;
    double worst = 0.0;
    for (int f = 0; f < 9; f++) {
        double t0 = now();
        int rc;
        switch (f) {
        case 0: rc = rope_offset_scan(q, d, k, d, 2.0, pos, count, 1e4, out); break;
        case 1: rc = rope_offset_sweep(q, d, k, d, 2.0, 3.0, 0.37, count, 1e4, out); break;
        case 2: rc = rope_slow_pairs_batch(d, pos, count, 1e4, slow); break;
        case 3: rc = rope_norm_gaps(q, d, pos, count, 1e4, out); break;
        case 4: rc = rope_add_terms(q, d, k, d, 2.0, pos, count, 1e4, out); break;
        case 5: rc = rope_add_terms_sweep(q, d, k, d, 2.0, 3.0, 0.37, count, 1e4, out); break;
        /* cos_grid's work is (d / 2) x count: twice the dimension gives the same work. */
        case 6: rc = rope_cos_grid(2 * d, pos, count, 1e4, out); break;
        case 7: rc = rope_decay(q, d, k, d, pos, count, count, 7, 1e4, out); break;
        default: rc = rope_offset_envelope(q, d, k, d, 2.0, 0.0, (double)count - 1.0, 64, 1e4, out);
        }
        double t = now() - t0;
        printf("limits: %-16s dim %d x %d = %ld: %7.3f s CPU%s%s\n", names[f], d, count,
               (long)d * count, t,
               rc == ROPE_OK ? "" : ", refused: ", rc == ROPE_OK ? "" : rope_strerror(rc));
        if (rc == ROPE_OK && t > worst) worst = t, slowest = names[f];
    }
    if (slowest) printf("limits: slowest call at work %ld: %s, %.3f s CPU\n", work, slowest, worst);
    /* rope_offset_envelope has its own, higher limit: the page's widest range at
     * dim 1024, and the dims 0 to 3 where a start's own cost dominates. */
    double *env = malloc(7 * 512 * sizeof(double));
    static const int env_dims[] = {1024, 0, 1, 2, 3};
    for (int j = 0; j < 5 && env; j++) {
        int ed = env_dims[j];
        long starts = ROPE_MAX_ENVELOPE_WORK / (ed + ROPE_ENVELOPE_START_WORK);
        double t0 = now();
        int rc = rope_offset_envelope(q, ed, k, ed, 2.0, 0.0, (double)starts - 1.0, 512, 1e4, env);
        printf(
            "limits: offset_envelope at its own limit, (dim %d + %d) x %ld <= %d: %.3f s CPU%s%s\n",
            ed, ROPE_ENVELOPE_START_WORK, starts, ROPE_MAX_ENVELOPE_WORK, now() - t0,
            rc == ROPE_OK ? "" : ", refused: ", rc == ROPE_OK ? "" : rope_strerror(rc));
    }
    free(env);
    free(q);
    free(k);
    free(pos);
    free(out);
    free(slow);
    return 0;
}
