/* The compacting copy: every kept section's packed bytes are copied verbatim, after their
 * digest and chunk index are checked, into a freshly laid out level. Nothing is decoded, so a
 * section this library does not understand survives with its tag, flags and version, and the
 * identity is the same whenever every identity section is kept. The copy may also add or
 * replace sections outside identity: the way out when an in-place edit has no room. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error.h"
#include "container/format.h"
#include "container/layout.h"
#include "container/out_file.h"
#include "container/level.h"
#include "container/lock.h"
#include "payload/digest.h"
#include "payload/pack.h"

/* Checks a section handed to `put`: a valid tag, outside identity, given once. */
static blvl_status check_put(const blvl_section_in *put, size_t i, blvl_error *err) {
    const blvl_section_in *s = &put[i];
    bool core = false;
    if (!s->tag || strnlen(s->tag, BLVL_TAG_MAX + 1) > BLVL_TAG_MAX ||
        !blvl_tag_valid(s->tag, &core))
        return blvl__fail(err, BLVL_E_WRITE_TAG, "put %zu: tag is not 1..16 bytes of [a-z0-9._-]",
                          i);
    if (core)
        return blvl__fail(err, BLVL_E_IDENTITY_SECTION,
                          "'%s' has no dot, so it is a core tag: core sections are always in "
                          "identity, and a rewrite keeps the level's name (bake the level again); "
                          "a game's tag needs a vendor prefix with a dot (game.%s)",
                          s->tag, s->tag);
    if (s->flags & BLVL_ENTRY_FLAG_IDENTITY)
        return blvl__fail(err, BLVL_E_IDENTITY_SECTION,
                          "'%s' would be in identity; a rewrite keeps the level's name, so only "
                          "sections outside identity can be put (bake the level again)",
                          s->tag);
    if (s->size && !s->data)
        return blvl__fail(err, BLVL_E_ARGUMENT, "put '%s': no data", s->tag);
    for (size_t j = 0; j < i; j++)
        if (strcmp(put[j].tag, s->tag) == 0)
            return blvl__fail(err, BLVL_E_WRITE_TAG, "put '%s' given twice", s->tag);
    return BLVL_OK;
}

/* Checks a tag handed to `drop` before the level is opened: valid, not a core tag (always in
 * identity), given once, not also put. */
static blvl_status check_drop(const char *const *drop, size_t i, const blvl_section_in *put,
                              size_t nput, blvl_error *err) {
    const char *t = drop[i];
    bool core = false;
    if (!t || strnlen(t, BLVL_TAG_MAX + 1) > BLVL_TAG_MAX || !blvl_tag_valid(t, &core))
        return blvl__fail(err, BLVL_E_WRITE_TAG, "drop %zu: tag is not 1..16 bytes of [a-z0-9._-]",
                          i);
    if (core)
        return blvl__fail(err, BLVL_E_IDENTITY_SECTION,
                          "'%s' has no dot, so it is a core tag: core sections are always in "
                          "identity, dropping one would rename the level (bake the level again); "
                          "a game's tag has a vendor prefix with a dot (game.%s)",
                          t, t);
    for (size_t j = 0; j < i; j++)
        if (strcmp(drop[j], t) == 0)
            return blvl__fail(err, BLVL_E_WRITE_TAG, "drop '%s' given twice", t);
    for (size_t j = 0; j < nput; j++)
        if (strcmp(put[j].tag, t) == 0)
            return blvl__fail(err, BLVL_E_ARGUMENT, "'%s' is both put and dropped", t);
    return BLVL_OK;
}

/* Checks `drop` against the opened level: each tag present and outside identity. */
static blvl_status check_drop_level(blvl_level *lv, const char *const *drop, size_t ndrop,
                                    blvl_error *err) {
    for (size_t i = 0; i < ndrop; i++) {
        const blvl_entry *e = blvl_find(lv, drop[i]);
        if (!e)
            return blvl__fail(err, BLVL_E_NOT_FOUND, "no section '%s' to drop", drop[i]);
        if (e->flags & BLVL_ENTRY_FLAG_IDENTITY)
            return blvl__fail(err, BLVL_E_IDENTITY_SECTION,
                              "'%s' is in identity; dropping it would rename the level (bake "
                              "the level again)",
                              e->tag);
    }
    return BLVL_OK;
}

static int dropped(const char *const *drop, size_t ndrop, const char *tag) {
    for (size_t i = 0; i < ndrop; i++)
        if (strcmp(drop[i], tag) == 0)
            return 1;
    return 0;
}

/* True when `out` names the file `in` names: the rewrite replaces its own input. */
static int same_file(const char *in, const char *out) {
    struct stat a, b;
    return stat(in, &a) == 0 && stat(out, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* The index in `put` of `tag`, or nput. */
static size_t find_put(const blvl_section_in *put, size_t nput, const char *tag) {
    size_t i = 0;
    while (i < nput && strcmp(put[i].tag, tag) != 0)
        i++;
    return i;
}

/* The entry of put[i], packed into items[i]. */
static void put_entry(const blvl_section_in *s, const blvl_pack_item *item, blvl_entry *e) {
    memset(e, 0, sizeof *e);
    strcpy(e->tag, s->tag);
    e->version = s->version;
    e->raw_size = s->size;
    e->packed_size = item->out_size;
    blvl_digest(item->out, item->out_size, e->digest);
}

/* The rules on what to put and drop, before anything is opened. */
static blvl_status check_edit(const blvl_section_in *put, size_t nput, const char *const *drop,
                              size_t ndrop, blvl_error *err) {
    blvl_status st;
    for (size_t i = 0; i < nput; i++)
        if ((st = check_put(put, i, err)) != BLVL_OK)
            return st;
    for (size_t i = 0; i < ndrop; i++)
        if ((st = check_drop(drop, i, put, nput, err)) != BLVL_OK)
            return st;
    return BLVL_OK;
}

/* The input level. Replacing the input: hold its edit lock from before the read until after the
 * rename, so an in-place edit cannot land in between and be lost (lock.h); the level is read from
 * the locked descriptor itself (*fd, closed by the caller; -1 otherwise). */
static blvl_status open_input(const char *in_path, const char *out_path, const blvl_options *opt,
                              blvl_level **lv, int *fd, blvl_error *err) {
    blvl_status st;
    *fd = -1;
    if (same_file(in_path, out_path)) {
        st = blvl__container_lock_open(in_path, O_RDONLY, opt ? opt->lock_timeout_ms : 0, fd, err);
        if (st == BLVL_OK) {
            st = blvl__container_open_fd(lv, *fd, in_path, opt, err);
            if (st != BLVL_OK) {
                close(*fd);
                *fd = -1;
            }
        }
    } else {
        st = blvl_open_file(lv, in_path, opt, err);
    }
    return st;
}

/* The output's sections, in order, and what the edit holds until it is written. */
typedef struct rewrite_plan {
    const blvl_allocator *a;
    size_t cap;
    blvl_entry *entries;
    const uint8_t **bytes; /* entries[i]'s packed bytes */
    blvl_pack_item *items; /* put[i] packed */
    uint8_t *replaced;     /* put[i] took the place of a section of the input */
    uint8_t *region;       /* header and table, floor bytes */
    uint64_t floor, file_size;
    uint32_t n;
} rewrite_plan;

static void plan_free(rewrite_plan *pl, size_t nput) {
    const blvl_allocator *a = pl->a;
    if (pl->items)
        for (size_t i = 0; i < nput; i++)
            blvl__dealloc(a, pl->items[i].out, pl->items[i].out_size);
    blvl__dealloc(a, pl->items, (nput + 1) * sizeof *pl->items);
    blvl__dealloc(a, pl->replaced, nput + 1);
    blvl__dealloc(a, pl->region, (size_t)pl->floor);
    blvl__dealloc(a, pl->entries, pl->cap * sizeof *pl->entries);
    blvl__dealloc(a, pl->bytes, pl->cap * sizeof *pl->bytes);
}

/* The input's sections that stay, in order: a dropped or refused one left out, one that is put
 * replaced in its place (never an identity section), the others' packed bytes checked as a
 * reader would check them. */
static blvl_status keep_sections(rewrite_plan *pl, blvl_level *lv, blvl_keep_fn keep,
                                 void *keep_user, const blvl_section_in *put, size_t nput,
                                 const char *const *drop, size_t ndrop, blvl_error *err) {
    const blvl_allocator *a = pl->a;
    uint32_t count = blvl_count(lv);
    for (uint32_t i = 0; i < count; i++) {
        const blvl_entry *e = blvl_entry_at(lv, i);
        if (dropped(drop, ndrop, e->tag) || (keep && !keep(keep_user, e)))
            continue;
        size_t p = find_put(put, nput, e->tag);
        if (p < nput) {
            if (e->flags & BLVL_ENTRY_FLAG_IDENTITY)
                return blvl__fail(err, BLVL_E_IDENTITY_SECTION,
                                  "'%s' is in identity; replacing it would rename the level "
                                  "(bake the level again)",
                                  e->tag);
            put_entry(&put[p], &pl->items[p], &pl->entries[pl->n]); /* replaced in its place */
            pl->bytes[pl->n++] = pl->items[p].out;
            pl->replaced[p] = 1;
            continue;
        }
        blvl_bytes packed;
        blvl_status st = blvl_read_packed(lv, e->tag, &packed, err);
        if (st != BLVL_OK)
            return st;
        /* A mapped level hands out its own bytes: nothing to free, valid until close. */
        blvl_chunk *chunks = NULL;
        uint32_t nch = 0;
        st = blvl__payload_chunks_parse(packed.data, packed.size, e->raw_size, a, &chunks, &nch,
                                        err);
        blvl__dealloc(a, chunks, (size_t)nch * sizeof *chunks);
        if (st != BLVL_OK) {
            char msg[sizeof err->message];
            if (err) {
                memcpy(msg, err->message, sizeof msg);
                blvl__fail(err, st, "section '%s': %s", e->tag, msg);
            }
            return st;
        }
        pl->entries[pl->n] = *e;
        pl->bytes[pl->n] = packed.data;
        pl->n++;
    }
    return BLVL_OK;
}

/* The header and table for the planned sections, refused where a reader would refuse the file
 * at open (the original then stays as it was). */
static blvl_status plan_layout(rewrite_plan *pl, blvl_error *err) {
    if (pl->n > UINT32_MAX)
        return blvl__fail(err, BLVL_E_ARGUMENT, "too many sections");
    blvl_status st = blvl__container_layout_plan(pl->entries, pl->n, pl->a, &pl->region, &pl->floor,
                                                 &pl->file_size, err);
    if (st != BLVL_OK)
        return st;
    uint64_t covered = pl->floor;
    for (uint32_t i = 0; i < pl->n; i++)
        covered += pl->entries[i].packed_size; /* each at most the input's length, or 2 GiB + */
    return blvl__container_budget_check(pl->entries, (uint32_t)pl->n, covered, err);
}

/* The planned file written to a temporary beside out_path and renamed over it. */
static blvl_status write_planned(const rewrite_plan *pl, const char *out_path,
                                 const blvl_options *opt, blvl_error *err) {
    blvl_out_file f;
    blvl_status st = blvl__container_out_open_opt(&f, out_path, opt, err);
    if (st != BLVL_OK)
        return st;
    uint64_t at = pl->floor;
    st = blvl__container_out_write(&f, pl->region, (size_t)pl->floor, err);
    for (uint32_t i = 0; i < pl->n && st == BLVL_OK; i++) {
        st = blvl__container_out_pad(&f, &at, pl->entries[i].offset, err);
        if (st == BLVL_OK)
            st = blvl__container_out_write(&f, pl->bytes[i], (size_t)pl->entries[i].packed_size,
                                           err);
        at += pl->entries[i].packed_size;
    }
    if (st == BLVL_OK)
        st = blvl__container_out_commit(&f, err);
    else
        blvl__container_out_abort(&f);
    return st;
}

/* The phases: the edit checked, the input opened (and locked when it is replaced), the puts
 * packed, the sections that stay and the new ones planned, the layout, the write. Every path
 * frees the plan and closes the input, the lock last. */
blvl_status blvl_rewrite_edit_file(const char *in_path, const char *out_path, blvl_keep_fn keep,
                                   void *keep_user, const blvl_section_in *put, size_t nput,
                                   const char *const *drop, size_t ndrop, const blvl_options *opt,
                                   blvl_error *err) {
    if (!in_path || !out_path || (nput && !put) || (ndrop && !drop))
        return blvl__fail(err, BLVL_E_ARGUMENT, "no input, no output or no sections to put");
    blvl_status st = check_edit(put, nput, drop, ndrop, err);
    if (st != BLVL_OK)
        return st;
    int fd;
    blvl_level *lv = NULL;
    if ((st = open_input(in_path, out_path, opt, &lv, &fd, err)) != BLVL_OK)
        return st;
    if ((st = check_drop_level(lv, drop, ndrop, err)) != BLVL_OK) {
        blvl_close(lv);
        if (fd >= 0)
            close(fd);
        return st;
    }
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    rewrite_plan pl = {a, (size_t)blvl_count(lv) + nput + 1, NULL, NULL, NULL, NULL, NULL, 0, 0, 0};
    pl.entries = blvl__calloc(a, pl.cap * sizeof *pl.entries);
    pl.bytes = blvl__calloc(a, pl.cap * sizeof *pl.bytes);
    pl.items = blvl__calloc(a, (nput + 1) * sizeof *pl.items);
    pl.replaced = blvl__calloc(a, nput + 1);
    if (!pl.entries || !pl.bytes || !pl.items || !pl.replaced) {
        st = blvl__nomem(err, "%zu entries", pl.cap);
        goto out;
    }
    for (size_t i = 0; i < nput; i++)
        pl.items[i] = (blvl_pack_item){(const uint8_t *)put[i].data, put[i].size, NULL, 0};
    if (nput && (st = blvl__payload_pack_many(pl.items, nput, opt ? opt->threads : 0, a, NULL, NULL,
                                              err)) != BLVL_OK)
        goto out;
    st = keep_sections(&pl, lv, keep, keep_user, put, nput, drop, ndrop, err);
    if (st != BLVL_OK)
        goto out;
    for (size_t i = 0; i < nput; i++) {
        if (pl.replaced[i])
            continue;
        put_entry(&put[i], &pl.items[i], &pl.entries[pl.n]); /* new sections go last */
        pl.bytes[pl.n++] = pl.items[i].out;
    }
    if ((st = plan_layout(&pl, err)) != BLVL_OK)
        goto out;
    st = write_planned(&pl, out_path, opt, err);
out:
    plan_free(&pl, nput);
    blvl_close(lv);
    if (fd >= 0)
        close(fd); /* releases the lock, after the rename */
    if (st == BLVL_OK)
        blvl__ok(err);
    return st;
}

blvl_status blvl_rewrite_file(const char *in_path, const char *out_path, blvl_keep_fn keep,
                              void *keep_user, const blvl_options *opt, blvl_error *err) {
    return blvl_rewrite_edit_file(in_path, out_path, keep, keep_user, NULL, 0, NULL, 0, opt, err);
}
