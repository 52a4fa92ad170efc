/* Handing a parsed JSON config to the config reader (config.h), shared by the
 * CLI's `scaling --config` and the config fuzzer. */
#ifndef ROPE_CLI_JSON_WALK_H
#define ROPE_CLI_JSON_WALK_H

#include <cjson/cJSON.h>

#include "config.h"

/* Puts item under key (a dotted path such as "rope_scaling.factor") into c:
 * numbers, strings, booleans, null and lists of numbers as themselves, an
 * object's members one level down (depth 0 only), anything else as
 * ROPE_CONFIG_OTHER so the reader refuses it by name. Returns ROPE_OK or
 * the reader's code (its message in c), ROPE_E_NOMEM if a path cannot be made. */
int rope_cli_put_json(rope_config *c, const char *key, const cJSON *item, int depth);

#endif /* ROPE_CLI_JSON_WALK_H */
