/* Every byte a bake allocates goes through the caller's allocator and comes back, with the
 * size it was allocated with: a whole model (every add, an image through stb's PNG encoder)
 * written to memory and to files (real collider shapes included; a material with every extension,
 * the lightmap, light grid and sky), then under failure injection (the
 * allocator says no at the n-th call, for every n up to a run that needs no refusal). Each refused
 * run must fail with nomem (or zstd-frame, when the refused allocation was one zstd itself asked
 * for: the writer reports zstd's failures as zstd's) and leave nothing allocated and no file
 * behind. An importer's bake (the bundled .hmap sample) must keep to the allocator too, and so
 * must the import front door (blvl/import.h) on it and on a recipe it refuses, with every
 * allocation refused in turn. Linked
 * with --wrap=malloc,... (as test_alloc_all is) so a C allocator call from the library's objects
 * while a custom allocator is in use is counted as a bypass. */
#include <dirent.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/hmap.h"
#include "blvl/import.h"
#include "blvl/sections.h"
#include "check.h"
#include "files.h"
#include "support/wrap/counting_alloc.h"

static counter cnt;
static char dir[64];

static blvl_status build(blvl_bake *b) {
    blvl_error err;
    blvl_status st;
    uint32_t i, e, img, mat, door, src;
    blvl_bake_meta m = {"alloc", "a", "d", 0, blvl_Engine_Hmap};
    if ((st = blvl_bake_set_meta(b, &m, &err)))
        return st;
    blvl_bake_pair pairs[2] = {{"k", "v"}, {"k2", "v2"}};
    if ((st = blvl_bake_add_entity(b, "worldspawn", pairs, 2, &e, &err)))
        return st;
    uint8_t px[16 * 16 * 4];
    for (size_t k = 0; k < sizeof px; k++)
        px[k] = (uint8_t)(k * 7 + (k >> 6));
    if ((st = blvl_bake_add_image_rgba8(b, "img", 16, 16, px, true, &img, &err)))
        return st;
    if ((st = blvl_bake_add_image_encoded(b, "raw", 1, 1, blvl_ImageEncoding_Rgba8, 0, px, 4, &i,
                                          &err)))
        return st;
    blvl_bake_material mt;
    blvl_bake_material_init(&mt);
    mt.name = "m";
    mt.texture = img;
    mt.source_name = "M";
    mt.source_texture = "t.png";
    if ((st = blvl_bake_add_material(b, &mt, &mat, &err)))
        return st;
    /* A material with every extension (copied into the bake's arena; Shading, Pbr and the
     * .bsym's unknown keywords written from it). */
    static const char *const kw[2] = {"qer_trans 0.5", "q3map_flare f"}, *sp[1] = {"trans"};
    blvl_bake_tcmod tc[2] = {{.kind = 3, .args = {1, 0, 0, 0}},
                             {.kind = 5, .has_wave = true, .wave = {1, 1, 0.5f, 0, 1}}};
    uint32_t frames[2] = {img, img};
    blvl_bake_anim an = {.tcmods = tc, .tcmod_count = 2, .frames = frames, .frame_count = 2};
    an.fps = 4, an.has_deform = true, an.deform.kind = 4, an.deform.vector.y = 2;
    blvl_bake_material_init(&mt);
    mt.name = "ext";
    mt.source_shader = "scripts/a.shader";
    mt.unknown_keywords = kw, mt.unknown_keyword_count = 2;
    mt.vertex_lit = true, mt.anim = &an;
    mt.surface_params = sp, mt.surface_param_count = 1;
    mt.emits = true, mt.emit_color = (blvl_Vec3){1, 1, 1}, mt.emit_intensity = 100;
    if ((st = blvl_bake_add_material(b, &mt, &i, &err)))
        return st;
    /* Baked light: two 4x4 lightmap pages, a 2x1x2 light grid, a sky of 2x2 faces. */
    if ((st = blvl_bake_set_lightmap(b, 4, 4, 2, px, 1, 2, &err)) ||
        (st = blvl_bake_set_sky(b, "sky", 2, px, &err)))
        return st;
    blvl_Vec3 dirs[4] = {{0, 1, 0}, {1, 0, 0}, {0, 0, 0}, {0, 0, -1}};
    blvl_bake_light_grid g = {.cell_size = {64, 128, 64}, .width = 2, .height = 1, .layers = 2};
    g.ambient = px, g.directional = px + 12, g.direction = dirs, g.gain = 2, g.encoding = 1;
    if ((st = blvl_bake_set_light_grid(b, &g, &err)))
        return st;
    blvl_bake_source so = {blvl_SourceKind_Brush, 1, 0, 0, e, mat};
    if ((st = blvl_bake_add_source(b, &so, &src, &err)))
        return st;
    blvl_bake_vertex v[3] = {{{0, 0, 0}, {0, 1, 0}, {0, 0}, {0, 0}, {255, 255, 255, 255}},
                             {{1, 0, 0}, {0, 1, 0}, {1, 0}, {0, 0}, {255, 255, 255, 255}},
                             {{1, 0, -1}, {0, 1, 0}, {1, 1}, {0, 0}, {255, 255, 255, 255}}};
    uint32_t idx[3] = {0, 1, 2};
    blvl_bake_surface s;
    blvl_bake_surface_init(&s);
    s.vertices = v, s.vertex_count = 3, s.indices = idx, s.index_count = 3, s.material = mat;
    s.source = src;
    for (int k = 0; k < 20; k++) /* enough to grow the arrays a few times */
        if ((st = blvl_bake_add_surface(b, &s, &err)))
            return st;
    blvl_bake_door d;
    blvl_bake_door_init(&d);
    d.name = "door";
    d.team = "red";
    if ((st = blvl_bake_add_door(b, &d, &door, &err)))
        return st;
    blvl_bake_collider c;
    blvl_bake_collider_init(&c);
    c.source_name = "door";
    c.door = door;
    c.symbol = src;
    if ((st = blvl_bake_add_box(b, &c, (blvl_Vec3){0, 0, 0}, (blvl_Vec3){1, 1, 1}, &i, &err)))
        return st;
    /* The real shapes (src/bake/shapes.h): a wedge brush with bevels, a hull, a triangle. */
    const float r = 0.70710678f;
    blvl_Plane wedge[5] = {
        {{r, r, 0}, 64 * r}, {{-1, 0, 0}, 0}, {{0, -1, 0}, 0}, {{0, 0, -1}, 0}, {{0, 0, 1}, 64}};
    if ((st = blvl_bake_add_brush(b, &c, wedge, 5, &i, &err)))
        return st;
    blvl_Vec3 cube[8];
    for (int k = 0; k < 8; k++)
        cube[k] = (blvl_Vec3){k & 1 ? 8.0f : 0.0f, k & 2 ? 8.0f : 0.0f, k & 4 ? 8.0f : 0.0f};
    if ((st = blvl_bake_add_hull(b, &c, cube, 8, &i, &err)))
        return st;
    blvl_Vec3 tri[3] = {{0, 0, 0}, {16, 0, -16}, {0, 0, -16}};
    if ((st = blvl_bake_add_triangle(b, &c, tri, 4, &i, &err)))
        return st;
    blvl_Plane pl[1] = {{{0, 1, 0}, 1}};
    blvl_bake_trigger t = {0, {0, 0, 0}, {1, 1, 1}, pl, 1, {0, 1, 0}, BLVL_BAKE_NONE, ~0u};
    if ((st = blvl_bake_add_trigger(b, &t, &err)))
        return st;
    if ((st = blvl_bake_add_teleport_dest(b, "dest", (blvl_Vec3){0, 0, 0}, 0, &i, &err)))
        return st;
    if ((st = blvl_bake_add_spawn(b, (blvl_Vec3){0, 0, 0}, 0, "info_player_start", "blue", ~0u,
                                  &err)))
        return st;
    blvl_bake_hurt h = {"hurt", 0, {0, 0, 0}, {1, 1, 1}, pl, 1, 5, 1};
    if ((st = blvl_bake_add_hurt(b, &h, &err)))
        return st;
    if ((st = blvl_bake_add_site(b, "A", 0, (blvl_Vec3){0, 0, 0}, (blvl_Vec3){1, 1, 1}, &err)))
        return st;
    if ((st = blvl_bake_add_camera(b, "cam", 0, (blvl_Vec3){0, 0, 0}, 0, 0, 0, 0, &err)))
        return st;
    blvl_bake_set_sun(b, (blvl_Vec3){0, 1, 0}, (blvl_Vec3){1, 1, 1}, 100);
    blvl_bake_light l = {0};
    if ((st = blvl_bake_add_light(b, &l, &err)))
        return st;
    return blvl_bake_add_fog_volume(b, (blvl_Vec3){0, 0, 0}, (blvl_Vec3){1, 1, 1},
                                    (blvl_Vec3){1, 1, 1}, 10, &i, &err);
}

/* One whole run; BLVL_OK or the first refusal. Frees everything either way. */
static blvl_status run(const blvl_options *opt) {
    blvl_error err;
    blvl_bake *b = NULL;
    blvl_status st = blvl_bake_new(&b, opt, &err);
    if (st != BLVL_OK)
        return st;
    st = build(b);
    void *lv = NULL, *sy = NULL;
    size_t ls = 0, ss = 0;
    if (st == BLVL_OK)
        st = blvl_bake_write_memory(b, &lv, &ls, &sy, &ss, NULL, &err);
    blvl_free(opt, lv);
    blvl_free(opt, sy);
    char lp[128], sp[128];
    snprintf(lp, sizeof lp, "%s/a.blvl", dir);
    snprintf(sp, sizeof sp, "%s/a.bsym", dir);
    if (st == BLVL_OK)
        st = blvl_bake_write_file(b, lp, sp, NULL, &err);
    blvl_bake_free(b);
    if (st == BLVL_OK) {
        unlink(lp);
        unlink(sp);
    }
    return st;
}

static int files_left(void) {
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            n++;
    if (d)
        closedir(d);
    return n;
}

/* An importer's bake (the bundled .hmap sample: brushes, a convex crate, a non-convex step)
 * through the caller's allocator: no C allocator call while it runs, every byte back. */
static void hmap_bake(const blvl_options *opt) {
    const char *src = getenv("BLVL_SRC") ? getenv("BLVL_SRC") : ".";
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/hmap/sample.hmap", src);
    size_t n = 0;
    uint8_t *data = test_slurp(path, &n);
    CHECK(data != NULL);
    if (!data)
        return;
    blvl_error err;
    blvl_hmap *map = NULL;
    blvl_bake *b = NULL;
    atomic_store(&bypass, 0);
    atomic_store(&armed, 1);
    CHECK_EQ_INT(blvl_hmap_read(&map, data, n, opt, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_bake_new(&b, opt, &err), BLVL_OK);
    if (map && b)
        CHECK_EQ_INT(blvl_hmap_bake(map, b, &err), BLVL_OK);
    blvl_bake_free(b);
    blvl_hmap_free(map);
    atomic_store(&armed, 0);
    free(data);
    if (atomic_load(&bypass))
        fprintf(stderr, "hmap bake: %ld C allocator calls bypassed the allocator\n",
                atomic_load(&bypass));
    CHECK_EQ_INT(atomic_load(&bypass), 0);
    CHECK_EQ_INT(atomic_load(&cnt.live), 0);
    CHECK_EQ_INT(atomic_load(&cnt.wrong_size), 0);
    atomic_store(&bypass, 0); /* reported once, here */
}

/* The front door (blvl_import_bake_memory) on the sample and on a recipe whose archives are
 * missing: no C allocator call, every byte back, under failure injection too (a refused run
 * fails, leaves nothing allocated and no file). */
static blvl_status import_once(const blvl_options *base, const uint8_t *data, size_t n) {
    blvl_import_options io = {0};
    io.base = *base;
    char out[128], rpath[128];
    snprintf(out, sizeof out, "%s/import.blvl", dir);
    snprintf(rpath, sizeof rpath, "%s/r.recipe", dir);
    blvl_import_report rep;
    blvl_error err;
    blvl_status st = blvl_import_bake_memory(&rep, "sample.hmap", data, n, out, NULL, &io, &err);
    unlink(out);
    static const char recipe[] = "blvl-recipe 1\nmap maps/none.bsp\npk3 nothere\n"
                                 "options --patch-thickness 8 --map none\n";
    blvl_status st2 =
        blvl_import_bake_memory(&rep, rpath, recipe, sizeof recipe - 1, out, NULL, &io, &err);
    if (st2 == BLVL_OK) /* a missing archive is always refused */
        return BLVL_E_ARGUMENT;
    if (st == BLVL_OK && st2 == BLVL_E_NOMEM)
        st = st2;
    return st;
}

static void import_bake(const blvl_options *opt) {
    const char *src = getenv("BLVL_SRC") ? getenv("BLVL_SRC") : ".";
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/hmap/sample.hmap", src);
    size_t n = 0;
    uint8_t *data = test_slurp(path, &n);
    CHECK(data != NULL);
    if (!data)
        return;
    atomic_store(&cnt.calls, 0);
    cnt.fail_at = 0;
    atomic_store(&bypass, 0);
    atomic_store(&armed, 1);
    CHECK_EQ_INT(import_once(opt, data, n), BLVL_OK);
    atomic_store(&armed, 0);
    long total = atomic_load(&cnt.calls);
    CHECK(total > 50);
    CHECK_EQ_INT(atomic_load(&bypass), 0);
    CHECK_EQ_INT(atomic_load(&cnt.live), 0);
    /* Some allocations are best effort (the recipe's NAME.cameras probe): a run may still
     * succeed, but most must be refused, and none may leave anything behind. */
    int bad = 0, refused = 0;
    for (long k = 1; k <= total; k++) {
        atomic_store(&cnt.calls, 0);
        cnt.fail_at = k;
        atomic_store(&armed, 1);
        blvl_status st = import_once(opt, data, n);
        atomic_store(&armed, 0);
        refused += st != BLVL_OK;
        if (atomic_load(&cnt.live) || atomic_load(&cnt.wrong_size) || files_left()) {
            bad++;
            fprintf(stderr, "import fail_at %ld: status %s, live %ld, files %d\n", k,
                    blvl_status_name(st), atomic_load(&cnt.live), files_left());
        }
    }
    CHECK(refused > total / 2);
    cnt.fail_at = 0;
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(atomic_load(&bypass), 0);
    atomic_store(&bypass, 0);
    free(data);
}

int main(void) {
    snprintf(dir, sizeof dir, "%s/blvl_bake_alloc.XXXXXX",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    CHECK(mkdtemp(dir) != NULL);
    blvl_options opt = {0};
    opt.allocator = (blvl_allocator){c_alloc, c_free, &cnt};
    opt.threads = 1;

    atomic_store(&armed, 1);
    CHECK(run(&opt) == BLVL_OK);
    atomic_store(&armed, 0);
    long total = atomic_load(&cnt.calls);
    CHECK(total > 50);
    CHECK_EQ_INT(atomic_load(&cnt.live), 0);
    CHECK_EQ_INT(atomic_load(&cnt.bytes), 0);
    CHECK_EQ_INT(atomic_load(&cnt.wrong_size), 0);
    CHECK_EQ_INT(atomic_load(&bypass), 0);

    /* The same with no allocator set: the wrap must see the library's calls (so a bypass
     * would have been counted above). */
    atomic_store(&armed, 1);
    CHECK(run(NULL) == BLVL_OK);
    atomic_store(&armed, 0);
    CHECK(atomic_load(&bypass) > 0);
    atomic_store(&bypass, 0);

    hmap_bake(&opt);
    import_bake(&opt);

    /* Refuse the n-th allocation, for every n. */
    int refused = 0, bad = 0;
    for (long n = 1; n <= total; n++) {
        atomic_store(&cnt.calls, 0);
        cnt.fail_at = n;
        atomic_store(&armed, 1);
        blvl_status st = run(&opt);
        atomic_store(&armed, 0);
        if (st == BLVL_E_NOMEM || st == BLVL_E_ZSTD)
            refused++;
        else if (st != BLVL_OK) {
            bad++;
            fprintf(stderr, "fail_at %ld: status %s\n", n, blvl_status_name(st));
        }
        if (atomic_load(&cnt.live) || atomic_load(&cnt.wrong_size) || files_left()) {
            bad++;
            fprintf(stderr, "fail_at %ld: live %ld, wrong sizes %ld, files %d\n", n,
                    atomic_load(&cnt.live), atomic_load(&cnt.wrong_size), files_left());
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(refused > total / 2);
    CHECK_EQ_INT(atomic_load(&bypass), 0);
    printf("test_bake_alloc: %ld allocations per run, %d runs refused\n", total, refused);
    rmdir(dir);
    return check_report("test_bake_alloc");
}
