/* Response header lines, parsed with explicit bounds: every index is checked against `len`
 * before use, numbers are capped before they could overflow, and values we keep are copied
 * only when they fit and are printable. */
#include "http/headers.h"

#include <string.h>

#define NUM_MAX (1ull << 62)

void blvl__http_head_reset(blvl__http_head *h) {
    memset(h, 0, sizeof *h);
}

static void set_bad(blvl__http_head *h, const char *what) {
    if (h->bad)
        return;
    h->bad = true;
    size_t n = strlen(what);
    if (n >= sizeof h->bad_what)
        n = sizeof h->bad_what - 1;
    memcpy(h->bad_what, what, n);
    h->bad_what[n] = 0;
}

static char lower(char c) {
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static bool is_space(char c) {
    return c == ' ' || c == '\t';
}

/* Decimal digits at v[*i..len): at least one, value at most NUM_MAX. */
static bool parse_num(const char *v, size_t len, size_t *i, uint64_t *out) {
    uint64_t x = 0;
    size_t start = *i;
    while (*i < len && v[*i] >= '0' && v[*i] <= '9') {
        uint64_t d = (uint64_t)(v[*i] - '0');
        if (x > (NUM_MAX - d) / 10) /* checked before it could wrap */
            return false;
        x = x * 10 + d;
        (*i)++;
    }
    if (*i == start)
        return false;
    *out = x;
    return true;
}

bool blvl__http_parse_content_range(const char *v, size_t len, uint64_t *first, uint64_t *last,
                                    uint64_t *total, bool *total_known) {
    static const char unit[] = "bytes";
    size_t i = 0;
    if (len < sizeof unit - 1)
        return false;
    for (; i < sizeof unit - 1; i++)
        if (lower(v[i]) != unit[i])
            return false;
    if (i >= len || !is_space(v[i]))
        return false;
    while (i < len && is_space(v[i]))
        i++;
    if (!parse_num(v, len, &i, first))
        return false;
    if (i >= len || v[i] != '-')
        return false;
    i++;
    if (!parse_num(v, len, &i, last))
        return false;
    if (i >= len || v[i] != '/')
        return false;
    i++;
    if (i < len && v[i] == '*') {
        i++;
        *total_known = false;
        *total = 0;
    } else {
        if (!parse_num(v, len, &i, total))
            return false;
        *total_known = true;
    }
    while (i < len && is_space(v[i]))
        i++;
    if (i != len || *first > *last)
        return false;
    if (*total_known && *last >= *total)
        return false;
    return true;
}

/* Keeps a value when it fits and holds only visible ASCII and spaces. */
static bool keep_value(char *dst, const char *v, size_t len) {
    if (len >= BLVL__HTTP_VALUE_MAX)
        return false;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)v[i] < 0x20 || (unsigned char)v[i] > 0x7e)
            return false;
    memcpy(dst, v, len);
    dst[len] = 0;
    return true;
}

/* RFC 2046's bchars (a boundary's characters; a space only inside, never last). */
static bool bchar(char c) {
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
        return true;
    return c != 0 && strchr("'()+_,-./:=? ", c) != NULL;
}

int blvl__http_parse_byteranges_type(const char *v, size_t len, char *boundary, size_t *blen) {
    static const char type[] = "multipart/byteranges";
    size_t n = sizeof type - 1, i = 0;
    if (len < n)
        return 0;
    for (; i < n; i++)
        if (lower(v[i]) != type[i])
            return 0;
    if (i < len && v[i] != ';' && !is_space(v[i]))
        return 0; /* another type that starts the same */
    /* Parameters: ; name=value, the first boundary taken, the others skipped. */
    while (i < len) {
        while (i < len && is_space(v[i]))
            i++;
        if (i >= len || v[i] != ';')
            return -1;
        i++;
        while (i < len && is_space(v[i]))
            i++;
        size_t name = i;
        while (i < len && v[i] != '=' && v[i] != ';' && !is_space(v[i]))
            i++;
        size_t name_len = i - name;
        if (i >= len || v[i] != '=')
            return -1;
        i++;
        bool quoted = i < len && v[i] == '"';
        if (quoted)
            i++;
        size_t val = i;
        if (quoted) {
            while (i < len && v[i] != '"')
                i++;
            if (i >= len)
                return -1;
        } else {
            while (i < len && v[i] != ';' && !is_space(v[i]))
                i++;
        }
        size_t val_len = i - val;
        if (quoted)
            i++;
        static const char b[] = "boundary";
        bool is_b = name_len == sizeof b - 1;
        for (size_t k = 0; is_b && k < name_len; k++)
            is_b = lower(v[name + k]) == b[k];
        if (!is_b)
            continue;
        if (val_len == 0 || val_len > BLVL__HTTP_BOUNDARY_MAX || v[val + val_len - 1] == ' ')
            return -1;
        for (size_t k = 0; k < val_len; k++)
            if (!bchar(v[val + k]))
                return -1;
        memcpy(boundary, v + val, val_len);
        boundary[val_len] = 0;
        *blen = val_len;
        return 1;
    }
    return -1;
}

static bool name_is(const char *line, size_t nlen, const char *name) {
    size_t n = strlen(name);
    if (nlen != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (lower(line[i]) != name[i])
            return false;
    return true;
}

static void status_line(blvl__http_head *h, const char *line, size_t len) {
    blvl__http_head_reset(h);
    size_t i = 5; /* past "HTTP/" */
    while (i < len && !is_space(line[i]))
        i++;
    while (i < len && is_space(line[i]))
        i++;
    uint64_t code = 0;
    size_t start = i;
    if (!parse_num(line, len, &i, &code) || i - start != 3 || code < 100 || code > 599 ||
        (i < len && !is_space(line[i]))) {
        set_bad(h, "status line");
        return;
    }
    h->status = (int)code;
}

void blvl__http_head_line(blvl__http_head *h, const char *line, size_t len) {
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    if (len >= 5 && memcmp(line, "HTTP/", 5) == 0) {
        status_line(h, line, len);
        return;
    }
    size_t colon = 0;
    while (colon < len && line[colon] != ':')
        colon++;
    if (colon == len || colon == 0)
        return; /* not a header line we could rely on */
    size_t v = colon + 1;
    while (v < len && is_space(line[v]))
        v++;
    size_t end = len;
    while (end > v && is_space(line[end - 1]))
        end--;
    const char *val = line + v;
    size_t vlen = end - v;
    if (name_is(line, colon, "content-range")) {
        if (h->has_range) {
            set_bad(h, "Content-Range twice");
            return;
        }
        if (!blvl__http_parse_content_range(val, vlen, &h->range_first, &h->range_last,
                                            &h->range_total, &h->total_known)) {
            set_bad(h, "Content-Range");
            return;
        }
        h->has_range = true;
    } else if (name_is(line, colon, "content-length")) {
        size_t i = 0;
        uint64_t n = 0;
        if (!parse_num(val, vlen, &i, &n) || i != vlen || (h->has_length && h->length != n)) {
            set_bad(h, "Content-Length");
            return;
        }
        h->has_length = true;
        h->length = n;
    } else if (name_is(line, colon, "content-type")) {
        int r = blvl__http_parse_byteranges_type(val, vlen, h->boundary, &h->boundary_len);
        if (r < 0 || (r > 0 && h->multipart)) {
            set_bad(h, "Content-Type");
            return;
        }
        h->multipart = r > 0;
    } else if (name_is(line, colon, "content-encoding")) {
        /* Kept only to be named when refused: printable bytes, lowercased, cut to fit. */
        size_t n = 0;
        for (size_t i = 0; i < vlen && n + 1 < sizeof h->encoding; i++)
            h->encoding[n++] = (val[i] >= 0x20 && val[i] < 0x7f) ? lower(val[i]) : '?';
        h->encoding[n] = 0;
    } else if (name_is(line, colon, "etag")) {
        if (!keep_value(h->etag, val, vlen))
            set_bad(h, "ETag");
    } else if (name_is(line, colon, "last-modified")) {
        if (!keep_value(h->last_modified, val, vlen))
            set_bad(h, "Last-Modified");
    }
}
