#include "container/layout.h"

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
#include "container/format.h"

blvl_status blvl__layout_check_entry(blvl_entry *entries, uint32_t i, blvl_error *err) {
    blvl_entry *e = &entries[i];
    bool core = false;
    if (!blvl_tag_valid(e->tag, &core))
        return blvl__fail(err, BLVL_E_WRITE_TAG,
                          "section %u: tag '%.16s' is not 1..16 bytes of [a-z0-9._-]", i, e->tag);
    for (uint32_t k = 0; k < i; k++)
        if (strcmp(entries[k].tag, e->tag) == 0)
            return blvl__fail(err, BLVL_E_WRITE_TAG, "tag '%s' given twice", e->tag);
    if (e->flags & ~BLVL_ENTRY_FLAG_IDENTITY)
        return blvl__fail(err, BLVL_E_ARGUMENT, "section '%s': unknown flag bits 0x%08x", e->tag,
                          e->flags);
    if (core) /* a core section is always part of the level's name */
        e->flags |= BLVL_ENTRY_FLAG_IDENTITY;
    if (e->raw_size > BLVL_SECTION_RAW_MAX)
        return blvl__fail(err, BLVL_E_RAW_SIZE, "section '%s': raw size over 2 GiB", e->tag);
    return BLVL_OK;
}

blvl_status blvl__layout_region(const blvl_entry *entries, uint32_t n, uint64_t floor,
                                const blvl_allocator *a, uint8_t **region, blvl_error *err) {
    *region = NULL;
    uint8_t *r = blvl__calloc(a, (size_t)floor);
    if (!r)
        return blvl__fail(err, BLVL_E_NOMEM, "no memory for the reserved region");
    for (uint32_t i = 0; i < n; i++)
        blvl__entry_encode(&entries[i], r + BLVL_HEADER_SIZE + (size_t)i * BLVL_ENTRY_SIZE);
    blvl_header h;
    memset(&h, 0, sizeof h);
    h.version = BLVL_CONTAINER_VERSION;
    h.floor = floor;
    h.count = n;
    h.table_offset = BLVL_HEADER_SIZE;
    /* The one call of the table digest on the writing side. */
    blvl_compute_table_digest(r + BLVL_HEADER_SIZE, n, floor, BLVL_HEADER_SIZE, h.table_digest);
    blvl_compute_identity(entries, n, h.identity);
    blvl__header_encode(&h, r);
    *region = r;
    return BLVL_OK;
}

uint64_t blvl__layout_next(uint64_t end) {
    return (end + BLVL_ALIGN - 1) / BLVL_ALIGN * BLVL_ALIGN;
}

blvl_status blvl__layout_plan(blvl_entry *entries, uint32_t n, const blvl_allocator *a,
                              uint8_t **region, uint64_t *floor_out, uint64_t *file_size,
                              blvl_error *err) {
    *region = NULL;
    uint64_t floor = blvl__floor_for(n);
    if (floor == 0)
        return blvl__fail(err, BLVL_E_ARGUMENT, "%u sections do not fit a reserved region", n);
    for (uint32_t i = 0; i < n; i++) {
        blvl_status st = blvl__layout_check_entry(entries, i, err);
        if (st != BLVL_OK)
            return st;
    }
    uint64_t at = floor;
    for (uint32_t i = 0; i < n; i++) {
        at = blvl__layout_next(at);
        entries[i].offset = at;
        at += entries[i].packed_size;
    }
    blvl_status st = blvl__layout_region(entries, n, floor, a, region, err);
    if (st != BLVL_OK)
        return st;
    *floor_out = floor;
    *file_size = at;
    return BLVL_OK;
}

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
