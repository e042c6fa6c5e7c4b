/* The tools library's one shape for entry points (docs/API.md, issue 29 §4), checked two ways:
 *   - at compile time, the type of every entry point this shape moved: made outputs first
 *     (void **data, size_t *size for buffers), per-feature options that embed blvl_options as
 *     their first member, frees that take only the object;
 *   - at run time, that each object made with a counting allocator gives every byte back when
 *     its free is handed the object alone, that the Quake 3 report is an out-parameter filled
 *     also on a refusal, and that a zeroed feature options struct is the defaults. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blvl/bake.h"
#include "blvl/diag.h"
#include "blvl/export.h"
#include "blvl/fb_json.h"
#include "blvl/hmap.h"
#include "blvl/image.h"
#include "blvl/q3.h"
#include "blvl/riot.h"
#include "blvl/subspace.h"
#include "check.h"
#include "support/counting_alloc.h"
#include "support/riot_gen.h"
#include "support/subspace_gen.h"

/* SHAPE(f, type): f has exactly the function type `type`. */
#define SHAPE(f, type) _Static_assert(_Generic(&f, type : 1, default : 0), #f " has the shape")

typedef const blvl_options *O;
typedef blvl_error *E;
SHAPE(blvl_hmap_read, blvl_status (*)(blvl_hmap **, const void *, size_t, O, E));
SHAPE(blvl_hmap_write, blvl_status (*)(void **, size_t *, const blvl_hmap *, O, E));
SHAPE(blvl_hmap_free, void (*)(blvl_hmap *));
SHAPE(blvl_riot_srsc_read, blvl_status (*)(blvl_riot_srsc **, const void *, size_t, O, E));
SHAPE(blvl_riot_srsc_write, blvl_status (*)(void **, size_t *, const blvl_riot_srsc *, O, E));
SHAPE(blvl_riot_srsc_free, void (*)(blvl_riot_srsc *));
SHAPE(blvl_riot_read, blvl_status (*)(blvl_riot_level **, const void *, size_t, O, E));
SHAPE(blvl_riot_parse, blvl_status (*)(blvl_riot_level **, const blvl_riot_srsc *, O, E));
SHAPE(blvl_riot_write, blvl_status (*)(void **, size_t *, const blvl_riot_level *, O, E));
SHAPE(blvl_riot_free, void (*)(blvl_riot_level *));
SHAPE(blvl_subspace_read, blvl_status (*)(blvl_subspace **, const void *, size_t, O, E));
SHAPE(blvl_subspace_write, blvl_status (*)(void **, size_t *, const blvl_subspace *, O, E));
SHAPE(blvl_subspace_free, void (*)(blvl_subspace *));
SHAPE(blvl_subspace_bake,
      blvl_status (*)(const blvl_subspace *, blvl_bake *, const blvl_subspace_options *, E));
SHAPE(blvl_q3_bsp_read, blvl_status (*)(blvl_q3_bsp **, const void *, size_t, O, E));
SHAPE(blvl_q3_bsp_free, void (*)(blvl_q3_bsp *));
SHAPE(blvl_q3_entities_parse, blvl_status (*)(blvl_q3_entities *, const char *, size_t, O, E));
SHAPE(blvl_q3_entities_free, void (*)(blvl_q3_entities *));
SHAPE(blvl_q3_fs_read, blvl_status (*)(void **, size_t *, const blvl_q3_fs *, const char *, E));
SHAPE(blvl_q3_fs_list,
      blvl_status (*)(char ***, size_t *, const blvl_q3_fs *, const char *, const char *, E));
SHAPE(blvl_q3_bake, blvl_status (*)(const blvl_q3_bsp *, blvl_bake *, blvl_q3_bake_report *,
                                    const blvl_q3_bake_options *, E));
SHAPE(blvl_bake_brush_polygons,
      blvl_status (*)(blvl_bake_polygons *, const blvl_Plane *, uint32_t, O, E));
SHAPE(blvl_bake_polygons_free, void (*)(blvl_bake_polygons *));
SHAPE(blvl_image_decode,
      blvl_status (*)(blvl_image_rgba *, const blvl_image_desc *, uint32_t, O, E));
SHAPE(blvl_image_rgba_free, void (*)(blvl_image_rgba *));
SHAPE(blvl_image_write_png,
      blvl_status (*)(void **, size_t *, const uint8_t *, uint32_t, uint32_t, O, E));
SHAPE(blvl_fb_from_json,
      blvl_status (*)(void **, size_t *, const char *, size_t, const blvl_fb_type *, O, E));
SHAPE(blvl_fb_to_json, blvl_status (*)(char **, size_t *, const void *, size_t,
                                       const blvl_fb_type *, unsigned, O, E));
SHAPE(blvl_export_glb,
      blvl_status (*)(void **, size_t *, blvl_level *, const blvl_export_options *, E));
SHAPE(blvl_export_gltf, blvl_status (*)(char **, size_t *, void **, size_t *, blvl_level *,
                                        const char *, const blvl_export_options *, E));
SHAPE(blvl_diag_run, blvl_status (*)(blvl_diag_counts *, blvl_level *, blvl_diag_fn, void *,
                                     const blvl_diag_options *, E));
SHAPE(blvl_diag_collect,
      blvl_status (*)(blvl_diag_findings **, blvl_level *, const blvl_diag_options *, E));

/* Every feature options struct starts with its blvl_options (the struct, not a pointer). */
#define BASE_IS_OPTIONS(T)                                                                         \
    _Static_assert(_Generic(((T *)0)->base, blvl_options : 1, default : 0), #T " embeds base")
BASE_IS_OPTIONS(blvl_export_options);
BASE_IS_OPTIONS(blvl_diag_options);
BASE_IS_OPTIONS(blvl_q3_bake_options);
BASE_IS_OPTIONS(blvl_subspace_options);
_Static_assert(offsetof(blvl_export_options, base) == 0, "export base first");
_Static_assert(offsetof(blvl_diag_options, base) == 0, "diag base first");
_Static_assert(offsetof(blvl_q3_bake_options, base) == 0, "q3 base first");
_Static_assert(offsetof(blvl_subspace_options, base) == 0, "subspace base first");

/* c's allocations all given back, each with its size. */
static void all_back(const test_counter *c, const char *what) {
    if (c->live != 0 || c->bad_free != 0)
        fprintf(stderr, "%s: %ld blocks live, %d bad frees\n", what, c->live, c->bad_free);
    CHECK(c->calls > 0 && c->live == 0 && c->bad_free == 0);
}

static void subspace_and_riot(void) {
    blvl_error err;
    test_counter c;
    blvl_options opt = test_counting(&c);
    void *bytes = NULL;
    size_t size = 0;
    CHECK_EQ_INT(ssg_write(SSG_BARE, NULL, &bytes, &size), BLVL_OK);
    blvl_subspace *map = NULL;
    CHECK_EQ_INT(blvl_subspace_read(&map, bytes, size, &opt, &err), BLVL_OK);
    blvl_subspace_free(map); /* the map alone: it kept its allocator */
    all_back(&c, "subspace");
    blvl_free(NULL, bytes);

    blvl_riot_level gen;
    riot_gen_opts ro = {.seed = 7, .objects = 2};
    CHECK_EQ_INT(riot_gen_build(&ro, &gen), 0);
    CHECK_EQ_INT(blvl_riot_write(&bytes, &size, &gen, NULL, &err), BLVL_OK);
    riot_gen_free(&gen);
    opt = test_counting(&c);
    blvl_riot_srsc *srsc = NULL;
    CHECK_EQ_INT(blvl_riot_srsc_read(&srsc, bytes, size, &opt, &err), BLVL_OK);
    blvl_riot_level *level = NULL;
    CHECK_EQ_INT(blvl_riot_parse(&level, srsc, &opt, &err), BLVL_OK);
    blvl_riot_srsc_free(srsc);
    blvl_riot_free(level);
    all_back(&c, "riot");
    blvl_free(NULL, bytes);
}

static void q3(void) {
    blvl_error err;
    test_counter c;
    blvl_options opt = test_counting(&c);
    static const char text[] =
        "{\n\"classname\" \"worldspawn\"\n}\n{\n\"classname\" \"light\"\n}\n";
    blvl_q3_entities ents;
    CHECK_EQ_INT(blvl_q3_entities_parse(&ents, text, sizeof text - 1, &opt, &err), BLVL_OK);
    CHECK_EQ_INT(ents.count, 2);
    blvl_q3_entities_free(&ents);
    all_back(&c, "q3 entities");

    /* A folder's maps: one buffer, freed with blvl_free and the search path's options. */
    char dir[] = "/tmp/blvl_tools_shape_XXXXXX", path[256];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/maps", dir);
    CHECK(mkdir(path, 0700) == 0);
    const char *files[2] = {"b.bsp", "a.bsp"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/maps/%s", dir, files[i]);
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL);
        if (f)
            fclose(f);
    }
    opt = test_counting(&c);
    blvl_q3_fs *fs = NULL;
    CHECK_EQ_INT(blvl_q3_fs_new(&fs, &opt, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_q3_fs_add(fs, dir, &err), BLVL_OK);
    char **names = NULL;
    size_t count = 0;
    CHECK_EQ_INT(blvl_q3_fs_list(&names, &count, fs, "maps", ".bsp", &err), BLVL_OK);
    CHECK(count == 2 && strcmp(names[0], "maps/a.bsp") == 0 && strcmp(names[1], "maps/b.bsp") == 0);
    CHECK(blvl_q3_fs_options(fs)->allocator.user == opt.allocator.user);
    blvl_free(blvl_q3_fs_options(fs), names);
    blvl_q3_fs_free(fs);
    all_back(&c, "q3 fs list");
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/maps/%s", dir, files[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/maps", dir);
    rmdir(path);
    rmdir(dir);

    /* The report is the caller's out-parameter, set also when the call is refused. */
    blvl_q3_bake_report rep;
    memset(&rep, 0xAB, sizeof rep);
    CHECK_EQ_INT(blvl_q3_bake(NULL, NULL, &rep, NULL, &err), BLVL_E_ARGUMENT);
    CHECK(rep.missing_images == 0 && rep.values_replaced == 0 && rep.triangles == 0);
}

static void bake_and_image(void) {
    blvl_error err;
    test_counter c;
    blvl_options opt = test_counting(&c);
    const blvl_Plane cube[6] = {{{1, 0, 0}, 1},  {{-1, 0, 0}, 1}, {{0, 1, 0}, 1},
                                {{0, -1, 0}, 1}, {{0, 0, 1}, 1},  {{0, 0, -1}, 1}};
    blvl_bake_polygons p;
    CHECK_EQ_INT(blvl_bake_brush_polygons(&p, cube, 6, &opt, &err), BLVL_OK);
    CHECK(p.count == 6 && p.point_count == 24);
    blvl_bake_polygons_free(&p);
    all_back(&c, "bake polygons");

    opt = test_counting(&c);
    const uint8_t texel[4] = {1, 2, 3, 4};
    blvl_image_desc d = {1, 1, BLVL_IMAGE_RGBA8, 1, 1, 0, texel, sizeof texel};
    blvl_image_rgba px;
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, &opt, &err), BLVL_OK);
    CHECK(px.pixels && memcmp(px.pixels, texel, 4) == 0);
    blvl_image_rgba_free(&px);
    all_back(&c, "image");

    opt = test_counting(&c);
    void *png = NULL;
    size_t png_size = 0;
    CHECK_EQ_INT(blvl_image_write_png(&png, &png_size, texel, 1, 1, &opt, &err), BLVL_OK);
    CHECK(png_size > 8 && memcmp(png, "\x89PNG", 4) == 0);
    blvl_free(&opt, png);
    all_back(&c, "png");
}

int main(void) {
    subspace_and_riot();
    q3();
    bake_and_image();
    return check_report("test_tools_shape");
}
