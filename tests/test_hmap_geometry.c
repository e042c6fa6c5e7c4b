/* Geometry of baked .hmap maps, read back through the public API
 * (blvl_open_memory, the generated geometry and bsym readers) and compared with
 * what the map says, computed here:
 *
 * - source-only bake: each triangle of a .bsym triangle run that names a brush
 * lies on one face plane of that brush (within 1e-3 qu after the unit
 * conversion) and behind all its other planes; the area and triangle count
 * baked for each face equal the face polygon's (clipped here in double
 * precision, map units, then scaled: area by scale^2); triangle count and area
 * per material equal the source polygons' (brush faces and mesh polygons);
 * - compiled bake (a CMPL chunk present): triangle count and area per material
 * equal the CMPL batches'.
 *
 * Units: qu = map units / (unitsPerMeter * 0.0254) (docs/IMPORT-HMAP.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/sections.h"
#include "blvl/sections/bsym.h"
#include "check.h"
#include "files.h"
#include "hmap_truth.h"

#define ON_PLANE 1e-3 /* qu */

typedef struct mstat {
    char name[96];
    uint64_t tris;
    double area;
} mstat;

typedef struct mtable {
    mstat v[64];
    uint32_t n;
} mtable;

static mstat *mt_get(mtable *t, const char *name, uint32_t len) {
    char buf[96];
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    memcpy(buf, name, len);
    buf[len] = 0;
    for (uint32_t i = 0; i < t->n; i++)
        if (strcmp(t->v[i].name, buf) == 0)
            return &t->v[i];
    if (t->n == 64)
        abort();
    mstat *s = &t->v[t->n++];
    memset(s, 0, sizeof *s);
    memcpy(s->name, buf, len + 1);
    return s;
}

static double tri_area(const double a[3], const double b[3], const double c[3]) {
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double x = u[1] * v[2] - u[2] * v[1], y = u[2] * v[0] - u[0] * v[2],
           z = u[0] * v[1] - u[1] * v[0];
    return 0.5 * sqrt(x * x + y * y + z * z);
}

static double poly_area(const double (*p)[3], uint32_t n) {
    double a = 0;
    for (uint32_t i = 1; i + 1 < n; i++)
        a += tri_area(p[0], p[i], p[i + 1]);
    return a;
}

static const char *mat_name(const blvl_hmap *m, int32_t i, uint32_t *len) {
    if (i < 0 || (uint32_t)i >= m->material_count) {
        *len = 0;
        return "";
    }
    *len = m->materials[i].name.size;
    return m->materials[i].name.bytes;
}

/* Whether every material has the wanted triangle count and area times `factor`
 * (1e-4 relative). `report` prints the differences. */
static bool tables_match(const char *name, const mtable *want, const mtable *got, double factor,
                         bool report) {
    bool all = got->n == want->n;
    if (!all && report)
        fprintf(stderr, "%s: %u materials baked, %u wanted\n", name, got->n, want->n);
    for (uint32_t i = 0; i < want->n; i++) {
        const mstat *w = &want->v[i], *g = NULL;
        for (uint32_t k = 0; k < got->n; k++)
            if (strcmp(got->v[k].name, w->name) == 0)
                g = &got->v[k];
        double wa = w->area * factor;
        bool ok = g && g->tris == w->tris && fabs(g->area - wa) <= 1e-4 * wa + 1e-3;
        all = all && ok;
        if (!ok && report)
            fprintf(stderr, "%s: material '%s': want %llu triangles, %.6g qu^2; got %llu, %.6g\n",
                    name, w->name, (unsigned long long)w->tris, wa,
                    g ? (unsigned long long)g->tris : 0ull, g ? g->area : 0.0);
    }
    return all;
}

/* The comparison, and its control: areas 1 % off must not match, or it could
 * not fail. */
static void compare(const char *name, const mtable *want, const mtable *got) {
    CHECK(tables_match(name, want, got, 1.0, true));
    CHECK(!tables_match(name, want, got, 1.01, false));
}

/* Is this brush drawn in a source bake (docs/IMPORT-HMAP.md, "Geometry")? */
static bool drawn(const blvl_hmap *m, const blvl_hmap_brush *b) {
    truth_brush t;
    memset(&t, 0, sizeof t);
    t.contents = b->contents;
    t.trigger_owner = b->owner && strncmp(truth_classname(m, b->owner), "trigger_", 8) == 0;
    return truth_drawn(&t);
}

/* Resolves a triangle run's symbol source (docs/IMPORT-HMAP.md, "What is kept
 * where"): a Face whose index is the running face number over BRSH names that
 * brush's face; past the faces, the running polygon number over MESH names a
 * mesh polygon. */
static void resolve(const blvl_hmap *m, blvl_SymbolSource s, uint32_t *brush, uint32_t *face,
                    uint32_t *mesh) {
    *brush = *face = *mesh = UINT32_MAX;
    if (s.kind != blvl_SourceKind_Face)
        return;
    uint32_t at = 0;
    for (uint32_t b = 0; b < m->brush_count; b++) {
        if (s.index < at + m->brushes[b].face_count) {
            *brush = b;
            *face = s.index - at;
            return;
        }
        at += m->brushes[b].face_count;
    }
    for (uint32_t k = 0; k < m->mesh_count; k++) {
        if (s.index < at + m->meshes[k].poly_count) {
            *mesh = k;
            return;
        }
        at += m->meshes[k].poly_count;
    }
}

/* Bakes in memory through the public calls; 0 on success. */
static int bake(const void *bytes, size_t n, blvl_hmap **m, void **lv, size_t *lsz, void **sym,
                size_t *ssz) {
    blvl_options opt;
    memset(&opt, 0, sizeof opt);
    opt.threads = 1;
    blvl_error e;
    blvl_bake *b = NULL;
    if (blvl_hmap_read(m, bytes, n, NULL, &e) != BLVL_OK) {
        fprintf(stderr, "read: %s\n", e.message);
        return -1;
    }
    int rc = -1;
    if (blvl_bake_new(&b, &opt, &e) == BLVL_OK && blvl_hmap_bake(*m, b, &e) == BLVL_OK &&
        blvl_bake_write_memory(b, lv, lsz, sym, ssz, NULL, &e) == BLVL_OK)
        rc = 0;
    else
        fprintf(stderr, "bake: %s\n", e.message);
    blvl_bake_free(b);
    return rc;
}

static void check_map(const char *name, const void *bytes, size_t n) {
    blvl_hmap *m = NULL;
    void *lv = NULL, *sym = NULL;
    size_t lsz = 0, ssz = 0;
    int rc = bake(bytes, n, &m, &lv, &lsz, &sym, &ssz);
    CHECK_EQ_INT(rc, 0);
    if (rc) {
        blvl_hmap_free(m);
        return;
    }
    double upm = m->meta ? m->meta->units_per_meter : m->compiled->units_per_meter;
    double sc = 1.0 / (upm * 0.0254);
    blvl_level *level = NULL;
    blvl_error e;
    blvl_bytes sec = {0};
    blvl_Geometry g = {0};
    CHECK(blvl_open_memory(&level, lv, lsz, NULL, &e) == BLVL_OK);
    CHECK(level && blvl_level_geometry(level, &sec, &g, &e) == BLVL_OK);
    CHECK(blvl_Symbols_verify(sym, ssz, &e) == BLVL_OK);
    blvl_Symbols S = blvl_Symbols_root(sym);
    uint32_t nidx = blvl_Geometry_indices_len(g), nvert = blvl_Geometry_vertices_len(g);
    uint32_t ntri = nidx / 3;
    /* ---- what was baked, per material ---- */
    mtable got = {0}, want = {0};
    for (uint32_t bi = 0; bi < blvl_Geometry_batches_len(g); bi++) {
        blvl_Batch bt = blvl_Geometry_batches_at(g, bi);
        uint32_t mi = blvl_Batch_material(bt);
        blvl_fb_str s = {"", 0};
        if (mi < blvl_Geometry_materials_len(g))
            s = blvl_Material_name(blvl_Geometry_materials_at(g, mi));
        mstat *st = mt_get(&got, s.ptr ? s.ptr : "", s.ptr ? s.len : 0);
        uint32_t first = blvl_Batch_first_index(bt), count = blvl_Batch_index_count(bt);
        for (uint32_t i = first; i + 2 < first + count + 0u && i + 2 < nidx; i += 3) {
            double p[3][3];
            for (int k = 0; k < 3; k++) {
                blvl_Vertex v = blvl_Geometry_vertices_at(g, blvl_Geometry_indices_at(g, i + k));
                p[k][0] = v.position.x, p[k][1] = v.position.y, p[k][2] = v.position.z;
            }
            st->tris++;
            st->area += tri_area(p[0], p[1], p[2]);
        }
    }
    if (m->compiled) {
        /* ---- compiled: the CMPL batches ---- */
        for (uint32_t bi = 0; bi < m->compiled->batch_count; bi++) {
            const blvl_hmap_batch *bt = &m->compiled->batches[bi];
            uint32_t len;
            const char *nm = mat_name(m, bt->material, &len);
            mstat *st = mt_get(&want, nm, len);
            for (uint32_t i = 0; i + 2 < bt->index_count; i += 3) {
                double p[3][3];
                for (int k = 0; k < 3; k++) {
                    blvl_Vec3 v = bt->vertices[bt->indices[i + k]].pos;
                    p[k][0] = v.x * sc, p[k][1] = v.y * sc, p[k][2] = v.z * sc;
                }
                st->tris++;
                st->area += tri_area(p[0], p[1], p[2]);
            }
        }
        compare(name, &want, &got);
        printf("%s: compiled: %u triangles, %u materials match the CMPL batches\n", name, ntri,
               want.n);
    } else {
        /* ---- source: every face polygon and mesh polygon ---- */
        double(*pts)[3] = malloc(sizeof(double[3]) * 64);
        blvl_Plane *pl = malloc(sizeof *pl * 256);
        double *face_area = NULL;
        uint32_t *face_first = calloc(m->brush_count + 1, sizeof *face_first), nfaces = 0;
        for (uint32_t b = 0; b < m->brush_count; b++) {
            face_first[b] = nfaces;
            nfaces += m->brushes[b].face_count;
        }
        face_first[m->brush_count] = nfaces;
        face_area = calloc(nfaces + 1, sizeof *face_area);
        uint32_t *face_tris = calloc(nfaces + 1, sizeof *face_tris);
        double *want_area = calloc(nfaces + 1, sizeof *want_area);
        uint32_t *want_tris = calloc(nfaces + 1, sizeof *want_tris);
        for (uint32_t b = 0; b < m->brush_count; b++) {
            const blvl_hmap_brush *br = &m->brushes[b];
            for (uint32_t f = 0; f < br->face_count && f < 256; f++)
                pl[f] = br->faces[f].plane;
            for (uint32_t f = 0; f < br->face_count && br->face_count <= 256; f++) {
                uint32_t c = hmap_gen_face_polygon(pl, br->face_count, f, pts, 64);
                if (!c || c > 64 || !drawn(m, br))
                    continue;
                for (uint32_t i = 0; i < c; i++)
                    for (int k = 0; k < 3; k++)
                        pts[i][k] *= sc;
                uint32_t len;
                const char *nm = mat_name(m, br->faces[f].material, &len);
                mstat *st = mt_get(&want, nm, len);
                st->tris += c - 2;
                st->area += poly_area((const double(*)[3])pts, c);
                want_tris[face_first[b] + f] = c - 2;
                want_area[face_first[b] + f] = poly_area((const double(*)[3])pts, c);
            }
        }
        for (uint32_t mi = 0; mi < m->mesh_count; mi++) {
            const blvl_hmap_mesh *me = &m->meshes[mi];
            for (uint32_t k = 0; k < me->poly_count; k++) {
                const blvl_hmap_poly *po = &me->polys[k];
                if (po->index_count < 3 || po->index_count > 64)
                    continue;
                for (uint32_t i = 0; i < po->index_count; i++) {
                    blvl_Vec3 v = me->vertices[po->indices[i]];
                    pts[i][0] = v.x * sc, pts[i][1] = v.y * sc, pts[i][2] = v.z * sc;
                }
                uint32_t len;
                const char *nm = mat_name(m, po->material, &len);
                mstat *st = mt_get(&want, nm, len);
                st->tris += po->index_count - 2;
                st->area += poly_area((const double(*)[3])pts, po->index_count);
            }
        }
        compare(name, &want, &got);
        /* ---- each triangle on its brush's face, inside the brush ---- */
        uint32_t nruns = blvl_Symbols_tri_runs_len(S), nsrc = blvl_Symbols_sources_len(S);
        uint32_t off_plane = 0, outside = 0, unnamed = 0, brush_tris = 0, mesh_tris = 0;
        for (uint32_t r = 0; r < nruns; r++) {
            blvl_TriRun run = blvl_Symbols_tri_runs_at(S, r);
            uint32_t end = r + 1 < nruns ? blvl_Symbols_tri_runs_at(S, r + 1).first_tri : ntri;
            uint32_t brush = UINT32_MAX, face = UINT32_MAX, mesh = UINT32_MAX;
            if (run.source < nsrc)
                resolve(m, blvl_Symbols_sources_at(S, run.source), &brush, &face, &mesh);
            for (uint32_t t = run.first_tri; t < end && t < ntri; t++) {
                double p[3][3];
                for (int k = 0; k < 3; k++) {
                    uint32_t vi = blvl_Geometry_indices_at(g, 3 * t + (uint32_t)k);
                    blvl_Vertex v = blvl_Geometry_vertices_at(g, vi < nvert ? vi : 0);
                    p[k][0] = v.position.x / sc, p[k][1] = v.position.y / sc;
                    p[k][2] = v.position.z / sc;
                }
                if (mesh != UINT32_MAX) {
                    mesh_tris++;
                    continue;
                }
                if (brush == UINT32_MAX) {
                    unnamed++;
                    continue;
                }
                brush_tris++;
                const blvl_hmap_brush *br = &m->brushes[brush];
                uint32_t on = UINT32_MAX;
                for (uint32_t f = 0; f < br->face_count; f++) {
                    if (face != UINT32_MAX && f != face)
                        continue;
                    const blvl_Plane *q = &br->faces[f].plane;
                    bool all = true;
                    for (int k = 0; k < 3; k++)
                        all = all && fabs(q->normal.x * p[k][0] + q->normal.y * p[k][1] +
                                          q->normal.z * p[k][2] - q->dist) *
                                             sc <=
                                         ON_PLANE;
                    if (all) {
                        on = f;
                        break;
                    }
                }
                if (on == UINT32_MAX) {
                    if (off_plane++ < 5)
                        fprintf(stderr, "%s: triangle %u of brush %u face %d is on no face plane\n",
                                name, t, brush, face == UINT32_MAX ? -1 : (int)face);
                    continue;
                }
                for (uint32_t f = 0; f < br->face_count; f++) {
                    const blvl_Plane *q = &br->faces[f].plane;
                    for (int k = 0; k < 3; k++)
                        if ((q->normal.x * p[k][0] + q->normal.y * p[k][1] + q->normal.z * p[k][2] -
                             q->dist) *
                                sc >
                            ON_PLANE) {
                            if (outside++ < 5)
                                fprintf(stderr, "%s: triangle %u of brush %u is outside plane %u\n",
                                        name, t, brush, f);
                        }
                }
                face_tris[face_first[brush] + on]++;
                double q[3][3];
                for (int k = 0; k < 3; k++)
                    for (int j = 0; j < 3; j++)
                        q[k][j] = p[k][j] * sc;
                face_area[face_first[brush] + on] += tri_area(q[0], q[1], q[2]);
            }
        }
        CHECK_EQ_INT(off_plane, 0);
        CHECK_EQ_INT(outside, 0);
        CHECK_EQ_INT(unnamed, 0);
        CHECK(brush_tris > 0);
        /* per face: what was baked on it is its polygon */
        uint32_t face_bad = 0;
        for (uint32_t i = 0; i < nfaces; i++)
            if (face_tris[i] != want_tris[i] ||
                fabs(face_area[i] - want_area[i]) > 1e-4 * want_area[i] + 1e-3) {
                if (face_bad++ < 5)
                    fprintf(stderr, "%s: face %u: want %u triangles, %.6g qu^2; got %u, %.6g\n",
                            name, i, want_tris[i], want_area[i], face_tris[i], face_area[i]);
            }
        CHECK_EQ_INT(face_bad, 0);
        printf("%s: source: %u triangles (%u of brush faces, %u of meshes), %u "
               "materials, %u "
               "faces checked\n",
               name, ntri, brush_tris, mesh_tris, want.n, nfaces);
        free(pts);
        free(pl);
        free(face_first);
        free(face_area);
        free(face_tris);
        free(want_area);
        free(want_tris);
    }
    blvl_bytes_free(&sec);
    blvl_close(level);
    blvl_free(NULL, lv);
    blvl_free(NULL, sym);
    blvl_hmap_free(m);
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
    if (bytes)
        check_map(name, bytes, size);
    blvl_free(NULL, bytes);
    hmap_gen_free(&g);
}

int main(void) {
    const char *src = getenv("BLVL_SRC");
    const char *samples[2] = {"sample", "sample_compiled"};
    for (int i = 0; i < 2; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/tests/data/hmap/%s.hmap", src ? src : ".", samples[i]);
        size_t n = 0;
        uint8_t *bytes = test_slurp(path, &n);
        CHECK(bytes != NULL);
        if (bytes)
            check_map(samples[i], bytes, n);
        free(bytes);
    }
    generated("gen_source_32",
              (hmap_gen_opts){.seed = 21, .rooms = 4, .units_per_meter = 32, .parts = 1});
    generated("gen_source_3937",
              (hmap_gen_opts){.seed = 22, .rooms = 3, .units_per_meter = 39.37f, .parts = 1});
    generated("gen_compiled_64",
              (hmap_gen_opts){.seed = 23, .rooms = 3, .units_per_meter = 64, .parts = 2});
    generated("gen_both_32",
              (hmap_gen_opts){
                  .seed = 24, .rooms = 3, .units_per_meter = 32, .parts = 3, .bsp_split = true});
    return check_report("test_hmap_geometry");
}
