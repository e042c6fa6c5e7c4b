/* blvl view's HTTP request parser (cli/view_request.c, compiled in: it belongs to the blvl
 * program) on requests with known answers: what it accepts, the status of each refusal, the
 * limits at their edges, and the query decoder. */
#include <stdlib.h>

#include "../cli/view_request.c"
#include "check.h"

static view_parse parse(const char *s, view_request *rq) {
    return view_request_parse(s, strlen(s), rq);
}

int main(void) {
    view_request rq;
    CHECK_EQ_INT(
        parse("GET /view.js?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8765\r\nAccept: */*\r\n\r\n", &rq),
        VIEW_PARSE_OK);
    CHECK(strcmp(rq.path, "/view.js") == 0 && strcmp(rq.query, "x=1") == 0);
    CHECK(strcmp(rq.host, "127.0.0.1:8765") == 0);
    CHECK_EQ_INT(rq.head_size, strlen("GET /view.js?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8765\r\n"
                                      "Accept: */*\r\n\r\n"));
    /* cut anywhere before the blank line: more; a line not ended with CRLF: bad */
    CHECK_EQ_INT(parse("GET / HTTP/1.1\r\nHost: a\r\n", &rq), VIEW_PARSE_MORE);
    CHECK_EQ_INT(parse("GE", &rq), VIEW_PARSE_MORE);
    CHECK_EQ_INT(parse("GET / HTTP/1.1\nHost: a\n\n", &rq), VIEW_PARSE_BAD);
    CHECK_EQ_INT(parse("\x16\x03\x01", &rq), VIEW_PARSE_BAD);
    CHECK_EQ_INT(parse("POST / HTTP/1.1\r\n\r\n", &rq), VIEW_PARSE_METHOD);
    CHECK_EQ_INT(parse("HEAD / HTTP/1.1\r\n\r\n", &rq), VIEW_PARSE_METHOD);
    CHECK_EQ_INT(parse("GET / HTTP/2.0\r\n\r\n", &rq), VIEW_PARSE_VERSION);
    CHECK_EQ_INT(parse("GET / HTTP/1.2\r\n\r\n", &rq), VIEW_PARSE_VERSION);
    CHECK_EQ_INT(parse("GET http://a/ HTTP/1.1\r\n\r\n", &rq), VIEW_PARSE_BAD);
    CHECK_EQ_INT(parse("GET /#x HTTP/1.1\r\n\r\n", &rq), VIEW_PARSE_BAD);
    CHECK_EQ_INT(parse("GET  / HTTP/1.1\r\n\r\n", &rq), VIEW_PARSE_BAD);
    CHECK_EQ_INT(parse("GET / HTTP/1.1\r\n folded\r\n\r\n", &rq), VIEW_PARSE_BAD);
    CHECK_EQ_INT(parse("GET / HTTP/1.1\r\nNo colon\r\n\r\n", &rq), VIEW_PARSE_BAD);
    CHECK_EQ_INT(parse("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", &rq), VIEW_PARSE_BAD);
    CHECK_EQ_INT(parse("GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", &rq),
                 VIEW_PARSE_BAD);
    CHECK_EQ_INT(parse("GET / HTTP/1.1\r\nContent-Length: 5\r\n\r\n", &rq), VIEW_PARSE_BAD);
    CHECK_EQ_INT(parse("GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n", &rq), VIEW_PARSE_OK);
    CHECK_EQ_INT(view_request_parse("GET / HTTP/1.1\r\nA: \0\r\n\r\n", 24, &rq), VIEW_PARSE_BAD);

    /* limits: the path, the query, the head, the header count */
    char big[VIEW_HEAD_MAX + 64];
    memset(big, 'a', sizeof big);
    memcpy(big, "GET /", 5);
    snprintf(big + 5 + VIEW_PATH_MAX - 2, 32, " HTTP/1.1\r\n\r\n"); /* a path of 255 bytes */
    CHECK_EQ_INT(parse(big, &rq), VIEW_PARSE_OK);
    CHECK_EQ_INT(strlen(rq.path), VIEW_PATH_MAX - 1);
    memset(big, 'a', sizeof big);
    memcpy(big, "GET /", 5);
    snprintf(big + 5 + VIEW_PATH_MAX - 1, 32, " HTTP/1.1\r\n\r\n"); /* 256 bytes */
    CHECK_EQ_INT(parse(big, &rq), VIEW_PARSE_TOO_LARGE);
    memset(big, 'a', sizeof big);
    CHECK_EQ_INT(view_request_parse(big, VIEW_HEAD_MAX, &rq), VIEW_PARSE_TOO_LARGE);
    CHECK_EQ_INT(view_request_parse(big, VIEW_HEAD_MAX - 1, &rq), VIEW_PARSE_MORE);
    size_t n = (size_t)snprintf(big, sizeof big, "GET / HTTP/1.1\r\n");
    for (int i = 0; i <= VIEW_HEADERS_MAX; i++)
        n += (size_t)snprintf(big + n, sizeof big - n, "X: %d\r\n", i);
    snprintf(big + n, sizeof big - n, "\r\n");
    CHECK_EQ_INT(parse(big, &rq), VIEW_PARSE_TOO_LARGE);
    CHECK_EQ_INT(view_parse_status(VIEW_PARSE_TOO_LARGE), 431);
    CHECK_EQ_INT(view_parse_status(VIEW_PARSE_METHOD), 405);

    /* the query decoder */
    char v[16];
    CHECK(view_query_get("kind=ready&text=a%20b+c", "text", v, sizeof v) && !strcmp(v, "a b c"));
    CHECK(view_query_get("kind=ready&text=a%2", "text", v, sizeof v) && !strcmp(v, "a%2"));
    CHECK(view_query_get("text=%0a%41", "text", v, sizeof v) && !strcmp(v, "?A"));
    CHECK(view_query_get("text=0123456789abcdefghij", "text", v, sizeof v) && strlen(v) == 15);
    CHECK(!view_query_get("texts=1&tex=2", "text", v, sizeof v) && v[0] == 0);
    CHECK(view_query_get("a&text", "text", v, sizeof v) && v[0] == 0);
    return check_report("test_view_request");
}
