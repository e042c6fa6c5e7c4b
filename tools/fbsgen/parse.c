/* The .fbs grammar fbsgen accepts: include, namespace, attribute, enum, union, struct, table,
 * root_type, file_identifier, file_extension. Declarations keep their doc comments. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fbsgen.h"

typedef struct parser {
    schema *s;
    schema_file *file;
    const char *path;
    lexed lx;
    size_t pos;
    int last_line; /* line of the last consumed token */
} parser;

static token *peek(parser *p) {
    return &p->lx.toks[p->pos];
}
static token *next(parser *p) {
    token *t = &p->lx.toks[p->pos];
    if (t->kind != T_EOF)
        p->pos++;
    p->last_line = t->line;
    return t;
}
static int is(parser *p, const char *text) {
    token *t = peek(p);
    return t->kind != T_EOF && t->kind != T_STRING && strcmp(t->text, text) == 0;
}
static int error(parser *p, const char *what) {
    fprintf(stderr, "%s:%d: %s (near '%s')\n", p->path, peek(p)->line, what, peek(p)->text);
    return -1;
}
static int expect(parser *p, const char *text) {
    if (!is(p, text)) {
        char msg[64];
        snprintf(msg, sizeof msg, "expected '%s'", text);
        return error(p, msg);
    }
    next(p);
    return 0;
}
static char *ident(parser *p) {
    if (peek(p)->kind != T_IDENT) {
        error(p, "expected a name");
        return NULL;
    }
    return xstrdup(next(p)->text);
}

/* Comments on the lines just above `line` (a contiguous block), joined. */
static char *leading_doc(parser *p, int line) {
    int first = line;
    for (size_t i = p->lx.ncomments; i-- > 0;) {
        comment *c = &p->lx.comments[i];
        if (c->line == first - 1 && !c->trailing)
            first = c->line;
    }
    size_t len = 0;
    for (size_t i = 0; i < p->lx.ncomments; i++) {
        comment *c = &p->lx.comments[i];
        if (c->line >= first && c->line < line && !c->trailing)
            len += strlen(c->text) + 1;
    }
    if (!len)
        return NULL;
    char *doc = xmalloc(len + 1);
    doc[0] = '\0';
    for (size_t i = 0; i < p->lx.ncomments; i++) {
        comment *c = &p->lx.comments[i];
        if (c->line >= first && c->line < line && !c->trailing) {
            if (doc[0])
                strcat(doc, " ");
            strcat(doc, c->text);
        }
    }
    return doc;
}
/* A comment after the last token on `line`. */
static char *trailing_doc(parser *p, int line) {
    for (size_t i = 0; i < p->lx.ncomments; i++)
        if (p->lx.comments[i].line == line && p->lx.comments[i].trailing)
            return xstrdup(p->lx.comments[i].text);
    return NULL;
}
static char *join_doc(char *a, char *b) {
    if (!a)
        return b;
    if (!b)
        return a;
    char *d = xmalloc(strlen(a) + strlen(b) + 2);
    sprintf(d, "%s %s", a, b);
    free(a);
    free(b);
    return d;
}

/* ( key [: value], ... ) */
static int metadata(parser *p, field *f, def *d) {
    if (!is(p, "("))
        return 0;
    next(p);
    while (!is(p, ")")) {
        char *key = ident(p);
        char *val = NULL;
        if (!key)
            return -1;
        if (is(p, ":")) {
            next(p);
            val = xstrdup(next(p)->text);
        }
        if (f && strcmp(key, "id") == 0) {
            f->explicit_id = 1;
            f->id = val ? atoi(val) : -1;
        } else if (f && strcmp(key, "deprecated") == 0) {
            f->deprecated = 1;
        } else if (f && strcmp(key, "required") == 0) {
            f->required = 1;
        } else if (f && strcmp(key, "blvl_length") == 0) {
            f->exact_len = val ? atoi(val) : 0;
            if (f->exact_len <= 0)
                return error(p, "blvl_length needs a positive count");
        } else if (d && strcmp(key, "bit_flags") == 0) {
            d->bit_flags = 1;
        } else if (d && d->what == D_TABLE && strcmp(key, "blvl_required_section") == 0) {
            d->required_section = 1;
        } else if (d && strcmp(key, "force_align") == 0) {
            d->force_align = val ? (unsigned)atoi(val) : 0;
        } else if (strcmp(key, "key") == 0 || strcmp(key, "nested_flatbuffer") == 0 ||
                   strcmp(key, "flexbuffer") == 0 || strcmp(key, "hash") == 0) {
            fprintf(stderr, "%s:%d: attribute '%s' is not supported by fbsgen\n", p->path,
                    p->last_line, key);
            return -1;
        }
        free(key);
        free(val);
        if (is(p, ","))
            next(p);
        else if (!is(p, ")"))
            return error(p, "expected ',' or ')'");
    }
    next(p);
    return 0;
}

static def *new_def(parser *p, int what, int line) {
    def *d = xmalloc(sizeof *d);
    memset(d, 0, sizeof *d);
    d->what = what;
    d->file = p->file->base;
    d->doc = leading_doc(p, line);
    GROW(p->s->defs, p->s->ndefs);
    p->s->defs[p->s->ndefs++] = d;
    return d;
}

static int parse_enum(parser *p, int what, int line) {
    def *d = new_def(p, what, line);
    if (!(d->name = ident(p)))
        return -1;
    d->underlying = K_U8;
    if (what == D_ENUM) {
        if (expect(p, ":"))
            return -1;
        char *t = ident(p);
        if (!t)
            return -1;
        field tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.type_name = t;
        static const struct {
            const char *n;
            int k;
        } names[] = {{"byte", K_I8},   {"int8", K_I8},   {"ubyte", K_U8},   {"uint8", K_U8},
                     {"short", K_I16}, {"int16", K_I16}, {"ushort", K_U16}, {"uint16", K_U16},
                     {"int", K_I32},   {"int32", K_I32}, {"uint", K_U32},   {"uint32", K_U32},
                     {"long", K_I64},  {"int64", K_I64}, {"ulong", K_U64},  {"uint64", K_U64}};
        d->underlying = 0;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strcmp(names[i].n, t) == 0)
                d->underlying = names[i].k;
        if (!d->underlying)
            return error(p, "an enum needs an integer underlying type");
        free(t);
    }
    if (metadata(p, NULL, d) || expect(p, "{"))
        return -1;
    int64_t nextv = 0;
    if (what == D_UNION) {
        GROW(d->vals, d->nvals);
        d->vals[d->nvals++] = (enum_val){xstrdup("NONE"), NULL, 0, NULL};
        nextv = 1;
    }
    while (!is(p, "}")) {
        int vline = peek(p)->line;
        enum_val v = {NULL, leading_doc(p, vline), nextv, NULL};
        if (!(v.name = ident(p)))
            return -1;
        if (what == D_UNION && is(p, ":"))
            return error(p, "union aliases are not supported");
        if (is(p, "=")) {
            next(p);
            token *n = next(p);
            char *end;
            int neg = n->text[0] == '-';
            const char *digits = n->text + (neg || n->text[0] == '+');
            int base = (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) ? 16 : 10;
            unsigned long long u = strtoull(digits, &end, base);
            if (*end || n->kind != T_NUMBER)
                return error(p, "bad enum value");
            v.value = neg ? -(int64_t)u : (int64_t)u;
        }
        nextv = v.value + 1;
        if (is(p, ","))
            next(p);
        v.doc = join_doc(v.doc, trailing_doc(p, p->last_line));
        GROW(d->vals, d->nvals);
        d->vals[d->nvals++] = v;
    }
    next(p);
    return 0;
}

static int parse_fields(parser *p, def *d) {
    if (metadata(p, NULL, d) || expect(p, "{"))
        return -1;
    while (!is(p, "}")) {
        field f;
        memset(&f, 0, sizeof f);
        f.line = peek(p)->line;
        f.doc = leading_doc(p, f.line);
        if (!(f.name = ident(p)) || expect(p, ":"))
            return -1;
        if (is(p, "[")) {
            next(p);
            f.is_vector = 1;
            if (!(f.type_name = ident(p)))
                return -1;
            if (is(p, ":")) {
                next(p);
                f.is_vector = 0;
                f.array_len = atoi(next(p)->text);
                if (f.array_len <= 0 || d->what != D_STRUCT)
                    return error(p, "fixed arrays need a positive length, in structs only");
            }
            if (expect(p, "]"))
                return -1;
        } else if (!(f.type_name = ident(p))) {
            return -1;
        }
        if (is(p, "=")) {
            next(p);
            token *t = next(p);
            if (t->kind == T_STRING)
                return error(p, "string defaults are not supported");
            f.default_text = xstrdup(t->text);
        }
        if (metadata(p, &f, NULL) || expect(p, ";"))
            return -1;
        f.doc = join_doc(f.doc, trailing_doc(p, p->last_line));
        GROW(d->fields, d->nfields);
        d->fields[d->nfields++] = f;
    }
    next(p);
    return 0;
}

static const char *base_name(const char *path) {
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    char *n = xstrdup(b);
    char *dot = strstr(n, ".fbs");
    if (dot)
        *dot = '\0';
    return n;
}

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = xmalloc(cap);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 2)
            buf = xrealloc(buf, cap *= 2);
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

int fbs_parse_file(schema *s, const char *path) {
    const char *base = base_name(path);
    for (size_t i = 0; i < s->nfiles; i++)
        if (strcmp(s->files[i].base, base) == 0)
            return 0; /* already parsed (included twice) */
    char *src = read_all(path);
    if (!src) {
        fprintf(stderr, "fbsgen: cannot read %s\n", path);
        return -1;
    }
    GROW(s->files, s->nfiles);
    size_t fi = s->nfiles++;
    memset(&s->files[fi], 0, sizeof s->files[fi]);
    s->files[fi].path = xstrdup(path);
    s->files[fi].base = base;
    parser p;
    memset(&p, 0, sizeof p);
    p.s = s;
    p.path = path;
    if (fbs_lex(path, src, &p.lx))
        return -1;
    free(src);
    while (peek(&p)->kind != T_EOF) {
        p.file = &s->files[fi]; /* s->files may move while includes are parsed */
        int line = peek(&p)->line;
        char *kw = ident(&p);
        if (!kw)
            return -1;
        int rc = 0;
        if (strcmp(kw, "include") == 0) {
            token *t = next(&p);
            if (t->kind != T_STRING || expect(&p, ";"))
                return error(&p, "include needs a string");
            char inc[4096];
            const char *slash = strrchr(path, '/');
            if (t->text[0] != '/' && slash)
                snprintf(inc, sizeof inc, "%.*s/%s", (int)(slash - path), path, t->text);
            else
                snprintf(inc, sizeof inc, "%s", t->text);
            if (fbs_parse_file(s, inc))
                return -1;
            schema_file *f = &s->files[fi];
            GROW(f->includes, f->nincludes);
            f->includes[f->nincludes++] = (char *)base_name(inc);
        } else if (strcmp(kw, "namespace") == 0 || strcmp(kw, "root_type") == 0) {
            char *n = ident(&p);
            if (!n || expect(&p, ";"))
                return -1;
            if (kw[0] == 'r')
                s->files[fi].root_type = n;
        } else if (strcmp(kw, "file_identifier") == 0) {
            token *t = next(&p);
            if (t->kind != T_STRING || strlen(t->text) != 4 || expect(&p, ";"))
                return error(&p, "file_identifier needs a string of 4 characters");
            s->files[fi].file_identifier = xstrdup(t->text);
        } else if (strcmp(kw, "attribute") == 0 || strcmp(kw, "file_extension") == 0) {
            next(&p);
            if (expect(&p, ";"))
                return -1;
        } else if (strcmp(kw, "enum") == 0) {
            rc = parse_enum(&p, D_ENUM, line);
        } else if (strcmp(kw, "union") == 0) {
            rc = parse_enum(&p, D_UNION, line);
        } else if (strcmp(kw, "struct") == 0 || strcmp(kw, "table") == 0) {
            def *d = new_def(&p, kw[0] == 's' ? D_STRUCT : D_TABLE, line);
            if (!(d->name = ident(&p)))
                return -1;
            rc = parse_fields(&p, d);
        } else {
            return error(&p, "unknown declaration");
        }
        free(kw);
        if (rc)
            return -1;
    }
    return 0;
}
