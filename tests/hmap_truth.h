/* What a .hmap map says, computed here from its brush planes in map units, independently of the
 * bake: the tests of the .hmap bake (test_hmap_collision.c, test_hmap_geometry.c) compare the
 * baked level against it. Also: running a program with a long argument list (no shell) and the
 * documented unit conversion (docs/IMPORT-HMAP.md: qu = map units / (unitsPerMeter * 0.0254)). */
#ifndef BLVL_TEST_HMAP_TRUTH_H
#define BLVL_TEST_HMAP_TRUTH_H
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blvl/hmap.h"
#include "support/hmap_gen.h"

/* One brush of the truth: its planes as the file stores them, contents, owner, bounds. */
typedef struct truth_brush {
    blvl_Plane *planes;
    uint32_t plane_count;
    uint32_t contents, owner, id;
    uint32_t index;       /* BRSH index (source maps), else the running number over CMPL models */
    bool door;            /* owned by a func_door */
    bool trigger_owner;   /* owned by a trigger_* entity */
    bool mesh;            /* a convex mesh: its polygon planes, not a brush */
    const char *material; /* MATS name of its first face's material (source brushes), or NULL */
    double lo[3], hi[3];  /* bounds of its face polygons; lo > hi when it has none */
} truth_brush;

typedef struct truth_box {
    double lo[3], hi[3];
} truth_box;

typedef struct truth {
    double upm;   /* units per metre */
    double scale; /* qu per map unit = 1 / (upm * 0.0254) */
    truth_brush *brushes;
    uint32_t brush_count;
    truth_box *meshes; /* bounds of every mesh (or CMPL mesh collision set) */
    uint32_t mesh_count;
} truth;

static inline const char *truth_classname(const blvl_hmap *m, uint32_t id) {
    for (uint32_t e = 0; e < m->entity_count; e++)
        if (m->entities[e].id == id)
            return m->entities[e].classname.bytes ? m->entities[e].classname.bytes : "";
    return "";
}

static inline void truth_bounds(truth_brush *b) {
    double pts[64][3];
    b->lo[0] = b->lo[1] = b->lo[2] = INFINITY;
    b->hi[0] = b->hi[1] = b->hi[2] = -INFINITY;
    for (uint32_t f = 0; f < b->plane_count; f++) {
        uint32_t n = hmap_gen_face_polygon(b->planes, b->plane_count, f, pts, 64);
        for (uint32_t i = 0; i < n && i < 64; i++)
            for (int a = 0; a < 3; a++) {
                b->lo[a] = fmin(b->lo[a], pts[i][a]);
                b->hi[a] = fmax(b->hi[a], pts[i][a]);
            }
    }
}

static inline void truth_add_box(truth *t, const blvl_Vec3 *v, uint32_t n) {
    if (!n)
        return;
    truth_box *b = &t->meshes[t->mesh_count++];
    b->lo[0] = b->hi[0] = v[0].x, b->lo[1] = b->hi[1] = v[0].y, b->lo[2] = b->hi[2] = v[0].z;
    for (uint32_t i = 1; i < n; i++) {
        double p[3] = {v[i].x, v[i].y, v[i].z};
        for (int a = 0; a < 3; a++) {
            b->lo[a] = fmin(b->lo[a], p[a]);
            b->hi[a] = fmax(b->hi[a], p[a]);
        }
    }
}

/* A closed mesh: each directed edge of its polygons once and its reverse once (false too when
 * the memory for the edge list is refused). */
static inline bool truth_mesh_closed(const blvl_hmap_mesh *me) {
    uint32_t n = 0;
    for (uint32_t p = 0; p < me->poly_count; p++)
        n += me->polys[p].index_count;
    uint32_t(*e)[2] = malloc(sizeof *e * (n ? n : 1));
    if (!e)
        return false;
    n = 0;
    for (uint32_t p = 0; p < me->poly_count; p++)
        for (uint32_t i = 0; i < me->polys[p].index_count; i++) {
            e[n][0] = me->polys[p].indices[i];
            e[n][1] = me->polys[p].indices[(i + 1) % me->polys[p].index_count];
            n++;
        }
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        uint32_t same = 0, rev = 0;
        for (uint32_t k = 0; k < n; k++) {
            same += e[k][0] == e[i][0] && e[k][1] == e[i][1];
            rev += e[k][0] == e[i][1] && e[k][1] == e[i][0];
        }
        ok = same == 1 && rev == 1;
    }
    free(e);
    return ok;
}

/* A mesh that bounds a convex solid, computed here: closed (every edge once each way) and every
 * vertex within 1e-3 map units behind every polygon's plane (Newell normal through the
 * polygon's centroid). Fills b's planes (one per polygon) when it is. */
static inline bool truth_convex_mesh(const blvl_hmap_mesh *me, truth_brush *b) {
    uint32_t n = 0;
    for (uint32_t p = 0; p < me->poly_count; p++)
        n += me->polys[p].index_count;
    if (me->poly_count < 4 || n > 4096)
        return false;
    bool ok = truth_mesh_closed(me);
    if (!ok)
        return false;
    blvl_Plane *pl = calloc(me->poly_count, sizeof *pl);
    if (!pl)
        return false;
    for (uint32_t p = 0; p < me->poly_count && ok; p++) {
        const blvl_hmap_poly *po = &me->polys[p];
        double nn[3] = {0, 0, 0}, c[3] = {0, 0, 0};
        for (uint32_t i = 0; i < po->index_count; i++) {
            blvl_Vec3 a = me->vertices[po->indices[i]];
            blvl_Vec3 q = me->vertices[po->indices[(i + 1) % po->index_count]];
            nn[0] += ((double)a.y - q.y) * ((double)a.z + q.z);
            nn[1] += ((double)a.z - q.z) * ((double)a.x + q.x);
            nn[2] += ((double)a.x - q.x) * ((double)a.y + q.y);
            c[0] += a.x, c[1] += a.y, c[2] += a.z;
        }
        double l = sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
        if (!(l > 0)) {
            ok = false;
            break;
        }
        for (int k = 0; k < 3; k++)
            nn[k] /= l, c[k] /= po->index_count;
        double d = nn[0] * c[0] + nn[1] * c[1] + nn[2] * c[2];
        for (uint32_t v = 0; v < me->vertex_count && ok; v++) {
            blvl_Vec3 q = me->vertices[v];
            ok = nn[0] * q.x + nn[1] * q.y + nn[2] * q.z - d <= 1e-3;
        }
        pl[p].normal.x = (float)nn[0], pl[p].normal.y = (float)nn[1];
        pl[p].normal.z = (float)nn[2], pl[p].dist = (float)d;
    }
    if (!ok) {
        free(pl);
        return false;
    }
    b->planes = pl;
    b->plane_count = me->poly_count;
    return true;
}

/* From the source brushes when the map has them (has_brsh or a generator's map), else from the
 * CMPL models' collision brushes. 0 on success. */
static inline int truth_build(const blvl_hmap *m, bool use_source, truth *t) {
    memset(t, 0, sizeof *t);
    t->upm = m->meta ? m->meta->units_per_meter : (m->compiled ? m->compiled->units_per_meter : 0);
    if (!(t->upm > 0))
        return -1;
    t->scale = 1.0 / (t->upm * 0.0254);
    uint32_t n = 0;
    if (use_source)
        n = m->brush_count;
    else if (m->compiled)
        for (uint32_t i = 0; i < m->compiled->model_count; i++)
            n += m->compiled->models[i].brush_count;
    uint32_t nmesh = use_source ? m->mesh_count : 0;
    t->brushes = calloc(n + nmesh + 1, sizeof *t->brushes);
    if (!t->brushes)
        return -1;
    if (use_source) {
        for (uint32_t i = 0; i < n; i++) {
            const blvl_hmap_brush *s = &m->brushes[i];
            truth_brush *b = &t->brushes[t->brush_count++];
            b->planes = calloc(s->face_count ? s->face_count : 1, sizeof *b->planes);
            if (!b->planes)
                return -1;
            b->plane_count = s->face_count;
            for (uint32_t f = 0; f < s->face_count; f++)
                b->planes[f] = s->faces[f].plane;
            b->contents = s->contents, b->owner = s->owner, b->id = s->id, b->index = i;
            if (s->face_count && s->faces[0].material >= 0 &&
                (uint32_t)s->faces[0].material < m->material_count)
                b->material = m->materials[s->faces[0].material].name.bytes;
        }
    } else if (m->compiled) {
        for (uint32_t k = 0; k < m->compiled->model_count; k++) {
            const blvl_hmap_model *md = &m->compiled->models[k];
            for (uint32_t i = 0; i < md->brush_count; i++) {
                const blvl_hmap_cbrush *s = &md->brushes[i];
                truth_brush *b = &t->brushes[t->brush_count];
                b->planes = calloc(s->plane_count ? s->plane_count : 1, sizeof *b->planes);
                if (!b->planes)
                    return -1;
                b->plane_count = s->plane_count;
                memcpy(b->planes, s->planes, sizeof *b->planes * s->plane_count);
                b->contents = s->contents, b->owner = md->entity_id, b->id = s->source_id;
                b->index = t->brush_count++;
            }
        }
    }
    for (uint32_t i = 0; i < t->brush_count; i++) {
        truth_brush *b = &t->brushes[i];
        const char *cn = b->owner ? truth_classname(m, b->owner) : "";
        b->door = strcmp(cn, "func_door") == 0;
        b->trigger_owner = strncmp(cn, "trigger_", 8) == 0;
        truth_bounds(b);
    }
    uint32_t nm = use_source ? m->mesh_count : (m->compiled ? m->compiled->mesh_coll_count : 0);
    t->meshes = calloc(nm ? nm : 1, sizeof *t->meshes);
    if (!t->meshes)
        return -1;
    for (uint32_t i = 0; i < nm; i++) {
        if (use_source) {
            const blvl_hmap_mesh *me = &m->meshes[i];
            const char *cn = me->owner ? truth_classname(m, me->owner) : "";
            if (strncmp(cn, "trigger_", 8) == 0)
                continue; /* not solid */
            if (truth_convex_mesh(me, &t->brushes[t->brush_count])) {
                truth_brush *b = &t->brushes[t->brush_count++];
                b->mesh = true;
                b->contents = BLVL_HMAP_SOLID;
                b->owner = me->owner;
                b->index = UINT32_MAX;
                truth_bounds(b);
                continue;
            }
            truth_add_box(t, me->vertices, me->vertex_count);
        } else {
            truth_add_box(t, m->compiled->mesh_colls[i].vertices,
                          m->compiled->mesh_colls[i].vertex_count);
        }
    }
    return 0;
}

static inline void truth_free(truth *t) {
    for (uint32_t i = 0; t->brushes && i < t->brush_count; i++)
        free(t->brushes[i].planes);
    free(t->brushes);
    free(t->meshes);
    memset(t, 0, sizeof *t);
}

/* The contents table (docs/IMPORT-HMAP.md, "Contents"; first match wins): a trigger entity's
 * brush or the trigger bit -> nothing; solid or sky -> solid, with the sky bit when sky is set;
 * clip -> solid with clip | shot-through; water -> water; anything else -> nothing (a detail
 * brush). A convex mesh is solid. */
enum { T_EMPTY, T_SOLID, T_WATER };
static inline int truth_kind(const truth_brush *b, uint32_t *flags) {
    uint32_t c = b->contents;
    *flags = 0;
    if (b->mesh)
        return T_SOLID;
    if (b->trigger_owner || (c & BLVL_HMAP_TRIGGER))
        return T_EMPTY;
    if (c & (BLVL_HMAP_SOLID | BLVL_HMAP_SKY)) {
        *flags = (c & BLVL_HMAP_SKY) ? 0x08u : 0u;
        return T_SOLID;
    }
    if (c & BLVL_HMAP_CLIP) {
        *flags = 0x30; /* clip | shot-through */
        return T_SOLID;
    }
    if (c & BLVL_HMAP_WATER)
        return T_WATER;
    return T_EMPTY;
}

/* Drawn in a source bake (docs/IMPORT-HMAP.md, "Geometry"): every brush but trigger volumes
 * and clip brushes (clip without solid or sky). */
static inline bool truth_drawn(const truth_brush *b) {
    uint32_t c = b->contents;
    if (b->trigger_owner || (c & BLVL_HMAP_TRIGGER))
        return false;
    return !((c & BLVL_HMAP_CLIP) && !(c & (BLVL_HMAP_SOLID | BLVL_HMAP_SKY)));
}

/* Runs argv[0] with argv (no shell, so the list may be long), stdout to out_path (NULL =
 * inherited), stderr to err_path (NULL = inherited). Returns the exit status, -1 on failure. */
static inline int truth_run(char *const *argv, const char *out_path, const char *err_path) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (out_path) {
            int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0 || dup2(fd, 1) < 0)
                _exit(127);
            close(fd);
        }
        if (err_path) {
            int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0 || dup2(fd, 2) < 0)
                _exit(127);
            close(fd);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A tiny argv builder: strings are copied. */
typedef struct argl {
    char **v;
    size_t n, cap;
} argl;
static inline void argl_add(argl *a, const char *s) {
    if (a->n + 2 > a->cap) {
        size_t c = a->cap ? a->cap * 2 : 64;
        char **v = realloc(a->v, c * sizeof *v);
        if (!v)
            abort();
        a->v = v, a->cap = c;
    }
    size_t l = strlen(s);
    char *d = malloc(l + 1);
    if (!d)
        abort();
    memcpy(d, s, l + 1);
    a->v[a->n++] = d;
    a->v[a->n] = NULL;
}
static inline void argl_addf(argl *a, double v) {
    char buf[64];
    snprintf(buf, sizeof buf, "%.9g", (double)(float)v);
    argl_add(a, buf);
}
static inline void argl_free(argl *a) {
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof *a);
}

#endif
