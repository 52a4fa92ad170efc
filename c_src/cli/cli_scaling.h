/* `ropescope scaling`: a model config's RoPE scaling, per pair. */
#ifndef ROPE_CLI_SCALING_H
#define ROPE_CLI_SCALING_H

#include <stddef.h>

#include "scaling/config.h"

/* argv holds the flags after "scaling". Returns the exit status: 0, 1 (an
 * output error) or 2 (bad input, one line on stderr, nothing on stdout). */
int rope_cli_scaling(int argc, char **argv);

/* A config.json's text as `scaling` reads it (malloc'd, NUL after *size bytes),
 * or NULL after one line on stderr with *code the exit status. */
char *rope_cli_config_text(const char *path, size_t *size, int *code);

#endif /* ROPE_CLI_SCALING_H */
