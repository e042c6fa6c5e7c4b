/* The .hmap generator of the bake tests (tests/support/hmap_gen.c) checked on its own, so a
 * failure of the collision or geometry tests is the bake's and not the generator's: the same
 * seed gives the same map; every face polygon lies on its plane, behind every other plane, and
 * winds counter-clockwise about its normal; convex meshes are closed with every vertex behind
 * every polygon, the L prism is closed and not convex, the roof is open; floors have a +Y top;
 * the compiled part holds the same brushes, a BSP whose leaves list every world brush, batches
 * of whole triangles with valid indices, and mesh collision in whole triangles. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/hmap.h"
#include "check.h"
#include "hmap_truth.h"
#include "support/hmap_gen.h"

static void same_map(const hmap_gen *a, const hmap_gen *b) {
    CHECK_EQ_INT(a->map.brush_count, b->map.brush_count);
    CHECK_EQ_INT(a->map.mesh_count, b->map.mesh_count);
    CHECK_EQ_INT(a->map.entity_count, b->map.entity_count);
    CHECK(a->units_per_meter == b->units_per_meter);
    bool same = a->map.brush_count == b->map.brush_count;
    for (uint32_t i = 0; same && i < a->map.brush_count; i++) {
        const blvl_hmap_brush *x = &a->map.brushes[i], *y = &b->map.brushes[i];
        same = x->face_count == y->face_count && x->contents == y->contents &&
               x->owner == y->owner &&
               memcmp(x->faces, y->faces, x->face_count * sizeof *x->faces) == 0;
    }
    for (uint32_t i = 0; same && i < a->map.mesh_count; i++)
        same = a->map.meshes[i].vertex_count == b->map.meshes[i].vertex_count &&
               memcmp(a->map.meshes[i].vertices, b->map.meshes[i].vertices,
                      a->map.meshes[i].vertex_count * sizeof(blvl_Vec3)) == 0;
    CHECK(same);
}

/* Every vertex on or behind every polygon's plane (Newell normal), within tol map units. */
static bool convex(const blvl_hmap_mesh *m, double tol) {
    for (uint32_t p = 0; p < m->poly_count; p++) {
        const blvl_hmap_poly *po = &m->polys[p];
        double n[3] = {0, 0, 0}, c[3] = {0, 0, 0};
        for (uint32_t i = 0; i < po->index_count; i++) {
            blvl_Vec3 a = m->vertices[po->indices[i]];
            blvl_Vec3 b = m->vertices[po->indices[(i + 1) % po->index_count]];
            n[0] += (a.y - b.y) * (a.z + b.z);
            n[1] += (a.z - b.z) * (a.x + b.x);
            n[2] += (a.x - b.x) * (a.y + b.y);
            c[0] += a.x / po->index_count, c[1] += a.y / po->index_count;
            c[2] += a.z / po->index_count;
        }
        double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (uint32_t v = 0; v < m->vertex_count; v++) {
            blvl_Vec3 q = m->vertices[v];
            double d = (n[0] * (q.x - c[0]) + n[1] * (q.y - c[1]) + n[2] * (q.z - c[2])) / l;
            if (d > tol)
                return false;
        }
    }
    return true;
}

static void check_one(hmap_gen_opts o) {
    hmap_gen g, h;
    CHECK(hmap_gen_build(&o, &g) == 0);
    CHECK(hmap_gen_build(&o, &h) == 0);
    same_map(&g, &h);
    hmap_gen_free(&h);
    CHECK(g.map.brush_count > 0 && g.floor_count > 0);
    /* polygons */
    uint32_t bad = 0;
    for (uint32_t i = 0; i < g.brush_poly_count; i++) {
        const hmap_gen_poly *p = &g.polys[i];
        const blvl_hmap_brush *b = &g.map.brushes[p->brush];
        blvl_Plane pl[16];
        for (uint32_t f = 0; f < b->face_count && f < 16; f++)
            pl[f] = b->faces[f].plane;
        const blvl_Plane *own = &pl[p->face];
        double nn[3] = {0, 0, 0};
        for (uint32_t k = 0; k < p->count; k++) {
            const double *x = p->pts[k], *y = p->pts[(k + 1) % p->count];
            nn[0] += (x[1] - y[1]) * (x[2] + y[2]);
            nn[1] += (x[2] - y[2]) * (x[0] + y[0]);
            nn[2] += (x[0] - y[0]) * (x[1] + y[1]);
            double d =
                own->normal.x * x[0] + own->normal.y * x[1] + own->normal.z * x[2] - own->dist;
            bad += fabs(d) > 1e-6 * (1 + fabs(own->dist));
            bad += hmap_gen_depth(pl, b->face_count, x) > 1e-6 * (1 + fabs(own->dist));
        }
        bad += nn[0] * own->normal.x + nn[1] * own->normal.y + nn[2] * own->normal.z <= 0;
    }
    CHECK_EQ_INT(bad, 0);
    for (uint32_t i = 0; i < g.floor_count; i++) {
        const blvl_hmap_brush *b = &g.map.brushes[g.floors[i]];
        CHECK(b->face_count == 6 && b->faces[2].plane.normal.y == 1 &&
              b->contents == BLVL_HMAP_SOLID);
    }
    /* meshes */
    uint32_t kinds[4] = {0, 0, 0, 0};
    for (uint32_t i = 0; i < g.map.mesh_count; i++) {
        const blvl_hmap_mesh *m = &g.map.meshes[i];
        bool c = truth_mesh_closed(m), v = convex(m, 1e-3);
        if (g.mesh_convex[i]) {
            CHECK(c && v);
            kinds[0]++;
        } else if (c) {
            CHECK(!v);
            kinds[1]++;
        } else {
            kinds[2]++;
        }
        for (uint32_t p = 0; p < m->poly_count; p++)
            CHECK(m->polys[p].uv_count == 0 || m->polys[p].uv_count == m->polys[p].index_count);
    }
    printf("seed %llu: %u brushes, %u floors, meshes: %u convex, %u closed non-convex, %u open\n",
           (unsigned long long)o.seed, g.map.brush_count, g.floor_count, kinds[0], kinds[1],
           kinds[2]);
    /* the compiled part */
    const blvl_hmap_compiled *c = g.map.compiled;
    if (o.parts & HMAP_GEN_COMPILED) {
        CHECK(c != NULL);
        uint32_t total = 0;
        for (uint32_t i = 0; c && i < c->model_count; i++)
            total += c->models[i].brush_count;
        CHECK_EQ_INT(total,
                     g.map.brush_count); /* every brush, in the world or its entity's model */
        const blvl_hmap_bsp *bsp = c ? &c->bsp : NULL;
        for (uint32_t i = 0; bsp && i < bsp->brush_count; i++) {
            bool listed = false;
            for (uint32_t l = 0; l < bsp->leaf_count; l++)
                for (uint32_t k = 0; k < bsp->leaves[l].brush_count; k++)
                    listed = listed || bsp->leaf_brushes[bsp->leaves[l].first_brush + k] == i;
            CHECK(listed);
        }
        CHECK(bsp && bsp->depth == (o.bsp_split ? 1u : 0u));
        for (uint32_t i = 0; c && i < c->batch_count; i++) {
            CHECK(c->batches[i].index_count % 3 == 0);
            for (uint32_t k = 0; k < c->batches[i].index_count; k++)
                CHECK(c->batches[i].indices[k] < c->batches[i].vertex_count);
        }
        for (uint32_t i = 0; c && i < c->mesh_coll_count; i++)
            CHECK(c->mesh_colls[i].vertex_count % 3 == 0 && c->mesh_colls[i].vertex_count > 0);
    } else {
        CHECK(c == NULL);
    }
    /* the map is one the reader accepts, and it writes back the same bytes */
    void *bytes = NULL, *again = NULL;
    size_t size = 0, size2 = 0;
    blvl_error e;
    blvl_hmap *m = NULL;
    CHECK(blvl_hmap_write(&bytes, &size, &g.map, NULL, &e) == BLVL_OK);
    blvl_status st = bytes ? blvl_hmap_read(&m, bytes, size, NULL, &e) : BLVL_E_ARGUMENT;
    CHECK(st == BLVL_OK);
    if (st != BLVL_OK)
        fprintf(stderr, "seed %llu: %s\n", (unsigned long long)o.seed, e.message);
    if (m) {
        CHECK_EQ_INT(m->brush_count, (o.parts & HMAP_GEN_SOURCE) ? g.map.brush_count : 0);
        CHECK(blvl_hmap_write(&again, &size2, m, NULL, &e) == BLVL_OK);
        CHECK(again && size2 == size && memcmp(again, bytes, size) == 0);
        if (o.mats_after_brsh) /* the chunk order asked for */
            CHECK(m->chunk_count >= 3 && memcmp(m->chunks[1].tag, "BRSH", 4) == 0 &&
                  memcmp(m->chunks[2].tag, "MATS", 4) == 0);
    }
    blvl_hmap_free(m);
    blvl_free(NULL, bytes);
    blvl_free(NULL, again);
    hmap_gen_free(&g);
}

int main(void) {
    check_one((hmap_gen_opts){.seed = 1, .rooms = 5, .parts = 1});
    check_one((hmap_gen_opts){.seed = 2, .rooms = 4, .meshes = 12, .parts = 2});
    check_one((hmap_gen_opts){.seed = 3, .rooms = 3, .parts = 3, .bsp_split = true});
    check_one((hmap_gen_opts){.seed = 5, .rooms = 2, .parts = 2, .no_meta = true});
    check_one((hmap_gen_opts){.seed = 6, .rooms = 2, .parts = 3, .mats_after_brsh = true});
    check_one((hmap_gen_opts){.seed = 4, .rooms = 2, .min_brushes = 200, .parts = 1});
    return check_report("test_hmap_gen");
}
