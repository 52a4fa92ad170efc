/*
 * What explain.c shares with explain_scan.c: position checks with the far
 * limit. Not part of the public API.
 */
#ifndef ROPE_EXPLAIN_INTERNAL_H
#define ROPE_EXPLAIN_INTERNAL_H

#include <math.h>

#include "rope.h"
#include "rope_internal.h"

/* Finite, then within ROPE_MAX_POSITION: past it the angle p * theta is not
 * resolved by doubles to the contract's tolerance. */
static inline int rope_check_near(double pos)
{
    if (!isfinite(pos)) return ROPE_E_POSITION;
    return fabs(pos) > ROPE_MAX_POSITION ? ROPE_E_FAR : ROPE_OK;
}

/* count positions, each finite and near (count in [0, ROPE_MAX_COUNT]). */
static inline int rope_check_near_all(const double *pos, int count)
{
    int rc = rope_check_positions(pos, count);
    for (int j = 0; j < count && rc == ROPE_OK; j++) rc = rope_check_near(pos[j]);
    return rc;
}

#endif /* ROPE_EXPLAIN_INTERNAL_H */
