/* A .shader script's structure: `name { keyword args { stage keyword args } }` blocks, tokenised
 * as the engine does (white space separates, // and C comments skipped, a quoted token runs to
 * the next quote, the text ends at its first NUL). Each keyword line goes to shader_keywords.c
 * or shader_stage.c; what they do not read is kept verbatim, never fatal. Refusals are about
 * the structure and the limits in q3_shader.h only. */
#include <math.h>
#include <string.h>

#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"
#include "lex.h"
#include "shader_internal.h"

/* ---- arena ------------------------------------------------------------------------------ */

struct q3s_block {
    q3s_block *next;
    size_t size;
    /* data follows, 16-aligned */
};
#define Q3S_BLOCK_HEAD ((sizeof(q3s_block) + 15u) & ~(size_t)15u)
#define Q3S_BLOCK_MIN (64u << 10)

void *blvl__import_q3_shader_arena_alloc(q3s_arena *ar, size_t size) {
    size = (size + 7u) & ~(size_t)7u;
    if (!size)
        size = 8;
    if (!ar->head || ar->cap - ar->used < size) {
        if (size > SIZE_MAX / 2)
            return NULL;
        size_t cap = size > Q3S_BLOCK_MIN ? size : Q3S_BLOCK_MIN;
        q3s_block *b = blvl__alloc(ar->a, Q3S_BLOCK_HEAD + cap);
        if (!b)
            return NULL;
        b->next = ar->head;
        b->size = Q3S_BLOCK_HEAD + cap;
        ar->head = b;
        ar->used = 0;
        ar->cap = cap;
    }
    unsigned char *p = (unsigned char *)ar->head + Q3S_BLOCK_HEAD + ar->used;
    ar->used += size;
    memset(p, 0, size);
    return p;
}

char *blvl__import_q3_shader_arena_str(q3s_arena *ar, const char *s, size_t n) {
    char *r = blvl__import_q3_shader_arena_alloc(ar, n + 1);
    if (r) {
        memcpy(r, s, n);
        r[n] = 0;
    }
    return r;
}

void blvl__import_q3_shader_arena_free(q3s_arena *ar) {
    while (ar->head) {
        q3s_block *b = ar->head;
        ar->head = b->next;
        blvl__dealloc(ar->a, b, b->size);
    }
    ar->used = ar->cap = 0;
}

q3s_mark blvl__import_q3_shader_arena_mark(const q3s_arena *ar) {
    q3s_mark m = {ar->head, ar->used, ar->cap};
    return m;
}

void blvl__import_q3_shader_arena_rollback(q3s_arena *ar, q3s_mark m) {
    while (ar->head && ar->head != m.head) {
        q3s_block *b = ar->head;
        ar->head = b->next;
        blvl__dealloc(ar->a, b, b->size);
    }
    ar->used = m.used;
    ar->cap = m.cap;
}

/* ---- tokens ----------------------------------------------------------------------------- */

typedef struct lex {
    q3_lex lx;
    q3s_parse *p;
} lex;

typedef struct tok {
    q3s_tok t; /* p NULL at the end */
    size_t at;
    bool quoted, newline; /* a line break lies between the previous token and this one */
} tok;

blvl_status blvl__import_q3_shader_refuse(q3s_parse *p, size_t at, const char *rule,
                                          const char *problem) {
    return blvl__fail_source(p->err, p->script, "text", at, rule, "%s", problem);
}

static blvl_status next(lex *l, tok *t) {
    q3_token k;
    if (!blvl__import_q3_lex_next(&l->lx, &k)) {
        *t = (tok){{NULL, 0}, l->lx.fail_at, false, false}; /* the end, should a caller look */
        return blvl__import_q3_shader_refuse(l->p, l->lx.fail_at, l->lx.fail_rule,
                                             l->lx.fail_problem);
    }
    t->at = k.at;
    t->newline = k.newline;
    t->quoted = k.quoted;
    t->t.p = k.p;
    t->t.n = k.n;
    if (k.n > BLVL_Q3_SHADER_MAX_TOKEN)
        return blvl__import_q3_shader_refuse(l->p, t->at, "token",
                                             "a token longer than 1023 bytes");
    return BLVL_OK;
}

static bool brace(const tok *t, char c) {
    return t->t.p && !t->quoted && t->t.n == 1 && t->t.p[0] == c;
}

bool blvl__import_q3_shader_is(const q3s_tok *t, const char *s) {
    size_t n = strlen(s);
    if (t->n != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char a = (unsigned char)t->p[i], b = (unsigned char)s[i];
        if (a >= 'A' && a <= 'Z')
            a = (unsigned char)(a + 32);
        if (b >= 'A' && b <= 'Z')
            b = (unsigned char)(b + 32);
        if (a != b)
            return false;
    }
    return true;
}

/* ---- numbers ---------------------------------------------------------------------------- */

/* The leading decimal of s[0..n) as atof reads it, without the C locale. */
static bool parse_num(const char *s, size_t n, float *out) {
    size_t i = 0;
    bool neg = false, digit = false;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    double v = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
        v = v * 10 + (s[i++] - '0');
        digit = true;
    }
    if (i < n && s[i] == '.') {
        i++;
        double f = 0.1;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            v += (s[i++] - '0') * f;
            f *= 0.1;
            digit = true;
        }
    }
    if (!digit)
        return false;
    if (i + 1 < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        bool eneg = false;
        if (j < n && (s[j] == '+' || s[j] == '-'))
            eneg = s[j++] == '-';
        if (j < n && s[j] >= '0' && s[j] <= '9') {
            int e = 0;
            while (j < n && s[j] >= '0' && s[j] <= '9') {
                if (e < 1000)
                    e = e * 10 + (s[j] - '0');
                j++;
            }
            for (int k = 0; k < e && v != 0 && isfinite(v); k++)
                v = eneg ? v / 10 : v * 10;
        }
    }
    if (neg)
        v = -v;
    float f = (float)v;
    if (!isfinite(f))
        return false;
    *out = f;
    return true;
}

static q3s_tok strip_parens(q3s_tok t) {
    while (t.n && t.p[0] == '(') {
        t.p++;
        t.n--;
    }
    while (t.n && t.p[t.n - 1] == ')')
        t.n--;
    return t;
}

bool blvl__import_q3_shader_num(const q3s_tok *t, float *out) {
    q3s_tok s = strip_parens(*t);
    return s.n && parse_num(s.p, s.n, out);
}

bool blvl__import_q3_shader_nums(const q3s_line *l, uint32_t from, float *out, uint32_t want,
                                 uint32_t *next) {
    uint32_t got = 0, i = from;
    for (; i < l->argc && got < want; i++) {
        q3s_tok s = strip_parens(l->arg[i]);
        if (!s.n)
            continue;
        if (!parse_num(s.p, s.n, &out[got]))
            return false;
        got++;
    }
    if (got != want)
        return false;
    while (i < l->argc && l->arg[i].n == 1 && l->arg[i].p[0] == ')')
        i++;
    if (next)
        *next = i;
    return true;
}

bool blvl__import_q3_shader_wave(const q3s_line *l, uint32_t from, blvl_q3_wave *w,
                                 uint32_t *next) {
    static const char *const names[] = {"sin",      "square",          "triangle",
                                        "sawtooth", "inversesawtooth", "noise"};
    if (from >= l->argc)
        return false;
    uint32_t func = 0;
    for (uint32_t i = 0; i < 6; i++)
        if (blvl__import_q3_shader_is(&l->arg[from], names[i]))
            func = i + 1;
    float v[4];
    if (!func || !blvl__import_q3_shader_nums(l, from + 1, v, 4, NULL))
        return false;
    if (next)
        *next = from + 5;
    w->func = func;
    w->base = v[0];
    w->amp = v[1];
    w->phase = v[2];
    w->freq = v[3];
    return true;
}

blvl_status blvl__import_q3_shader_keep(q3s_parse *p, q3s_list *list, q3s_line *l,
                                        const char *what) {
    l->used = l->argc;
    if (list->count >= BLVL_Q3_SHADER_MAX_LIST)
        return blvl__import_q3_shader_refuse(p, l->offset, "list", what);
    size_t n = l->kw.n;
    for (uint32_t i = 0; i < l->argc; i++)
        n += 1 + l->arg[i].n;
    char *s = blvl__import_q3_shader_arena_alloc(p->ar, n + 1);
    if (!s)
        return blvl__nomem(p->err, "shader script");
    size_t k = l->kw.n;
    memcpy(s, l->kw.p, k);
    for (uint32_t i = 0; i < l->argc; i++) {
        s[k++] = ' ';
        memcpy(s + k, l->arg[i].p, l->arg[i].n);
        k += l->arg[i].n;
    }
    s[k] = 0;
    list->item[list->count++] = s;
    return BLVL_OK;
}

/* ---- structure -------------------------------------------------------------------------- */

/* The keyword `kw` and its arguments: the tokens after it on its line, up to a brace. */
static blvl_status read_line(lex *l, const tok *kw, q3s_line *line) {
    line->kw = kw->t;
    line->offset = kw->at;
    line->argc = 0;
    line->end[0] = l->lx.pos;
    for (;;) {
        size_t save = l->lx.pos;
        tok t;
        blvl_status st = next(l, &t);
        if (st)
            return st;
        if (!t.t.p || t.newline || brace(&t, '{') || brace(&t, '}')) {
            l->lx.pos = save;
            line->used = line->argc;
            return BLVL_OK;
        }
        if (line->argc >= BLVL_Q3_SHADER_MAX_ARGS)
            return blvl__import_q3_shader_refuse(l->p, t.at, "args",
                                                 "a keyword with more than 64 arguments");
        line->arg[line->argc++] = t.t;
        line->end[line->argc] = l->lx.pos;
    }
}

static blvl_status copy_list(q3s_parse *p, const q3s_list *list, const char *const **out,
                             uint32_t *count) {
    *out = NULL;
    *count = list->count;
    if (!list->count)
        return BLVL_OK;
    const char **a = blvl__import_q3_shader_arena_alloc(p->ar, list->count * sizeof *a);
    if (!a)
        return blvl__nomem(p->err, "shader script");
    memcpy(a, list->item, list->count * sizeof *a);
    *out = a;
    return BLVL_OK;
}

static blvl_status parse_stage(lex *l, blvl_q3_stage *st, size_t open_at) {
    q3s_parse *p = l->p;
    memset(st, 0, sizeof *st);
    st->offset = (uint32_t)open_at;
    p->stage_unknown.count = 0;
    for (;;) {
        tok t;
        blvl_status s = next(l, &t);
        if (s)
            return s;
        if (!t.t.p)
            return blvl__import_q3_shader_refuse(p, open_at, "brace", "a stage { never closes");
        if (brace(&t, '}'))
            break;
        if (brace(&t, '{'))
            return blvl__import_q3_shader_refuse(p, t.at, "nesting", "a block inside a stage");
        q3s_line ln;
        if ((s = read_line(l, &t, &ln)) || (s = blvl__import_q3_shader_stage(p, st, &ln)))
            return s;
        l->lx.pos = ln.end[ln.used <= ln.argc ? ln.used : ln.argc];
    }
    return copy_list(p, &p->stage_unknown, &st->unknown, &st->unknown_count);
}

static blvl_status parse_shader(lex *l, blvl_q3_shader *sh, size_t name_at) {
    q3s_parse *p = l->p;
    blvl_q3_stage stages[BLVL_Q3_SHADER_MAX_STAGES];
    uint32_t stage_count = 0;
    p->unknown.count = 0;
    p->params.count = 0;
    for (;;) {
        tok t;
        blvl_status s = next(l, &t);
        if (s)
            return s;
        if (!t.t.p)
            return blvl__import_q3_shader_refuse(p, name_at, "brace", "a shader's { never closes");
        if (brace(&t, '}'))
            break;
        if (brace(&t, '{')) {
            if (stage_count >= BLVL_Q3_SHADER_MAX_STAGES)
                return blvl__import_q3_shader_refuse(p, t.at, "stages",
                                                     "a shader with more than 8 stages");
            if ((s = parse_stage(l, &stages[stage_count], t.at)))
                return s;
            stage_count++;
            continue;
        }
        q3s_line ln;
        if ((s = read_line(l, &t, &ln)) || (s = blvl__import_q3_shader_general(p, sh, &ln)))
            return s;
        l->lx.pos = ln.end[ln.used <= ln.argc ? ln.used : ln.argc];
    }
    if (stage_count) {
        blvl_q3_stage *a = blvl__import_q3_shader_arena_alloc(p->ar, stage_count * sizeof *a);
        if (!a)
            return blvl__nomem(p->err, "shader script");
        memcpy(a, stages, stage_count * sizeof *a);
        sh->stages = a;
        sh->stage_count = stage_count;
    }
    blvl_status s = copy_list(p, &p->unknown, &sh->unknown, &sh->unknown_count);
    if (!s)
        s = copy_list(p, &p->params, &sh->surface_params, &sh->surface_param_count);
    return s;
}

blvl_status blvl__import_q3_shader_parse(q3s_arena *ar, const char *script, const char *text,
                                         size_t size, blvl_q3_shader **out, uint32_t *count,
                                         blvl_error *err) {
    *out = NULL;
    *count = 0;
    if (size > BLVL_Q3_SHADER_MAX_SCRIPT)
        return blvl__fail_source(err, script, "text", 0, "size", "a script over 16 MiB");
    q3s_parse *p = blvl__alloc(ar->a, sizeof *p); /* the scratch lists are large */
    if (!p)
        return blvl__nomem(err, "shader script");
    memset(p, 0, sizeof *p);
    p->ar = ar;
    p->script = script;
    p->err = err;
    lex l = {.lx = {.s = text, .n = text ? strnlen(text, size) : 0}, .p = p};
    const blvl_allocator *a = ar->a;
    blvl_q3_shader *list = NULL;
    size_t cap = 0, n = 0;
    blvl_status st = BLVL_OK;
    for (;;) {
        tok t;
        if ((st = next(&l, &t)) || !t.t.p)
            break;
        if (brace(&t, '{') || brace(&t, '}')) {
            st = blvl__import_q3_shader_refuse(p, t.at, "name",
                                               "a brace where a shader name belongs");
            break;
        }
        /* Real scripts glue the brace to the name ("textures/x/y{"): read it as both. */
        q3s_tok name = t.t;
        bool glued = !t.quoted && name.n > 1 && name.p[name.n - 1] == '{';
        if (glued)
            name.n--;
        if (name.n > BLVL_Q3_SHADER_MAX_NAME) {
            st = blvl__import_q3_shader_refuse(p, t.at, "name",
                                               "a shader name longer than 63 bytes");
            break;
        }
        if (!glued) {
            tok b;
            if ((st = next(&l, &b)))
                break;
            if (!brace(&b, '{')) {
                st = blvl__import_q3_shader_refuse(p, b.t.p ? b.at : t.at, "brace",
                                                   "a shader name not followed by {");
                break;
            }
        }
        if (n >= BLVL_Q3_SHADER_MAX_SHADERS) {
            st = blvl__import_q3_shader_refuse(p, t.at, "shaders",
                                               "a script with more than 65536 shaders");
            break;
        }
        if (n == cap) {
            void *g = list;
            if (!blvl__array_grow(a, &g, &cap, n, n + 1, sizeof *list, 64)) {
                st = blvl__nomem(p->err, "shader script");
                break;
            }
            list = g;
        }
        blvl_q3_shader *sh = &list[n];
        memset(sh, 0, sizeof *sh);
        sh->script = script;
        sh->offset = (uint32_t)t.at;
        if (!(sh->name = blvl__import_q3_shader_arena_str(ar, name.p, name.n))) {
            st = blvl__nomem(p->err, "shader script");
            break;
        }
        if ((st = parse_shader(&l, sh, t.at)))
            break;
        n++;
    }
    if (st == BLVL_OK && n) {
        blvl_q3_shader *r = blvl__import_q3_shader_arena_alloc(ar, n * sizeof *r);
        if (r) {
            memcpy(r, list, n * sizeof *r);
            *out = r;
            *count = (uint32_t)n;
        } else {
            st = blvl__nomem(p->err, "shader script");
        }
    }
    if (list)
        blvl__dealloc(a, list, cap * sizeof *list);
    blvl__dealloc(a, p, sizeof *p);
    return st;
}
