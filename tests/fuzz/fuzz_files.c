/* libFuzzer target for what the CLI writes and reads: `report` writing its
 * pair into a private temp folder (on /dev/shm when there is one), which must
 * afterwards hold both report files or neither, and nothing else (no temp,
 * backup or marker file), and `scaling --config` on a file of fuzzed bytes.
 * The argv itself is fuzz_cli.c's (much faster, no files). */
#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"
#include "fuzz_argv.h"

static char folder[64];
static char config_path[96];
static char out_buf[1 << 16];

static void clear_folder(void)
{
    DIR *dir = opendir(folder);
    struct dirent *e;
    char path[512];
    if (!dir) return;
    while ((e = readdir(dir)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
        unlink(path);
    }
    closedir(dir);
}

static void remove_folder(void)
{
    clear_folder();
    rmdir(folder);
}

/* The folder holds both report files or neither, and nothing else. */
static void check_folder(void)
{
    DIR *dir = opendir(folder);
    struct dirent *e;
    int json = 0, md = 0;
    if (!dir) abort();
    while ((e = readdir(dir)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (strcmp(e->d_name, "rope_report.json") == 0)
            json = 1;
        else if (strcmp(e->d_name, "rope_report.md") == 0)
            md = 1;
        else
            abort(); /* a temp file, backup or marker was left behind */
    }
    closedir(dir);
    if (json != md) abort();
}

static void fix_value(const char *prev, char *token, size_t cap, uint8_t choice)
{
    (void)choice;
    if (strcmp(prev, "--out") == 0) snprintf(token, cap, "%s", folder);
    if (strcmp(prev, "--config") == 0) snprintf(token, cap, "%s", config_path);
}

/* scaling --config on the rest of the input as the file's bytes. */
static int run_config(fuzz_input *in, FILE *out, FILE *err)
{
    FILE *f = fopen(config_path, "wb");
    if (!f) abort();
    if (in->size > 0 && fwrite(in->data, 1, in->size, f) != in->size) abort();
    fclose(f);
    char *argv[] = {(char *)"ropescope",
                    (char *)"scaling",
                    (char *)"--config",
                    config_path,
                    (char *)"--format",
                    (char *)"json",
                    NULL};
    int code = rope_cli_run(6, argv, out, err);
    unlink(config_path);
    return code;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    if (folder[0] == '\0') {
        snprintf(folder, sizeof folder, "%s/ropescope-fuzz-XXXXXX",
                 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
        if (!mkdtemp(folder)) abort();
        /* Beside the folder, never in it: the folder must hold the report alone. */
        snprintf(config_path, sizeof config_path, "%s.config.json", folder);
        atexit(remove_folder);
    }
    FILE *out = fmemopen(out_buf, sizeof out_buf, "w");
    FILE *err = fopen("/dev/null", "w");
    if (!out || !err) abort();
    int code;
    if (fuzz_byte(&in) % 4 == 3) {
        code = run_config(&in, out, err);
    } else {
        fuzz_argv a;
        fuzz_make_argv(&in, &a, fix_value);
        /* scaling writes no files and takes no --out: it prints to the 64 KB buffer. */
        if (!fuzz_has(&a, "--out") && strcmp(a.argv[1], "scaling") != 0) {
            a.argv[a.argc++] = (char *)"--out";
            a.argv[a.argc++] = folder;
        }
        if (fuzz_byte(&in) & 1) clear_folder();
        code = rope_cli_run(a.argc, a.argv, out, err);
    }
    fclose(out);
    fclose(err);
    if (code < 0 || code > 2) abort();
    check_folder();
    return 0;
}
