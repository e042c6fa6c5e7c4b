/* One HTTP connection to one URL: a libcurl easy handle (kept alive between requests), the
 * retry, resume, time-out and byte-cap rules, and what the first response said about the file
 * (size, ETag, Last-Modified) so that any later response that differs is refused. Not
 * thread-safe: the level serialises its reads (src/http/source.c). Private to the http layer. */
#ifndef BLVL_HTTP_CONN_H
#define BLVL_HTTP_CONN_H
#include <stdbool.h>
#include <stdint.h>

#include "blvl/http.h"
#include "http/headers.h"
#include "http/multipart.h"

typedef struct blvl__conn blvl__conn;

/* Where a response's body bytes go: `off` is the file offset of data[0]. Bytes already
 * delivered (before a resume) are never delivered twice. Return 0, or non-zero after
 * blvl__http_conn_refuse to stop the transfer for good. `whole` is true when the server answered
 * with the whole file (200) rather than a range. */
typedef int (*blvl__conn_sink)(void *user, uint64_t off, const void *data, size_t len, bool whole);

blvl_status blvl__http_conn_new(blvl__conn **out, const char *url, const blvl_options *opt,
                                const blvl_http_options *http, blvl_error *err);
void blvl__http_conn_free(blvl__conn *c);

/* Bytes [start, end) of the file (end = UINT64_MAX: to its end; start 0 and end UINT64_MAX:
 * a plain GET without a Range header). `allow_whole`: a 200 with the whole file is taken
 * (delivered from offset 0, bytes before `start` skipped) instead of refused. Transient
 * failures are retried with doubling backoff; a cut transfer resumes from its last byte.
 * *whole (may be NULL) tells whether the bytes came from a 200. */
blvl_status blvl__http_conn_get(blvl__conn *c, uint64_t start, uint64_t end, bool allow_whole,
                                blvl__conn_sink sink, void *user, bool *whole, blvl_error *err);
/* Several ranges: s[0..n) sorted by start, not overlapping, `got` 0 (or what arrived already).
 * Asked together in one request (multipart/byteranges, at most 32 ranges and 1000 characters
 * of Range header per request, more requests for more); an answer of one part covering a
 * coalesced span is taken too. A server that answers several ranges with 200 has that
 * transfer stopped at its headers and is asked one range per request from then on. A cut
 * answer is retried for what did not arrive whole. Bytes reach the sink once each, in order
 * within a span, spans in any order. */
blvl_status blvl__http_conn_get_spans(blvl__conn *c, blvl__span *s, size_t n, blvl__conn_sink sink,
                                      void *user, blvl_error *err);
/* For a sink: records why it stops the transfer (returned by blvl__http_conn_get). */
int blvl__http_conn_refuse(blvl__conn *c, blvl_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same with an error already made (its message kept as it is). */
int blvl__http_conn_refuse_err(blvl__conn *c, const blvl_error *e);

/* The pause before retry number attempt + 1 (attempt from 0): first_ms doubled each time, at
 * most 30 s (or first_ms when that is longer). */
uint64_t blvl__http_conn_retry_pause_ms(uint32_t first_ms, unsigned attempt);
/* The longest one request can take under these settings (NULL: the defaults) against a server
 * that sends nothing or sends under the minimum speed, retries and pauses included: each
 * attempt ends within min(stall, speed time) and a 50 ms check. UINT64_MAX without a minimum
 * speed (a server that trickles is never given up on). */
uint64_t blvl__http_conn_budget_ms(const blvl_http_options *http);

/* The file's size once a response told it (0 and false before). */
bool blvl__http_conn_size(const blvl__conn *c, uint64_t *size);
const char *blvl__http_conn_url(const blvl__conn *c);
blvl_http_stats *blvl__http_conn_stats(blvl__conn *c);
const blvl_allocator *blvl__http_conn_allocator(const blvl__conn *c);
#endif
