/* What a table's pairing layout asks of q and k (docs/VERIFY.md, "Layout").
 * transformers builds every cache as cat(freqs, freqs) (rotate_half), also
 * for a checkpoint whose q/k rows pair (2i, 2i+1), and applies it to those
 * rows de-interleaved (apply_rotary_pos_emb_interleave); a port that keeps
 * the checkpoint's adjacent pairs writes the interleaved table and is just
 * as right. So a table in either layout is right; what it asks of q and k
 * depends on the checkpoint's layout, which the config reader decides. */
#include <stdio.h>
#include <string.h>

#include "verify.h"

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

void rope_verify_layout_needs(const rope_config *c, int table, char *buf, size_t cap)
{
    int ck = rope_verify_checkpoint_layout(c);
    const char *shown = table == ROPE_LAYOUT_UNKNOWN       ? "the same values in either layout"
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
