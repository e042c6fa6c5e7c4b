/* `blvl view`'s HTTP/1.1 request parser: a head of at most VIEW_HEAD_MAX bytes, lines ending in
 * CRLF, a GET of an origin-form target, headers as `name: value` (no folding, no body). */
#include "view_request.h"

#include <stdio.h>
#include <string.h>

int view_parse_status(view_parse p) {
    switch (p) {
    case VIEW_PARSE_METHOD:
        return 405;
    case VIEW_PARSE_TOO_LARGE:
        return 431;
    case VIEW_PARSE_VERSION:
        return 505;
    default:
        return 400;
    }
}

/* RFC 9110's tchar: the bytes a method or header name may hold. */
static int is_tchar(unsigned char c) {
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
        return 1;
    return c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static int lower(int c) {
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* name[0..n) equals `want` ignoring ASCII case. */
static int name_is(const char *name, size_t n, const char *want) {
    if (strlen(want) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)name[i]) != want[i])
            return 0;
    return 1;
}

/* The request line buf[0..n) (no CRLF): GET SP target SP HTTP/1.x. */
static view_parse request_line(const char *s, size_t n, view_request *out) {
    size_t i = 0;
    while (i < n && is_tchar((unsigned char)s[i]))
        i++;
    if (i == 0 || i >= n || s[i] != ' ')
        return VIEW_PARSE_BAD;
    int get = i == 3 && memcmp(s, "GET", 3) == 0;
    size_t t = ++i; /* the target: visible ASCII up to one space */
    while (i < n && s[i] > 0x20 && s[i] < 0x7f)
        i++;
    if (i == t || i >= n || s[i] != ' ')
        return VIEW_PARSE_BAD;
    size_t tn = i - t;
    const char *v = s + i + 1;
    size_t vn = n - i - 1;
    if (vn != 8 || memcmp(v, "HTTP/1.", 7) != 0)
        return vn >= 5 && memcmp(v, "HTTP/", 5) == 0 ? VIEW_PARSE_VERSION : VIEW_PARSE_BAD;
    if (v[7] != '0' && v[7] != '1')
        return VIEW_PARSE_VERSION;
    if (!get)
        return VIEW_PARSE_METHOD;
    if (s[t] != '/')
        return VIEW_PARSE_BAD; /* origin-form only: no absolute URI, no '*' */
    const char *q = memchr(s + t, '?', tn);
    size_t pn = q ? (size_t)(q - (s + t)) : tn;
    size_t qn = q ? tn - pn - 1 : 0;
    const char *hash = memchr(s + t, '#', tn);
    if (hash)
        return VIEW_PARSE_BAD; /* a fragment never goes on the wire */
    if (pn >= VIEW_PATH_MAX || qn >= VIEW_QUERY_MAX)
        return VIEW_PARSE_TOO_LARGE;
    memcpy(out->path, s + t, pn);
    out->path[pn] = 0;
    if (q)
        memcpy(out->query, q + 1, qn);
    out->query[qn] = 0;
    return VIEW_PARSE_OK;
}

/* Which of the headers kept once have been seen (a second one is refused). */
enum { SAW_HOST = 1, SAW_ORIGIN = 2, SAW_FETCH_SITE = 4 };

/* One header line s[0..n) (no CRLF). */
static view_parse header_line(const char *s, size_t n, view_request *out, int *saw) {
    size_t i = 0;
    while (i < n && is_tchar((unsigned char)s[i]))
        i++;
    if (i == 0 || i >= n || s[i] != ':')
        return VIEW_PARSE_BAD; /* also a folded line (starts with a space) */
    size_t name_n = i++;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t e = n;
    while (e > i && (s[e - 1] == ' ' || s[e - 1] == '\t'))
        e--;
    for (size_t k = i; k < e; k++) {
        unsigned char c = (unsigned char)s[k];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return VIEW_PARSE_BAD;
    }
    if (name_is(s, name_n, "host")) {
        if (*saw & SAW_HOST)
            return VIEW_PARSE_BAD; /* two Host headers */
        *saw |= SAW_HOST;
        if (e - i >= VIEW_HOST_MAX)
            return VIEW_PARSE_TOO_LARGE;
        memcpy(out->host, s + i, e - i);
        out->host[e - i] = 0;
    } else if (name_is(s, name_n, "origin")) {
        if (*saw & SAW_ORIGIN)
            return VIEW_PARSE_BAD; /* two answers to "who asks": neither is believed */
        *saw |= SAW_ORIGIN;
        out->has_origin = 1;
        if (e - i < VIEW_HOST_MAX) { /* longer: no origin of ours, left "" */
            memcpy(out->origin, s + i, e - i);
            out->origin[e - i] = 0;
        }
    } else if (name_is(s, name_n, "sec-fetch-site")) {
        if (*saw & SAW_FETCH_SITE)
            return VIEW_PARSE_BAD;
        *saw |= SAW_FETCH_SITE;
        size_t k = e - i < VIEW_FETCH_SITE_MAX ? e - i : VIEW_FETCH_SITE_MAX - 1;
        memcpy(out->fetch_site, s + i, k);
        out->fetch_site[k] = 0;
    } else if (name_is(s, name_n, "transfer-encoding")) {
        return VIEW_PARSE_BAD; /* a GET here has no body */
    } else if (name_is(s, name_n, "content-length")) {
        if (e - i != 1 || s[i] != '0')
            return VIEW_PARSE_BAD;
    }
    return VIEW_PARSE_OK;
}

view_parse view_request_parse(const char *buf, size_t len, view_request *out) {
    memset(out, 0, sizeof *out);
    size_t lim = len < VIEW_HEAD_MAX ? len : VIEW_HEAD_MAX;
    size_t pos = 0;
    int line = 0, saw = 0;
    for (;;) {
        const char *nl = memchr(buf + pos, '\n', lim - pos);
        if (!nl) {
            /* a line not yet ended: refuse now what no request holds (a TLS hello, binary) */
            for (size_t i = pos; i < lim; i++) {
                unsigned char c = (unsigned char)buf[i];
                if ((c < 0x20 && c != '\r' && c != '\t') || c == 0x7f)
                    return VIEW_PARSE_BAD;
            }
            return len >= VIEW_HEAD_MAX ? VIEW_PARSE_TOO_LARGE : VIEW_PARSE_MORE;
        }
        size_t end = (size_t)(nl - buf);
        if (end == pos || buf[end - 1] != '\r')
            return VIEW_PARSE_BAD; /* a bare LF */
        size_t n = end - 1 - pos;
        const char *s = buf + pos;
        if (memchr(s, '\r', n) || memchr(s, 0, n))
            return VIEW_PARSE_BAD;
        pos = end + 1;
        if (line == 0) {
            view_parse r = request_line(s, n, out);
            if (r != VIEW_PARSE_OK)
                return r;
        } else if (n == 0) {
            out->head_size = pos;
            return VIEW_PARSE_OK;
        } else {
            if (line > VIEW_HEADERS_MAX)
                return VIEW_PARSE_TOO_LARGE;
            view_parse r = header_line(s, n, out, &saw);
            if (r != VIEW_PARSE_OK)
                return r;
        }
        line++;
    }
}

static int hex(int c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    c = lower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int view_query_get(const char *query, const char *key, char *out, size_t cap) {
    if (cap == 0)
        return 0;
    out[0] = 0;
    size_t kn = strlen(key);
    const char *p = query;
    while (*p) {
        const char *amp = strchr(p, '&');
        size_t fn = amp ? (size_t)(amp - p) : strlen(p);
        if (fn > kn && memcmp(p, key, kn) == 0 && p[kn] == '=') {
            size_t o = 0;
            for (size_t i = kn + 1; i < fn && o + 1 < cap; i++) {
                int c = (unsigned char)p[i];
                if (c == '+') {
                    c = ' ';
                } else if (c == '%' && i + 2 < fn) {
                    int h = hex((unsigned char)p[i + 1]), l = hex((unsigned char)p[i + 2]);
                    if (h >= 0 && l >= 0) {
                        c = h * 16 + l;
                        i += 2;
                    }
                }
                if (c != 0) /* a C string cannot hold it */
                    out[o++] = (char)c;
            }
            out[o] = 0;
            return 1;
        }
        if (fn == kn && memcmp(p, key, kn) == 0)
            return 1; /* `key` with no '=': present, empty */
        p += fn;
        if (*p == '&')
            p++;
    }
    return 0;
}

/* The length of the UTF-8 sequence at s (1..4) when it is valid and encodes no control
 * character; 0 when the byte at s starts nothing to keep (RFC 3629's table of well-formed
 * sequences: no overlong form, no surrogate, nothing past U+10FFFF). */
static size_t printable_at(const unsigned char *s) {
    unsigned char c = s[0];
    if (c < 0x80)
        return c >= 0x20 && c != 0x7f;
    unsigned char lo = 0x80, hi = 0xbf;
    size_t n;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef)
        n = 3;
    else if (c >= 0xf0 && c <= 0xf4)
        n = 4;
    else
        return 0; /* a continuation byte on its own (0x80-0xbf: C1 included), C0, C1, F5..FF */
    if (c == 0xc2)
        lo = 0xa0; /* C2 80..C2 9F are U+0080..U+009F, the C1 controls */
    else if (c == 0xe0)
        lo = 0xa0;
    else if (c == 0xed)
        hi = 0x9f;
    else if (c == 0xf0)
        lo = 0x90;
    else if (c == 0xf4)
        hi = 0x8f;
    if (s[1] < lo || s[1] > hi)
        return 0; /* the NUL at the end stops here too */
    for (size_t k = 2; k < n; k++)
        if (s[k] < 0x80 || s[k] > 0xbf)
            return 0;
    return n;
}

size_t view_text_clean(char *s) {
    unsigned char *u = (unsigned char *)s;
    size_t o = 0;
    for (size_t i = 0; u[i];) {
        size_t n = printable_at(u + i);
        if (n == 0) {
            i++; /* dropped: one byte, then look again from the next */
            continue;
        }
        memmove(u + o, u + i, n);
        o += n;
        i += n;
    }
    u[o] = 0;
    return o;
}

const char *view_guard(const view_request *rq, int port, const char *token) {
    if (rq->has_origin) {
        char a[64], b[64];
        snprintf(a, sizeof a, "http://127.0.0.1:%d", port);
        snprintf(b, sizeof b, "http://localhost:%d", port);
        if (strcmp(rq->origin, a) != 0 && strcmp(rq->origin, b) != 0)
            return "a request from a page of another origin";
    }
    /* same-site is another origin too (another port of 127.0.0.1); a browser sends the rest */
    if (rq->fetch_site[0] && strcmp(rq->fetch_site, "same-origin") != 0 &&
        strcmp(rq->fetch_site, "none") != 0)
        return "a request from a page of another site";
    char got[VIEW_TOKEN_LEN + 2] = {0}; /* zeroed: a short token is compared as far as ours */
    if (!view_query_get(rq->query, "t", got, sizeof got))
        return "no token: open the URL blvl view printed (it ends in ?t=...)";
    /* every byte compared, whatever differs first: the time says nothing of the token */
    unsigned diff = strlen(got) != VIEW_TOKEN_LEN || strlen(token) != VIEW_TOKEN_LEN;
    for (size_t i = 0; i < VIEW_TOKEN_LEN && token[i]; i++)
        diff |= (unsigned)(got[i] ^ token[i]);
    return diff ? "a wrong token: open the URL blvl view printed (it ends in ?t=...)" : NULL;
}
