/* Both files or neither (README.md, "Guarantees"). Everything below runs under
 * an exclusive flock on the folder, so concurrent reports take turns and any
 * temp or backup file found under the lock belongs to a run that died:
 *   1. repair: stale temps of earlier runs are removed; a backup beside the
 *      pair says an earlier run died mid-commit, and if its JSON was replaced
 *      but its Markdown was not (a split pair), the old JSON is put back;
 *   2. each text goes to its own temp file, created exclusively (a link
 *      planted at the name is never followed), written, fsync'd and closed;
 *   3. commit: each old file gets a hard-link backup (or, if absent, a "none"
 *      marker), both temps are renamed into place, then the backups go; if the
 *      second rename fails, the first file is put back;
 *   4. SIGINT, SIGTERM and SIGHUP unlink whatever temp exists and re-raise;
 *      they are held off during repair and commit. A SIGKILL anywhere leaves
 *      at most stale files and a split pair, which step 1 of the next run
 *      repairs. */
#include "cli/files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

enum { TEMP_FIRST, TEMP_SECOND, N_PENDING };

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

/* ---- Backups and repair ---- */

/* The suffix alphabet of mkstemp: a name ".<file>.<kind>.XXXXXX" is ours. */
static const char suffix_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/* Whether name is "." file "." kind "." and six suffix characters (kind NULL:
 * "." file "." and six characters, a temp file). */
static int is_ours(const char *name, const char *file, const char *kind)
{
    size_t lf = strlen(file), lk = kind ? strlen(kind) + 1 : 0;
    if (name[0] != '.' || strncmp(name + 1, file, lf) != 0 || name[1 + lf] != '.') return 0;
    const char *rest = name + 2 + lf;
    if (kind && (strncmp(rest, kind, lk - 1) != 0 || rest[lk - 1] != '.')) return 0;
    rest += lk;
    return strlen(rest) == 6 && strspn(rest, suffix_chars) == 6;
}

typedef struct {
    char backup[2][256]; /* per file: ".<file>.backup.XXXXXX" or ".<file>.none.XXXXXX", or "" */
} found_backups;

static int same_file(int dir_fd, const char *a, const char *b)
{
    struct stat sa, sb;
    return fstatat(dir_fd, a, &sa, AT_SYMLINK_NOFOLLOW) == 0 &&
           fstatat(dir_fd, b, &sb, AT_SYMLINK_NOFOLLOW) == 0 && sa.st_ino == sb.st_ino &&
           sa.st_dev == sb.st_dev;
}

/* Whether final still is what backup recorded: the very file, or absent for a "none" marker. */
static int kept(int dir_fd, const char *final, const char *backup, const char *file)
{
    if (is_ours(backup, file, "none"))
        return faccessat(dir_fd, final, F_OK, AT_SYMLINK_NOFOLLOW) != 0;
    return same_file(dir_fd, final, backup);
}

/* Puts finals[0] back as backup recorded it (then drops the backup); 0 or -1. */
static int put_back_first(int dir_fd, const char *backup, const char *const names[2])
{
    if (is_ours(backup, names[0], "none")) {
        if (unlinkat(dir_fd, names[0], 0) != 0 && errno != ENOENT) return -1;
        return unlinkat(dir_fd, backup, 0) == 0 || errno == ENOENT ? 0 : -1;
    }
    return renameat(dir_fd, backup, dir_fd, names[0]);
}

/* Step 1 of the file comment, under the lock and with signals held. The
 * second backup is dropped before the first, so a first backup without a
 * second never means a split. */
static int repair(int dir_fd, const char *const names[2])
{
    int fd = dup(dir_fd);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    found_backups b;
    struct dirent *e;
    if (!dir) {
        if (fd >= 0) close(fd);
        return -1;
    }
    memset(&b, 0, sizeof b);
    while ((e = readdir(dir)) != NULL) {
        struct stat st;
        if (e->d_name[0] != '.' || strlen(e->d_name) >= sizeof b.backup[0]) continue;
        /* Only regular files: a link planted at one of our names is left alone. */
        if (fstatat(dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        for (int j = 0; j < 2; j++) {
            if (is_ours(e->d_name, names[j], NULL))
                unlinkat(dir_fd, e->d_name, 0);
            else if (is_ours(e->d_name, names[j], "backup") || is_ours(e->d_name, names[j], "none"))
                memcpy(b.backup[j], e->d_name, strlen(e->d_name) + 1);
        }
    }
    closedir(dir);
    const char *first = b.backup[0], *second = b.backup[1];
    if (first[0] && second[0] && !kept(dir_fd, names[0], first, names[0]) &&
        kept(dir_fd, names[1], second, names[1])) {
        /* A split pair: the JSON of a run that died, beside the Markdown before it. */
        if (put_back_first(dir_fd, first, names) != 0) return -1;
        first = "";
    }
    if (second[0] && unlinkat(dir_fd, second, 0) != 0 && errno != ENOENT) return -1;
    if (first[0] && unlinkat(dir_fd, first, 0) != 0 && errno != ENOENT) return -1;
    return 0;
}

/* A backup of names[j] into out: a hard link to it, or an empty "none" marker
 * when it does not exist. link() never follows a link planted at the new name. */
static int keep_backup(int dir_fd, const char *name, char *out, size_t cap)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    unsigned long x = (unsigned long)now.tv_nsec ^ ((unsigned long)getpid() << 16);
    int absent = faccessat(dir_fd, name, F_OK, AT_SYMLINK_NOFOLLOW) != 0;
    for (int attempt = 0; attempt < 100; attempt++) {
        char suffix[7];
        for (int j = 0; j < 6; j++) {
            x = x * 6364136223846793005UL + 1442695040888963407UL;
            suffix[j] = suffix_chars[(x >> 33) % (sizeof suffix_chars - 1)];
        }
        suffix[6] = '\0';
        snprintf(out, cap, ".%s.%s.%s", name, absent ? "none" : "backup", suffix);
        int rc;
        if (absent) {
            int fd =
                openat(dir_fd, out, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
            rc = fd >= 0 ? close(fd) : -1;
        } else {
            rc = linkat(dir_fd, name, dir_fd, out, 0);
        }
        if (rc == 0) return 0;
        if (errno != EEXIST) return -1;
    }
    errno = EEXIST;
    return -1;
}

/* Step 3 of the file comment; the caller holds the lock and signals off. */
static int commit(const char *dir, int dir_fd, const char *const names[2], char *const finals[2])
{
    char backup[2][256];
    for (int j = 0; j < 2; j++)
        if (keep_backup(dir_fd, names[j], backup[j], sizeof backup[j]) != 0) {
            if (j == 1) unlinkat(dir_fd, backup[0], 0);
            return rope_cli_fail(ROPE_CLI_EXIT_IO, "--out '%s': cannot keep a backup of %s: %s",
                                 dir, names[j], strerror(errno));
        }
    for (int j = 0; j < 2; j++) {
        if (rename(pending[j], finals[j]) == 0) {
            forget(j, 0);
            continue;
        }
        int err = errno, put_back = j == 0 ? 0 : put_back_first(dir_fd, backup[0], names);
        /* Put back or never moved: the backups go. Otherwise they stay, and the
         * next run's repair puts the first file back. */
        if (put_back == 0) {
            unlinkat(dir_fd, backup[1], 0);
            if (j == 0) unlinkat(dir_fd, backup[0], 0);
        }
        return rope_cli_fail(ROPE_CLI_EXIT_IO, "--out '%s': cannot move %s into place: %s; %s", dir,
                             finals[j], strerror(err),
                             put_back == 0 ? "the folder is as it was"
                                           : "the first file could not be put back yet (the "
                                             "next report into the folder will)");
    }
    /* The second backup first: see repair(). The pair is in place and whole,
     * so a backup that will not go is a warning (exit 0), not a failed report:
     * the next report's repair removes it (docs/SPEC.md, "Report files"). */
    for (int j = 1; j >= 0; j--)
        if (unlinkat(dir_fd, backup[j], 0) != 0 && errno != ENOENT) {
            fprintf(rope_cli_err,
                    "ropescope: warning: --out '%s': the report was written, but its backup "
                    "%s/%s could not be removed (%s); the next report into the folder removes it\n",
                    dir, dir, backup[j], strerror(errno));
            fflush(rope_cli_err);
        }
    return 0;
}

/* A folder at a report's own name cannot be backed up (link() refuses
 * folders: EPERM) nor replaced: say so before anything is written. */
static int check_finals(const char *dir, int dir_fd, const char *const names[2],
                        char *const finals[2])
{
    for (int j = 0; j < 2; j++) {
        struct stat st;
        if (fstatat(dir_fd, names[j], &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
            return rope_cli_fail(ROPE_CLI_EXIT_IO,
                                 "--out '%s': %s is a folder, and the report's %s must go there; "
                                 "move or remove the folder",
                                 dir, finals[j], names[j]);
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

    const char *names[2] = {texts[0].name, texts[1].name};
    char *finals[2] = {join(dir, "", texts[0].name, ""), join(dir, "", texts[1].name, "")};
    int code = (finals[0] && finals[1])
                   ? 0
                   : rope_cli_fail(ROPE_CLI_EXIT_IO, "--out '%s': out of memory", dir);
    /* The lock first: every file of ours found under it is a dead run's. */
    int dir_fd = -1;
    if (code == 0) {
        dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dir_fd < 0 || flock(dir_fd, LOCK_EX) != 0)
            code = rope_cli_fail(ROPE_CLI_EXIT_IO, "--out '%s': cannot lock the folder: %s", dir,
                                 strerror(errno));
    }
    sigset_t old;
    if (code == 0) {
        hold(&old);
        if (repair(dir_fd, names) != 0)
            code = rope_cli_fail(ROPE_CLI_EXIT_IO,
                                 "--out '%s': cannot repair what an earlier "
                                 "report left: %s",
                                 dir, strerror(errno));
        release(&old);
    }
    if (code == 0) code = check_finals(dir, dir_fd, names, finals);
    if (code == 0) code = write_temp(dir, TEMP_FIRST, &texts[0], 0666 & ~mask);
    if (code == 0) code = write_temp(dir, TEMP_SECOND, &texts[1], 0666 & ~mask);
    if (code == 0) {
        hold(&old);
        code = commit(dir, dir_fd, names, finals);
        if (code == 0 && fsync(dir_fd) != 0 && errno != EINVAL)
            code = rope_cli_fail(ROPE_CLI_EXIT_IO, "--out '%s': cannot sync the folder: %s", dir,
                                 strerror(errno));
        release(&old);
    }
    for (int j = 0; j < N_PENDING; j++) forget(j, 1);
    if (dir_fd >= 0) close(dir_fd);
    free(finals[0]);
    free(finals[1]);
    for (int j = 0; j < N_CAUGHT; j++) sigaction(caught[j], &saved[j], NULL);
    return code;
}
