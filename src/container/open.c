/* Opening a level: the header and the table are read and every rule of the container is
 * checked (format.c) before anything else of the file is looked at. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error.h"
#include "common/pool.h"
#include "container/level.h"
#include "container/source.h"
#include "payload/payload.h"

typedef struct mem_src {
    const uint8_t *data;
    uint64_t size;
} mem_src;

static int mem_read(void *user, uint64_t off, void *buf, size_t len) {
    const mem_src *m = user;
    if (off > m->size || len > m->size - off)
        return -1;
    memcpy(buf, m->data + off, len);
    return 0;
}

/* Reads the header and the table through `read`, validates them, and fills `lv`. */
static blvl_status load(blvl_level *lv, int (*read)(void *, uint64_t, void *, size_t), void *user,
                        const blvl_options *opt, blvl_error *err) {
    uint8_t head[BLVL_HEADER_SIZE];
    if (lv->size < BLVL_HEADER_SIZE)
        return blvl__fail(err, BLVL_E_TRUNCATED, "file of %llu bytes ends inside the header",
                          (unsigned long long)lv->size);
    if (read(user, 0, head, sizeof head) != 0)
        return blvl__container_source_failed(lv, err, "could not read the header");
    blvl_status st = blvl__container_header_decode(head, &lv->hdr, err);
    if (st != BLVL_OK)
        return st;
    if (lv->size < lv->hdr.floor)
        return blvl__fail(err, BLVL_E_TRUNCATED,
                          "file of %llu bytes ends inside the reserved region (floor %llu)",
                          (unsigned long long)lv->size, (unsigned long long)lv->hdr.floor);
    uint32_t n = lv->hdr.count;
    size_t tsize = (size_t)n * BLVL_ENTRY_SIZE;
    uint8_t *table = blvl__alloc(lv->a, tsize);
    blvl_entry *scratch = blvl__alloc(lv->a, (n ? n : 1) * sizeof *scratch);
    lv->entries = blvl__alloc(lv->a, (n ? n : 1) * sizeof *lv->entries);
    if (!table || !scratch || !lv->entries) {
        st = blvl__nomem(err, "a table of %u entries", n);
        goto out;
    }
    if (n && read(user, lv->hdr.table_offset, table, tsize) != 0) {
        st = blvl__container_source_failed(lv, err, "could not read the table");
        goto out;
    }
    st = blvl__container_table_load(&lv->hdr, table, lv->size, lv->entries, scratch, err);
    /* The inflation budget is a property of the file, checked once, here: every read after
     * this only checks that each chunk inflates to its declared size. */
    if (st == BLVL_OK)
        st = blvl__container_budget_check_limit(lv->entries, n,
                                                blvl__container_covered(&lv->hdr, lv->entries),
                                                opt ? opt->inflate_budget : 0, err);
out:
    blvl__dealloc(lv->a, table, tsize);
    blvl__dealloc(lv->a, scratch, (n ? n : 1) * sizeof *scratch);
    if (st != BLVL_OK)
        return st;
    blvl_info *i = &lv->info;
    i->file_size = lv->size;
    i->floor = lv->hdr.floor;
    i->table_offset = lv->hdr.table_offset;
    i->count = n;
    i->capacity = (uint32_t)((lv->hdr.floor - BLVL_HEADER_SIZE) / BLVL_ENTRY_SIZE);
    i->covered = blvl__container_covered(&lv->hdr, lv->entries);
    i->unreferenced = lv->size - i->covered;
    memcpy(i->identity, lv->hdr.identity, BLVL_DIGEST_SIZE);
    memcpy(i->table_digest, lv->hdr.table_digest, BLVL_DIGEST_SIZE);
    return BLVL_OK;
}

static blvl_level *level_new(const blvl_options *opt) {
    blvl_level *lv = blvl__calloc(opt ? &opt->allocator : NULL, sizeof *lv);
    if (!lv)
        return NULL;
    if (opt)
        lv->opt = *opt;
    lv->a = &lv->opt.allocator;
    lv->threads = blvl__threads(lv->opt.threads);
    return lv;
}

blvl_status blvl_open_memory(blvl_level **out, const void *data, size_t size,
                             const blvl_options *opt, blvl_error *err) {
    if (!out || (!data && size))
        return blvl__fail(err, BLVL_E_ARGUMENT, "no output or no data");
    *out = NULL;
    blvl_level *lv = level_new(opt);
    if (!lv)
        return blvl__nomem(err, "a level");
    lv->base = data;
    lv->size = size;
    mem_src m = {data, size};
    blvl_status st = load(lv, mem_read, &m, opt, err);
    if (st != BLVL_OK) {
        blvl_close(lv);
        return st;
    }
    *out = lv;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl__container_open_fd(blvl_level **out, int fd, const char *path,
                                    const blvl_options *opt, blvl_error *err) {
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))
        return blvl__fail(err, BLVL_E_IO, "%s is not a regular file", path);
    if ((uint64_t)sb.st_size < BLVL_HEADER_SIZE)
        return blvl__fail(err, BLVL_E_TRUNCATED, "file of %llu bytes ends inside the header",
                          (unsigned long long)sb.st_size);
    void *map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
        return blvl__fail(err, BLVL_E_IO, "cannot map %s: %s", path, strerror(errno));
    /* Fault in only what is asked for: the kernel's read-around would otherwise pull megabytes
     * around every touched page, so reading sim alone from a cold file would cost like the
     * file. The header and the largest possible table region are wanted at once; sections
     * ask for their own range when they are read (blvl__container_level_packed). Advice only:
     * errors are ignored. */
    (void)madvise(map, (size_t)sb.st_size, MADV_RANDOM);
    (void)madvise(map, (size_t)sb.st_size < BLVL_FLOOR_MAX ? (size_t)sb.st_size : BLVL_FLOOR_MAX,
                  MADV_WILLNEED);
    blvl_status st = blvl_open_memory(out, map, (size_t)sb.st_size, opt, err);
    if (st != BLVL_OK) {
        munmap(map, (size_t)sb.st_size);
        return st;
    }
    (*out)->map = map;
    return BLVL_OK;
}

blvl_status blvl_open_file(blvl_level **out, const char *path, const blvl_options *opt,
                           blvl_error *err) {
    if (!out || !path)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no output or no path");
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return blvl__fail(err, BLVL_E_IO, "cannot open %s: %s", path, strerror(errno));
    blvl_status st = blvl__container_open_fd(out, fd, path, opt, err);
    close(fd); /* the mapping stays valid */
    return st;
}

static int src_read(void *user, uint64_t off, void *buf, size_t len) {
    const blvl_source *s = user;
    if (off > s->size || len > s->size - off)
        return -1;
    return s->read(s->user, off, buf, len);
}

blvl_status blvl_open_source(blvl_level **out, const blvl_source *src, const blvl_options *opt,
                             blvl_error *err) {
    if (!out || !src || !src->read) {
        if (src && src->close)
            src->close(src->user);
        return blvl__fail(err, BLVL_E_ARGUMENT, "no output or no read callback");
    }
    *out = NULL;
    blvl_level *lv = level_new(opt);
    if (!lv) {
        if (src->close)
            src->close(src->user);
        return blvl__nomem(err, "a level");
    }
    lv->src = *src;
    lv->size = src->size;
    blvl_status st = load(lv, src_read, &lv->src, opt, err);
    if (st != BLVL_OK) {
        blvl_close(lv);
        return st;
    }
    *out = lv;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl__container_source_failed(const blvl_level *lv, blvl_error *err, const char *what) {
    if (lv->src.why) {
        blvl_error why = {0};
        lv->src.why(lv->src.user, &why);
        if (why.code != BLVL_OK) {
            why.message[sizeof why.message - 1] = 0;
            if (err)
                *err = why;
            return why.code;
        }
    }
    return blvl__fail(err, BLVL_E_IO, "%s", what);
}

void blvl_close(blvl_level *lv) {
    if (!lv)
        return;
    if (lv->src.close)
        lv->src.close(lv->src.user);
    if (lv->map)
        munmap(lv->map, (size_t)lv->size);
    const blvl_allocator *a = lv->a ? lv->a : NULL;
    blvl_allocator copy;
    if (a) { /* the hooks live inside the level being freed */
        copy = *a;
        a = &copy;
    }
    blvl__dealloc(a, lv->entries, (lv->hdr.count ? lv->hdr.count : 1) * sizeof *lv->entries);
    blvl__dealloc(a, lv, sizeof *lv);
}

void blvl_get_info(const blvl_level *lv, blvl_info *out) {
    *out = lv->info;
}

uint32_t blvl_count(const blvl_level *lv) {
    return lv->hdr.count;
}

const blvl_entry *blvl_entry_at(const blvl_level *lv, uint32_t index) {
    return index < lv->hdr.count ? &lv->entries[index] : NULL;
}

const blvl_entry *blvl_find(const blvl_level *lv, const char *tag) {
    if (!tag)
        return NULL;
    for (uint32_t i = 0; i < lv->hdr.count; i++)
        if (strncmp(lv->entries[i].tag, tag, BLVL_TAG_MAX + 1) == 0)
            return &lv->entries[i];
    return NULL;
}

const blvl_options *blvl_level_options(const blvl_level *level) {
    return level ? &level->opt : NULL;
}

const blvl_source *blvl__container_level_source(const blvl_level *level) {
    return &level->src;
}
