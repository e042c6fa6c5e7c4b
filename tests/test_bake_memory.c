/* What a bake holds (issue 33 §4, the stress map's peak memory):
 *   - an entity's strings live in the bake's arena, not one allocation each (234,000 tile entities
 *     held 1.2 M strings of a few bytes at 48 bytes apiece): adding 20,000 entities of five pairs
 *     takes a few dozen allocations, not 240,000; every byte comes back when the bake is freed;
 *   - a bake written once (blvl__bake_model_spend, an importer's own) frees its vertices once the
 *     geometry section holds them: the same bytes as a bake kept whole, the vertices' bytes gone
 *     after the write, and a second write refused. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/sections/meta.h"
#include "bake/model/fast.h"
#include "check.h"

typedef struct count {
    long calls, live;
} count;

static void *a_alloc(void *user, size_t size) {
    count *c = user;
    c->calls++;
    c->live += (long)size;
    return malloc(size);
}

static void a_free(void *user, void *ptr, size_t size) {
    count *c = user;
    c->live -= (long)size;
    free(ptr);
}

#define QUADS 4096u

/* A bake of QUADS quads in one surface, written to memory; *held the allocator's live bytes
 * after the write, *again the status of a second write. */
static void *quads(bool spend, count *c, size_t *size, long *held, blvl_status *again) {
    blvl_options opt;
    memset(&opt, 0, sizeof opt);
    opt.allocator = (blvl_allocator){a_alloc, a_free, c};
    blvl_bake *b = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl_bake_new(&b, &opt, &err), BLVL_OK);
    blvl_bake_meta m = {.name = "quads", .engine = blvl_Engine_Subspace};
    CHECK_EQ_INT(blvl_bake_set_meta(b, &m, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_bake_set_acoustics(b, false, 96, &err), BLVL_OK);
    blvl_bake_material mat;
    blvl_bake_material_init(&mat);
    mat.name = "m";
    uint32_t mi = 0, si = 0;
    CHECK_EQ_INT(blvl_bake_add_material(b, &mat, &mi, &err), BLVL_OK);
    blvl_bake_source src = {.kind = 1, .entity = BLVL_BAKE_NONE, .material = mi};
    CHECK_EQ_INT(blvl_bake_add_source(b, &src, &si, &err), BLVL_OK);
    blvl_bake_vertex *v = calloc(4 * QUADS, sizeof *v);
    uint32_t *ix = malloc(6 * QUADS * sizeof *ix);
    static const uint32_t tri[6] = {0, 1, 2, 0, 2, 3};
    for (uint32_t q = 0; q < QUADS; q++) {
        for (uint32_t k = 0; k < 4; k++) {
            v[4 * q + k].position[0] = (float)(q % 64 * 16 + (k >= 2) * 16);
            v[4 * q + k].position[2] = (float)(q / 64 * 16 + (k == 1 || k == 2) * 16);
            v[4 * q + k].normal[1] = 1;
        }
        for (uint32_t k = 0; k < 6; k++)
            ix[6 * q + k] = 4 * q + tri[k];
    }
    blvl_bake_surface s;
    blvl_bake_surface_init(&s);
    s.vertices = v, s.vertex_count = 4 * QUADS, s.indices = ix, s.index_count = 6 * QUADS;
    s.material = mi, s.source = si;
    CHECK_EQ_INT(blvl_bake_add_surface(b, &s, &err), BLVL_OK);
    free(v);
    free(ix);
    if (spend)
        blvl__bake_model_spend(b);
    void *level = NULL, *second = NULL;
    CHECK_EQ_INT(blvl_bake_write_memory(b, &level, size, NULL, NULL, NULL, &err), BLVL_OK);
    *held = c->live - (long)*size;
    size_t n2 = 0;
    *again = blvl_bake_write_memory(b, &second, &n2, NULL, NULL, NULL, &err);
    if (second)
        blvl_free(&opt, second);
    blvl_bake_free(b);
    return level;
}

static void spend(void) {
    count kept = {0, 0}, spent = {0, 0};
    size_t n1 = 0, n2 = 0;
    long h1 = 0, h2 = 0;
    blvl_status a1, a2;
    uint8_t *l1 = quads(false, &kept, &n1, &h1, &a1), *l2 = quads(true, &spent, &n2, &h2, &a2);
    CHECK(l1 && l2 && n1 == n2 && memcmp(l1, l2, n1) == 0);
    CHECK_EQ_INT(a1, BLVL_OK);
    CHECK_EQ_INT(a2, BLVL_E_ARGUMENT);
    /* the vertices' 4 x QUADS x 44 bytes (their table at least that) gone after the write */
    CHECK(h1 - h2 >= (long)(4 * QUADS * sizeof(blvl_bake_vertex)));
    printf("held after the write: kept %ld, spent %ld bytes\n", h1, h2);
    free(l1 - 16); /* blvl_free's block: the size in the 16 bytes before it */
    free(l2 - 16);
    CHECK_EQ_INT(kept.live, (long)(n1 + 16));
    CHECK_EQ_INT(spent.live, (long)(n2 + 16));
}

int main(void) {
    spend();
    count c = {0, 0};
    blvl_options opt;
    memset(&opt, 0, sizeof opt);
    opt.allocator = (blvl_allocator){a_alloc, a_free, &c};
    blvl_bake *b = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl_bake_new(&b, &opt, &err), BLVL_OK);
    blvl_bake_meta m = {.name = "entities", .engine = blvl_Engine_Subspace};
    CHECK_EQ_INT(blvl_bake_set_meta(b, &m, &err), BLVL_OK);
    long before = c.calls;
    for (uint32_t i = 0; i < 20000; i++) {
        char cell[24];
        snprintf(cell, sizeof cell, "%u %u", i % 1024, i / 1024);
        blvl_bake_pair p[5] = {
            {"tile", "170"}, {"kind", "flag"}, {"cell", cell}, {"footprint", "1 1"}, {"door", ""}};
        CHECK_EQ_INT(blvl_bake_add_entity(b, "subspace_flag", p, 5, NULL, &err), BLVL_OK);
    }
    long adding = c.calls - before;
    CHECK(adding < 200); /* each string its own allocation: 240,000 */
    void *level = NULL;
    size_t size = 0;
    CHECK_EQ_INT(blvl_bake_write_memory(b, &level, &size, NULL, NULL, NULL, &err), BLVL_OK);
    CHECK(size > 0);
    blvl_free(&opt, level);
    blvl_bake_free(b);
    CHECK_EQ_INT(c.live, 0);
    printf("adding 20000 entities: %ld allocations\n", adding);
    return check_report("test_bake_memory");
}
