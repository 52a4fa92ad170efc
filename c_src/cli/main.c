/* ropescope CLI: `report` writes rope_report.json and rope_report.md; `scan`
 * prints start,rope,add CSV. Bad input exits 2 with one line on stderr; an
 * output that cannot be written exits 1 with one line naming it. */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_scaling.h"

FILE *rope_cli_out;
FILE *rope_cli_err;

static const char main_usage[] =
    "usage: ropescope <command> [flags]\n"
    "\n"
    "Measures why rotary position embedding (RoPE) encodes relative position and the\n"
    "additive sinusoidal method does not.\n"
    "\n"
    "commands:\n"
    "  report   write rope_report.json and rope_report.md for the given settings\n"
    "  scan     print the RoPE and additive scores over a range of starts as CSV\n"
    "  scaling  what a model config's RoPE scaling does to each pair (long context)\n"
    "  verify   check a dumped inv_freq or cos/sin table against a model config\n"
    "\n"
    "Run 'ropescope <command> --help' for its flags.\n";

int rope_cli_run(int argc, char **argv, FILE *out, FILE *err)
{
    rope_cli_out = out;
    rope_cli_err = err;
    if (argc < 2) {
        fputs(main_usage, err);
        return ROPE_CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return rope_cli_usage(main_usage);
    const char *command = argv[1];
    if (strcmp(command, "report") == 0) return rope_cli_report(argc - 2, argv + 2);
    if (strcmp(command, "scan") == 0) return rope_cli_scan(argc - 2, argv + 2);
    if (strcmp(command, "scaling") == 0) return rope_cli_scaling(argc - 2, argv + 2);
    if (strcmp(command, "verify") == 0) return rope_cli_verify(argc - 2, argv + 2);
    return rope_cli_fail(ROPE_CLI_EXIT_USAGE, "unknown command '%s' (try 'ropescope --help')",
                         command);
}

#ifndef ROPE_CLI_NO_MAIN
int main(int argc, char **argv)
{
    /* A closed pipe is a failed write (EPIPE) the commands report, exit 1, not
     * a silent death by SIGPIPE (exit 141). */
    signal(SIGPIPE, SIG_IGN);
    int code = rope_cli_run(argc, argv, stdout, stderr);
    /* The commands flushed and checked their output; closing can still fail. */
    if (fclose(stdout) != 0 && code == 0) {
        fprintf(stderr, "ropescope: cannot write to standard output: %s\n",
                rope_cli_write_error(errno));
        code = ROPE_CLI_EXIT_IO;
    }
    return code;
}
#endif
