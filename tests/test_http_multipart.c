/* The multipart/byteranges parser (src/http/multipart.c) and the Content-Type boundary parser
 * (src/http/headers.c) on hand-written answers for a made-up file of 1000 bytes: parts in
 * order and out of order, a part coalescing two ranges and the gap between them, a body fed
 * whole and one byte at a time, a cut answer and the Range of its retry, the caps on ranges
 * and on the Range header, and each refusal with the rule its message names. The bytes
 * delivered are compared with the file's, byte for byte. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "http/headers.h"
#include "http/multipart.h"

#define TOTAL 1000u

static uint8_t file_byte(uint64_t i) {
    return (uint8_t)(i * 7 + 3);
}

/* What the sink received: a copy of the file, and how often each byte came. */
static uint8_t got[TOTAL];
static unsigned times[TOTAL];
static int stop_at = -1; /* the sink refuses at this call (-1: never) */
static int calls;

static int sink(void *user, uint64_t off, const uint8_t *data, size_t len) {
    (void)user;
    if (calls++ == stop_at)
        return 1;
    for (size_t i = 0; i < len; i++) {
        got[off + i] = data[i];
        times[off + i]++;
    }
    return 0;
}

static void reset_sink(void) {
    memset(got, 0, sizeof got);
    memset(times, 0, sizeof times);
    calls = 0;
    stop_at = -1;
}

/* An answer's body: parts given as "first-last" (file bytes), joined by the boundary "B0".
 * `extra` is appended after the closing delimiter; `close` false leaves it out. */
static size_t body_of(char *out, size_t cap, const char *preamble, const char *const *parts,
                      size_t n, bool close) {
    size_t w = (size_t)snprintf(out, cap, "%s", preamble);
    for (size_t i = 0; i < n; i++) {
        unsigned a, b;
        sscanf(parts[i], "%u-%u", &a, &b);
        w += (size_t)snprintf(out + w, cap - w,
                              "\r\n--B0\r\nContent-Type: application/octet-stream\r\n"
                              "Content-Range: bytes %u-%u/%u\r\n\r\n",
                              a, b, TOTAL);
        for (unsigned k = a; k <= b; k++)
            out[w++] = (char)file_byte(k);
    }
    if (close)
        w += (size_t)snprintf(out + w, cap - w, "\r\n--B0--\r\n");
    return w;
}

static void set_spans(blvl__span *s, const unsigned (*r)[2], size_t n) {
    for (size_t i = 0; i < n; i++)
        s[i] = (blvl__span){.start = r[i][0], .end = r[i][1]};
}

/* Feeds body[0..len) (in pieces of `step` bytes, 0 = at once) and finishes. */
static blvl_status run(blvl__span *s, size_t n, const char *body, size_t len, size_t step,
                       uint64_t total, blvl_error *err) {
    char text[256];
    blvl__http_spans_ask(s, n, 32, text, sizeof text);
    blvl__multipart m;
    blvl__http_multipart_init(&m, "B0", 2, total, s, n, sink, NULL);
    if (!step)
        step = len ? len : 1;
    for (size_t i = 0; i < len; i += step) {
        size_t k = len - i < step ? len - i : step;
        blvl_status st = blvl__http_multipart_feed(&m, (const uint8_t *)body + i, k, err);
        if (st != BLVL_OK)
            return st;
    }
    return blvl__http_multipart_finish(&m, err);
}

/* Every byte of the spans came once and equals the file's; nothing else came. */
static int exactly(const blvl__span *s, size_t n) {
    for (uint64_t i = 0; i < TOTAL; i++) {
        bool in = false;
        for (size_t k = 0; k < n; k++)
            in = in || (i >= s[k].start && i < s[k].end);
        if (times[i] != (in ? 1u : 0u) || (in && got[i] != file_byte(i)))
            return 0;
    }
    for (size_t k = 0; k < n; k++)
        if (s[k].got != s[k].end - s[k].start)
            return 0;
    return 1;
}

static char body[8192];

/* A refusal whose message holds `rule`. */
static int refused(const unsigned (*r)[2], size_t n, const char *const *parts, size_t np,
                   bool close, const char *tail, blvl_status code, const char *rule) {
    blvl__span s[8];
    set_spans(s, r, n);
    reset_sink();
    size_t len = body_of(body, sizeof body, "", parts, np, close);
    len += (size_t)snprintf(body + len, sizeof body - len, "%s", tail);
    blvl_error e = {0};
    blvl_status st = run(s, n, body, len, 0, TOTAL, &e);
    if (st != code || !strstr(e.message, rule)) {
        fprintf(stderr, "expected %s, got %d: %s\n", rule, (int)st, e.message);
        return 0;
    }
    return 1;
}

static void content_type(void) {
    char b[BLVL__HTTP_BOUNDARY_MAX + 1];
    size_t bl = 0;
    const char *v = "multipart/byteranges; boundary=00000000000000000001";
    CHECK(blvl__http_parse_byteranges_type(v, strlen(v), b, &bl) == 1);
    CHECK(bl == 20 && strcmp(b, "00000000000000000001") == 0);
    v = "Multipart/ByteRanges;charset=x; Boundary=\"a b'c\"";
    CHECK(blvl__http_parse_byteranges_type(v, strlen(v), b, &bl) == 1 && strcmp(b, "a b'c") == 0);
    v = "application/octet-stream";
    CHECK(blvl__http_parse_byteranges_type(v, strlen(v), b, &bl) == 0);
    v = "multipart/byterangesx; boundary=a";
    CHECK(blvl__http_parse_byteranges_type(v, strlen(v), b, &bl) == 0);
    v = "multipart/byteranges";
    CHECK(blvl__http_parse_byteranges_type(v, strlen(v), b, &bl) == -1); /* no boundary */
    v = "multipart/byteranges; boundary=";
    CHECK(blvl__http_parse_byteranges_type(v, strlen(v), b, &bl) == -1);
    v = "multipart/byteranges; boundary=\"open";
    CHECK(blvl__http_parse_byteranges_type(v, strlen(v), b, &bl) == -1);
    v = "multipart/byteranges; boundary=a<b";
    CHECK(blvl__http_parse_byteranges_type(v, strlen(v), b, &bl) == -1); /* not a bchar */
    char longb[128];
    snprintf(longb, sizeof longb, "multipart/byteranges; boundary=%071d", 1);
    CHECK(blvl__http_parse_byteranges_type(longb, strlen(longb), b, &bl) == -1); /* 71 chars */
    snprintf(longb, sizeof longb, "multipart/byteranges; boundary=%070d", 1);
    CHECK(blvl__http_parse_byteranges_type(longb, strlen(longb), b, &bl) == 1 && bl == 70);
    /* Through the header line parser: kept, or the response marked bad. */
    blvl__http_head h;
    blvl__http_head_reset(&h);
    blvl__http_head_line(&h, "HTTP/1.1 206 Partial Content\r\n", 31);
    const char *l = "Content-Type: multipart/byteranges; boundary=XyZ\r\n";
    blvl__http_head_line(&h, l, strlen(l));
    CHECK(h.multipart && !h.bad && strcmp(h.boundary, "XyZ") == 0 && h.boundary_len == 3);
    blvl__http_head_line(&h, l, strlen(l)); /* twice */
    CHECK(h.bad);
    blvl__http_head_reset(&h);
    l = "content-type: multipart/byteranges\r\n";
    blvl__http_head_line(&h, l, strlen(l));
    CHECK(h.bad && !h.multipart);
}

int main(void) {
    content_type();
    static const unsigned three[3][2] = {{10, 20}, {100, 150}, {900, 1000}};
    blvl__span s[40];

    /* In order, out of order, at once and byte by byte. */
    static const char *const in_order[] = {"10-19", "100-149", "900-999"};
    static const char *const shuffled[] = {"900-999", "10-19", "100-149"};
    for (int order = 0; order < 2; order++)
        for (size_t step = 0; step < 3; step++) {
            set_spans(s, three, 3);
            reset_sink();
            size_t len = body_of(body, sizeof body, order ? "" : "preamble\r\n",
                                 order ? shuffled : in_order, 3, true);
            blvl_error e = {0};
            CHECK_EQ_INT(run(s, 3, body, len, step, TOTAL, &e), BLVL_OK);
            CHECK(exactly(s, 3));
        }

    /* A part coalescing the first two ranges and the gap: the gap is not delivered. */
    static const char *const coalesced[] = {"10-149", "900-999"};
    set_spans(s, three, 3);
    reset_sink();
    size_t len = body_of(body, sizeof body, "", coalesced, 2, true);
    blvl_error e = {0};
    CHECK_EQ_INT(run(s, 3, body, len, 7, TOTAL, &e), BLVL_OK);
    CHECK(exactly(s, 3));
    /* Transport padding after a delimiter, an epilogue, bare LF line ends. */
    set_spans(s, three, 3);
    reset_sink();
    len = body_of(body, sizeof body, "", in_order, 3, true);
    len += (size_t)snprintf(body + len, sizeof body - len, "epilogue");
    CHECK_EQ_INT(run(s, 3, body, len, 0, TOTAL, &e), BLVL_OK);
    CHECK(exactly(s, 3));

    /* A cut in the middle of the second part: the first range and half of the second came;
     * the retry asks for the rest of the second and all of the third. */
    set_spans(s, three, 3);
    reset_sink();
    len = body_of(body, sizeof body, "", in_order, 3, true);
    const char *mid = memchr(body, 'C', len); /* first part's Content-Type */
    mid = strstr(mid + 1, "Content-Range: bytes 100-149");
    mid = strstr(mid, "\r\n\r\n") + 4 + 25; /* 25 bytes into the second part */
    char text[256];
    blvl__http_spans_ask(s, 3, 32, text, sizeof text);
    blvl__multipart m;
    blvl__http_multipart_init(&m, "B0", 2, TOTAL, s, 3, sink, NULL);
    CHECK_EQ_INT(blvl__http_multipart_feed(&m, (const uint8_t *)body, (size_t)(mid - body), &e),
                 BLVL_OK);
    CHECK_EQ_INT(blvl__http_multipart_finish(&m, &e), BLVL_E_HTTP);
    CHECK(strstr(e.message, "multipart boundary") != NULL);
    CHECK(s[0].got == 10 && s[1].got == 25 && s[2].got == 0);
    CHECK_EQ_INT(blvl__http_spans_ask(s, 3, 32, text, sizeof text), 2);
    CHECK(strcmp(text, "125-149,900-999") == 0);
    /* ... and the retry's answer completes them, every byte once. */
    static const char *const rest[] = {"125-149", "900-999"};
    len = body_of(body, sizeof body, "", rest, 2, true);
    blvl__http_multipart_init(&m, "B0", 2, TOTAL, s, 3, sink, NULL);
    CHECK_EQ_INT(blvl__http_multipart_feed(&m, (const uint8_t *)body, len, &e), BLVL_OK);
    CHECK_EQ_INT(blvl__http_multipart_finish(&m, &e), BLVL_OK);
    CHECK(exactly(s, 3));

    /* Caps: 32 ranges per request, and the Range header's length. */
    unsigned many[40][2];
    for (unsigned i = 0; i < 40; i++) {
        many[i][0] = i * 20;
        many[i][1] = i * 20 + 10;
    }
    set_spans(s, (const unsigned(*)[2])many, 40);
    CHECK_EQ_INT(blvl__http_spans_ask(s, 40, 32, text, sizeof text), 32 > 0 ? 32 : 0);
    CHECK(s[31].in_req && !s[32].in_req);
    CHECK_EQ_INT(blvl__http_spans_ask(s, 40, 32, text, 20), 3); /* "0-9,20-29,40-49" fits 19 */
    CHECK(strcmp(text, "0-9,20-29,40-49") == 0 && !s[3].in_req);

    /* Refusals, each naming its rule. */
    static const char *const not_asked[] = {"11-19"};
    CHECK(refused(three, 3, not_asked, 1, true, "", BLVL_E_HTTP, "multipart part range"));
    static const char *const past_end[] = {"10-20"};
    CHECK(refused(three, 3, past_end, 1, true, "", BLVL_E_HTTP, "multipart part range"));
    static const char *const twice[] = {"10-19", "10-19"};
    CHECK(refused(three, 3, twice, 2, true, "", BLVL_E_HTTP, "multipart overlap"));
    static const char *const overlap[] = {"100-149", "10-149"};
    CHECK(refused(three, 3, overlap, 2, true, "", BLVL_E_HTTP, "multipart overlap"));
    CHECK(refused(three, 3, in_order, 0, true, "", BLVL_E_HTTP, "multipart empty"));
    CHECK(refused(three, 3, in_order, 3, false, "", BLVL_E_HTTP, "multipart boundary"));

    /* Hand-made bodies for the rest. */
    struct {
        const char *body, *rule;
        blvl_status code;
    } bad[] = {
        {"\r\n--B0\r\nContent-Type: x\r\n\r\n", "without a Content-Range", BLVL_E_HTTP},
        {"\r\n--B0\r\nContent-Range: bytes 10-19/*\r\n\r\n", "malformed Content-Range",
         BLVL_E_HTTP},
        {"\r\n--B0\r\nContent-Range: bytes 10-19/999\r\n\r\n", "another file size",
         BLVL_E_HTTP_CHANGED},
        {"\r\n--B0\r\nContent-Range: bytes 10-19/1000\r\nContent-Range: bytes 10-19/1000\r\n\r\n",
         "Content-Range twice", BLVL_E_HTTP},
        {"\r\n--B0\r\nno colon\r\n\r\n", "NAME: VALUE", BLVL_E_HTTP},
        {"\r\n--B0\r\nContent-Range: bytes 10-19/1000\r\n\r\n0123456789--B0--", "more bytes than",
         BLVL_E_HTTP},
        {"\r\n--B0\r\nContent-Range: bytes 10-19/1000\r\n\r\n0123456789\r\n--B1--\r\n",
         "not followed by the boundary", BLVL_E_HTTP},
        {"\r\n--B0--\r\n", "multipart empty", BLVL_E_HTTP},
        {"\r\n--b0\r\n", "closing boundary", BLVL_E_HTTP}, /* the boundary is case-sensitive */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        set_spans(s, three, 3);
        reset_sink();
        blvl_error be = {0};
        blvl_status st = run(s, 3, bad[i].body, strlen(bad[i].body), 0, TOTAL, &be);
        if (st != bad[i].code || !strstr(be.message, bad[i].rule))
            fprintf(stderr, "bad body %zu: %d %s\n", i, (int)st, be.message);
        CHECK(st == bad[i].code && strstr(be.message, bad[i].rule));
    }

    /* Bounds: a line, the preamble, a part's headers, the epilogue. */
    static char big[16384];
    memset(big, 'a', sizeof big);
    set_spans(s, three, 3);
    CHECK_EQ_INT(run(s, 3, big, 2000, 0, TOTAL, &e), BLVL_E_HTTP); /* one long preamble line */
    for (size_t i = 0; i + 1 < 2000; i += 10)
        memcpy(big + i, "aaaaaaaa\r\n", 10);
    set_spans(s, three, 3);
    CHECK_EQ_INT(run(s, 3, big, 2000, 0, TOTAL, &e), BLVL_E_HTTP);
    CHECK(strstr(e.message, "no boundary in the first bytes") != NULL);
    len = (size_t)snprintf(big, sizeof big, "--B0\r\n");
    for (int i = 0; i < 500; i++)
        len += (size_t)snprintf(big + len, sizeof big - len, "X-Pad: 0123456789\r\n");
    set_spans(s, three, 3);
    CHECK_EQ_INT(run(s, 3, big, len, 0, TOTAL, &e), BLVL_E_HTTP);
    CHECK(strstr(e.message, "headers are too long") != NULL);
    set_spans(s, three, 3);
    reset_sink();
    len = body_of(big, sizeof big, "", in_order, 3, true);
    memset(big + len, 'e', 5000);
    CHECK_EQ_INT(run(s, 3, big, len + 5000, 0, TOTAL, &e), BLVL_E_HTTP);
    CHECK(strstr(e.message, "multipart epilogue") != NULL);

    /* A sink that stops: the parse stops, every later feed refuses. */
    set_spans(s, three, 3);
    reset_sink();
    stop_at = 1;
    len = body_of(body, sizeof body, "", in_order, 3, true);
    CHECK_EQ_INT(run(s, 3, body, len, 0, TOTAL, &e), BLVL_E_HTTP);
    CHECK(s[1].got == 0 && times[100] == 0);
    return check_report("test_http_multipart");
}
