/* The answer to a request for several byte ranges, parsed by our own bounds-checked code (the
 * server is hostile input): a 206 whose body is multipart/byteranges (RFC 9110 §14.6, the
 * multipart grammar of RFC 2046), or a 206 of one part that covers several asked ranges and
 * the gaps between them (a server may coalesce). Each part's Content-Range must start where an
 * asked range starts and end where an asked range ends, covering none that an earlier part of
 * the answer covered; its bytes outside the asked ranges (coalesced gaps) are skipped. Parts
 * may come in any order. Every refusal is BLVL_E_HTTP (BLVL_E_HTTP_CHANGED for a part giving
 * another file size) with a message naming the rule ("multipart ...").
 * Private to the http layer; fuzz/fuzz_http_multipart.c feeds it arbitrary bodies. */
#ifndef BLVL_HTTP_MULTIPART_H
#define BLVL_HTTP_MULTIPART_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blvl/common.h"
#include "http/headers.h"

/* Byte ranges wanted: [start, end) of the file, `got` bytes of it delivered so far (always
 * from start, in order). A request asks for [start + got, end) of every span not yet whole. */
typedef struct blvl__span {
    uint64_t start, end, got;
    uint64_t asked; /* start + got when the current request went out */
    bool in_req;    /* asked for by the current request */
    bool seen;      /* a part of the current answer covered it */
} blvl__span;

/* Marks the spans the next request asks for (the ones not whole, at most `max`, in order,
 * while their "A-B," text fits `max_chars`) and writes the Range header's value ("A-B,C-D")
 * into text. Returns how many are asked (0: all whole). */
size_t blvl__http_spans_ask(blvl__span *s, size_t n, size_t max, char *text, size_t max_chars);

/* Where delivered bytes go: `off` is the file offset of data[0], inside one span. Non-zero
 * stops the parse (BLVL_E_HTTP, "stopped"; the caller knows why). */
typedef int (*blvl__span_sink)(void *user, uint64_t off, const uint8_t *data, size_t len);

/* One part of an answer: checks that [first, last] starts at an asked span's `asked` and ends
 * at an asked span's end, none of those spans seen yet, and marks them seen. Sets *i, *j (the
 * spans covered). */
blvl_status blvl__http_spans_part(blvl__span *s, size_t n, uint64_t first, uint64_t last, size_t *i,
                                  size_t *j, blvl_error *err);
/* Bytes at file offset `pos` of a part covering spans i..j: the ones inside the spans go to the
 * sink (spans' `got` advanced), the gaps are skipped. */
blvl_status blvl__http_spans_deliver(blvl__span *s, size_t i, size_t j, uint64_t pos,
                                     const uint8_t *data, size_t len, blvl__span_sink sink,
                                     void *user, blvl_error *err);

#define BLVL__MP_LINE_MAX 1024     /* a delimiter or part header line */
#define BLVL__MP_PART_HEADERS 4096 /* all the header lines of one part */
#define BLVL__MP_PREAMBLE_MAX 1024 /* bytes before the first delimiter */
#define BLVL__MP_EPILOGUE_MAX 4096 /* bytes after the closing delimiter */

typedef struct blvl__multipart {
    char boundary[BLVL__HTTP_BOUNDARY_MAX + 1];
    size_t blen;
    uint64_t total; /* the file size each part must give; UINT64_MAX: any, the same in all */
    blvl__span *spans;
    size_t nspans;
    blvl__span_sink sink;
    void *user;
    int state;
    char line[BLVL__MP_LINE_MAX];
    size_t line_len;
    size_t counted; /* bytes of the preamble, of this part's headers, or of the epilogue */
    bool has_range;
    uint64_t first, last, part_total;
    uint64_t pos;   /* file offset of the next data byte */
    uint64_t left;  /* data bytes of this part still to come */
    size_t pi, pj;  /* spans this part covers */
    unsigned parts; /* parts begun */
    bool closed;    /* the closing delimiter was seen */
    bool failed;
} blvl__multipart;

void blvl__http_multipart_init(blvl__multipart *m, const char *boundary, size_t blen,
                               uint64_t total, blvl__span *spans, size_t nspans,
                               blvl__span_sink sink, void *user);
/* The next bytes of the body. After a refusal every later call refuses too. */
blvl_status blvl__http_multipart_feed(blvl__multipart *m, const uint8_t *data, size_t len,
                                      blvl_error *err);
/* The body ended: BLVL_OK when the closing delimiter came, else the refusal. */
blvl_status blvl__http_multipart_finish(blvl__multipart *m, blvl_error *err);
#endif
