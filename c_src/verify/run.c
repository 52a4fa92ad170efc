/* verify's steps on files the caller reads (run.h): the dump's tables, the
 * positions, the config, the check and its diagnosis, and the result as text
 * or JSON, for the CLI and the page alike. docs/VERIFY.md. */
#include "verify/run.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rope.h"
#include "report/writer.h"
#include "scaling/write_model.h"

static const char *const inv_names[] = {"inv_freq"};
static const char *const cos_names[] = {"cos", "cos_cached"};
static const char *const sin_names[] = {"sin", "sin_cached"};
/* A cache's tensors: cos (then sin), else one of the forms of one value per pair. */
static const char *const cache_names[] = {"cos", "cos_cached", "freqs_cis", "cos_sin_cache",
                                          "embed_positions"};
static const char *const csc_names[] = {"cos_sin_cache"};
static const char *const emb_names[] = {"embed_positions"};

static char no_memory[] = "out of memory for a message";

/* Keeps one line in j->msg and returns code. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int
refuse(rope_verify_job *j, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *line = rope_vformat(fmt, ap);
    va_end(ap);
    if (j->msg != no_memory) free(j->msg);
    j->msg = line ? line : no_memory;
    return code;
}

/* A flag as the refusal names it: the reference side of --against names its own flags. */
static const char *fl(const rope_verify_job *j, const char *flag)
{
    if (j->flag_as) return j->flag_as;
    if (!j->against_side) return flag;
    return strcmp(flag, "--sin") == 0 ? "--against-sin" : "--against";
}

int rope_verify_start(rope_verify_job *j, const rope_verify_io *io, int json)
{
    memset(j, 0, sizeof *j);
    j->bad_row = -1;
    j->io = *io;
    j->json = json;
    j->c = malloc(sizeof *j->c);
    if (!j->c) return refuse(j, ROPE_VERIFY_FAILED, "out of memory for the config");
    rope_config_init(j->c);
    j->apply = ROPE_LAYOUT_UNKNOWN;
    return ROPE_VERIFY_GOOD;
}

int rope_verify_options(rope_verify_job *j, const char *apply, const char *profile)
{
    if (apply && strcmp(apply, "rotate_half") == 0)
        j->apply = ROPE_LAYOUT_HALF;
    else if (apply && strcmp(apply, "interleaved") == 0)
        j->apply = ROPE_LAYOUT_INTERLEAVED;
    else if (apply)
        return refuse(j, ROPE_VERIFY_REFUSED,
                      "--apply must be rotate_half or interleaved, got '%s'", apply);
    if (profile && strcmp(profile, "recurrence") == 0)
        j->dump.profile = ROPE_PROFILE_RECURRENCE;
    else if (profile && strcmp(profile, "transformers") != 0)
        return refuse(j, ROPE_VERIFY_REFUSED,
                      "--profile must be transformers or recurrence, got '%s'", profile);
    return ROPE_VERIFY_GOOD;
}

/* Reads one tensor of a file: "FLAG 'FILE': problem" on failure. */
static int load(rope_verify_job *j, const char *flag, const char *path, const char *const *names,
                int n_names, rope_table *t, int *found)
{
    unsigned char *buf = NULL;
    size_t len = 0;
    char msg[ROPE_VERIFY_MSG];
    rope_table_want want = {names, n_names, found};
    t->bad_row = -1;
    flag = fl(j, flag);
    int rc = j->io.read(j->io.ctx, path, &buf, &len, msg);
    if (rc == ROPE_OK) rc = rope_table_read(buf, len, &want, t, msg);
    /* At most two loads per run (inv_freq, or cos and sin): both fit. */
    if (rc == ROPE_OK && t->borrowed) {
        j->map[j->n_maps] = buf;
        j->map_len[j->n_maps++] = len;
        return ROPE_VERIFY_GOOD;
    }
    if (j->io.release) j->io.release(j->io.ctx, buf, len);
    if (rc == ROPE_OK) return ROPE_VERIFY_GOOD;
    j->bad_row = rc == ROPE_E_VALUE ? t->bad_row : -1;
    if (j->bad_row >= 0) {
        /* Refused at the next step, rope_verify_positions, which knows the row's position. */
        refuse(j, ROPE_VERIFY_REFUSED, "%s '%s': %s", flag, path, msg);
        return ROPE_VERIFY_GOOD;
    }
    return refuse(j, rc == ROPE_E_NOMEM ? ROPE_VERIFY_FAILED : ROPE_VERIFY_REFUSED, "%s '%s': %s",
                  flag, path, msg);
}

static int load_inv(rope_verify_job *j, const char *inv)
{
    int code = load(j, "--inv-freq", inv, inv_names, 1, &j->inv, NULL);
    if (code != ROPE_VERIFY_GOOD || j->bad_row >= 0) return code;
    const char *flag = fl(j, "--inv-freq");
    if (j->inv.complex)
        return refuse(j, ROPE_VERIFY_REFUSED, "%s '%s': a complex array; inv_freq is real", flag,
                      inv);
    if (j->inv.ndim != 1)
        return refuse(j, ROPE_VERIFY_REFUSED, "%s '%s': a %ld x %ld array; inv_freq is 1-D", flag,
                      inv, j->inv.rows, j->inv.width);
    j->dump.inv = &j->inv;
    j->dump.dtype = j->inv.dtype;
    return ROPE_VERIFY_GOOD;
}

/* One tensor of a form of one value per pair, split into cos and sin of one column per pair. */
static int load_split(rope_verify_job *j, const char *flag, const char *path, rope_table *src,
                      int form)
{
    char msg[ROPE_VERIFY_MSG];
    int rc = rope_verify_split(src, form, &j->cos, &j->sin, msg);
    rope_table_free(src);
    if (rc != ROPE_OK)
        return refuse(j, rc == ROPE_E_NOMEM ? ROPE_VERIFY_FAILED : ROPE_VERIFY_REFUSED,
                      "%s '%s': %s", fl(j, flag), path, msg);
    j->form = form;
    j->one_flag = flag;
    return ROPE_VERIFY_GOOD;
}

/* The cos and sin tables: two files, a cache of both, or one tensor of a per-pair form. */
static int load_tables(rope_verify_job *j, const char *const names[ROPE_VERIFY_ROLES])
{
    const char *cache = names[ROPE_VERIFY_CACHE], *cos = names[ROPE_VERIFY_COS];
    const char *csc = names[ROPE_VERIFY_COS_SIN_CACHE], *emb = names[ROPE_VERIFY_EMBED_POSITIONS];
    const char *one = csc ? csc : emb ? emb : cache;
    j->cos_file = one ? one : cos;
    j->sin_file = one ? one : names[ROPE_VERIFY_SIN];
    const char *cflag = csc     ? "--cos-sin-cache"
                        : emb   ? "--embed-positions"
                        : cache ? "--cache"
                                : "--cos";
    const char *sflag = cache ? "--cache" : "--sin";
    int code, found = -1;
    rope_table src;
    memset(&src, 0, sizeof src);
    if (csc || emb) {
        code = load(j, cflag, one, csc ? csc_names : emb_names, 1, &src, NULL);
        if (code != ROPE_VERIFY_GOOD || j->bad_row >= 0) return code;
        return load_split(j, cflag, one, &src,
                          csc ? ROPE_FORM_COS_SIN_CACHE : ROPE_FORM_EMBED_POSITIONS);
    }
    if (cache) {
        code = load(j, cflag, one, cache_names, 5, &src, &found);
        if (code != ROPE_VERIFY_GOOD || j->bad_row >= 0) return code;
        /* By name, else a complex array alone (Meta's freqs_cis has no other form). */
        int form = found == 2 || (found == -1 && src.complex) ? ROPE_FORM_FREQS_CIS
                   : found == 3                               ? ROPE_FORM_COS_SIN_CACHE
                   : found == 4                               ? ROPE_FORM_EMBED_POSITIONS
                                                              : ROPE_FORM_TABLE;
        if (form != ROPE_FORM_TABLE) return load_split(j, cflag, one, &src, form);
        j->cos = src;
    } else if ((code = load(j, cflag, j->cos_file, cos_names, 2, &j->cos, NULL)) !=
                   ROPE_VERIFY_GOOD ||
               j->bad_row >= 0) {
        return code;
    }
    if ((code = load(j, sflag, j->sin_file, sin_names, 2, &j->sin, NULL)) != ROPE_VERIFY_GOOD ||
        j->bad_row >= 0)
        return code;
    const rope_table *cx = j->cos.complex ? &j->cos : j->sin.complex ? &j->sin : NULL;
    if (cx)
        return refuse(j, ROPE_VERIFY_REFUSED,
                      "%s '%s': a complex table (re, im pairs: Meta's freqs_cis) holds cos and sin "
                      "both: give it as %s",
                      fl(j, cx == &j->cos ? cflag : sflag),
                      j->against_side ? "--against alone" : "--cache",
                      cx == &j->cos ? j->cos_file : j->sin_file);
    return ROPE_VERIFY_GOOD;
}

int rope_verify_load(rope_verify_job *j, const char *const names[ROPE_VERIFY_ROLES])
{
    int code;
    const char *inv = names[ROPE_VERIFY_INV], *cache = names[ROPE_VERIFY_CACHE];
    const char *cos = names[ROPE_VERIFY_COS], *sin = names[ROPE_VERIFY_SIN];
    int tables = (cos || sin) + (inv != NULL) + (cache != NULL) +
                 (names[ROPE_VERIFY_COS_SIN_CACHE] != NULL) +
                 (names[ROPE_VERIFY_EMBED_POSITIONS] != NULL);
    if (tables != 1 || ((cos != NULL) != (sin != NULL)))
        return refuse(j, ROPE_VERIFY_REFUSED,
                      "give one of --inv-freq FILE, --cos FILE --sin FILE, --cache FILE, "
                      "--cos-sin-cache FILE or --embed-positions FILE");
    if (inv) return load_inv(j, inv);
    if ((code = load_tables(j, names)) != ROPE_VERIFY_GOOD || j->bad_row >= 0) return code;
    const char *cflag = fl(j, j->one_flag ? j->one_flag : cache ? "--cache" : "--cos");
    const char *sflag = fl(j, j->one_flag ? j->one_flag : cache ? "--cache" : "--sin");
    if (j->cos.ndim != 2)
        return refuse(j, ROPE_VERIFY_REFUSED,
                      "%s '%s': a 1-D array of %ld; cos is positions x width", cflag, j->cos_file,
                      j->cos.width);
    if (j->sin.ndim != 2 || j->sin.rows != j->cos.rows || j->sin.width != j->cos.width)
        return refuse(j, ROPE_VERIFY_REFUSED,
                      "%s '%s': sin is %ld x %ld, cos is %ld x %ld; they must match", sflag,
                      j->sin_file, j->sin.rows, j->sin.width, j->cos.rows, j->cos.width);
    j->dump.cos = &j->cos;
    j->dump.sin = &j->sin;
    /* The less precise of the two sets the tolerance. */
    j->dump.dtype = j->cos.dtype > j->sin.dtype ? j->cos.dtype : j->sin.dtype;
    return ROPE_VERIFY_GOOD;
}

/* What one --against file holds: an inv_freq (a tensor of that name, or a 1-D array alone),
 * else a cache; -1 for a 2-D real array alone under no name of a role (a .npy): cos, sin or a
 * cache of halves, which is not ours to guess. A file that cannot be read so is read as a
 * cache, whose load says why. */
static int against_role(rope_verify_job *j, const char *file)
{
    static const char *const names[] = {"inv_freq",  "cos",           "cos_cached",
                                        "freqs_cis", "cos_sin_cache", "embed_positions"};
    unsigned char *buf = NULL;
    size_t len = 0;
    char msg[ROPE_VERIFY_MSG];
    int found = -1, role = ROPE_VERIFY_CACHE;
    rope_table t;
    memset(&t, 0, sizeof t);
    t.bad_row = -1;
    rope_table_want want = {names, 6, &found};
    if (j->io.read(j->io.ctx, file, &buf, &len, msg) != ROPE_OK) return role;
    if (rope_table_read(buf, len, &want, &t, msg) == ROPE_OK && found <= 0)
        role = found == 0 || (t.ndim == 1 && !t.complex) ? ROPE_VERIFY_INV
               : t.ndim == 2 && !t.complex               ? -1
                                                         : role;
    rope_table_free(&t);
    if (j->io.release) j->io.release(j->io.ctx, buf, len);
    return role;
}

int rope_verify_load_against(rope_verify_job *j, const char *file, const char *sin_file,
                             const char *form)
{
    static const char *const forms[] = {"inv_freq", "cache", "cos_sin_cache", "embed_positions"};
    static const int roles[] = {ROPE_VERIFY_INV, ROPE_VERIFY_CACHE, ROPE_VERIFY_COS_SIN_CACHE,
                                ROPE_VERIFY_EMBED_POSITIONS};
    const char *names[ROPE_VERIFY_ROLES] = {NULL};
    j->against_side = 1;
    if (sin_file && form)
        return refuse(j, ROPE_VERIFY_REFUSED,
                      "--against-form does not go with --against-sin: --against and "
                      "--against-sin are a cos and a sin file");
    if (sin_file) {
        names[ROPE_VERIFY_COS] = file;
        names[ROPE_VERIFY_SIN] = sin_file;
        return rope_verify_load(j, names);
    }
    int role = -1;
    for (int k = 0; form && k < 4; k++)
        if (strcmp(form, forms[k]) == 0) role = roles[k];
    if (form && role < 0)
        return refuse(j, ROPE_VERIFY_REFUSED,
                      "--against-form must be inv_freq, cache, cos_sin_cache or embed_positions, "
                      "got '%s'",
                      form);
    if (role < 0 && (role = against_role(j, file)) < 0)
        return refuse(j, ROPE_VERIFY_REFUSED,
                      "--against '%s': one 2-D array under no name that says its role: give its "
                      "sin with --against-sin FILE, or --against-form cos_sin_cache or "
                      "embed_positions for a table of cos and sin halves",
                      file);
    names[role] = file;
    return rope_verify_load(j, names);
}

/* The refusal of a table's NaN, with the row's position FROM + row where --positions gives
 * FROM (and 0 when it is not given). */
static int refuse_bad_row(rope_verify_job *j, const char *text)
{
    int from = 0;
    const char *colon = text ? strchr(text, ':') : NULL;
    char head[32];
    size_t a = colon ? (size_t)(colon - text) : 0;
    int known = !text;
    if (colon && a > 0 && a < sizeof head) {
        memcpy(head, text, a);
        head[a] = '\0';
        known = rope_parse_int(head, &from) == ROPE_OK && from >= 0;
    }
    char tail[32];
    snprintf(tail, sizeof tail, "(position FROM + %ld)", j->bad_row);
    char *at = known && j->msg != no_memory ? strstr(j->msg, tail) : NULL;
    if (!at) return ROPE_VERIFY_REFUSED;
    char *old = j->msg;
    j->msg = NULL;
    refuse(j, ROPE_VERIFY_REFUSED, "%.*s(position %.0f)%s", (int)(at - old), old,
           (double)from + (double)j->bad_row, at + strlen(tail));
    free(old);
    return ROPE_VERIFY_REFUSED;
}

int rope_verify_positions(rope_verify_job *j, const char *text)
{
    long rows = j->dump.cos ? j->cos.rows : 0;
    if (j->bad_row >= 0) return refuse_bad_row(j, text);
    if (!text) return ROPE_VERIFY_GOOD;
    if (!j->dump.cos)
        return refuse(j, ROPE_VERIFY_REFUSED,
                      "--positions applies to cos/sin tables, not to --inv-freq");
    char from[32], count[32];
    const char *colon = strchr(text, ':');
    size_t a = colon ? (size_t)(colon - text) : 0;
    int from_v = -1, count_v = -1;
    if (!colon || a == 0 || a >= sizeof from || strlen(colon + 1) >= sizeof count)
        return refuse(j, ROPE_VERIFY_REFUSED, "--positions must be FROM:COUNT, got '%s'", text);
    memcpy(from, text, a);
    from[a] = '\0';
    snprintf(count, sizeof count, "%s", colon + 1);
    if (rope_parse_int(from, &from_v) != ROPE_OK || rope_parse_int(count, &count_v) != ROPE_OK ||
        from_v < 0 || count_v < 1)
        return refuse(j, ROPE_VERIFY_REFUSED,
                      "--positions must be FROM:COUNT, whole numbers with FROM from 0 to %d and "
                      "COUNT from 1 to %d, got '%s'",
                      INT_MAX, INT_MAX, text);
    if (count_v != rows)
        return refuse(j, ROPE_VERIFY_REFUSED,
                      "--positions %s: COUNT %d differs from the table's %ld rows", text, count_v,
                      rows);
    j->dump.from = from_v;
    return ROPE_VERIFY_GOOD;
}

/* The config's text read as ropescope scaling --config reads it. */
static int read_config(rope_verify_job *j, const char *name, const char *text, size_t len)
{
    int rc = rope_config_read_json(j->c, text, len);
    if (rc == ROPE_OK) return ROPE_VERIFY_GOOD;
    if (rc == ROPE_E_NOMEM)
        return refuse(j, ROPE_VERIFY_FAILED, "--config: out of memory reading '%s'", name);
    return refuse(j, ROPE_VERIFY_REFUSED, "--config: '%s': %s", name,
                  j->c->code ? rope_config_message(j->c) : rope_strerror(rc));
}

/* --layer-type: the full_attention table is the config's main one; the
 * sliding_attention table (Gemma 3's local base, Gemma 4's head_dim) takes
 * its place in the scaling every later step reads. */
static int pick_layer_type(rope_verify_job *j, const char *name, const char *layer)
{
    rope_config *c = j->c;
    int has_local = !isnan(c->local_base);
    if (has_local && strcmp(layer, rope_layer_type_name(1)) == 0) {
        rope_scaling local;
        rope_config_local_scaling(c, &local);
        if (local.dim != c->scaling.dim) {
            c->head_dim = local.dim;
            c->partial_rotary_factor = 1.0;
            c->dim_source = "head_dim (the sliding layers')";
        }
        c->scaling = local;
        j->layer_type = rope_layer_type_name(1);
        return ROPE_VERIFY_GOOD;
    }
    if (has_local && strcmp(layer, rope_layer_type_name(0)) == 0) {
        j->layer_type = rope_layer_type_name(0);
        return ROPE_VERIFY_GOOD;
    }
    if (has_local)
        return refuse(j, ROPE_VERIFY_REFUSED,
                      "--layer-type '%s': config '%s' has the layer types %s and %s", layer, name,
                      rope_layer_type_name(0), rope_layer_type_name(1));
    return refuse(j, ROPE_VERIFY_REFUSED,
                  "--layer-type '%s': config '%s' has one RoPE table for every layer", layer, name);
}

/* A table of one column per pair (a per-pair form, or --cos and --sin as wide as the config's
 * pairs whose columns show no layout) has no layout: it is widened to two columns per pair in
 * the layout the user's code applies it in (--apply), else the checkpoint's, and so is right in
 * either. */
static int widen_pairs(rope_verify_job *j, int n)
{
    if (j->form == ROPE_FORM_TABLE && n > 0 && j->cos.width == n &&
        rope_verify_layout(&j->cos) == ROPE_LAYOUT_UNKNOWN)
        j->form = ROPE_FORM_PAIRS;
    if (j->form == ROPE_FORM_TABLE) return ROPE_VERIFY_GOOD;
    int layout = j->apply != ROPE_LAYOUT_UNKNOWN ? j->apply : rope_verify_checkpoint_layout(j->c);
    if (rope_verify_widen(&j->cos, layout) != ROPE_OK ||
        rope_verify_widen(&j->sin, layout) != ROPE_OK)
        return refuse(j, ROPE_VERIFY_FAILED, "out of memory widening the table");
    return ROPE_VERIFY_GOOD;
}

int rope_verify_configure(rope_verify_job *j, const char *name, const char *text, size_t len,
                          const char *seq_text, double seq_len, const char *layer)
{
    int code = read_config(j, name, text, len);
    if (code != ROPE_VERIFY_GOOD) return code;
    double seq = 0.0;
    if (rope_config_resolve(j->c, 0.0) == ROPE_OK && j->dump.cos &&
        (j->c->scaling.type == ROPE_SCALING_DYNAMIC || j->c->scaling.type == ROPE_SCALING_LONGROPE))
        seq = j->dump.from + (double)j->cos.rows; /* the largest position + 1, as transformers */
    if (seq_text) {
        seq = seq_len;
        if (!(seq >= 0.0) || seq > 1e15)
            return refuse(j, ROPE_VERIFY_REFUSED, "--seq-len must be in [0, 1e15], got '%s'",
                          seq_text);
    }
    if (rope_config_resolve(j->c, seq) != ROPE_OK)
        return refuse(j, ROPE_VERIFY_REFUSED, "--config '%s': %s", name, rope_config_message(j->c));
    if (layer && (code = pick_layer_type(j, name, layer)) != ROPE_VERIFY_GOOD) return code;
    int n = j->c->scaling.dim / 2;
    if (j->dump.cos && (code = widen_pairs(j, n)) != ROPE_VERIFY_GOOD) return code;
    j->theta = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    j->pair_worst = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    if (!j->theta || !j->pair_worst) return refuse(j, ROPE_VERIFY_FAILED, "out of memory");
    if (rope_scaling_pairs(&j->c->scaling, NULL, j->theta, NULL, NULL, NULL) != ROPE_OK)
        return refuse(j, ROPE_VERIFY_REFUSED, "--config '%s': its inv_freq is not finite", name);
    return ROPE_VERIFY_GOOD;
}

/* The config's model of the dump in one layout. */
static rope_model model_of(const rope_verify_job *j, int layout)
{
    int native = j->dump.dtype == ROPE_DT_F64 ? ROPE_DT_F64 : ROPE_DT_F32;
    rope_model m = {j->theta, j->c->scaling.dim / 2, native, 0, native, j->af, 0.0, 1, layout};
    return m;
}

/* The dump against the config's model in one layout. */
static int compare(rope_verify_job *j, int layout, rope_verify_err *err)
{
    rope_model m = model_of(j, layout);
    return rope_verify_eval_pairs(&j->dump, &m, NULL, 0, j->pair_worst, err) == ROPE_OK;
}

/* Whether the dump fits the model in one layout, for a trial (another profile, or cos and sin
 * exchanged): the pass stops at the first value over its tolerance, and the job's per-pair
 * worsts, which the output and the page's chart show, stay as the comparison of record made
 * them. A trial that fails used to cost a whole pass over the table. */
static int fits_trial(rope_verify_job *j, int layout)
{
    rope_model m = model_of(j, layout);
    rope_verify_err err;
    return rope_verify_eval_until(&j->dump, &m, NULL, 0, &err) == ROPE_OK && err.n_over == 0;
}

/* A table is compared in the layout its columns show: either is right
 * (pairing.c), unless --apply says how the user's code applies it, then in
 * that one. Columns that show none (a table that is wrong anyway) are
 * compared in the checkpoint's layout, and in the other when that fits
 * better. */
static void compare_table(rope_verify_job *j)
{
    int ck = rope_verify_checkpoint_layout(j->c);
    int used = j->apply != ROPE_LAYOUT_UNKNOWN          ? j->apply
               : j->layout_found != ROPE_LAYOUT_UNKNOWN ? j->layout_found
                                                        : ck;
    j->compared = compare(j, used, &j->err);
    if (j->compared && j->err.n_over > 0 && j->layout_found == ROPE_LAYOUT_UNKNOWN &&
        j->apply == ROPE_LAYOUT_UNKNOWN && j->form == ROPE_FORM_TABLE) {
        rope_verify_err other;
        int alt = used == ROPE_LAYOUT_HALF ? ROPE_LAYOUT_INTERLEAVED : ROPE_LAYOUT_HALF;
        /* The first layout's per-pair worsts, kept to put back if the other does no better
         * (a copy, where a third pass over the table used to remake them). */
        size_t n = (size_t)(j->c->scaling.dim / 2 > 0 ? j->c->scaling.dim / 2 : 1);
        double *kept = malloc(n * sizeof *kept);
        if (kept) memcpy(kept, j->pair_worst, n * sizeof *kept);
        if (kept && compare(j, alt, &other) && other.n_over < j->err.n_over) {
            j->err = other;
            used = alt;
        } else if (kept) {
            memcpy(j->pair_worst, kept, n * sizeof *kept);
        }
        free(kept);
    }
    j->layout_used = used;
}

/* A table over transformers' bound that a float32 recurrence's bound takes
 * (llama.cpp's theta *= theta_scale): named as that, not as a mistake. */
static int fits_recurrence(rope_verify_job *j)
{
    if (!j->compared || j->dump.profile != ROPE_PROFILE_TRANSFORMERS || !j->dump.cos ||
        j->dump.dtype == ROPE_DT_F64)
        return 0;
    j->dump.profile = ROPE_PROFILE_RECURRENCE;
    int fits = fits_trial(j, j->layout_used);
    j->dump.profile = ROPE_PROFILE_TRANSFORMERS;
    if (!fits) return 0;
    j->diag[0].code = "recurrence_profile";
    snprintf(j->diag[0].message, sizeof j->diag[0].message,
             "the table is within the bound of a float32 recurrence theta *= theta_scale "
             "(llama.cpp), not of transformers' one product p x inv_freq: if it was made so, "
             "check it with --profile recurrence");
    j->n_diag = 1;
    return 1;
}

/* A table whose cos and sin exchanged match: files given the other way round, or a cache's
 * halves in the other producer's order (vLLM's cos | sin, GPT-J's sin | cos). */
static int fits_swapped(rope_verify_job *j)
{
    if (!j->compared || !j->dump.cos) return 0;
    j->dump.cos = &j->sin;
    j->dump.sin = &j->cos;
    int fits = fits_trial(j, j->layout_used);
    j->dump.cos = &j->cos;
    j->dump.sin = &j->sin;
    if (!fits) return 0;
    j->diag[0].code = "cos_sin_swapped";
    const char *fix = j->form == ROPE_FORM_COS_SIN_CACHE
                          ? "the cache holds sin in its first half and cos in its second, GPT-J's "
                            "embed_positions order; vLLM's cos_sin_cache is cat((cos, sin), -1) "
                            "(a GPT-J table is checked with --embed-positions)"
                      : j->form == ROPE_FORM_EMBED_POSITIONS
                          ? "the table holds cos in its first half and sin in its second, vLLM's "
                            "cos_sin_cache order; GPT-J's embed_positions is cat((sin, cos), 1) (a "
                            "vLLM cache is checked with --cos-sin-cache)"
                      : j->form == ROPE_FORM_FREQS_CIS
                          ? "the real part holds sin and the imaginary part cos: freqs_cis is "
                            "torch.polar(ones, freqs), cos + i sin"
                          : "the cos table holds sin and the sin table cos: exchange them";
    snprintf(j->diag[0].message, sizeof j->diag[0].message,
             "cos and sin exchanged: the dump matches with them the other way round; %s", fix);
    j->n_diag = 1;
    return 1;
}

int rope_verify_check(rope_verify_job *j)
{
    const rope_scaling *s = &j->c->scaling;
    int table = j->dump.cos != NULL;
    if (rope_scaling_factors(s, &j->af, NULL) != ROPE_OK) j->af = 1.0;
    if (table && j->form == ROPE_FORM_TABLE)
        j->layout_found = rope_verify_layout(&j->cos);
    else
        j->layout_found = ROPE_LAYOUT_UNKNOWN;
    j->layout_used = rope_verify_checkpoint_layout(j->c);
    long pairs = table ? j->cos.width / 2 : j->inv.width;
    if ((!table || j->cos.width % 2 == 0) && pairs == s->dim / 2) {
        if (table)
            compare_table(j);
        else
            j->compared = compare(j, ROPE_LAYOUT_HALF, &j->err);
        j->match = j->compared && j->err.n_over == 0;
    }
    j->score.error = NAN;
    if (table && j->compared &&
        rope_verify_score_of(&j->dump, j->theta, s->dim / 2, j->af, j->layout_used, &j->score) ==
            ROPE_E_NOMEM)
        return refuse(j, ROPE_VERIFY_FAILED, "out of memory for the attention score's error");
    /* The table's own layout: the one its columns show, else the one it was compared in. */
    int own = j->layout_found != ROPE_LAYOUT_UNKNOWN ? j->layout_found : j->layout_used;
    char held[96];
    if (j->form == ROPE_FORM_PAIRS)
        snprintf(held, sizeof held, "one column per pair in cos and in sin, for either layout");
    else
        snprintf(held, sizeof held, "one value per pair (%s), for either layout",
                 rope_verify_form_name(j->form));
    if (table && j->form != ROPE_FORM_TABLE)
        rope_verify_layout_needs(j->c, j->apply, held, j->layout_needs, sizeof j->layout_needs);
    else if (table)
        rope_verify_layout_needs(
            j->c, j->layout_found == ROPE_LAYOUT_UNKNOWN && j->match ? ROPE_LAYOUT_UNKNOWN : own,
            NULL, j->layout_needs, sizeof j->layout_needs);
    if (!j->match && !fits_swapped(j) && !fits_recurrence(j) &&
        rope_verify_diagnose(j->c, &j->dump, own, j->apply, j->diag, &j->n_diag) != ROPE_OK)
        return refuse(j, ROPE_VERIFY_FAILED, "out of memory for the diagnosis");
    return j->match ? ROPE_VERIFY_GOOD : ROPE_VERIFY_MISMATCH;
}

static const char *layout_name(int layout)
{
    return layout == ROPE_LAYOUT_HALF          ? "rotate_half"
           : layout == ROPE_LAYOUT_INTERLEAVED ? "interleaved"
                                               : "unknown";
}

/* The computation a dump is held to, in words. */
static const char *held_to(const rope_verify_job *j)
{
    if (!j->dump.cos) return "inv_freq as the config's scaling computes it";
    if (j->dump.profile == ROPE_PROFILE_RECURRENCE)
        return "a recurrence theta *= theta_scale (llama.cpp): pair i's angle after i products, "
               "each rounded, then cos and sin of it times A";
    return j->dump.dtype == ROPE_DT_F64
               ? "transformers' computation in float64: the angle p x inv_freq, cos and sin of "
                 "it times A"
               : "transformers' computation in float32: inv_freq by pow and the scaling's "
                 "divisions, the angle one product p x inv_freq rounded, cos and sin of it times A";
}

/* The result: the dump's check, and with --against the reference's too. */
static int verdict(const rope_verify_job *j)
{
    return j->match && (!j->against || j->against->ref->match);
}

static int scaled(const rope_verify_job *j)
{
    return fabs(j->af - 1.0) > 1e-12;
}

static const char *tolerance_text(const rope_verify_job *j)
{
    return rope_verify_tolerance_text(j->dump.dtype, j->dump.cos != NULL, j->dump.profile,
                                      scaled(j));
}

/* A number of the comparison, null when nothing was compared. */
static void put_compared(rope_writer *w, const rope_verify_job *j, const char *key, double v)
{
    rope_put_field(w, ROPE_JSON_NEXT, key, j->compared ? v : NAN);
}

static void write_json(const rope_verify_job *j, rope_writer *w)
{
    const rope_scaling *s = &j->c->scaling;
    int table = j->dump.cos != NULL;
    const rope_table *t = table ? &j->cos : &j->inv;
    rope_put(w,
             "{\n  \"verdict\": \"%s\",\n  \"kind\": \"%s\",\n  \"form\": \"%s\",\n"
             "  \"dtype\": \"%s\",\n",
             verdict(j) ? "match" : "mismatch", table ? "cos_sin" : "inv_freq",
             table ? rope_verify_form_name(j->form) : "inv_freq", rope_dtype_name(j->dump.dtype));
    rope_put(w, "  \"rows\": %ld,\n  \"width\": %ld,\n", t->rows, t->width);
    if (table)
        rope_put(w, "  \"positions\": {\"from\": %.0f, \"count\": %ld},\n", j->dump.from, t->rows);
    else
        rope_put(w, "  \"positions\": null,\n");
    rope_put(w, "  \"layout_found\": \"%s\",\n  \"apply\": ",
             !table                       ? "unknown"
             : j->form != ROPE_FORM_TABLE ? "per_pair"
                                          : layout_name(j->layout_found));
    rope_put_json_text(w, j->apply == ROPE_LAYOUT_UNKNOWN ? NULL : layout_name(j->apply));
    rope_put(w, ",\n  \"layout_needs\": ");
    rope_put_json_text(w, table ? j->layout_needs : NULL);
    rope_put(w, ",\n");
    rope_put(w,
             "  \"config\": {\"rope_type\": \"%s\", \"rotary_dim\": %d, \"pairs\": %d, "
             "\"rope_theta\": ",
             rope_scaling_name(s->type), s->dim, s->dim / 2);
    rope_put_number(w, s->base);
    rope_put_field(w, ", ", "attention_factor", j->af);
    rope_put_field(w, ", ", "seq_len", s->seq_len);
    rope_put(w, ", \"layout\": \"%s\", \"layout_from\": ",
             layout_name(rope_verify_checkpoint_layout(j->c)));
    rope_put_json_text(w, j->c->layout_from);
    rope_put(w, ", \"layer_type\": ");
    rope_put_json_text(w, j->layer_type);
    rope_put(w, "},\n  \"profile\": \"%s\",\n  \"held_to\": ",
             j->dump.profile == ROPE_PROFILE_RECURRENCE ? "recurrence" : "transformers");
    rope_put_json_text(w, held_to(j));
    rope_put(w, ",\n  \"tolerance\": ");
    rope_put_json_text(w, tolerance_text(j));
    const rope_verify_err *e = &j->err;
    put_compared(w, j, "max_abs_error", e->max_abs);
    put_compared(w, j, "max_rel_error", e->max_rel);
    put_compared(w, j, "worst_pair", (double)e->worst_pair);
    put_compared(w, j, "worst_position", table ? j->dump.from + (double)e->worst_row : NAN);
    put_compared(w, j, "worst_ratio", e->worst_ratio);
    put_compared(w, j, "values_over_tolerance", (double)e->n_over);
    put_compared(w, j, "values", (double)e->n_values);
    /* The attention score's error (docs/VERIFY.md): null for an inv_freq dump. */
    int scored = j->compared && !isnan(j->score.error);
    rope_put_field(w, ROPE_JSON_NEXT, "score_error", scored ? j->score.error : NAN);
    rope_put_field(w, ROPE_JSON_NEXT, "score_gap", scored ? (double)j->score.gap : NAN);
    rope_put_field(w, ROPE_JSON_NEXT, "score_key_position", scored ? j->dump.from : NAN);
    rope_put_field(w, ROPE_JSON_NEXT, "score_pair", scored ? (double)j->score.pair : NAN);
    if (j->against) rope_verify_against_json(j, w);
    rope_put(w, ",\n  \"diagnoses\": [");
    rope_verify_put_diagnoses(w, j->diag, j->n_diag, "\n    ", ",\n    ");
    rope_put(w, j->n_diag ? "\n  ]\n}\n" : "]\n}\n");
}

static void write_text(const rope_verify_job *j, rope_writer *w)
{
    const rope_scaling *s = &j->c->scaling;
    int table = j->dump.cos != NULL;
    if (table && j->form != ROPE_FORM_TABLE)
        rope_put(w, "dump: %s '%s'%s%s%s, %s: %ld positions (%.0f..%.0f) x %ld pairs, %s\n",
                 j->form == ROPE_FORM_PAIRS ? "cos" : rope_verify_form_name(j->form), j->cos_file,
                 j->form == ROPE_FORM_PAIRS ? ", sin '" : "",
                 j->form == ROPE_FORM_PAIRS ? j->sin_file : "",
                 j->form == ROPE_FORM_PAIRS ? "'" : "", "one value per pair", j->cos.rows,
                 j->dump.from, j->dump.from + (double)j->cos.rows - 1.0, j->cos.width / 2,
                 rope_dtype_name(j->dump.dtype));
    else if (table)
        rope_put(w, "dump: cos '%s', sin '%s': %ld positions (%.0f..%.0f) x %ld, %s, layout %s\n",
                 j->cos_file, j->sin_file, j->cos.rows, j->dump.from,
                 j->dump.from + (double)j->cos.rows - 1.0, j->cos.width,
                 rope_dtype_name(j->dump.dtype), layout_name(j->layout_found));
    else
        rope_put(w, "dump: inv_freq, %ld pairs, %s\n", j->inv.width,
                 rope_dtype_name(j->dump.dtype));
    if (j->against && j->against->inferred)
        rope_put(w,
                 "config inferred from --against '%s' (no --config): default RoPE, rotary dim %d "
                 "(its width), rope_theta %.10g (fitted to its frequencies), attention factor 1\n",
                 j->against->file, j->against->inferred_dim, j->against->inferred_base);
    rope_put(w,
             "config%s%s: %s, rotary dim %d (%d pairs), rope_theta %.10g, attention factor %.10g, "
             "layout %s\n",
             j->layer_type ? ", layer type " : "", j->layer_type ? j->layer_type : "",
             rope_scaling_name(s->type), s->dim, s->dim / 2, s->base, j->af,
             layout_name(rope_verify_checkpoint_layout(j->c)));
    if (table) rope_put(w, "layout: %s\n", j->layout_needs);
    rope_put(w, "held to: %s\ntolerance: %s\n", held_to(j), tolerance_text(j));
    const rope_verify_err *e = &j->err;
    if (j->compared) {
        rope_put(w, "max abs error %.3g, max rel error %.3g; worst: pair %d", e->max_abs,
                 e->max_rel, e->worst_pair);
        if (table) rope_put(w, " at position %.0f", j->dump.from + (double)e->worst_row);
        rope_put(w, " (%.3g x its tolerance)\nvalues over tolerance: %ld of %ld\n", e->worst_ratio,
                 e->n_over, e->n_values);
        if (!isnan(j->score.error))
            rope_put(w,
                     "attention score error: %.3g for unit q, k (scores within +-%.4g), worst at "
                     "gap %ld (key at position %.0f, query at %.0f), pair %d\n",
                     j->score.error, j->af * j->af, j->score.gap, j->dump.from,
                     j->dump.from + (double)j->score.gap, j->score.pair);
    } else {
        rope_put(w, "not compared: the dump holds %ld pairs, the config %d\n",
                 table ? j->cos.width / 2 : j->inv.width, s->dim / 2);
    }
    if (j->against) rope_verify_against_text(j, w);
    rope_put(w, "result: %s\n", verdict(j) ? "match" : "mismatch");
    for (int k = 0; k < j->n_diag; k++)
        rope_put(w, "  %s: %s\n", j->diag[k].code, j->diag[k].message);
}

void rope_verify_put_diagnoses(rope_writer *w, const rope_diagnosis *diag, int n, const char *first,
                               const char *next)
{
    for (int k = 0; k < n; k++) {
        rope_put(w, "%s", k ? next : first);
        rope_put(w, "{\"code\": ");
        rope_put_json_text(w, diag[k].code);
        rope_put(w, ", \"message\": ");
        rope_put_json_text(w, diag[k].message);
        rope_put(w, "}");
    }
}

int rope_verify_write(void *job, char *buf, int cap, int *len)
{
    const rope_verify_job *j = job;
    rope_writer w = {buf, cap > 0 ? (size_t)cap : 0, 0};
    if (j->json)
        write_json(j, &w);
    else
        write_text(j, &w);
    return rope_writer_end(&w, len);
}

void rope_verify_end(rope_verify_job *j)
{
    rope_table_free(&j->inv);
    rope_table_free(&j->cos);
    rope_table_free(&j->sin);
    free(j->theta);
    free(j->pair_worst);
    free(j->c);
    if (j->msg != no_memory) free(j->msg);
    for (int k = 0; k < j->n_maps; k++)
        if (j->io.release) j->io.release(j->io.ctx, j->map[k], j->map_len[k]);
    memset(j, 0, sizeof *j);
}
