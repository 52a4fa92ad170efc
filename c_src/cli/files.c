/* Both files or neither (README.md, "Guarantees"):
 *   1. each text goes to its own temp file in the target folder, created
 *      exclusively by mkstemp (a link planted at the name is never followed),
 *      written, fsync'd and closed, every step checked;
 *   2. under an exclusive flock on the folder (so concurrent reports take
 *      turns), the old first file gets a hard-link backup, then both temps
 *      are renamed into place; if the second rename fails, the backup is
 *      renamed back, so the folder is as it was;
 *   3. SIGINT and SIGTERM unlink whatever temp or backup exists and re-raise;
 *      they are held off while the renames run so a pair is never split. */
#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

enum { TEMP_FIRST, TEMP_SECOND, BACKUP, N_PENDING };

/* Paths the signal handler removes; set and cleared only with signals blocked. */
static char *volatile pending[N_PENDING];
static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
#define N_CAUGHT ((int)(sizeof caught / sizeof caught[0]))
static struct sigaction saved[N_CAUGHT];

static void on_signal(int sig)
{
    for (int j = 0; j < N_PENDING; j++)
        if (pending[j]) unlink(pending[j]);
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when the handler returns: the default action ends the process */
}

/* Holds the caught signals off; release(old) restores the mask, so holds nest. */
static void hold(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (int j = 0; j < N_CAUGHT; j++) sigaddset(&set, caught[j]);
    sigprocmask(SIG_BLOCK, &set, old);
}

static void release(const sigset_t *old)
{
    sigprocmask(SIG_SETMASK, old, NULL);
}

static void forget(int slot, int remove_file)
{
    sigset_t old;
    hold(&old);
    char *path = pending[slot];
    pending[slot] = NULL;
    release(&old);
    if (path && remove_file) unlink(path);
    free(path);
}

static int make_dirs(const char *dir)
{
    char path[4096];
    size_t len = strlen(dir);
    if (len == 0 || len >= sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(path, dir, len + 1);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(path, 0777) != 0 && errno != EEXIST) return -1;
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

static char *join(const char *dir, const char *prefix, const char *name, const char *suffix)
{
    size_t cap = strlen(dir) + strlen(prefix) + strlen(name) + strlen(suffix) + 2;
    char *path = malloc(cap);
    if (path) snprintf(path, cap, "%s/%s%s%s", dir, prefix, name, suffix);
    return path;
}

/* A fresh file named from template, registered in pending[slot]; its fd or -1. */
static int create_pending(int slot, char *path)
{
    sigset_t old;
    hold(&old);
    int fd = mkstemp(path);
    if (fd >= 0) pending[slot] = path;
    release(&old);
    if (fd < 0) free(path);
    return fd;
}

static int write_all(int fd, const char *text, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        text += n;
        len -= (size_t)n;
    }
    return 0;
}

static int write_temp(const char *dir, int slot, const rope_cli_text *t, mode_t mode)
{
    char *path = join(dir, ".", t->name, ".XXXXXX");
    if (!path) return rope_cli_fail(ROPE_CLI_EXIT_IO, "--out '%s': out of memory", dir);
    int fd = create_pending(slot, path);
    if (fd < 0)
        return rope_cli_fail(ROPE_CLI_EXIT_IO, "--out '%s': cannot create a file in the folder: %s",
                             dir, strerror(errno));
    int ok = fchmod(fd, mode) == 0 && write_all(fd, t->text, t->len) == 0 && fsync(fd) == 0;
    int err = errno;
    ok = (close(fd) == 0) && ok;
    if (ok) return 0;
    return rope_cli_fail(ROPE_CLI_EXIT_IO, "--out '%s': cannot write %s: %s", dir, t->name,
                         strerror(ok ? errno : err));
}

/* A hard link to the current first file, or none when there is no such file. */
static int keep_backup(const char *dir, const char *final)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        char *path = join(dir, ".", "rope_report.backup", ".XXXXXX");
        if (!path) return -1;
        int fd = create_pending(BACKUP, path);
        if (fd < 0) return -1;
        close(fd);
        unlink(path); /* the name was only reserved: link() needs it free */
        if (link(final, path) == 0) return 0;
        int err = errno;
        forget(BACKUP, 0);
        if (err == ENOENT) return 0;
        if (err != EEXIST) {
            errno = err;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}

/* Step 2 of the file comment; the caller holds signals off. */
static int commit(const char *dir, char *const finals[2])
{
    if (keep_backup(dir, finals[0]) != 0)
        return rope_cli_fail(ROPE_CLI_EXIT_IO, "--out '%s': cannot keep a backup of %s: %s", dir,
                             finals[0], strerror(errno));
    if (rename(pending[TEMP_FIRST], finals[0]) != 0)
        return rope_cli_fail(ROPE_CLI_EXIT_IO, "--out '%s': cannot move %s into place: %s", dir,
                             finals[0], strerror(errno));
    forget(TEMP_FIRST, 0);
    if (rename(pending[TEMP_SECOND], finals[1]) != 0) {
        int err = errno;
        int put_back = pending[BACKUP] ? rename(pending[BACKUP], finals[0]) : unlink(finals[0]);
        if (put_back == 0) forget(BACKUP, 0);
        return rope_cli_fail(ROPE_CLI_EXIT_IO, "--out '%s': cannot move %s into place: %s; %s",
                             dir, finals[1], strerror(err),
                             put_back == 0 ? "the folder is as it was"
                                           : "the first file could not be put back");
    }
    return 0;
}

int rope_cli_write_pair(const char *dir, const rope_cli_text texts[2])
{
    if (make_dirs(dir) != 0)
        return rope_cli_fail(ROPE_CLI_EXIT_IO, "--out '%s': cannot create the folder: %s", dir,
                             strerror(errno));
    mode_t mask = umask(0);
    umask(mask);
    struct sigaction act;
    memset(&act, 0, sizeof act);
    act.sa_handler = on_signal;
    sigemptyset(&act.sa_mask);
    for (int j = 0; j < N_CAUGHT; j++) sigaction(caught[j], &act, &saved[j]);

    char *finals[2] = {join(dir, "", texts[0].name, ""), join(dir, "", texts[1].name, "")};
    int code = (finals[0] && finals[1]) ? 0
               : rope_cli_fail(ROPE_CLI_EXIT_IO, "--out '%s': out of memory", dir);
    if (code == 0) code = write_temp(dir, TEMP_FIRST, &texts[0], 0666 & ~mask);
    if (code == 0) code = write_temp(dir, TEMP_SECOND, &texts[1], 0666 & ~mask);
    int dir_fd = -1;
    if (code == 0) {
        dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dir_fd < 0 || flock(dir_fd, LOCK_EX) != 0)
            code = rope_cli_fail(ROPE_CLI_EXIT_IO, "--out '%s': cannot lock the folder: %s", dir,
                                 strerror(errno));
    }
    if (code == 0) {
        sigset_t old;
        hold(&old);
        code = commit(dir, finals);
        if (code == 0 && fsync(dir_fd) != 0 && errno != EINVAL)
            code = rope_cli_fail(ROPE_CLI_EXIT_IO, "--out '%s': cannot sync the folder: %s", dir,
                                 strerror(errno));
        release(&old);
    }
    if (dir_fd >= 0) close(dir_fd);
    for (int j = 0; j < N_PENDING; j++) forget(j, 1);
    free(finals[0]);
    free(finals[1]);
    for (int j = 0; j < N_CAUGHT; j++) sigaction(caught[j], &saved[j], NULL);
    return code;
}
