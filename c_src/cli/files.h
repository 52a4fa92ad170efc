/* Writing the report's two files into one folder as a pair. */
#ifndef ROPE_CLI_FILES_H
#define ROPE_CLI_FILES_H

#include <stddef.h>

typedef struct {
    const char *name; /* file name inside the folder */
    const char *text;
    size_t len;
} rope_cli_text;

/* Writes both texts into dir (created if missing) so that afterwards either
 * both files are the new ones or both are as they were; temp files never
 * outlive the call, even on SIGINT or SIGTERM. Returns 0, or an exit code
 * after one line naming --out and the folder. */
int rope_cli_write_pair(const char *dir, const rope_cli_text texts[2]);

#endif /* ROPE_CLI_FILES_H */
