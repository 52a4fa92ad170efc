/* The scaling figures of a config as JSON, CSV or a terminal table, written
 * into a caller-owned buffer: the CLI and the page share these bytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rope_math.h"
#include "report/writer.h"
#include "scaling/config.h"
#include "scaling/config_internal.h"
#include "scaling/write_model.h"

/* Everything one output states, computed once. */
typedef struct {
    int pairs;
    double *theta, *scaled, *wavelength, *ratio, *trained, *at_gap;
    int *band, *status;
    int bands[5], counts[3], has_range;
    double attention, softmax, base_used, lo, hi, train_len, gap;
} figures;

static void figures_free(figures *f)
{
    free(f->theta);
    free(f->band);
}

/* s: the config's scaling, or one layer type's. */
static int compute(const rope_config *c, const rope_scaling *s, double train_len, double gap,
                   figures *f)
{
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
    if (!c->softmax_applies) f->softmax = 1.0;
    if (rc == ROPE_OK) rc = rope_scaling_base_used(s, &f->base_used);
    if (rc == ROPE_OK && s->type == ROPE_SCALING_YARN)
        rc = rope_scaling_yarn_range(s, &f->lo, &f->hi);
    f->has_range = !isnan(train_len);
    f->train_len = train_len;
    f->gap = gap;
    if (rc == ROPE_OK && f->has_range)
        rc = rope_scaling_range(s, train_len, gap, f->trained, f->at_gap, f->status, f->counts);
    for (int i = 0; i < f->pairs && rc == ROPE_OK; i++) f->bands[f->band[i]]++;
    return rc;
}

static void write_resolved(rope_writer *w, const rope_config *c, const figures *f)
{
    const rope_scaling *s = &c->scaling;
    rope_put(w, "  \"resolved\": {\"head_dim\": ");
    rope_put_number(w, c->head_dim);
    rope_put(w, ", \"head_dim_from\": ");
    rope_put_json_text(w, c->dim_source);
    rope_put_field(w, ", ", "partial_rotary_factor", c->partial_rotary_factor);
    rope_put_field(w, ", ", "max_position_embeddings", s->max_position);
    int uses_l0 = s->type == ROPE_SCALING_YARN || s->type == ROPE_SCALING_LONGROPE ||
                  s->type == ROPE_SCALING_LLAMA3;
    rope_put_field(w, ", ", "original_max_position_embeddings", uses_l0 ? s->original_max : NAN);
    rope_put_field(w, ", ", "seq_len", s->seq_len > 0.0 ? s->seq_len : NAN);
    rope_put_field(w, ", ", "base_used", f->base_used);
    if (s->type == ROPE_SCALING_YARN) {
        rope_put_field(w, ", ", "beta_fast", s->beta_fast);
        rope_put_field(w, ", ", "beta_slow", s->beta_slow);
        rope_put_field(w, ", ", "mscale", s->mscale);
        rope_put_field(w, ", ", "mscale_all_dim", s->mscale_all_dim);
        rope_put(w, ", \"truncate\": %s, \"correction_range\": [", s->truncate ? "true" : "false");
        rope_put_number(w, f->lo);
        rope_put(w, ", ");
        rope_put_number(w, f->hi);
        rope_put(w, "]");
    } else if (s->type == ROPE_SCALING_LLAMA3) {
        rope_put_field(w, ", ", "low_freq_factor", s->low_freq_factor);
        rope_put_field(w, ", ", "high_freq_factor", s->high_freq_factor);
    } else if (s->type == ROPE_SCALING_LONGROPE) {
        rope_put(w, ", \"factor_list\": \"%s\"", s->seq_len > s->original_max ? "long" : "short");
    } else if (s->type == ROPE_SCALING_PROPORTIONAL) {
        rope_put(w, ", \"rotating_pairs\": %d, \"still_pairs\": %d", s->dim / 2 - s->still,
                 s->still);
    }
    rope_put(w, "},\n");
}

static int write_json(rope_writer *w, const rope_config *c, const figures *f)
{
    const rope_scaling *s = &c->scaling;
    rope_put(w, "{\n  \"rope_type\": \"%s\",\n  \"rotary_dim\": %d", rope_scaling_name(s->type),
             s->dim);
    rope_put_field(w, ROPE_JSON_NEXT, "base", s->base);
    rope_put_field(w, ROPE_JSON_NEXT, "factor", c->factor_shown);
    rope_put_field(w, ROPE_JSON_NEXT, "attention_factor", f->attention);
    rope_put_field(w, ROPE_JSON_NEXT, "softmax_multiplier", f->softmax);
    rope_put(w, ",\n");
    write_resolved(w, c, f);
    rope_put(w, "  \"bands\": {\"keep\": %d, \"ramp\": %d, \"divide\": %d, \"ratio\": %d",
             f->bands[0], f->bands[1], f->bands[2], f->bands[3]);
    if (s->type == ROPE_SCALING_PROPORTIONAL) rope_put(w, ", \"still\": %d", f->bands[4]);
    rope_put(w, "},\n");
    rope_put(w, "  \"warnings\": [");
    for (int j = 0; j < c->n_warnings; j++) {
        rope_put(w, "%s\n    ", j > 0 ? "," : "");
        rope_put_json_text(w, c->warnings[j]);
    }
    if (c->n_dropped > 0) rope_put(w, ",\n    \"(%d more warnings not shown)\"", c->n_dropped);
    rope_put(w, "%s],\n  \"pairs\": [", c->n_warnings > 0 ? "\n  " : "");
    for (int i = 0; i < f->pairs; i++) {
        rope_put(w, "%s\n    {\"i\": %d", i > 0 ? "," : "", i);
        rope_put_field(w, ", ", "wavelength", f->wavelength[i]);
        rope_put_field(w, ", ", "inv_freq", f->theta[i]);
        rope_put_field(w, ", ", "inv_freq_scaled", f->scaled[i]);
        rope_put_field(w, ", ", "ratio", f->ratio[i]);
        rope_put(w, ", \"band\": \"%s\"}", rope_band_name(f->band[i]));
    }
    rope_put(w, "%s]", f->pairs > 0 ? "\n  " : "");
    int rc = rope_write_model_json(w, c);
    if (f->has_range) {
        rope_put(w, ",\n  \"range\": {\"train_len\": ");
        rope_put_number(w, f->train_len);
        rope_put_field(w, ", ", "gap", f->gap);
        rope_put(w,
                 ", \"covered\": %d, \"inside\": %d, \"unseen\": %d, \"critical_dimension\": %d,"
                 "\n    \"pairs\": [",
                 f->counts[0], f->counts[1], f->counts[2], 2 * f->counts[0]);
        for (int i = 0; i < f->pairs; i++) {
            rope_put(w, "%s\n      {\"i\": %d", i > 0 ? "," : "", i);
            rope_put_field(w, ", ", "trained_angle", f->trained[i]);
            rope_put_field(w, ", ", "gap_angle", f->at_gap[i]);
            rope_put(w, ", \"status\": \"%s\"}", rope_range_name(f->status[i]));
        }
        rope_put(w, "%s]}", f->pairs > 0 ? "\n    " : "");
    }
    rope_put(w, "\n}\n");
    return rc;
}

static void write_csv(rope_writer *w, const figures *f)
{
    rope_put(w, "i,inv_freq,inv_freq_scaled,wavelength,ratio,band\n");
    for (int i = 0; i < f->pairs; i++)
        rope_put(w, "%d,%.17g,%.17g,%.17g,%.17g,%s\n", i, f->theta[i], f->scaled[i],
                 f->wavelength[i], f->ratio[i], rope_band_name(f->band[i]));
}

static void write_table(rope_writer *w, const rope_config *c, const figures *f)
{
    const rope_scaling *s = &c->scaling;
    rope_put(w, "rope_type %s, rotary dim %d (%d pairs), base %.10g", rope_scaling_name(s->type),
             s->dim, f->pairs, s->base);
    if (!isnan(c->factor_shown)) rope_put(w, ", factor %.10g", c->factor_shown);
    rope_put(w, "\nattention_factor %.10g, softmax multiplier %.10g\n", f->attention, f->softmax);
    rope_put(w, "head_dim %.10g (%s), partial_rotary_factor %.10g", c->head_dim, c->dim_source,
             c->partial_rotary_factor);
    if (s->type == ROPE_SCALING_YARN || s->type == ROPE_SCALING_LONGROPE ||
        s->type == ROPE_SCALING_LLAMA3)
        rope_put(w, ", original_max_position_embeddings %.10g", s->original_max);
    if (s->type == ROPE_SCALING_YARN)
        rope_put(w, ", correction range %.10g to %.10g", f->lo, f->hi);
    if (f->base_used != s->base) rope_put(w, ", scaled base %.10g", f->base_used);
    rope_put(w, "\nbands: %d keep, %d ramp, %d divide, %d ratio only", f->bands[0], f->bands[1],
             f->bands[2], f->bands[3]);
    if (s->type == ROPE_SCALING_PROPORTIONAL) rope_put(w, ", %d still (frequency 0)", f->bands[4]);
    rope_put(w, "\n");
    if (f->has_range)
        rope_put(w,
                 "training length %.10g, gap %.10g: %d covered, %d inside, %d unseen; critical "
                 "dimension %d\n",
                 f->train_len, f->gap, f->counts[0], f->counts[1], f->counts[2], 2 * f->counts[0]);
    rope_write_model_table(w, c);
    for (int j = 0; j < c->n_warnings; j++) rope_put(w, "warning: %s\n", c->warnings[j]);
    /* The band column is padded only when more columns follow: no trailing blanks. */
    int pad = f->has_range ? 6 : 0;
    rope_put(w, "\n%5s %14s %14s %15s %12s  %-*s", "i", "wavelength", "inv_freq", "inv_freq_scaled",
             "ratio", pad, "band");
    if (f->has_range) rope_put(w, " %14s %14s  %s", "trained_angle", "gap_angle", "status");
    rope_put(w, "\n");
    for (int i = 0; i < f->pairs; i++) {
        rope_put(w, "%5d %14.6g %14.6g %15.6g %12.6g  %-*s", i, f->wavelength[i], f->theta[i],
                 f->scaled[i], f->ratio[i], pad, rope_band_name(f->band[i]));
        if (f->has_range)
            rope_put(w, " %14.6g %14.6g  %s", f->trained[i], f->at_gap[i],
                     rope_range_name(f->status[i]));
        rope_put(w, "\n");
    }
}

/* An overflow the config's own numbers made, named by the key as the file spells its block:
 * NTK's and dynamic's base x factor^(d/(d-2)) past the largest double, or a longrope list entry
 * so small that theta / entry overflows. Returns 1 with *rc set by rope_config_fail. */
static int overflow_key(rope_config *c, int *rc)
{
    const rope_scaling *s = &c->scaling;
    const char *key = NULL, *why = NULL;
    char at[16] = "";
    double v = s->factor;
    if ((s->type == ROPE_SCALING_NTK || s->type == ROPE_SCALING_DYNAMIC) && s->dim > 2 &&
        isfinite(v) && v > 1 && !isfinite(s->base * rope_pow(v, (double)s->dim / (s->dim - 2)))) {
        key = "factor";
        why = "large: the scaled base (base x factor^(d/(d-2))) overflows";
    }
    for (int l = 0; !key && s->type == ROPE_SCALING_LONGROPE && l < 2; l++) {
        const double *list = l ? s->long_factor : s->short_factor;
        for (int i = 0; list && !key && i < s->dim / 2; i++) {
            if (isfinite(list[i]) && !isfinite(1.0 / list[i])) {
                key = l ? "long_factor" : "short_factor";
                why = "small: the scaled frequencies (theta / entry) overflow";
                v = list[i];
                snprintf(at, sizeof at, "[%d]", i);
            }
        }
    }
    if (!key) return 0;
    *rc = rope_config_fail(c, *rc, "%s.%s%s %.17g is too %s",
                           c->block[B_FACTOR].block ? "rope_parameters" : "rope_scaling", key, at,
                           v, why);
    return 1;
}

int rope_scaling_write(rope_config *c, int format, double seq_len, double train_len, double gap,
                       char *buf, int cap, int *len)
{
    if (c == NULL || len == NULL || (cap > 0 && buf == NULL)) return ROPE_E_NULL;
    if (format < ROPE_SCALING_JSON || format > ROPE_SCALING_TABLE) return ROPE_E_VALUE;
    if (cap < 0) cap = 0;
    if (c->code != 0) return c->code;
    if (!(isfinite(seq_len) && seq_len >= 0.0))
        return rope_config_fail(c, ROPE_E_SCALING,
                                "seq_len must be a finite number >= 0, got "
                                "%.17g",
                                seq_len);
    if (isnan(train_len) != isnan(gap))
        return rope_config_fail(c, ROPE_E_SCALING, "%s is given without %s: give both or neither",
                                isnan(gap) ? "train_len" : "gap", isnan(gap) ? "gap" : "train_len");
    if (!isnan(train_len) && !(isfinite(train_len) && train_len > 0.0))
        return rope_config_fail(c, ROPE_E_SCALING,
                                "train_len must be a finite number > 0, got "
                                "%.17g",
                                train_len);
    if (!isnan(gap) && !(isfinite(gap) && gap >= 0.0))
        return rope_config_fail(c, ROPE_E_SCALING, "gap must be a finite number >= 0, got %.17g",
                                gap);
    int rc = rope_config_resolve(c, seq_len);
    if (rc != ROPE_OK) return rc;
    /* One layer type's table: the CSV of --layer-type sliding_attention. */
    rope_scaling local = c->scaling;
    int pick = 0;
    if (c->layer_type[0] != '\0') {
        pick = strcmp(c->layer_type, rope_layer_type_name(1)) == 0 && !isnan(c->local_base);
        if (!pick && strcmp(c->layer_type, rope_layer_type_name(0)) != 0)
            return rope_config_fail(c, ROPE_E_CONFIG,
                                    "layer_type \"%s\" is not a layer type of "
                                    "this config (%s%s)",
                                    c->layer_type, rope_layer_type_name(0),
                                    isnan(c->local_base) ? " only" : ", sliding_attention");
    }
    if (pick && format == ROPE_SCALING_CSV) rope_config_local_scaling(c, &local);
    figures f;
    rc = compute(c, &local, train_len, gap, &f);
    if (rc == ROPE_OK) {
        rope_writer w = {buf, (size_t)cap, 0};
        int wrote = ROPE_OK;
        if (format == ROPE_SCALING_JSON)
            wrote = write_json(&w, c, &f);
        else if (format == ROPE_SCALING_CSV)
            write_csv(&w, &f);
        else
            write_table(&w, c, &f);
        rc = wrote != ROPE_OK ? wrote : rope_writer_end(&w, len);
    } else if (rc == ROPE_E_RANGE && isfinite(c->scaling.factor) &&
               !isfinite(1.0 / c->scaling.factor)) {
        /* theta / factor overflows: name the key that did it, as the user wrote it. */
        rc = rope_config_fail(c, rc,
                              "%s.factor %.17g is too small: the scaled frequencies "
                              "(theta / factor) overflow",
                              c->block[B_FACTOR].block ? "rope_parameters" : "rope_scaling",
                              c->scaling.factor);
    } else if (rc == ROPE_E_RANGE && overflow_key(c, &rc)) {
        /* overflow_key named it */
    } else if (rc != ROPE_E_NOMEM) {
        rc = rope_config_fail(c, rc, "the config's figures cannot be computed: %s",
                              rope_strerror(rc));
    }
    figures_free(&f);
    return rc;
}
