/* A recipe: what to bake, in a text file, so a level can be baked again the same way.
 *
 *   blvl-recipe 1
 *   # comments and blank lines are skipped
 *   map maps/oa_dm1.bsp               # a .bsp or .pk3 beside the recipe, or a path in the pk3s
 *   pk3 ../baseoa                     # repeatable; relative to the recipe's folder
 *   options --patch-thickness 4 --patch-subdivisions 4 --map oa_dm1
 *
 * Cameras come from NAME.cameras beside NAME.recipe (any recipe name: its last extension
 * replaced), never from the map, so a rebake carries them unchanged:
 *
 *   blvl-cameras 1
 *   # name purpose x y z yaw pitch roll fov_x   (the level's axes: +Y up, -Z forward)
 *   overview overview 0 600 900 0 -30 0 90
 *
 * docs/IMPORT-Q3.md, "Command line and recipes". */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bake_q3.h"
#include "blvl/bake.h"
#include "blvl/sections/cameras.h"
#include "cli.h"

#define RECIPE_MAGIC "blvl-recipe 1"
#define CAMERAS_MAGIC "blvl-cameras 1"

int cli_is_recipe(const uint8_t *data, size_t size) {
    return size >= 12 && memcmp(data, "blvl-recipe ", 12) == 0;
}

/* "blvl: FILE: line N: <field> at offset M: <rule>: <problem>", exit 1. */
static int refuse(const char *file, unsigned line, const char *field, size_t offset,
                  const char *rule, const char *problem) {
    fprintf(stderr, "blvl: %s: line %u: %s at offset %zu: %s: %s\n", file, line, field, offset,
            rule, problem);
    return CLI_FAILED;
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

/* `rel` relative to the recipe's folder (an absolute path stays). malloc'd. */
static char *beside(const char *recipe, const char *rel) {
    const char *slash = strrchr(recipe, '/');
    size_t d = rel[0] == '/' || !slash ? 0 : (size_t)(slash - recipe) + 1;
    size_t n = d + strlen(rel) + 1;
    char *p = malloc(n);
    if (p) {
        memcpy(p, recipe, d);
        strcpy(p + d, rel);
    }
    return p;
}

static int is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Every string the recipe's q3_args point at, freed together. */
typedef struct owned {
    char *p[Q3_MAX_PK3 + 8];
    size_t n;
} owned;

static char *keep(owned *o, char *s) {
    if (s && o->n < sizeof o->p / sizeof *o->p)
        o->p[o->n++] = s;
    else if (s) {
        free(s);
        s = NULL;
    }
    return s;
}

/* One "options" line: the same options the command line takes for a Quake 3 map. */
static int options_line(const char *file, unsigned ln, size_t off, char *rest, q3_args *a) {
    char *opt;
    while ((opt = token(&rest))) {
        char *val = token(&rest);
        char problem[160];
        if (!val) {
            snprintf(problem, sizeof problem, "%s wants a value", opt);
            return refuse(file, ln, "options", off, "recipe-options", problem);
        }
        if (!strcmp(opt, "--patch-thickness") && !q3_parse_thickness(val, &a->patch_thickness))
            a->has_thickness = 1;
        else if (!strcmp(opt, "--patch-subdivisions") &&
                 !q3_parse_subdivisions(val, &a->patch_subdivisions))
            a->has_subdivisions = 1;
        else if (!strcmp(opt, "--map"))
            a->map = val;
        else {
            snprintf(problem, sizeof problem,
                     "'%s %s' is not --patch-thickness QU (0 < QU <= 1024), "
                     "--patch-subdivisions N (1..64) or --map NAME",
                     opt, val);
            return refuse(file, ln, "options", off, "recipe-options", problem);
        }
    }
    return CLI_OK;
}

int cli_bake_recipe(const char *path, const uint8_t *data, size_t size, const q3_args *cmd,
                    const q3_out *o) {
    char *text = malloc(size + 1);
    if (!text)
        return cli_failf(path, BLVL_E_NOMEM, "the recipe's %zu bytes", size);
    memcpy(text, data, size);
    text[size] = 0;
    q3_args a = {0};
    owned own = {0};
    const char *map = NULL;
    uint8_t *map_data = NULL;
    size_t map_size = 0, at = 0, start = 0;
    unsigned ln = 0;
    int rc = CLI_OK;
    char *line;
    while (rc == CLI_OK && (line = next_line(text, size, &at, &start))) {
        ln++;
        if (ln == 1) {
            if (strcmp(line, RECIPE_MAGIC))
                rc = refuse(path, 1, "header", 0, "recipe-header",
                            "the first line is not \"" RECIPE_MAGIC "\"");
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
            rc = options_line(path, ln, start, value, &a);
            continue;
        }
        if (!vn) {
            char problem[96];
            snprintf(problem, sizeof problem, "%.40s wants a value", key);
            rc = refuse(path, ln, key, start, "recipe-value", problem);
        } else if (!strcmp(key, "map")) {
            if (map)
                rc = refuse(path, ln, "map", start, "recipe-map", "a second map line");
            else if (!(map = keep(&own, beside(path, value))))
                rc = cli_failf(path, BLVL_E_NOMEM, "a path");
            else if (!is_file(map)) {
                /* not beside the recipe: a path inside the archives, as written */
                free(own.p[--own.n]);
                map = value;
            }
        } else if (!strcmp(key, "pk3")) {
            if (a.pk3_count >= Q3_MAX_PK3)
                rc = refuse(path, ln, "pk3", start, "recipe-pk3", "more than 256 pk3 lines");
            else if (!(a.pk3[a.pk3_count++] = keep(&own, beside(path, value))))
                rc = cli_failf(path, BLVL_E_NOMEM, "a path");
        } else {
            char problem[128];
            snprintf(problem, sizeof problem, "unknown key '%.40s' (map, pk3, options)", key);
            rc = refuse(path, ln, "key", start, "recipe-key", problem);
        }
    }
    if (rc == CLI_OK && ln == 0)
        rc = refuse(path, 1, "header", 0, "recipe-header", "empty");
    if (rc == CLI_OK && !map)
        rc = refuse(path, ln, "map", 0, "recipe-map", "no map line");
    /* the command line after the recipe */
    for (size_t i = 0; rc == CLI_OK && i < cmd->pk3_count; i++) {
        if (a.pk3_count >= Q3_MAX_PK3) {
            rc = cli_failf(path, BLVL_E_ARGUMENT, "more than %d pk3s", Q3_MAX_PK3);
            break;
        }
        a.pk3[a.pk3_count++] = cmd->pk3[i];
    }
    if (cmd->map)
        a.map = cmd->map;
    if (cmd->has_thickness)
        a.patch_thickness = cmd->patch_thickness, a.has_thickness = 1;
    if (cmd->has_subdivisions)
        a.patch_subdivisions = cmd->patch_subdivisions, a.has_subdivisions = 1;
    /* NAME.cameras beside NAME.recipe */
    char *cams = NULL;
    if (rc == CLI_OK) {
        const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
        size_t stem = dot && (!slash || dot > slash + 1) ? (size_t)(dot - path) : strlen(path);
        if ((cams = malloc(stem + 9))) {
            memcpy(cams, path, stem);
            strcpy(cams + stem, ".cameras");
            if (is_file(cams))
                a.cameras = cams;
        }
    }
    if (rc == CLI_OK && is_file(map)) {
        rc = cli_read_input(map, &map_data, &map_size);
        if (rc == CLI_OK)
            rc = cli_bake_q3(map, map_data, map_size, &a, o);
    } else if (rc == CLI_OK) {
        rc = cli_bake_q3(map, NULL, 0, &a, o);
    }
    free(map_data);
    free(cams);
    for (size_t i = 0; i < own.n; i++)
        free(own.p[i]);
    free(text);
    return rc;
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

int blvl__cli_add_cameras(const char *path, blvl_bake *b);
int blvl__cli_add_cameras(const char *path, blvl_bake *b) {
    uint8_t *data;
    size_t size, at = 0, start = 0;
    int rc = cli_read_input(path, &data, &size);
    if (rc != CLI_OK)
        return rc;
    char *text = realloc(data, size + 1);
    if (!text) {
        free(data);
        return cli_failf(path, BLVL_E_NOMEM, "the cameras file");
    }
    text[size] = 0;
    unsigned ln = 0;
    char *line;
    while (rc == CLI_OK && (line = next_line(text, size, &at, &start))) {
        ln++;
        if (ln == 1) {
            if (strcmp(line, CAMERAS_MAGIC))
                rc = refuse(path, 1, "header", 0, "cameras-header",
                            "the first line is not \"" CAMERAS_MAGIC "\"");
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
            rc = refuse(path, ln, "purpose", start, "camera-purpose",
                        "wants thumbnail, overview, menu or other after the name");
            break;
        }
        static const char *const fields[7] = {"pos.x", "pos.y", "pos.z", "yaw",
                                              "pitch", "roll",  "fov_x"};
        float v[7];
        for (int k = 0; rc == CLI_OK && k < 7; k++)
            if (number(token(&rest), &v[k]))
                rc = refuse(path, ln, fields[k], start, "camera-number",
                            "wants a finite number within 1e9");
        if (rc == CLI_OK && (v[6] < 0 || v[6] >= 180))
            rc = refuse(path, ln, "fov_x", start, "camera-fov",
                        "wants 0 (the default, 90) or a field of view below 180 degrees");
        if (rc == CLI_OK && token(&rest))
            rc = refuse(path, ln, "line", start, "camera-fields",
                        "more than name, purpose and 7 numbers");
        if (rc != CLI_OK)
            break;
        blvl_error err;
        blvl_Vec3 pos = {v[0], v[1], v[2]};
        if (blvl_bake_add_camera(b, name, (uint8_t)p, pos, v[3], v[4], v[5], v[6], &err))
            rc = cli_fail(path, &err);
    }
    if (rc == CLI_OK && ln == 0)
        rc = refuse(path, 1, "header", 0, "cameras-header", "empty");
    free(text);
    return rc;
}
