/* The text writer of writer.h. */
#include "writer.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "rope.h"

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
