/* The Riot reader against files written by an independent Python implementation
 * (tests/data/riot/make_riot.py, with Python's zlib):
 *   - every good file reads, its fields printed here equal the Python writer's dump line for
 *     line (floats bit for bit, layer data as inflated), and read -> write gives the same bytes
 *     at both levels (container and records);
 *   - every bad file is refused with BLVL_E_SOURCE and exactly its expected message, also with
 *     a counting allocator that must end with nothing allocated;
 *   - the other way round: levels the C writer made (tests/support/riot_gen.c) read by the
 *     Python reader (make_riot.py --dump, Python's zlib) give the dump of what C read. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/blvl.h"
#include "blvl/riot.h"
#include "check.h"
#include "files.h"
#include "support/riot_gen.h"
#include "support/counting_alloc.h"

static uint8_t *load(const char *dir, const char *name, const char *ext, size_t *n) {
    char path[512];
    const char *src = getenv("BLVL_SRC");
    snprintf(path, sizeof path, "%s/tests/data/riot/%s/%s%s", src ? src : ".", dir, name, ext);
    return test_slurp(path, n);
}

/* ---- the dump, in make_riot.py's format ---------------------------------------------------- */

typedef struct text {
    char *p;
    size_t n, cap;
} text;

static void line(text *t, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (t->n + (size_t)k + 2 > t->cap) {
        t->cap = (t->cap + (size_t)k + 2) * 2;
        t->p = realloc(t->p, t->cap);
    }
    memcpy(t->p + t->n, buf, (size_t)k);
    t->n += (size_t)k;
    t->p[t->n++] = '\n';
    t->p[t->n] = '\0';
}

static unsigned bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static void dump(const blvl_riot_level *l, text *t) {
    line(t, "record 0x0000");
    line(t, "name %u \"%s\"", l->name.size, l->name.text);
    line(t, "maxWidth %u", l->max_width);
    line(t, "maxHeight %u", l->max_height);
    line(t, "dbRefCount %u", l->dbref_count);
    for (uint32_t i = 0; i < l->dbref_count; i++) {
        const blvl_riot_dbref *d = &l->dbrefs[i];
        line(t, "dbRef[%u].index %u", i, d->index);
        line(t, "dbRef[%u].unknown %u", i, d->unknown);
        line(t, "dbRef[%u].path %u \"%s\"", i, d->path.size, d->path.text);
    }
    line(t, "record 0x0001");
    line(t, "layerCount %u", l->layer_count);
    for (uint32_t i = 0; i < l->layer_count; i++) {
        const blvl_riot_layer *y = &l->layers[i];
        line(t, "layer[%u].id %u", i, y->id);
        line(t, "layer[%u].width %u", i, y->width);
        line(t, "layer[%u].height %u", i, y->height);
        line(t, "layer[%u].type %u", i, y->type);
        line(t, "layer[%u].originX %u", i, y->origin_x);
        line(t, "layer[%u].originZ %u", i, y->origin_z);
        line(t, "layer[%u].worldHeight 0x%08x", i, bits(y->world_height));
        line(t, "layer[%u].name %u \"%s\"", i, y->name.size, y->name.text);
        line(t, "layer[%u].flags %u", i, y->flags);
        line(t, "layer[%u].lightDirection 0x%08x", i, bits(y->light_direction));
        line(t, "layer[%u].lightAscension 0x%08x", i, bits(y->light_ascension));
        const blvl_riot_color *c = &y->light_color, *a = &y->ambient_color;
        line(t, "layer[%u].lightColor %u %u %u %u", i, c->r, c->g, c->b, c->pad);
        line(t, "layer[%u].ambientColor %u %u %u %u", i, a->r, a->g, a->b, a->pad);
        line(t, "layer[%u].lightDropoff %u", i, y->light_dropoff);
        line(t, "layer[%u].visibleCount %u", i, y->visible_count);
        for (uint32_t k = 0; k < y->visible_count; k++)
            line(t, "layer[%u].visible[%u] %u", i, k, y->visible[k]);
    }
    line(t, "unknown %u", l->layers_unknown);
    for (uint32_t i = 0; i < l->layer_count; i++) {
        const blvl_riot_layer *y = &l->layers[i];
        line(t, "layer[%u].compressedSize %u", i, y->compressed_size);
        size_t nv = ((size_t)y->width + 1) * (y->height + 1), nc = (size_t)y->width * y->height;
        for (size_t k = 0; k < nv; k++)
            line(t, "layer[%u].vertex[%zu] %u %u %u", i, k, y->vertices[k].type,
                 y->vertices[k].constant, y->vertices[k].raw_height);
        for (size_t k = 0; k < nc; k++) {
            const blvl_riot_cell *c = &y->cells[k];
            line(t, "layer[%u].cell[%zu] %u %u %u %u %u %u %u %u %u %u %u", i, k, c->flags,
                 c->texture[0], c->texture[1], c->uv[0], c->uv[1], c->uv[2], c->uv[3], c->uv[4],
                 c->uv[5], c->uv[6], c->uv[7]);
        }
    }
    if (l->has_groups) {
        line(t, "record 0x0002");
        line(t, "groupCount %u", l->group_count);
        for (uint32_t i = 0; i < l->group_count; i++) {
            const blvl_riot_group *g = &l->groups[i];
            line(t, "group[%u].name %u \"%s\"", i, g->name.size, g->name.text);
            line(t, "group[%u].layerCount %u", i, g->layer_count);
            for (uint32_t k = 0; k < g->layer_count; k++)
                line(t, "group[%u].layer[%u] %u", i, k, g->layers[k]);
        }
    }
    if (l->has_objects) {
        line(t, "record 0x0020");
        line(t, "objectCount %u", l->object_count);
        for (uint32_t i = 0; i < l->object_count; i++) {
            const blvl_riot_object *o = &l->objects[i];
            line(t, "object[%u].id %u", i, o->id);
            line(t, "object[%u].classId %u", i, o->class_id);
            line(t, "object[%u].classDb %u", i, o->class_db);
            line(t, "object[%u].lightingLayer %u", i, o->lighting_layer);
            for (int k = 0; k < 3; k++)
                line(t, "object[%u].%c 0x%08x", i, "xyz"[k], bits(o->position[k]));
            line(t, "object[%u].flags %u", i, o->flags);
            line(t, "object[%u].initialEventCount %u", i, o->initial_event_count);
            line(t, "object[%u].linkCount %u", i, o->link_count);
            for (uint32_t k = 0; k < o->link_count; k++)
                line(t, "object[%u].link[%u] %u", i, k, o->links[k]);
            for (int k = 0; k < 3; k++)
                line(t, "object[%u].rotation%c %u", i, "XYZ"[k], o -> rotation[k]);
            if (o->flags & BLVL_RIOT_SCALED)
                for (int k = 0; k < 3; k++)
                    line(t, "object[%u].scale%c 0x%08x", i, "XYZ"[k], bits(o->scale[k]));
            line(t, "object[%u].dataSize %u", i, o->data_size);
            line(t, "object[%u].paramCount %u", i, o->param_count);
            for (uint32_t k = 0; k < o->data_size; k++)
                line(t, "object[%u].paramData[%u] %u", i, k, o->param_data[k]);
            for (uint32_t k = 0; k < o->param_count; k++)
                line(t, "object[%u].paramIndex[%u] %u", i, k, o->param_indices[k]);
            for (uint32_t k = 0; k < o->param_count; k++) {
                line(t, "object[%u].paramDef[%u].type %u", i, k, o->param_defs[k].type);
                line(t, "object[%u].paramDef[%u].name %u \"%s\"", i, k, o->param_defs[k].name.size,
                     o->param_defs[k].name.text);
            }
        }
    }
}

/* ---- good files ---------------------------------------------------------------------------- */

static void test_good(void) {
    size_t n;
    char *list = (char *)load("good", "list", ".txt", &n);
    CHECK(list != NULL);
    int good = 0;
    for (char *name = list ? strtok(list, "\n") : NULL; name; name = strtok(NULL, "\n")) {
        size_t fn, dn;
        uint8_t *b = load("good", name, ".lvl", &fn);
        char *want = (char *)load("good", name, ".dump", &dn);
        CHECK(b && want);
        if (!b || !want) {
            free(b);
            free(want);
            continue;
        }
        good++;
        blvl_riot_level *l = NULL;
        blvl_error e;
        blvl_status st = blvl_riot_read(&l, b, fn, NULL, &e);
        CHECK_EQ_INT(st, BLVL_OK);
        if (st)
            fprintf(stderr, "%s: %s\n", name, e.message);
        if (l) {
            text t = {0};
            dump(l, &t);
            int same = t.p && strcmp(t.p, want) == 0;
            if (!same) {
                /* the first line that differs */
                const char *x = t.p ? t.p : "", *y = want;
                while (*x && *x == *y)
                    x++, y++;
                while (x > t.p && x[-1] != '\n')
                    x--, y--;
                fprintf(stderr, "%s: dump differs:\n  got  %.100s\n  want %.100s\n", name, x, y);
            }
            CHECK(same);
            free(t.p);
            void *out = NULL;
            size_t on = 0;
            CHECK_EQ_INT(blvl_riot_write(&out, &on, l, NULL, &e), BLVL_OK);
            CHECK(on == fn && out && memcmp(out, b, fn) == 0);
            blvl_free(NULL, out);
            blvl_riot_free(l);
        }
        blvl_riot_srsc *c = NULL;
        CHECK_EQ_INT(blvl_riot_srsc_read(&c, b, fn, NULL, &e), BLVL_OK);
        if (c) {
            void *out = NULL;
            size_t on = 0;
            CHECK_EQ_INT(blvl_riot_srsc_write(&out, &on, c, NULL, &e), BLVL_OK);
            CHECK(on == fn && out && memcmp(out, b, fn) == 0);
            blvl_free(NULL, out);
            blvl_riot_srsc_free(c);
        }
        free(b);
        free(want);
    }
    free(list);
    CHECK(good >= 4);
}

/* ---- bad files ----------------------------------------------------------------------------- */

static void test_bad(void) {
    size_t n;
    char *list = (char *)load("bad", "expected", ".tsv", &n);
    CHECK(list != NULL);
    int count = 0;
    for (char *ln = list ? strtok(list, "\n") : NULL; ln; ln = strtok(NULL, "\n")) {
        char *tab = strchr(ln, '\t');
        CHECK(tab != NULL);
        if (!tab)
            continue;
        *tab = '\0';
        const char *want = tab + 1;
        size_t fn;
        uint8_t *b = load("bad", ln, ".lvl", &fn);
        CHECK(b != NULL);
        if (!b)
            continue;
        count++;
        blvl_riot_level *l = NULL;
        blvl_error e;
        blvl_status st = blvl_riot_read(&l, b, fn, NULL, &e);
        CHECK_EQ_INT(st, BLVL_E_SOURCE);
        CHECK(l == NULL);
        if (strcmp(e.message, want) != 0)
            fprintf(stderr, "%s:\n  got  %s\n  want %s\n", ln, e.message, want);
        CHECK(strcmp(e.message, want) == 0);
        test_counter c;
        blvl_options o = test_counting(&c);
        CHECK_EQ_INT(blvl_riot_read(&l, b, fn, &o, &e), BLVL_E_SOURCE);
        CHECK(c.live == 0 && c.bad_free == 0);
        free(b);
    }
    free(list);
    CHECK(count >= 50);
}

/* ---- the C writer's files, read by the Python reader ------------------------------------- */

/* Levels from the generator, written by blvl_riot_write (the layers deflated by it), dumped by
 * make_riot.py --dump (its own reader, Python's zlib) and by this file from what the C reader
 * read: the same lines. */
static void test_python_reads_ours(void) {
    riot_gen_opts cases[] = {
        {.seed = 51, .objects = 5},
        {.seed = 52, .objects = 0, .no_groups = true, .unusual = true},
        {.seed = 53, .layers = 6, .objects = 9, .unusual = true},
    };
    const char *src = getenv("BLVL_SRC");
    char dir[] = "/tmp/riot_files_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        blvl_riot_level truth;
        CHECK(riot_gen_build(&cases[i], &truth) == 0);
        void *out = NULL;
        size_t n = 0;
        blvl_error e;
        CHECK_EQ_INT(blvl_riot_write(&out, &n, &truth, NULL, &e), BLVL_OK);
        char lvl[300], dumped[300], cmd[1024];
        snprintf(lvl, sizeof lvl, "%s/case%zu.lvl", dir, i);
        snprintf(dumped, sizeof dumped, "%s/case%zu.dump", dir, i);
        CHECK(test_spit(lvl, out, n) == 0);
        snprintf(cmd, sizeof cmd, "python3 %s/tests/data/riot/make_riot.py --dump %s >%s",
                 src ? src : ".", lvl, dumped);
        CHECK_EQ_INT(test_run(cmd), 0);
        size_t dn;
        char *want = (char *)test_slurp(dumped, &dn);
        blvl_riot_level *l = NULL;
        CHECK_EQ_INT(blvl_riot_read(&l, out, n, NULL, &e), BLVL_OK);
        if (l && want) {
            text t = {0};
            dump(l, &t);
            CHECK(t.p && strcmp(t.p, want) == 0);
            if (t.p && strcmp(t.p, want) != 0)
                fprintf(stderr, "case %zu: the Python reader disagrees\n", i);
            free(t.p);
        }
        blvl_riot_free(l);
        free(want);
        remove(lvl);
        remove(dumped);
        blvl_free(NULL, out);
        riot_gen_free(&truth);
    }
    rmdir(dir);
}

int main(void) {
    test_good();
    test_python_reads_ours();
    test_bad();
    return check_report("test_riot_files");
}
