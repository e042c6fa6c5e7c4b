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
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error.h"
#include "container/file_ops.h"
#include "container/format.h"
#include "container/lock.h"
#include "payload/digest.h"
#include "payload/payload.h"

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
    /* The plan (plan_edit) the writes (write_edit) carry out. */
    blvl_header nh;    /* the header after the commit */
    uint64_t pay_at;   /* where the payload goes: the 64-aligned end of the file */
    uint64_t new_size; /* the file's length after the edit */
    uint64_t t_off;    /* where the new table goes */
    uint64_t tsize;    /* its length */
    uint64_t w_from;   /* first byte of the new table that has to be written */
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
    blvl_status st = blvl__container_header_decode(head, &s->h, err);
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
        return blvl__nomem(err, "the reserved region");
    if (o->pread(o->user, s->region, (size_t)s->h.floor, 0) != 0)
        return blvl__fail(err, BLVL_E_IO, "cannot read the reserved region");
    st = blvl__container_table_load(&s->h, s->region + s->h.table_offset, s->size, s->old_entries,
                                    s->scratch, err);
    if (st != BLVL_OK)
        return st;
    return blvl__container_budget_check(s->old_entries, s->h.count,
                                        blvl__container_covered(&s->h, s->old_entries), err);
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

/* What can be refused from the request alone, before the file is opened. */
static blvl_status check_request(const edit_req *rq, blvl_error *err) {
    bool core = false;
    if (!rq->tag || strnlen(rq->tag, BLVL_TAG_MAX + 1) > BLVL_TAG_MAX ||
        !blvl_tag_valid(rq->tag, &core))
        return blvl__fail(err, BLVL_E_WRITE_TAG, "tag is not 1..16 bytes of [a-z0-9._-]");
    /* The container knows no list of core sections, only the format's rule: a tag without a
     * dot is a core tag. Say both what that means and what a game's own tag looks like. */
    if (core)
        return blvl__fail(err, BLVL_E_IDENTITY_SECTION,
                          "'%s' has no dot, so it is a core tag: core sections are always in "
                          "identity (bake the level again to change one); a game's tag needs a "
                          "vendor prefix with a dot (game.%s)",
                          rq->tag, rq->tag);
    if (rq->put && rq->size && !rq->data)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no data for '%s'", rq->tag);
    if (rq->put && rq->size > BLVL_SECTION_RAW_MAX)
        return blvl__fail(err, BLVL_E_RAW_SIZE, "'%s': %zu raw bytes is over 2 GiB", rq->tag,
                          rq->size);
    return BLVL_OK;
}

/* The new table, in the old order: a replacement keeps its slot, an addition goes last,
 * a drop closes the gap. Packs the payload of a put. */
static blvl_status build_entries(edit_state *s, const edit_req *rq, uint32_t at,
                                 const blvl_options *opt, blvl_error *err) {
    uint32_t oc = s->h.count;
    s->new_size = s->size;
    s->pay_at = (s->size + BLVL_ALIGN - 1) / BLVL_ALIGN * BLVL_ALIGN;
    blvl_entry ne;
    memset(&ne, 0, sizeof ne);
    if (rq->put) {
        blvl_status st = blvl__payload_pack(rq->data, rq->size, opt ? opt->threads : 0, s->a, NULL,
                                            NULL, &s->payload, &s->payload_size, err);
        if (st != BLVL_OK)
            return st;
        strcpy(ne.tag, rq->tag);
        ne.offset = s->pay_at;
        ne.packed_size = s->payload_size;
        ne.raw_size = rq->size;
        ne.version = rq->version;
        ne.flags = 0;
        blvl_digest(s->payload, s->payload_size, ne.digest);
        s->new_size = s->pay_at + s->payload_size;
    }
    uint32_t nc = 0;
    for (uint32_t i = 0; i < oc; i++) {
        if (i == at) {
            if (rq->put)
                s->new_entries[nc++] = ne;
            continue;
        }
        s->new_entries[nc++] = s->old_entries[i];
    }
    if (rq->put && at == UINT32_MAX)
        s->new_entries[nc++] = ne;
    s->new_count = nc;
    return BLVL_OK;
}

/* Room: the new table must fit in the region beside the live one, and both the old level
 * (until the commit) and the new one must stay within the unreferenced-bytes limit. */
static blvl_status check_room(edit_state *s, blvl_error *err) {
    uint32_t nc = s->new_count;
    uint64_t floor = s->h.floor;
    uint32_t cap = (uint32_t)((floor - BLVL_HEADER_SIZE) / BLVL_ENTRY_SIZE);
    if (nc > cap)
        return no_room(err, "the reserved region holds no more entries", nc, cap);
    s->nh = s->h;
    s->nh.count = nc;
    uint64_t old_cov = blvl__container_covered(&s->h, s->old_entries);
    uint64_t new_cov = blvl__container_covered(&s->nh, s->new_entries);
    /* A reader would refuse the edited level at open: refuse to write it. */
    blvl_status st = blvl__container_budget_check(s->new_entries, nc, new_cov, err);
    if (st != BLVL_OK)
        return st;
    if (s->new_size - old_cov > blvl__container_unreferenced_limit(old_cov))
        return no_room(err,
                       "until the commit, the current level would carry more unreferenced bytes "
                       "than it may",
                       (unsigned long long)(s->new_size - old_cov),
                       (unsigned long long)blvl__container_unreferenced_limit(old_cov));
    if (s->new_size < new_cov ||
        s->new_size - new_cov > blvl__container_unreferenced_limit(new_cov))
        return no_room(err, "the edited level would carry more unreferenced bytes than it may",
                       (unsigned long long)(s->new_size - new_cov),
                       (unsigned long long)blvl__container_unreferenced_limit(new_cov));
    return BLVL_OK;
}

/* Encodes the new table and finds it a free run of the reserved region. */
static blvl_status place_table(edit_state *s, blvl_error *err) {
    uint32_t oc = s->h.count, nc = s->new_count;
    uint64_t floor = s->h.floor;
    uint32_t cap = (uint32_t)((floor - BLVL_HEADER_SIZE) / BLVL_ENTRY_SIZE);
    for (uint32_t i = 0; i < nc; i++)
        blvl__container_entry_encode(&s->new_entries[i], s->table + (size_t)i * BLVL_ENTRY_SIZE);
    uint64_t live_lo = s->h.table_offset, live_hi = live_lo + (uint64_t)oc * BLVL_ENTRY_SIZE;
    s->tsize = (uint64_t)nc * BLVL_ENTRY_SIZE;
    /* Grow in place when the live table is a prefix of the new one. */
    uint32_t keep = oc < nc ? oc : nc;
    int grow = memcmp(s->region + live_lo, s->table, (size_t)keep * BLVL_ENTRY_SIZE) == 0 &&
               live_lo + s->tsize <= floor;
    s->w_from = 0;
    if (grow) {
        s->t_off = live_lo;
        s->w_from = (uint64_t)keep * BLVL_ENTRY_SIZE;
    } else if (live_hi + s->tsize <= floor) {
        s->t_off = live_hi;
    } else if (BLVL_HEADER_SIZE + s->tsize <= live_lo) {
        s->t_off = BLVL_HEADER_SIZE;
    } else {
        return no_room(err,
                       "the reserved region has no free run for a new table beside the live one "
                       "(entries)",
                       nc, cap);
    }
    return BLVL_OK;
}

/* The plan: the new entries, the room for them, the new table's place and digest, all checked
 * as a reader will check them after the commit. Writes nothing. */
static blvl_status plan_edit(edit_state *s, const edit_req *rq, const blvl_options *opt,
                             blvl_error *err) {
    uint32_t at = find(s->old_entries, s->h.count, rq->tag);
    if (at != UINT32_MAX && (s->old_entries[at].flags & BLVL_ENTRY_FLAG_IDENTITY))
        return blvl__fail(err, BLVL_E_IDENTITY_SECTION,
                          "section '%s' is in identity; bake the level again to change it",
                          rq->tag);
    if (!rq->put && at == UINT32_MAX)
        return blvl__fail(err, BLVL_E_NOT_FOUND, "no section '%s'", rq->tag);
    blvl_status st;
    if ((st = build_entries(s, rq, at, opt, err)) != BLVL_OK ||
        (st = check_room(s, err)) != BLVL_OK || (st = place_table(s, err)) != BLVL_OK)
        return st;
    uint32_t nc = s->new_count;
    /* Only sections outside identity changed, so the name cannot have; checked regardless,
     * since offset 48 is never written and a mismatch would leave a level that cannot open. */
    uint8_t ident[BLVL_DIGEST_SIZE];
    blvl_compute_identity(s->new_entries, nc, ident);
    if (memcmp(ident, s->h.identity, BLVL_DIGEST_SIZE) != 0)
        return blvl__fail(err, BLVL_E_IDENTITY, "the edit would change the identity; refused");
    s->nh.table_offset = (uint32_t)s->t_off;
    blvl_compute_table_digest(s->table, nc, s->nh.floor, s->nh.table_offset, s->nh.table_digest);
    /* What a reader will check after the commit, checked before anything is written. */
    memcpy(s->scratch, s->new_entries, (size_t)nc * sizeof *s->scratch);
    return blvl__container_table_check_placement(&s->nh, s->new_entries, s->scratch, s->new_size,
                                                 err);
}

/* Step 1: the payload, with the zero padding before it, at the 64-aligned end of the file. */
static blvl_status append_payload(edit_state *s, const char *tag, blvl_error *err) {
    const blvl_file_ops *ops = s->ops;
    size_t pad = (size_t)(s->pay_at - s->size);
    uint8_t *buf = blvl__calloc(s->a, pad + s->payload_size);
    if (!buf)
        return blvl__nomem(err, "the payload");
    memcpy(buf + pad, s->payload, s->payload_size);
    int r = ops->pwrite(ops->user, buf, pad + s->payload_size, s->size);
    blvl__dealloc(s->a, buf, pad + s->payload_size);
    if (r != 0)
        return blvl__fail(err, BLVL_E_IO, "cannot append the payload of '%s'", tag);
    return BLVL_OK;
}

/* Carries out the plan, in the order the comment at the top gives. */
static blvl_status write_edit(edit_state *s, const edit_req *rq, blvl_error *err) {
    const blvl_file_ops *ops = s->ops;
    /* 1. payload (with the zero padding before it) */
    if (rq->put) {
        blvl_status st = append_payload(s, rq->tag, err);
        if (st != BLVL_OK)
            return st;
    }
    /* 2. the table */
    if (s->tsize > s->w_from &&
        ops->pwrite(ops->user, s->table + s->w_from, (size_t)(s->tsize - s->w_from),
                    s->t_off + s->w_from) != 0)
        return blvl__fail(err, BLVL_E_IO, "cannot write the new table");
    /* 3. */
    if (ops->flush(ops->user) != 0)
        return blvl__fail(err, BLVL_E_IO, "cannot flush before the commit");
    /* 4. the commit */
    uint8_t commit[BLVL_COMMIT_SIZE];
    blvl__container_commit_encode(s->nh.table_digest, s->new_count, s->nh.table_offset, commit);
    if (ops->pwrite(ops->user, commit, sizeof commit, BLVL_COMMIT_OFFSET) != 0)
        return blvl__fail(err, BLVL_E_IO, "cannot write the commit");
    /* 5. */
    if (ops->flush(ops->user) != 0)
        return blvl__fail(err, BLVL_E_IO, "cannot flush the commit");
    blvl__ok(err);
    return BLVL_OK;
}

static blvl_status edit_run(const char *path, const edit_req *rq, const blvl_options *opt,
                            blvl_error *err) {
    blvl_file_ops posix;
    int fd = -1;
    const blvl_file_ops *ops = opt ? opt->file_ops : NULL;
    blvl_status st = check_request(rq, err);
    if (st != BLVL_OK)
        return st;
    if (!ops) {
        if (!path)
            return blvl__fail(err, BLVL_E_ARGUMENT, "no path");
        /* Two edits at once would each commit a table that forgets the other's section, and
         * an in-place rewrite would replace the file under the edit (lock.h). */
        blvl_status ls =
            blvl__container_lock_open(path, O_RDWR, opt ? opt->lock_timeout_ms : 0, &fd, err);
        if (ls != BLVL_OK)
            return ls;
        blvl__container_posix_file_ops(&posix, &fd);
        ops = &posix;
    }
    edit_state s;
    memset(&s, 0, sizeof s);
    s.a = opt ? &opt->allocator : NULL;
    s.ops = ops;
    st = load(&s, err);
    if (st == BLVL_OK)
        st = plan_edit(&s, rq, opt, err);
    if (st == BLVL_OK)
        st = write_edit(&s, rq, err);
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
