/* blvl_q3_entities_parse: the entity lump's { "key" "value" ... } blocks, tokenised the way the
 * engine's parser does (whitespace and control bytes separate tokens, // and C comments are
 * skipped, a quoted token runs to the next quote, with no escapes). */
#include <string.h>

#include "blvl/q3.h"
#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"
#include "lex.h"

typedef q3_token tok;

typedef struct lex {
    q3_lex lx;
    blvl_error *err;
} lex;

static blvl_status next(lex *l, tok *t) {
    if (!blvl__import_q3_lex_next(&l->lx, t))
        return blvl__fail_source(l->err, "entities", "text", l->lx.fail_at, l->lx.fail_rule, "%s",
                                 l->lx.fail_problem);
    return BLVL_OK;
}

static bool is(const tok *t, char c) {
    return t->p && !t->quoted && t->n == 1 && t->p[0] == c;
}

static char *copy(const blvl_allocator *a, const tok *t) {
    char *s = blvl__alloc_sized(a, t->n + 1);
    if (s) {
        memcpy(s, t->p, t->n);
        s[t->n] = 0;
    }
    return s;
}

void blvl_q3_entities_free(blvl_q3_entities *e) {
    if (!e)
        return;
    const blvl_allocator *a = &e->allocator;
    for (uint32_t i = 0; i < e->count; i++) {
        for (uint32_t k = 0; k < e->items[i].pair_count; k++) {
            blvl__free_sized(a, e->items[i].pairs[k].key);
            blvl__free_sized(a, e->items[i].pairs[k].value);
        }
        if (e->items[i].pairs)
            blvl__free_sized(a, e->items[i].pairs);
    }
    if (e->items)
        blvl__free_sized(a, e->items);
    e->items = NULL;
    e->count = 0;
}

/* Grow an array of `elem`-byte items held by the sized allocator to hold `need`. */
static bool grow(const blvl_allocator *a, void **p, uint32_t *cap, uint32_t need, size_t elem) {
    size_t c = *cap; /* powers of two from 8: need <= 2^31 keeps them in a uint32 */
    if (need > UINT32_MAX / 2 + 1 || !blvl__array_grow_sized(a, p, &c, c, need, elem, 8))
        return false;
    *cap = (uint32_t)c;
    return true;
}

static blvl_status parse(lex *l, const blvl_allocator *a, blvl_q3_entities *out) {
    uint32_t cap = 0;
    for (;;) {
        tok t;
        blvl_status st = next(l, &t);
        if (st)
            return st;
        if (!t.p)
            return BLVL_OK;
        if (!is(&t, '{'))
            return blvl__fail_source(l->err, "entities", "text", t.at, "entity-open",
                                     "expected '{' to open an entity");
        if (out->count >= UINT32_MAX / 2 ||
            !grow(a, (void **)&out->items, &cap, out->count + 1, sizeof *out->items))
            return BLVL_E_NOMEM;
        blvl_q3_entity *e = &out->items[out->count++];
        memset(e, 0, sizeof *e);
        e->offset = (uint32_t)t.at;
        uint32_t pcap = 0;
        for (;;) {
            tok k, v;
            if ((st = next(l, &k)))
                return st;
            if (!k.p)
                return blvl__fail_source(l->err, "entities", "text", e->offset, "entity-close",
                                         "the text ends inside an entity");
            if (is(&k, '}'))
                break;
            if (is(&k, '{'))
                return blvl__fail_source(l->err, "entities", "text", k.at, "entity-close",
                                         "'{' inside an entity");
            if ((st = next(l, &v)))
                return st;
            if (!v.p || is(&v, '}') || is(&v, '{'))
                return blvl__fail_source(l->err, "entities", "text", k.at, "entity-pair",
                                         "a key without a value");
            if (!grow(a, (void **)&e->pairs, &pcap, e->pair_count + 1, sizeof *e->pairs))
                return BLVL_E_NOMEM;
            blvl_q3_pair *p = &e->pairs[e->pair_count];
            p->key = copy(a, &k);
            p->value = copy(a, &v);
            if (!p->key || !p->value) {
                if (p->key)
                    blvl__free_sized(a, p->key);
                if (p->value)
                    blvl__free_sized(a, p->value);
                return BLVL_E_NOMEM;
            }
            e->pair_count++;
        }
    }
}

blvl_status blvl_q3_entities_parse(blvl_q3_entities *out, const char *text, size_t size,
                                   const blvl_options *opt, blvl_error *err) {
    if (!out || (!text && size))
        return blvl__fail(err, BLVL_E_ARGUMENT, "no output or no text");
    memset(out, 0, sizeof *out);
    if (size > BLVL_Q3_MAX_FILE)
        return blvl__fail_source(err, "entities", "text", 0, "file-size", "over 1 GiB");
    lex l = {.lx = {.s = text, .n = size}, .err = err};
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    if (a)
        out->allocator = *a;
    blvl_status st = parse(&l, a, out);
    if (st != BLVL_OK) {
        blvl_q3_entities_free(out);
        if (st == BLVL_E_NOMEM)
            return blvl__nomem(err, "the entity list");
        return st;
    }
    blvl__ok(err);
    return BLVL_OK;
}

static int lower(int c) {
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

const char *blvl_q3_entity_get(const blvl_q3_entity *e, const char *key) {
    if (!e || !key)
        return NULL;
    for (uint32_t i = 0; i < e->pair_count; i++) {
        const char *a = e->pairs[i].key, *b = key;
        while (*a && lower((unsigned char)*a) == lower((unsigned char)*b))
            a++, b++;
        if (!*a && !*b)
            return e->pairs[i].value;
    }
    return NULL;
}
