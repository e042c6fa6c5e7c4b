#include "container/target.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error.h"

/* Memory grows in blocks, never by copying: joining them at commit costs the level once. */
#define BLOCK_MIN (64u << 10)
#define BLOCK_MAX (4u << 20)

struct blvl_mem_block {
    blvl_mem_block *next;
    size_t cap, len;
    uint8_t data[];
};

blvl_status blvl__container_target_file(blvl_target *t, const char *path, const blvl_allocator *a,
                                        const blvl_options *opt, blvl_error *err) {
    memset(t, 0, sizeof *t);
    t->kind = BLVL_TARGET_FILE;
    t->a = a;
    t->file.fd = -1;
    t->spool_fd = -1;
    blvl_options o = {0};
    if (opt)
        o = *opt;
    if (a)
        o.allocator = *a;
    blvl_status st = blvl__container_out_open_opt(&t->file, path, &o, err);
    t->file.a = a; /* the caller's, which outlives this frame */
    if (st != BLVL_OK || t->file.seekable)
        return st;
    /* A pipe or terminal: the header comes last, so the payload waits in a file that has no
     * name (nothing to leave behind, whatever ends the process), else in memory. */
    const char *dir = secure_getenv("TMPDIR");
    t->spool_fd = open(dir && *dir ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    t->spool_memory = t->spool_fd < 0;
    return BLVL_OK;
}

void blvl__container_target_memory(blvl_target *t, const blvl_allocator *a) {
    memset(t, 0, sizeof *t);
    t->kind = BLVL_TARGET_MEMORY;
    t->a = a;
}

void blvl__container_target_sink(blvl_target *t, const blvl_sink *sink, const blvl_allocator *a) {
    memset(t, 0, sizeof *t);
    t->kind = BLVL_TARGET_SINK;
    t->a = a;
    t->sink = *sink;
}

static blvl_status mem_append(blvl_target *t, const uint8_t *p, size_t len, blvl_error *err) {
    while (len) {
        blvl_mem_block *b = t->last;
        if (!b || b->len == b->cap) {
            size_t cap = b ? (b->cap < BLOCK_MAX ? b->cap * 2 : BLOCK_MAX) : BLOCK_MIN;
            blvl_mem_block *nb = blvl__alloc(t->a, sizeof *nb + cap);
            if (!nb)
                return blvl__nomem(err, "the level");
            nb->next = NULL;
            nb->cap = cap;
            nb->len = 0;
            if (b)
                b->next = nb;
            else
                t->first = nb;
            t->last = b = nb;
        }
        size_t k = b->cap - b->len < len ? b->cap - b->len : len;
        memcpy(b->data + b->len, p, k);
        b->len += k;
        p += k;
        len -= k;
    }
    return BLVL_OK;
}

static blvl_status spool_write(blvl_target *t, const void *data, size_t len, blvl_error *err) {
    const uint8_t *p = data;
    while (len) {
        ssize_t w = write(t->spool_fd, p, len > (1u << 30) ? (1u << 30) : len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return blvl__fail(err, BLVL_E_IO, "cannot spool the level for %s: %s", t->file.path,
                              w < 0 ? strerror(errno) : "no progress");
        p += w;
        len -= (size_t)w;
    }
    return BLVL_OK;
}

/* A non-seekable file at commit: the region, then the spooled payload, in order. */
static blvl_status spool_drain(blvl_target *t, const uint8_t *region, uint64_t floor,
                               blvl_error *err) {
    blvl_status st = blvl__container_out_write(&t->file, region, (size_t)floor, err);
    for (blvl_mem_block *b = t->first; b && st == BLVL_OK; b = b->next)
        st = blvl__container_out_write(&t->file, b->data, b->len, err);
    if (st != BLVL_OK || t->spool_fd < 0)
        return st;
    size_t cap = 1u << 20;
    uint8_t *buf = blvl__alloc(t->a, cap);
    if (!buf)
        return blvl__nomem(err, "copying the level");
    for (off_t at = 0; st == BLVL_OK;) {
        ssize_t n = pread(t->spool_fd, buf, cap, at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            st = blvl__fail(err, BLVL_E_IO, "cannot read back the level for %s: %s", t->file.path,
                            strerror(errno));
        if (n <= 0)
            break;
        st = blvl__container_out_write(&t->file, buf, (size_t)n, err);
        at += n;
    }
    blvl__dealloc(t->a, buf, cap);
    return st;
}

static void mem_free(blvl_target *t) {
    for (blvl_mem_block *b = t->first, *next; b; b = next) {
        next = b->next;
        blvl__dealloc(t->a, b, sizeof *b + b->cap);
    }
    t->first = t->last = NULL;
}

blvl_status blvl__container_target_write(blvl_target *t, uint64_t off, const void *data, size_t len,
                                         blvl_error *err) {
    if (len == 0)
        return BLVL_OK;
    switch (t->kind) {
    case BLVL_TARGET_FILE:
        if (t->spool_memory)
            return mem_append(t, data, len, err);
        if (t->spool_fd >= 0)
            return spool_write(t, data, len, err);
        return blvl__container_out_pwrite(&t->file, data, len, off, err);
    case BLVL_TARGET_MEMORY:
        return mem_append(t, data, len, err);
    default:
        if (t->sink.write(t->sink.user, off, data, len) != 0)
            return blvl__fail(err, BLVL_E_IO, "the sink refused %zu bytes at offset %llu", len,
                              (unsigned long long)off);
        return BLVL_OK;
    }
}

blvl_status blvl__container_target_commit(blvl_target *t, const uint8_t *region, uint64_t floor,
                                          uint64_t file_size, uint8_t **out, blvl_error *err) {
    blvl_status st = BLVL_OK;
    if (out)
        *out = NULL;
    switch (t->kind) {
    case BLVL_TARGET_FILE:
        if (t->spool_memory || t->spool_fd >= 0)
            st = spool_drain(t, region, floor, err);
        else
            st = blvl__container_out_pwrite(&t->file, region, (size_t)floor, 0, err);
        if (st == BLVL_OK) {
            st = blvl__container_out_commit(&t->file,
                                            err); /* aborts the file by itself on failure */
            blvl__container_target_abort(t);      /* the spool, if any */
            return st;
        }
        break;
    case BLVL_TARGET_MEMORY: {
        if (file_size > SIZE_MAX) {
            st = blvl__nomem(err, "a level of %llu bytes does not fit in memory",
                             (unsigned long long)file_size);
            break;
        }
        /* handed to the caller, freed by blvl_free: the size rides with it */
        uint8_t *buf = blvl__alloc_sized(t->a, (size_t)file_size);
        if (!buf) {
            st = blvl__nomem(err, "a level of %llu bytes", (unsigned long long)file_size);
            break;
        }
        memcpy(buf, region, (size_t)floor);
        size_t at = (size_t)floor;
        /* Each block is freed as soon as it is copied: the peak is the level plus a block. */
        for (blvl_mem_block *b = t->first, *next; b; b = next) {
            next = b->next;
            memcpy(buf + at, b->data, b->len);
            at += b->len;
            blvl__dealloc(t->a, b, sizeof *b + b->cap);
            t->first = next;
        }
        t->last = NULL;
        *out = buf;
        return BLVL_OK;
    }
    default:
        st = blvl__container_target_write(t, 0, region, (size_t)floor, err);
        if (st == BLVL_OK)
            return BLVL_OK;
        break;
    }
    blvl__container_target_abort(t);
    return st;
}

void blvl__container_target_abort(blvl_target *t) {
    if (t->kind == BLVL_TARGET_FILE && (t->file.tmp || t->file.fd >= 0))
        blvl__container_out_abort(&t->file);
    if (t->kind == BLVL_TARGET_FILE && t->spool_fd >= 0)
        close(t->spool_fd);
    if (t->kind == BLVL_TARGET_FILE)
        t->spool_fd = -1;
    if (t->kind == BLVL_TARGET_MEMORY || t->kind == BLVL_TARGET_FILE)
        mem_free(t);
}
