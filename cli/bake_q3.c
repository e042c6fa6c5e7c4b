/* blvl bake of a Quake 3 map: a .bsp on disk, a path inside the archives given with --pk3, or a
 * .pk3 given as the map (its only map, or the one --map names). The archives and folders are the
 * search path for shaders and images, later ones first; a .pk3 given as the map comes last, so
 * its own files win (docs/IMPORT-Q3.md, "Command line and recipes"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "bake_q3.h"
#include "blvl/bake.h"
#include "blvl/q3.h"
#include "cli.h"

int q3_parse_thickness(const char *s, float *out) {
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !isfinite(v) || v <= 0 || v > 1024)
        return -1;
    *out = (float)v;
    return 0;
}

int q3_parse_subdivisions(const char *s, int *out) {
    uint32_t v;
    if (cli_parse_u32(s, &v) || v < 1 || v > 64)
        return -1;
    *out = (int)v;
    return 0;
}

static int ends_with_ci(const char *s, const char *tail) {
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcasecmp(s + a - b, tail) == 0;
}

/* --map NAME as a path in the game's tree: "oa_dm1", "oa_dm1.bsp" and "maps/oa_dm1.bsp" name
 * the same map. malloc'd. */
static char *map_path(const char *name) {
    const char *dir = strchr(name, '/') ? "" : "maps/";
    const char *ext = ends_with_ci(name, ".bsp") ? "" : ".bsp";
    size_t n = strlen(dir) + strlen(name) + strlen(ext) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s", dir, name, ext);
    return p;
}

/* The map of a .pk3 given as the map: its only one, or the one --map names. */
static int pick_map(const char *pk3, const char *want, char **out) {
    blvl_q3_fs *fs = NULL;
    blvl_error err;
    char **names = NULL;
    size_t count = 0;
    int rc = CLI_OK;
    *out = NULL;
    if (blvl_q3_fs_new(&fs, NULL, &err) || blvl_q3_fs_add(fs, pk3, &err) ||
        blvl_q3_fs_list(fs, "maps", ".bsp", &names, &count, &err)) {
        rc = cli_fail(pk3, &err);
    } else if (want) {
        char *p = map_path(want);
        if (p && blvl_q3_fs_exists(fs, p))
            *out = p;
        else {
            rc = cli_failf(pk3, BLVL_E_NOT_FOUND, "holds no map %s (it holds %zu maps)",
                           p ? p : want, count);
            free(p);
        }
    } else if (count == 1) {
        *out = strdup(names[0]);
    } else if (count == 0) {
        rc = cli_failf(pk3, BLVL_E_NOT_FOUND, "holds no maps: no maps/*.bsp in the archive");
    } else {
        fprintf(stderr,
                "blvl bake: %s holds %zu maps (%s, %s, ...): name one with --map; blvl bake %s "
                "--list prints them all\n",
                pk3, count, names[0], names[1], pk3);
        rc = CLI_USAGE;
    }
    if (fs)
        blvl_q3_fs_names_free(fs, names, count);
    blvl_q3_fs_free(fs);
    return rc;
}

int cli_bake_q3_list(const char *in, const q3_args *a) {
    struct stat st;
    if (stat(in, &st) != 0)
        return cli_failf(in, BLVL_E_NOT_FOUND, "no such file or folder");
    if (!S_ISDIR(st.st_mode)) { /* a file: only a zip holds maps to list */
        unsigned char magic[4] = {0};
        FILE *f = fopen(in, "rb");
        size_t got = f ? fread(magic, 1, sizeof magic, f) : 0;
        if (f)
            fclose(f);
        if (got != 4 || memcmp(magic, "PK\x03\x04", 4) != 0) {
            fprintf(stderr,
                    "blvl bake: --list lists the maps of a .pk3 (or a folder) given as INPUT; "
                    "%s is none (see blvl bake --help)\n",
                    in);
            return CLI_USAGE;
        }
    }
    blvl_q3_fs *fs = NULL;
    blvl_error err;
    char **names = NULL;
    size_t count = 0;
    int rc = CLI_OK;
    const char *at = in;
    if (blvl_q3_fs_new(&fs, NULL, &err))
        rc = cli_fail(in, &err);
    for (size_t i = 0; rc == CLI_OK && i < a->pk3_count; i++)
        if (blvl_q3_fs_add(fs, at = a->pk3[i], &err))
            rc = cli_fail(at, &err);
    if (rc == CLI_OK && (blvl_q3_fs_add(fs, at = in, &err) ||
                         blvl_q3_fs_list(fs, "maps", ".bsp", &names, &count, &err)))
        rc = cli_fail(at, &err);
    for (size_t i = 0; rc == CLI_OK && i < count; i++)
        printf("%s\n", names[i]);
    if (fs)
        blvl_q3_fs_names_free(fs, names, count);
    blvl_q3_fs_free(fs);
    return rc;
}

static void report_line(const char *map, const struct blvl_q3_bake_report *r) {
    fprintf(stderr,
            "blvl bake: %s: %u missing images, %u bad images, %u unknown shader keywords, %u "
            "brushes (%u dropped), %u patch hulls, %u surfaces drawn, %u triangles (%u from "
            "patches), %u fogs dropped, %u light grid dropped, %u values replaced\n",
            map, r->missing_images, r->bad_images, r->unknown_keywords, r->brushes,
            r->brushes_dropped, r->patch_hulls, r->surfaces_drawn, r->triangles, r->patch_triangles,
            r->fogs_dropped, r->light_grid_dropped, r->values_replaced);
}

int blvl__cli_add_cameras(const char *path, blvl_bake *b); /* bake_recipe.c */

static void progress(void *user, uint64_t done, uint64_t total) {
    (void)user;
    cli_progress("bake", done, total);
}

int cli_bake_q3(const char *in, const uint8_t *data, size_t size, const q3_args *a,
                const q3_out *o) {
    blvl_options opt = {0};
    cli_out_options(&opt);
    opt.threads = o->threads;
    if (cli_progress_enabled())
        opt.progress = progress;
    blvl_error err;
    blvl_q3_fs *fs = NULL;
    blvl_q3_bsp *bsp = NULL;
    blvl_bake *b = NULL;
    uint8_t *inner = NULL;  /* the map's bytes when read from the archives */
    char *name = NULL;      /* the map's path in the game's tree */
    const char *shown = in; /* what refusals of the map name */
    char shown_buf[1024];
    int rc = CLI_OK;
    int is_pk3 = data && size >= 4 && memcmp(data, "PK\x03\x04", 4) == 0;
    if (a->map && !is_pk3) {
        fprintf(stderr,
                "blvl bake: --map picks the map of a .pk3 given as INPUT; %s is none "
                "(see blvl bake --help)\n",
                in);
        return CLI_USAGE;
    }
    if (blvl_q3_fs_new(&fs, &opt, &err)) {
        rc = cli_fail(in, &err);
        goto done;
    }
    for (size_t i = 0; i < a->pk3_count; i++)
        if (blvl_q3_fs_add(fs, a->pk3[i], &err)) {
            rc = cli_fail(a->pk3[i], &err);
            goto done;
        }
    if (is_pk3) {
        if ((rc = pick_map(in, a->map, &name)) != CLI_OK)
            goto done;
        if (blvl_q3_fs_add(fs, in, &err)) {
            rc = cli_fail(in, &err);
            goto done;
        }
    } else if (data) {
        const char *base = strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
        size_t n = strlen(base) + 6;
        if ((name = malloc(n)))
            snprintf(name, n, "maps/%s", base);
    } else {
        name = strdup(in);
    }
    if (!name) {
        rc = cli_failf(in, BLVL_E_NOMEM, "the map's name");
        goto done;
    }
    if (!data || is_pk3) {
        size_t n;
        if (blvl_q3_fs_read(fs, name, &inner, &n, &err)) {
            if (err.code == BLVL_E_NOT_FOUND)
                rc = cli_failf(in, BLVL_E_NOT_FOUND,
                               "no such file, and %s is in none of the %zu archives and folders "
                               "given with --pk3",
                               name, a->pk3_count);
            else
                rc = cli_fail(in, &err);
            goto done;
        }
        data = inner;
        size = n;
        snprintf(shown_buf, sizeof shown_buf, "%s:%s", in, name);
        shown = is_pk3 ? shown_buf : in;
    }
    if (blvl_q3_bsp_read(data, size, &opt, &bsp, &err)) {
        rc = cli_fail(shown, &err);
        goto done;
    }
    blvl_q3_bake_options qo;
    blvl_q3_bake_options_init(&qo);
    struct blvl_q3_bake_report report = {0};
    qo.fs = a->pk3_count || is_pk3 ? fs : NULL; /* none given: materials keep their names */
    qo.map_name = name;
    qo.patch_thickness = a->has_thickness ? a->patch_thickness : 0;
    qo.patch_subdivisions = a->has_subdivisions ? a->patch_subdivisions : 0;
    qo.report = &report;
    if (blvl_bake_new(&b, &opt, &err) || blvl_q3_bake(bsp, &qo, b, &err)) {
        rc = cli_fail(shown, &err);
        goto done;
    }
    if (a->cameras && (rc = blvl__cli_add_cameras(a->cameras, b)) != CLI_OK)
        goto done;
    blvl_bake_stats stats;
    blvl_status st = blvl_bake_write_file(b, o->out, o->symbols, &stats, &err);
    cli_progress_clear();
    if (st != BLVL_OK) {
        rc = cli_fail(o->out, &err);
        goto done;
    }
    report_line(shown, &report);
    cli_reports_off_stdout(o->out);
    /* Images not found leave the level without textures: say how many, and where they come from. */
    if (report.missing_images && !a->pk3_count && !is_pk3)
        fprintf(stderr,
                "blvl bake: %s: %u image%s not found: no archives were given; --pk3 FILE_OR_DIR "
                "gives the game's .pk3 archives and folders that hold them (the level keeps "
                "the names, without textures)\n",
                shown, report.missing_images, report.missing_images == 1 ? "" : "s");
    else if (report.missing_images)
        fprintf(stderr,
                "blvl bake: %s: %u image%s not found in the archives and folders given (--pk3 "
                "FILE_OR_DIR gives more; the level keeps the names, without textures)\n",
                shown, report.missing_images, report.missing_images == 1 ? "" : "s");
    printf("baked %s: %u colliders, %u planes, %u triangles, %u batches, %u materials, "
           "%u entities%s%s\n",
           o->out, stats.colliders, stats.planes, stats.triangles, stats.batches, stats.materials,
           stats.entities, o->symbols ? "; symbols " : "", o->symbols ? o->symbols : "");
done:
    blvl_bake_free(b);
    blvl_q3_bsp_free(bsp, &opt);
    if (inner)
        blvl_free(&opt, inner);
    blvl_q3_fs_free(fs);
    free(name);
    return rc;
}
