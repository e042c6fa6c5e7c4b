/* The materials step on the real OpenArena data (openarena-081-maps, -textures, openarena-data
 * under /usr/share/games/openarena/baseoa; skips with 77 when absent): for every map of
 * pak1-maps.pk3 (two at a time) the step runs alone and its missing-image count must equal the
 * names this test finds missing by its own reading of the rule (each drawn shader's base image or
 * implicit image, animMap frames, sky faces; a name no .tga/.jpg/.jpeg/.png answers to). Prints the
 * maps with zero missing images and, for the others, the names missing from every archive (the
 * real-map stage's expected-missing list). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blvl/q3_shader.h"
#include "check.h"
#include "common/alloc.h"
#include "import/q3/bake_internal.h"
#include "import/q3/image_internal.h"

#define GAME "/usr/share/games/openarena/baseoa"

typedef struct names {
    char item[512][128];
    int count;
} names;

static void add_missing(const blvl_q3_fs *fs, names *n, const char *name) {
    char found[160], stem[128];
    if (!name || !*name || blvl__import_q3_img_find(fs, name, found, sizeof found))
        return;
    snprintf(stem, sizeof stem, "%s", name);
    for (char *p = stem; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
    char *dot = strrchr(stem, '.');
    if (dot && (!strcmp(dot, ".tga") || !strcmp(dot, ".jpg") || !strcmp(dot, ".jpeg") ||
                !strcmp(dot, ".png")))
        *dot = 0;
    for (int i = 0; i < n->count; i++)
        if (!strcmp(n->item[i], stem))
            return;
    if (n->count < 512)
        snprintf(n->item[n->count++], sizeof n->item[0], "%s", stem);
}

static bool param(const blvl_q3_shader *sh, const char *p) {
    for (uint32_t i = 0; sh && i < sh->surface_param_count; i++)
        if (!strcasecmp(sh->surface_params[i], p))
            return true;
    return false;
}

/* The test's own reading of which images a map's materials look up. */
static void expected(const blvl_q3_fs *fs, const blvl_q3_shaders *set, const blvl_q3_bsp *bsp,
                     names *n) {
    bool sky_done = false;
    for (uint32_t i = 0; i < bsp->shader_count; i++) {
        const blvl_q3_shader_ref *r = &bsp->shaders[i];
        bool drawn = false; /* by a planar, triangle-soup or patch surface */
        for (uint32_t k = 0; k < bsp->surface_count && !drawn; k++)
            drawn = bsp->surfaces[k].shader == (int32_t)i && bsp->surfaces[k].type >= 1 &&
                    bsp->surfaces[k].type <= 3;
        if (!drawn)
            continue;
        const blvl_q3_shader *sh = blvl_q3_shaders_find(set, r->name);
        if ((r->surface_flags & (BLVL_Q3_SURF_NODRAW | BLVL_Q3_SURF_SKIP | BLVL_Q3_SURF_HINT)) ||
            param(sh, "nodraw") || param(sh, "skip") || param(sh, "hint"))
            continue;
        if (!sh) {
            add_missing(fs, n, r->name);
            continue;
        }
        const blvl_q3_stage *base = NULL;
        for (uint32_t s = 0; s < sh->stage_count && !base; s++)
            if ((sh->stages[s].map_kind == BLVL_Q3_MAP_IMAGE ||
                 sh->stages[s].map_kind == BLVL_Q3_MAP_ANIM) &&
                sh->stages[s].tc_gen != BLVL_Q3_TCGEN_ENVIRONMENT)
                base = &sh->stages[s];
        for (uint32_t s = 0; s < sh->stage_count && !base; s++)
            if (sh->stages[s].map_kind == BLVL_Q3_MAP_IMAGE ||
                sh->stages[s].map_kind == BLVL_Q3_MAP_ANIM)
                base = &sh->stages[s];
        if (base && base->map_kind == BLVL_Q3_MAP_IMAGE)
            add_missing(fs, n, base->map);
        if (base && base->map_kind == BLVL_Q3_MAP_ANIM)
            for (uint32_t f = 0; f < base->frame_count; f++)
                if (f == 0 || base->frame_count > 1)
                    add_missing(fs, n, base->frames[f]);
        bool sky = (r->surface_flags & BLVL_Q3_SURF_SKY) || param(sh, "sky") || sh->has_sky;
        if (sky && sh->has_sky && sh->sky_farbox && !sky_done) {
            sky_done = true;
            static const char *const faces[] = {"rt", "lf", "up", "dn", "ft", "bk"};
            for (int f = 0; f < 6; f++) {
                char face[160];
                snprintf(face, sizeof face, "%s_%s.tga", sh->sky_farbox, faces[f]);
                add_missing(fs, n, face);
            }
        }
    }
}

/* One map: 0 when the step and this test agree; writes the map's line to `out`. */
static int one_map(const blvl_q3_fs *fs, const blvl_q3_shaders *set, const char *map, FILE *out,
                   int *clean) {
    blvl_error err;
    void *data = NULL;
    size_t size = 0;
    blvl_q3_bsp *bsp = NULL;
    if (blvl_q3_fs_read(&data, &size, fs, map, &err) ||
        blvl_q3_bsp_read(&bsp, data, size, NULL, &err)) {
        fprintf(stderr, "%s: %s\n", map, err.message);
        blvl_free(NULL, data);
        return 1;
    }
    int bad = 0;
    blvl_bake *b = NULL;
    bad |= blvl_bake_new(&b, NULL, &err) != BLVL_OK;
    blvl_q3_bake_options o = {0};
    o.fs = fs;
    blvl_q3_bake_report report = {0};
    q3_ctx c = {
        .bsp = bsp, .o = &o, .report = &report, .b = b, .opt = blvl_bake_options(b), .err = &err};
    c.shader = calloc(bsp->shader_count + 1, sizeof *c.shader);
    for (uint32_t i = 0; i < bsp->shader_count; i++)
        c.shader[i].material = c.shader[i].source_material = BLVL_BAKE_NONE;
    if (blvl__import_q3_mat_materials(&c) != BLVL_OK) {
        fprintf(stderr, "%s: %s\n", map, err.message);
        bad = 1;
    }
    for (uint32_t i = 0; i < bsp->shader_count; i++)
        bad |= c.shader[i].material == BLVL_BAKE_NONE;
    static names n;
    n.count = 0;
    expected(fs, set, bsp, &n);
    if ((int)report.missing_images != n.count) {
        fprintf(stderr, "%s: the step counts %u missing, this test %d\n", map,
                report.missing_images, n.count);
        bad = 1;
    }
    if (report.bad_images) {
        fprintf(stderr, "%s: %u bad images\n", map, report.bad_images);
        bad = 1;
    }
    *clean = !report.missing_images;
    fprintf(out, "%s:", map);
    for (int i = 0; i < n.count; i++)
        fprintf(out, " %s", n.item[i]);
    fprintf(out, "\n");
    free(c.shader);
    blvl_bake_free(b);
    blvl_q3_bsp_free(bsp);
    blvl_free(NULL, data);
    return bad;
}

int main(void) {
    if (access(GAME "/pak1-maps.pk3", R_OK) || access(GAME "/pak0.pk3", R_OK)) {
        printf("test_q3_materials_real: SKIP (openarena-081-maps / openarena-data absent)\n");
        return 77;
    }
    blvl_error err;
    blvl_q3_fs *fs = NULL, *maps_fs = NULL;
    blvl_q3_shaders *set = NULL;
    CHECK_EQ_INT(blvl_q3_fs_new(&fs, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_q3_fs_add(fs, GAME, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_q3_fs_new(&maps_fs, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_q3_fs_add(maps_fs, GAME "/pak1-maps.pk3", &err), BLVL_OK);
    CHECK_EQ_INT(blvl_q3_shaders_new(&set, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_q3_shaders_load(set, fs, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_q3_shaders_refused(set), 0);
    printf("shaders: %u names from the scripts\n", blvl_q3_shaders_count(set));
    char **maps = NULL;
    size_t count = 0;
    CHECK_EQ_INT(blvl_q3_fs_list(&maps, &count, maps_fs, "maps", ".bsp", &err), BLVL_OK);
    CHECK_EQ_INT(count, 50);
    /* Under the sanitizers (BLVL_SANITIZED=1, several times slower) every tenth map only. */
    const char *san = getenv("BLVL_SANITIZED");
    size_t step = san && !strcmp(san, "1") ? 10 : 1;
    /* Two workers (the CI machine's cores), each every other map, results in files. */
    char dir[] = "/tmp/blvl_q3real_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    pid_t pid[2];
    for (int w = 0; w < 2; w++) {
        pid[w] = fork();
        if (pid[w] == 0) {
            /* A search path of its own: the parent's archives share their file offsets. */
            blvl_q3_fs *own = NULL;
            blvl_q3_shaders *own_set = NULL;
            int bad = blvl_q3_fs_new(&own, NULL, &err) || blvl_q3_fs_add(own, GAME, &err) ||
                      blvl_q3_shaders_new(&own_set, NULL, &err) ||
                      blvl_q3_shaders_load(own_set, own, &err);
            for (size_t m = (size_t)w * step; m < count; m += 2 * step) {
                char path[600];
                snprintf(path, sizeof path, "%s/%03zu", dir, m);
                FILE *f = fopen(path, "w");
                int clean = 0;
                bad |= !f || one_map(own, own_set, maps[m], f ? f : stderr, &clean);
                if (f) {
                    fprintf(f, "%d\n", clean);
                    fclose(f);
                }
            }
            _exit(bad);
        }
    }
    for (int w = 0; w < 2; w++) {
        int status = 0;
        CHECK(pid[w] > 0 && waitpid(pid[w], &status, 0) == pid[w]);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    int clean = 0;
    size_t done = 0;
    for (size_t m = 0; m < count; m += step, done++) {
        char path[600], line[65536];
        snprintf(path, sizeof path, "%s/%03zu", dir, m);
        FILE *f = fopen(path, "r");
        CHECK(f != NULL);
        if (!f)
            continue;
        int ok = 0;
        if (fgets(line, sizeof line, f) && fscanf(f, "%d", &ok) == 1) {
            clean += ok;
            if (!ok)
                fputs(line, stdout);
        } else {
            CHECK(0);
        }
        fclose(f);
        remove(path);
    }
    rmdir(dir);
    printf("%d of %zu maps of pak1-maps.pk3 have zero missing images\n", clean, done);
    blvl_free(blvl_q3_fs_options(maps_fs), maps);
    blvl_q3_shaders_free(set);
    blvl_q3_fs_free(maps_fs);
    blvl_q3_fs_free(fs);
    return check_report("test_q3_materials_real");
}
