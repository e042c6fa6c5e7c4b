/* A recipe: what to bake, in a text file, so a level can be baked again the same way.
 *
 *   blvl-recipe 1
 *   # comments and blank lines are skipped
 *   map maps/oa_dm1.bsp               # a .bsp or .pk3 beside the recipe, or a path in the pk3s
 *   pk3 ../baseoa                     # repeatable; relative to the recipe's folder
 *   options --patch-thickness 4 --patch-subdivisions 4 --map oa_dm1
 *   options --acoustics-spacing 128   # or --no-acoustics
 *
 * Cameras come from NAME.cameras beside NAME.recipe (any recipe name: its last extension
 * replaced), never from the map, so a rebake carries them unchanged:
 *
 *   blvl-cameras 1
 *   # name purpose x y z yaw pitch roll fov_x   (the level's axes: +Y up, -Z forward)
 *   overview overview 0 600 900 0 -30 0 90
 *
 * docs/IMPORT-Q3.md, "Command line and recipes". A refusal is BLVL_E_SOURCE with the message
 * "line N: <field> at offset M: <rule>: <problem>" and report->where the recipe's path. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "blvl/sections/cameras.h"
#include "common/alloc.h"
#include "common/error.h"
#include "import/front/front.h"

#define RECIPE_MAGIC "blvl-recipe 1"
#define CAMERAS_MAGIC "blvl-cameras 1"

static blvl_status refuse(blvl_import_report *report, const char *file, unsigned line,
                          const char *field, size_t offset, const char *rule, const char *problem,
                          blvl_error *err) {
    blvl__import_where(report, file);
    char part[32];
    snprintf(part, sizeof part, "line %u", line);
    return blvl__fail_source(err, part, field, offset, rule, "%s", problem);
}

/* The next line of text[*at..n), NUL-terminated in place (text is a writable copy); NULL at the
 * end. A trailing '\r' is dropped. */
static char *next_line(char *text, size_t n, size_t *at, size_t *start) {
    if (*at >= n)
        return NULL;
    *start = *at;
    char *s = text + *at;
    char *e = memchr(s, '\n', n - *at);
    size_t len = e ? (size_t)(e - s) : n - *at;
    *at += len + (e ? 1 : 0);
    s[len] = 0;
    if (len && s[len - 1] == '\r')
        s[len - 1] = 0;
    return s;
}

static char *skip_space(char *s) {
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Splits off the first whitespace-separated token of *s. */
static char *token(char **s) {
    char *p = skip_space(*s);
    if (!*p)
        return NULL;
    char *q = p;
    while (*q && *q != ' ' && *q != '\t')
        q++;
    if (*q)
        *q++ = 0;
    *s = q;
    return p;
}

static int is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Every string the recipe's arguments point at, freed together. */
struct recipe_strings {
    const blvl_allocator *al;
    char *p[BLVL_IMPORT_MAX_PK3 + 8];
    size_t n;
};

static char *keep(struct recipe_strings *o, char *s) {
    if (s && o->n < sizeof o->p / sizeof *o->p)
        o->p[o->n++] = s;
    else if (s) {
        blvl__free_sized(o->al, s);
        s = NULL;
    }
    return s;
}

/* `rel` relative to the recipe's folder (an absolute path stays). */
static char *beside(struct recipe_strings *o, const char *recipe, const char *rel) {
    const char *slash = strrchr(recipe, '/');
    size_t d = rel[0] == '/' || !slash ? 0 : (size_t)(slash - recipe) + 1;
    size_t n = d + strlen(rel) + 1;
    char *p = blvl__alloc_sized(o->al, n);
    if (p) {
        memcpy(p, recipe, d);
        strcpy(p + d, rel);
    }
    return keep(o, p);
}

static int parse_thickness(const char *s, float *out) {
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !isfinite(v) || v <= 0 || v > 1024)
        return -1;
    *out = (float)v;
    return 0;
}

static int parse_subdivisions(const char *s, int *out) {
    char *end;
    if (!*s || *s == '-' || *s == '+')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < 1 || v > 64)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_spacing(const char *s, float *out) {
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !isfinite(v) || v < 16 || v > 1024)
        return -1;
    *out = (float)v;
    return 0;
}

/* One "options" line: the same options the command line takes for a Quake 3 map, and the
 * acoustics step's (every format's, but a recipe is a Quake 3 map's). */
static blvl_status options_line(blvl_import_report *report, const char *file, unsigned ln,
                                size_t off, char *rest, struct import_q3_args *a, blvl_error *err) {
    char *opt;
    char problem[192];
    while ((opt = token(&rest))) {
        /* the options without a value: --no-acoustics, --draft (docs/BAKE.md, "Drafts") */
        if (!strcmp(opt, "--no-acoustics")) {
            a->no_acoustics = true;
            continue;
        }
        if (!strcmp(opt, "--draft")) {
            a->draft = true;
            continue;
        }
        char *val = token(&rest);
        if (!val) {
            snprintf(problem, sizeof problem, "%s wants a value", opt);
            return refuse(report, file, ln, "options", off, "recipe-options", problem, err);
        }
        if (!strcmp(opt, "--patch-thickness") && !parse_thickness(val, &a->patch_thickness))
            continue;
        else if (!strcmp(opt, "--patch-subdivisions") &&
                 !parse_subdivisions(val, &a->patch_subdivisions))
            continue;
        else if (!strcmp(opt, "--acoustics-spacing") && !parse_spacing(val, &a->acoustics_spacing))
            continue;
        else if (!strcmp(opt, "--map"))
            a->map = val;
        else {
            snprintf(problem, sizeof problem,
                     "'%s %s' is not --patch-thickness QU (0 < QU <= 1024), "
                     "--patch-subdivisions N (1..64), --acoustics-spacing QU (16..1024), "
                     "--no-acoustics, --map NAME or --draft",
                     opt, val);
            return refuse(report, file, ln, "options", off, "recipe-options", problem, err);
        }
    }
    if (a->no_acoustics && a->acoustics_spacing != 0)
        return refuse(report, file, ln, "options", off, "recipe-options",
                      "--acoustics-spacing and --no-acoustics contradict each other", err);
    return BLVL_OK;
}

/* Reads the recipe's lines into `a` and *map. */
static blvl_status parse(blvl_import_report *report, const char *path, char *text, size_t size,
                         struct recipe_strings *own, struct import_q3_args *a, const char **map,
                         blvl_error *err) {
    size_t at = 0, start = 0;
    unsigned ln = 0;
    blvl_status st = BLVL_OK;
    char *line;
    while (st == BLVL_OK && (line = next_line(text, size, &at, &start))) {
        ln++;
        if (ln == 1) {
            if (strcmp(line, RECIPE_MAGIC))
                st = refuse(report, path, 1, "header", 0, "recipe-header",
                            "the first line is not \"" RECIPE_MAGIC "\"", err);
            continue;
        }
        char *rest = skip_space(line);
        if (!*rest || *rest == '#')
            continue;
        char *key = token(&rest);
        char *value = skip_space(rest);
        size_t vn = strlen(value);
        while (vn && (value[vn - 1] == ' ' || value[vn - 1] == '\t'))
            value[--vn] = 0;
        if (!strcmp(key, "options")) {
            st = options_line(report, path, ln, start, value, a, err);
            continue;
        }
        if (!vn) {
            char problem[96], field[48]; /* the key cut to 40 bytes, so the message fits */
            snprintf(problem, sizeof problem, "%.40s wants a value", key);
            snprintf(field, sizeof field, "%.40s", key);
            st = refuse(report, path, ln, field, start, "recipe-value", problem, err);
        } else if (!strcmp(key, "map")) {
            if (*map)
                st = refuse(report, path, ln, "map", start, "recipe-map", "a second map line", err);
            else if (!(*map = beside(own, path, value)))
                st = blvl__nomem(err, "a path");
            else if (!is_file(*map)) {
                /* not beside the recipe: a path inside the archives, as written */
                blvl__free_sized(own->al, own->p[--own->n]);
                *map = value;
            }
        } else if (!strcmp(key, "pk3")) {
            if (a->pk3_count >= BLVL_IMPORT_MAX_PK3)
                st = refuse(report, path, ln, "pk3", start, "recipe-pk3", "more than 256 pk3 lines",
                            err);
            else if (!(a->pk3[a->pk3_count++] = beside(own, path, value)))
                st = blvl__nomem(err, "a path");
        } else {
            char problem[128];
            snprintf(problem, sizeof problem, "unknown key '%.40s' (map, pk3, options)", key);
            st = refuse(report, path, ln, "key", start, "recipe-key", problem, err);
        }
    }
    if (st == BLVL_OK && ln == 0)
        st = refuse(report, path, 1, "header", 0, "recipe-header", "empty", err);
    if (st == BLVL_OK && !*map)
        st = refuse(report, path, ln, "map", 0, "recipe-map", "no map line", err);
    return st;
}

blvl_status blvl__import_recipe(blvl_import_report *report, const char *path, const uint8_t *data,
                                size_t size, const char *level_path, const char *symbols_path,
                                const blvl_import_options *opt, blvl_error *err) {
    const blvl_allocator *al = &opt->base.allocator;
    char *text = blvl__alloc_sized(al, size + 1);
    if (!text)
        return blvl__nomem(err, "the recipe's %zu bytes", size);
    memcpy(text, data, size);
    text[size] = 0;
    struct import_q3_args a;
    memset(&a, 0, sizeof a);
    struct recipe_strings own = {al, {0}, 0};
    const char *map = NULL;
    uint8_t *map_data = NULL;
    size_t map_size = 0;
    blvl_status st = parse(report, path, text, size, &own, &a, &map, err);
    /* the caller's options after the recipe's */
    for (size_t i = 0; st == BLVL_OK && i < opt->pk3_count; i++) {
        if (a.pk3_count >= BLVL_IMPORT_MAX_PK3) {
            st = blvl__fail(err, BLVL_E_ARGUMENT, "more than %d pk3s", BLVL_IMPORT_MAX_PK3);
            break;
        }
        a.pk3[a.pk3_count++] = opt->pk3[i];
    }
    if (opt->map)
        a.map = opt->map;
    if (opt->patch_thickness != 0)
        a.patch_thickness = opt->patch_thickness;
    if (opt->patch_subdivisions)
        a.patch_subdivisions = opt->patch_subdivisions;
    a.cameras = opt->cameras;
    /* the acoustics: the caller's flag (either one) replaces the recipe's; "options --draft"
     * makes a draft whatever the caller asked */
    blvl_import_options with = *opt;
    if (!opt->no_acoustics && opt->acoustics_spacing == 0) {
        with.no_acoustics = a.no_acoustics;
        with.acoustics_spacing = a.acoustics_spacing;
    }
    with.draft = opt->draft || a.draft;
    /* NAME.cameras beside NAME.recipe */
    char *cams = NULL;
    size_t cams_size = 0;
    if (st == BLVL_OK && !a.cameras) {
        const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
        size_t stem = dot && (!slash || dot > slash + 1) ? (size_t)(dot - path) : strlen(path);
        cams_size = stem + 9;
        if ((cams = blvl__alloc(al, cams_size))) {
            memcpy(cams, path, stem);
            strcpy(cams + stem, ".cameras");
            if (is_file(cams))
                a.cameras = cams;
        }
    }
    if (st == BLVL_OK)
        blvl__import_where(report, map);
    if (st == BLVL_OK && is_file(map)) {
        st = blvl__import_read(&opt->base, map, &map_data, &map_size, err);
        if (st == BLVL_OK)
            st = blvl__import_quake3(report, map, map_data ? map_data : (const uint8_t *)"",
                                     map_size, &a, level_path, symbols_path, &with, err);
    } else if (st == BLVL_OK) {
        st = blvl__import_quake3(report, map, NULL, 0, &a, level_path, symbols_path, &with, err);
    }
    report->format = BLVL_IMPORT_RECIPE;
    blvl__free_sized(al, map_data);
    if (cams)
        blvl__dealloc(al, cams, cams_size);
    for (size_t i = 0; i < own.n; i++)
        blvl__free_sized(al, own.p[i]);
    blvl__free_sized(al, text);
    return st;
}

/* ---- cameras ---------------------------------------------------------------------------- */

static const char *const purposes[] = {"thumbnail", "overview", "menu", "other"};

static int number(const char *s, float *out) {
    char *end;
    errno = 0;
    double v = s ? strtod(s, &end) : 0;
    if (!s || !*s || *end || errno || !isfinite(v) || fabs(v) > 1e9)
        return -1;
    *out = (float)v;
    return 0;
}

blvl_status blvl__import_cameras(blvl_import_report *report, const char *path, blvl_bake *b,
                                 blvl_error *err) {
    const blvl_options *opt = blvl_bake_options(b);
    uint8_t *data = NULL;
    size_t size = 0, at = 0, start = 0;
    blvl__import_where(report, path);
    blvl_status st = blvl__import_read(opt, path, &data, &size, err);
    if (st != BLVL_OK)
        return st;
    char *text = blvl__alloc_sized(&opt->allocator, size + 1);
    if (!text) {
        blvl__free_sized(&opt->allocator, data);
        return blvl__nomem(err, "the cameras file");
    }
    memcpy(text, data, size);
    text[size] = 0;
    blvl__free_sized(&opt->allocator, data);
    unsigned ln = 0;
    char *line;
    while (st == BLVL_OK && (line = next_line(text, size, &at, &start))) {
        ln++;
        if (ln == 1) {
            if (strcmp(line, CAMERAS_MAGIC))
                st = refuse(report, path, 1, "header", 0, "cameras-header",
                            "the first line is not \"" CAMERAS_MAGIC "\"", err);
            continue;
        }
        char *rest = skip_space(line);
        if (!*rest || *rest == '#')
            continue;
        char *name = token(&rest), *purpose = token(&rest);
        int p = -1;
        for (int k = 0; purpose && k < 4; k++)
            if (!strcmp(purpose, purposes[k]))
                p = k;
        if (p < 0) {
            st = refuse(report, path, ln, "purpose", start, "camera-purpose",
                        "wants thumbnail, overview, menu or other after the name", err);
            break;
        }
        static const char *const fields[7] = {"pos.x", "pos.y", "pos.z", "yaw",
                                              "pitch", "roll",  "fov_x"};
        float v[7];
        for (int k = 0; st == BLVL_OK && k < 7; k++)
            if (number(token(&rest), &v[k]))
                st = refuse(report, path, ln, fields[k], start, "camera-number",
                            "wants a finite number within 1e9", err);
        if (st == BLVL_OK && (v[6] < 0 || v[6] >= 180))
            st = refuse(report, path, ln, "fov_x", start, "camera-fov",
                        "wants 0 (the default, 90) or a field of view below 180 degrees", err);
        if (st == BLVL_OK && token(&rest))
            st = refuse(report, path, ln, "line", start, "camera-fields",
                        "more than name, purpose and 7 numbers", err);
        if (st != BLVL_OK)
            break;
        blvl_Vec3 pos = {v[0], v[1], v[2]};
        st = blvl_bake_add_camera(b, name, (uint8_t)p, pos, v[3], v[4], v[5], v[6], err);
    }
    if (st == BLVL_OK && ln == 0)
        st = refuse(report, path, 1, "header", 0, "cameras-header", "empty", err);
    blvl__free_sized(&opt->allocator, text);
    return st;
}
