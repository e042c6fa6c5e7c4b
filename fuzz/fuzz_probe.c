/* Fuzz the probe on hostile sections: the first byte picks which section the rest replaces
 * (its number among the base level's sections but meta, in registry order: sim, cameras,
 * geometry, textures for the room), in an otherwise valid small level (a box room baked once). A
 * level the reader accepts is probed: built, looked at from two poses and from its first camera (or
 * framed), its pictures loaded, rendered small with the collider outlines. Nothing may fail but the
 * build (a refusal) or read outside its memory (ASan, UBSan). */
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/probe.h"
#include "blvl/sections.h"
#include "blvl/sections/meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The base level's sections, made once (a fuzz harness may keep state between inputs). */
#define MAX_TAGS 16
static uint8_t *base[MAX_TAGS];
static size_t base_size[MAX_TAGS];
static const char *tags[MAX_TAGS]; /* the core sections the base level holds, meta aside */
static int ntags;
static uint8_t *meta;
static size_t meta_size;

static void *copy(const blvl_bytes *b, size_t *n) {
    void *p = malloc(b->size ? b->size : 1);
    if (p && b->size)
        memcpy(p, b->data, b->size);
    *n = b->size;
    return p;
}

static int make_base(void) {
    blvl_bake *b;
    blvl_error err;
    if (blvl_bake_new(&b, NULL, &err) != BLVL_OK)
        return -1;
    blvl_bake_meta m = {"fuzz", NULL, NULL, 0, blvl_Engine_Hmap};
    blvl_bake_set_meta(b, &m, &err);
    blvl_bake_collider c;
    blvl_bake_collider_init(&c);
    blvl_bake_add_box(b, &c, (blvl_Vec3){-64, -16, -64}, (blvl_Vec3){64, 0, 64}, NULL, &err);
    blvl_bake_material mt;
    blvl_bake_material_init(&mt);
    mt.name = "floor";
    uint8_t px[16];
    memset(px, 200, sizeof px);
    blvl_bake_add_image_rgba8(b, "t", 2, 2, px, true, &mt.texture, &err);
    uint32_t mi;
    blvl_bake_add_material(b, &mt, &mi, &err);
    blvl_bake_vertex v[3];
    memset(v, 0, sizeof v);
    const float pos[3][3] = {{-64, 0, -64}, {-64, 0, 64}, {64, 0, 64}};
    for (int i = 0; i < 3; i++) {
        memcpy(v[i].position, pos[i], sizeof pos[i]);
        v[i].normal[1] = 1;
    }
    uint32_t idx[3] = {0, 1, 2};
    blvl_bake_surface s;
    blvl_bake_surface_init(&s);
    s.vertices = v;
    s.vertex_count = 3;
    s.indices = idx;
    s.index_count = 3;
    s.material = mi;
    blvl_bake_add_surface(b, &s, &err);
    blvl_bake_add_camera(b, "c", 0, (blvl_Vec3){0, 64, 128}, 0, -20, 0, 90, &err);
    void *lv = NULL, *sym = NULL;
    size_t lsz = 0, ssz = 0;
    blvl_status st = blvl_bake_write_memory(b, &lv, &lsz, &sym, &ssz, NULL, &err);
    blvl_bake_free(b);
    if (st != BLVL_OK)
        return -1;
    blvl_level *level;
    if (blvl_open_memory(&level, lv, lsz, NULL, &err) != BLVL_OK)
        return -1;
    blvl_bytes bb;
    const uint8_t *root;
    const char *tag;
    for (unsigned t = 0; (tag = blvl_core_tag_at(t)) != NULL && ntags < MAX_TAGS; t++) {
        if (strcmp(tag, "meta") == 0 || !blvl_find(level, tag))
            continue;
        if (blvl_level_section(level, tag, &bb, &root, &err) != BLVL_OK)
            return -1;
        tags[ntags] = tag;
        base[ntags] = copy(&bb, &base_size[ntags]);
        ntags++;
        blvl_bytes_free(&bb);
    }
    if (blvl_level_section(level, "meta", &bb, &root, &err) != BLVL_OK)
        return -1;
    meta = copy(&bb, &meta_size);
    blvl_bytes_free(&bb);
    blvl_close(level);
    blvl_free(NULL, lv);
    blvl_free(NULL, sym);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!meta && make_base() != 0)
        abort(); /* the base level must bake */
    if (size < 1)
        return 0;
    int which = data[0] % ntags;
    blvl_section_in in[1 + MAX_TAGS] = {{"meta", 0, 0, meta, meta_size}};
    for (int i = 0; i < ntags; i++) {
        in[1 + i].tag = tags[i];
        in[1 + i].data = i == which ? data + 1 : base[i];
        in[1 + i].size = i == which ? size - 1 : base_size[i];
    }
    void *file = NULL;
    size_t fsize = 0;
    blvl_error err;
    blvl_options one = {0};
    one.threads = 1; /* a thread pool per input costs more than the probe */
    if (blvl_write_memory(&file, &fsize, in, (size_t)(1 + ntags), &one, &err) != BLVL_OK)
        return 0;
    blvl_level *level;
    if (blvl_open_memory(&level, file, fsize, &one, &err) == BLVL_OK) {
        blvl_probe *p;
        if (blvl_probe_new(&p, level, NULL, &err) == BLVL_OK) {
            blvl_probe_pose poses[3] = {{{0, 26, 0}, 0, -30, 0, 90},
                                        {{0, 64, 200}, 10, -10, 5, 120}};
            bool framed;
            if (blvl_probe_camera(p, "c", &poses[2], &framed, &err) != BLVL_OK)
                poses[2] = poses[0];
            blvl_probe_load_pictures(p, &err);
            uint8_t px[32 * 24 * 4];
            for (int i = 0; i < 3; i++) {
                blvl_probe_result r;
                blvl_probe_look(p, &poses[i], &r);
                (void)blvl_probe_material_name(p, r.tri.material);
                (void)blvl_probe_spawn_kind(p, r.spawn);
                blvl_probe_render(p, &poses[i], 32, 24, BLVL_PROBE_RENDER_COLLIDERS, px, &err);
            }
            blvl_probe_free(p);
        }
        blvl_close(level);
    }
    blvl_free(NULL, file);
    return 0;
}
