/* blvl_http_stream_feed: a level's bytes over HTTP, in order, into a streaming reader, so each
 * section is checked the moment its last byte lands (blvl/http.h; examples/stream_client.c). */
#include <stdint.h>
#include <string.h>

#include "blvl/http.h"
#include "common/error.h"
#include "http/conn.h"

typedef struct stream_feed {
    blvl__conn *conn;
    blvl_stream *stream;
    uint64_t fed;
} stream_feed;

static int feed_sink(void *user, uint64_t off, const void *data, size_t len, bool whole) {
    stream_feed *f = user;
    (void)whole;
    if (off != f->fed)
        return blvl__http_conn_refuse(f->conn, BLVL_E_HTTP, "bytes out of order from %s",
                                      blvl__http_conn_url(f->conn));
    blvl_error e = {0};
    if (blvl_stream_feed(f->stream, data, len, &e) != BLVL_OK)
        return blvl__http_conn_refuse_err(f->conn, &e);
    f->fed += len;
    return 0;
}

blvl_status blvl_http_stream_feed(blvl_stream *s, blvl_http_stats *stats, const char *url,
                                  const blvl_http_options *http, blvl_error *err) {
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!s || !url)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no stream or no URL");
    if (!blvl_is_url(url))
        return blvl__fail(err, BLVL_E_ARGUMENT, "not an http:// or https:// URL: %s", url);
    stream_feed f = {NULL, s, 0};
    blvl_status st = blvl__http_conn_new(&f.conn, url, blvl_stream_options(s), http, err);
    if (st == BLVL_OK)
        st = blvl__http_conn_get(f.conn, 0, UINT64_MAX, true, feed_sink, &f, NULL, err);
    if (st == BLVL_OK)
        st = blvl_stream_finish(s, err);
    if (stats && f.conn)
        *stats = *blvl__http_conn_stats(f.conn);
    blvl__http_conn_free(f.conn);
    return st;
}
