/* `verify --checkpoint DIR` (docs/VERIFY.md, "A checkpoint"): the RoPE buffers a checkpoint
 * stores, found by reading each *.safetensors file's header alone; each buffer's bytes are read
 * on their own (no weight is read) and kept as a one-tensor safetensors file in memory, which
 * verify's readers then take as any dump. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/rope.h"
#include "jansson.h"
#include "scaling/write_model.h"
#include "verify/run.h"

/* The buffers' names (the last part of a dotted name) and the role of each. */
static int role_of(const char *name)
{
    static const char *const names[] = {"inv_freq", "cos_cached", "_cos_cached", "sin_cached",
                                        "_sin_cached"};
    static const int roles[] = {ROPE_VERIFY_INV, ROPE_VERIFY_COS, ROPE_VERIFY_COS, ROPE_VERIFY_SIN,
                                ROPE_VERIFY_SIN};
    const char *dot = strrchr(name, '.');
    const char *last = dot ? dot + 1 : name;
    for (int k = 0; k < 5; k++)
        if (strcmp(last, names[k]) == 0) return roles[k];
    return -1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

/* Reads exactly len bytes at offset: 0, or -1 (errno set; EIO for a short read). */
static int read_at(int fd, void *buf, size_t len, off_t at)
{
    size_t got = 0;
    while (got < len) {
        ssize_t k = pread(fd, (char *)buf + got, len - got, at + (off_t)got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            if (k == 0) errno = EIO;
            return -1;
        }
        got += (size_t)k;
    }
    return 0;
}

/* The header of a file holding entry e alone, its data from byte 0 (len bytes): the name
 * escaped as JSON, dtype and shape as the checkpoint wrote them (a value that is not one
 * becomes null, which the reader then refuses). malloc'd, or NULL. */
static char *one_header(const char *key, const json_t *e, size_t len)
{
    const json_t *dtype = json_object_get(e, "dtype"), *shape = json_object_get(e, "shape");
    size_t nd = json_array_size(shape), cap = 6 * strlen(key) + 64 * nd + 256;
    char *out = malloc(cap), *at = out;
    if (!out) return NULL;
    *at++ = '{';
    *at++ = '"';
    for (const unsigned char *c = (const unsigned char *)key; *c; c++) {
        if (*c == '"' || *c == '\\')
            *at++ = '\\', *at++ = (char)*c;
        else if (*c < 0x20)
            at += sprintf(at, "\\u%04x", *c);
        else
            *at++ = (char)*c;
    }
    const char *dt = json_is_string(dtype) ? json_string_value(dtype) : "";
    int ok = strlen(dt) < 16 && strspn(dt, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(dt);
    at += sprintf(at, "\": {\"dtype\": \"%s\", \"shape\": %s", ok ? dt : "?",
                  json_is_array(shape) ? "[" : "null");
    for (size_t k = 0; k < nd; k++) {
        const json_t *x = json_array_get(shape, k);
        if (json_is_number(x))
            at += sprintf(at, "%s%.17g", k ? ", " : "", json_number_value(x));
        else
            at += sprintf(at, "%snull", k ? ", " : "");
    }
    sprintf(at, "%s, \"data_offsets\": [0, %zu]}}", json_is_array(shape) ? "]" : "", len);
    return out;
}

/* One buffer's entry: its bytes read, and the tensor alone as a safetensors file (its header,
 * padded to 8 bytes so float data stays aligned, then the data). */
static int take(rope_checkpoint *cp, int fd, const char *dir, const char *file, const char *key,
                const json_t *e, double data_at, double size, char *msg)
{
    const json_t *offs = json_object_get(e, "data_offsets");
    double b = json_number_value(json_array_get(offs, 0));
    double end = json_number_value(json_array_get(offs, 1));
    if (!json_is_object(e) || json_array_size(offs) != 2 || !(b >= 0.0) || !(end >= b) ||
        b != floor(b) || end != floor(end) || data_at + end > size ||
        end - b > (double)ROPE_VERIFY_MAX_BINARY) {
        snprintf(msg, ROPE_VERIFY_MSG,
                 "'%s': tensor '%.64s': its data_offsets are not a range of the file's %.0f bytes "
                 "(or past %ld bytes)",
                 file, key, size, ROPE_VERIFY_MAX_BINARY);
        return ROPE_E_VALUE;
    }
    if (cp->n == ROPE_CHECKPOINT_MAX) {
        snprintf(msg, ROPE_VERIFY_MSG, "more than %d RoPE buffers", ROPE_CHECKPOINT_MAX);
        return ROPE_E_VALUE;
    }
    size_t len = (size_t)(end - b);
    char *head = one_header(key, e, len);
    if (!head) return ROPE_E_NOMEM;
    size_t h = strlen(head), padded = (h + 7) / 8 * 8;
    rope_checkpoint_buffer *x = &cp->b[cp->n];
    memset(x, 0, sizeof *x);
    x->bytes = malloc(8 + padded + (len ? len : 1));
    x->file = strdup(file);
    x->name = strdup(key);
    size_t lcap = strlen(dir) + strlen(file) + strlen(key) + 3;
    x->label = malloc(lcap);
    if (!x->bytes || !x->file || !x->name || !x->label) {
        free(head);
        free(x->bytes), free(x->file), free(x->name), free(x->label);
        return ROPE_E_NOMEM;
    }
    snprintf(x->label, lcap, "%s/%s:%s", dir, file, key);
    for (int k = 0; k < 8; k++) x->bytes[k] = (unsigned char)(((uint64_t)padded >> (8 * k)) & 0xff);
    memcpy(x->bytes + 8, head, h);
    memset(x->bytes + 8 + h, ' ', padded - h);
    free(head);
    x->len = 8 + padded + len;
    x->role = role_of(key);
    cp->n++;
    if (len && read_at(fd, x->bytes + 8 + padded, len, (off_t)(data_at + b)) != 0) {
        snprintf(msg, ROPE_VERIFY_MSG, "'%s': cannot read tensor '%.64s': %s", file, key,
                 strerror(errno));
        return ROPE_E_VALUE;
    }
    return ROPE_OK;
}

/* One shard: its header, then its RoPE buffers' bytes. */
static int scan_file(rope_checkpoint *cp, const char *dir, const char *file, char *msg)
{
    size_t plen = strlen(dir) + strlen(file) + 2;
    char *path = malloc(plen);
    if (!path) return ROPE_E_NOMEM;
    snprintf(path, plen, "%s/%s", dir, file);
    int fd = open(path, O_RDONLY);
    free(path);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(msg, ROPE_VERIFY_MSG, "'%s': %s", file,
                 fd < 0 ? strerror(errno) : "not a regular file");
        if (fd >= 0) close(fd);
        return ROPE_E_VALUE;
    }
    unsigned char size8[8];
    uint64_t n = 0;
    int rc = read_at(fd, size8, 8, 0) == 0 ? ROPE_OK : ROPE_E_VALUE;
    for (int k = 7; k >= 0; k--) n = (n << 8) | size8[k];
    if (rc == ROPE_OK && (n > (uint64_t)ROPE_VERIFY_MAX_HEADER || 8 + n > (uint64_t)st.st_size))
        rc = ROPE_E_VALUE;
    char *text = rc == ROPE_OK ? malloc((size_t)n + 1) : NULL;
    if (rc == ROPE_OK && (!text || read_at(fd, text, (size_t)n, 8) != 0)) rc = ROPE_E_VALUE;
    json_error_t err;
    json_t *root = rc == ROPE_OK ? json_loadb(text, (size_t)n, JSON_REJECT_DUPLICATES, &err) : NULL;
    free(text);
    if (!json_is_object(root)) {
        snprintf(msg, ROPE_VERIFY_MSG,
                 "'%s': not a safetensors file (its header of %llu bytes is %s; the limit is %ld)",
                 file, (unsigned long long)n,
                 rc != ROPE_OK ? "past the file or the limit" : "not a JSON object",
                 ROPE_VERIFY_MAX_HEADER);
        json_decref(root);
        close(fd);
        return ROPE_E_VALUE;
    }
    const char *key;
    json_t *e;
    json_object_foreach(root, key, e)
    {
        if (rc != ROPE_OK || role_of(key) < 0) continue;
        rc = take(cp, fd, dir, file, key, e, 8.0 + (double)n, (double)st.st_size, msg);
    }
    json_decref(root);
    close(fd);
    return rc;
}

int rope_checkpoint_scan(const char *dir, rope_checkpoint *cp, char *msg)
{
    memset(cp, 0, sizeof *cp);
    cp->dir = dir;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(msg, ROPE_VERIFY_MSG, "cannot open the folder: %s", strerror(errno));
        return ROPE_E_VALUE;
    }
    char **files = NULL;
    int n = 0, cap = 0, rc = ROPE_OK;
    struct dirent *de;
    while (rc == ROPE_OK && (de = readdir(d)) != NULL) {
        if (!ends_with(de->d_name, ".safetensors")) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            char **more = realloc(files, (size_t)cap * sizeof *files);
            if (!more) {
                rc = ROPE_E_NOMEM;
                break;
            }
            files = more;
        }
        if ((files[n] = strdup(de->d_name)) == NULL)
            rc = ROPE_E_NOMEM;
        else
            n++;
    }
    closedir(d);
    if (rc == ROPE_OK && n == 0) {
        snprintf(msg, ROPE_VERIFY_MSG, "no *.safetensors file in it");
        rc = ROPE_E_VALUE;
    }
    if (n) qsort(files, (size_t)n, sizeof *files, by_name);
    cp->b = rc == ROPE_OK ? malloc(ROPE_CHECKPOINT_MAX * sizeof *cp->b) : NULL;
    if (rc == ROPE_OK && !cp->b) rc = ROPE_E_NOMEM;
    for (int k = 0; k < n && rc == ROPE_OK; k++) rc = scan_file(cp, dir, files[k], msg);
    cp->files = n;
    for (int k = 0; k < n; k++) free(files[k]);
    free(files);
    if (rc == ROPE_E_NOMEM) snprintf(msg, ROPE_VERIFY_MSG, "out of memory reading the folder");
    return rc;
}

/* The buffers' bytes, by label, for a run (they stay the checkpoint's). */
static int read_buffer(void *ctx, const char *name, unsigned char **buf, size_t *len, char *msg)
{
    const rope_checkpoint *cp = ctx;
    for (int k = 0; k < cp->n; k++)
        if (strcmp(cp->b[k].label, name) == 0) {
            *buf = cp->b[k].bytes;
            *len = cp->b[k].len;
            return ROPE_OK;
        }
    snprintf(msg, ROPE_VERIFY_MSG, "no such buffer");
    return ROPE_E_VALUE;
}

/* The part of a name before its last dot: a cos and a sin of one module share it. */
static size_t prefix_len(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? (size_t)(dot - name) : 0;
}

/* The sin beside cos buffer c (the same module, in any file), or -1. */
static int sin_of(const rope_checkpoint *cp, int c)
{
    size_t p = prefix_len(cp->b[c].name);
    for (int k = 0; k < cp->n; k++)
        if (cp->b[k].role == ROPE_VERIFY_SIN && prefix_len(cp->b[k].name) == p &&
            strncmp(cp->b[k].name, cp->b[c].name, p) == 0)
            return k;
    return -1;
}

/* One line's run: verify's steps on the buffer(s), its result kept. */
static int check_line(rope_checkpoint *cp, rope_checkpoint_line *l, const char *name,
                      const char *text, size_t len, const char *apply, const char *profile,
                      char *msg)
{
    rope_verify_io io = {read_buffer, NULL, cp};
    rope_verify_job j;
    const char *names[ROPE_VERIFY_ROLES] = {NULL};
    names[l->second < 0 ? ROPE_VERIFY_INV : ROPE_VERIFY_COS] = cp->b[l->first].label;
    if (l->second >= 0) names[ROPE_VERIFY_SIN] = cp->b[l->second].label;
    int code = rope_verify_start(&j, &io, 0);
    j.flag_as = "--checkpoint";
    if (code == ROPE_VERIFY_GOOD) code = rope_verify_options(&j, apply, profile);
    if (code == ROPE_VERIFY_GOOD) code = rope_verify_load(&j, names);
    if (code == ROPE_VERIFY_GOOD) code = rope_verify_positions(&j, NULL);
    if (code == ROPE_VERIFY_GOOD)
        code = rope_verify_configure(&j, name, text, len, NULL, 0.0, NULL);
    if (code == ROPE_VERIFY_GOOD) code = rope_verify_check(&j);
    if (code == ROPE_VERIFY_GOOD || code == ROPE_VERIFY_MISMATCH) {
        const rope_scaling *s = &j.c->scaling;
        l->match = j.match;
        l->compared = j.compared;
        l->table = j.dump.cos != NULL;
        l->dtype = j.dump.dtype;
        l->worst_ratio = j.err.worst_ratio;
        l->n_over = j.err.n_over;
        l->n_values = j.err.n_values;
        l->n_diag = j.n_diag;
        memcpy(l->diag, j.diag, sizeof l->diag);
        snprintf(cp->config, sizeof cp->config,
                 "%s, rotary dim %d (%d pairs), rope_theta %.10g, attention factor %.10g",
                 rope_scaling_name(s->type), s->dim, s->dim / 2, s->base, j.af);
        /* The config is the same for every line: its warnings once, from the first. */
        for (int k = 0; cp->n_lines == 0 && k < rope_config_warning_count(j.c) && k < 16; k++)
            if ((cp->warnings[cp->n_warnings] = strdup(rope_config_warning(j.c, k))) != NULL)
                cp->n_warnings++;
    } else {
        snprintf(msg, ROPE_VERIFY_MSG, "%s", j.msg ? j.msg : "--checkpoint: out of memory");
    }
    rope_verify_end(&j);
    return code;
}

int rope_checkpoint_check(rope_checkpoint *cp, const char *name, const char *text, size_t len,
                          const char *apply, const char *profile, char *msg)
{
    cp->lines = malloc((size_t)(cp->n > 0 ? cp->n : 1) * sizeof *cp->lines);
    if (!cp->lines) {
        snprintf(msg, ROPE_VERIFY_MSG, "--checkpoint: out of memory");
        return ROPE_VERIFY_FAILED;
    }
    int all = 1;
    for (int k = 0; k < cp->n; k++) {
        const rope_checkpoint_buffer *x = &cp->b[k];
        rope_checkpoint_line *l = &cp->lines[cp->n_lines];
        memset(l, 0, sizeof *l);
        l->first = k;
        l->second = -1;
        if (x->role == ROPE_VERIFY_SIN) { /* checked with its cos; a sin alone is refused */
            int c = -1;
            for (int q = 0; q < cp->n && c < 0; q++)
                if (cp->b[q].role == ROPE_VERIFY_COS && sin_of(cp, q) == k) c = q;
            if (c >= 0) continue;
            snprintf(msg, ROPE_VERIFY_MSG,
                     "--checkpoint '%s': '%s': tensor '%.96s' has no cos_cached beside it", cp->dir,
                     x->file, x->name);
            return ROPE_VERIFY_REFUSED;
        }
        if (x->role == ROPE_VERIFY_COS && (l->second = sin_of(cp, k)) < 0) {
            snprintf(msg, ROPE_VERIFY_MSG,
                     "--checkpoint '%s': '%s': tensor '%.96s' has no sin_cached beside it", cp->dir,
                     x->file, x->name);
            return ROPE_VERIFY_REFUSED;
        }
        int code = check_line(cp, l, name, text, len, apply, profile, msg);
        if (code != ROPE_VERIFY_GOOD && code != ROPE_VERIFY_MISMATCH) return code;
        all &= l->match;
        cp->n_lines++;
    }
    return all ? ROPE_VERIFY_GOOD : ROPE_VERIFY_MISMATCH;
}

static int lines_matching(const rope_checkpoint *cp)
{
    int m = 0;
    for (int k = 0; k < cp->n_lines; k++) m += cp->lines[k].match;
    return m;
}

static void write_text(const rope_checkpoint *cp, rope_writer *w)
{
    rope_put(w, "checkpoint '%s': %d safetensors file%s, %d RoPE buffer%s\n", cp->dir, cp->files,
             cp->files == 1 ? "" : "s", cp->n, cp->n == 1 ? "" : "s");
    if (cp->n_lines == 0) {
        rope_put(w, "no stored RoPE buffer (inv_freq, cos_cached, sin_cached): nothing to check; "
                    "the model computes its table from config.json at load\nresult: match\n");
        return;
    }
    rope_put(w, "config: %s\n", cp->config);
    for (int k = 0; k < cp->n_lines; k++) {
        const rope_checkpoint_line *l = &cp->lines[k];
        const rope_checkpoint_buffer *a = &cp->b[l->first];
        rope_put(w, "%s", a->name);
        if (l->second >= 0) rope_put(w, " + %s", cp->b[l->second].name);
        rope_put(w, " (%s, %s): %s", a->file, rope_dtype_name(l->dtype),
                 l->match ? "match" : "mismatch");
        if (l->compared)
            rope_put(w, ", worst %.3g x its tolerance, %ld of %ld values over", l->worst_ratio,
                     l->n_over, l->n_values);
        for (int q = 0; q < l->n_diag; q++)
            rope_put(w, "%s%s: %s", q ? "; " : ": ", l->diag[q].code, l->diag[q].message);
        rope_put(w, "\n");
    }
    int m = lines_matching(cp);
    rope_put(w, "result: %s (%d of %d checks match)\n", m == cp->n_lines ? "match" : "mismatch", m,
             cp->n_lines);
}

static void write_json(const rope_checkpoint *cp, rope_writer *w)
{
    int m = lines_matching(cp);
    rope_put(w, "{\n  \"verdict\": \"%s\",\n  \"checkpoint\": ",
             m == cp->n_lines ? "match" : "mismatch");
    rope_put_json_text(w, cp->dir);
    rope_put(w, ",\n  \"files\": %d,\n  \"config\": ", cp->files);
    rope_put_json_text(w, cp->n_lines ? cp->config : NULL);
    rope_put(w, ",\n  \"buffers\": [");
    for (int k = 0; k < cp->n_lines; k++) {
        const rope_checkpoint_line *l = &cp->lines[k];
        rope_put(w, k ? ",\n    {\"tensor\": " : "\n    {\"tensor\": ");
        rope_put_json_text(w, cp->b[l->first].name);
        rope_put(w, ", \"sin_tensor\": ");
        rope_put_json_text(w, l->second >= 0 ? cp->b[l->second].name : NULL);
        rope_put(w, ", \"file\": ");
        rope_put_json_text(w, cp->b[l->first].file);
        rope_put(w, ", \"kind\": \"%s\", \"dtype\": \"%s\", \"verdict\": \"%s\"",
                 l->table ? "cos_sin" : "inv_freq", rope_dtype_name(l->dtype),
                 l->match ? "match" : "mismatch");
        rope_put_field(w, ", ", "worst_ratio", l->compared ? l->worst_ratio : NAN);
        rope_put_field(w, ", ", "values_over_tolerance", l->compared ? (double)l->n_over : NAN);
        rope_put(w, ", \"diagnoses\": [");
        rope_verify_put_diagnoses(w, l->diag, l->n_diag, "", ", ");
        rope_put(w, "]}");
    }
    rope_put(w, cp->n_lines ? "\n  ]\n}\n" : "]\n}\n");
}

int rope_checkpoint_write(void *ctx, char *buf, int cap, int *len)
{
    const rope_checkpoint *cp = ctx;
    rope_writer w = {buf, cap > 0 ? (size_t)cap : 0, 0};
    if (cp->json)
        write_json(cp, &w);
    else
        write_text(cp, &w);
    return rope_writer_end(&w, len);
}

void rope_checkpoint_free(rope_checkpoint *cp)
{
    for (int k = 0; k < cp->n_warnings; k++) free(cp->warnings[k]);
    free(cp->lines);
    for (int k = 0; cp->b && k < cp->n; k++) {
        free(cp->b[k].bytes);
        free(cp->b[k].file);
        free(cp->b[k].name);
        free(cp->b[k].label);
    }
    free(cp->b);
    memset(cp, 0, sizeof *cp);
}
