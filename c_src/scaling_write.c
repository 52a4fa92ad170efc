/* The scaling figures of a config as JSON, CSV or a terminal table, written
 * into a caller-owned buffer: the CLI and the page share these bytes. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "config_internal.h"

/* Everything one output states, computed once. */
typedef struct {
    int pairs;
    double *theta, *scaled, *wavelength, *ratio, *trained, *at_gap;
    int *band, *status;
    int bands[4], counts[3], has_range;
    double attention, softmax, base_used, lo, hi, train_len, gap;
} figures;

static void figures_free(figures *f)
{
    free(f->theta);
    free(f->band);
}

static int compute(const rope_config *c, double train_len, double gap, figures *f)
{
    const rope_scaling *s = &c->scaling;
    memset(f, 0, sizeof *f);
    f->pairs = s->dim / 2;
    size_t n = (size_t)(f->pairs > 0 ? f->pairs : 1);
    /* One block of doubles and one of ints, carved into the columns. */
    f->theta = malloc(6 * n * sizeof(double));
    f->band = malloc(2 * n * sizeof(int));
    if (!f->theta || !f->band) return ROPE_E_NOMEM;
    f->scaled = f->theta + n;
    f->wavelength = f->theta + 2 * n;
    f->ratio = f->theta + 3 * n;
    f->trained = f->theta + 4 * n;
    f->at_gap = f->theta + 5 * n;
    f->status = f->band + n;
    int rc = rope_scaling_pairs(s, f->theta, f->scaled, f->wavelength, f->ratio, f->band);
    if (rc == ROPE_OK) rc = rope_scaling_factors(s, &f->attention, &f->softmax);
    if (rc == ROPE_OK) rc = rope_scaling_base_used(s, &f->base_used);
    if (rc == ROPE_OK && s->type == ROPE_SCALING_YARN) rc = rope_scaling_yarn_range(s, &f->lo, &f->hi);
    f->has_range = !isnan(train_len);
    f->train_len = train_len;
    f->gap = gap;
    if (rc == ROPE_OK && f->has_range)
        rc = rope_scaling_range(s, train_len, gap, f->trained, f->at_gap, f->status, f->counts);
    for (int i = 0; i < f->pairs && rc == ROPE_OK; i++) f->bands[f->band[i]]++;
    return rc;
}

/* An snprintf-like writer that keeps counting past the end of the buffer. */
typedef struct {
    char *buf;
    size_t cap, len;
} writer;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void put(writer *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = w->len < w->cap ? w->cap - w->len : 0;
    int n = vsnprintf(room ? w->buf + w->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) w->len += (size_t)n;
}

/* %.17g reads back to the same double; NaN (a figure that does not apply) is null. */
static void put_number(writer *w, double v)
{
    if (isfinite(v))
        put(w, "%.17g", v);
    else
        put(w, "null");
}

/* A JSON string: warnings hold only printable ASCII or UTF-8, but quotes and
 * backslashes (from echoed values) need escaping. */
static void put_string(writer *w, const char *text)
{
    put(w, "\"");
    for (const char *p = text; *p; p++) {
        if (*p == '"' || *p == '\\')
            put(w, "\\%c", *p);
        else if ((unsigned char)*p < 0x20)
            put(w, "\\u%04x", (unsigned)(unsigned char)*p);
        else
            put(w, "%c", *p);
    }
    put(w, "\"");
}

static void put_field(writer *w, const char *key, double v)
{
    put(w, ", \"%s\": ", key);
    put_number(w, v);
}

static void write_resolved(writer *w, const rope_config *c, const figures *f)
{
    const rope_scaling *s = &c->scaling;
    put(w, "  \"resolved\": {\"head_dim\": ");
    put_number(w, c->head_dim);
    put(w, ", \"head_dim_from\": ");
    put_string(w, c->dim_source);
    put_field(w, "partial_rotary_factor", c->partial_rotary_factor);
    put_field(w, "max_position_embeddings", s->max_position);
    int uses_l0 = s->type == ROPE_SCALING_YARN || s->type == ROPE_SCALING_LONGROPE
                  || s->type == ROPE_SCALING_LLAMA3;
    put_field(w, "original_max_position_embeddings", uses_l0 ? s->original_max : NAN);
    put_field(w, "seq_len", s->seq_len > 0.0 ? s->seq_len : NAN);
    put_field(w, "base_used", f->base_used);
    if (s->type == ROPE_SCALING_YARN) {
        put_field(w, "beta_fast", s->beta_fast);
        put_field(w, "beta_slow", s->beta_slow);
        put_field(w, "mscale", s->mscale);
        put_field(w, "mscale_all_dim", s->mscale_all_dim);
        put(w, ", \"truncate\": %s, \"correction_range\": [", s->truncate ? "true" : "false");
        put_number(w, f->lo);
        put(w, ", ");
        put_number(w, f->hi);
        put(w, "]");
    } else if (s->type == ROPE_SCALING_LLAMA3) {
        put_field(w, "low_freq_factor", s->low_freq_factor);
        put_field(w, "high_freq_factor", s->high_freq_factor);
    } else if (s->type == ROPE_SCALING_LONGROPE) {
        put(w, ", \"factor_list\": \"%s\"", s->seq_len > s->original_max ? "long" : "short");
    }
    put(w, "},\n");
}

static void write_json(writer *w, const rope_config *c, const figures *f)
{
    const rope_scaling *s = &c->scaling;
    put(w, "{\n  \"rope_type\": \"%s\",\n  \"rotary_dim\": %d,\n  \"base\": ",
        rope_scaling_name(s->type), s->dim);
    put_number(w, s->base);
    put(w, ",\n  \"factor\": ");
    put_number(w, c->factor_shown);
    put(w, ",\n  \"attention_factor\": ");
    put_number(w, f->attention);
    put(w, ",\n  \"softmax_multiplier\": ");
    put_number(w, f->softmax);
    put(w, ",\n");
    write_resolved(w, c, f);
    put(w, "  \"bands\": {\"keep\": %d, \"ramp\": %d, \"divide\": %d, \"ratio\": %d},\n",
        f->bands[0], f->bands[1], f->bands[2], f->bands[3]);
    put(w, "  \"warnings\": [");
    for (int j = 0; j < c->n_warnings; j++) {
        put(w, "%s\n    ", j > 0 ? "," : "");
        put_string(w, c->warnings[j]);
    }
    if (c->n_dropped > 0) put(w, ",\n    \"(%d more warnings not shown)\"", c->n_dropped);
    put(w, "%s],\n  \"pairs\": [", c->n_warnings > 0 ? "\n  " : "");
    for (int i = 0; i < f->pairs; i++) {
        put(w, "%s\n    {\"i\": %d", i > 0 ? "," : "", i);
        put_field(w, "wavelength", f->wavelength[i]);
        put_field(w, "inv_freq", f->theta[i]);
        put_field(w, "inv_freq_scaled", f->scaled[i]);
        put_field(w, "ratio", f->ratio[i]);
        put(w, ", \"band\": \"%s\"}", rope_band_name(f->band[i]));
    }
    put(w, "%s]", f->pairs > 0 ? "\n  " : "");
    if (f->has_range) {
        put(w, ",\n  \"range\": {\"train_len\": ");
        put_number(w, f->train_len);
        put_field(w, "gap", f->gap);
        put(w, ", \"covered\": %d, \"inside\": %d, \"unseen\": %d, \"critical_dimension\": %d,"
               "\n    \"pairs\": [", f->counts[0], f->counts[1], f->counts[2], 2 * f->counts[0]);
        for (int i = 0; i < f->pairs; i++) {
            put(w, "%s\n      {\"i\": %d", i > 0 ? "," : "", i);
            put_field(w, "trained_angle", f->trained[i]);
            put_field(w, "gap_angle", f->at_gap[i]);
            put(w, ", \"status\": \"%s\"}", rope_range_name(f->status[i]));
        }
        put(w, "%s]}", f->pairs > 0 ? "\n    " : "");
    }
    put(w, "\n}\n");
}

static void write_csv(writer *w, const figures *f)
{
    put(w, "i,inv_freq,inv_freq_scaled,wavelength,ratio,band\n");
    for (int i = 0; i < f->pairs; i++)
        put(w, "%d,%.17g,%.17g,%.17g,%.17g,%s\n", i, f->theta[i], f->scaled[i], f->wavelength[i],
            f->ratio[i], rope_band_name(f->band[i]));
}

static void write_table(writer *w, const rope_config *c, const figures *f)
{
    const rope_scaling *s = &c->scaling;
    put(w, "rope_type %s, rotary dim %d (%d pairs), base %.10g", rope_scaling_name(s->type),
        s->dim, f->pairs, s->base);
    if (!isnan(c->factor_shown)) put(w, ", factor %.10g", c->factor_shown);
    put(w, "\nattention_factor %.10g, softmax multiplier %.10g\n", f->attention, f->softmax);
    put(w, "head_dim %.10g (%s), partial_rotary_factor %.10g", c->head_dim, c->dim_source,
        c->partial_rotary_factor);
    if (s->type == ROPE_SCALING_YARN || s->type == ROPE_SCALING_LONGROPE
        || s->type == ROPE_SCALING_LLAMA3)
        put(w, ", original_max_position_embeddings %.10g", s->original_max);
    if (s->type == ROPE_SCALING_YARN) put(w, ", correction range %.10g to %.10g", f->lo, f->hi);
    if (f->base_used != s->base) put(w, ", scaled base %.10g", f->base_used);
    put(w, "\nbands: %d keep, %d ramp, %d divide, %d ratio only\n", f->bands[0], f->bands[1],
        f->bands[2], f->bands[3]);
    if (f->has_range)
        put(w, "training length %.10g, gap %.10g: %d covered, %d inside, %d unseen; critical "
               "dimension %d\n", f->train_len, f->gap, f->counts[0], f->counts[1], f->counts[2],
            2 * f->counts[0]);
    for (int j = 0; j < c->n_warnings; j++) put(w, "warning: %s\n", c->warnings[j]);
    /* The band column is padded only when more columns follow: no trailing blanks. */
    int pad = f->has_range ? 6 : 0;
    put(w, "\n%5s %14s %14s %15s %12s  %-*s", "i", "wavelength", "inv_freq", "inv_freq_scaled",
        "ratio", pad, "band");
    if (f->has_range) put(w, " %14s %14s  %s", "trained_angle", "gap_angle", "status");
    put(w, "\n");
    for (int i = 0; i < f->pairs; i++) {
        put(w, "%5d %14.6g %14.6g %15.6g %12.6g  %-*s", i, f->wavelength[i], f->theta[i],
            f->scaled[i], f->ratio[i], pad, rope_band_name(f->band[i]));
        if (f->has_range)
            put(w, " %14.6g %14.6g  %s", f->trained[i], f->at_gap[i],
                rope_range_name(f->status[i]));
        put(w, "\n");
    }
}

int rope_scaling_write(rope_config *c, int format, double seq_len, double train_len,
                       double gap, char *buf, int cap, int *len)
{
    if (c == NULL || len == NULL || (cap > 0 && buf == NULL)) return ROPE_E_NULL;
    if (format < ROPE_SCALING_JSON || format > ROPE_SCALING_TABLE) return ROPE_E_VALUE;
    if (cap < 0) cap = 0;
    if (c->code != 0) return c->code;
    if (!(isfinite(seq_len) && seq_len >= 0.0))
        return rope_config_fail(c, ROPE_E_SCALING, "seq_len must be a finite number >= 0, got "
                                "%.17g", seq_len);
    if (isnan(train_len) != isnan(gap))
        return rope_config_fail(c, ROPE_E_SCALING, "%s is given without %s: give both or neither",
                                isnan(gap) ? "train_len" : "gap", isnan(gap) ? "gap" : "train_len");
    if (!isnan(train_len) && !(isfinite(train_len) && train_len > 0.0))
        return rope_config_fail(c, ROPE_E_SCALING, "train_len must be a finite number > 0, got "
                                "%.17g", train_len);
    if (!isnan(gap) && !(isfinite(gap) && gap >= 0.0))
        return rope_config_fail(c, ROPE_E_SCALING, "gap must be a finite number >= 0, got %.17g",
                                gap);
    int rc = rope_config_resolve(c, seq_len);
    if (rc != ROPE_OK) return rc;
    figures f;
    rc = compute(c, train_len, gap, &f);
    if (rc == ROPE_OK) {
        writer w = {buf, (size_t)cap, 0};
        if (format == ROPE_SCALING_JSON)
            write_json(&w, c, &f);
        else if (format == ROPE_SCALING_CSV)
            write_csv(&w, &f);
        else
            write_table(&w, c, &f);
        /* At most 32768 pairs keep every text far below 2 GiB. */
        *len = (int)w.len;
        if (w.len >= w.cap) rc = ROPE_E_SPACE;
    } else if (rc != ROPE_E_NOMEM) {
        rc = rope_config_fail(c, rc, "the config's figures cannot be computed: %s",
                              rope_strerror(rc));
    }
    figures_free(&f);
    return rc;
}
