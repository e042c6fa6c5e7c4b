/* Writing a new file atomically (out_file.h): a temporary name beside the path, flushed, then
 * renamed over it and the directory flushed. */
#include "container/out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

blvl_status blvl__out_replaceable(const char *path, blvl_error *err) {
    /* The rename needs only a writable directory, so without this check a level could replace
     * a file its writer may not write (another owner's read-only file), where an in-place edit
     * is refused. AT_EACCESS: the effective ids decide, as they would for open(O_WRONLY). */
    if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0 || errno == ENOENT)
        return BLVL_OK;
    return blvl__fail(err, BLVL_E_IO,
                      "cannot replace %s: this process could not write it in place (%s)", path,
                      strerror(errno));
}

blvl_status blvl__out_open(blvl_out_file *f, const char *path, const blvl_allocator *a,
                           blvl_error *err) {
    f->fd = -1;
    f->a = a;
    f->path = path;
    f->tmp = NULL;
    blvl_status rst = blvl__out_replaceable(path, err);
    if (rst != BLVL_OK)
        return rst;
    /* A new file gets what creat(2) would give it; mkstemp alone would make it 0600. */
    f->mode = (int)(0666 & ~current_umask());
    struct stat sb;
    /* Keep the permissions of the file being replaced, not its setuid, setgid and sticky bits:
     * the new file belongs to whoever writes it. */
    if (stat(path, &sb) == 0)
        f->mode = (int)(sb.st_mode & 0777);
    size_t len = strlen(path);
    f->tmp_size = len + 16;
    f->tmp = blvl__alloc(a, f->tmp_size);
    if (!f->tmp)
        return blvl__fail(err, BLVL_E_NOMEM, "no memory for a file name");
    snprintf(f->tmp, len + 16, "%s.tmp.XXXXXX", path);
    f->fd = mkstemp(f->tmp);
    if (f->fd < 0) {
        blvl_status st =
            blvl__fail(err, BLVL_E_IO, "cannot create %s: %s", f->tmp, strerror(errno));
        blvl__dealloc(f->a, f->tmp, f->tmp_size);
        f->tmp = NULL;
        return st;
    }
    if (fchmod(f->fd, (mode_t)f->mode) != 0) {
        blvl_status st = blvl__fail(err, BLVL_E_IO, "cannot chmod %s: %s", f->tmp, strerror(errno));
        blvl__out_abort(f);
        return st;
    }
    return BLVL_OK;
}

blvl_status blvl__out_write(blvl_out_file *f, const void *data, size_t len, blvl_error *err) {
    const uint8_t *p = data;
    while (len) {
        ssize_t w = write(f->fd, p, len > (1u << 30) ? (1u << 30) : len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return blvl__fail(err, BLVL_E_IO, "cannot write %s: %s", f->tmp,
                              w < 0 ? strerror(errno) : "no progress");
        p += w;
        len -= (size_t)w;
    }
    return BLVL_OK;
}

blvl_status blvl__out_pwrite(blvl_out_file *f, const void *data, size_t len, uint64_t off,
                             blvl_error *err) {
    const uint8_t *p = data;
    while (len) {
        ssize_t w = pwrite(f->fd, p, len > (1u << 30) ? (1u << 30) : len, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return blvl__fail(err, BLVL_E_IO, "cannot write %s: %s", f->tmp,
                              w < 0 ? strerror(errno) : "no progress");
        p += w;
        off += (uint64_t)w;
        len -= (size_t)w;
    }
    return BLVL_OK;
}

blvl_status blvl__out_pad(blvl_out_file *f, uint64_t *at, uint64_t pos, blvl_error *err) {
    static const uint8_t zeros[64];
    while (*at < pos) {
        size_t k = pos - *at > sizeof zeros ? sizeof zeros : (size_t)(pos - *at);
        blvl_status st = blvl__out_write(f, zeros, k, err);
        if (st != BLVL_OK)
            return st;
        *at += k;
    }
    return BLVL_OK;
}

blvl_status blvl__out_commit(blvl_out_file *f, blvl_error *err) {
    if (fsync(f->fd) != 0) {
        blvl_status st = blvl__fail(err, BLVL_E_IO, "cannot flush %s: %s", f->tmp, strerror(errno));
        blvl__out_abort(f);
        return st;
    }
    if (close(f->fd) != 0) {
        f->fd = -1;
        blvl_status st = blvl__fail(err, BLVL_E_IO, "cannot close %s: %s", f->tmp, strerror(errno));
        blvl__out_abort(f);
        return st;
    }
    f->fd = -1;
    if (rename(f->tmp, f->path) != 0) {
        blvl_status st = blvl__fail(err, BLVL_E_IO, "cannot rename %s to %s: %s", f->tmp, f->path,
                                    strerror(errno));
        blvl__out_abort(f);
        return st;
    }
    /* The rename itself is durable once the directory is flushed. */
    char *dir = blvl__strdup(f->a, f->path);
    if (dir) {
        int dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
        blvl__free_sized(f->a, dir);
    }
    blvl__dealloc(f->a, f->tmp, f->tmp_size);
    f->tmp = NULL;
    return BLVL_OK;
}

void blvl__out_abort(blvl_out_file *f) {
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
    if (f->tmp) {
        unlink(f->tmp);
        blvl__dealloc(f->a, f->tmp, f->tmp_size);
        f->tmp = NULL;
    }
}
