/* blvl_fetch_url: the whole level to a file, byte for byte as the server has it. One plain GET
 * (resumed with a range after a cut); the bytes go to a temporary beside the target (the
 * container's out-file code: its rules for the target's kind, mode and link hold here too) and
 * through the streaming reader as they land (table digest, identity, every section digest), and
 * the temporary is renamed into place only when all of it checked. Nothing holds a section:
 * memory stays at the transfer's buffers, and a section for the cache is copied from the
 * temporary in pieces once the stream has checked it. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blvl/http.h"
#include "common/alloc.h"
#include "common/error.h"
#include "blvl/le.h"
#include "container/out_file.h"
#include "http/cache.h"
#include "http/conn.h"

#define WRITEBACK_STEP (4u << 20)

/* Flushes the temporary to disk from a thread of its own while the transfer goes on, so that
 * the fsync before the rename finds only the tail left. On a virtual disk a flush is the host
 * writing what the guest wrote: 30 MB took 23-25 ms at the end, and starting the write-back
 * early (sync_file_range) left 17-19 ms of it; flushed every 4 MiB as the bytes land it leaves
 * 2-5 ms. A flush error is kept: the kernel reports it to one fsync only. */
typedef struct flusher {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    int fd;
    bool running; /* the thread was started */
    bool stop;
    uint64_t want; /* bytes written when a flush was last asked for */
    uint64_t done; /* bytes known flushed */
    int error;     /* errno of a failed flush, 0 if none */
} flusher;

static void *flusher_main(void *arg) {
    flusher *fl = arg;
    pthread_mutex_lock(&fl->lock);
    for (;;) {
        while (!fl->stop && fl->want == fl->done)
            pthread_cond_wait(&fl->wake, &fl->lock);
        if (fl->want == fl->done) /* stopped with nothing asked */
            break;
        uint64_t target = fl->want;
        pthread_mutex_unlock(&fl->lock);
        int rc = fdatasync(fl->fd);
        int e = rc ? errno : 0;
        pthread_mutex_lock(&fl->lock);
        fl->done = target;
        if (e && !fl->error)
            fl->error = e;
        if (fl->stop)
            break;
    }
    pthread_mutex_unlock(&fl->lock);
    return NULL;
}

static void flusher_start(flusher *fl, int fd) {
    memset(fl, 0, sizeof *fl);
    fl->fd = fd;
    if (pthread_mutex_init(&fl->lock, NULL) != 0)
        return;
    if (pthread_cond_init(&fl->wake, NULL) != 0) {
        pthread_mutex_destroy(&fl->lock);
        return;
    }
    fl->running = pthread_create(&fl->thread, NULL, flusher_main, fl) == 0;
    if (!fl->running) {
        pthread_cond_destroy(&fl->wake);
        pthread_mutex_destroy(&fl->lock);
    }
}

/* Asks for a flush of what is written so far; never waits for one. */
static void flusher_ask(flusher *fl, uint64_t written) {
    pthread_mutex_lock(&fl->lock);
    fl->want = written;
    pthread_cond_signal(&fl->wake);
    pthread_mutex_unlock(&fl->lock);
}

/* Waits for the thread (its flush in progress, if any) and returns a flush's errno, or 0. */
static int flusher_stop(flusher *fl) {
    if (!fl->running)
        return 0;
    pthread_mutex_lock(&fl->lock);
    fl->stop = true;
    pthread_cond_signal(&fl->wake);
    pthread_mutex_unlock(&fl->lock);
    pthread_join(fl->thread, NULL);
    fl->running = false;
    pthread_cond_destroy(&fl->wake);
    pthread_mutex_destroy(&fl->lock);
    return fl->error;
}

typedef struct fetch_ctx {
    blvl__conn *conn;
    blvl_out_file out;
    int fd; /* out.fd */
    blvl_stream *stream;
    blvl_error bad; /* the first section that failed its digest */
    uint64_t written;
    uint64_t queued; /* bytes handed to the flusher (or the kernel's write-back) so far */
    flusher flush;
    blvl__cache *cache; /* NULL: none; else checked sections and the table are put there */
    const blvl_allocator *a;
} fetch_ctx;

/* Puts the table region, bytes 0 .. floor of the temporary (written and checked already; at
 * most 128 KiB, the format's largest floor), in the cache by the level's names. Best effort,
 * like every put. */
static void cache_put_table(fetch_ctx *f, uint64_t size, const uint8_t *identity,
                            const uint8_t *table_digest) {
    if (size > BLVL_FLOOR_MAX)
        return;
    uint8_t *buf = blvl__alloc(f->a, (size_t)size);
    if (!buf)
        return;
    if (pread(f->fd, buf, (size_t)size, 0) == (ssize_t)size)
        blvl__http_cache_put_table(f->cache, identity, table_digest, buf, size);
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
        blvl__http_cache_put_section_fd(f->cache, ev->entry->digest, f->fd, ev->entry->offset,
                                        ev->entry->packed_size);
    if (f->cache && ev->kind == BLVL_EV_TABLE) {
        uint8_t floor[8];
        if (pread(f->fd, floor, sizeof floor, 16) == (ssize_t)sizeof floor)
            cache_put_table(f, blvl_le64(floor), ev->identity, ev->table_digest);
    }
    return 0;
}

static int file_sink(void *user, uint64_t off, const void *data, size_t len, bool whole) {
    fetch_ctx *f = user;
    (void)whole;
    if (off != f->written)
        return blvl__http_conn_refuse(f->conn, BLVL_E_HTTP, "bytes out of order from %s",
                                      blvl__http_conn_url(f->conn));
    blvl_error we = {0};
    if (blvl__container_out_write(&f->out, data, len, &we) != BLVL_OK)
        return blvl__http_conn_refuse_err(f->conn, &we);
    f->written += len;
    /* Flush every 4 MiB as it lands (see flusher); without the thread, at least start the
     * write-back (advice only). */
    if (f->written - f->queued >= WRITEBACK_STEP) {
        if (f->flush.running)
            flusher_ask(&f->flush, f->written);
        else
            (void)sync_file_range(f->fd, (off_t)f->queued, (off_t)(f->written - f->queued),
                                  SYNC_FILE_RANGE_WRITE);
        f->queued = f->written;
    }
    blvl_error e = {0};
    if (blvl_stream_feed(f->stream, data, len, &e) != BLVL_OK)
        return blvl__http_conn_refuse_err(f->conn, f->bad.code ? &f->bad : &e);
    return 0;
}

blvl_status blvl_fetch_url(blvl_http_stats *stats, const char *url, const char *out_path,
                           const blvl_http_options *http, blvl_error *err) {
    const blvl_options *opt = http ? &http->base : NULL;
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!url || !out_path)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no URL or no output path");
    if (!blvl_is_url(url))
        return blvl__fail(err, BLVL_E_ARGUMENT, "not an http:// or https:// URL: %s", url);
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    fetch_ctx f = {0};
    f.a = a;
    blvl_status st = blvl__container_out_open_opt(&f.out, out_path, opt, err);
    if (st != BLVL_OK)
        return st;
    f.fd = f.out.fd;
    st = blvl__http_conn_new(&f.conn, url, opt, http, err);
    if (st == BLVL_OK && http && http->cache_dir)
        st = blvl__http_cache_open_warn(&f.cache, http->cache_dir, http->cache_max_bytes, a,
                                        http->warn, http->warn_user, err);
    if (st == BLVL_OK)
        st = blvl_stream_new(&f.stream, on_stream, &f, opt, err);
    if (st == BLVL_OK) {
        if (!f.out.direct) /* a device or pipe written through has nothing to flush */
            flusher_start(&f.flush, f.fd);
        st = blvl__http_conn_get(f.conn, 0, UINT64_MAX, true, file_sink, &f, NULL, err);
    }
    int flush_error = flusher_stop(&f.flush);
    if (st == BLVL_OK)
        st = blvl_stream_finish(f.stream, err);
    if (st == BLVL_OK && f.bad.code != BLVL_OK) {
        st = f.bad.code;
        if (err)
            *err = f.bad;
    }
    if (st == BLVL_OK && flush_error)
        st = blvl__fail(err, BLVL_E_IO, "cannot flush %s: %s", blvl__container_out_name(&f.out),
                        strerror(flush_error));
    /* commit flushes, renames over out_path and flushes the directory; on failure it removes
     * the temporary, as abort does */
    if (st == BLVL_OK)
        st = blvl__container_out_commit(&f.out, err);
    else
        blvl__container_out_abort(&f.out);
    if (stats && f.conn)
        *stats = *blvl__http_conn_stats(f.conn);
    blvl_stream_free(f.stream);
    blvl__http_conn_free(f.conn);
    blvl__http_cache_close(f.cache);
    if (st == BLVL_OK)
        blvl__ok(err);
    return st;
}
