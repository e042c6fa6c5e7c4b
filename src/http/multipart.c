/* multipart/byteranges, parsed as it streams in: lines (delimiters, part headers) are gathered
 * into a fixed buffer and refused when longer, data is counted from each part's Content-Range
 * and never buffered. Every size is bounded: a line, the headers of a part, the preamble, the
 * epilogue; a part must cover asked ranges no earlier part covered, so there are at most as
 * many parts as ranges. */
#include "http/multipart.h"

#include <stdio.h>
#include <string.h>

#include "common/error.h"

enum { ST_PRE, ST_HDRS, ST_DATA, ST_AFTER, ST_AFTER_LF, ST_DELIM, ST_EPI, ST_FAILED };

size_t blvl__http_spans_ask(blvl__span *s, size_t n, size_t max, char *text, size_t max_chars) {
    size_t asked = 0, used = 0;
    if (max_chars)
        text[0] = 0;
    for (size_t k = 0; k < n; k++) {
        s[k].in_req = false;
        s[k].seen = false;
        if (s[k].got >= s[k].end - s[k].start || asked == max)
            continue;
        char one[48];
        int w = snprintf(one, sizeof one, "%s%llu-%llu", asked ? "," : "",
                         (unsigned long long)(s[k].start + s[k].got),
                         (unsigned long long)(s[k].end - 1));
        if (w < 0 || (size_t)w >= max_chars - used) {
            max = asked; /* the header is full: the rest go in a later request */
            continue;
        }
        memcpy(text + used, one, (size_t)w + 1);
        used += (size_t)w;
        s[k].in_req = true;
        s[k].asked = s[k].start + s[k].got;
        asked++;
    }
    return asked;
}

blvl_status blvl__http_spans_part(blvl__span *s, size_t n, uint64_t first, uint64_t last, size_t *i,
                                  size_t *j, blvl_error *err) {
    size_t a = n, b = n;
    for (size_t k = 0; k < n && a == n; k++)
        if (s[k].in_req && s[k].asked == first)
            a = k;
    for (size_t k = a; k < n && b == n; k++)
        if (s[k].in_req && s[k].end - 1 == last)
            b = k;
    if (a == n || b == n)
        return blvl__fail(err, BLVL_E_HTTP,
                          "multipart part range: bytes %llu-%llu do not start and end where "
                          "ranges asked for do",
                          (unsigned long long)first, (unsigned long long)last);
    for (size_t k = a; k <= b; k++)
        if (s[k].in_req && s[k].seen)
            return blvl__fail(err, BLVL_E_HTTP,
                              "multipart overlap: bytes %llu-%llu cover a range an earlier part "
                              "covered",
                              (unsigned long long)first, (unsigned long long)last);
    for (size_t k = a; k <= b; k++)
        s[k].seen = s[k].in_req;
    *i = a;
    *j = b;
    return BLVL_OK;
}

blvl_status blvl__http_spans_deliver(blvl__span *s, size_t i, size_t j, uint64_t pos,
                                     const uint8_t *data, size_t len, blvl__span_sink sink,
                                     void *user, blvl_error *err) {
    uint64_t end = pos + len;
    for (size_t k = i; k <= j; k++) {
        if (!s[k].in_req)
            continue; /* a range not asked this time (whole already): its bytes are a gap */
        uint64_t next = s[k].start + s[k].got;
        uint64_t lo = pos > next ? pos : next, hi = end < s[k].end ? end : s[k].end;
        if (lo >= hi)
            continue;
        if (lo != next) /* cannot happen when the part began where asked; kept as a check */
            return blvl__fail(err, BLVL_E_HTTP, "multipart order: bytes of a range out of order");
        if (sink(user, lo, data + (lo - pos), (size_t)(hi - lo)))
            return blvl__fail(err, BLVL_E_HTTP, "stopped");
        s[k].got += hi - lo;
    }
    return BLVL_OK;
}

void blvl__http_multipart_init(blvl__multipart *m, const char *boundary, size_t blen,
                               uint64_t total, blvl__span *spans, size_t nspans,
                               blvl__span_sink sink, void *user) {
    memset(m, 0, sizeof *m);
    if (blen > BLVL__HTTP_BOUNDARY_MAX)
        blen = BLVL__HTTP_BOUNDARY_MAX;
    memcpy(m->boundary, boundary, blen);
    m->blen = blen;
    m->total = total;
    m->spans = spans;
    m->nspans = nspans;
    m->sink = sink;
    m->user = user;
    m->state = ST_PRE;
}

static blvl_status fail(blvl__multipart *m, blvl_error *err, blvl_status code, const char *what,
                        const char *detail) {
    m->state = ST_FAILED;
    m->failed = true;
    return blvl__fail(err, code, "%s (part %u)%s%s", what, m->parts, detail ? ": " : "",
                      detail ? detail : "");
}

/* 1: "--boundary" then only spaces or tabs; 2: "--boundary--" then only spaces or tabs; 0:
 * anything else. */
static int delimiter(const blvl__multipart *m, const char *l, size_t len) {
    if (len < 2 + m->blen || l[0] != '-' || l[1] != '-' || memcmp(l + 2, m->boundary, m->blen))
        return 0;
    size_t i = 2 + m->blen;
    int kind = 1;
    if (len - i >= 2 && l[i] == '-' && l[i + 1] == '-') {
        kind = 2;
        i += 2;
    }
    for (; i < len; i++)
        if (l[i] != ' ' && l[i] != '\t')
            return 0;
    return kind;
}

static bool name_is(const char *l, size_t n, const char *name) {
    if (strlen(name) != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = l[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != name[i])
            return false;
    }
    return true;
}

static void start_part(blvl__multipart *m) {
    m->state = ST_HDRS;
    m->counted = 0;
    m->has_range = false;
    m->parts++;
}

/* A whole line (CR LF or LF taken off) in the state it ends. */
static blvl_status on_line(blvl__multipart *m, const char *l, size_t len, blvl_error *err) {
    switch (m->state) {
    case ST_PRE: {
        int d = delimiter(m, l, len);
        if (d == 1) {
            start_part(m);
            return BLVL_OK;
        }
        if (d == 2)
            return fail(m, err, BLVL_E_HTTP, "multipart empty: closed before any part", NULL);
        return BLVL_OK; /* preamble, counted by the caller */
    }
    case ST_DELIM: {
        int d = delimiter(m, l, len);
        if (d == 1) {
            start_part(m);
            return BLVL_OK;
        }
        if (d == 2) {
            m->closed = true;
            m->state = ST_EPI;
            m->counted = 0;
            return BLVL_OK;
        }
        return fail(m, err, BLVL_E_HTTP,
                    "multipart boundary: a part's bytes are not followed by the boundary", NULL);
    }
    case ST_HDRS: {
        if (len == 0) {
            if (!m->has_range)
                return fail(m, err, BLVL_E_HTTP,
                            "multipart part range: a part without a "
                            "Content-Range",
                            NULL);
            if (m->total == UINT64_MAX)
                m->total = m->part_total;
            else if (m->part_total != m->total)
                return fail(m, err, BLVL_E_HTTP_CHANGED,
                            "multipart part range: a part gives another file size", NULL);
            blvl_status st =
                blvl__http_spans_part(m->spans, m->nspans, m->first, m->last, &m->pi, &m->pj, err);
            if (st != BLVL_OK) {
                m->state = ST_FAILED;
                m->failed = true;
                return st;
            }
            m->pos = m->first;
            m->left = m->last - m->first + 1;
            m->state = ST_DATA;
            return BLVL_OK;
        }
        size_t colon = 0;
        while (colon < len && l[colon] != ':')
            colon++;
        if (colon == 0 || colon == len)
            return fail(m, err, BLVL_E_HTTP,
                        "multipart header: a part header line is not "
                        "NAME: VALUE",
                        NULL);
        if (!name_is(l, colon, "content-range"))
            return BLVL_OK; /* Content-Type and others: not relied on */
        if (m->has_range)
            return fail(m, err, BLVL_E_HTTP, "multipart part range: Content-Range twice", NULL);
        size_t v = colon + 1, end = len;
        while (v < end && (l[v] == ' ' || l[v] == '\t'))
            v++;
        while (end > v && (l[end - 1] == ' ' || l[end - 1] == '\t'))
            end--;
        bool total_known = false;
        if (!blvl__http_parse_content_range(l + v, end - v, &m->first, &m->last, &m->part_total,
                                            &total_known) ||
            !total_known)
            return fail(m, err, BLVL_E_HTTP,
                        "multipart part range: a malformed Content-Range (or one without the "
                        "file size)",
                        NULL);
        m->has_range = true;
        return BLVL_OK;
    }
    default:
        return fail(m, err, BLVL_E_HTTP, "multipart state", NULL);
    }
}

blvl_status blvl__http_multipart_feed(blvl__multipart *m, const uint8_t *data, size_t len,
                                      blvl_error *err) {
    size_t i = 0;
    while (i < len) {
        switch (m->state) {
        case ST_FAILED:
            return blvl__fail(err, BLVL_E_HTTP, "multipart: refused already");
        case ST_DATA: {
            size_t n = len - i;
            if (n > m->left)
                n = (size_t)m->left;
            blvl_status st = blvl__http_spans_deliver(m->spans, m->pi, m->pj, m->pos, data + i, n,
                                                      m->sink, m->user, err);
            if (st != BLVL_OK) {
                m->state = ST_FAILED;
                m->failed = true;
                return st;
            }
            m->pos += n;
            m->left -= n;
            i += n;
            if (m->left == 0)
                m->state = ST_AFTER;
            break;
        }
        case ST_AFTER: /* the CR LF that begins the next delimiter */
        case ST_AFTER_LF: {
            uint8_t c = data[i++];
            if (c == '\n')
                m->state = ST_DELIM;
            else if (c == '\r' && m->state == ST_AFTER)
                m->state = ST_AFTER_LF;
            else
                return fail(m, err, BLVL_E_HTTP,
                            "multipart boundary: a part has more bytes than its Content-Range "
                            "says",
                            NULL);
            m->line_len = 0;
            break;
        }
        case ST_EPI:
            /* After the closing delimiter: ignored, but bounded. */
            if (len - i > BLVL__MP_EPILOGUE_MAX - m->counted)
                return fail(m, err, BLVL_E_HTTP,
                            "multipart epilogue: too many bytes after the "
                            "closing boundary",
                            NULL);
            m->counted += len - i;
            i = len;
            break;
        default: { /* a line: ST_PRE, ST_HDRS, ST_DELIM */
            uint8_t c = data[i++];
            m->counted++;
            if (m->state == ST_PRE && m->counted > BLVL__MP_PREAMBLE_MAX)
                return fail(m, err, BLVL_E_HTTP,
                            "multipart boundary: no boundary in the first bytes of the body", NULL);
            if (m->state == ST_HDRS && m->counted > BLVL__MP_PART_HEADERS)
                return fail(m, err, BLVL_E_HTTP, "multipart header: a part's headers are too long",
                            NULL);
            if (c != '\n') {
                if (m->line_len >= sizeof m->line)
                    return fail(m, err, BLVL_E_HTTP, "multipart header: a line is too long", NULL);
                m->line[m->line_len++] = (char)c;
                break;
            }
            size_t n = m->line_len;
            if (n > 0 && m->line[n - 1] == '\r')
                n--;
            m->line_len = 0;
            blvl_status st = on_line(m, m->line, n, err);
            if (st != BLVL_OK)
                return st;
            break;
        }
        }
    }
    return BLVL_OK;
}

blvl_status blvl__http_multipart_finish(blvl__multipart *m, blvl_error *err) {
    if (m->failed)
        return blvl__fail(err, BLVL_E_HTTP, "multipart: refused already");
    if (!m->closed)
        return fail(m, err, BLVL_E_HTTP,
                    "multipart boundary: the body ended before its closing boundary", NULL);
    return BLVL_OK;
}
