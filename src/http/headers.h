/* The response header lines the HTTP source relies on, parsed by our own bounds-checked code
 * (the server is hostile input): the status line, Content-Range, Content-Length, ETag,
 * Last-Modified, Content-Encoding and a multipart/byteranges Content-Type's boundary. Fed one line
 * at a time, as libcurl hands them over. Private to the http layer; fuzz/fuzz_http_headers.c feeds
 * it arbitrary lines. */
#ifndef BLVL_HTTP_HEADERS_H
#define BLVL_HTTP_HEADERS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BLVL__HTTP_VALUE_MAX 128   /* longest ETag / Last-Modified kept, NUL included */
#define BLVL__HTTP_BOUNDARY_MAX 70 /* RFC 2046: a boundary has 1 to 70 characters */

typedef struct blvl__http_head {
    int status; /* from the status line; 0 before one */
    /* Content-Range: bytes first-last/total ("*" total: total_known false) */
    bool has_range, total_known;
    uint64_t range_first, range_last, range_total;
    bool has_length;
    uint64_t length; /* Content-Length */
    char etag[BLVL__HTTP_VALUE_MAX];
    char last_modified[BLVL__HTTP_VALUE_MAX];
    /* Content-Type: multipart/byteranges; boundary=... (the boundary without quotes) */
    bool multipart;
    char boundary[BLVL__HTTP_BOUNDARY_MAX + 1];
    size_t boundary_len;
    /* Content-Encoding, lowercased ("" when none; longer values cut to 31 characters). */
    char encoding[32];
    /* A header we rely on was malformed (or a value too long): the response is refused. */
    bool bad;
    char bad_what[32];
} blvl__http_head;

/* Clears everything (a new response starts, e.g. after a redirect). */
void blvl__http_head_reset(blvl__http_head *h);
/* One header line (CR LF or LF at its end or not). A status line ("HTTP/...") resets the
 * fields first. Lines of other headers are ignored. Never reads past line[len - 1]. */
void blvl__http_head_line(blvl__http_head *h, const char *line, size_t len);
/* "bytes FIRST-LAST/TOTAL" or "bytes FIRST-LAST/" followed by "*": true when well formed with FIRST
 * <= LAST (and LAST < TOTAL when TOTAL is given). Values past 2^62 are refused. */
bool blvl__http_parse_content_range(const char *v, size_t len, uint64_t *first, uint64_t *last,
                                    uint64_t *total, bool *total_known);
/* The boundary of a "multipart/byteranges; boundary=B" Content-Type value (B a token or a
 * quoted string of 1 to 70 of RFC 2046's characters). Returns 1 when it is one (boundary[] NUL
 * terminated, *blen set), 0 when the type is another one, -1 when it is multipart/byteranges
 * without a boundary it could use. */
int blvl__http_parse_byteranges_type(const char *v, size_t len, char *boundary, size_t *blen);
#endif
