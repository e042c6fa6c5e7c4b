/* The default blvl_file_ops, on POSIX calls; short reads and writes and EINTR are retried. */
#include "container/file_ops.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

static int posix_pread(void *user, void *buf, size_t len, uint64_t off) {
    int fd = *(int *)user;
    uint8_t *p = buf;
    while (len) {
        ssize_t r = pread(fd, p, len, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        len -= (size_t)r;
        off += (uint64_t)r;
    }
    return 0;
}

static int posix_pwrite(void *user, const void *buf, size_t len, uint64_t off) {
    int fd = *(int *)user;
    const uint8_t *p = buf;
    while (len) {
        ssize_t w = pwrite(fd, p, len, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
        off += (uint64_t)w;
    }
    return 0;
}

static int posix_flush(void *user) {
    return fsync(*(int *)user);
}

static int posix_size(void *user, uint64_t *size) {
    struct stat sb;
    if (fstat(*(int *)user, &sb) != 0)
        return -1;
    *size = (uint64_t)sb.st_size;
    return 0;
}

void blvl__container_posix_file_ops(blvl_file_ops *ops, int *fd) {
    ops->pread = posix_pread;
    ops->pwrite = posix_pwrite;
    ops->flush = posix_flush;
    ops->size = posix_size;
    ops->user = fd;
}
