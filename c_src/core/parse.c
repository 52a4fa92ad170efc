/* The plain-decimal grammar every layer reads numbers with (docs/SPEC.md,
 * "Numbers and lists"). The CLI parses with rope_parse_decimal. The page's URL
 * reader has its own parser; rope_decimal_form (exported to wasm) is the grammar
 * its tests hold it to, so a URL and a command line accept the same text. rope_parse_decimal is
 * not exported: strtod with wasm's 128-bit long double would add 16 KB to a
 * 27 KB module, and JS's Number() already rounds a decimal correctly. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "core/rope.h"

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Length of the run of digits at p. */
static int digits(const char *p)
{
    int n = 0;
    while (is_digit(p[n])) n++;
    return n;
}

/* Whether text is [+-]digits[.digits][(e|E)[+-]digits] with nothing around it;
 * *has_nonzero says whether any mantissa digit is not 0. */
static int is_plain_decimal(const char *text, int *has_nonzero, int *is_integer)
{
    const char *p = text;
    int n;
    *has_nonzero = 0;
    *is_integer = 1;
    if (*p == '+' || *p == '-') p++;
    if ((n = digits(p)) == 0) return 0;
    for (int j = 0; j < n; j++) *has_nonzero |= p[j] != '0';
    p += n;
    if (*p == '.') {
        p++;
        if ((n = digits(p)) == 0) return 0;
        for (int j = 0; j < n; j++) *has_nonzero |= p[j] != '0';
        p += n;
        *is_integer = 0;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if ((n = digits(p)) == 0) return 0;
        p += n;
        *is_integer = 0;
    }
    return *p == '\0';
}

int rope_decimal_form(const char *text)
{
    int nonzero, integer;
    if (text == NULL) return ROPE_E_NULL;
    if (!is_plain_decimal(text, &nonzero, &integer)) return ROPE_E_VALUE;
    return nonzero;
}

int rope_parse_decimal(const char *text, double *out)
{
    int nonzero, integer;
    if (text == NULL || out == NULL) return ROPE_E_NULL;
    if (!is_plain_decimal(text, &nonzero, &integer)) return ROPE_E_VALUE;
    errno = 0;
    double v = strtod(text, NULL);
    /* Overflow to infinity, or a nonzero number that underflows to zero. */
    if (!isfinite(v) || (v == 0.0 && nonzero)) return ROPE_E_RANGE;
    *out = v;
    return ROPE_OK;
}

int rope_parse_int(const char *text, int *out)
{
    int nonzero, integer;
    if (text == NULL || out == NULL) return ROPE_E_NULL;
    if (!is_plain_decimal(text, &nonzero, &integer) || !integer) return ROPE_E_VALUE;
    errno = 0;
    long v = strtol(text, NULL, 10);
    if (errno == ERANGE || v < INT_MIN || v > INT_MAX) return ROPE_E_RANGE;
    *out = (int)v;
    return ROPE_OK;
}
