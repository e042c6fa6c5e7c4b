/* The shaders of a set of scripts by name. The engine joins its scripts into one text, last
 * listed first, and takes the first definition of a name in that text: so a script added later
 * wins over one added earlier, and within one script the first definition wins. Names compare
 * without regard to ASCII case, as the engine's Q_stricmp does. */
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "shader_internal.h"

typedef struct slot {
    const blvl_q3_shader *sh; /* NULL: empty */
    uint32_t script;          /* the add() call that put it here */
    uint32_t hash;
} slot;

struct blvl_q3_shaders {
    blvl_allocator alloc;
    q3s_arena ar;
    slot *table;
    size_t cap, count; /* cap a power of two */
    uint32_t scripts, refused;
    char *first_refusal;
};

static uint32_t hash_name(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 'A' && c <= 'Z')
            c = (unsigned char)(c + 32);
        h = (h ^ c) * 16777619u;
    }
    return h;
}

static bool same_name(const char *a, const char *b) {
    for (;; a++, b++) {
        unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        if (x >= 'A' && x <= 'Z')
            x = (unsigned char)(x + 32);
        if (y >= 'A' && y <= 'Z')
            y = (unsigned char)(y + 32);
        if (x != y)
            return false;
        if (!x)
            return true;
    }
}

static slot *find_slot(slot *table, size_t cap, const char *name, uint32_t h) {
    size_t i = h & (cap - 1);
    while (table[i].sh && !(table[i].hash == h && same_name(table[i].sh->name, name)))
        i = (i + 1) & (cap - 1);
    return &table[i];
}

static bool grow(blvl_q3_shaders *s) {
    size_t nc = s->cap ? s->cap * 2 : 1024;
    slot *t = blvl__calloc_n(&s->alloc, nc, sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < s->cap; i++)
        if (s->table[i].sh)
            *find_slot(t, nc, s->table[i].sh->name, s->table[i].hash) = s->table[i];
    if (s->table)
        blvl__dealloc(&s->alloc, s->table, s->cap * sizeof *s->table);
    s->table = t;
    s->cap = nc;
    return true;
}

blvl_status blvl_q3_shaders_new(blvl_q3_shaders **out, const blvl_options *opt, blvl_error *err) {
    if (!out)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no output");
    *out = NULL;
    blvl_allocator a = {0};
    if (opt)
        a = opt->allocator;
    blvl_q3_shaders *s = blvl__calloc(&a, sizeof *s);
    if (!s)
        return blvl__nomem(err, "shader set");
    s->alloc = a;
    s->ar.a = &s->alloc;
    if (!grow(s)) {
        blvl__dealloc(&a, s, sizeof *s);
        return blvl__nomem(err, "shader set");
    }
    *out = s;
    blvl__ok(err);
    return BLVL_OK;
}

void blvl_q3_shaders_free(blvl_q3_shaders *s) {
    if (!s)
        return;
    blvl_allocator a = s->alloc;
    blvl__import_q3_shader_arena_free(&s->ar);
    if (s->table)
        blvl__dealloc(&a, s->table, s->cap * sizeof *s->table);
    blvl__dealloc(&a, s, sizeof *s);
}

blvl_status blvl_q3_shaders_add(blvl_q3_shaders *s, const char *script_name, const char *text,
                                size_t size, blvl_error *err) {
    if (!s || !script_name || (!text && size))
        return blvl__fail(err, BLVL_E_ARGUMENT, "no set, script name or text");
    if (s->scripts >= BLVL_Q3_SHADER_MAX_SCRIPTS)
        return blvl__fail_source(err, script_name, "text", 0, "scripts",
                                 "a set of more than 4096 scripts");
    q3s_mark mark = blvl__import_q3_shader_arena_mark(&s->ar);
    char *name = blvl__import_q3_shader_arena_str(&s->ar, script_name, strlen(script_name));
    if (!name)
        return blvl__nomem(err, "shader set");
    blvl_q3_shader *list;
    uint32_t n;
    blvl_status st = blvl__import_q3_shader_parse(&s->ar, name, text, size, &list, &n, err);
    /* Room for every name first, so the insertion below cannot fail half-way. */
    while (st == BLVL_OK && (s->count + n) * 2 > s->cap)
        if (!grow(s))
            st = blvl__nomem(err, "shader set");
    if (st) {
        blvl__import_q3_shader_arena_rollback(&s->ar, mark);
        return st;
    }
    uint32_t script = s->scripts++;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t h = hash_name(list[i].name);
        slot *e = find_slot(s->table, s->cap, list[i].name, h);
        if (!e->sh)
            s->count++;
        else if (e->script == script)
            continue; /* the first definition within one script wins */
        e->sh = &list[i];
        e->script = script;
        e->hash = h;
    }
    blvl__ok(err);
    return BLVL_OK;
}

const blvl_q3_shader *blvl_q3_shaders_find(const blvl_q3_shaders *s, const char *name) {
    if (!s || !name)
        return NULL;
    return find_slot(s->table, s->cap, name, hash_name(name))->sh;
}

uint32_t blvl_q3_shaders_count(const blvl_q3_shaders *s) {
    return s ? (uint32_t)s->count : 0;
}

uint32_t blvl_q3_shaders_refused(const blvl_q3_shaders *s) {
    return s ? s->refused : 0;
}

const char *blvl_q3_shaders_first_refusal(const blvl_q3_shaders *s) {
    return s ? s->first_refusal : NULL;
}

static blvl_status note_refusal(blvl_q3_shaders *s, const blvl_error *e) {
    s->refused++;
    if (s->first_refusal)
        return BLVL_OK;
    s->first_refusal = blvl__import_q3_shader_arena_str(&s->ar, e->message, strlen(e->message));
    return s->first_refusal ? BLVL_OK : BLVL_E_NOMEM;
}

blvl_status blvl_q3_shaders_load(blvl_q3_shaders *s, const blvl_q3_fs *fs, blvl_error *err) {
    if (!s || !fs)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no set or no search path");
    char **names = NULL;
    size_t count = 0;
    blvl_status st = blvl_q3_fs_list(&names, &count, fs, "scripts", ".shader", err);
    if (st)
        return st;
    for (size_t i = 0; i < count && st == BLVL_OK; i++) {
        void *data = NULL;
        size_t size = 0;
        blvl_error e;
        st = blvl_q3_fs_read(&data, &size, fs, names[i], &e);
        if (st == BLVL_OK) {
            st = blvl_q3_shaders_add(s, names[i], (const char *)data, size, &e);
            blvl_options o = {.allocator = s->alloc};
            blvl_free(&o, data);
        }
        if (st == BLVL_E_SOURCE) /* the engine skips a script it cannot read */
            st = note_refusal(s, &e);
        if (st)
            *err = e;
    }
    blvl_free(blvl_q3_fs_options(fs), names);
    if (st == BLVL_OK)
        blvl__ok(err);
    return st;
}
