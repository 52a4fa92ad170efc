/* libFuzzer target for the CLI's argv: every command's flag parsing, checks,
 * messages and outputs, in-process (rope_cli_run), with no files and no temp
 * folders, so it runs thousands of inputs a second. --out always names a
 * folder that cannot be made (under /proc/self), --config a device, a /proc
 * file or a missing path. Checked besides ASan/UBSan: the exit code is 0, 1
 * or 2, and a refusal (2) is exactly one line "ropescope: ..." of valid UTF-8.
 * The report's files are fuzz_files.c's. */
#include <stdlib.h>

#include "cli/cli.h"
#include "fuzz_argv.h"

static char out_buf[1 << 16];
static char err_buf[1 << 14];

static void fix_value(const char *prev, char *token, size_t cap, uint8_t choice)
{
    static const char *const configs[] = {"/dev/null", "/proc/self/status",
                                          "/proc/self/ropescope-fuzz-missing.json"};
    if (strcmp(prev, "--out") == 0) snprintf(token, cap, "/proc/self/ropescope-fuzz-never");
    if (strcmp(prev, "--config") == 0) snprintf(token, cap, "%s", configs[choice % 3]);
}

/* Bytes in the UTF-8 sequence at s (rope_cli_fail's rules), 0 if invalid. */
static size_t utf8_ok(const unsigned char *s)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xBF;
    size_t n = c < 0x80                 ? 1
               : c >= 0xC2 && c <= 0xDF ? 2
               : c >= 0xE0 && c <= 0xEF ? 3
               : c >= 0xF0 && c <= 0xF4 ? 4
                                        : 0;
    if (n <= 1) return n;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t j = 2; j < n; j++)
        if (s[j] < 0x80 || s[j] > 0xBF) return 0;
    return n;
}

static void check_refusal(const char *err, size_t len)
{
    if (len < 12 || strncmp(err, "ropescope: ", 11) != 0 || err[len - 1] != '\n') abort();
    if (memchr(err, '\n', len - 1) != NULL) abort(); /* more than one line */
    for (size_t j = 0; j < len - 1;) {
        size_t n = utf8_ok((const unsigned char *)err + j);
        if (n == 0) abort();
        j += n;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    fuzz_argv a;
    fuzz_byte(&in); /* the corpus's target byte (tests/fuzz/corpus) */
    fuzz_make_argv(&in, &a, fix_value);
    if (strcmp(a.argv[1], "report") == 0 && !fuzz_has(&a, "--out")) {
        a.argv[a.argc++] = (char *)"--out";
        a.argv[a.argc++] = (char *)"/proc/self/ropescope-fuzz-never";
    }
    /* Both streams are buffers that fail when full: a long scan stops at its first check. */
    FILE *out = fmemopen(out_buf, sizeof out_buf, "w");
    FILE *err = fmemopen(err_buf, sizeof err_buf, "w");
    if (!out || !err) abort();
    int code = rope_cli_run(a.argc, a.argv, out, err);
    fclose(out);
    long err_len = ftell(err);
    fclose(err);
    if (code < 0 || code > 2) abort();
    if (code == 2 && err_len >= 0 && (size_t)err_len < sizeof err_buf - 1)
        check_refusal(err_buf, (size_t)err_len);
    return 0;
}
