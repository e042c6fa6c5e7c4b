/* blvl_fetch_url: the whole level to a file, byte for byte as the server has it. One plain GET
 * (resumed with a range after a cut); the bytes go to a temporary beside the target and through
 * the streaming reader as they land (table digest, identity, every section digest), and the
 * temporary is renamed into place only when all of it checked. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blvl/http.h"
#include "common/alloc.h"
#include "common/error.h"
#include "blvl/le.h"
#include "http/cache.h"
#include "http/conn.h"

#define WRITEBACK_STEP (8u << 20)

typedef struct fetch_ctx {
    blvl__conn *conn;
    int fd;
    const char *tmp;
    blvl_stream *stream;
    blvl_error bad; /* the first section that failed its digest */
    uint64_t written;
    uint64_t queued;    /* bytes handed to the kernel's write-back so far (sync_file_range) */
    blvl__cache *cache; /* NULL: none; else checked sections and the table are put there */
    const blvl_allocator *a;
} fetch_ctx;

/* Puts `size` bytes of the temporary at `off` (written and checked already) in the cache:
 * a section by its digest, or the table region (digest NULL) by the level's names. Best
 * effort, like every put. */
static void cache_put(fetch_ctx *f, uint64_t off, uint64_t size, const uint8_t *digest,
                      const uint8_t *identity, const uint8_t *table_digest) {
    if (size > SIZE_MAX)
        return;
    uint8_t *buf = blvl__alloc(f->a, (size_t)size);
    if (!buf)
        return;
    if (pread(f->fd, buf, (size_t)size, (off_t)off) == (ssize_t)size) {
        if (digest)
            blvl__cache_put_section(f->cache, digest, buf, size);
        else
            blvl__cache_put_table(f->cache, identity, table_digest, buf, size);
    }
    blvl__dealloc(f->a, buf, (size_t)size);
}

static int on_stream(void *user, const blvl_stream_event *ev) {
    fetch_ctx *f = user;
    if (ev->kind == BLVL_EV_SECTION_BAD && f->bad.code == BLVL_OK) {
        f->bad.code = ev->status;
        snprintf(f->bad.message, sizeof f->bad.message, "%s",
                 ev->message ? ev->message : blvl_status_name(ev->status));
        return 1;
    }
    /* The bytes of an event are in the temporary already (file_sink writes, then feeds). */
    if (f->cache && ev->kind == BLVL_EV_SECTION)
        cache_put(f, ev->entry->offset, ev->entry->packed_size, ev->entry->digest, NULL, NULL);
    if (f->cache && ev->kind == BLVL_EV_TABLE) {
        uint8_t floor[8];
        if (pread(f->fd, floor, sizeof floor, 16) == (ssize_t)sizeof floor)
            cache_put(f, 0, blvl_le64(floor), NULL, ev->identity, ev->table_digest);
    }
    return 0;
}

static int file_sink(void *user, uint64_t off, const void *data, size_t len, bool whole) {
    fetch_ctx *f = user;
    (void)whole;
    if (off != f->written)
        return blvl__conn_refuse(f->conn, BLVL_E_HTTP, "bytes out of order from %s",
                                 blvl__conn_url(f->conn));
    const uint8_t *p = data;
    size_t left = len;
    while (left) {
        ssize_t n = write(f->fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return blvl__conn_refuse(f->conn, BLVL_E_IO, "cannot write %s: %s", f->tmp,
                                     strerror(errno));
        p += n;
        left -= (size_t)n;
    }
    f->written += len;
    /* Start the write-back of every 8 MiB as it lands, so that the fsync before the rename
     * finds little left to write (it was a quarter of a whole-level fetch). Advice only. */
    if (f->written - f->queued >= WRITEBACK_STEP) {
        (void)sync_file_range(f->fd, (off_t)f->queued, (off_t)(f->written - f->queued),
                              SYNC_FILE_RANGE_WRITE);
        f->queued = f->written;
    }
    blvl_error e = {0};
    if (blvl_stream_feed(f->stream, data, len, &e) != BLVL_OK)
        return blvl__conn_refuse_err(f->conn, f->bad.code ? &f->bad : &e);
    return 0;
}

blvl_status blvl_fetch_url(const char *url, const char *out_path, const blvl_options *opt,
                           const blvl_http_options *http, blvl_http_stats *stats, blvl_error *err) {
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!url || !out_path)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no URL or no output path");
    if (!blvl_is_url(url))
        return blvl__fail(err, BLVL_E_ARGUMENT, "not an http:// or https:// URL: %s", url);
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    size_t plen = strlen(out_path);
    char *tmp = blvl__alloc(a, plen + 16);
    if (!tmp)
        return blvl__fail(err, BLVL_E_NOMEM, "no memory for a path");
    snprintf(tmp, plen + 16, "%s.part.XXXXXX", out_path);
    fetch_ctx f = {0};
    f.tmp = tmp;
    f.a = a;
    f.fd = mkostemp(tmp, O_CLOEXEC);
    blvl_status st;
    if (f.fd < 0) {
        st = blvl__fail(err, BLVL_E_IO, "cannot create %s: %s", tmp, strerror(errno));
        blvl__dealloc(a, tmp, plen + 16);
        return st;
    }
    (void)fchmod(f.fd, 0644);
    st = blvl__conn_new(&f.conn, url, opt, http, err);
    if (st == BLVL_OK && http && http->cache_dir)
        st = blvl__cache_open(&f.cache, http->cache_dir, http->cache_max_bytes, a, err);
    if (st == BLVL_OK)
        st = blvl_stream_new(&f.stream, opt, on_stream, &f, err);
    if (st == BLVL_OK) {
        st = blvl__conn_get(f.conn, 0, UINT64_MAX, true, file_sink, &f, NULL, err);
    }
    if (st == BLVL_OK)
        st = blvl_stream_finish(f.stream, err);
    if (st == BLVL_OK && f.bad.code != BLVL_OK) {
        st = f.bad.code;
        if (err)
            *err = f.bad;
    }
    if (st == BLVL_OK && fsync(f.fd) != 0)
        st = blvl__fail(err, BLVL_E_IO, "cannot flush %s: %s", tmp, strerror(errno));
    if (close(f.fd) != 0 && st == BLVL_OK)
        st = blvl__fail(err, BLVL_E_IO, "cannot close %s: %s", tmp, strerror(errno));
    if (st == BLVL_OK && rename(tmp, out_path) != 0)
        st = blvl__fail(err, BLVL_E_IO, "cannot rename %s to %s: %s", tmp, out_path,
                        strerror(errno));
    if (st != BLVL_OK)
        unlink(tmp);
    if (stats && f.conn)
        *stats = *blvl__conn_stats(f.conn);
    blvl_stream_free(f.stream);
    blvl__conn_free(f.conn);
    blvl__cache_close(f.cache);
    blvl__dealloc(a, tmp, plen + 16);
    if (st == BLVL_OK)
        blvl__ok(err);
    return st;
}
