/* The HTTP response header parser (src/http/headers.c) on hand-written lines: what it keeps,
 * what it refuses (numbers past 2^62, first > last, last >= total, values too long or not
 * printable), that a status line starts a new response, and the public URL test. */
#include <stdint.h>
#include <string.h>

#include "blvl/http.h"
#include "check.h"
#include "http/headers.h"

static void feed(blvl__http_head *h, const char *line) {
    blvl__http_head_line(h, line, strlen(line));
}

static int range_ok(const char *v, uint64_t f, uint64_t l, uint64_t t, int tk) {
    uint64_t a = 9, b = 9, c = 9;
    bool k = false;
    if (!blvl__http_parse_content_range(v, strlen(v), &a, &b, &c, &k))
        return 0;
    return a == f && b == l && (!tk || c == t) && k == (tk != 0);
}

static int range_bad(const char *v) {
    uint64_t a, b, c;
    bool k;
    return !blvl__http_parse_content_range(v, strlen(v), &a, &b, &c, &k);
}

int main(void) {
    CHECK(range_ok("bytes 0-131071/134217728", 0, 131071, 134217728, 1));
    CHECK(range_ok("Bytes   5-5/6  ", 5, 5, 6, 1));
    CHECK(range_ok("bytes 100-199/*", 100, 199, 0, 0));
    CHECK(range_ok("bytes 0-4611686018427387902/4611686018427387904", 0, 4611686018427387902ull,
                   4611686018427387904ull, 1));
    CHECK(range_bad("bytes 0-4611686018427387904/4611686018427387905")); /* past 2^62 */
    CHECK(range_bad("bytes 99999999999999999999-1/2"));
    /* 2^64 + 4: a number whose digits wrap a 64-bit value to 4 is refused, not read as 4 */
    CHECK(range_bad("bytes 0-1/18446744073709551620"));
    CHECK(range_bad("bytes 0-18446744073709551617/20")); /* 2^64 + 1 */
    CHECK(range_bad("bytes 5-4/10"));                    /* first > last */
    CHECK(range_bad("bytes 0-10/10"));                   /* last >= total */
    CHECK(range_bad("bytes */100"));                     /* unsatisfied: no range */
    CHECK(range_bad("items 0-1/2"));
    CHECK(range_bad("bytes0-1/2"));
    CHECK(range_bad("bytes 0-1/2x"));
    CHECK(range_bad("bytes -1/2"));
    CHECK(range_bad("bytes 0-/2"));
    CHECK(range_bad(""));
    CHECK(range_bad("bytes"));
    CHECK(range_bad("bytes 1"));

    blvl__http_head h;
    blvl__http_head_reset(&h);
    feed(&h, "HTTP/1.1 206 Partial Content\r\n");
    feed(&h, "content-range: bytes 0-9/100\r\n");
    feed(&h, "Content-Length: 10\r\n");
    feed(&h, "ETag: \"abc-1\"\r\n");
    feed(&h, "Last-Modified: Tue, 01 Dec 2026 16:00:00 GMT\r\n");
    feed(&h, "X-Other: whatever: with colons\r\n");
    feed(&h, "\r\n");
    CHECK_EQ_INT(h.status, 206);
    CHECK(h.has_range && h.total_known && h.range_first == 0 && h.range_last == 9 &&
          h.range_total == 100);
    CHECK(h.has_length && h.length == 10);
    CHECK(strcmp(h.etag, "\"abc-1\"") == 0);
    CHECK(strcmp(h.last_modified, "Tue, 01 Dec 2026 16:00:00 GMT") == 0);
    CHECK(!h.bad);

    /* A new status line (after a redirect) forgets the previous response. */
    feed(&h, "HTTP/2 200\r\n");
    CHECK_EQ_INT(h.status, 200);
    CHECK(!h.has_range && !h.has_length && h.etag[0] == 0);

    blvl__http_head_reset(&h);
    feed(&h, "HTTP/1.1 206 X\r\n");
    feed(&h, "Content-Range: bytes 0-9/100\r\n");
    feed(&h, "Content-Range: bytes 0-9/100\r\n");
    CHECK(h.bad && strcmp(h.bad_what, "Content-Range twice") == 0);

    blvl__http_head_reset(&h);
    feed(&h, "HTTP/1.1 200 OK\n");
    feed(&h, "Content-Length: 12a\n");
    CHECK(h.bad && strcmp(h.bad_what, "Content-Length") == 0);

    char longtag[300];
    memcpy(longtag, "ETag: ", 6);
    memset(longtag + 6, 'x', 200);
    longtag[206] = 0;
    blvl__http_head_reset(&h);
    feed(&h, "HTTP/1.1 200 OK");
    feed(&h, longtag);
    CHECK(h.bad && strcmp(h.bad_what, "ETag") == 0);

    blvl__http_head_reset(&h);
    feed(&h, "HTTP/1.1 200 OK");
    feed(&h, "Last-Modified: a\x01z");
    CHECK(h.bad && strcmp(h.bad_what, "Last-Modified") == 0);

    blvl__http_head_reset(&h);
    feed(&h, "HTTP/1.1 2000 Huge");
    CHECK(h.bad && h.status == 0);
    blvl__http_head_reset(&h);
    feed(&h, "HTTP/1.1 099 Low");
    CHECK(h.bad && h.status == 0);

    /* Content-Encoding: kept lowercased to be named when refused (conn.c); control bytes
     * replaced, a long value cut to fit; none after a new status line. */
    blvl__http_head_reset(&h);
    feed(&h, "HTTP/1.1 206 Partial Content");
    CHECK(h.encoding[0] == 0);
    feed(&h, "Content-Encoding:  GZip \r\n");
    CHECK(strcmp(h.encoding, "gzip") == 0 && !h.bad);
    feed(&h, "Content-Encoding: br\x01x-very-long-name-of-an-encoding-that-goes-on");
    CHECK(strlen(h.encoding) == sizeof h.encoding - 1);
    CHECK(strncmp(h.encoding, "br?x-very-long", 14) == 0);
    feed(&h, "HTTP/1.1 200 OK");
    CHECK(h.encoding[0] == 0);

    /* A line without its end, and bytes past `len` that must not be read. */
    blvl__http_head_reset(&h);
    const char buf[] = "ETag: \"ab\"GARBAGE";
    blvl__http_head_line(&h, buf, 10);
    CHECK(strcmp(h.etag, "\"ab\"") == 0);

    CHECK(blvl_is_url("http://127.0.0.1/x.blvl"));
    CHECK(blvl_is_url("https://example.invalid/x.blvl"));
    CHECK(!blvl_is_url("ftp://x/y"));
    CHECK(!blvl_is_url("level.blvl"));
    CHECK(!blvl_is_url("HTTP://x")); /* scheme compared as written by blvl users: lowercase */
    CHECK(!blvl_is_url(NULL));

    blvl_level *lv = (blvl_level *)1;
    blvl_error err;
    CHECK_EQ_INT(blvl_open_url(&lv, "level.blvl", NULL, &err), BLVL_E_ARGUMENT);
    CHECK(lv == NULL);
    CHECK(strncmp(err.message, "argument: ", 10) == 0);
    CHECK_EQ_INT(blvl_fetch_url(NULL, "file:///etc/passwd", "x.blvl", NULL, &err), BLVL_E_ARGUMENT);
    blvl_http_stats st;
    memset(&st, 0xff, sizeof st);
    blvl_http_get_stats(NULL, &st);
    CHECK(st.bytes_received == 0 && st.requests == 0 && !st.ranges);
    return check_report("test_http_headers");
}
