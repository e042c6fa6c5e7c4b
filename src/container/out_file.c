/* The out-file rule (out_file.h): a directory refused, a device, FIFO or socket written
 * through, anything else written to a temporary name beside the file the path names (symlinks
 * followed), flushed, then renamed over it and the directory flushed. */
#include "container/out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error.h"

/* The process's umask, read without changing it (umask(2) would, for every thread at once);
 * 022 where /proc does not say. */
static mode_t current_umask(void) {
    mode_t mask = 022;
    FILE *st = fopen("/proc/self/status", "r");
    if (!st)
        return mask;
    char line[128];
    unsigned m;
    while (fgets(line, sizeof line, st))
        if (sscanf(line, "Umask: %o", &m) == 1) {
            mask = (mode_t)(m & 0777);
            break;
        }
    fclose(st);
    return mask;
}

const char *blvl__container_out_name(const blvl_out_file *f) {
    return f->tmp ? f->tmp : f->path;
}

blvl_status blvl__container_out_replaceable(const char *path, blvl_error *err) {
    struct stat sb;
    if (stat(path, &sb) != 0)
        return BLVL_OK; /* a new file (or a dangling link): open says what is wrong, if anything */
    if (S_ISDIR(sb.st_mode))
        return blvl__fail(err, BLVL_E_ARGUMENT, "output: %s is a directory, not a file", path);
    /* AT_EACCESS: the effective ids decide, as they would for open(O_WRONLY). A device or FIFO
     * is opened for writing, which checks the same. */
    if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0)
        return BLVL_OK;
    return blvl__fail(err, BLVL_E_IO,
                      "cannot replace %s: this process could not write it in place (%s)", path,
                      strerror(errno));
}

static char *dup_n(const blvl_allocator *a, const char *s, size_t n, size_t *size) {
    char *p = blvl__alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
        *size = n + 1;
    }
    return p;
}

/* f->dest: the path with every symlink of its last component followed (a relative link is
 * relative to the link's folder), even when the file at the end does not exist yet: the
 * temporary goes beside that file and the rename replaces it, so the link stays a link. */
static blvl_status follow_links(blvl_out_file *f, blvl_error *err) {
    f->dest = dup_n(f->a, f->path, strlen(f->path), &f->dest_size);
    for (int hops = 0; f->dest; hops++) {
        struct stat sb;
        if (lstat(f->dest, &sb) != 0 || !S_ISLNK(sb.st_mode))
            return BLVL_OK;
        if (hops == 40)
            return blvl__fail(err, BLVL_E_IO, "cannot follow %s: %s", f->path, strerror(ELOOP));
        char target[PATH_MAX];
        ssize_t n = readlink(f->dest, target, sizeof target);
        if (n < 0 || (size_t)n >= sizeof target)
            return blvl__fail(err, BLVL_E_IO, "cannot read the link %s: %s", f->dest,
                              n < 0 ? strerror(errno) : strerror(ENAMETOOLONG));
        const char *slash = strrchr(f->dest, '/');
        size_t keep = target[0] == '/' || !slash ? 0 : (size_t)(slash - f->dest) + 1;
        size_t size;
        char *next = blvl__alloc(f->a, keep + (size_t)n + 1);
        if (!next)
            break;
        size = keep + (size_t)n + 1;
        memcpy(next, f->dest, keep);
        memcpy(next + keep, target, (size_t)n);
        next[keep + (size_t)n] = 0;
        blvl__dealloc(f->a, f->dest, f->dest_size);
        f->dest = next;
        f->dest_size = size;
    }
    return blvl__nomem(err, "a file name");
}

static void announce(blvl_out_file *f, bool created) {
    if (f->temp_file && f->tmp)
        f->temp_file(f->temp_file_user, f->tmp, created);
}

/* Creates DEST.tmp.XXXXXX. The hook hears of the name before it exists, so no moment passes
 * in which the file exists and a signal handler does not know it. */
static blvl_status create_temporary(blvl_out_file *f, blvl_error *err) {
    static const char digits[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    size_t len = strlen(f->dest);
    f->tmp_size = len + 12;
    f->tmp = blvl__alloc(f->a, f->tmp_size);
    if (!f->tmp)
        return blvl__nomem(err, "a file name");
    for (int attempt = 0; attempt < 100; attempt++) {
        uint8_t r[6];
        if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
            /* no entropy yet (early boot): the clock and the attempt still vary the name */
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            uint64_t v =
                (uint64_t)ts.tv_nsec * 2654435761u ^ (uint64_t)getpid() << 20 ^ (uint64_t)attempt;
            for (size_t i = 0; i < sizeof r; i++, v >>= 7)
                r[i] = (uint8_t)v;
        }
        char suffix[7];
        for (size_t i = 0; i < sizeof r; i++)
            suffix[i] = digits[r[i] % (sizeof digits - 1)];
        suffix[6] = 0;
        snprintf(f->tmp, f->tmp_size, "%s.tmp.%s", f->dest, suffix);
        announce(f, true);
        f->fd = open(f->tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (f->fd >= 0)
            return BLVL_OK;
        int e = errno;
        announce(f, false);
        if (e != EEXIST) {
            blvl_status st =
                blvl__fail(err, BLVL_E_IO, "cannot create %s: %s", f->tmp, strerror(e));
            blvl__dealloc(f->a, f->tmp, f->tmp_size);
            f->tmp = NULL;
            return st;
        }
    }
    blvl_status st = blvl__fail(err, BLVL_E_IO, "cannot create %s: %s", f->tmp, strerror(EEXIST));
    blvl__dealloc(f->a, f->tmp, f->tmp_size);
    f->tmp = NULL;
    return st;
}

blvl_status blvl__container_out_open_opt(blvl_out_file *f, const char *path,
                                         const blvl_options *opt, blvl_error *err) {
    memset(f, 0, sizeof *f);
    f->fd = -1;
    f->a = opt ? &opt->allocator : NULL;
    f->path = path;
    if (opt) {
        f->temp_file = opt->temp_file;
        f->temp_file_user = opt->temp_file_user;
    }
    blvl_status st = blvl__container_out_replaceable(path, err);
    if (st != BLVL_OK)
        return st;
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        /* A device, FIFO or socket: written through. No O_CREAT (a node that went away is an
         * error, not a new file) and no O_TRUNC (a device is not truncated). */
        f->direct = true;
        f->fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (f->fd < 0)
            return blvl__fail(err, BLVL_E_IO, "cannot open %s for writing: %s", path,
                              strerror(errno));
        f->seekable = lseek(f->fd, 0, SEEK_CUR) >= 0;
        return BLVL_OK;
    }
    if ((st = follow_links(f, err)) != BLVL_OK) {
        blvl__container_out_abort(f);
        return st;
    }
    /* A new file gets what creat(2) would give it; the temporary alone would be 0600. Keep the
     * permissions of the file being replaced, not its setuid, setgid and sticky bits: the new
     * file belongs to whoever writes it (and keeps the old owner only where that is allowed). */
    f->mode = (int)(0666 & ~current_umask());
    bool replacing = stat(f->dest, &sb) == 0 && S_ISREG(sb.st_mode);
    if (replacing)
        f->mode = (int)(sb.st_mode & 0777);
    if ((st = create_temporary(f, err)) != BLVL_OK) {
        blvl__container_out_abort(f);
        return st;
    }
    f->seekable = true;
    /* Owner first: a chown may clear mode bits. EPERM (not root, or a group the process is not
     * in) leaves the writer's owner, as any new file would have. */
    if (replacing && (sb.st_uid != geteuid() || sb.st_gid != getegid()) &&
        fchown(f->fd, sb.st_uid, sb.st_gid) != 0 && errno != EPERM) {
        st = blvl__fail(err, BLVL_E_IO, "cannot chown %s: %s", f->tmp, strerror(errno));
        blvl__container_out_abort(f);
        return st;
    }
    if (fchmod(f->fd, (mode_t)f->mode) != 0) {
        st = blvl__fail(err, BLVL_E_IO, "cannot chmod %s: %s", f->tmp, strerror(errno));
        blvl__container_out_abort(f);
        return st;
    }
    return BLVL_OK;
}

blvl_status blvl__container_out_open(blvl_out_file *f, const char *path, const blvl_allocator *a,
                                     blvl_error *err) {
    blvl_options opt = {0};
    if (a)
        opt.allocator = *a;
    blvl_status st = blvl__container_out_open_opt(f, path, a ? &opt : NULL, err);
    f->a = a; /* the caller's, which outlives this frame */
    return st;
}

blvl_status blvl__container_out_write(blvl_out_file *f, const void *data, size_t len,
                                      blvl_error *err) {
    const uint8_t *p = data;
    while (len) {
        ssize_t w = write(f->fd, p, len > (1u << 30) ? (1u << 30) : len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return blvl__fail(err, BLVL_E_IO, "cannot write %s: %s", blvl__container_out_name(f),
                              w < 0 ? strerror(errno) : "no progress");
        p += w;
        len -= (size_t)w;
    }
    return BLVL_OK;
}

blvl_status blvl__container_out_pwrite(blvl_out_file *f, const void *data, size_t len, uint64_t off,
                                       blvl_error *err) {
    if (!f->seekable)
        return blvl__fail(err, BLVL_E_IO, "cannot write %s at an offset: it is not seekable",
                          blvl__container_out_name(f));
    const uint8_t *p = data;
    while (len) {
        ssize_t w = pwrite(f->fd, p, len > (1u << 30) ? (1u << 30) : len, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return blvl__fail(err, BLVL_E_IO, "cannot write %s: %s", blvl__container_out_name(f),
                              w < 0 ? strerror(errno) : "no progress");
        p += w;
        off += (uint64_t)w;
        len -= (size_t)w;
    }
    return BLVL_OK;
}

blvl_status blvl__container_out_pad(blvl_out_file *f, uint64_t *at, uint64_t pos, blvl_error *err) {
    static const uint8_t zeros[64];
    while (*at < pos) {
        size_t k = pos - *at > sizeof zeros ? sizeof zeros : (size_t)(pos - *at);
        blvl_status st = blvl__container_out_write(f, zeros, k, err);
        if (st != BLVL_OK)
            return st;
        *at += k;
    }
    return BLVL_OK;
}

blvl_status blvl__container_out_sync(blvl_out_file *f, blvl_error *err) {
    if (fsync(f->fd) == 0 || (f->direct && (errno == EINVAL || errno == EROFS)))
        return BLVL_OK; /* a device or pipe written through has nothing to flush */
    return blvl__fail(err, BLVL_E_IO, "cannot flush %s: %s", blvl__container_out_name(f),
                      strerror(errno));
}

static void free_names(blvl_out_file *f) {
    if (f->tmp)
        blvl__dealloc(f->a, f->tmp, f->tmp_size);
    if (f->dest)
        blvl__dealloc(f->a, f->dest, f->dest_size);
    f->tmp = f->dest = NULL;
}

blvl_status blvl__container_out_commit(blvl_out_file *f, blvl_error *err) {
    blvl_status st = blvl__container_out_sync(f, err);
    if (st != BLVL_OK) {
        blvl__container_out_abort(f);
        return st;
    }
    int fd = f->fd;
    f->fd = -1;
    if (close(fd) != 0) {
        st = blvl__fail(err, BLVL_E_IO, "cannot close %s: %s", blvl__container_out_name(f),
                        strerror(errno));
        blvl__container_out_abort(f);
        return st;
    }
    if (f->direct)
        return BLVL_OK;
    if (rename(f->tmp, f->dest) != 0) {
        st = blvl__fail(err, BLVL_E_IO, "cannot rename %s to %s: %s", f->tmp, f->dest,
                        strerror(errno));
        blvl__container_out_abort(f);
        return st;
    }
    announce(f, false);
    /* The rename itself is durable once the directory is flushed. */
    char *slash = strrchr(f->dest, '/');
    if (slash)
        *(slash == f->dest ? slash + 1 : slash) = 0;
    int dfd = open(slash ? f->dest : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    free_names(f);
    return BLVL_OK;
}

void blvl__container_out_abort(blvl_out_file *f) {
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
    if (f->tmp) {
        unlink(f->tmp);
        announce(f, false);
    }
    free_names(f);
}

BLVL_API blvl_status blvl_file_write(const char *path, const void *data, size_t size,
                                     const blvl_options *opt, blvl_error *err) {
    if (!path || !*path || (size && !data))
        return blvl__fail(err, BLVL_E_ARGUMENT, "no path or no data");
    blvl_out_file f;
    blvl_status st = blvl__container_out_open_opt(&f, path, opt, err);
    if (st == BLVL_OK)
        st = blvl__container_out_write(&f, data, size, err);
    if (st == BLVL_OK)
        st = blvl__container_out_commit(&f, err); /* aborts by itself on failure */
    else
        blvl__container_out_abort(&f);
    if (st == BLVL_OK)
        blvl__ok(err);
    return st;
}
