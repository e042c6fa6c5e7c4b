/* blvl probe: stand at a pose and say what is there: the view ray's hit in the colliders and in
 * the drawn triangles (with their sources from a .bsym), the contents at the eye and the feet,
 * the floor below and the nearest spawn; --png renders the view (docs/PROBE.md); --listen the
 * way a sound travels from a point to the pose (blvl/acoustics.h, docs/ACOUSTICS.md). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/acoustics.h"
#include "blvl/image.h"
#include "blvl/probe.h"
#include "blvl/symbols.h"
#include "cli.h"
#include "trace_output.h"

static const cli_help help = {
    "probe",
    "LEVEL (--pose X Y Z YAW PITCH [ROLL] | --camera NAME|PURPOSE) [--fov DEG]\n"
    "       [--symbols F.bsym] [--listen X Y Z] [--json] [--png OUT.png [--size WxH]\n"
    "       [--colliders]]",
    "Stands a player's eye at the pose (the cameras' convention: qu, +Y up; yaw 0 looks down\n"
    "-Z, positive yaw turns toward -X, positive pitch looks up, roll about the view axis; fov\n"
    "is the horizontal field of a 4:3 view) and prints:\n"
    "  view      the view ray's hit in the colliders (every solid but water): distance, point,\n"
    "            normal, collider, its flags by name, its material\n"
    "  geometry  the view ray's hit in the drawn triangles: distance, point, normal, triangle,\n"
    "            batch, material\n"
    "  eye, feet the contents there (the feet are 50 qu below the eye: eye height 26 above the\n"
    "            player origin, the Quake 3 box's bottom 24 below it)\n"
    "  floor     how far the player box falls before it stands\n"
    "  spawn     the nearest spawn point to the player origin\n"
    "With --symbols, the source (brush/face/patch, entity, shader) of the collider and the\n"
    "triangle hit. With --listen, one more record:\n"
    "  sound     the way a sound at X Y Z travels to the eye through the level's acoustics\n"
    "            probes (every door open, none charged): found, travelled and straight metres,\n"
    "            hops, narrow, the doors crossed, both probes, the listener's room and its rt60\n"
    "            (a level without an acoustics section exits 1, not-found)\n"
    "  --pose X Y Z YAW PITCH [ROLL]  the eye and the view, degrees\n"
    "  --camera NAME|PURPOSE  the pose of the level's first camera with that name, else with that\n"
    "                         purpose (thumbnail, overview, menu, other); a level without\n"
    "                         cameras is framed whole\n"
    "  --fov DEG              horizontal field of view of a 4:3 view (default 90, or the "
    "camera's)\n"
    "  --symbols F.bsym       the level's symbols sidecar (refused when stale)\n"
    "  --listen X Y Z         a sound's position, qu: print its path to the pose\n"
    "  --json                 one JSON object instead of text lines\n"
    "  --png OUT.png          render the view (software rasteriser) into OUT.png\n"
    "  --size WxH             its size (default 640x480)\n"
    "  --colliders            draw the collider outlines over it\n"
    "  --no-textures          shade every surface by its normal\n"
    "A damaged sim or geometry section refuses the level; a damaged cameras, textures,\n"
    "lighting or lightmaps section is gone on without, with a warning on stderr naming the\n"
    "section and its rule (--json: \"damaged\": [{\"section\", \"rule\", \"message\"}]).\n"
    "Exit status: 0 done, 1 the level or symbols are refused, 2 usage error.\n"};

static const char *parse_num(const char *s, float *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end)
        return "is not a number";
    if (!isfinite(v) || v > 1e9 || v < -1e9)
        return "is not a number within -1e9..1e9";
    *out = (float)v;
    return NULL;
}

static int is_number(const char *s) {
    float f;
    return !(s[0] == '-' && s[1] == '-') && parse_num(s, &f) == NULL;
}

/* ---- output ------------------------------------------------------------------------------ */

typedef struct out {
    int json, first;
} out;

static void num(float f) {
    if (isfinite(f))
        printf("%.9g", (double)f);
    else
        fputs("null", stdout);
}

static void vec(const out *o, const float v[3]) {
    if (o->json)
        putchar('[');
    for (int k = 0; k < 3; k++) {
        if (k)
            putchar(o->json ? ',' : ' ');
        num(v[k]);
    }
    if (o->json)
        putchar(']');
}

/* key: text " key ", JSON ',"key":' */
static void key(out *o, const char *k) {
    if (o->json) {
        printf("%s\"%s\":", o->first ? "" : ",", k);
        o->first = 0;
    } else {
        printf(" %s ", k);
    }
}

static void begin(out *o, const char *what) {
    if (o->json) {
        printf(",\"%s\":{", what);
        o->first = 1;
    } else {
        fputs(what, stdout);
    }
}

static void end(out *o) {
    if (o->json) {
        putchar('}');
        o->first = 0;
    } else {
        putchar('\n');
    }
}

static void index_val(const out *o, uint32_t i) {
    if (i == BLVL_TRACE_NONE)
        fputs(o->json ? "null" : "-1", stdout);
    else
        printf("%u", i);
}

static void str_val(const out *o, const char *s) {
    if (o->json)
        cli_json_string(s);
    else
        fputs(*s ? s : "-", stdout);
}

static void flags_val(const out *o, uint32_t flags) {
    if (o->json) {
        printf("%u", flags);
    } else {
        printf("0x%X ", flags);
        trace_put_flag_names(flags, 0);
    }
}

/* The source of a collider or a triangle: text "source DESCRIPTION", JSON an object. */
static void source(out *o, const blvl_symbols *sym, uint32_t src) {
    if (!sym)
        return;
    key(o, "source");
    if (!o->json) {
        char line[512];
        blvl_symbols_describe(sym, src, line, sizeof line);
        printf("%s", line);
        return;
    }
    const blvl_symbols_source *s = blvl_symbols_source_at(sym, src);
    if (!s) {
        fputs("null", stdout);
        return;
    }
    const char *kind = blvl_symbols_kind_name(s->kind);
    printf("{\"kind\":");
    if (kind)
        cli_json_string(kind);
    else
        printf("%u", s->kind);
    printf(",\"index\":%u,\"entity\":", s->index);
    index_val(o, s->entity);
    printf(",\"contents_flags\":%u,\"surface_flags\":%u,\"material\":", s->contents_flags,
           s->surface_flags);
    blvl_symbols_material m;
    if (blvl_symbols_material_at(sym, s->material, &m)) {
        printf("{\"name\":");
        cli_json_string(m.name);
        printf(",\"shader\":");
        cli_json_string(m.shader);
        printf(",\"texture\":");
        cli_json_string(m.texture);
        putchar('}');
    } else {
        fputs("null", stdout);
    }
    putchar('}');
}

/* A record's first fields: whether the ray hit, how far, where, the surface's normal. */
static void hit_fields(out *o, bool hit, float distance, const float point[3],
                       const float normal[3]) {
    key(o, "hit");
    printf("%d", hit ? 1 : 0);
    key(o, "distance");
    num(distance);
    key(o, "point");
    vec(o, point);
    key(o, "normal");
    vec(o, normal);
}

static void contents(out *o, const char *what, const blvl_probe_contents *c) {
    begin(o, what);
    key(o, "at");
    vec(o, c->point);
    key(o, "count");
    printf("%u", c->count);
    key(o, "flags");
    flags_val(o, c->flags);
    key(o, "collider");
    index_val(o, c->collider);
    key(o, "water");
    printf("%d", c->water ? 1 : 0);
    key(o, "water_material");
    index_val(o, c->water_material);
    end(o);
}

/* The sound's path to the pose (--listen). */
static void sound(out *o, const float at[3], const blvl_acoustics_path *s) {
    begin(o, "sound");
    key(o, "at");
    vec(o, at);
    key(o, "found");
    printf("%d", s->found ? 1 : 0);
    key(o, "travelled_m");
    num(s->length_m);
    key(o, "straight_m");
    num(s->straight_m);
    key(o, "hops");
    printf("%u", s->hops);
    key(o, "narrow");
    printf("%d", s->narrow ? 1 : 0);
    key(o, "door_count");
    printf("%u", s->door_count);
    key(o, "doors"); /* text: comma-separated, "-" for none; JSON: an array */
    uint32_t nd =
        s->door_count < BLVL_ACOUSTICS_MAX_DOORS ? s->door_count : BLVL_ACOUSTICS_MAX_DOORS;
    fputs(o->json ? "[" : nd ? "" : "-", stdout);
    for (uint32_t i = 0; i < nd; i++)
        printf("%s%u", i ? "," : "", s->doors[i]);
    if (o->json)
        putchar(']');
    key(o, "sound_probe");
    index_val(o, s->sound_probe);
    key(o, "listener_probe");
    index_val(o, s->listener_probe);
    key(o, "room");
    index_val(o, s->room.index);
    key(o, "rt60_s");
    num(s->room.rt60_s);
    key(o, "damping");
    num(s->room.damping);
    key(o, "outdoor");
    printf("%d", s->room.outdoor ? 1 : 0);
    end(o);
}

typedef struct sound_at {
    bool on;
    float at[3];
    blvl_acoustics_path path;
} sound_at;

static void print(const blvl_probe *p, const blvl_symbols *sym, const blvl_probe_pose *pose,
                  const blvl_probe_result *r, const sound_at *ls, int json) {
    out o = {json, 1};
    if (json)
        printf("{\"pose\":{\"pos\":");
    else
        fputs("pose pos ", stdout);
    vec(&o, pose->pos);
    o.first = 0;
    key(&o, "yaw");
    num(pose->yaw);
    key(&o, "pitch");
    num(pose->pitch);
    key(&o, "roll");
    num(pose->roll);
    key(&o, "fov");
    num(pose->fov_x);
    key(&o, "dir");
    vec(&o, r->dir);
    end(&o);

    bool vh = r->view.collider != BLVL_TRACE_NONE;
    begin(&o, "view");
    float n[3] = {r->view.plane.normal.x, r->view.plane.normal.y, r->view.plane.normal.z};
    hit_fields(&o, vh, r->view_distance, r->view.endpos, n);
    key(&o, "startsolid");
    printf("%d", r->view.startsolid ? 1 : 0);
    key(&o, "collider");
    index_val(&o, r->view.collider);
    key(&o, "flags");
    flags_val(&o, r->view.flags);
    key(&o, "material");
    index_val(&o, vh ? r->view.material : BLVL_TRACE_NONE);
    key(&o, "material_name");
    str_val(&o, vh ? blvl_probe_material_name(p, r->view.material) : "");
    if (vh)
        source(&o, sym, blvl_symbols_collider_source(sym, r->view.collider));
    end(&o);

    const blvl_probe_tri_hit *t = &r->tri;
    begin(&o, "geometry");
    hit_fields(&o, t->hit, t->hit ? t->distance : BLVL_PROBE_VIEW_RANGE, t->point, t->normal);
    key(&o, "front");
    printf("%d", t->front ? 1 : 0);
    key(&o, "triangle");
    index_val(&o, t->triangle);
    key(&o, "batch");
    index_val(&o, t->batch);
    key(&o, "material");
    index_val(&o, t->material);
    key(&o, "material_name");
    str_val(&o, blvl_probe_material_name(p, t->material));
    if (t->hit)
        source(&o, sym, blvl_symbols_triangle_source(sym, t->triangle));
    end(&o);

    contents(&o, "eye", &r->at_eye);
    contents(&o, "feet", &r->at_feet);

    begin(&o, "floor");
    hit_fields(&o, r->floor_hit, r->floor_distance, r->floor_point, r->floor_normal);
    key(&o, "startsolid");
    printf("%d", r->floor_startsolid ? 1 : 0);
    key(&o, "collider");
    index_val(&o, r->floor_collider);
    end(&o);

    begin(&o, "spawn");
    key(&o, "index");
    index_val(&o, r->spawn);
    key(&o, "kind");
    str_val(&o, blvl_probe_spawn_kind(p, r->spawn));
    key(&o, "distance");
    num(r->spawn == BLVL_TRACE_NONE ? 0 : r->spawn_distance);
    key(&o, "position");
    vec(&o, r->spawn_position);
    key(&o, "yaw");
    num(r->spawn_yaw);
    end(&o);
    if (ls->on)
        sound(&o, ls->at, &ls->path);
    if (json) { /* the sections refused and gone on without, each with its rule */
        uint32_t n = 0;
        const blvl_probe_damage *d = blvl_probe_damaged(p, &n);
        printf(",\"damaged\":[");
        for (uint32_t i = 0; i < n; i++) {
            printf("%s{\"section\":", i ? "," : "");
            cli_json_string(d[i].section);
            printf(",\"rule\":");
            cli_json_string(blvl_status_name(d[i].error.code));
            printf(",\"message\":");
            cli_json_string(d[i].error.message);
            putchar('}');
        }
        puts("]}");
    }
}

/* One line on stderr per section refused: which, its rule, and what the run does without it. */
static void warn_damaged(const char *file, const blvl_probe *p) {
    uint32_t n = 0;
    const blvl_probe_damage *d = blvl_probe_damaged(p, &n);
    for (uint32_t i = 0; i < n; i++) {
        const char *s = d[i].section;
        const char *without = !strcmp(s, "textures")  ? "surfaces are shaded by their normal"
                              : !strcmp(s, "cameras") ? "no camera can be chosen"
                                                      : "surfaces are not lightmapped";
        fprintf(stderr, "blvl probe: %s: warning: section %s is damaged, %s: %s\n", file, s,
                without, d[i].error.message);
    }
}

/* ---- the command ------------------------------------------------------------------------- */

static int render(const blvl_probe *p, const blvl_probe_pose *pose, const char *png, uint32_t w,
                  uint32_t h, unsigned flags) {
    uint8_t *rgba = malloc((size_t)w * h * 4);
    void *file = NULL;
    size_t size = 0;
    blvl_error err;
    if (!rgba)
        return cli_failf(png, BLVL_E_NOMEM, "a %ux%u picture", w, h);
    int rc = CLI_OK;
    if (blvl_probe_render(p, pose, w, h, flags, rgba, &err) != BLVL_OK ||
        blvl_image_write_png(&file, &size, rgba, w, h, NULL, &err) != BLVL_OK)
        rc = cli_fail(png, &err);
    else {
        /* by the out-file rule, as every writer: /dev/null stays a device, a link a link */
        blvl_options opt = {0};
        cli_out_options(&opt);
        if (blvl_file_write(png, file, size, &opt, &err) != BLVL_OK)
            rc = cli_fail(png, &err);
    }
    free(rgba);
    blvl_free(NULL, file);
    return rc;
}

/* --size WxH into w, h; a usage message on failure (NULL when fine). */
static const char *parse_size(const char *a, uint32_t *w, uint32_t *h) {
    char *x, *e;
    unsigned long ww = strtoul(a, &x, 10), hh;
    if (x == a || (*x != 'x' && *x != 'X') || a[0] == '-')
        return "--size expects WxH";
    hh = strtoul(x + 1, &e, 10);
    if (e == x + 1 || *e || x[1] == '-' || ww < 1 || hh < 1 || ww > BLVL_PROBE_MAX_SIZE ||
        hh > BLVL_PROBE_MAX_SIZE)
        return "--size expects WxH, each 1..8192";
    *w = (uint32_t)ww;
    *h = (uint32_t)hh;
    return NULL;
}

/* The sound's path to the pose through the level's acoustics (--listen): 0, or the exit status
 * after its one line on stderr (a level without the section says so). */
static int listen_path(const char *file, blvl_level *lv, const blvl_probe *p,
                       const blvl_probe_pose *pose, sound_at *ls) {
    blvl_acoustics *ac = NULL;
    blvl_error err;
    blvl_status st = blvl_acoustics_new(&ac, lv, NULL, &err);
    if (st == BLVL_E_NOT_FOUND)
        return cli_failf(file, st, "the level has no acoustics section (--listen needs one)");
    if (st != BLVL_OK)
        return cli_fail(file, &err);
    blvl_acoustics_query q = {blvl_probe_world(p), NULL, NULL, NULL};
    st = blvl_acoustics_path_find(ac, ls->at, pose->pos, &q, NULL, &ls->path, &err);
    blvl_acoustics_free(ac);
    return st == BLVL_OK ? CLI_OK : cli_fail(file, &err);
}

int blvl_cmd_probe(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    const char *file = NULL, *camera = NULL, *symbols = NULL, *png = NULL;
    blvl_probe_pose pose = {{0, 0, 0}, 0, 0, 0, 0};
    int have_pose = 0, json = 0, have_size = 0, ends = 0;
    unsigned flags = 0;
    float fov = 0;
    uint32_t w = 640, h = 480;
    sound_at ls = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!ends && !strcmp(a, "--")) {
            ends = 1;
        } else if (!ends && !strcmp(a, "--pose")) {
            float v[6] = {0};
            for (int k = 0; k < 5; k++) {
                const char *why;
                if (i + 1 + k >= argc || (argv[i + 1 + k][0] == '-' && argv[i + 1 + k][1] == '-'))
                    return cli_usage(&help, "--pose expects X Y Z YAW PITCH [ROLL]");
                if ((why = parse_num(argv[i + 1 + k], &v[k])) != NULL)
                    return cli_usage(&help, "--pose: '%s' %s", argv[i + 1 + k], why);
            }
            i += 5;
            if (i + 1 < argc && is_number(argv[i + 1]))
                parse_num(argv[++i], &v[5]);
            pose = (blvl_probe_pose){{v[0], v[1], v[2]}, v[3], v[4], v[5], 0};
            have_pose = 1;
        } else if (!ends && !strcmp(a, "--fov")) {
            if (i + 1 >= argc || parse_num(argv[i + 1], &fov) || !(fov >= 1 && fov <= 170))
                return cli_usage(&help, "--fov expects degrees in 1..170");
            i++;
        } else if (!ends &&
                   (!strcmp(a, "--camera") || !strcmp(a, "--symbols") || !strcmp(a, "--png"))) {
            if (i + 1 >= argc)
                return cli_usage(&help, "%s expects a value", a);
            *(a[2] == 'c' ? &camera : a[2] == 's' ? &symbols : &png) = argv[++i];
        } else if (!ends && !strcmp(a, "--size")) {
            const char *why;
            if (i + 1 >= argc)
                return cli_usage(&help, "--size expects WxH");
            if ((why = parse_size(argv[++i], &w, &h)) != NULL)
                return cli_usage(&help, "%s, not '%s'", why, argv[i]);
            have_size = 1;
        } else if (!ends && !strcmp(a, "--listen")) {
            for (int k = 0; k < 3; k++)
                if (i + 1 + k >= argc || !is_number(argv[i + 1 + k]))
                    return cli_usage(&help, "--listen expects X Y Z, numbers within -1e9..1e9");
            for (int k = 0; k < 3; k++)
                parse_num(argv[++i], &ls.at[k]);
            ls.on = true;
        } else if (!ends && !strcmp(a, "--json")) {
            json = 1;
        } else if (!ends && !strcmp(a, "--colliders")) {
            flags |= BLVL_PROBE_RENDER_COLLIDERS;
        } else if (!ends && !strcmp(a, "--no-textures")) {
            flags |= BLVL_PROBE_RENDER_NO_TEXTURES;
        } else if (!ends && a[0] == '-' && a[1]) {
            return cli_usage(&help, "unknown option '%s'", a);
        } else if (!file) {
            file = a;
        } else {
            return cli_usage(&help, "expects one LEVEL");
        }
    }
    if (!file)
        return cli_usage(&help, "expects a LEVEL");
    if (have_pose == !!camera)
        return cli_usage(&help, "give exactly one of --pose and --camera");
    if (!png && (have_size || flags))
        return cli_usage(&help, "--size, --colliders and --no-textures go with --png");

    blvl_level *lv;
    int rc = cli_open(file, &lv);
    if (rc != CLI_OK)
        return rc;
    blvl_probe *p = NULL;
    blvl_symbols *sym = NULL;
    blvl_error err;
    if (blvl_probe_new(&p, lv, NULL, &err) != BLVL_OK) {
        rc = cli_fail(file, &err);
        goto done;
    }
    if (symbols && blvl_symbols_open_file(&sym, symbols, lv, 0, NULL, &err) != BLVL_OK) {
        rc = cli_fail(symbols, &err);
        goto done;
    }
    if (png && !(flags & BLVL_PROBE_RENDER_NO_TEXTURES) &&
        blvl_probe_load_pictures(p, &err) != BLVL_OK) {
        rc = cli_fail(file, &err);
        goto done;
    }
    warn_damaged(file, p);
    if (camera) {
        bool framed = false;
        if (blvl_probe_camera(p, camera, &pose, &framed, &err) != BLVL_OK) {
            rc = cli_fail(file, &err);
            goto done;
        }
        if (framed)
            fprintf(stderr, "blvl probe: %s: no cameras; framing the whole level\n", file);
    }
    if (fov > 0)
        pose.fov_x = fov;
    if (!(pose.fov_x > 0))
        pose.fov_x = 90;
    if (ls.on && (rc = listen_path(file, lv, p, &pose, &ls)) != CLI_OK)
        goto done;
    blvl_probe_result r;
    blvl_probe_look(p, &pose, &r);
    print(p, sym, &pose, &r, &ls, json);
    if (png)
        rc = render(p, &pose, png, w, h, flags);
done:
    blvl_symbols_free(sym);
    blvl_probe_free(p);
    blvl_close(lv);
    return rc;
}
