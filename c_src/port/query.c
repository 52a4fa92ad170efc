/* The query scale of attention temperature tuning (Llama 4's NoPE layers,
 * Ministral 3's every layer): 1 + beta ln(1 + floor((p + offset) / L0)),
 * which steps up once every L0 positions (docs/SCALING.md, "Attention-side
 * factors"). */
#include <math.h>
#include <stddef.h>

#include "core/rope.h"
#include "core/rope_math.h"
#include "port/port.h"

double rope_query_scale_at(double beta, double l0, double offset, double position)
{
    return 1.0 + beta * rope_log(1.0 + floor((position + offset) / l0));
}

int rope_query_scales(double beta, double l0, int offset, const double *positions, int n,
                      double *out)
{
    if (n < 0 || n > ROPE_MAX_COUNT) return ROPE_E_COUNT;
    if (n > 0 && (positions == NULL || out == NULL)) return ROPE_E_NULL;
    if (!(beta >= 0.0 && beta <= ROPE_QUERY_BETA_MAX) || !isfinite(l0) || l0 < 1.0 ||
        (offset != 0 && offset != 1))
        return ROPE_E_VALUE;
    for (int j = 0; j < n; j++)
        if (!isfinite(positions[j]) || positions[j] < 0.0 || positions[j] > ROPE_MAX_POSITION)
            return ROPE_E_POSITION;
    for (int j = 0; j < n; j++) out[j] = rope_query_scale_at(beta, l0, offset, positions[j]);
    return ROPE_OK;
}
