/* verify's text reader against the C library: every number a text dump spells must be read as
 * the double strtod gives, bit for bit, whether the reader's fast paths (up to 15 digits, or up
 * to 19 through a 64-bit long double) take it or strtod does; and a float32 table printed with
 * %.9g must come back as those float32s. Random numbers from ROPE_TEST_SEED, the ties of two
 * doubles the long double path must hand on among them; ends with "N passed, N failed". */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rope.h"
#include "testlib.h"
#include "verify/verify.h"

#define NUMBERS 300000
#define TOKEN 48

static struct testlib_tally tally;

/* A random decimal of 1 to 19 (sometimes 20 to 24) significant digits, a point somewhere or
 * nowhere, and sometimes an exponent: the shapes %.9g, %.17g, repr and hand-written tables
 * take. */
static void random_decimal(char *out)
{
    int digits = rng_int(1, 19);
    if (rng_int(0, 9) == 0) digits = rng_int(20, 24);
    char mant[32];
    for (int k = 0; k < digits; k++) mant[k] = (char)('0' + rng_int(k == 0 ? 1 : 0, 9));
    mant[digits] = '\0';
    const char *sign = rng_int(0, 3) == 0 ? "-" : (rng_int(0, 20) == 0 ? "+" : "");
    int point = rng_int(0, digits); /* digits before the point */
    char body[40];
    if (point == digits)
        snprintf(body, sizeof body, "%s", mant);
    else if (point == 0)
        snprintf(body, sizeof body, "0.%s", mant);
    else
        snprintf(body, sizeof body, "%.*s.%s", point, mant, mant + point);
    if (rng_int(0, 2) == 0)
        snprintf(out, TOKEN, "%s%se%d", sign, body, rng_int(-34, 34));
    else
        snprintf(out, TOKEN, "%s%s", sign, body);
}

/* A decimal of at most 19 digits that lies exactly halfway between two doubles: an odd
 * integer times a power of two just past float64's 53 bits, optionally scaled by 10^-k
 * (then exact only as a decimal, near a tie). */
static void near_tie(char *out)
{
    int shift = rng_int(1, 10);
    uint64_t odd = ((uint64_t)1 << 53) + 2 * (rng_next() % (1ULL << 8)) + 1;
    uint64_t m = odd << (shift - 1); /* 54 + shift - 1 bits: a tie at every shift */
    if (m >= 10000000000000000000ULL) m >>= 1;
    if (rng_int(0, 1))
        snprintf(out, TOKEN, "%llu", (unsigned long long)m);
    else
        snprintf(out, TOKEN, "%llue-%d", (unsigned long long)m, rng_int(1, 27));
}

/* The numbers in one column, read by rope_text_read; each compared with strtod's bits. */
static void text_numbers_should_read_as_strtod(void)
{
    rng_start(1);
    size_t cap = (size_t)NUMBERS * TOKEN + 64, len = 0;
    char *text = malloc(cap), (*tokens)[TOKEN] = malloc((size_t)NUMBERS * TOKEN);
    if (!text || !tokens) {
        testlib_check(&tally, "text numbers", 0, "out of memory");
        free(text);
        free(tokens);
        return;
    }
    /* A first value that is no float32, so the table is read as doubles. */
    snprintf(tokens[0], TOKEN, "0.10000000000000001");
    for (int j = 1; j < NUMBERS; j++) {
        if (j % 10 == 0)
            near_tie(tokens[j]);
        else
            random_decimal(tokens[j]);
    }
    for (int j = 0; j < NUMBERS; j++)
        len += (size_t)snprintf(text + len, cap - len, "%s%s", tokens[j], j % 3 ? ",\n" : "\n");
    /* The same values, as rows of three. */
    rope_table t;
    char msg[ROPE_VERIFY_MSG] = "";
    int rc = rope_text_read((const unsigned char *)text, len, NULL, &t, msg);
    char detail[256] = "";
    int ok = rc == ROPE_OK && t.v != NULL;
    if (!ok) snprintf(detail, sizeof detail, "read failed (%d): %s", rc, msg);
    size_t n = ok ? (size_t)t.rows * (size_t)t.width : 0;
    if (ok && n != NUMBERS) {
        ok = 0;
        snprintf(detail, sizeof detail, "%zu values read of %d", n, NUMBERS);
    }
    for (size_t j = 0; ok && j < n; j++) {
        double want = strtod(tokens[j], NULL), got = t.v[j];
        if (memcmp(&want, &got, sizeof want) != 0) {
            ok = 0;
            snprintf(detail, sizeof detail, "'%s': read %.17g, strtod %.17g", tokens[j], got, want);
        }
    }
    testlib_check(&tally, "every number reads as strtod reads it", ok, detail);
    if (rc == ROPE_OK) rope_table_free(&t);
    free(text);
    free(tokens);
}

/* float32 values printed %.9g (as numpy's savetxt and printf write them) read back as float32s,
 * and one float64 value among them makes the whole table doubles. */
static void float32_text_should_read_as_float32(void)
{
    rng_start(2);
    enum { N = 50000 };
    char *text = malloc((size_t)N * 20 + 64);
    float *want = malloc(N * sizeof *want);
    if (!text || !want) {
        testlib_check(&tally, "float32 text", 0, "out of memory");
        free(text);
        free(want);
        return;
    }
    size_t len = 0;
    for (int j = 0; j < N; j++) {
        want[j] = (float)rng_uniform(-1.0, 1.0) * (float)ldexp(1.0, rng_int(-20, 20));
        len += (size_t)sprintf(text + len, "%.9g%s", (double)want[j], j % 4 == 3 ? "\n" : " ");
    }
    rope_table t;
    char msg[ROPE_VERIFY_MSG] = "", detail[200] = "";
    int rc = rope_text_read((const unsigned char *)text, len, NULL, &t, msg);
    int ok = rc == ROPE_OK && t.dtype == ROPE_DT_F32 && t.f != NULL && t.width == 4;
    if (!ok) snprintf(detail, sizeof detail, "rc %d, dtype %d: %s", rc, rc ? -1 : t.dtype, msg);
    for (int j = 0; ok && j < N; j++)
        if (memcmp(&t.f[j], &want[j], sizeof(float)) != 0) {
            ok = 0;
            snprintf(detail, sizeof detail, "value %d: %.9g, want %.9g", j, (double)t.f[j],
                     (double)want[j]);
        }
    testlib_check(&tally, "%.9g float32 text reads as float32", ok, detail);
    if (rc == ROPE_OK) rope_table_free(&t);

    /* One more row, led by a float64 value: the table is read again, as doubles. */
    len += (size_t)sprintf(text + len, "0.10000000000000001 0.5 0.25 0.125\n");
    rc = rope_text_read((const unsigned char *)text, len, NULL, &t, msg);
    ok = rc == ROPE_OK && t.dtype == ROPE_DT_F64 && t.v != NULL && t.rows == N / 4 + 1;
    snprintf(detail, sizeof detail, "rc %d: %s", rc, msg);
    for (int j = 0; ok && j < N; j++) {
        float back = (float)t.v[j];
        if (memcmp(&back, &want[j], sizeof back) != 0) {
            ok = 0;
            snprintf(detail, sizeof detail, "value %d: %.17g, want %.9g", j, t.v[j],
                     (double)want[j]);
        }
    }
    testlib_check(&tally, "one float64 value makes the table float64, every value kept", ok,
                  detail);
    if (rc == ROPE_OK) rope_table_free(&t);
    free(text);
    free(want);
}

/* A NUL byte is named as such wherever it is: in a number, a blank line or a comment. */
static void nul_bytes_should_be_named(void)
{
    static const char *const cases[] = {"1,2\n3,\0004\n", "1,2\n\000\n3,4\n", "# a\000b\n1,2\n",
                                        "1,2\n3,4\n\000"};
    static const size_t lens[] = {10, 11, 11, 9};
    int ok = 1;
    char detail[200] = "";
    for (size_t k = 0; k < sizeof cases / sizeof *cases && ok; k++) {
        rope_table t;
        char msg[ROPE_VERIFY_MSG] = "";
        int rc = rope_text_read((const unsigned char *)cases[k], lens[k], NULL, &t, msg);
        if (rc == ROPE_OK) rope_table_free(&t);
        if (rc != ROPE_E_VALUE || !strstr(msg, "holds NUL bytes")) {
            ok = 0;
            snprintf(detail, sizeof detail, "case %zu: rc %d, '%s'", k, rc, msg);
        }
    }
    testlib_check(&tally, "a NUL byte anywhere is named", ok, detail);
}

int main(void)
{
    if (testlib_read_seed("test_text") != 0) return 2;
    text_numbers_should_read_as_strtod();
    float32_text_should_read_as_float32();
    nul_bytes_should_be_named();
    return testlib_report(&tally);
}
