/* Fuzz target: the multipart/byteranges parser (src/http/multipart.c) and the Content-Type
 * boundary parser (src/http/headers.c) over hostile answers. Input: a count of ranges (1 to 8)
 * and each range's start and length (2 bytes each, little-endian, in a file of 65536 + 1024
 * bytes; overlapping ones dropped), a piece size, a Content-Type line up to '\n' (its boundary
 * used when it is one, else "B0"), then the body, fed in pieces. Must never crash or read out
 * of bounds; every byte delivered lies inside an asked range, comes at most once, and in order
 * within its range. Seeds: fuzz/corpus/http_multipart. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "http/headers.h"
#include "http/multipart.h"

#define FILE_SIZE (65536u + 1024u)

static uint8_t times[FILE_SIZE];

static int sink(void *user, uint64_t off, const uint8_t *data, size_t len) {
    blvl__span *s = user;
    (void)data;
    if (off >= FILE_SIZE || len > FILE_SIZE - off || len == 0)
        abort();
    bool inside = false;
    for (size_t k = 0; k < 8 && s[k].end; k++)
        if (off >= s[k].start && off + len <= s[k].end) {
            if (off != s[k].start + s[k].got) /* in order within its range */
                abort();
            inside = true;
        }
    if (!inside)
        abort();
    for (size_t i = 0; i < len; i++)
        if (times[off + i]++)
            abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2)
        return 0;
    size_t p = 0, n = (size_t)(data[p++] % 8) + 1, m = 0;
    blvl__span s[9];
    memset(s, 0, sizeof s);
    for (size_t i = 0; i < n && p + 4 <= size; i++, p += 4) {
        uint64_t start = (uint64_t)data[p] | (uint64_t)data[p + 1] << 8;
        uint64_t len = ((uint64_t)data[p + 2] | (uint64_t)data[p + 3] << 8) % 1024 + 1;
        /* sorted and disjoint, as the callers give them */
        if (m && start < s[m - 1].end)
            start = s[m - 1].end;
        if (start + len > FILE_SIZE)
            break;
        s[m++] = (blvl__span){.start = start, .end = start + len};
    }
    if (!m || p >= size)
        return 0;
    size_t step = (size_t)data[p++] + 1;
    size_t eol = p;
    while (eol < size && data[eol] != '\n')
        eol++;
    char boundary[BLVL__HTTP_BOUNDARY_MAX + 1] = "B0";
    size_t blen = 2;
    char *line = malloc(eol - p ? eol - p : 1); /* exactly its length: reads past it are caught */
    if (!line)
        return 0;
    memcpy(line, data + p, eol - p);
    if (blvl__http_parse_byteranges_type(line, eol - p, boundary, &blen) != 1) {
        memcpy(boundary, "B0", 3);
        blen = 2;
    }
    free(line);
    if (blen == 0 || blen > BLVL__HTTP_BOUNDARY_MAX || strlen(boundary) != blen)
        abort();
    p = eol < size ? eol + 1 : size;
    memset(times, 0, sizeof times);
    char text[256];
    blvl__http_spans_ask(s, m, 32, text, sizeof text);
    blvl__multipart mp;
    blvl__http_multipart_init(&mp, boundary, blen, FILE_SIZE, s, m, sink, s);
    blvl_error err = {0};
    blvl_status st = BLVL_OK;
    while (p < size && st == BLVL_OK) {
        size_t k = size - p < step ? size - p : step;
        uint8_t *piece = malloc(k);
        if (!piece)
            return 0;
        memcpy(piece, data + p, k);
        st = blvl__http_multipart_feed(&mp, piece, k, &err);
        free(piece);
        p += k;
    }
    if (st == BLVL_OK)
        st = blvl__http_multipart_finish(&mp, &err);
    for (size_t k = 0; k < m; k++)
        if (s[k].got > s[k].end - s[k].start)
            abort();
    if (st != BLVL_OK && !memchr(err.message, 0, sizeof err.message))
        abort();
    /* What a retry would ask: only what did not arrive. */
    blvl__http_spans_ask(s, m, 32, text, sizeof text);
    if (!memchr(text, 0, sizeof text))
        abort();
    return 0;
}
