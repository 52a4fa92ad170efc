/*
 * What the C tests share: the seeded random numbers and the tolerance of
 * docs/SPEC.md ("Accuracy"). Header-only, so each test program includes it
 * once and nothing else is linked.
 */
#ifndef ROPE_TESTLIB_H
#define ROPE_TESTLIB_H

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define TESTLIB_ABS_TOL 1e-9
#define TESTLIB_REL_TOL 1e-6

/* docs/SPEC.md's comparison: |a - b| <= 1e-9 + 1e-6 |b|, b the expected value. */
static inline int testlib_close(double a, double b)
{
    return fabs(a - b) <= TESTLIB_ABS_TOL + TESTLIB_REL_TOL * fabs(b);
}

/* The tally of the test programs that run without cmocka (test_math, test_text): each check
 * counts, and a failed one prints "FAIL name: detail". */
struct testlib_tally {
    int passed, failed;
};

static inline void testlib_check(struct testlib_tally *tally, const char *name, int ok,
                                 const char *detail)
{
    if (ok) {
        tally->passed++;
    } else {
        tally->failed++;
        printf("FAIL %s: %s\n", name, detail);
    }
}

/* Prints "N passed, N failed"; the program's exit code (1 if any check failed). */
static inline int testlib_report(const struct testlib_tally *tally)
{
    printf("%d passed, %d failed\n", tally->passed, tally->failed);
    return tally->failed ? 1 : 0;
}

/* The run's seed: ROPE_TEST_SEED, else one from the clock. Printed by
 * testlib_read_seed; 0 on success, -1 (message printed) on a bad variable. */
static unsigned long long testlib_seed;

static inline int testlib_read_seed(const char *program)
{
    const char *text = getenv("ROPE_TEST_SEED");
    if (text != NULL && *text != '\0') {
        char *end;
        errno = 0;
        testlib_seed = strtoull(text, &end, 10);
        if (*end != '\0' || errno != 0 || text[0] == '-') {
            fprintf(stderr, "ROPE_TEST_SEED must be a non-negative integer, not \"%s\"\n", text);
            return -1;
        }
    } else {
        testlib_seed =
            ((unsigned long long)time(NULL) ^ ((unsigned long long)clock() << 16)) & 0xffffffffull;
    }
    printf("%s: ROPE_TEST_SEED=%llu (set it to reproduce this run)\nROPE_TEST_SEED=%llu\n", program,
           testlib_seed, testlib_seed);
    fflush(stdout);
    return 0;
}

/* splitmix64: small, seedable, the same sequence on every platform. */
static uint64_t testlib_rng_state;

/* Each randomized test draws from its own stream, so adding or reordering
 * tests does not change the cases another test sees for a given seed. */
static inline void rng_start(unsigned stream)
{
    testlib_rng_state = (uint64_t)testlib_seed + 0x632BE59BD9B4E019ull * (uint64_t)stream;
}

static inline uint64_t rng_next(void)
{
    uint64_t z = (testlib_rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi). */
static inline double rng_uniform(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(rng_next() >> 11) * 0x1.0p-53);
}

/* Uniform integer in [lo, hi]. */
static inline int rng_int(int lo, int hi)
{
    return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}

#endif /* ROPE_TESTLIB_H */
