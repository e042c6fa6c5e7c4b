/* Fuzz target: the HTTP response header parser (src/http/headers.c) over hostile lines. The
 * input is split at '\n' into lines fed one by one, as libcurl hands them over; the bytes of
 * each line are copied into a buffer of exactly its length so that any read past it is caught.
 * Must never crash or read out of bounds; whatever it keeps must be consistent: a kept
 * Content-Range has first <= last (< total when known), kept values are NUL-terminated.
 * Seeds: fuzz/corpus/http_headers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "http/headers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blvl__http_head h;
    blvl__http_head_reset(&h);
    size_t i = 0;
    while (i < size) {
        size_t j = i;
        while (j < size && data[j] != '\n')
            j++;
        if (j < size)
            j++; /* the line keeps its '\n', as curl's do */
        size_t len = j - i;
        char *line = malloc(len ? len : 1);
        if (!line)
            return 0;
        memcpy(line, data + i, len);
        blvl__http_head_line(&h, line, len);
        free(line);
        /* Content-Range also parsed alone, on the raw line. */
        uint64_t f, l, t;
        bool tk;
        char *v = malloc(len ? len : 1);
        if (!v)
            return 0;
        memcpy(v, data + i, len);
        if (blvl__http_parse_content_range(v, len, &f, &l, &t, &tk) && (f > l || (tk && l >= t)))
            abort();
        free(v);
        i = j;
    }
    if (h.has_range &&
        (h.range_first > h.range_last || (h.total_known && h.range_last >= h.range_total)))
        abort();
    if (!memchr(h.etag, 0, sizeof h.etag) || !memchr(h.last_modified, 0, sizeof h.last_modified) ||
        !memchr(h.bad_what, 0, sizeof h.bad_what))
        abort();
    if (h.status != 0 && (h.status < 100 || h.status > 599))
        abort();
    return 0;
}
