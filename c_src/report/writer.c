/* The text writer of writer.h. */
#include "report/writer.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rope.h"

void rope_put(rope_writer *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = w->len < w->cap ? w->cap - w->len : 0;
    int n = vsnprintf(room ? w->buf + w->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) w->len += (size_t)n;
}

void rope_put_number(rope_writer *w, double v)
{
    if (isfinite(v))
        rope_put(w, "%.17g", v);
    else
        rope_put(w, "null");
}

void rope_put_field(rope_writer *w, const char *sep, const char *key, double v)
{
    rope_put(w, "%s\"%s\": ", sep, key);
    rope_put_number(w, v);
}

int rope_writer_end(const rope_writer *w, int *len)
{
    *len = (int)w->len;
    return w->len >= w->cap ? ROPE_E_SPACE : ROPE_OK;
}

/* Bytes in the UTF-8 sequence at s, or 0 if it is not a valid one (RFC 3629:
 * no overlong forms, no surrogates, nothing past U+10FFFF). */
static size_t utf8_length(const unsigned char *s)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xBF;
    size_t n;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4;
    else
        return 0;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t j = 2; j < n; j++)
        if (s[j] < 0x80 || s[j] > 0xBF) return 0;
    return n;
}

/* In place: control characters and bytes that are not UTF-8 become '?', so
 * the line is one line of valid UTF-8 whatever the user typed. */
static void make_safe(char *text)
{
    unsigned char *p = (unsigned char *)text;
    while (*p) {
        size_t n = utf8_length(p);
        if (n == 0 || (n == 1 && (*p < 0x20 || *p == 0x7f))) {
            *p++ = '?';
            continue;
        }
        p += n;
    }
}

/* The last character boundary at or before at (text is valid UTF-8). */
static size_t boundary(const char *text, size_t at)
{
    while (at > 0 && ((unsigned char)text[at] & 0xC0) == 0x80) at--;
    return at;
}

char *rope_vformat(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *line = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (line) vsnprintf(line, (size_t)n + 1, fmt, again);
    va_end(again);
    return line;
}

int rope_line_cut(char *text, size_t *head, size_t *tail)
{
    make_safe(text);
    size_t len = strlen(text);
    if (len <= ROPE_LINE_MAX) return 0;
    /* The head says what is wrong, the tail where ("(item N 'x' is not one)"):
     * both are kept, each cut at a character boundary. */
    *head = boundary(text, ROPE_LINE_MAX * 2 / 3);
    *tail = boundary(text, len - ROPE_LINE_MAX / 3);
    return 1;
}
