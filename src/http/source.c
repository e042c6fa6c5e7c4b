/* blvl_open_url: a blvl_source over one HTTP connection. The first request asks for bytes
 * 0..4095: the header and, for a table of up to 62 entries at its usual place, the whole table
 * (a longer table is completed by one more range), served from that one buffer; each section is one
 * more range request for exactly its packed bytes, checked against its digest before anything is
 * kept. Sections wanted at open are fetched then, neighbours merged into one range and all the
 * ranges asked in one request (multipart/byteranges, src/http/multipart.c). A server that
 * ignores ranges sends the whole file to that first request: it is read through the streaming
 * reader (every digest checked as bytes land) and the level is served from memory. Reads are
 * serialised by a mutex (one connection). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/http.h"
#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"
#include "container/format.h"
#include "container/source.h"
#include "http/cache.h"
#include "http/conn.h"
#include "payload/digest.h"

/* The first request's size. The format's largest floor (128 KiB) would bring any table in one
 * round trip, but costs more than a small sim: a reader that wants one section would pay for
 * 128 KiB it never reads. 4 KiB holds the header and a table of 62 entries written after it;
 * a longer table costs one more range (docs/HTTP.md, "What is requested"). */
#define FIRST_REQUEST 4096u

/* A body sent whole (the server ignores ranges) is kept in memory: at most max_bytes when set,
 * else this much (docs/HTTP.md, "Limits"). */
#define WHOLE_MAX_DEFAULT (1ull << 30)

/* Core sections (meta, sim, ...: tags without a dot) read on demand are kept, up to this many
 * bytes per level, because the library reads them again itself: blvl_sections_verify after
 * blvl_verify (`blvl verify URL`), blvl_level_section for each caller. Game sections are
 * never kept (docs/HTTP.md, "What is requested"). */
#define CORE_KEEP_MAX (16u << 20)

/* A read of part of a section (the container reads a large section chunk by chunk, and
 * blvl_read_sink reads one twice) is served from the whole section, fetched once with one
 * range request and checked against its digest: held in memory up to this size, in a
 * temporary file (unlinked, in $TMPDIR) above it, so that memory never holds a large section
 * (docs/HTTP.md, "Large sections"). */
#define SPOOL_MEM_MAX (4u << 20)

/* Sections parts were read from, so that several threads walking several large sections do not
 * fetch them again at every part: the least recently used gives way. */
#define SPOOLS 4

typedef struct spool {
    const blvl_entry *e; /* NULL: none */
    uint64_t used;       /* the source's clock at its last read */
    struct url_src *s;   /* for its sink */
    int fd;              /* -1: held in mem */
    uint8_t *mem;
    blvl_hasher hash; /* of the bytes that came, in order */
    uint64_t got;
} spool;

/* Bytes fetched at open for wanted sections: [off, off + size), digests already checked. */
typedef struct kept_range {
    uint64_t off, size;
    uint8_t *data;
} kept_range;

typedef struct url_src url_src;
struct url_src {
    blvl__conn *conn;
    blvl_allocator a;
    pthread_mutex_t mu;
    /* Bytes [0, head_len) of the file: the first response (or the whole file). */
    uint8_t *head;
    size_t head_cap, head_len;
    bool whole;
    uint64_t whole_limit;
    blvl_stream *stream; /* the whole file's check, while it arrives */
    blvl_error stream_err;
    kept_range *kept;
    size_t nkept, kept_cap;
    uint64_t core_kept;  /* bytes of core sections kept on demand */
    blvl_options opt;    /* the caller's (allocator, limits), for the streaming reader */
    blvl_entry *entries; /* known after open: on-demand reads are checked against them */
    uint32_t count;
    blvl_error why;
    blvl__cache *cache; /* NULL: no cache (docs/HTTP.md, "The cache") */
    spool sp[SPOOLS];
    uint64_t clock;
};

static void spool_drop(url_src *s, spool *sp) {
    if (sp->fd >= 0)
        close(sp->fd);
    if (sp->mem)
        blvl__dealloc(&s->a, sp->mem, (size_t)sp->e->packed_size);
    sp->e = NULL;
    sp->fd = -1;
    sp->mem = NULL;
}

static void src_close(void *user) {
    url_src *s = user;
    if (!s)
        return;
    blvl_allocator a = s->a;
    for (int i = 0; i < SPOOLS; i++)
        spool_drop(s, &s->sp[i]);
    blvl__http_conn_free(s->conn);
    blvl__http_cache_close(s->cache);
    blvl_stream_free(s->stream);
    blvl__dealloc(&a, s->head, s->head_cap ? s->head_cap : 1);
    for (size_t i = 0; i < s->nkept; i++)
        blvl__dealloc(&a, s->kept[i].data, (size_t)s->kept[i].size);
    blvl__dealloc(&a, s->kept, (s->kept_cap ? s->kept_cap : 1) * sizeof *s->kept);
    blvl__dealloc(&a, s->entries, (s->count ? s->count : 1) * sizeof *s->entries);
    pthread_mutex_destroy(&s->mu);
    blvl__dealloc(&a, s, sizeof *s);
}

static int on_stream(void *user, const blvl_stream_event *ev) {
    url_src *s = user;
    if (ev->kind == BLVL_EV_SECTION_BAD && s->stream_err.code == BLVL_OK) {
        s->stream_err.code = ev->status;
        snprintf(s->stream_err.message, sizeof s->stream_err.message, "%s",
                 ev->message ? ev->message : blvl_status_name(ev->status));
        return 1;
    }
    return 0;
}

/* The first response: a range into head, or the whole file into a growing head and through
 * the streaming reader. */
static int head_sink(void *user, uint64_t off, const void *data, size_t len, bool whole) {
    url_src *s = user;
    if (whole && !s->whole) {
        /* The server ignored the range: from here on the file comes whole. */
        s->whole = true;
        s->head_len = 0;
        blvl_error e = {0};
        if (blvl_stream_new(&s->stream, on_stream, s, &s->opt, &e) != BLVL_OK)
            return blvl__http_conn_refuse_err(s->conn, &e);
        uint64_t size;
        if (blvl__http_conn_size(s->conn, &size)) {
            if (size > s->whole_limit)
                return blvl__http_conn_refuse(
                    s->conn, BLVL_E_HTTP_LIMIT,
                    "%s ignores ranges and the file of %llu bytes is over "
                    "the %llu bytes kept in memory",
                    blvl__http_conn_url(s->conn), (unsigned long long)size,
                    (unsigned long long)s->whole_limit);
            if (size > s->head_cap) {
                uint8_t *p = blvl__alloc(&s->a, (size_t)size);
                if (!p)
                    return blvl__http_conn_refuse(s->conn, BLVL_E_NOMEM, "a body of %llu bytes",
                                                  (unsigned long long)size);
                blvl__dealloc(&s->a, s->head, s->head_cap);
                s->head = p;
                s->head_cap = (size_t)size;
            }
        }
    }
    if (off != s->head_len)
        return blvl__http_conn_refuse(s->conn, BLVL_E_HTTP, "bytes out of order from %s",
                                      blvl__http_conn_url(s->conn));
    if (len > s->head_cap - s->head_len) {
        if (!s->whole)
            return blvl__http_conn_refuse(s->conn, BLVL_E_HTTP, "more bytes than asked from %s",
                                          blvl__http_conn_url(s->conn));
        uint64_t need = (uint64_t)s->head_len + len;
        if (need > s->whole_limit)
            return blvl__http_conn_refuse(
                s->conn, BLVL_E_HTTP_LIMIT,
                "%s ignores ranges and the file is over the %llu bytes kept "
                "in memory",
                blvl__http_conn_url(s->conn), (unsigned long long)s->whole_limit);
        uint64_t cap = (uint64_t)s->head_cap * 2;
        if (cap < need)
            cap = need;
        if (cap > s->whole_limit)
            cap = s->whole_limit;
        uint8_t *p = blvl__alloc(&s->a, (size_t)cap);
        if (!p)
            return blvl__http_conn_refuse(s->conn, BLVL_E_NOMEM, "a body of %llu bytes",
                                          (unsigned long long)cap);
        memcpy(p, s->head, s->head_len);
        blvl__dealloc(&s->a, s->head, s->head_cap);
        s->head = p;
        s->head_cap = (size_t)cap;
    }
    memcpy(s->head + s->head_len, data, len);
    s->head_len += len;
    if (s->whole) {
        blvl_error e = {0};
        if (blvl_stream_feed(s->stream, data, len, &e) != BLVL_OK)
            return blvl__http_conn_refuse_err(s->conn, s->stream_err.code ? &s->stream_err : &e);
    }
    return 0;
}

/* After the first range: when the header says the table ends past what came, one more range
 * from there to the table's end (at most the format's largest floor), so the open reads the
 * header and table from the buffer. A header the open will refuse is left to it. */
static blvl_status finish_table(url_src *s, blvl_error *err) {
    blvl_header h;
    uint64_t size;
    if (s->head_len < BLVL_HEADER_SIZE ||
        blvl__container_header_decode(s->head, &h, NULL) != BLVL_OK ||
        !blvl__http_conn_size(s->conn, &size))
        return BLVL_OK;
    uint64_t end = h.table_offset + (uint64_t)h.count * BLVL_ENTRY_SIZE;
    if (end <= s->head_len || end > s->head_cap || end > size)
        return BLVL_OK;
    if (s->cache && h.floor <= s->head_cap && h.floor <= size && h.floor >= end) {
        /* The table region under the names the header just gave: the rest of the table from
         * the cache (its digest is checked by the open as for bytes from the network); else
         * the request goes to the floor, so that the region can be kept for the next open. */
        uint8_t *buf = blvl__alloc(&s->a, (size_t)h.floor);
        bool hit =
            buf && blvl__http_cache_get_table(s->cache, h.identity, h.table_digest, buf, h.floor);
        if (hit) {
            memcpy(s->head + s->head_len, buf + s->head_len, (size_t)(h.floor - s->head_len));
            blvl__http_conn_stats(s->conn)->bytes_cached += h.floor - s->head_len;
            s->head_len = (size_t)h.floor;
        }
        blvl__dealloc(&s->a, buf, (size_t)h.floor);
        if (hit)
            return BLVL_OK;
        end = h.floor;
    }
    return blvl__http_conn_get(s->conn, s->head_len, end, false, head_sink, s, NULL, err);
}

typedef struct range_dst {
    uint8_t *buf;
    uint64_t start, len;
    blvl__conn *conn;
} range_dst;

static int range_sink(void *user, uint64_t off, const void *data, size_t len, bool whole) {
    range_dst *d = user;
    (void)whole;
    if (off < d->start || off - d->start > d->len || len > d->len - (off - d->start))
        return blvl__http_conn_refuse(d->conn, BLVL_E_HTTP, "bytes outside the range asked from %s",
                                      blvl__http_conn_url(d->conn));
    memcpy(d->buf + (off - d->start), data, len);
    return 0;
}

/* The buffers of the runs of wanted sections, one per span asked. */
typedef struct runs_dst {
    kept_range *runs;
    size_t n;
    blvl__conn *conn;
} runs_dst;

static int runs_sink(void *user, uint64_t off, const void *data, size_t len, bool whole) {
    runs_dst *d = user;
    (void)whole;
    for (size_t i = 0; i < d->n; i++) {
        kept_range *k = &d->runs[i];
        if (off >= k->off && off - k->off <= k->size && len <= k->size - (off - k->off)) {
            memcpy(k->data + (off - k->off), data, len);
            return 0;
        }
    }
    return blvl__http_conn_refuse(d->conn, BLVL_E_HTTP, "bytes outside the ranges asked from %s",
                                  blvl__http_conn_url(d->conn));
}

/* Checks bytes that should be entry e's packed bytes. */
static blvl_status check_section(url_src *s, const blvl_entry *e, const uint8_t *data,
                                 blvl_error *err) {
    uint8_t d[BLVL_DIGEST_SIZE];
    blvl_digest(data, (size_t)e->packed_size, d);
    if (memcmp(d, e->digest, BLVL_DIGEST_SIZE) != 0)
        return blvl__fail(err, BLVL_E_SECTION_DIGEST,
                          "section %s from %s does not match its digest", e->tag,
                          blvl__http_conn_url(s->conn));
    return BLVL_OK;
}

/* The entry whose packed bytes are exactly [off, off + len), or NULL. */
static const blvl_entry *entry_of(const url_src *s, uint64_t off, size_t len) {
    for (uint32_t i = 0; i < s->count; i++)
        if (s->entries[i].offset == off && s->entries[i].packed_size == len)
            return &s->entries[i];
    return NULL;
}

/* A section from the cache (its digest re-checked there), counted as served by it. */
static bool from_cache(url_src *s, const blvl_entry *e, void *buf) {
    if (!s->cache || !blvl__http_cache_get_section(s->cache, e->digest, buf, e->packed_size))
        return false;
    blvl__http_conn_stats(s->conn)->bytes_cached += e->packed_size;
    return true;
}

/* Room in s->kept for `extra` more ranges; false when there is no memory. */
static bool kept_room(url_src *s, size_t extra) {
    if (extra <= s->kept_cap - s->nkept)
        return true;
    void *k = s->kept;
    if (extra > SIZE_MAX - s->nkept ||
        !blvl__array_grow(&s->a, &k, &s->kept_cap, s->nkept, s->nkept + extra, sizeof *s->kept, 8))
        return false;
    s->kept = k;
    return true;
}

/* A core section just fetched and checked is kept while the budget lasts (best effort: no
 * memory means it is fetched again when read again). */
static void keep_core(url_src *s, const blvl_entry *e, const void *data) {
    if (strchr(e->tag, '.') || e->packed_size > CORE_KEEP_MAX - s->core_kept)
        return;
    if (!kept_room(s, 1))
        return;
    uint8_t *copy = blvl__alloc(&s->a, (size_t)e->packed_size);
    if (!copy)
        return;
    memcpy(copy, data, (size_t)e->packed_size);
    s->kept[s->nkept++] = (kept_range){e->offset, e->packed_size, copy};
    s->core_kept += e->packed_size;
}

/* An unlinked temporary file in $TMPDIR (else /tmp), readable by this process alone. */
static int spool_file(void) {
    const char *dir = getenv("TMPDIR");
    if (!dir || dir[0] != '/')
        dir = "/tmp";
    int fd;
#ifdef O_TMPFILE
    fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
#endif
    char path[4096];
    if (snprintf(path, sizeof path, "%s/blvl-spool.XXXXXX", dir) >= (int)sizeof path)
        return -1;
    fd = mkostemp(path, O_CLOEXEC);
    if (fd >= 0)
        unlink(path);
    return fd;
}

/* The section's bytes from the network into the spool file, hashed as they land (in order:
 * a resume never delivers a byte twice). */
static int spool_sink(void *user, uint64_t off, const void *data, size_t len, bool whole) {
    spool *sp = user;
    url_src *s = sp->s;
    (void)whole;
    const blvl_entry *e = sp->e;
    if (off != e->offset + sp->got || len > e->packed_size - sp->got)
        return blvl__http_conn_refuse(s->conn, BLVL_E_HTTP, "bytes outside the range asked from %s",
                                      blvl__http_conn_url(s->conn));
    const uint8_t *p = data;
    for (size_t at = 0; at < len;) {
        ssize_t w = pwrite(sp->fd, p + at, len - at, (off_t)(sp->got + at));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return blvl__http_conn_refuse(s->conn, BLVL_E_IO, "cannot write a temporary file: %s",
                                          w < 0 ? strerror(errno) : "no progress");
        at += (size_t)w;
    }
    blvl__payload_hasher_update(&sp->hash, data, len);
    sp->got += len;
    return 0;
}

static blvl_status check_section(url_src *s, const blvl_entry *e, const uint8_t *data,
                                 blvl_error *err);
static bool from_cache(url_src *s, const blvl_entry *e, void *buf);
static void keep_core(url_src *s, const blvl_entry *e, const void *data);

/* Holds entry e whole in the spool: from memory kept already, the cache or one range request,
 * its digest checked. */
static blvl_status spool_fill(url_src *s, spool *sp, const blvl_entry *e, blvl_error *err) {
    spool_drop(s, sp);
    sp->e = e;
    sp->s = s;
    uint64_t size = e->packed_size;
    if (size <= SPOOL_MEM_MAX) {
        sp->mem = blvl__alloc(&s->a, (size_t)size);
        if (!sp->mem) {
            sp->e = NULL;
            return blvl__nomem(err, "section %s", e->tag);
        }
        if (from_cache(s, e, sp->mem))
            return BLVL_OK;
        range_dst d = {sp->mem, e->offset, size, s->conn};
        blvl_status st = blvl__http_conn_get(s->conn, e->offset, e->offset + size, false,
                                             range_sink, &d, NULL, err);
        if (st == BLVL_OK)
            st = check_section(s, e, sp->mem, err);
        if (st != BLVL_OK) {
            spool_drop(s, sp);
            return st;
        }
        if (s->cache)
            blvl__http_cache_put_section(s->cache, e->digest, sp->mem, size);
        keep_core(s, e, sp->mem);
        return BLVL_OK;
    }
    sp->fd = spool_file();
    if (sp->fd < 0) {
        sp->e = NULL;
        return blvl__fail(err, BLVL_E_IO, "cannot make a temporary file for section %s: %s", e->tag,
                          strerror(errno));
    }
    if (s->cache && blvl__http_cache_get_section_fd(s->cache, e->digest, size, sp->fd)) {
        blvl__http_conn_stats(s->conn)->bytes_cached += size;
        return BLVL_OK;
    }
    blvl__payload_hasher_init(&sp->hash);
    sp->got = 0;
    blvl_status st =
        blvl__http_conn_get(s->conn, e->offset, e->offset + size, false, spool_sink, sp, NULL, err);
    uint8_t d[BLVL_DIGEST_SIZE];
    blvl__payload_hasher_final(&sp->hash, d);
    if (st == BLVL_OK && (sp->got != size || memcmp(d, e->digest, BLVL_DIGEST_SIZE) != 0))
        st = blvl__fail(err, BLVL_E_SECTION_DIGEST, "section %s from %s does not match its digest",
                        e->tag, blvl__http_conn_url(s->conn));
    if (st != BLVL_OK) {
        spool_drop(s, sp);
        return st;
    }
    if (s->cache)
        blvl__http_cache_put_section_fd(s->cache, e->digest, sp->fd, 0, size);
    return BLVL_OK;
}

/* The entry whose packed bytes hold all of [off, off + len), or NULL. */
static const blvl_entry *entry_around(const url_src *s, uint64_t off, size_t len) {
    for (uint32_t i = 0; i < s->count; i++) {
        const blvl_entry *e = &s->entries[i];
        if (off >= e->offset && off - e->offset <= e->packed_size &&
            len <= e->packed_size - (off - e->offset))
            return e;
    }
    return NULL;
}

/* [off, off + len) of the section in the spool. */
static int spool_read(url_src *s, spool *sp, uint64_t off, void *buf, size_t len) {
    sp->used = ++s->clock;
    uint64_t at = off - sp->e->offset;
    if (sp->mem) {
        memcpy(buf, sp->mem + at, len);
        return 0;
    }
    uint8_t *p = buf;
    while (len) {
        ssize_t r = pread(sp->fd, p, len, (off_t)at);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            blvl__fail(&s->why, BLVL_E_IO, "cannot read a temporary file: %s",
                       r < 0 ? strerror(errno) : "it ended early");
            return -1;
        }
        p += r;
        at += (uint64_t)r;
        len -= (size_t)r;
    }
    return 0;
}

static int src_read(void *user, uint64_t off, void *buf, size_t len) {
    url_src *s = user;
    pthread_mutex_lock(&s->mu);
    int rc = 0;
    if (off <= s->head_len && len <= s->head_len - off) {
        memcpy(buf, s->head + off, len);
        goto out;
    }
    for (size_t i = 0; i < s->nkept; i++) {
        const kept_range *k = &s->kept[i];
        if (off >= k->off && off - k->off <= k->size && len <= k->size - (off - k->off)) {
            memcpy(buf, k->data + (off - k->off), len);
            goto out;
        }
    }
    for (int i = 0; i < SPOOLS; i++) {
        spool *sp = &s->sp[i];
        if (sp->e && off >= sp->e->offset && off - sp->e->offset <= sp->e->packed_size &&
            len <= sp->e->packed_size - (off - sp->e->offset)) {
            rc = spool_read(s, sp, off, buf, len);
            goto out;
        }
    }
    /* A section is asked of the cache by its digest before the network. */
    const blvl_entry *e = entry_of(s, off, len);
    const blvl_entry *around = e ? NULL : entry_around(s, off, len);
    if (around) { /* a part of a section: the section whole, once, then parts of it */
        spool *sp = &s->sp[0];
        for (int i = 1; i < SPOOLS; i++)
            if (s->sp[i].used < sp->used)
                sp = &s->sp[i];
        rc = spool_fill(s, sp, around, &s->why) == BLVL_OK ? spool_read(s, sp, off, buf, len) : -1;
        goto out;
    }
    if (e && from_cache(s, e, buf))
        goto out;
    range_dst d = {buf, off, len, s->conn};
    blvl_status st =
        blvl__http_conn_get(s->conn, off, off + len, false, range_sink, &d, NULL, &s->why);
    if (st != BLVL_OK) {
        rc = -1;
        goto out;
    }
    if (e) {
        if (check_section(s, e, buf, &s->why) != BLVL_OK)
            rc = -1;
        else {
            if (s->cache)
                blvl__http_cache_put_section(s->cache, e->digest, buf, len);
            keep_core(s, e, buf);
        }
    }
out:
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static void src_why(void *user, blvl_error *err) {
    url_src *s = user;
    pthread_mutex_lock(&s->mu);
    *err = s->why;
    pthread_mutex_unlock(&s->mu);
}

bool blvl_is_url(const char *path) {
    return path && (strncmp(path, "http://", 7) == 0 || strncmp(path, "https://", 8) == 0);
}

static int by_offset(const void *x, const void *y) {
    const blvl_entry *a = *(const blvl_entry *const *)x, *b = *(const blvl_entry *const *)y;
    return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* The header and table region, checked by the open, goes to the cache; so does every section
 * of a file that came whole (the streaming reader checked each). */
static void keep_table(url_src *s, const blvl_level *lv) {
    blvl_info info;
    blvl_get_info(lv, &info);
    if (info.floor <= s->head_len)
        blvl__http_cache_put_table(s->cache, info.identity, info.table_digest, s->head, info.floor);
    for (uint32_t i = 0; s->whole && i < s->count; i++) {
        const blvl_entry *e = &s->entries[i];
        if (e->offset <= s->head_len && e->packed_size <= s->head_len - e->offset)
            blvl__http_cache_put_section(s->cache, e->digest, s->head + e->offset, e->packed_size);
    }
}

/* Fetches the wanted sections: entries sorted by offset, each run of neighbours (only
 * alignment padding between them) one range request; every digest checked before keeping. */
static blvl_status fetch_wanted(url_src *s, blvl_level *lv, const blvl_http_options *http,
                                blvl_error *err) {
    size_t n = http->nwant;
    const blvl_entry **w = blvl__calloc_n(&s->a, n, sizeof *w);
    if (!w)
        return blvl__nomem(err, "the wanted sections");
    blvl_status st = BLVL_OK;
    size_t m = 0;
    blvl__span *spans = NULL;
    for (size_t i = 0; i < n; i++) {
        const blvl_entry *e = blvl_find(lv, http->want[i]);
        if (!e) {
            st = blvl__fail(err, BLVL_E_NOT_FOUND, "no section %s in %s",
                            http->want[i] ? http->want[i] : "(null)", blvl__http_conn_url(s->conn));
            goto out;
        }
        bool dup = false;
        for (size_t j = 0; j < m; j++)
            dup = dup || w[j] == e;
        if (!dup && e->offset + e->packed_size > s->head_len)
            w[m++] = e;
    }
    if (!kept_room(s, m)) {
        st = blvl__nomem(err, "the wanted sections");
        goto out;
    }
    /* Sections the cache holds are kept from it and left out of the ranges asked for. */
    size_t left = 0;
    for (size_t i = 0; i < m; i++) {
        uint8_t *buf = s->cache && w[i]->packed_size <= SIZE_MAX
                           ? blvl__alloc(&s->a, (size_t)w[i]->packed_size)
                           : NULL;
        if (buf && from_cache(s, w[i], buf))
            s->kept[s->nkept++] = (kept_range){w[i]->offset, w[i]->packed_size, buf};
        else {
            if (buf)
                blvl__dealloc(&s->a, buf, (size_t)w[i]->packed_size);
            w[left++] = w[i];
        }
    }
    m = left;
    qsort(w, m, sizeof *w, by_offset);
    /* Runs of neighbours, each one span (and one kept buffer); all asked together. */
    size_t nruns = 0;
    size_t *first = blvl__calloc_n(&s->a, m ? m + 1 : 1, sizeof *first);
    spans = blvl__calloc_n(&s->a, m ? m : 1, sizeof *spans);
    if (!first || !spans) {
        st = blvl__nomem(err, "the wanted sections");
        blvl__dealloc(&s->a, first, (m ? m + 1 : 1) * sizeof *first);
        goto out;
    }
    for (size_t i = 0; i < m;) {
        size_t j = i + 1;
        uint64_t end = w[i]->offset + w[i]->packed_size;
        while (j < m && w[j]->offset <= ((end + 63) & ~(uint64_t)63)) {
            end = w[j]->offset + w[j]->packed_size;
            j++;
        }
        first[nruns] = i;
        spans[nruns++] = (blvl__span){.start = w[i]->offset, .end = end};
        i = j;
    }
    first[nruns] = m;
    size_t kept0 = s->nkept;
    for (size_t r = 0; r < nruns && st == BLVL_OK; r++) {
        uint64_t len = spans[r].end - spans[r].start;
        uint8_t *buf = len <= SIZE_MAX ? blvl__alloc(&s->a, (size_t)len) : NULL;
        if (!buf)
            st = blvl__nomem(err, "%llu bytes", (unsigned long long)len);
        else
            s->kept[s->nkept++] = (kept_range){spans[r].start, len, buf};
    }
    runs_dst d = {s->kept + kept0, nruns, s->conn};
    if (st == BLVL_OK && nruns)
        st = blvl__http_conn_get_spans(s->conn, spans, nruns, runs_sink, &d, err);
    /* Every digest checked before any byte is kept for a read. */
    for (size_t r = 0; r < nruns && st == BLVL_OK; r++)
        for (size_t k = first[r]; k < first[r + 1] && st == BLVL_OK; k++)
            st = check_section(s, w[k], s->kept[kept0 + r].data + (w[k]->offset - spans[r].start),
                               err);
    for (size_t r = 0; r < nruns && st == BLVL_OK && s->cache; r++)
        for (size_t k = first[r]; k < first[r + 1]; k++)
            blvl__http_cache_put_section(s->cache, w[k]->digest,
                                         s->kept[kept0 + r].data + (w[k]->offset - spans[r].start),
                                         w[k]->packed_size);
    blvl__dealloc(&s->a, first, (m ? m + 1 : 1) * sizeof *first);
out:
    blvl__dealloc(&s->a, spans, (m ? m : 1) * sizeof *spans);
    blvl__dealloc(&s->a, w, (n ? n : 1) * sizeof *w);
    return st;
}

blvl_status blvl_open_url(blvl_level **out, const char *url, const blvl_http_options *http,
                          blvl_error *err) {
    const blvl_options *opt = http ? &http->base : NULL;
    if (!out || !url)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no output or no URL");
    *out = NULL;
    if (!blvl_is_url(url))
        return blvl__fail(err, BLVL_E_ARGUMENT, "not an http:// or https:// URL: %s", url);
    blvl_http_options h = {0};
    if (http)
        h = *http;
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    url_src *s = blvl__calloc(a, sizeof *s);
    if (!s)
        return blvl__nomem(err, "a URL source");
    if (a)
        s->a = *a;
    if (opt)
        s->opt = *opt;
    pthread_mutex_init(&s->mu, NULL);
    for (int i = 0; i < SPOOLS; i++)
        s->sp[i].fd = -1;
    s->whole_limit = h.max_bytes ? h.max_bytes : WHOLE_MAX_DEFAULT;
    if (s->whole_limit > SIZE_MAX)
        s->whole_limit = SIZE_MAX;
    s->head_cap = BLVL_FLOOR_MAX;
    s->head = blvl__alloc(&s->a, s->head_cap);
    if (!s->head) {
        src_close(s);
        return blvl__nomem(err, "a URL source");
    }
    blvl_status st = blvl__http_conn_new(&s->conn, url, opt, &h, err);
    /* A cache directory that cannot be used means no caching, not a failure (only memory
     * fails here). */
    if (st == BLVL_OK && h.cache_dir)
        st = blvl__http_cache_open_warn(&s->cache, h.cache_dir, h.cache_max_bytes, a, h.warn,
                                        h.warn_user, err);
    if (st != BLVL_OK) {
        src_close(s);
        return st;
    }
    /* The header and table: always from the server, whatever the cache holds, so that an
     * edit is seen; one small range request, and one more only for a long table. */
    st = blvl__http_conn_get(s->conn, 0, FIRST_REQUEST, true, head_sink, s, NULL, err);
    if (st == BLVL_OK && !s->whole)
        st = finish_table(s, err);
    if (st == BLVL_OK && s->whole) {
        st = blvl_stream_finish(s->stream, err);
        if (st == BLVL_OK && s->stream_err.code != BLVL_OK) {
            st = s->stream_err.code;
            if (err)
                *err = s->stream_err;
        }
    }
    if (st != BLVL_OK) {
        src_close(s);
        return st;
    }
    uint64_t size = s->head_len;
    if (!s->whole && !blvl__http_conn_size(s->conn, &size)) {
        src_close(s);
        return blvl__fail(err, BLVL_E_HTTP, "%s did not say the file's size", url);
    }
    blvl_source src = {src_read, size, s, src_close, src_why};
    blvl_level *lv = NULL;
    st = blvl_open_source(&lv, &src, opt, err); /* closes s when it fails */
    if (st != BLVL_OK)
        return st;
    s->count = blvl_count(lv);
    s->entries = blvl__calloc_n(&s->a, s->count ? s->count : 1, sizeof *s->entries);
    if (!s->entries) {
        blvl_close(lv);
        return blvl__nomem(err, "the table");
    }
    for (uint32_t i = 0; i < s->count; i++)
        s->entries[i] = *blvl_entry_at(lv, i);
    if (s->cache)
        keep_table(s, lv);
    if (h.nwant && h.want && !s->whole) {
        st = fetch_wanted(s, lv, &h, err);
        if (st != BLVL_OK) {
            blvl_close(lv);
            return st;
        }
    }
    *out = lv;
    blvl__ok(err);
    return BLVL_OK;
}

void blvl_http_get_stats(const blvl_level *level, blvl_http_stats *out) {
    memset(out, 0, sizeof *out);
    if (!level || blvl__container_level_source(level)->close != src_close)
        return;
    url_src *s = blvl__container_level_source(level)->user;
    pthread_mutex_lock(&s->mu);
    *out = *blvl__http_conn_stats(s->conn);
    pthread_mutex_unlock(&s->mu);
}
