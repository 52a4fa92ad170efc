/* What a table's pairing layout asks of q and k (docs/VERIFY.md, "Layout").
 * transformers builds every cache as cat(freqs, freqs) (rotate_half), also
 * for a checkpoint whose q/k rows pair (2i, 2i+1), and applies it to those
 * rows de-interleaved (apply_rotary_pos_emb_interleave); a port that keeps
 * the checkpoint's adjacent pairs writes the interleaved table and is just
 * as right. So a table in either layout is right; what it asks of q and k
 * depends on the checkpoint's layout, which the config reader decides. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rope.h"
#include "verify/verify.h"

int rope_verify_checkpoint_layout(const rope_config *c)
{
    return c->layout != NULL && strcmp(c->layout, "interleaved") == 0 ? ROPE_LAYOUT_INTERLEAVED
                                                                      : ROPE_LAYOUT_HALF;
}

static const char *pairs_of(int layout)
{
    return layout == ROPE_LAYOUT_INTERLEAVED ? "adjacent pairs (2i, 2i+1)"
                                             : "rotate_half pairs (i, i+d/2)";
}

/* The permutation of a head's dims that takes the checkpoint's layout to the other. */
static const char *permutation(int checkpoint)
{
    return checkpoint == ROPE_LAYOUT_INTERLEAVED
               ? "de-interleaved first (new dim i = old 2i, new dim i+d/2 = old 2i+1), as "
                 "transformers' apply_rotary_pos_emb_interleave does"
               : "interleaved first (new dim 2i = old i, new dim 2i+1 = old i+d/2), as "
                 "llama.cpp's converter permutes the q and k weight rows";
}

void rope_verify_layout_needs(const rope_config *c, int table, const char *held, char *buf,
                              size_t cap)
{
    int ck = rope_verify_checkpoint_layout(c);
    const char *shown = held                               ? held
                        : table == ROPE_LAYOUT_UNKNOWN     ? "the same values in either layout"
                        : table == ROPE_LAYOUT_INTERLEAVED ? "pairs (2i, 2i+1) (interleaved)"
                                                           : "pairs (i, i+d/2) (rotate_half)";
    int used = table == ROPE_LAYOUT_UNKNOWN ? ck : table;
    int n = snprintf(buf, cap, "the table holds %s; the checkpoint's q/k rows are %s (%s): ", shown,
                     ck == ROPE_LAYOUT_INTERLEAVED ? "interleaved" : "rotate_half",
                     c->layout_from ? c->layout_from : "rotate_half");
    if (n < 0 || (size_t)n >= cap) return;
    if (used == ck)
        snprintf(buf + n, cap - (size_t)n, "apply it to q and k in checkpoint order as %s",
                 pairs_of(used));
    else
        snprintf(buf + n, cap - (size_t)n, "apply it as %s to q and k %s", pairs_of(used),
                 permutation(ck));
}

void rope_verify_layout_fix(const rope_config *c, int apply, char *buf, size_t cap)
{
    int ck = rope_verify_checkpoint_layout(c);
    int n = apply == ROPE_LAYOUT_HALF
                ? snprintf(buf, cap,
                           "the table pairs dims (2i, 2i+1) (interleaved); your code applies it "
                           "as rotate_half pairs (i, i+d/2) (--apply rotate_half). Build it as "
                           "transformers does, cat(freqs, freqs): pair i's angle in columns i "
                           "and i+d/2")
                : snprintf(buf, cap,
                           "the table pairs dims (i, i+d/2) (rotate_half); your code applies it "
                           "to adjacent pairs (2i, 2i+1) (--apply interleaved). Build it "
                           "interleaved, repeat_interleave(freqs, 2): pair i's angle in columns "
                           "2i and 2i+1");
    if (n < 0 || (size_t)n >= cap || ck == apply) return;
    snprintf(buf + n, cap - (size_t)n, "; the checkpoint's q/k rows are %s, so q and k must be %s",
             ck == ROPE_LAYOUT_INTERLEAVED ? "interleaved" : "rotate_half", permutation(ck));
}

const char *rope_verify_form_name(int form)
{
    static const char *const names[] = {"table", "pairs", "freqs_cis", "cos_sin_cache",
                                        "embed_positions"};
    return form >= 0 && form <= ROPE_FORM_EMBED_POSITIONS ? names[form] : "?";
}

/* A rows x width table of src's dtype and storage, its values unset. */
static int blank(const rope_table *src, long width, rope_table *t)
{
    memset(t, 0, sizeof *t);
    size_t n = (size_t)src->rows * (size_t)width;
    t->dtype = src->dtype;
    t->ndim = 2;
    t->rows = src->rows;
    t->width = width;
    t->bad_row = -1;
    if (src->f)
        t->f = malloc((n ? n : 1) * sizeof(float));
    else
        t->v = malloc((n ? n : 1) * sizeof(double));
    return t->f || t->v ? ROPE_OK : ROPE_E_NOMEM;
}

static void put(rope_table *t, size_t k, double x)
{
    if (t->f)
        t->f[k] = (float)x; /* a float table's values are floats: exact */
    else
        t->v[k] = x;
}

/* Where pair i's cos and sin lie in a row of a per-pair form (width 2 x half). */
static void form_columns(int form, long half, long i, size_t *c, size_t *s)
{
    size_t a = (size_t)i, b = (size_t)(half + i);
    if (form == ROPE_FORM_FREQS_CIS) {
        *c = 2 * a; /* (re, im) side by side */
        *s = 2 * a + 1;
    } else if (form == ROPE_FORM_EMBED_POSITIONS) {
        *c = b; /* GPT-J: sin | cos */
        *s = a;
    } else {
        *c = a; /* vLLM: cos | sin */
        *s = b;
    }
}

int rope_verify_split(const rope_table *src, int form, rope_table *cos, rope_table *sin, char *msg)
{
    memset(cos, 0, sizeof *cos);
    memset(sin, 0, sizeof *sin);
    if (src->ndim != 2 || src->width % 2 != 0) {
        snprintf(msg, ROPE_VERIFY_MSG,
                 "%s: a %s of %ld x %ld; it must be positions x an even "
                 "width (%s)",
                 rope_verify_form_name(form), src->ndim == 2 ? "table" : "1-D array", src->rows,
                 src->width,
                 form == ROPE_FORM_FREQS_CIS       ? "complex pairs, or their real view "
                                                     "[positions, pairs, 2]"
                 : form == ROPE_FORM_COS_SIN_CACHE ? "cos in the first half, sin in the second"
                                                   : "sin in the first half, cos in the second");
        return ROPE_E_VALUE;
    }
    long half = src->width / 2;
    if (blank(src, half, cos) != ROPE_OK || blank(src, half, sin) != ROPE_OK) {
        rope_table_free(cos);
        rope_table_free(sin);
        snprintf(msg, ROPE_VERIFY_MSG, "out of memory for %ld x %ld values", src->rows, half);
        return ROPE_E_NOMEM;
    }
    for (long i = 0; i < half; i++) {
        size_t c = 0, s = 0;
        form_columns(form, half, i, &c, &s);
        for (long r = 0; r < src->rows; r++) {
            size_t row = (size_t)r * (size_t)src->width, k = (size_t)r * (size_t)half + (size_t)i;
            put(cos, k, rope_table_at(src, row + c));
            put(sin, k, rope_table_at(src, row + s));
        }
    }
    return ROPE_OK;
}

int rope_verify_widen(rope_table *t, int layout)
{
    rope_table wide;
    long n = t->width;
    if (blank(t, 2 * n, &wide) != ROPE_OK) {
        rope_table_free(&wide);
        return ROPE_E_NOMEM;
    }
    for (long i = 0; i < n; i++) {
        int a = 0, b = 0;
        rope_layout_dims(layout, (int)n, (int)i, &a, &b);
        for (long r = 0; r < t->rows; r++) {
            double x = rope_table_at(t, (size_t)r * (size_t)n + (size_t)i);
            put(&wide, (size_t)r * (size_t)(2 * n) + (size_t)a, x);
            put(&wide, (size_t)r * (size_t)(2 * n) + (size_t)b, x);
        }
    }
    rope_table_free(t);
    *t = wide;
    return ROPE_OK;
}
