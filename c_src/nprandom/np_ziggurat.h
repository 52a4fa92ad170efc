/*
 * NumPy's ziggurat tables for the standard normal (np_ziggurat.c says how they
 * are defined). Internal to nprandom.c; not exported to the page.
 */
#ifndef ROPE_NP_ZIGGURAT_H
#define ROPE_NP_ZIGGURAT_H

#include <stdint.h>

#define ROPE_NP_ZIG_LAYERS 256
/* Where the base layer's tail starts, and its inverse, as NumPy spells them. */
#define ROPE_NP_ZIG_R 3.6541528853610088
#define ROPE_NP_ZIG_INV_R 0.27366123732975828

/* k: acceptance bounds on the 52-bit integer; w: integer-to-x scale per layer;
 * f: the density at each layer's outer edge. 256 entries each. */
extern const uint64_t rope_np_zig_k[ROPE_NP_ZIG_LAYERS];
extern const double rope_np_zig_w[ROPE_NP_ZIG_LAYERS];
extern const double rope_np_zig_f[ROPE_NP_ZIG_LAYERS];

#endif /* ROPE_NP_ZIGGURAT_H */
