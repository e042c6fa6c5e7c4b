/* Tokens of a .fbs file; comments are kept with their line so declarations can carry them. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fbsgen.h"

void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "fbsgen: out of memory\n");
        exit(1);
    }
    return p;
}
void *xrealloc(void *p, size_t n) {
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "fbsgen: out of memory\n");
        exit(1);
    }
    return p;
}
char *xstrdup(const char *s) {
    size_t n = strlen(s);
    char *p = xmalloc(n + 1);
    memcpy(p, s, n + 1);
    return p;
}

static char *span(const char *a, size_t n) {
    char *p = xmalloc(n + 1);
    memcpy(p, a, n);
    p[n] = '\0';
    return p;
}

int fbs_lex(const char *path, const char *src, lexed *out) {
    memset(out, 0, sizeof *out);
    int line = 1, last_tok_line = 0;
    const char *p = src;
    while (*p) {
        if (*p == '\n') {
            line++;
            p++;
            continue;
        }
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '/') {
            const char *e = strchr(p, '\n');
            if (!e)
                e = p + strlen(p);
            const char *t = p + 2;
            while (*t == '/')
                t++;
            while (t < e && isspace((unsigned char)*t))
                t++;
            const char *te = e;
            while (te > t && isspace((unsigned char)te[-1]))
                te--;
            GROW(out->comments, out->ncomments);
            out->comments[out->ncomments++] =
                (comment){line, last_tok_line == line, span(t, (size_t)(te - t))};
            p = e;
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            if (!e) {
                fprintf(stderr, "%s:%d: unterminated comment\n", path, line);
                return -1;
            }
            for (const char *q = p; q < e; q++)
                line += *q == '\n';
            p = e + 2;
            continue;
        }
        token t = {T_PUNCT, NULL, line};
        const char *s = p;
        if (isalpha((unsigned char)*p) || *p == '_') {
            while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
                p++;
            t.kind = T_IDENT;
        } else if (isdigit((unsigned char)*p) || ((*p == '-' || *p == '+' || *p == '.') &&
                                                  (isdigit((unsigned char)p[1]) || p[1] == '.' ||
                                                   isalpha((unsigned char)p[1])))) {
            /* numbers, and signed names such as -inf */
            p++;
            while (isalnum((unsigned char)*p) || *p == '.' || *p == '_' ||
                   ((*p == '-' || *p == '+') && (p[-1] == 'e' || p[-1] == 'E') &&
                    !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))))
                p++;
            t.kind = T_NUMBER;
        } else if (*p == '"') {
            p++;
            while (*p && *p != '"' && *p != '\n')
                p += (*p == '\\' && p[1]) ? 2 : 1;
            if (*p != '"') {
                fprintf(stderr, "%s:%d: unterminated string\n", path, line);
                return -1;
            }
            p++;
            t.kind = T_STRING;
            t.text = span(s + 1, (size_t)(p - s - 2));
        } else {
            p++;
        }
        if (!t.text)
            t.text = span(s, (size_t)(p - s));
        last_tok_line = line;
        GROW(out->toks, out->ntoks);
        out->toks[out->ntoks++] = t;
    }
    GROW(out->toks, out->ntoks);
    out->toks[out->ntoks++] = (token){T_EOF, xstrdup(""), line};
    return 0;
}
