/* `ropescope scaling`: a model config's RoPE scaling, per pair. */
#ifndef ROPE_CLI_SCALING_H
#define ROPE_CLI_SCALING_H

#include "config.h"

/* argv holds the flags after "scaling". Returns the exit status: 0, 1 (an
 * output error) or 2 (bad input, one line on stderr, nothing on stdout). */
int rope_cli_scaling(int argc, char **argv);

/* Reads a config.json into c (initialised by the caller), as `scaling` does.
 * Returns 0, or 2 with one line on stderr; c->code holds a reader error. */
int rope_cli_read_config(rope_config *c, const char *path);

#endif /* ROPE_CLI_SCALING_H */
