/* JSON text to a small DOM (json_dom.h): nodes in one array, strings decoded into one arena.
 * Syntax errors name the line and column. */
#include "json/json_dom.h"

#include <string.h>

#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"

static blvl_status jfail(json_dom *p, const char *what) {
    if (!p->st) {
        size_t line = 1, col = 1;
        for (size_t i = 0; i < p->pos && i < p->len; i++) {
            col = p->s[i] == '\n' ? 1 : col + 1;
            line += p->s[i] == '\n';
        }
        if (p->pos >= p->len)
            p->st = blvl__fail(p->err, BLVL_E_FLATBUFFER,
                               "json line %zu: unexpected end of input (%s): the text is cut short",
                               line, what);
        else
            p->st = blvl__fail(p->err, BLVL_E_FLATBUFFER, "json line %zu column %zu: %s", line, col,
                               what);
    }
    return p->st;
}

static int grow(json_dom *p, void **arr, size_t *cap, size_t need, size_t elem) {
    if (!blvl__array_grow(p->a, arr, cap, *cap, need, elem, 256)) {
        if (!p->st)
            p->st = blvl__nomem(p->err, "json: the document's values");
        return 0;
    }
    return 1;
}

static uint32_t new_node(json_dom *p, uint8_t type) {
    if (p->nnodes >= 0xFFFFFFF0u ||
        !grow(p, (void **)&p->nodes, &p->capnodes, p->nnodes + 1, sizeof(json_node)))
        return 0;
    memset(&p->nodes[p->nnodes], 0, sizeof(json_node));
    p->nodes[p->nnodes].type = type;
    return (uint32_t)p->nnodes++;
}

static void skip_ws(json_dom *p) {
    while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
                               p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
        p->pos++;
}

static int arena_put(json_dom *p, const char *s, size_t n) {
    if (p->arena_len + n > 0xFFFFFFF0u ||
        !grow(p, (void **)&p->arena, &p->arena_cap, p->arena_len + n + 1, 1))
        return 0;
    memcpy(p->arena + p->arena_len, s, n);
    p->arena_len += n;
    p->arena[p->arena_len] = '\0';
    return 1;
}

static int hex4(json_dom *p, uint32_t *out) {
    if (p->len - p->pos < 4) {
        p->pos = p->len; /* the text ends inside the escape */
        return 0;
    }
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p->s[p->pos++];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (uint32_t)(c - 'A' + 10);
        else
            return 0;
    }
    *out = v;
    return 1;
}

/* Length of the well-formed UTF-8 sequence at s (n bytes available), or 0: no overlong forms,
 * no surrogates (U+D800..DFFF), nothing past U+10FFFF (RFC 3629). */
static size_t utf8_seq(const uint8_t *s, size_t n) {
    if (s[0] < 0x80)
        return 1;
    size_t len = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 0;
    if (!len || s[0] >= 0xF5 || s[0] == 0xC0 || s[0] == 0xC1 || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0) ||
        (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90))
        return 0;
    return len;
}

/* A string at p->pos (after the quote), decoded into the arena. FlatBuffers strings are UTF-8,
 * so raw bytes must be well-formed UTF-8 and a \u escape of a surrogate must be a pair. */
static int parse_string(json_dom *p, uint32_t *off, uint32_t *len) {
    *off = (uint32_t)p->arena_len;
    while (1) {
        if (p->pos >= p->len)
            return jfail(p, "unterminated string"), 0;
        size_t run = p->pos;
        while (run < p->len && p->s[run] != '"' && p->s[run] != '\\' &&
               (uint8_t)p->s[run] >= 0x20) {
            size_t k = utf8_seq((const uint8_t *)p->s + run, p->len - run);
            if (!k) {
                p->pos = run;
                return jfail(p, "a string that is not UTF-8"), 0;
            }
            run += k;
        }
        if (!arena_put(p, p->s + p->pos, run - p->pos))
            return 0;
        p->pos = run;
        if (p->pos >= p->len)
            return jfail(p, "unterminated string"), 0;
        char c = p->s[p->pos++];
        if (c == '"')
            break;
        if (c != '\\')
            return jfail(p, "control character in a string"), 0;
        if (p->pos >= p->len)
            return jfail(p, "unterminated string"), 0;
        char e = p->s[p->pos++];
        char one;
        switch (e) {
        case '"':
            one = '"';
            break;
        case '\\':
            one = '\\';
            break;
        case '/':
            one = '/';
            break;
        case 'b':
            one = '\b';
            break;
        case 'f':
            one = '\f';
            break;
        case 'n':
            one = '\n';
            break;
        case 'r':
            one = '\r';
            break;
        case 't':
            one = '\t';
            break;
        case 'u': {
            uint32_t cp;
            if (!hex4(p, &cp))
                return jfail(p, "bad \\u escape"), 0;
            if (cp >= 0xDC00 && cp < 0xE000)
                return jfail(p, "a lone low surrogate in a \\u escape"), 0;
            if (cp >= 0xD800 && cp < 0xDC00) {
                uint32_t lo;
                if (p->len - p->pos < 6 && (p->pos == p->len || p->s[p->pos] == '\\'))
                    p->pos = p->len; /* the text ends where the low surrogate should be */
                if (p->len - p->pos < 6 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
                    return jfail(p, "a high surrogate without its low surrogate"), 0;
                p->pos += 2;
                if (!hex4(p, &lo) || lo < 0xDC00 || lo >= 0xE000)
                    return jfail(p, "a high surrogate without its low surrogate"), 0;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            char u[4];
            size_t n;
            if (cp < 0x80) {
                u[0] = (char)cp;
                n = 1;
            } else if (cp < 0x800) {
                u[0] = (char)(0xC0 | cp >> 6);
                u[1] = (char)(0x80 | (cp & 0x3F));
                n = 2;
            } else if (cp < 0x10000) {
                u[0] = (char)(0xE0 | cp >> 12);
                u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
                u[2] = (char)(0x80 | (cp & 0x3F));
                n = 3;
            } else {
                u[0] = (char)(0xF0 | cp >> 18);
                u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
                u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
                u[3] = (char)(0x80 | (cp & 0x3F));
                n = 4;
            }
            if (!arena_put(p, u, n))
                return 0;
            continue;
        }
        default:
            return jfail(p, "bad escape"), 0;
        }
        if (!arena_put(p, &one, 1))
            return 0;
    }
    *len = (uint32_t)(p->arena_len - *off);
    return arena_put(p, "\0", 1); /* keep every string NUL-terminated in the arena */
}

static int word(json_dom *p, const char *w) {
    size_t n = strlen(w);
    if (p->len - p->pos >= n && memcmp(p->s + p->pos, w, n) == 0) {
        p->pos += n;
        return 1;
    }
    return 0;
}

static uint32_t parse_value(json_dom *p, unsigned depth) {
    if (depth > JSON_MAX_DEPTH)
        return jfail(p, "nested too deeply"), 0;
    skip_ws(p);
    if (p->pos >= p->len)
        return jfail(p, "unexpected end of input"), 0;
    char c = p->s[p->pos];
    uint32_t n;
    if (c == '{' || c == '[') {
        int obj = c == '{';
        p->pos++;
        if (!(n = new_node(p, obj ? J_OBJ : J_ARR)))
            return 0;
        uint32_t last = 0;
        skip_ws(p);
        if (p->pos < p->len && p->s[p->pos] == (obj ? '}' : ']')) {
            p->pos++;
            return n;
        }
        while (1) {
            uint32_t koff = 0, klen = 0;
            if (obj) {
                skip_ws(p);
                if (p->pos >= p->len || p->s[p->pos] != '"')
                    return jfail(p, "expected a key"), 0;
                p->pos++;
                if (!parse_string(p, &koff, &klen))
                    return 0;
                skip_ws(p);
                if (p->pos >= p->len || p->s[p->pos] != ':')
                    return jfail(p, "expected ':'"), 0;
                p->pos++;
            }
            uint32_t v = parse_value(p, depth + 1);
            if (!v)
                return 0;
            p->nodes[v].key = koff;
            p->nodes[v].key_len = klen;
            if (last)
                p->nodes[last].next = v;
            else
                p->nodes[n].child = v;
            last = v;
            p->nodes[n].count++;
            skip_ws(p);
            if (p->pos < p->len && p->s[p->pos] == ',') {
                p->pos++;
                continue;
            }
            if (p->pos < p->len && p->s[p->pos] == (obj ? '}' : ']')) {
                p->pos++;
                return n;
            }
            return jfail(p, obj ? "expected ',' or '}'" : "expected ',' or ']'"), 0;
        }
    }
    if (c == '"') {
        p->pos++;
        if (!(n = new_node(p, J_STR)))
            return 0;
        uint32_t off, len;
        if (!parse_string(p, &off, &len))
            return 0;
        p->nodes[n].str = off;
        p->nodes[n].len = len;
        return n;
    }
    if (word(p, "true") || word(p, "false")) {
        if (!(n = new_node(p, J_BOOL)))
            return 0;
        p->nodes[n].truth = p->s[p->pos - 1] == 'e' && p->s[p->pos - 2] == 'u';
        return n;
    }
    if (word(p, "null"))
        return new_node(p, J_NULL);
    size_t start = p->pos;
    while (p->pos < p->len && (strchr("+-.eE0123456789xXabcdefABCDEFinftyINFTYN", p->s[p->pos])))
        p->pos++;
    if (p->pos == start || p->pos - start > 40)
        return jfail(p, "unexpected character"), 0;
    if (!(n = new_node(p, J_NUM)))
        return 0;
    p->nodes[n].str = (uint32_t)start;
    p->nodes[n].len = (uint32_t)(p->pos - start);
    return n;
}

uint32_t blvl__json_dom_parse(json_dom *d, const char *json, size_t len, const blvl_allocator *a,
                              blvl_error *err) {
    memset(d, 0, sizeof *d);
    d->a = a;
    d->s = json;
    d->len = len;
    d->err = err;
    new_node(d, J_NULL); /* node 0: "no node" */
    uint32_t root = d->st ? 0 : parse_value(d, 0);
    if (root) {
        skip_ws(d);
        if (d->pos != d->len)
            jfail(d, "trailing characters after the JSON value");
    }
    return d->st ? 0 : root;
}

void blvl__json_dom_free(json_dom *d) {
    if (d->nodes)
        blvl__dealloc(d->a, d->nodes, d->capnodes * sizeof(json_node));
    if (d->arena)
        blvl__dealloc(d->a, d->arena, d->arena_cap);
}
