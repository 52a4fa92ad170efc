/* An snprintf-like text writer shared by the report and the scaling writer:
 * it keeps counting past the end of the buffer, so a caller that gets
 * ROPE_E_SPACE learns the length it needs and can retry with len + 1 bytes. */
#ifndef ROPE_WRITER_H
#define ROPE_WRITER_H

#include <stdarg.h>
#include <stddef.h>

typedef struct {
    char *buf;
    size_t cap, len;
} rope_writer;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void rope_put(rope_writer *w, const char *fmt, ...);

/* %.17g, which always reads back to the same double (docs/SPEC.md) and needs
 * no strtod, so the wasm build stays small; a NaN or infinity is null. */
void rope_put_number(rope_writer *w, double v);

/* One JSON member holding a number: sep, then "key": and the number as
 * rope_put_number writes it. sep is what stands before the member: ", " within
 * a line, ROPE_JSON_NEXT between the members of a top-level object. */
#define ROPE_JSON_NEXT ",\n  "
void rope_put_field(rope_writer *w, const char *sep, const char *key, double v);

/* *len = the text's length; ROPE_OK if it fit with its NUL, else ROPE_E_SPACE.
 * The callers' limits (65536 starts, 32768 pairs) keep every text below 2 GiB. */
int rope_writer_end(const rope_writer *w, int *len);

/* A message as one line, as the CLI prints it (and the page shows it): in place, control
 * characters and bytes that are not UTF-8 become '?'; past ROPE_LINE_MAX bytes, returns 1 with
 * the line to show being text's first *head bytes, " ... ", then text + *tail (each cut at a
 * character boundary, so the end of the line, which item is wrong, survives); else 0. */
#define ROPE_LINE_MAX 1024
int rope_line_cut(char *text, size_t *head, size_t *tail);

/* printf's text of fmt and ap in a string of its own (malloc'd: free it), or
 * NULL when out of memory. The messages of the CLI and of verify's run. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 0)))
#endif
char *
rope_vformat(const char *fmt, va_list ap);

#endif /* ROPE_WRITER_H */
