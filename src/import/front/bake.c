/* The front door's one call: detect, read with the format's importer, fill the model, write
 * (docs/IMPORT.md). The importers' own bakes keep their signatures; this file is the one place
 * that knows all four. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blvl/blvl.h"
#include "blvl/hmap.h"
#include "blvl/riot.h"
#include "blvl/subspace.h"
#include "bake/model/fast.h"
#include "common/alloc.h"
#include "common/error.h"
#include "import/front/front.h"

void blvl__import_where(blvl_import_report *report, const char *file) {
    snprintf(report->where, sizeof report->where, "%s", file ? file : "");
}

blvl_status blvl__import_read(const blvl_options *opt, const char *path, uint8_t **data,
                              size_t *size, blvl_error *err) {
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    const uint64_t limit = BLVL_SECTION_RAW_MAX;
    uint8_t *buf = NULL;
    size_t len = 0, cap = 1 << 16;
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC), e = 0;
    if (fd < 0)
        e = errno;
    else if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
        e = EISDIR;
    else if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > limit)
        e = EFBIG; /* refused before a byte is read */
    else if (S_ISREG(st.st_mode) && st.st_size > 0)
        cap = (size_t)st.st_size + 1; /* +1 sees the end without another grow */
    if (!e && !(buf = blvl__alloc_sized(a, cap)))
        e = ENOMEM;
    while (!e) {
        if (len == cap) { /* grow by doubling, never past limit + 1 */
            size_t grown = cap > limit / 2 ? (size_t)limit + 1 : cap * 2;
            uint8_t *q = len > limit ? NULL : blvl__alloc_sized(a, grown);
            if (!q) {
                e = len > limit ? EFBIG : ENOMEM;
                break;
            }
            memcpy(q, buf, len);
            blvl__free_sized(a, buf);
            buf = q;
            cap = grown;
        }
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            e = errno;
        else if (n == 0)
            break;
        else
            len += (size_t)n;
    }
    if (fd >= 0)
        close(fd);
    if (!e) {
        *data = buf;
        *size = len;
        return BLVL_OK;
    }
    blvl__free_sized(a, buf);
    if (e == EFBIG)
        return blvl__fail(err, BLVL_E_RAW_SIZE,
                          "more than %llu bytes (2 GiB), the most a section holds",
                          (unsigned long long)limit);
    if (e == ENOMEM)
        return blvl__nomem(err, "cannot hold the input");
    return blvl__fail(err, BLVL_E_IO, "cannot read: %s", strerror(e));
}

blvl_status blvl__import_write(blvl_import_report *report, blvl_bake *b, const char *level_path,
                               const char *symbols_path, const blvl_import_options *opt,
                               blvl_error *err) {
    bool floors = report->format != BLVL_IMPORT_SUBSPACE; /* a Subspace map is seen from above */
    blvl_status st =
        blvl_bake_set_acoustics(b, floors && !opt->no_acoustics, opt->acoustics_spacing, err);
    if (st == BLVL_OK)
        st = blvl_bake_set_draft(b, opt->draft, err);
    blvl__bake_model_spend(b); /* both callers free it next */
    if (st == BLVL_OK)
        st = blvl_bake_write_file(b, level_path, symbols_path, &report->stats, err);
    if (st != BLVL_OK)
        blvl__import_where(report, level_path);
    return st;
}

/* The Subspace level's name when its ATTR has none: the file's name without its directory and
 * a final ".lvl" (any case). */
static blvl_status fill_subspace(const char *in, const uint8_t *data, size_t size,
                                 const blvl_options *opt, blvl_bake *b, blvl_error *err) {
    const char *base = strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
    size_t n = strlen(base);
    if (n > 4 && strcasecmp(base + n - 4, ".lvl") == 0)
        n -= 4;
    char *name = blvl__alloc_sized(&opt->allocator, n + 1);
    if (!name)
        return blvl__nomem(err, "the level's name");
    memcpy(name, base, n);
    name[n] = 0;
    blvl_subspace *map = NULL;
    blvl_status st = blvl_subspace_read(&map, data, size, opt, err);
    if (st == BLVL_OK)
        st = blvl_subspace_bake(map, b, &(blvl_subspace_options){.name = name}, err);
    blvl_subspace_free(map);
    blvl__free_sized(&opt->allocator, name);
    return st;
}

static blvl_status fill(blvl_import_format f, const char *in, const uint8_t *data, size_t size,
                        const blvl_options *opt, blvl_bake *b, blvl_error *err) {
    blvl_status st;
    if (f == BLVL_IMPORT_HMAP) {
        blvl_hmap *map = NULL;
        if ((st = blvl_hmap_read(&map, data, size, opt, err)) == BLVL_OK)
            st = blvl_hmap_bake(map, b, err);
        blvl_hmap_free(map);
    } else if (f == BLVL_IMPORT_RIOT) {
        blvl_riot_level *level = NULL;
        if ((st = blvl_riot_read(&level, data, size, opt, err)) == BLVL_OK)
            st = blvl_riot_bake(level, b, err);
        blvl_riot_free(level);
    } else {
        st = fill_subspace(in, data, size, opt, b, err);
    }
    return st;
}

static int has_q3_options(const blvl_import_options *o) {
    return o->pk3_count || o->map || o->patch_thickness != 0 || o->patch_subdivisions != 0;
}

static void q3_args_from(struct import_q3_args *a, const blvl_import_options *o) {
    memset(a, 0, sizeof *a);
    for (size_t i = 0; i < o->pk3_count && i < BLVL_IMPORT_MAX_PK3; i++)
        a->pk3[a->pk3_count++] = o->pk3[i];
    a->map = o->map;
    a->patch_thickness = o->patch_thickness;
    a->patch_subdivisions = o->patch_subdivisions;
    a->cameras = o->cameras;
}

/* Refuses options out of range before anything is read. */
static blvl_status check_options(const blvl_import_options *o, blvl_error *err) {
    if ((unsigned)o->from >= BLVL_IMPORT_FORMAT_COUNT)
        return blvl__fail(err, BLVL_E_ARGUMENT, "options.from is no blvl_import_format (%d)",
                          (int)o->from);
    if (o->pk3_count > BLVL_IMPORT_MAX_PK3 || (o->pk3_count && !o->pk3))
        return blvl__fail(err, BLVL_E_ARGUMENT, "options.pk3: %zu archives (at most %d)",
                          o->pk3_count, BLVL_IMPORT_MAX_PK3);
    if (!(o->patch_thickness == 0 || (o->patch_thickness > 0 && o->patch_thickness <= 1024)))
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "options.patch_thickness wants 0 < QU <= 1024 (0 = the default)");
    if (o->patch_subdivisions < 0 || o->patch_subdivisions > 64)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "options.patch_subdivisions wants 1..64 (0 = the default)");
    if (!(o->acoustics_spacing == 0 ||
          (o->acoustics_spacing >= 16 && o->acoustics_spacing <= 1024)))
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "options.acoustics_spacing wants 16 <= QU <= 1024 (0 = the default)");
    return BLVL_OK;
}

static void report_init(blvl_import_report *report, const char *in) {
    memset(report, 0, offsetof(blvl_import_report, where));
    blvl__import_where(report, in);
}

blvl_status blvl_import_bake_memory(blvl_import_report *report, const char *name, const void *data,
                                    size_t size, const char *level_path, const char *symbols_path,
                                    const blvl_import_options *opt, blvl_error *err) {
    static const blvl_import_options zero = {0};
    const blvl_import_options *o = opt ? opt : &zero;
    const char *in = name ? name : "";
    blvl_import_report scratch;
    if (!report)
        report = &scratch;
    report_init(report, in);
    if ((!data && size) || !level_path)
        return blvl__fail(err, BLVL_E_ARGUMENT, "%s", !level_path ? "no output path" : "no data");
    blvl_status st = check_options(o, err);
    if (st != BLVL_OK)
        return st;
    blvl_import_format f = o->from ? o->from : blvl_import_detect(NULL, data, size, name);
    report->format = f;
    if (f == BLVL_IMPORT_RECIPE)
        return blvl__import_recipe(report, in, data, size, level_path, symbols_path, o, err);
    if (has_q3_options(o) && f != BLVL_IMPORT_Q3) {
        report->misuse = BLVL_IMPORT_NOT_Q3;
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "the Quake 3 options (pk3, map, patch_*) are for Quake 3 maps; %s is "
                          "none",
                          in);
    }
    struct import_q3_args a;
    q3_args_from(&a, o);
    if (f == BLVL_IMPORT_Q3)
        return blvl__import_quake3(report, in, data ? data : (const uint8_t *)"", size, &a,
                                   level_path, symbols_path, o, err);
    if (f == BLVL_IMPORT_AUTO) {
        const uint8_t *d = data;
        char hex[3 * 4 + 1] = "";
        int at = 0;
        for (size_t i = 0; i < size && i < 4; i++)
            at += snprintf(hex + at, sizeof hex - (size_t)at, "%s%02x", i ? " " : "", d[i]);
        return blvl__fail(err, BLVL_E_UNKNOWN_FORMAT,
                          "%s%s%s, which is no format blvl bakes (HMAP Rockgrave, SRSC Riot, "
                          "BM/elvl Subspace, IBSP or PK zip Quake 3; options.from names one)",
                          size ? "starts with bytes " : "is empty", hex, size > 4 ? " ..." : "");
    }
    blvl_bake *b = NULL;
    if ((st = blvl_bake_new(&b, &o->base, err)) == BLVL_OK &&
        (st = fill(f, in, data, size, &o->base, b, err)) == BLVL_OK &&
        (!o->cameras || (st = blvl__import_cameras(report, o->cameras, b, err)) == BLVL_OK))
        st = blvl__import_write(report, b, level_path, symbols_path, o, err);
    blvl_bake_free(b);
    return st;
}

blvl_status blvl_import_bake_file(blvl_import_report *report, const char *input,
                                  const char *level_path, const char *symbols_path,
                                  const blvl_import_options *opt, blvl_error *err) {
    static const blvl_import_options zero = {0};
    const blvl_import_options *o = opt ? opt : &zero;
    blvl_import_report scratch;
    if (!report)
        report = &scratch;
    report_init(report, input);
    if (!input || !level_path)
        return blvl__fail(err, BLVL_E_ARGUMENT, "%s", !input ? "no input" : "no output path");
    blvl_status st = check_options(o, err);
    if (st != BLVL_OK)
        return st;
    /* A map inside the archives: no file of that name on disk. */
    struct stat sb;
    if (o->pk3_count && stat(input, &sb) != 0 &&
        (o->from == BLVL_IMPORT_AUTO || o->from == BLVL_IMPORT_Q3)) {
        struct import_q3_args a;
        q3_args_from(&a, o);
        report->format = BLVL_IMPORT_Q3;
        return blvl__import_quake3(report, input, NULL, 0, &a, level_path, symbols_path, o, err);
    }
    uint8_t *data = NULL;
    size_t size = 0;
    if ((st = blvl__import_read(&o->base, input, &data, &size, err)) != BLVL_OK)
        return st;
    st = blvl_import_bake_memory(report, input, data, size, level_path, symbols_path, o, err);
    blvl__free_sized(&o->base.allocator, data);
    return st;
}
