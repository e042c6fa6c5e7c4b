/* A Quake 3 map through the front door: a .bsp on disk, a path inside the archives, or a .pk3
 * given as the map (its only map, or the one options.map names). The archives and folders are
 * the search path for shaders and images, later ones first; a .pk3 given as the map comes last,
 * so its own files win (docs/IMPORT-Q3.md, "Command line and recipes"). */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "blvl/q3.h"
#include "common/alloc.h"
#include "common/error.h"
#include "import/front/front.h"

static int ends_with_ci(const char *s, const char *tail) {
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcasecmp(s + a - b, tail) == 0;
}

/* options.map as a path in the game's tree: "oa_dm1", "oa_dm1.bsp" and "maps/oa_dm1.bsp" name
 * the same map. blvl__alloc_sized. */
static char *map_path(const blvl_allocator *al, const char *name) {
    const char *dir = strchr(name, '/') ? "" : "maps/";
    const char *ext = ends_with_ci(name, ".bsp") ? "" : ".bsp";
    size_t n = strlen(dir) + strlen(name) + strlen(ext) + 1;
    char *p = blvl__alloc_sized(al, n);
    if (p)
        snprintf(p, n, "%s%s%s", dir, name, ext);
    return p;
}

/* The map of a .pk3 given as the map: its only one, or the one `want` names. */
static blvl_status pick_map(blvl_import_report *report, const blvl_options *opt, const char *pk3,
                            const char *want, char **out, blvl_error *err) {
    const blvl_allocator *al = &opt->allocator;
    blvl_q3_fs *fs = NULL;
    char **names = NULL;
    size_t count = 0;
    blvl_status st;
    *out = NULL;
    blvl__import_where(report, pk3);
    if ((st = blvl_q3_fs_new(&fs, opt, err)) || (st = blvl_q3_fs_add(fs, pk3, err)) ||
        (st = blvl_q3_fs_list(&names, &count, fs, "maps", ".bsp", err))) {
        /* refused by the archive's reader */
    } else if (want) {
        char *p = map_path(al, want);
        if (p && blvl_q3_fs_exists(fs, p))
            *out = p;
        else {
            st = blvl__fail(err, BLVL_E_NOT_FOUND, "holds no map %s (it holds %zu maps)",
                            p ? p : want, count);
            blvl__free_sized(al, p);
        }
    } else if (count == 1) {
        if (!(*out = blvl__strdup(al, names[0])))
            st = blvl__nomem(err, "the map's name");
    } else if (count == 0) {
        st = blvl__fail(err, BLVL_E_NOT_FOUND, "holds no maps: no maps/*.bsp in the archive");
    } else {
        report->misuse = BLVL_IMPORT_MAP_AMBIGUOUS;
        st = blvl__fail(err, BLVL_E_ARGUMENT,
                        "%s holds %zu maps (%s, %s, ...): options.map names one; "
                        "blvl_import_list_maps lists them",
                        pk3, count, names[0], names[1]);
    }
    if (fs)
        blvl_free(blvl_q3_fs_options(fs), names);
    blvl_q3_fs_free(fs);
    return st;
}

blvl_status blvl_import_list_maps(char ***names, size_t *count, blvl_import_report *report,
                                  const char *input, const blvl_import_options *opt,
                                  blvl_error *err) {
    static const blvl_import_options zero = {0};
    const blvl_import_options *o = opt ? opt : &zero;
    blvl_import_report scratch;
    if (!report)
        report = &scratch;
    memset(report, 0, offsetof(blvl_import_report, where));
    blvl__import_where(report, input);
    if (!names || !count || !input)
        return blvl__fail(err, BLVL_E_ARGUMENT, "list_maps wants names, count and an input");
    *names = NULL;
    *count = 0;
    struct stat sb;
    if (stat(input, &sb) != 0)
        return blvl__fail(err, BLVL_E_NOT_FOUND, "no such file or folder");
    if (!S_ISDIR(sb.st_mode)) { /* a file: only a zip holds maps to list */
        unsigned char magic[4] = {0};
        FILE *f = fopen(input, "rb");
        size_t got = f ? fread(magic, 1, sizeof magic, f) : 0;
        if (f)
            fclose(f);
        if (got != 4 || memcmp(magic, "PK\x03\x04", 4) != 0) {
            report->misuse = BLVL_IMPORT_LIST_NOT_ARCHIVE;
            return blvl__fail(err, BLVL_E_ARGUMENT,
                              "listing maps wants a .pk3 (or a folder); %s is none", input);
        }
    }
    blvl_q3_fs *fs = NULL;
    char **found = NULL;
    size_t n = 0;
    blvl_status st = blvl_q3_fs_new(&fs, &o->base, err);
    for (size_t i = 0; st == BLVL_OK && i < o->pk3_count; i++)
        if ((st = blvl_q3_fs_add(fs, o->pk3[i], err)) != BLVL_OK)
            blvl__import_where(report, o->pk3[i]);
    if (st == BLVL_OK && ((st = blvl_q3_fs_add(fs, input, err)) != BLVL_OK ||
                          (st = blvl_q3_fs_list(&found, &n, fs, "maps", ".bsp", err)) != BLVL_OK))
        blvl__import_where(report, input);
    /* One buffer: the pointers, then the strings, so blvl_free releases it all. */
    size_t bytes = (n + 1) * sizeof(char *);
    for (size_t i = 0; st == BLVL_OK && i < n; i++)
        bytes += strlen(found[i]) + 1;
    char **list = st == BLVL_OK ? blvl__alloc_sized(&o->base.allocator, bytes) : NULL;
    if (st == BLVL_OK && !list)
        st = blvl__nomem(err, "the list of %zu maps", n);
    if (list) {
        char *at = (char *)(list + n + 1);
        for (size_t i = 0; i < n; i++) {
            size_t len = strlen(found[i]) + 1;
            list[i] = memcpy(at, found[i], len);
            at += len;
        }
        list[n] = NULL;
        *names = list;
        *count = n;
    }
    if (fs)
        blvl_free(blvl_q3_fs_options(fs), found);
    blvl_q3_fs_free(fs);
    return st;
}

blvl_status blvl__import_quake3(blvl_import_report *report, const char *in, const uint8_t *data,
                                size_t size, const struct import_q3_args *a, const char *level_path,
                                const char *symbols_path, const blvl_import_options *opt,
                                blvl_error *err) {
    const blvl_options *bo = &opt->base;
    const blvl_allocator *al = &bo->allocator;
    blvl_q3_fs *fs = NULL;
    blvl_q3_bsp *bsp = NULL;
    blvl_bake *b = NULL;
    void *inner = NULL; /* the map's bytes when read from the archives */
    char *name = NULL;  /* the map's path in the game's tree */
    blvl_status st;
    int is_pk3 = data && size >= 4 && memcmp(data, "PK\x03\x04", 4) == 0;
    report->format = BLVL_IMPORT_Q3;
    report->archives = a->pk3_count || is_pk3;
    blvl__import_where(report, in);
    if (a->map && !is_pk3) {
        report->misuse = BLVL_IMPORT_MAP_NOT_ARCHIVE;
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "options.map picks the map of a .pk3 given as the input; %s is none", in);
    }
    if ((st = blvl_q3_fs_new(&fs, bo, err)))
        goto done;
    for (size_t i = 0; i < a->pk3_count; i++)
        if ((st = blvl_q3_fs_add(fs, a->pk3[i], err))) {
            blvl__import_where(report, a->pk3[i]);
            goto done;
        }
    if (is_pk3) {
        if ((st = pick_map(report, bo, in, a->map, &name, err)))
            goto done;
        if ((st = blvl_q3_fs_add(fs, in, err)))
            goto done;
        blvl__import_where(report, in);
    } else if (data) {
        const char *base = strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
        size_t n = strlen(base) + 6;
        if ((name = blvl__alloc_sized(al, n)))
            snprintf(name, n, "maps/%s", base);
    } else {
        name = blvl__strdup(al, in);
    }
    if (!name) {
        st = blvl__nomem(err, "the map's name");
        goto done;
    }
    if (!data || is_pk3) {
        size_t n;
        if ((st = blvl_q3_fs_read(&inner, &n, fs, name, err))) {
            if (err && err->code == BLVL_E_NOT_FOUND)
                blvl__fail(err, BLVL_E_NOT_FOUND,
                           "no such file, and %s is in none of the %zu archives and folders "
                           "given with --pk3",
                           name, a->pk3_count);
            goto done;
        }
        data = inner;
        size = n;
        if (is_pk3) /* what refusals of the map name: ARCHIVE:maps/NAME.bsp */
            snprintf(report->where, sizeof report->where, "%s:%s", in, name);
    }
    blvl_q3_bake_options qo = {0};
    qo.fs = report->archives ? fs : NULL; /* none given: materials keep their names */
    qo.map_name = name;
    qo.patch_thickness = a->patch_thickness;
    qo.patch_subdivisions = a->patch_subdivisions;
    if ((st = blvl_q3_bsp_read(&bsp, data, size, bo, err)) || (st = blvl_bake_new(&b, bo, err)) ||
        (st = blvl_q3_bake(bsp, b, &report->q3, &qo, err)))
        goto done;
    if (a->cameras) {
        char shown[sizeof report->where];
        memcpy(shown, report->where, sizeof shown);
        if ((st = blvl__import_cameras(report, a->cameras, b, err)))
            goto done;
        memcpy(report->where, shown, sizeof shown);
    }
    if ((st = blvl__import_write(report, b, level_path, symbols_path, opt, err)))
        goto done;
done:
    blvl_bake_free(b);
    blvl_q3_bsp_free(bsp);
    if (inner)
        blvl_free(bo, inner);
    blvl_q3_fs_free(fs);
    blvl__free_sized(al, name);
    return st;
}
