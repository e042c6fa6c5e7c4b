/* In-place edits of sections outside identity. The order of writes is the whole of the crash
 * safety argument:
 *   1. the payload (with its zero padding) at the 64-aligned end of the file;
 *   2. the new table into free space of the reserved region: the slots after the live table
 *      when the new table only adds to the end of the live one, else a whole copy where it
 *      does not overlap the live table;
 *   3. flush;
 *   4. the commit: one write of bytes 24..48 (table digest, count, table offset);
 *   5. flush.
 * Until 4 lands, every byte written is unreferenced by the live header, and the limits the
 * old level must meet are checked for the longer file up front, so the old level still opens.
 * Offset 16 (the floor) and the identity (48..64) are never written. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error.h"
#include "container/format.h"
#include "container/lock.h"
#include "payload/digest.h"
#include "payload/payload.h"

/* ---- POSIX file operations ----------------------------------------------------------------- */

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

/* ---- the edit ---------------------------------------------------------------------------- */

typedef struct edit_req {
    const char *tag;
    int put;
    uint32_t version;
    const void *data;
    size_t size;
} edit_req;

typedef struct edit_state {
    const blvl_allocator *a;
    const blvl_file_ops *ops;
    uint64_t size;
    blvl_header h;
    uint8_t *region; /* bytes 0..floor */
    blvl_entry *old_entries, *new_entries, *scratch;
    uint32_t new_count;
    uint8_t *payload;
    size_t payload_size;
    uint8_t *table; /* the new table's bytes */
} edit_state;

#define ENTRIES_ALLOC(n) (((size_t)(n) + 1) * sizeof(blvl_entry))

static void state_free(edit_state *s) {
    size_t cap = (size_t)((s->h.floor - BLVL_HEADER_SIZE) / BLVL_ENTRY_SIZE);
    blvl__dealloc(s->a, s->region, (size_t)s->h.floor);
    blvl__dealloc(s->a, s->old_entries, ENTRIES_ALLOC(s->h.count));
    blvl__dealloc(s->a, s->new_entries, ENTRIES_ALLOC(s->h.count));
    blvl__dealloc(s->a, s->scratch, ENTRIES_ALLOC(s->h.count));
    blvl__dealloc(s->a, s->payload, s->payload_size);
    blvl__dealloc(s->a, s->table, cap * BLVL_ENTRY_SIZE + 1);
}

/* Reads and validates the level as a reader would, before anything is written. */
static blvl_status load(edit_state *s, blvl_error *err) {
    const blvl_file_ops *o = s->ops;
    uint8_t head[BLVL_HEADER_SIZE];
    if (o->size(o->user, &s->size) != 0)
        return blvl__fail(err, BLVL_E_IO, "cannot find the length of the file");
    if (s->size < BLVL_HEADER_SIZE)
        return blvl__fail(err, BLVL_E_TRUNCATED, "file of %llu bytes ends inside the header",
                          (unsigned long long)s->size);
    if (o->pread(o->user, head, sizeof head, 0) != 0)
        return blvl__fail(err, BLVL_E_IO, "cannot read the header");
    blvl_status st = blvl__header_decode(head, &s->h, err);
    if (st != BLVL_OK) {
        s->h.floor = 0;
        s->h.count = 0;
        return st;
    }
    if (s->size < s->h.floor)
        return blvl__fail(err, BLVL_E_TRUNCATED,
                          "file of %llu bytes ends inside the reserved region (floor %llu)",
                          (unsigned long long)s->size, (unsigned long long)s->h.floor);
    size_t cap = (size_t)((s->h.floor - BLVL_HEADER_SIZE) / BLVL_ENTRY_SIZE);
    s->region = blvl__alloc(s->a, (size_t)s->h.floor);
    s->old_entries = blvl__alloc(s->a, ENTRIES_ALLOC(s->h.count));
    s->new_entries = blvl__alloc(s->a, ENTRIES_ALLOC(s->h.count));
    s->scratch = blvl__alloc(s->a, ENTRIES_ALLOC(s->h.count));
    s->table = blvl__alloc(s->a, cap * BLVL_ENTRY_SIZE + 1);
    if (!s->region || !s->old_entries || !s->new_entries || !s->scratch || !s->table)
        return blvl__fail(err, BLVL_E_NOMEM, "no memory for the reserved region");
    if (o->pread(o->user, s->region, (size_t)s->h.floor, 0) != 0)
        return blvl__fail(err, BLVL_E_IO, "cannot read the reserved region");
    st = blvl__table_load(&s->h, s->region + s->h.table_offset, s->size, s->old_entries, s->scratch,
                          err);
    if (st != BLVL_OK)
        return st;
    return blvl__budget_check(s->old_entries, s->h.count, blvl__covered(&s->h, s->old_entries),
                              err);
}

static uint32_t find(const blvl_entry *e, uint32_t n, const char *tag) {
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(e[i].tag, tag) == 0)
            return i;
    return UINT32_MAX;
}

static blvl_status no_room(blvl_error *err, const char *why, unsigned long long a,
                           unsigned long long b) {
    return blvl__fail(err, BLVL_E_NO_ROOM,
                      "%s (%llu, limit %llu); edit by compacting copy instead (identity kept): "
                      "blvl rewrite IN OUT --put TAG=PATH / --drop TAG",
                      why, a, b);
}

static blvl_status edit_run(const char *path, const edit_req *rq, const blvl_options *opt,
                            blvl_error *err) {
    blvl_file_ops posix = {posix_pread, posix_pwrite, posix_flush, posix_size, NULL};
    int fd = -1;
    const blvl_file_ops *ops = opt ? opt->file_ops : NULL;
    bool core = false;
    if (!rq->tag || strnlen(rq->tag, BLVL_TAG_MAX + 1) > BLVL_TAG_MAX ||
        !blvl_tag_valid(rq->tag, &core))
        return blvl__fail(err, BLVL_E_WRITE_TAG, "tag is not 1..16 bytes of [a-z0-9._-]");
    if (core)
        return blvl__fail(err, BLVL_E_IDENTITY_SECTION,
                          "'%s' is a core section, always in identity; bake the level again",
                          rq->tag);
    if (rq->put && rq->size && !rq->data)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no data for '%s'", rq->tag);
    if (rq->put && rq->size > BLVL_SECTION_RAW_MAX)
        return blvl__fail(err, BLVL_E_RAW_SIZE, "'%s': %zu raw bytes is over 2 GiB", rq->tag,
                          rq->size);
    if (!ops) {
        if (!path)
            return blvl__fail(err, BLVL_E_ARGUMENT, "no path");
        /* Two edits at once would each commit a table that forgets the other's section, and
         * an in-place rewrite would replace the file under the edit (lock.h). */
        blvl_status ls = blvl__lock_open(path, O_RDWR, opt ? opt->lock_timeout_ms : 0, &fd, err);
        if (ls != BLVL_OK)
            return ls;
        posix.user = &fd;
        ops = &posix;
    }
    edit_state s;
    memset(&s, 0, sizeof s);
    s.a = opt ? &opt->allocator : NULL;
    s.ops = ops;
    blvl_status st = load(&s, err);
    if (st != BLVL_OK)
        goto out;
    uint32_t oc = s.h.count;
    uint32_t at = find(s.old_entries, oc, rq->tag);
    if (at != UINT32_MAX && (s.old_entries[at].flags & BLVL_ENTRY_FLAG_IDENTITY)) {
        st = blvl__fail(err, BLVL_E_IDENTITY_SECTION,
                        "section '%s' is in identity; bake the level again to change it", rq->tag);
        goto out;
    }
    if (!rq->put && at == UINT32_MAX) {
        st = blvl__fail(err, BLVL_E_NOT_FOUND, "no section '%s'", rq->tag);
        goto out;
    }

    /* The new table, in the old order: a replacement keeps its slot, an addition goes last,
     * a drop closes the gap. */
    uint64_t new_size = s.size;
    uint64_t pay_at = (s.size + BLVL_ALIGN - 1) / BLVL_ALIGN * BLVL_ALIGN;
    blvl_entry ne;
    memset(&ne, 0, sizeof ne);
    if (rq->put) {
        st = blvl__payload_pack(rq->data, rq->size, opt ? opt->threads : 0, s.a, NULL, NULL,
                                &s.payload, &s.payload_size, err);
        if (st != BLVL_OK)
            goto out;
        strcpy(ne.tag, rq->tag);
        ne.offset = pay_at;
        ne.packed_size = s.payload_size;
        ne.raw_size = rq->size;
        ne.version = rq->version;
        ne.flags = 0;
        blvl_digest(s.payload, s.payload_size, ne.digest);
        new_size = pay_at + s.payload_size;
    }
    uint32_t nc = 0;
    for (uint32_t i = 0; i < oc; i++) {
        if (i == at) {
            if (rq->put)
                s.new_entries[nc++] = ne;
            continue;
        }
        s.new_entries[nc++] = s.old_entries[i];
    }
    if (rq->put && at == UINT32_MAX)
        s.new_entries[nc++] = ne;
    s.new_count = nc;

    /* Room: the new table must fit in the region beside the live one, and both the old level
     * (until the commit) and the new one must stay within the unreferenced-bytes limit. */
    uint64_t floor = s.h.floor;
    uint32_t cap = (uint32_t)((floor - BLVL_HEADER_SIZE) / BLVL_ENTRY_SIZE);
    if (nc > cap) {
        st = no_room(err, "the reserved region holds no more entries", nc, cap);
        goto out;
    }
    blvl_header nh = s.h;
    nh.count = nc;
    uint64_t old_cov = blvl__covered(&s.h, s.old_entries);
    uint64_t new_cov = blvl__covered(&nh, s.new_entries);
    /* A reader would refuse the edited level at open: refuse to write it. */
    if ((st = blvl__budget_check(s.new_entries, nc, new_cov, err)) != BLVL_OK)
        goto out;
    if (new_size - old_cov > blvl__unreferenced_limit(old_cov)) {
        st = no_room(err,
                     "until the commit, the current level would carry more unreferenced bytes "
                     "than it may",
                     (unsigned long long)(new_size - old_cov),
                     (unsigned long long)blvl__unreferenced_limit(old_cov));
        goto out;
    }
    if (new_size < new_cov || new_size - new_cov > blvl__unreferenced_limit(new_cov)) {
        st = no_room(err, "the edited level would carry more unreferenced bytes than it may",
                     (unsigned long long)(new_size - new_cov),
                     (unsigned long long)blvl__unreferenced_limit(new_cov));
        goto out;
    }
    for (uint32_t i = 0; i < nc; i++)
        blvl__entry_encode(&s.new_entries[i], s.table + (size_t)i * BLVL_ENTRY_SIZE);
    uint64_t live_lo = s.h.table_offset, live_hi = live_lo + (uint64_t)oc * BLVL_ENTRY_SIZE;
    uint64_t tsize = (uint64_t)nc * BLVL_ENTRY_SIZE;
    /* Grow in place when the live table is a prefix of the new one. */
    uint32_t keep = oc < nc ? oc : nc;
    int grow = memcmp(s.region + live_lo, s.table, (size_t)keep * BLVL_ENTRY_SIZE) == 0 &&
               live_lo + tsize <= floor;
    uint64_t t_off;
    uint64_t w_from = 0; /* first byte of the new table that has to be written */
    if (grow) {
        t_off = live_lo;
        w_from = (uint64_t)keep * BLVL_ENTRY_SIZE;
    } else if (live_hi + tsize <= floor) {
        t_off = live_hi;
    } else if (BLVL_HEADER_SIZE + tsize <= live_lo) {
        t_off = BLVL_HEADER_SIZE;
    } else {
        st = no_room(err,
                     "the reserved region has no free run for a new table beside the live one "
                     "(entries)",
                     nc, cap);
        goto out;
    }
    /* Only sections outside identity changed, so the name cannot have; checked regardless,
     * since offset 48 is never written and a mismatch would leave a level that cannot open. */
    uint8_t ident[BLVL_DIGEST_SIZE];
    blvl_compute_identity(s.new_entries, nc, ident);
    if (memcmp(ident, s.h.identity, BLVL_DIGEST_SIZE) != 0) {
        st = blvl__fail(err, BLVL_E_IDENTITY, "the edit would change the identity; refused");
        goto out;
    }
    nh.table_offset = (uint32_t)t_off;
    blvl_compute_table_digest(s.table, nc, nh.floor, nh.table_offset, nh.table_digest);
    /* What a reader will check after the commit, checked before anything is written. */
    memcpy(s.scratch, s.new_entries, (size_t)nc * sizeof *s.scratch);
    st = blvl__table_check_placement(&nh, s.new_entries, s.scratch, new_size, err);
    if (st != BLVL_OK)
        goto out;

    /* 1. payload (with the zero padding before it) */
    if (rq->put) {
        size_t pad = (size_t)(pay_at - s.size);
        uint8_t *buf = blvl__calloc(s.a, pad + s.payload_size);
        if (!buf) {
            st = blvl__fail(err, BLVL_E_NOMEM, "no memory for the payload");
            goto out;
        }
        memcpy(buf + pad, s.payload, s.payload_size);
        int r = ops->pwrite(ops->user, buf, pad + s.payload_size, s.size);
        blvl__dealloc(s.a, buf, pad + s.payload_size);
        if (r != 0) {
            st = blvl__fail(err, BLVL_E_IO, "cannot append the payload of '%s'", rq->tag);
            goto out;
        }
    }
    /* 2. the table */
    if (tsize > w_from &&
        ops->pwrite(ops->user, s.table + w_from, (size_t)(tsize - w_from), t_off + w_from) != 0) {
        st = blvl__fail(err, BLVL_E_IO, "cannot write the new table");
        goto out;
    }
    /* 3. */
    if (ops->flush(ops->user) != 0) {
        st = blvl__fail(err, BLVL_E_IO, "cannot flush before the commit");
        goto out;
    }
    /* 4. the commit */
    uint8_t commit[BLVL_COMMIT_SIZE];
    blvl__commit_encode(nh.table_digest, nc, nh.table_offset, commit);
    if (ops->pwrite(ops->user, commit, sizeof commit, BLVL_COMMIT_OFFSET) != 0) {
        st = blvl__fail(err, BLVL_E_IO, "cannot write the commit");
        goto out;
    }
    /* 5. */
    if (ops->flush(ops->user) != 0) {
        st = blvl__fail(err, BLVL_E_IO, "cannot flush the commit");
        goto out;
    }
    blvl__ok(err);
out:
    state_free(&s);
    if (fd >= 0)
        close(fd); /* releases the lock */
    return st;
}

blvl_status blvl_edit_put(const char *path, const char *tag, uint32_t version, const void *data,
                          size_t size, const blvl_options *opt, blvl_error *err) {
    edit_req rq = {tag, 1, version, data, size};
    return edit_run(path, &rq, opt, err);
}

blvl_status blvl_edit_drop(const char *path, const char *tag, const blvl_options *opt,
                           blvl_error *err) {
    edit_req rq = {tag, 0, 0, NULL, 0};
    return edit_run(path, &rq, opt, err);
}
