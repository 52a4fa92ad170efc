/* A config.json's text to the config reader: parsed by jansson (strict RFC 8259,
 * c_src/vendor/jansson), then walked into one rope_config_put per value. The CLI
 * and the page (through the wasm module) both call rope_config_read_json, so a
 * file gets the same verdict, in the same words, on either side (docs/SPEC.md,
 * "Config text"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jansson.h"
#include "scaling/config.h"
#include "scaling/config_internal.h"

/* A member whose name holds a dot is one plain key to transformers (an
 * attribute named "rope_scaling.rope_type", which nothing reads), not a path
 * into an object: it is not handed over, as the walker's own paths are
 * dotted. One that looks like a RoPE key is named in a warning. */
static int plain_dotted_key(rope_config *c, const char *key, const char *name)
{
    static const char *const looks[] = {"rope",     "rotary", "theta",     "head_dim",    "partial",
                                        "position", "hidden", "attention", "text_config", "layer"};
    if (strchr(name, '.') == NULL) return 0;
    for (size_t j = 0; j < sizeof looks / sizeof looks[0]; j++)
        if (strstr(name, looks[j]) != NULL) {
            rope_config_warn(c,
                             "%s%s\"%.80s\" is one key whose name holds a dot, not a path into an "
                             "object: transformers' RoPE code reads nothing from it; ignored",
                             key ? key : "", key ? ": " : "", name);
            break;
        }
    return 1;
}

/* Puts item under key: numbers, strings, booleans, null and lists of numbers as
 * themselves, an object's members one level further down to depth 2 (a nested
 * text model's per-layer-type block: text_config.rope_parameters.full_attention),
 * a list of strings entry by entry as "key.N" (layer_types), anything else as
 * ROPE_CONFIG_OTHER so the reader's rules refuse it by name. */
static int put_value(rope_config *c, const char *key, const json_t *item, int depth)
{
    if (json_is_number(item))
        return rope_config_put(c, key, ROPE_CONFIG_NUMBER, json_number_value(item), NULL, NULL, 0);
    if (json_is_string(item))
        return rope_config_put(c, key, ROPE_CONFIG_STRING, 0.0, json_string_value(item), NULL, 0);
    if (json_is_boolean(item))
        return rope_config_put(c, key, ROPE_CONFIG_BOOL, json_is_true(item) ? 1.0 : 0.0, NULL, NULL,
                               0);
    if (json_is_null(item)) return rope_config_put(c, key, ROPE_CONFIG_NULL, 0.0, NULL, NULL, 0);
    if (json_is_array(item)) {
        size_t n = json_array_size(item), j;
        int all_numbers = 1, all_strings = 1;
        const json_t *e;
        json_array_foreach(item, j, e)
        {
            all_numbers &= json_is_number(e);
            all_strings &= json_is_string(e);
        }
        if (all_numbers) {
            double *v = malloc((n > 0 ? n : 1) * sizeof(double));
            if (!v) return ROPE_E_NOMEM;
            json_array_foreach(item, j, e) v[j] = json_number_value(e);
            int rc = rope_config_put(c, key, ROPE_CONFIG_LIST, 0.0, NULL, v, (int)n);
            free(v);
            return rc;
        }
        int rc =
            rope_config_put(c, key, ROPE_CONFIG_OTHER, 0.0, "a list holding non-numbers", NULL, 0);
        if (!all_strings || depth > 1) return rc;
        json_array_foreach(item, j, e)
        {
            if (rc != ROPE_OK) break;
            size_t len = strlen(key) + 24;
            char *path = malloc(len);
            if (!path) return ROPE_E_NOMEM;
            snprintf(path, len, "%s.%zu", key, j);
            rc = rope_config_put(c, path, ROPE_CONFIG_STRING, 0.0, json_string_value(e), NULL, 0);
            free(path);
        }
        return rc;
    }
    if (!json_is_object(item) || depth > 2)
        return rope_config_put(c, key, ROPE_CONFIG_OTHER, 0.0,
                               json_is_object(item) ? "an object" : "an unknown value", NULL, 0);
    int rc = rope_config_put(c, key, ROPE_CONFIG_OBJECT, 0.0, NULL, NULL, 0);
    const char *name;
    const json_t *member;
    json_object_foreach((json_t *)item, name, member)
    {
        if (rc != ROPE_OK) break;
        if (plain_dotted_key(c, key, name)) continue;
        size_t len = strlen(key) + strlen(name) + 2;
        char *path = malloc(len);
        if (!path) return ROPE_E_NOMEM;
        snprintf(path, len, "%s.%s", key, name);
        rc = put_value(c, path, member, depth + 1);
        free(path);
    }
    return rc;
}

static const char BOM[] = "\xef\xbb\xbf";

/* jansson's phrases that name its own flags or read as jargon, in plain words. */
static const char *const plain[][2] = {
    {"end of file expected", "text after the end of the object"},
    {"duplicate object key", "a key given twice in one object"},
    {"\\u0000 is not allowed without JSON_ALLOW_NUL", "\\u0000 (a NUL character) in a string"},
    {"maximum parsing depth reached", "nested deeper than 64 levels"},
    {"invalid token", "not a JSON value"},
    {"'[' or '{' expected", "'{' expected"},
    {"unable to decode byte", "invalid UTF-8: byte"},
};

static void say_plainly(const char *text, char *out, size_t cap)
{
    for (size_t j = 0; j < sizeof plain / sizeof plain[0]; j++) {
        size_t len = strlen(plain[j][0]);
        if (strncmp(text, plain[j][0], len) == 0) {
            snprintf(out, cap, "%s%s", plain[j][1], text + len);
            return;
        }
    }
    snprintf(out, cap, "%s", text);
}

int rope_config_read_json(rope_config *c, const char *text, size_t len)
{
    if (c == NULL) return ROPE_E_NULL;
    /* Before the text is looked at: the page asks with no text when a paste is too long. */
    if (len > ROPE_CONFIG_MAX_BYTES)
        return rope_config_fail(c, ROPE_E_CONFIG,
                                "the config is over the limit of %d bytes (1 MiB)",
                                ROPE_CONFIG_MAX_BYTES);
    if (text == NULL && len > 0) return ROPE_E_NULL;
    /* A UTF-8 byte order mark (some Windows editors write one) is skipped;
     * columns in messages do not count it. */
    size_t skip = len >= 3 && memcmp(text, BOM, 3) == 0 ? 3 : 0;
    size_t blank = skip;
    while (blank < len && strchr(" \t\r\n", text[blank]) != NULL && text[blank] != '\0') blank++;
    if (blank == len)
        return rope_config_fail(c, ROPE_E_CONFIG, "the config is empty: no JSON object in it");
    /* jansson would stop at a NUL byte and blame the wrong place. */
    const char *nul = memchr(text, '\0', len);
    if (nul != NULL)
        return rope_config_fail(
            c, ROPE_E_CONFIG,
            "the config is not JSON: a NUL byte at byte %ld (JSON text holds none)",
            (long)(nul - text) + 1);
    /* A fixed seed: jansson would otherwise read the clock for its hash tables. */
    json_object_seed(0x52c6a1u);
    json_error_t err;
    json_t *root =
        json_loadb(text + skip, len - skip, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &err);
    if (root == NULL) {
        char why[JSON_ERROR_TEXT_LENGTH + 32];
        say_plainly(err.text, why, sizeof why);
        /* A top level that is no object or list: valid JSON, perhaps, but not a config. */
        const char *what =
            strncmp(err.text, "'[' or '{' expected", 19) == 0 ? "not a JSON object" : "not JSON";
        /* Line and column, not a byte count: the page's text box turns CRLF into LF, so only
         * these are the same for a file and its paste. */
        return rope_config_fail(c, ROPE_E_CONFIG, "the config is %s: %s, at line %d, column %d",
                                what, why, err.line, err.column);
    }
    int rc = ROPE_OK;
    /* jansson takes only an object or a list at the top. */
    if (!json_is_object(root)) {
        rc = rope_config_fail(c, ROPE_E_CONFIG,
                              "the config is a JSON list, not an object of config keys");
    } else {
        const char *name;
        json_t *item;
        json_object_foreach(root, name, item)
        {
            if (plain_dotted_key(c, NULL, name)) continue;
            rc = put_value(c, name, item, 0);
            if (rc != ROPE_OK) break;
        }
    }
    json_decref(root);
    return rc;
}
