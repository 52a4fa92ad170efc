/* The walk from a parsed JSON config (cJSON) to the config reader's puts:
 * one rope_config_put per value, objects three levels down (a nested text
 * model's per-layer-type block: text_config.rope_parameters.full_attention.rope_type),
 * deeper ones as "other", so the reader's rules apply to every key whatever
 * the file holds. */
#include "json_walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rope.h"

int rope_cli_put_json(rope_config *c, const char *key, const cJSON *item, int depth)
{
    if (cJSON_IsNumber(item))
        return rope_config_put(c, key, ROPE_CONFIG_NUMBER, item->valuedouble, NULL, NULL, 0);
    if (cJSON_IsString(item))
        return rope_config_put(c, key, ROPE_CONFIG_STRING, 0.0, item->valuestring, NULL, 0);
    if (cJSON_IsBool(item))
        return rope_config_put(c, key, ROPE_CONFIG_BOOL, cJSON_IsTrue(item) ? 1.0 : 0.0, NULL, NULL,
                               0);
    if (cJSON_IsNull(item)) return rope_config_put(c, key, ROPE_CONFIG_NULL, 0.0, NULL, NULL, 0);
    if (cJSON_IsArray(item)) {
        int n = cJSON_GetArraySize(item), all_numbers = 1, j = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, item) all_numbers &= cJSON_IsNumber(e);
        if (!all_numbers) {
            int all_strings = 1, rc = ROPE_OK;
            cJSON_ArrayForEach(e, item) all_strings &= cJSON_IsString(e);
            rc = rope_config_put(c, key, ROPE_CONFIG_OTHER, 0.0, "a list holding non-numbers", NULL,
                                 0);
            /* A list of strings (layer_types) follows entry by entry, as "key.N". */
            cJSON_ArrayForEach(e, item)
            {
                if (rc != ROPE_OK || !all_strings || depth > 1) break;
                size_t len = strlen(key) + 24;
                char *path = malloc(len);
                if (!path) return ROPE_E_NOMEM;
                snprintf(path, len, "%s.%d", key, j++);
                rc = rope_config_put(c, path, ROPE_CONFIG_STRING, 0.0, e->valuestring, NULL, 0);
                free(path);
            }
            return rc;
        }
        double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
        if (!v) return ROPE_E_NOMEM;
        cJSON_ArrayForEach(e, item) v[j++] = e->valuedouble;
        int rc = rope_config_put(c, key, ROPE_CONFIG_LIST, 0.0, NULL, v, n);
        free(v);
        return rc;
    }
    if (!cJSON_IsObject(item) || depth > 2)
        return rope_config_put(c, key, ROPE_CONFIG_OTHER, 0.0,
                               cJSON_IsObject(item) ? "an object" : "an unknown value", NULL, 0);
    int rc = rope_config_put(c, key, ROPE_CONFIG_OBJECT, 0.0, NULL, NULL, 0);
    const cJSON *m;
    cJSON_ArrayForEach(m, item)
    {
        if (rc != ROPE_OK) break;
        size_t len = strlen(key) + strlen(m->string) + 2;
        char *path = malloc(len);
        if (!path) return ROPE_E_NOMEM;
        snprintf(path, len, "%s.%s", key, m->string);
        rc = rope_cli_put_json(c, path, m, depth + 1);
        free(path);
    }
    return rc;
}
