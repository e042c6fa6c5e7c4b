/* Collision of baked .hmap maps, end to end through the command line: `blvl
 * bake` each map (the bundled sample, generated maps of every kind), then ask
 * `blvl trace --contents / --water` about points sampled at least 2 map units
 * inside or outside every brush, and drop a player box onto every floor. The
 * expected answers come from the brush planes in map units
 * (tests/hmap_truth.h), converted with the documented formula qu = map units /
 * (unitsPerMeter * 0.0254), Rockgrave axes = blvl axes; nothing of the bake is
 * reused.
 *
 * The contents table (docs/IMPORT-HMAP.md, "Contents"): solid -> solid; clip -> solid with clip |
 * shot-through; water -> no solid, inside water with the water brush's
 * material; solid+sky -> solid with sky; trigger -> nothing; a func_door brush
 * is solid (the door closed); the full table is docs/IMPORT-HMAP.md's. A convex
 * mesh (closed, every vertex behind every polygon, decided here) is solid
 * inside; near any other mesh (thick triangles) no point is asked about. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/blvl.h"
#include "blvl/sections.h"
#include "check.h"
#include "files.h"
#include "hmap_truth.h"

/* Points keep 2 map units from every brush surface, or 4 qu where 2
 * map units are more than that (the sample is in metres, where 2 units would
 * leave no brush an inside). */
static double margin(const truth *t) {
    return fmin(2.0, 4.0 / t->scale);
}
#define MESH_MARGIN 16.0 /* qu around a mesh: its triangle colliders' thickness and more */
/* The player box of docs/TRACE.md (32 x 56 x 32, eyes up): -16 -24 -16 .. 16
 * 32 16. */
static const double PMIN[3] = {-16, -24, -16}, PMAX[3] = {16, 32, 16};

static const char *bin;
static char dir[256];

static double urand(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

typedef struct point {
    double p[3]; /* map units */
    bool solid, water;
    uint32_t flags;             /* expected sky | clip | shot-through bits */
    const char *water_material; /* the MATS name of a water brush holding it, or NULL */
} point;

/* Classifies p against every brush (and convex mesh): false when it is within
 * the margin of one's surface, or near a mesh that is not convex (its colliders
 * are thick triangles). */
static bool classify(const truth *t, const double p[3], point *out) {
    const double mg = margin(t);
    memset(out, 0, sizeof *out);
    memcpy(out->p, p, sizeof out->p);
    for (uint32_t i = 0; i < t->mesh_count; i++) {
        const truth_box *b = &t->meshes[i];
        double m = mg + MESH_MARGIN / t->scale;
        if (p[0] > b->lo[0] - m && p[0] < b->hi[0] + m && p[1] > b->lo[1] - m &&
            p[1] < b->hi[1] + m && p[2] > b->lo[2] - m && p[2] < b->hi[2] + m)
            return false;
    }
    for (uint32_t i = 0; i < t->brush_count; i++) {
        const truth_brush *b = &t->brushes[i];
        if (!(b->lo[0] <= b->hi[0])) /* encloses nothing */
            continue;
        if (p[0] < b->lo[0] - 2 * mg || p[0] > b->hi[0] + 2 * mg || p[1] < b->lo[1] - 2 * mg ||
            p[1] > b->hi[1] + 2 * mg || p[2] < b->lo[2] - 2 * mg || p[2] > b->hi[2] + 2 * mg)
            continue; /* outside its bounds by more than the margin */
        double d = hmap_gen_depth(b->planes, b->plane_count, p);
        if (d >= -mg && d <= mg)
            return false;
        if (d > mg)
            continue;
        uint32_t flags;
        int kind = truth_kind(b, &flags);
        if (kind == T_SOLID) {
            out->solid = true;
            out->flags |= flags;
        } else if (kind == T_WATER) {
            out->water = true;
            if (!out->water_material)
                out->water_material = b->material;
        }
    }
    return true;
}

typedef struct plist {
    point *v;
    uint32_t n, cap;
} plist;

static void plist_add(plist *l, const point *p) {
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v)
            abort();
    }
    l->v[l->n++] = *p;
}

/* Points inside every brush (a few tries each) and around it. */
static void sample(const truth *t, uint64_t seed, plist *out, uint32_t *n_solid, uint32_t *n_water,
                   uint32_t *n_empty) {
    uint64_t s = seed;
    const double mg = margin(t);
    for (uint32_t i = 0; i < t->brush_count; i++) {
        const truth_brush *b = &t->brushes[i];
        if (!(b->lo[0] <= b->hi[0]))
            continue;
        for (int k = 0; k < 12; k++) {
            double p[3];
            bool around = k >= 6; /* the first six aim inside, the rest around the brush */
            for (int a = 0; a < 3; a++) {
                double ext = around ? 8 * mg : 0;
                p[a] = b->lo[a] - ext + urand(&s) * (b->hi[a] - b->lo[a] + 2 * ext);
            }
            point pt;
            if (!classify(t, p, &pt))
                continue;
            plist_add(out, &pt);
            *n_solid += pt.solid;
            *n_water += pt.water && !pt.solid;
            *n_empty += !pt.solid && !pt.water;
        }
    }
}

/* The water material's name in the level's geometry, for the water query's
 * answer. */
static char *material_name(blvl_level *lv, int32_t index) {
    blvl_bytes sec;
    blvl_Geometry g;
    blvl_error err;
    char *out = NULL;
    if (index < 0 || blvl_level_geometry(lv, &sec, &g, &err) != BLVL_OK)
        return NULL;
    if ((uint32_t)index < blvl_Geometry_materials_len(g)) {
        blvl_fb_str s = blvl_Material_name(blvl_Geometry_materials_at(g, (uint32_t)index));
        out = malloc(s.len + 1);
        if (out) {
            memcpy(out, s.ptr, s.len);
            out[s.len] = 0;
        }
    }
    blvl_bytes_free(&sec);
    return out;
}

/* Blocking colliders for the player: every brush but water and triggers, and
 * every mesh. */
static bool blocks(const truth_brush *b) {
    uint32_t f;
    return truth_kind(b, &f) != T_WATER && truth_kind(b, &f) != T_EMPTY;
}

/* Floors: solid brushes with a face whose normal is exactly +Y. For each, a
 * column above its top face clear of every other blocking brush and mesh, where
 * the player box lands. */
typedef struct drop {
    double from[3], to[3]; /* qu */
    double top;            /* qu */
    uint32_t brush;
} drop;

/* `hint` (may be NULL): x, z in map units to try first. */
static bool find_drop(const truth *t, uint32_t bi, const double *hint, uint64_t *s, drop *out) {
    const truth_brush *b = &t->brushes[bi];
    uint32_t flags;
    if (truth_kind(b, &flags) != T_SOLID || !(b->lo[0] <= b->hi[0]))
        return false;
    uint32_t top = UINT32_MAX;
    for (uint32_t f = 0; f < b->plane_count; f++)
        if (b->planes[f].normal.x == 0 && b->planes[f].normal.y == 1 && b->planes[f].normal.z == 0)
            top = f;
    if (top == UINT32_MAX)
        return false;
    double pts[64][3];
    uint32_t n = hmap_gen_face_polygon(b->planes, b->plane_count, top, pts, 64);
    if (n < 3 || n > 64)
        return false;
    double sc = t->scale, ytop = b->planes[top].dist; /* map units */
    for (int tries = 0; tries < 24; tries++) {
        /* a centre in the face (random convex combination of corners) */
        double w[64], sum = 0, c[3] = {0, 0, 0};
        for (uint32_t i = 0; i < n; i++)
            sum += w[i] = urand(s) + (tries == 0 ? 1 : 0.05);
        for (uint32_t i = 0; i < n; i++)
            for (int a = 0; a < 3; a++)
                c[a] += pts[i][a] * w[i] / sum;
        if (hint && tries == 0)
            c[0] = hint[0], c[2] = hint[1];
        /* the footprint, in map units, must lie inside the face, 1 qu from its
         * edges */
        double fx[2] = {c[0] + PMIN[0] / sc, c[0] + PMAX[0] / sc};
        double fz[2] = {c[2] + PMIN[2] / sc, c[2] + PMAX[2] / sc};
        bool inside = true;
        for (int k = 0; k < 4 && inside; k++) {
            double q[3] = {fx[k & 1], ytop, fz[k >> 1]};
            for (uint32_t f = 0; f < b->plane_count && inside; f++)
                if (f != top && b->planes[f].normal.x * q[0] + b->planes[f].normal.y * q[1] +
                                        b->planes[f].normal.z * q[2] - b->planes[f].dist >
                                    -1.0 / sc)
                    inside = false;
        }
        if (!inside)
            continue;
        /* the swept box, in map units, from just above the top to its highest */
        double start_up = 16.0; /* qu above the resting height */
        double lo[3] = {fx[0] - 1 / sc, ytop + 0.05 / sc, fz[0] - 1 / sc};
        double hi[3] = {fx[1] + 1 / sc, ytop + (-PMIN[1] + start_up + PMAX[1] + 2) / sc,
                        fz[1] + 1 / sc};
        bool clear = true;
        for (uint32_t j = 0; j < t->brush_count && clear; j++) {
            const truth_brush *o = &t->brushes[j];
            if (j == bi || !blocks(o) || !(o->lo[0] <= o->hi[0]))
                continue;
            if (o->lo[0] < hi[0] && o->hi[0] > lo[0] && o->lo[1] < hi[1] && o->hi[1] > lo[1] &&
                o->lo[2] < hi[2] && o->hi[2] > lo[2])
                clear = false;
        }
        for (uint32_t j = 0; j < t->mesh_count && clear; j++) {
            const truth_box *o = &t->meshes[j];
            double m = MESH_MARGIN / sc;
            if (o->lo[0] - m < hi[0] && o->hi[0] + m > lo[0] && o->lo[1] - m < hi[1] &&
                o->hi[1] + m > lo[1] && o->lo[2] - m < hi[2] && o->hi[2] + m > lo[2])
                clear = false;
        }
        if (!clear)
            continue;
        out->brush = bi;
        out->top = ytop * sc;
        out->from[0] = out->to[0] = c[0] * sc;
        out->from[2] = out->to[2] = c[2] * sc;
        out->from[1] = out->top - PMIN[1] + start_up;
        out->to[1] = out->top - 40;
        return true;
    }
    return false;
}

/* Asks `blvl trace` about every point (coordinates in qu times `factor`) and
 * counts the answers that differ from the truth; `report` prints the first few.
 */
static uint32_t point_mismatches(const char *name, const char *level, const truth *t,
                                 const plist *pl, double factor, const char *out, const char *err,
                                 bool report) {
    argl a = {0};
    argl_add(&a, bin);
    argl_add(&a, "trace");
    argl_add(&a, level);
    for (uint32_t i = 0; i < pl->n; i++)
        for (int q = 0; q < 2; q++) {
            argl_add(&a, q ? "--water" : "--contents");
            for (int k = 0; k < 3; k++)
                argl_addf(&a, pl->v[i].p[k] * t->scale * factor);
        }
    int rc = truth_run(a.v, out, err);
    CHECK_EQ_INT(rc, 0);
    argl_free(&a);
    blvl_level *lv = NULL;
    blvl_error e;
    CHECK(blvl_open_file(&lv, level, NULL, &e) == BLVL_OK);
    FILE *f = fopen(out, "r");
    CHECK(f != NULL);
    char line[1024];
    uint32_t bad = 0;
    for (uint32_t i = 0; f && i < pl->n; i++) {
        const point *p = &pl->v[i];
        unsigned count = 0, flags = 0;
        int inside = -1, mat = -1;
        if (!fgets(line, sizeof line, f) ||
            sscanf(line, "contents at %*s %*s %*s count %u flags %x", &count, &flags) != 2) {
            CHECK(!"a contents line");
            break;
        }
        bool ok = (count > 0) == p->solid && (flags & 0x38u) == (p->solid ? p->flags : 0);
        if (!fgets(line, sizeof line, f) ||
            sscanf(line, "water at %*s %*s %*s inside %d material %d", &inside, &mat) != 2) {
            CHECK(!"a water line");
            break;
        }
        ok = ok && inside == (int)p->water;
        if (ok && p->water && p->water_material) { /* the water brush's material, by name */
            char *mn = material_name(lv, mat);
            ok = mn && strcmp(mn, p->water_material) == 0;
            if (!ok && report)
                fprintf(stderr, "%s: water material %d is '%s'\n", name, mat, mn ? mn : "-");
            free(mn);
        }
        if (!ok && bad++ < 10 && report)
            fprintf(stderr,
                    "%s: point (%g %g %g) map units: expected solid %d flags 0x%02x "
                    "water %d, "
                    "got count %u flags 0x%02x water %d\n",
                    name, p->p[0], p->p[1], p->p[2], p->solid, p->flags, p->water, count, flags,
                    inside);
    }
    if (f)
        fclose(f);
    blvl_close(lv);
    return bad;
}

/* Bakes `path` and checks it against `t`. `floors` (may be NULL) are brush
 * indices that must all be dropped onto. */
static void check_level(const char *name, const char *hmap_path, const truth *t,
                        const uint32_t *floors, const double (*spots)[2], uint32_t floor_count,
                        uint64_t seed) {
    char level[512], sym[512], out[512], err[512], pts[512];
    snprintf(level, sizeof level, "%s/%s.blvl", dir, name);
    snprintf(sym, sizeof sym, "%s/%s.bsym", dir, name);
    snprintf(out, sizeof out, "%s/%s.out", dir, name);
    snprintf(err, sizeof err, "%s/%s.err", dir, name);
    snprintf(pts, sizeof pts, "%s/%s.pts", dir, name);
    char *bake[] = {(char *)bin, "bake", (char *)hmap_path, "-o", level, "--symbols", sym, NULL};
    int rc = truth_run(bake, NULL, err);
    CHECK_EQ_INT(rc, 0);
    if (rc != 0) {
        size_t n;
        char *e = (char *)test_slurp(err, &n);
        fprintf(stderr, "%s: blvl bake failed: %s\n", name, e ? e : "?");
        free(e);
        return;
    }
    /* ---- points ---- */
    plist pl = {0};
    uint32_t ns = 0, nw = 0, ne = 0;
    sample(t, seed, &pl, &ns, &nw, &ne);
    printf("%s: %u brushes, %u points: %u solid, %u water, %u empty; %g units "
           "per metre\n",
           name, t->brush_count, pl.n, ns, nw, ne, t->upm);
    uint32_t nsky = 0, nclip = 0;
    for (uint32_t i = 0; i < pl.n; i++) {
        nsky += (pl.v[i].flags & 0x08u) != 0;
        nclip += (pl.v[i].flags & 0x10u) != 0;
    }
    printf("%s: %u points in sky brushes, %u in clip brushes\n", name, nsky, nclip);
    CHECK(ns > 0);
    CHECK(ne > 0);
    CHECK(nw > 0);
    CHECK(!floors || (nsky > 0 && nclip > 0)); /* the generator makes both */
    uint32_t bad = point_mismatches(name, level, t, &pl, 1.0, out, err, true);
    CHECK_EQ_INT(bad, 0);
    /* the control: the same points with the unit conversion 10 % off must
     * disagree somewhere, or this check could not fail */
    uint32_t control = point_mismatches(name, level, t, &pl, 1.1, out, err, false);
    CHECK(control > 0);
    printf("%s: %u of %u points disagree with the conversion 10 %% off (control)\n", name, control,
           pl.n);
    free(pl.v);
    /* ---- player drops ---- */
    drop *drops = calloc(t->brush_count + 1, sizeof *drops);
    uint32_t nd = 0, missing = 0;
    uint64_t s = seed ^ 0xD1B54A32D192ED03ull;
    for (uint32_t i = 0; drops && i < t->brush_count; i++) {
        const double *hint = NULL;
        for (uint32_t k = 0; floors && k < floor_count; k++)
            if (floors[k] == t->brushes[i].index)
                hint = spots[k];
        if (find_drop(t, i, hint, &s, &drops[nd]))
            nd++;
    }
    for (uint32_t k = 0; floors && k < floor_count; k++) {
        bool found = false;
        for (uint32_t i = 0; i < nd && !found; i++)
            found = t->brushes[drops[i].brush].index == floors[k];
        missing += !found;
    }
    /* every floor the generator made has a spot kept clear: each gets a drop */
    CHECK_EQ_INT(missing, 0);
    CHECK(nd > 0);
    char line[1024];
    FILE *f = fopen(pts, "w");
    for (uint32_t i = 0; f && i < nd; i++)
        fprintf(f, "%.9g %.9g %.9g %.9g %.9g %.9g\n", (double)(float)drops[i].from[0],
                (double)(float)drops[i].from[1], (double)(float)drops[i].from[2],
                (double)(float)drops[i].to[0], (double)(float)drops[i].to[1],
                (double)(float)drops[i].to[2]);
    if (f)
        fclose(f);
    char bx[6][32];
    for (int k = 0; k < 3; k++) {
        snprintf(bx[k], sizeof bx[k], "%g", PMIN[k]);
        snprintf(bx[3 + k], sizeof bx[3 + k], "%g", PMAX[k]);
    }
    char *tr[] = {(char *)bin, "trace", level, "--box",    bx[0], bx[1], bx[2],
                  bx[3],       bx[4],   bx[5], "--points", pts,   NULL};
    rc = truth_run(tr, out, err);
    CHECK_EQ_INT(rc, 0);
    f = fopen(out, "r");
    bad = 0;
    for (uint32_t i = 0; f && i < nd; i++) {
        double ex, ey, ez, nx, ny, nz;
        char *at, *an;
        if (!fgets(line, sizeof line, f) || !(at = strstr(line, " end ")) ||
            !(an = strstr(line, " normal ")) ||
            sscanf(at, " end %lf %lf %lf", &ex, &ey, &ez) != 3 ||
            sscanf(an, " normal %lf %lf %lf", &nx, &ny, &nz) != 3) {
            CHECK(!"a trace line");
            break;
        }
        double want = drops[i].top - PMIN[1];
        bool ok = fabs(ey - want) <= 0.1 && nx == 0 && ny == 1 && nz == 0;
        if (!ok && bad++ < 10)
            fprintf(stderr, "%s: drop onto brush %u (top %g qu): %s", name,
                    t->brushes[drops[i].brush].index, drops[i].top, line);
    }
    if (f)
        fclose(f);
    CHECK_EQ_INT(bad, 0);
    printf("%s: %u drops (%u generated floors, %u without a clear column)\n", name, nd, floor_count,
           missing);
    free(drops);
}

static void sample_map(const char *name) {
    const char *src = getenv("BLVL_SRC");
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/hmap/%s.hmap", src ? src : ".", name);
    size_t n = 0;
    uint8_t *bytes = test_slurp(path, &n);
    CHECK(bytes != NULL);
    blvl_hmap *m = NULL;
    blvl_error e;
    if (bytes && blvl_hmap_read(&m, bytes, n, NULL, &e) == BLVL_OK) {
        truth t;
        CHECK(truth_build(m, m->has_brsh, &t) == 0);
        check_level(name, path, &t, NULL, NULL, 0, 99);
        truth_free(&t);
        blvl_hmap_free(m);
    } else {
        CHECK(!"the sample reads");
    }
    free(bytes);
}

static void generated(const char *name, hmap_gen_opts o) {
    hmap_gen g;
    if (hmap_gen_build(&o, &g) != 0) {
        CHECK(!"hmap_gen_build");
        return;
    }
    void *bytes = NULL;
    size_t size = 0;
    blvl_error e;
    CHECK(blvl_hmap_write(&bytes, &size, &g.map, NULL, &e) == BLVL_OK);
    char path[512];
    snprintf(path, sizeof path, "%s/%s.hmap", dir, name);
    CHECK(bytes && test_spit(path, bytes, size) == 0);
    blvl_free(NULL, bytes);
    truth t;
    /* the generator's map always holds its source brushes: the truth for every
     * kind. A compiled-only file names no material for a collision brush: its
     * water is unnamed. */
    CHECK(truth_build(&g.map, true, &t) == 0);
    for (uint32_t i = 0; !(o.parts & HMAP_GEN_SOURCE) && i < t.brush_count; i++)
        t.brushes[i].material = NULL;
    check_level(name, path, &t, g.floors, (const double(*)[2])g.floor_spots, g.floor_count, o.seed);
    truth_free(&t);
    hmap_gen_free(&g);
}

int main(void) {
    bin = getenv("BLVL_BIN");
    if (!bin) {
        fprintf(stderr, "BLVL_BIN is not set\n");
        return 1;
    }
    snprintf(dir, sizeof dir, "/tmp/blvl_hmap_coll_XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    /* the bundled sample and its compiled-only twin, truth from their own brushes
     * as read */
    sample_map("sample");
    sample_map("sample_compiled");
    generated("gen_source_32",
              (hmap_gen_opts){.seed = 11, .rooms = 4, .units_per_meter = 32, .parts = 1});
    generated("gen_compiled_3937", (hmap_gen_opts){.seed = 12,
                                                   .rooms = 4,
                                                   .units_per_meter = 39.37f,
                                                   .parts = 2,
                                                   .bsp_split = true,
                                                   .no_meta = true});
    generated(
        "gen_both_64",
        (hmap_gen_opts){
            .seed = 13, .rooms = 4, .units_per_meter = 64, .parts = 3, .mats_after_brsh = true});
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_report("test_hmap_collision");
}
