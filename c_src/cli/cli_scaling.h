/* `ropescope scaling`: a model config's RoPE scaling, per pair. */
#ifndef ROPE_CLI_SCALING_H
#define ROPE_CLI_SCALING_H

/* argv holds the flags after "scaling". Returns the exit status: 0, 1 (an
 * output error) or 2 (bad input, one line on stderr, nothing on stdout). */
int rope_cli_scaling(int argc, char **argv);

#endif /* ROPE_CLI_SCALING_H */
