/* ropescope explainer figures over many distances or starts: random vectors,
 * long-range decay and figure 1's min/max envelope. Meanings in explain.h,
 * formulas in docs/EXPLAIN.md. */
#include "explain/explain.h"

#include <math.h>
#include <stddef.h>

#include "core/rope.h"
#include "core/rope_internal.h"
#include "core/rope_math.h"

#define ROPE_SPLITMIX_GAMMA 0x9e3779b97f4a7c15u
/* Starts per rope_offset_sweep call in rope_offset_envelope: 3 x this many
 * doubles (48 KB) live on the stack; measured, 2048 costs a third less than
 * 512 (the sweep's per-call tables are amortized over more starts). */
#define ROPE_ENV_CHUNK 2048

/* splitmix64 (Steele, Lea, Flood 2014): draw n is mix(seed + (n + 1) gamma);
 * integer-only, so native and wasm agree bit for bit. The 53 high bits scaled
 * to [0, 2) and shifted by -1 are exact in doubles. */
static double splitmix_at(uint64_t counter)
{
    uint64_t z = counter;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-52 - 1.0;
}

static double splitmix_uniform(uint64_t *state)
{
    *state += ROPE_SPLITMIX_GAMMA;
    return splitmix_at(*state);
}

void rope_random_stream(uint64_t *state, double *out, int n)
{
    if (state == NULL || out == NULL) return;
    for (int j = 0; j < n; j++) out[j] = splitmix_uniform(state);
}

int rope_random_vectors(int d, uint32_t seed, double *q, double *k)
{
    int rc = rope_check_dim(d);
    if (rc != ROPE_OK) return rc;
    if (d > 0 && (q == NULL || k == NULL)) return ROPE_E_NULL;
    uint64_t state = seed;
    rope_random_stream(&state, q, d);
    rope_random_stream(&state, k, d);
    return ROPE_OK;
}

/* Mean over the sample vectors v_p of (v_p[a]^2 + v_p[b]^2), drawing element
 * a of vector p directly as draw p * d + a of the stream. */
static double sample_weight(uint32_t seed, int d, int samples, int a, int b)
{
    double sum = 0.0;
    for (int p = 0; p < samples; p++) {
        uint64_t at = (uint64_t)p * (uint64_t)d + (uint64_t)a + 1u;
        double x = splitmix_at(seed + at * ROPE_SPLITMIX_GAMMA);
        sum += x * x;
        if (b >= 0) {
            double y = splitmix_at(seed + (at + (uint64_t)(b - a)) * ROPE_SPLITMIX_GAMMA);
            sum += y * y;
        }
    }
    return sum / samples;
}

/* Two passes over the pairs so no scratch memory is needed: the bound's
 * running sums S_j borrow the first two output blocks, then the scores
 * overwrite them. A vector against itself scores |v_i|^2 cos(r theta_i) per
 * pair, so the sample mean is sum_i mean_p |v_p,i|^2 cos(r theta_i): one pass
 * over the samples, not one per distance. */
int rope_decay(const double *q, int nq, const double *k, int nk, const double *distances, int count,
               int samples, uint32_t seed, double base, double *out)
{
    int rc = rope_check_pair_of_vectors(q, nq, k, nk);
    if (rc == ROPE_OK) rc = rope_check_positions(distances, count);
    if (rc == ROPE_OK && (samples < 1 || samples > ROPE_MAX_COUNT)) rc = ROPE_E_COUNT;
    if (rc == ROPE_OK) rc = rope_check_base(base);
    if (rc == ROPE_OK) rc = rope_check_rotating_positions(distances, count, base);
    if (rc != ROPE_OK) return rc;
    double cost = nq > 0 ? nq : 1;
    if (cost * count > ROPE_MAX_WORK || cost * samples > ROPE_MAX_WORK) return ROPE_E_WORK;
    if (count > 0 && out == NULL) return ROPE_E_NULL;
    if (count == 0) return ROPE_OK; /* out may be NULL: no pointer arithmetic on it */
    int h = nq / 2;
    double *demo = out, *mean = out + count, *bound = out + 2 * count;
    for (int j = 0; j < 3 * count; j++) out[j] = 0.0;
    for (int i = 0; i < h; i++) {
        double theta = rope_theta(i, nq, base);
        for (int j = 0; j < count; j++) {
            double s, c;
            rope_sincos(distances[j] * theta, &s, &c);
            demo[j] += c;
            mean[j] += s;
            bound[j] += sqrt(demo[j] * demo[j] + mean[j] * mean[j]);
        }
    }
    for (int j = 0; j < count; j++) {
        bound[j] = h > 0 ? bound[j] / h : 0.0;
        demo[j] = mean[j] = 0.0;
    }
    for (int i = 0; i < h; i++) {
        double theta = rope_theta(i, nq, base);
        double w = sample_weight(seed, nq, samples, 2 * i, 2 * i + 1);
        double q0 = q[2 * i], q1 = q[2 * i + 1], k0 = k[2 * i], k1 = k[2 * i + 1];
        for (int j = 0; j < count; j++) {
            double s, c;
            rope_sincos(distances[j] * theta, &s, &c);
            /* rope_score's order, with the key at 0 left unrotated. */
            demo[j] += (q0 * c - q1 * s) * k0;
            demo[j] += (q0 * s + q1 * c) * k1;
            mean[j] += w * c;
        }
    }
    if (nq % 2 == 1) {
        double w = sample_weight(seed, nq, samples, nq - 1, -1);
        for (int j = 0; j < count; j++) {
            demo[j] += q[nq - 1] * k[nq - 1];
            mean[j] += w;
        }
    }
    return rope_check_results(out, 3 * count);
}

int rope_offset_envelope(const double *q, int nq, const double *k, int nk, double offset,
                         double from, double to, int bins, double base, double *out)
{
    int rc = rope_check_vectors_at(q, nq, k, nk, (const double[]){offset, from, to}, 3, base);
    if (rc != ROPE_OK) return rc;
    double first = ceil(from), last = floor(to);
    double c = last >= first ? last - first + 1.0 : 0.0;
    if (bins < 1 || bins > ROPE_MAX_COUNT || bins > c) return ROPE_E_COUNT;
    if ((rc = rope_check_envelope_work(nq, c)) != ROPE_OK) return rc;
    if (rope_check_rotating(first + offset, base) != ROPE_OK ||
        rope_check_rotating(last + offset, base) != ROPE_OK)
        return ROPE_E_FAR;
    if (out == NULL) return ROPE_E_NULL;
    int64_t total = (int64_t)c, current = -1;
    double buf[3 * ROPE_ENV_CHUNK];
    double *lo_s = out + ROPE_ENV_FIRST * bins, *hi_s = out + ROPE_ENV_LAST * bins;
    double *rmin = out + ROPE_ENV_ROPE_MIN * bins, *rmax = out + ROPE_ENV_ROPE_MAX * bins;
    double *amin = out + ROPE_ENV_ADD_MIN * bins, *amax = out + ROPE_ENV_ADD_MAX * bins;
    for (int64_t j0 = 0; j0 < total; j0 += ROPE_ENV_CHUNK) {
        int len = (int)(total - j0 < ROPE_ENV_CHUNK ? total - j0 : ROPE_ENV_CHUNK);
        rc = rope_offset_sweep(q, nq, k, nk, offset, first + (double)j0, 1.0, len, base, buf);
        if (rc != ROPE_OK) return rc;
        for (int t = 0; t < len; t++) {
            int64_t b = (j0 + t) * bins / total;
            double s = buf[t], r = buf[len + t], a = buf[2 * len + t];
            if (b != current) {
                current = b;
                lo_s[b] = s;
                rmin[b] = rmax[b] = r;
                amin[b] = amax[b] = a;
            }
            hi_s[b] = s;
            rmin[b] = r < rmin[b] ? r : rmin[b];
            rmax[b] = r > rmax[b] ? r : rmax[b];
            amin[b] = a < amin[b] ? a : amin[b];
            amax[b] = a > amax[b] ? a : amax[b];
        }
    }
    return rope_check_results(out, ROPE_ENV_BLOCKS * bins);
}
