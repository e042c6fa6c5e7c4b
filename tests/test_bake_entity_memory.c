/* An entity's strings live in the bake's arena, not one allocation each (issue 33 §4: the
 * stress map's 234,000 tile entities held 1.2 M strings of a few bytes at 48 bytes apiece). Adding
 * 20,000 entities of five pairs takes a few dozen allocations, not 240,000; the level bakes and
 * every byte comes back when the bake is freed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/sections/meta.h"
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

int main(void) {
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
    return check_report("test_bake_entity_memory");
}
