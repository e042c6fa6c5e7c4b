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
    /* bytes are decoded as sent (view_text_clean strips what may not be printed), but a %00
     * cannot live in a C string */
    CHECK(view_query_get("text=%0a%41", "text", v, sizeof v) && !strcmp(v, "\nA"));
    CHECK(view_query_get("text=a%00b", "text", v, sizeof v) && !strcmp(v, "ab"));
    CHECK(view_query_get("text=0123456789abcdefghij", "text", v, sizeof v) && strlen(v) == 15);
    CHECK(!view_query_get("texts=1&tex=2", "text", v, sizeof v) && v[0] == 0);
    CHECK(view_query_get("a&text", "text", v, sizeof v) && v[0] == 0);

    /* Origin and Sec-Fetch-Site are kept; a second of either is refused like a second Host */
    CHECK_EQ_INT(parse("GET /report HTTP/1.1\r\nOrigin: http://evil.example\r\n"
                       "Sec-Fetch-Site: cross-site\r\n\r\n",
                       &rq),
                 VIEW_PARSE_OK);
    CHECK(rq.has_origin && !strcmp(rq.origin, "http://evil.example"));
    CHECK(!strcmp(rq.fetch_site, "cross-site"));
    CHECK_EQ_INT(parse("GET / HTTP/1.1\r\n\r\n", &rq), VIEW_PARSE_OK);
    CHECK(!rq.has_origin && !rq.origin[0] && !rq.fetch_site[0]);
    CHECK_EQ_INT(parse("GET / HTTP/1.1\r\nOrigin: a\r\norigin: b\r\n\r\n", &rq), VIEW_PARSE_BAD);
    CHECK_EQ_INT(
        parse("GET / HTTP/1.1\r\nSec-Fetch-Site: none\r\nSEC-FETCH-SITE: none\r\n\r\n", &rq),
        VIEW_PARSE_BAD);
    n = (size_t)snprintf(big, sizeof big, "GET / HTTP/1.1\r\nOrigin: http://127.0.0.1:8765");
    memset(big + n, '0', VIEW_HOST_MAX); /* an origin too long to keep: kept as none of ours */
    snprintf(big + n + VIEW_HOST_MAX, sizeof big - n - VIEW_HOST_MAX,
             "\r\nSec-Fetch-Site: same-originxxxxxxxxxxxxxxxxxxxx\r\n\r\n");
    CHECK_EQ_INT(parse(big, &rq), VIEW_PARSE_OK);
    CHECK(rq.has_origin && rq.origin[0] == 0);
    CHECK_EQ_INT(strlen(rq.fetch_site), VIEW_FETCH_SITE_MAX - 1);

    /* view_guard: origin, fetch site, token */
    const char *tok = "0123456789abcdef0123456789abcdef";
    static const struct {
        const char *head;
        int allowed;
    } g[] = {
        {"GET /report?t=0123456789abcdef0123456789abcdef HTTP/1.1\r\n\r\n", 1},
        {"GET /report?kind=a&t=0123456789abcdef0123456789abcdef&x HTTP/1.1\r\n"
         "Origin: http://127.0.0.1:8765\r\nSec-Fetch-Site: same-origin\r\n\r\n",
         1},
        {"GET /report?t=0123456789abcdef0123456789abcdef HTTP/1.1\r\n"
         "Origin: http://localhost:8765\r\nSec-Fetch-Site: none\r\n\r\n",
         1},
        {"GET /report HTTP/1.1\r\n\r\n", 0},                                       /* no token */
        {"GET /report?t= HTTP/1.1\r\n\r\n", 0},                                    /* empty */
        {"GET /report?t=0123456789abcdef0123456789abcdee HTTP/1.1\r\n\r\n", 0},    /* last */
        {"GET /report?t=1123456789abcdef0123456789abcdef HTTP/1.1\r\n\r\n", 0},    /* first */
        {"GET /report?t=0123456789abcdef0123456789abcde HTTP/1.1\r\n\r\n", 0},     /* short */
        {"GET /report?t=0123456789abcdef0123456789abcdef0 HTTP/1.1\r\n\r\n", 0},   /* long */
        {"GET /report?t=0123456789abcdef0123456789abcdef%00 HTTP/1.1\r\n\r\n", 1}, /* %00 gone */
        {"GET /report?t=0123456789ABCDEF0123456789abcdef HTTP/1.1\r\n\r\n", 0},    /* case */
        {"GET /report?T=0123456789abcdef0123456789abcdef HTTP/1.1\r\n\r\n", 0},    /* key */
        {"GET /report?t=0123456789abcdef0123456789abcdef HTTP/1.1\r\n"
         "Origin: http://evil.example\r\n\r\n",
         0},
        {"GET /report?t=0123456789abcdef0123456789abcdef HTTP/1.1\r\n"
         "Origin: http://127.0.0.1:8766\r\n\r\n",
         0}, /* another port: another origin */
        {"GET /report?t=0123456789abcdef0123456789abcdef HTTP/1.1\r\n"
         "Origin: https://127.0.0.1:8765\r\n\r\n",
         0},
        {"GET /report?t=0123456789abcdef0123456789abcdef HTTP/1.1\r\nOrigin: null\r\n\r\n", 0},
        {"GET /report?t=0123456789abcdef0123456789abcdef HTTP/1.1\r\nOrigin: \r\n\r\n", 0},
        {"GET /report?t=0123456789abcdef0123456789abcdef HTTP/1.1\r\n"
         "Sec-Fetch-Site: cross-site\r\n\r\n",
         0},
        {"GET /report?t=0123456789abcdef0123456789abcdef HTTP/1.1\r\n"
         "Sec-Fetch-Site: same-site\r\n\r\n",
         0},
    };
    for (size_t i = 0; i < sizeof g / sizeof *g; i++) {
        CHECK_EQ_INT(parse(g[i].head, &rq), VIEW_PARSE_OK);
        const char *why = view_guard(&rq, 8765, tok);
        if ((why == NULL) != g[i].allowed)
            fprintf(stderr, "guard case %zu: %s\n", i, why ? why : "allowed");
        CHECK_EQ_INT(why == NULL, g[i].allowed);
    }

    /* view_text_clean: C0, DEL, C1 raw and as UTF-8, invalid UTF-8 removed; the rest kept */
    static const struct {
        const char *in, *out;
    } c[] = {
        {"plain text 1.5", "plain text 1.5"},
        {"a\nb\rc\td\x1b[31me\x7f", "abcd[31me"},
        {"x\x9b"
         "31my\x85z\x80\x9f",
         "x31myz"}, /* raw C1: no UTF-8 starts so */
        {"x\xc2\x9b"
         "31my\xc2\x85z\xc2\x80",
         "x31myz"}, /* U+009B, U+0085, U+0080 */
        {"\xc2\xa0\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
         "\xc2\xa0\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"},
        {"\xc0\xafx\xe0\x80\xafy", "xy"},                 /* overlong forms */
        {"\xed\xa0\x80z\xf4\x90\x80\x80w\xf5\x80", "zw"}, /* surrogate, > U+10FFFF */
        {"cut \xe2\x82", "cut "},                         /* a sequence cut short */
        {"\xe2\x82\x1b", ""},                             /* its next byte is looked at */
        {"\xc2", ""},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        char t[64];
        snprintf(t, sizeof t, "%s", c[i].in);
        size_t len = view_text_clean(t);
        if (strcmp(t, c[i].out) != 0)
            fprintf(stderr, "clean case %zu: got \"%s\"\n", i, t);
        CHECK(strcmp(t, c[i].out) == 0 && len == strlen(c[i].out));
    }
    return check_report("test_view_request");
}
