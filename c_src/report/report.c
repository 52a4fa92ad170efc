/* The ropescope report: every number is computed here by the core, then
 * written as JSON or Markdown into a caller-owned buffer. */
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rope.h"
#include "core/rope_internal.h"
#include "explain/explain.h"
#include "report/writer.h"

static const double default_starts[] = {ROPE_REPORT_DEFAULT_STARTS};
static const double default_deltas[] = {ROPE_REPORT_DEFAULT_DELTAS};
static const double default_norm_positions[] = {ROPE_REPORT_DEFAULT_NORM_POSITIONS};

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

void rope_report_defaults(rope_report_options *o)
{
    o->dim = ROPE_DIM;
    o->base = ROPE_THETA_BASE;
    o->offset = ROPE_REPORT_DEFAULT_OFFSET;
    o->starts = default_starts;
    o->n_starts = COUNT_OF(default_starts);
    o->deltas = default_deltas;
    o->n_deltas = COUNT_OF(default_deltas);
    o->norm_positions = default_norm_positions;
    o->n_norm_positions = COUNT_OF(default_norm_positions);
}

/* Everything the report states, measured once and shared by both formats. */
typedef struct {
    double *q, *k;          /* demo vectors, dim each */
    double *scan;           /* offset_scan rows: 3 * n_starts */
    double *cross;          /* rope_add_terms: q.k, q.P[n], P[m].k, P[m].P[n], total; planar */
    int *slow;              /* n_deltas */
    double *turns_first;    /* n_deltas */
    double *turns_last;     /* n_deltas */
    int *slow_lo, *slow_hi; /* per delta: the range of slow pair indexes, -1 if none */
    double rope_spread, add_spread, norm_before, norm_max_gap;
} measures;

static void measures_free(measures *m)
{
    free(m->q);
    free(m->k);
    free(m->scan);
    free(m->cross);
    free(m->slow);
    free(m->turns_first);
    free(m->turns_last);
    free(m->slow_lo);
    free(m->slow_hi);
}

static double spread(const double *rows, int n, int col)
{
    double lo = rows[col], hi = rows[col];
    for (int j = 1; j < n; j++) {
        double v = rows[3 * j + col];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    return hi - lo;
}

/* The additive score's four terms, to show which of them move with the start:
 * (q + P[m]).(k + P[n]) = q.k + q.P[n] + P[m].k + P[m].P[n]. */
/* The additive score's four terms per start (explain.h's rope_add_terms):
 * m->cross holds 5 blocks of n_starts, planar; the report prints the first four. */
static int cross_terms(const rope_report_options *o, const measures *m)
{
    return rope_add_terms(m->q, o->dim, m->k, o->dim, o->offset, o->starts, o->n_starts, o->base,
                          m->cross);
}

static int measure(const rope_report_options *o, measures *m)
{
    int d = o->dim, pairs = o->dim / 2, rc; /* pairs >= 1: rope_report_check_dim */
    size_t vec = (size_t)(d > 0 ? d : 1), nd = (size_t)(o->n_deltas > 0 ? o->n_deltas : 1);
    size_t turn_len = (size_t)(pairs > 0 ? pairs : 1);
    memset(m, 0, sizeof *m);
    m->q = malloc(vec * sizeof(double));
    m->k = malloc(vec * sizeof(double));
    m->scan = malloc((size_t)o->n_starts * 3 * sizeof(double));
    m->cross = malloc((size_t)o->n_starts * 5 * sizeof(double));
    m->slow = malloc(nd * sizeof(int));
    m->turns_first = malloc(nd * sizeof(double));
    m->turns_last = malloc(nd * sizeof(double));
    m->slow_lo = malloc(nd * sizeof(int));
    m->slow_hi = malloc(nd * sizeof(int));
    double *turns = malloc(turn_len * sizeof(double)), *thetas = malloc(turn_len * sizeof(double));
    double *gaps =
        malloc((size_t)(o->n_norm_positions > 0 ? o->n_norm_positions : 1) * sizeof(double));
    if (!m->q || !m->k || !m->scan || !m->cross || !m->slow || !m->turns_first || !m->turns_last ||
        !m->slow_lo || !m->slow_hi || !turns || !thetas || !gaps) {
        /* Not ROPE_E_SPACE: a caller would retry with a bigger buffer in vain. */
        rc = ROPE_E_NOMEM;
        goto done;
    }
    rc = rope_demo_vectors(d, m->q, m->k);
    if (rc == ROPE_OK)
        rc =
            rope_offset_scan(m->q, d, m->k, d, o->offset, o->starts, o->n_starts, o->base, m->scan);
    if (rc == ROPE_OK) rc = cross_terms(o, m);
    if (rc == ROPE_OK) rc = rope_norm(m->q, d, &m->norm_before);
    if (rc == ROPE_OK)
        rc = rope_norm_gaps(m->q, d, o->norm_positions, o->n_norm_positions, o->base, gaps);
    if (rc == ROPE_OK) rc = rope_slow_pairs_batch(d, o->deltas, o->n_deltas, o->base, m->slow);
    /* rope_turns' own expression over thetas computed once: a pow per pair and
     * delta took most of a report at the limit (issue #35). The deltas are
     * finite (rope_slow_pairs_batch checked them). */
    if (rc == ROPE_OK) rc = rope_thetas(d, o->base, thetas);
    for (int j = 0; j < o->n_deltas && rc == ROPE_OK; j++) {
        for (int i = 0; i < pairs; i++) turns[i] = o->deltas[j] * thetas[i] / ROPE_TWO_PI;
        if (!isfinite(turns[0]) || !isfinite(turns[pairs - 1])) rc = ROPE_E_RANGE;
        m->turns_first[j] = turns[0];
        m->turns_last[j] = turns[pairs - 1];
        m->slow_lo[j] = m->slow_hi[j] = -1;
        for (int i = 0; i < pairs && rc == ROPE_OK; i++) {
            if (turns[i] >= 1.0) continue;
            if (m->slow_lo[j] < 0) m->slow_lo[j] = i;
            m->slow_hi[j] = i;
        }
    }
    if (rc != ROPE_OK) goto done;
    m->rope_spread = spread(m->scan, o->n_starts, 1);
    m->add_spread = spread(m->scan, o->n_starts, 2);
    m->norm_max_gap = 0.0;
    for (int j = 0; j < o->n_norm_positions; j++)
        m->norm_max_gap = gaps[j] > m->norm_max_gap ? gaps[j] : m->norm_max_gap;
done:
    free(turns);
    free(thetas);
    free(gaps);
    return rc;
}

static void put_numbers(rope_writer *w, const double *v, int n, int stride)
{
    rope_put(w, "[");
    for (int j = 0; j < n; j++) {
        if (j > 0) rope_put(w, ", ");
        rope_put_number(w, v[j * stride]);
    }
    rope_put(w, "]");
}

static void write_json(rope_writer *w, const rope_report_options *o, const measures *m)
{
    rope_put(w, "{\n  \"dim\": %d", o->dim);
    rope_put_field(w, ROPE_JSON_NEXT, "base", o->base);
    rope_put_field(w, ROPE_JSON_NEXT, "offset", o->offset);
    rope_put(w, ",\n  \"starts\": ");
    put_numbers(w, o->starts, o->n_starts, 1);
    rope_put(w, ",\n  \"deltas\": ");
    put_numbers(w, o->deltas, o->n_deltas, 1);
    rope_put(w, ",\n  \"rope_scores\": ");
    put_numbers(w, m->scan + 1, o->n_starts, 3);
    rope_put(w, ",\n  \"add_scores\": ");
    put_numbers(w, m->scan + 2, o->n_starts, 3);
    rope_put_field(w, ROPE_JSON_NEXT, "rope_spread", m->rope_spread);
    rope_put_field(w, ROPE_JSON_NEXT, "add_spread", m->add_spread);
    rope_put_field(w, ROPE_JSON_NEXT, "norm_before", m->norm_before);
    rope_put_field(w, ROPE_JSON_NEXT, "norm_max_gap", m->norm_max_gap);
    rope_put(w, ",\n  \"slow_pairs\": [");
    for (int j = 0; j < o->n_deltas; j++) rope_put(w, "%s%d", j > 0 ? ", " : "", m->slow[j]);
    rope_put(w, "],\n  \"turns_first\": ");
    put_numbers(w, m->turns_first, o->n_deltas, 1);
    rope_put(w, ",\n  \"turns_last\": ");
    put_numbers(w, m->turns_last, o->n_deltas, 1);
    rope_put(w, "\n}\n");
}

static void put_list(rope_writer *w, const double *v, int n)
{
    for (int j = 0; j < n; j++) {
        rope_put(w, "%s", j > 0 ? ", " : "");
        rope_put_number(w, v[j]);
    }
}

static void write_markdown(rope_writer *w, const rope_report_options *o, const measures *m)
{
    int pairs = o->dim / 2;
    rope_put(w, "# ropescope report\n\n");
    rope_put(w, "## 무엇을 쟀나\n\nWhat was measured.\n\n");
    rope_put(w, "Settings: dim %d, base ", o->dim);
    rope_put_number(w, o->base);
    rope_put(w, ", gap (offset) ");
    rope_put_number(w, o->offset);
    rope_put(w, ", starts [");
    put_list(w, o->starts, o->n_starts);
    rope_put(w, "], deltas [");
    put_list(w, o->deltas, o->n_deltas);
    rope_put(w, "], norm positions [");
    put_list(w, o->norm_positions, o->n_norm_positions);
    rope_put(w, "].\n\n");
    rope_put(w,
             "The demo vectors are q[j] = cos(0.7j + 0.3) and k[j] = sin(0.4j + 1.1). "
             "For each start s the query sits at position s + %.17g and the key at s, so every "
             "row below has the same gap. The norm of q is %.9f.\n\n",
             o->offset, m->norm_before);

    rope_put(w, "## 같은 간격이면 같은 점수다\n\nThe same gap gives the same score.\n\n");
    rope_put(
        w,
        "| start | query pos | key pos | RoPE score | additive score |\n|---|---|---|---|---|\n");
    for (int j = 0; j < o->n_starts; j++) {
        const double *row = &m->scan[3 * j];
        rope_put(w, "| %.17g | %.17g | %.17g | %.12f | %.12f |\n", row[0], row[0] + o->offset,
                 row[0], row[1], row[2]);
    }
    rope_put(w,
             "\nThe first RoPE score is %.9f, and the RoPE scores of all %d starts spread by "
             "only %.3e. RoPE rotates pair i of q by m*theta_i and of k by n*theta_i; a dot "
             "product of two rotated pairs depends only on the angle between them, "
             "(m - n)*theta_i, so the score is a function of the gap alone. Rotation also keeps "
             "lengths: over the norm positions |q| = %.9f changes by at most %.3e, which is "
             "floating-point rounding.\n\n",
             m->scan[1], o->n_starts, m->rope_spread, m->norm_before, m->norm_max_gap);

    rope_put(w, "## 더하는 방식은 왜 다른가\n\nWhy the additive method differs.\n\n");
    rope_put(w, "The additive score expands into four terms: (q + P[m]).(k + P[n]) = q.k + "
                "q.P[n] + P[m].k + P[m].P[n]. Measured at each start:\n\n");
    rope_put(w, "| start | q.k | q.P[n] | P[m].k | P[m].P[n] | additive score |\n"
                "|---|---|---|---|---|---|\n");
    for (int j = 0; j < o->n_starts; j++) {
        const double *t = &m->cross[j];
        int n = o->n_starts;
        rope_put(w, "| %.17g | %.9f | %.9f | %.9f | %.9f | %.9f |\n", o->starts[j], t[0], t[n],
                 t[2 * n], t[3 * n], m->scan[3 * j + 2]);
    }
    rope_put(w,
             "\nq.k is fixed, and P[m].P[n] is a sum of cos((m - n)/base^(2i/d)) terms, so it "
             "depends on the gap alone. The cross terms q.P[n] and P[m].k each hold one absolute "
             "position, not the difference, so they move as the start moves even at the same "
             "gap. The additive scores spread by %.9f, against %.3e for RoPE.\n\n",
             m->add_spread, m->rope_spread);

    rope_put(w, "## 멀어지면 어느 성분이 남는가\n\nWhich components remain as the gap grows.\n\n");
    rope_put(w,
             "| gap (delta) | slow pairs (< 1 turn) of %d | which pairs | turns of pair 0 | "
             "turns of pair %d |\n|---|---|---|---|---|\n",
             pairs, pairs - 1);
    for (int j = 0; j < o->n_deltas; j++) {
        rope_put(w, "| %.17g | %d | ", o->deltas[j], m->slow[j]);
        if (m->slow[j] == 0)
            rope_put(w, "none");
        else
            rope_put(w, "%d to %d", m->slow_lo[j], m->slow_hi[j]);
        rope_put(w, " | %.6g | %.6g |\n", m->turns_first[j], m->turns_last[j]);
    }
    rope_put(w,
             "\nPair i turns delta*theta_i/(2*pi) times over a gap of delta. A pair past one "
             "full turn cannot tell a gap from that gap minus one turn (its angle wraps around), "
             "so it no longer tells near from far. As the gap grows, the fast pairs wrap first "
             "and only the slow pairs (the last, low-frequency ones) still turn less than once "
             "and carry the distance unambiguously.\n");
}

int rope_report_check_dim(int dim)
{
    int rc = rope_check_dim(dim);
    return rc == ROPE_OK && dim < ROPE_REPORT_MIN_DIM ? ROPE_E_DIM : rc;
}

/* The options' counts, dim and base, then one measurement written in each of
 * n formats: texts[j] into bufs[j] (caps[j] bytes), its length in lens[j]. */
static int build(const rope_report_options *o, int n, const int *formats, char *const *bufs,
                 const int *caps, int *const *lens)
{
    if (o->n_starts < 1 || o->n_starts > ROPE_MAX_COUNT || o->n_deltas < 0 ||
        o->n_deltas > ROPE_MAX_COUNT || o->n_norm_positions < 0 ||
        o->n_norm_positions > ROPE_MAX_COUNT)
        return ROPE_E_COUNT;
    int rc = rope_report_check_dim(o->dim);
    if (rc == ROPE_OK) rc = rope_check_base(o->base);
    if (rc != ROPE_OK) return rc;

    measures m;
    rc = measure(o, &m);
    for (int j = 0; j < n && (rc == ROPE_OK || rc == ROPE_E_SPACE); j++) {
        /* cap < 0: no room; still measure, and report the length needed. */
        rope_writer w = {bufs[j], (size_t)(caps[j] > 0 ? caps[j] : 0), 0};
        if (formats[j] == ROPE_REPORT_JSON)
            write_json(&w, o, &m);
        else
            write_markdown(&w, o, &m);
        int written = rope_writer_end(&w, lens[j]);
        if (rc == ROPE_OK) rc = written;
    }
    measures_free(&m);
    return rc;
}

int rope_report_build(const rope_report_options *o, int format, char *buf, int cap, int *len)
{
    if (o == NULL || len == NULL || (cap > 0 && buf == NULL)) return ROPE_E_NULL;
    if (format != ROPE_REPORT_JSON && format != ROPE_REPORT_MARKDOWN) return ROPE_E_VALUE;
    return build(o, 1, &format, &buf, &cap, &len);
}

int rope_report_build_both(const rope_report_options *o, char *json, int json_cap, int *json_len,
                           char *md, int md_cap, int *md_len)
{
    if (o == NULL || json_len == NULL || md_len == NULL || (json_cap > 0 && json == NULL) ||
        (md_cap > 0 && md == NULL))
        return ROPE_E_NULL;
    const int formats[2] = {ROPE_REPORT_JSON, ROPE_REPORT_MARKDOWN}, caps[2] = {json_cap, md_cap};
    char *const bufs[2] = {json, md};
    int *const lens[2] = {json_len, md_len};
    return build(o, 2, formats, bufs, caps, lens);
}

int rope_report_write(int format, int dim, double base, double offset, const double *starts,
                      int n_starts, const double *deltas, int n_deltas,
                      const double *norm_positions, int n_norm_positions, char *buf, int cap,
                      int *len)
{
    rope_report_options o = {dim,    base,     offset,         starts,          n_starts,
                             deltas, n_deltas, norm_positions, n_norm_positions};
    return rope_report_build(&o, format, buf, cap, len);
}
