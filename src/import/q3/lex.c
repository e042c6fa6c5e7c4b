/* The shared Quake 3 tokeniser (lex.h). */
#include "lex.h"

#include <string.h>

static bool fail(q3_lex *l, size_t at, const char *rule, const char *problem) {
    l->fail_at = at;
    l->fail_rule = rule;
    l->fail_problem = problem;
    return false;
}

bool blvl__import_q3_lex_next(q3_lex *l, q3_token *t) {
    bool nl = false;
    for (;;) {
        while (l->pos < l->n && (unsigned char)l->s[l->pos] <= ' ') {
            if (l->s[l->pos] == '\n')
                nl = true;
            l->pos++;
        }
        if (l->pos + 1 < l->n && l->s[l->pos] == '/' && l->s[l->pos + 1] == '/') {
            while (l->pos < l->n && l->s[l->pos] != '\n')
                l->pos++;
            continue;
        }
        if (l->pos + 1 < l->n && l->s[l->pos] == '/' && l->s[l->pos + 1] == '*') {
            size_t start = l->pos;
            l->pos += 2;
            while (l->pos + 1 < l->n && !(l->s[l->pos] == '*' && l->s[l->pos + 1] == '/'))
                l->pos++;
            if (l->pos + 1 >= l->n)
                return fail(l, start, "comment", "a /* comment never closes");
            l->pos += 2;
            continue;
        }
        break;
    }
    t->at = l->pos;
    t->newline = nl;
    t->quoted = false;
    t->p = NULL;
    t->n = 0;
    if (l->pos >= l->n)
        return true;
    size_t start = l->pos, end;
    if (l->s[l->pos] == '"') {
        start++;
        const char *q = memchr(l->s + start, '"', l->n - start);
        if (!q)
            return fail(l, t->at, "quote", "a quoted token never closes");
        end = (size_t)(q - l->s);
        l->pos = end + 1;
        t->quoted = true;
    } else {
        while (l->pos < l->n && (unsigned char)l->s[l->pos] > ' ')
            l->pos++;
        end = l->pos;
    }
    t->p = l->s + start;
    t->n = end - start;
    return true;
}
