/* Fuzz blvl view's HTTP request parser (cli/view_request.c) and its query decoder: any bytes,
 * whole or cut anywhere, must parse to an answer without reading outside the input, and a
 * parsed request's fields must be NUL-terminated within their limits. The parser is part of
 * the blvl program, not the library, so its one file is compiled in here. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/view_request.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken property stops the fuzzer in every build type (assert would vanish under NDEBUG,
 * as in a Release build). */
static void need(int ok) {
    if (!ok)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* an exact-size copy, so ASan sees a read one past the end */
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    view_request rq;
    for (size_t cut = size > 64 ? size - 64 : 0; cut <= size; cut += 16) {
        view_parse p = view_request_parse(buf, cut, &rq);
        (void)view_parse_status(p);
        if (p == VIEW_PARSE_OK) {
            need(memchr(rq.path, 0, sizeof rq.path) && rq.path[0] == '/');
            need(memchr(rq.query, 0, sizeof rq.query) != NULL);
            need(memchr(rq.host, 0, sizeof rq.host) != NULL);
            need(memchr(rq.origin, 0, sizeof rq.origin) != NULL);
            need(memchr(rq.fetch_site, 0, sizeof rq.fetch_site) != NULL);
            /* the guard on whatever was parsed: an answer, nothing read past a field */
            (void)view_guard(&rq, 8765, "0123456789abcdef0123456789abcdef");
            need(rq.head_size <= cut && rq.head_size <= VIEW_HEAD_MAX);
            char v[64];
            view_query_get(rq.query, "kind", v, sizeof v);
            need(strlen(v) < sizeof v);
            view_query_get(rq.query, "text", v, 1);
            need(v[0] == 0);
        }
        if (cut == size)
            break;
    }
    view_parse p = view_request_parse(buf, size, &rq);
    (void)p;
    /* the query decoder on the raw bytes as a string */
    char *q = malloc(size + 1);
    if (q) {
        memcpy(q, data, size);
        q[size] = 0;
        char v[32];
        view_query_get(q, "a", v, sizeof v);
        need(strlen(v) < sizeof v);
        /* what /report prints: no control byte, no length growth, only valid UTF-8 left */
        size_t before = strlen(q), after = view_text_clean(q);
        need(after <= before && after == strlen(q));
        for (size_t i = 0; i < after; i++) {
            unsigned char c = (unsigned char)q[i];
            need(c >= 0x20 && c != 0x7f);
            need(!(c == 0xc2 && (unsigned char)q[i + 1] < 0xa0));
        }
        need(view_text_clean(q) == after); /* clean text stays as it is */
        free(q);
    }
    free(buf);
    return 0;
}
