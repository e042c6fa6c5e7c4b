/* blvl_riot_bake on levels built by hand (tests/riot_hand.h), read back through the public API
 * (blvl_open_memory, the generated section readers, the trace world of the level's sim). The
 * expected answers are computed here from the records with the rules docs/IMPORT-RIOT.md states
 * (X = 128 (origin_x + col), Y = (world_height + 2 (raw - 0x8000)) / 16, Z = 128 (origin_z +
 * row); the division bit picks the diagonal), nothing of the bake reused:
 *
 * - geometry: every vertex at the height its record gives, triangle count = 2 cells - holes -
 *   invisible, each triangle on the side of its cell's diagonal the division bit gives, with the
 *   material of its texture reference, facing up (floor, between) or down (ceiling);
 * - collision by point queries 1 qu off the surface of every solid triangle (counting those where
 *   the other diagonal would answer the opposite), the documented thickness, holes empty at every
 *   height, ceilings and between layers;
 * - a player box dropped on flat and sloped floors of many cells and layers and swept across them
 *   stops nowhere (and a control with a step in the way does stop);
 * - vertex colours: hand-worked Lambert numbers; entities; symbols; determinism; refusals. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/riot.h"
#include "blvl/sections.h"
#include "blvl/sections/bsym.h"
#include "blvl/symbols.h"
#include "blvl/trace.h"
#include "check.h"
#include "riot_hand.h"

static const float PMIN[3] = {-16, -24, -16}, PMAX[3] = {16, 32, 16};

static uint64_t rng = 2026;
static uint32_t urand(uint32_t n) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

typedef struct baked {
    void *lv, *sym;
    size_t lsz, ssz;
    blvl_level *level;
    blvl_trace_world *world;
    blvl_bytes gsec;
    blvl_Geometry g;
} baked;

static blvl_status bake_level(const blvl_riot_level *lv, baked *out, blvl_error *err) {
    memset(out, 0, sizeof *out);
    blvl_bake *b = NULL;
    blvl_status st = blvl_bake_new(&b, NULL, err);
    if (st == BLVL_OK)
        st = blvl_riot_bake(lv, b, err);
    if (st == BLVL_OK)
        st = blvl_bake_write_memory(b, &out->lv, &out->lsz, &out->sym, &out->ssz, NULL, err);
    blvl_bake_free(b);
    if (st != BLVL_OK)
        return st;
    if ((st = blvl_open_memory(&out->level, out->lv, out->lsz, NULL, err)) != BLVL_OK)
        return st;
    if ((st = blvl_trace_world_from_level(&out->world, out->level, NULL, err)) != BLVL_OK)
        return st;
    st = blvl_level_geometry(out->level, &out->gsec, &out->g, err);
    return st == BLVL_E_NOT_FOUND ? BLVL_OK : st;
}

static void baked_free(baked *b) {
    blvl_bytes_free(&b->gsec);
    blvl_trace_world_free(b->world);
    blvl_close(b->level);
    blvl_free(NULL, b->lv);
    blvl_free(NULL, b->sym);
}

static double height_wu(const blvl_riot_layer *l, uint32_t row, uint32_t col) {
    const blvl_riot_vertex *v = &l->vertices[(size_t)row * (l->width + 1) + col];
    return (double)l->world_height + 2.0 * ((double)v->raw_height - 32768.0);
}

/* Surface height (qu) at (u, v) in the cell (u along +X from a, v along +Z from a). */
static double surf(const blvl_riot_layer *l, uint32_t r, uint32_t c, double u, double v, int div) {
    double a = height_wu(l, r, c), b = height_wu(l, r, c + 1), cc = height_wu(l, r + 1, c),
           d = height_wu(l, r + 1, c + 1), h;
    if (div == 0)
        h = u + v <= 1 ? a + u * (b - a) + v * (cc - a)
                       : d + (1 - u) * (cc - d) + (1 - v) * (b - d);
    else
        h = u >= v ? a + u * (b - a) + v * (d - b) : a + v * (cc - a) + u * (d - cc);
    return h / 16.0;
}

/* The sample (u, v) inside triangle t (0 left, 1 right) of a division: 0.6 of the corner off the
 * diagonal, 0.2 of each other. */
static void sample_uv(int div, int t, double *u, double *v) {
    static const double UV[2][2][2] = {{{0.2, 0.2}, {0.8, 0.8}}, {{0.2, 0.8}, {0.8, 0.2}}};
    *u = UV[div][t][0];
    *v = UV[div][t][1];
}

static uint32_t contents(const baked *b, double x, double y, double z) {
    float p[3] = {(float)x, (float)y, (float)z};
    return blvl_trace_point_contents(b->world, NULL, p, NULL, NULL);
}

/* ---- the mixed level: three layer types, both divisions, holes, invisible ------------------ */

#define REF_A 0x00010005u
#define REF_B 0x00010006u
#define REF_C 0x00020001u
#define REF_D 0x00070003u /* database 7 is in no reference: "db7#3" */

static void build_mixed(blvl_riot_level *lv) {
    memset(lv, 0, sizeof *lv);
    lv->name = riot_hand_str("Mixed level");
    lv->max_width = 64;
    lv->max_height = 64;
    lv->layers_unknown = 1;
    lv->dbref_count = 2;
    lv->dbrefs = riot_hand_calloc(2, sizeof *lv->dbrefs);
    lv->dbrefs[0] = (blvl_riot_dbref){1, 0, riot_hand_str("textures/Dragon.rrc")};
    lv->dbrefs[1] = (blvl_riot_dbref){2, 9, riot_hand_str("odd.rrc")};
    lv->layer_count = 3;
    lv->layers = riot_hand_calloc(3, sizeof *lv->layers);
    const uint32_t refs[4] = {REF_A, REF_B, REF_C, REF_D};
    /* floor 8 x 6 at the origin, heights +-25 qu around 100 qu; rows 4..5 flat */
    riot_hand_layer(&lv->layers[0], 10, 0, 8, 6, 0, 0, 1600.0f, REF_A);
    /* ceiling 4 x 4 at cells (20, 0), around 1000 qu */
    riot_hand_layer(&lv->layers[1], 11, 1, 4, 4, 20, 0, 16000.0f, REF_B);
    /* between 4 x 4 at cells (30, 0), around 500 qu */
    riot_hand_layer(&lv->layers[2], 12, 2, 4, 4, 30, 0, 8000.0f, REF_C);
    for (uint32_t li = 0; li < 3; li++) {
        blvl_riot_layer *l = &lv->layers[li];
        for (uint32_t r = 0; r <= l->height; r++)
            for (uint32_t c = 0; c <= l->width; c++) {
                blvl_riot_vertex *v = riot_hand_vertex(l, r, c);
                bool flat = li == 0 && r >= 4;
                v->raw_height = (uint16_t)(flat ? 0x8000 : 0x8000 - 200 + (int)urand(401));
                v->type = (uint8_t)((r * 7 + c * 3 + li) % 76);
            }
        for (uint32_t r = 0; r < l->height; r++)
            for (uint32_t c = 0; c < l->width; c++) {
                blvl_riot_cell *cell = riot_hand_cell(l, r, c);
                cell->flags = (uint16_t)(urand(2) | (urand(4) << 1));
                for (int t = 0; t < 2; t++) {
                    uint32_t pick = urand(10);
                    cell->texture[t] = pick == 0   ? BLVL_RIOT_HOLE
                                       : pick == 1 ? BLVL_RIOT_INVISIBLE
                                                   : refs[urand(4)];
                }
                for (int k = 0; k < 8; k++)
                    cell->uv[k] = (uint16_t)urand(65536);
            }
    }
    /* one cell of the flat rows with the same texture on both sides, for the merged prism */
    riot_hand_cell(&lv->layers[0], 5, 7)->texture[0] = BLVL_RIOT_HOLE;
    lv->layers[0].visible_count = 2;
    lv->layers[0].visible = riot_hand_calloc(2, sizeof(uint32_t));
    lv->layers[0].visible[0] = 1;
    lv->layers[0].visible[1] = 2;
    lv->layers[1].vertices[3].constant = 2;
    lv->has_groups = true;
    lv->group_count = 1;
    lv->groups = riot_hand_calloc(1, sizeof *lv->groups);
    lv->groups[0].name = riot_hand_str("Odd group");
    lv->groups[0].layer_count = 2;
    lv->groups[0].layers = riot_hand_calloc(2, sizeof(uint32_t));
    lv->groups[0].layers[0] = 10;
    lv->groups[0].layers[1] = 12;
    lv->has_objects = true;
    lv->object_count = 3;
    lv->objects = riot_hand_calloc(3, sizeof *lv->objects);
    for (uint32_t i = 0; i < 3; i++) {
        blvl_riot_object *o = &lv->objects[i];
        o->id = 100 + 7 * i;
        o->class_id = (uint16_t)(40 + i);
        o->class_db = 1;
        o->lighting_layer = 10;
        o->position[0] = 2048.0f * (float)i + 160.0f;
        o->position[1] = 1608.0f;
        o->position[2] = 4096.0f;
        o->flags = 1;
        o->rotation[0] = 0;
        o->rotation[1] = (uint16_t)(90 * i);
        o->rotation[2] = 359;
        o->scale[0] = o->scale[1] = o->scale[2] = 1.0f;
    }
    blvl_riot_object *o = &lv->objects[1];
    o->flags = 0x101;
    o->scale[0] = 2.0f, o->scale[1] = 0.5f, o->scale[2] = 1.25f;
    o->link_count = 2;
    o->links = riot_hand_calloc(2, sizeof(uint16_t));
    o->links[0] = 2;
    o->links[1] = 0;
    o->data_size = 2;
    o->param_data = riot_hand_calloc(2, sizeof(uint32_t));
    o->param_data[0] = 0x04030201u;
    o->param_data[1] = 0xDEADBEEFu;
    o->param_count = 2;
    o->param_indices = riot_hand_calloc(2, sizeof(uint16_t));
    o->param_indices[0] = 3;
    o->param_indices[1] = 0;
    o->param_defs = riot_hand_calloc(2, sizeof *o->param_defs);
    o->param_defs[0] = (blvl_riot_param_def){5, riot_hand_str("Health")};
    o->param_defs[1] = (blvl_riot_param_def){1, riot_hand_str("Odd\\name\x01")};
}

static const char *want_material(uint32_t ref, char *buf, size_t n) {
    uint16_t db = (uint16_t)(ref >> 16), id = (uint16_t)ref;
    const char *path = db == 1 ? "textures/Dragon.rrc" : db == 2 ? "odd.rrc" : NULL;
    if (path)
        snprintf(buf, n, "%s#%u", path, (unsigned)id);
    else
        snprintf(buf, n, "db%u#%u", (unsigned)db, (unsigned)id);
    return buf;
}

static bool fbeq(blvl_fb_str s, const char *want) {
    return s.ptr && s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

/* Which layer, row and column a geometry point belongs to (by its X, Z). */
static bool locate(const blvl_riot_level *lv, double x, double z, uint32_t *li, double *col,
                   double *row) {
    for (uint32_t i = 0; i < lv->layer_count; i++) {
        const blvl_riot_layer *l = &lv->layers[i];
        double c = x / 128.0 - l->origin_x, r = z / 128.0 - l->origin_z;
        if (c >= -1e-6 && c <= l->width + 1e-6 && r >= -1e-6 && r <= l->height + 1e-6) {
            *li = i, *col = c, *row = r;
            return true;
        }
    }
    return false;
}

static void test_geometry(const blvl_riot_level *lv, const baked *b) {
    blvl_Geometry g = b->g;
    uint32_t nvert = blvl_Geometry_vertices_len(g), nidx = blvl_Geometry_indices_len(g);
    /* every vertex at its record's height */
    uint32_t bad_height = 0, off_grid = 0;
    for (uint32_t i = 0; i < nvert; i++) {
        blvl_Vertex v = blvl_Geometry_vertices_at(g, i);
        uint32_t li;
        double c, r;
        if (!locate(lv, v.position.x, v.position.z, &li, &c, &r) || c != floor(c) ||
            r != floor(r)) {
            off_grid++;
            continue;
        }
        float want = (float)(height_wu(&lv->layers[li], (uint32_t)r, (uint32_t)c) / 16.0);
        bad_height += v.position.y != want;
    }
    CHECK(nvert > 0);
    CHECK_EQ_INT(off_grid, 0);
    CHECK_EQ_INT(bad_height, 0);
    /* triangle count */
    uint64_t cells = 0, holes = 0, invisible = 0;
    for (uint32_t i = 0; i < lv->layer_count; i++) {
        const blvl_riot_layer *l = &lv->layers[i];
        cells += (uint64_t)l->width * l->height;
        for (size_t k = 0; k < (size_t)l->width * l->height; k++)
            for (int t = 0; t < 2; t++) {
                holes += l->cells[k].texture[t] == BLVL_RIOT_HOLE;
                invisible += l->cells[k].texture[t] == BLVL_RIOT_INVISIBLE;
            }
    }
    CHECK(holes > 0 && invisible > 0);
    CHECK_EQ_INT(nidx / 3, 2 * cells - holes - invisible);
    /* each triangle: on its side of the diagonal, its reference's material, facing its way */
    uint32_t wrong_side = 0, wrong_mat = 0, wrong_face = 0, wrong_uv = 0, seen = 0;
    for (uint32_t bi = 0; bi < blvl_Geometry_batches_len(g); bi++) {
        blvl_Batch bt = blvl_Geometry_batches_at(g, bi);
        blvl_fb_str mname =
            blvl_Material_name(blvl_Geometry_materials_at(g, blvl_Batch_material(bt)));
        uint32_t first = blvl_Batch_first_index(bt), count = blvl_Batch_index_count(bt);
        for (uint32_t i = first; i + 2 < first + count + 0u; i += 3) {
            double p[3][3], uv[3][2];
            for (int k = 0; k < 3; k++) {
                blvl_Vertex v = blvl_Geometry_vertices_at(g, blvl_Geometry_indices_at(g, i + k));
                p[k][0] = v.position.x, p[k][1] = v.position.y, p[k][2] = v.position.z;
                uv[k][0] = v.uv.x, uv[k][1] = v.uv.y;
            }
            double cx = (p[0][0] + p[1][0] + p[2][0]) / 3, cz = (p[0][2] + p[1][2] + p[2][2]) / 3;
            uint32_t li;
            double c, r;
            if (!locate(lv, cx, cz, &li, &c, &r)) {
                wrong_side++;
                continue;
            }
            const blvl_riot_layer *l = &lv->layers[li];
            uint32_t ci = (uint32_t)c, ri = (uint32_t)r;
            double u = c - ci, v = r - ri;
            const blvl_riot_cell *cell = &l->cells[(size_t)ri * l->width + ci];
            int div = cell->flags & 1;
            int t = div == 0 ? (u + v < 1 ? 0 : 1) : (u < v ? 0 : 1);
            /* every corner of the triangle is a corner of that side */
            for (int k = 0; k < 3; k++) {
                double pu = p[k][0] / 128.0 - l->origin_x - ci,
                       pv = p[k][2] / 128.0 - l->origin_z - ri;
                bool ok = div == 0 ? (t == 0 ? pu + pv <= 1 : pu + pv >= 1)
                                   : (t == 0 ? pu <= pv : pu >= pv);
                wrong_side += !ok;
                /* its UV: the corner's pair of the file order Uc Ud Ub Ua Vc Vd Vb Va */
                int q = (pu > 0.5) + 2 * (pv > 0.5); /* a b c d */
                static const int U[4] = {3, 2, 0, 1}, V[4] = {7, 6, 4, 5};
                wrong_uv += fabs(uv[k][0] - cell->uv[U[q]] / 65535.0) > 1e-6 ||
                            fabs(uv[k][1] - cell->uv[V[q]] / 65535.0) > 1e-6;
            }
            char want[64];
            wrong_mat += !fbeq(mname, want_material(cell->texture[t], want, sizeof want));
            /* winding: the normal of (p1 - p0) x (p2 - p0) */
            double e1[3], e2[3];
            for (int a = 0; a < 3; a++)
                e1[a] = p[1][a] - p[0][a], e2[a] = p[2][a] - p[0][a];
            double ny = e1[2] * e2[0] - e1[0] * e2[2];
            wrong_face += l->type == 1 ? !(ny < 0) : !(ny > 0);
            seen++;
        }
    }
    CHECK_EQ_INT(seen, nidx / 3);
    CHECK_EQ_INT(wrong_side, 0);
    CHECK_EQ_INT(wrong_mat, 0);
    CHECK_EQ_INT(wrong_face, 0);
    CHECK_EQ_INT(wrong_uv, 0);
}

static void test_points(const blvl_riot_level *lv, const baked *b) {
    uint32_t wrong = 0, flips = 0, asked = 0, hole_wrong = 0, holes = 0, thick_wrong = 0;
    for (uint32_t li = 0; li < lv->layer_count; li++) {
        const blvl_riot_layer *l = &lv->layers[li];
        double side = l->type == 1 ? -1.0 : 1.0; /* the empty side: up for floor, between */
        double thick = l->type == 0 ? 32 : l->type == 1 ? 32 : 4;
        for (uint32_t r = 0; r < l->height; r++)
            for (uint32_t c = 0; c < l->width; c++) {
                const blvl_riot_cell *cell = &l->cells[(size_t)r * l->width + c];
                int div = cell->flags & 1;
                for (int t = 0; t < 2; t++) {
                    double u, v;
                    sample_uv(div, t, &u, &v);
                    double x = 128.0 * (l->origin_x + c + u), z = 128.0 * (l->origin_z + r + v);
                    double y = surf(l, r, c, u, v, div), other = surf(l, r, c, u, v, !div);
                    if (cell->texture[t] == BLVL_RIOT_HOLE) {
                        for (double h = -3000; h <= 3000; h += 7.0)
                            hole_wrong += contents(b, x, h, z) != 0;
                        holes++;
                        continue;
                    }
                    asked++;
                    wrong += contents(b, x, y + side, z) != 0;
                    wrong += contents(b, x, y - side, z) == 0;
                    /* the other diagonal's surface is more than 1 qu away on the wrong side:
                     * its answer would be the opposite of ours at one of the two points */
                    flips += fabs(other - y) > 1.0;
                    /* at least the thickness deep; a cell made one hull reaches the thickness
                     * below the other diagonal's surface where that is deeper */
                    double deep = side > 0 ? fmin(y, other) : fmax(y, other);
                    thick_wrong += contents(b, x, y - side * (thick - 1), z) == 0;
                    thick_wrong += contents(b, x, deep - side * (thick + 1), z) != 0;
                }
            }
    }
    printf("points: %u triangles asked, %u where the other diagonal differs by > 1 qu, %u hole "
           "columns\n",
           asked, flips, holes);
    CHECK(asked > 100);
    CHECK(flips > 50);
    CHECK(holes > 5);
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT(hole_wrong, 0);
    CHECK_EQ_INT(thick_wrong, 0);
}

/* An entity's value for key, or NULL. */
static int entity_find(blvl_Entities es, const char *cls, const char *key, const char *value) {
    for (uint32_t i = 0; i < blvl_Entities_entities_len(es); i++) {
        blvl_Entity e = blvl_Entities_entities_at(es, i);
        if (!fbeq(blvl_Entity_classname(e), cls))
            continue;
        for (uint32_t k = 0; k < blvl_Entity_pairs_len(e); k++) {
            blvl_KeyValue kv = blvl_Entity_pairs_at(e, k);
            if (fbeq(blvl_KeyValue_key(kv), key) && fbeq(blvl_KeyValue_value(kv), value))
                return (int)i;
        }
    }
    return -1;
}

static bool entity_has(blvl_Entities es, int index, const char *key, const char *value) {
    if (index < 0)
        return false;
    blvl_Entity e = blvl_Entities_entities_at(es, (uint32_t)index);
    for (uint32_t k = 0; k < blvl_Entity_pairs_len(e); k++) {
        blvl_KeyValue kv = blvl_Entity_pairs_at(e, k);
        if (fbeq(blvl_KeyValue_key(kv), key))
            return fbeq(blvl_KeyValue_value(kv), value);
    }
    return false;
}

static void test_entities(const blvl_riot_level *lv, const baked *b) {
    blvl_bytes sec = {0};
    blvl_Entities es;
    blvl_error err;
    CHECK_EQ_INT(blvl_level_entities(b->level, &sec, &es, &err), BLVL_OK);
    /* 1 level + 2 databases + 3 layers + 1 group + 3 objects */
    CHECK_EQ_INT(blvl_Entities_entities_len(es), 10);
    int e = entity_find(es, "riot_level", "name", "Mixed level");
    CHECK(entity_has(es, e, "layers_unknown", "1"));
    e = entity_find(es, "riot_database", "path", "odd.rrc");
    CHECK(entity_has(es, e, "index", "2") && entity_has(es, e, "unknown", "9"));
    e = entity_find(es, "riot_layer", "id", "12");
    CHECK(entity_has(es, e, "type", "between"));
    CHECK(entity_has(es, e, "origin_cells", "30 0"));
    CHECK(entity_has(es, e, "world_height", "8000"));
    CHECK(entity_has(es, e, "light_color", "ffffff00"));
    e = entity_find(es, "riot_layer", "id", "10");
    CHECK(entity_has(es, e, "visible_layers", "1 2"));
    CHECK(entity_has(es, e, "type", "floor"));
    /* vertex types, one hex byte per vertex: vertex (0, 1) of layer 0 has type 3 */
    char types[2 * 9 * 7 + 1];
    const blvl_riot_layer *l0 = &lv->layers[0];
    for (uint32_t i = 0; i < 9 * 7; i++)
        snprintf(types + 2 * i, 3, "%02x", l0->vertices[i].type);
    CHECK(entity_has(es, e, "vertex_types", types));
    CHECK(strncmp(types, "0003", 4) == 0);
    /* the constant byte: only the ceiling, whose vertex 3 holds 2, lists them */
    e = entity_find(es, "riot_layer", "id", "11");
    CHECK(e >= 0);
    blvl_Entity ent = blvl_Entities_entities_at(es, (uint32_t)(e < 0 ? 0 : e));
    bool has_const = false;
    for (uint32_t k = 0; k < blvl_Entity_pairs_len(ent); k++) {
        blvl_KeyValue kv = blvl_Entity_pairs_at(ent, k);
        blvl_fb_str v = blvl_KeyValue_value(kv);
        if (fbeq(blvl_KeyValue_key(kv), "vertex_constants"))
            has_const = v.len == 50 && memcmp(v.ptr, "01010102", 8) == 0;
    }
    CHECK(has_const);
    CHECK(entity_has(es, entity_find(es, "riot_layer", "id", "10"), "type", "floor"));
    e = entity_find(es, "riot_layer_group", "name", "Odd group");
    CHECK(entity_has(es, e, "layers", "10 12"));
    /* objects: position / 16 as origin, links as object ids, parameter bytes as stored */
    e = entity_find(es, "riot_object", "id", "107");
    CHECK(entity_has(es, e, "origin", "138 100.5 256"));
    CHECK(entity_has(es, e, "position", "2208 1608 4096"));
    CHECK(entity_has(es, e, "angles", "0 90 359"));
    CHECK(entity_has(es, e, "scale", "2 0.5 1.25"));
    CHECK(entity_has(es, e, "flags", "0x00000101"));
    CHECK(entity_has(es, e, "links", "114 100"));
    CHECK(entity_has(es, e, "param_data", "01020304efbeadde"));
    CHECK(entity_has(es, e, "param_indices", "3 0"));
    CHECK(entity_has(es, e, "param.0", "5 Health"));
    CHECK(entity_has(es, e, "param.1", "1 Odd\\\\name\\x01"));
    e = entity_find(es, "riot_object", "id", "100");
    CHECK(entity_has(es, e, "scale", "1 1 1"));
    CHECK(entity_has(es, e, "links", ""));
    blvl_bytes_free(&sec);
    /* meta */
    blvl_Meta m;
    CHECK_EQ_INT(blvl_level_meta(b->level, &sec, &m, &err), BLVL_OK);
    CHECK(fbeq(blvl_Meta_name(m), "Mixed level"));
    CHECK_EQ_INT(blvl_Meta_engine(m), blvl_Engine_Riot);
    blvl_bytes_free(&sec);
    /* symbols: a source per cell, its corners' vertex types packed a | b << 8 | c << 16 | d << 24
     */
    CHECK(blvl_Symbols_verify(b->sym, b->ssz, &err) == BLVL_OK);
    blvl_Symbols S = blvl_Symbols_root(b->sym);
    CHECK_EQ_INT(blvl_Symbols_sources_len(S), 8 * 6 + 16 + 16);
    blvl_SymbolSource s = blvl_Symbols_sources_at(S, 8 + 2); /* layer 0, row 1, column 2 */
    uint32_t want = 0;
    const uint32_t corner[4][2] = {{1, 2}, {1, 3}, {2, 2}, {2, 3}};
    for (int q = 0; q < 4; q++)
        want |= (uint32_t)riot_hand_vertex((blvl_riot_layer *)l0, corner[q][0], corner[q][1])->type
                << (8 * q);
    CHECK_EQ_INT(s.surface_flags, want);
    CHECK_EQ_INT(s.index, 10);
    CHECK_EQ_INT(s.contents_flags, l0->cells[10].flags);
    CHECK_EQ_INT(s.kind, blvl_SourceKind_Face);
}

/* Materials: one per referenced texture, named from its database reference. */
static void test_materials(const baked *b) {
    blvl_Geometry g = b->g;
    const char *want[4] = {"textures/Dragon.rrc#5", "textures/Dragon.rrc#6", "odd.rrc#1", "db7#3"};
    CHECK_EQ_INT(blvl_Geometry_materials_len(g), 4);
    for (int k = 0; k < 4; k++) {
        bool found = false;
        for (uint32_t i = 0; i < blvl_Geometry_materials_len(g); i++) {
            blvl_Material m = blvl_Geometry_materials_at(g, i);
            if (fbeq(blvl_Material_name(m), want[k]))
                found = true;
        }
        CHECK(found);
    }
}

/* Every drawn triangle's .bsym source is the cell it lies in (its centroid's cell, found from the
 * positions alone), whatever surfaces the bake drew the cells with: one per layer and material
 * since the bake keeps a per-triangle source map. Sources are the cells, layer by layer. */
static void test_triangle_sources(const blvl_riot_level *lv, const baked *b) {
    blvl_symbols *sym = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl_symbols_open_memory(&sym, b->sym, b->ssz, b->level, 0, NULL, &err), BLVL_OK);
    if (!sym)
        return;
    blvl_Geometry g = b->g;
    uint32_t ntri = blvl_Geometry_indices_len(g) / 3, wrong = 0, lost = 0, sources = 0;
    for (uint32_t t = 0; t < ntri; t++) {
        double x = 0, z = 0;
        for (int j = 0; j < 3; j++) {
            blvl_Vertex v = blvl_Geometry_vertices_at(g, blvl_Geometry_indices_at(g, 3 * t + j));
            x += v.position.x / 3.0, z += v.position.z / 3.0;
        }
        uint32_t li;
        double c, r;
        if (!locate(lv, x, z, &li, &c, &r)) {
            lost++;
            continue;
        }
        uint32_t want = (uint32_t)floor(r) * lv->layers[li].width + (uint32_t)floor(c);
        for (uint32_t k = 0; k < li; k++)
            want += lv->layers[k].width * lv->layers[k].height;
        wrong += blvl_symbols_triangle_source(sym, t) != want;
        sources += blvl_symbols_triangle_source(sym, t) != BLVL_SYMBOLS_NONE;
    }
    CHECK(ntri > 0);
    CHECK_EQ_INT(lost, 0);
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT(sources, ntri);
    /* fewer surfaces than cells, yet a run per cell: more runs than batches */
    uint32_t nruns = 0;
    blvl_symbols_runs(sym, &nruns);
    CHECK(nruns > blvl_Geometry_batches_len(g));
    blvl_symbols_free(sym);
}

static void test_mixed(void) {
    blvl_riot_level lv;
    build_mixed(&lv);
    baked b, b2;
    blvl_error err;
    blvl_status st = bake_level(&lv, &b, &err);
    if (st != BLVL_OK)
        fprintf(stderr, "bake: %s\n", err.message);
    CHECK_EQ_INT(st, BLVL_OK);
    if (st == BLVL_OK) {
        test_geometry(&lv, &b);
        test_points(&lv, &b);
        test_entities(&lv, &b);
        test_materials(&b);
        test_triangle_sources(&lv, &b);
        /* determinism */
        CHECK_EQ_INT(bake_level(&lv, &b2, &err), BLVL_OK);
        CHECK(b.lsz == b2.lsz && memcmp(b.lv, b2.lv, b.lsz) == 0);
        CHECK(b.ssz == b2.ssz && memcmp(b.sym, b2.sym, b.ssz) == 0);
        baked_free(&b2);
    }
    baked_free(&b);
    riot_hand_free(&lv);
}

/* ---- a player box swept across floors -------------------------------------------------------- */

/* `layers` floors of w x h cells side by side along X; rise: raw height steps per column (a plane
 * sloping up to the east); a hole in a triangle of every third cell of the first and last rows,
 * so the collider rectangles break up. */
static void build_floor(blvl_riot_level *lv, uint32_t layers, uint32_t w, uint32_t h, int rise,
                        bool sieve, uint32_t type) {
    memset(lv, 0, sizeof *lv);
    lv->name = riot_hand_str("Floor");
    lv->layer_count = layers;
    lv->layers = riot_hand_calloc(layers, sizeof *lv->layers);
    for (uint32_t i = 0; i < layers; i++) {
        blvl_riot_layer *l = &lv->layers[i];
        riot_hand_layer(l, i, type, w, h, i * w, 0, 0.0f, REF_A);
        for (uint32_t r = 0; r <= h; r++)
            for (uint32_t c = 0; c <= w; c++)
                riot_hand_vertex(l, r, c)->raw_height =
                    (uint16_t)(0x4000 + rise * (int)(i * w + c));
        for (uint32_t c = 0; c < w; c++) {
            riot_hand_cell(l, 0, c)->flags = (uint16_t)(c & 1);
            riot_hand_cell(l, h - 1, c)->flags = (uint16_t)((c + 1) & 1);
            if (c % 3 == i % 3) {
                riot_hand_cell(l, 0, c)->texture[c & 1] = BLVL_RIOT_HOLE;
                riot_hand_cell(l, h - 1, c)->texture[1 - (c & 1)] = BLVL_RIOT_HOLE;
            }
        }
        /* sieve: every inner cell but the first and last (where the box lands) loses one triangle,
         * so nothing merges and the box crosses the edges of single-triangle prisms only */
        for (uint32_t r = 1; sieve && r + 1 < h; r++)
            for (uint32_t c = 0; c < w; c++) {
                if ((i == 0 && c == 0) || (i + 1 == layers && c + 1 == w))
                    continue;
                blvl_riot_cell *cell = riot_hand_cell(l, r, c);
                cell->flags = (uint16_t)urand(2);
                cell->texture[urand(2)] = BLVL_RIOT_HOLE;
            }
    }
}

static double floor_y(const blvl_riot_level *lv, double x) {
    const blvl_riot_layer *l = &lv->layers[0];
    double c0 = height_wu(l, 0, 0), c1 = height_wu(l, 0, 1); /* one column's rise */
    return (c0 + (c1 - c0) * x / 128.0) / 16.0;
}

/* Drop the player box at (x, z) onto a floor (or raise it against a ceiling) and sweep it to x1
 * (following the slope); returns the fraction, *landed_off the gap between box and surface. */
static float sweep(const blvl_riot_level *lv, const baked *b, double x0, double x1, double z,
                   float *landed_off) {
    blvl_trace_result tr;
    double dir = lv->layers[0].type == 1 ? -1.0 : 1.0; /* toward the empty side */
    float from[3] = {(float)x0, (float)(floor_y(lv, x0) + 200 * dir), (float)z};
    float to[3] = {(float)x0, (float)(floor_y(lv, x0) - 200 * dir), (float)z};
    blvl_trace_box(b->world, NULL, from, to, PMIN, PMAX, &tr);
    *landed_off = dir > 0 ? (float)(tr.endpos[1] + PMIN[1] - floor_y(lv, x0))
                          : (float)(floor_y(lv, x0) - (tr.endpos[1] + PMAX[1]));
    float start[3] = {tr.endpos[0], tr.endpos[1], tr.endpos[2]};
    /* parallel to the surface and 1/100 qu away from it over the whole run: a move exactly
     * parallel can stop at fraction 0 on the plane it rests on when rounding makes it approach
     * (Quake's trace), which is no internal edge */
    float end[3] = {(float)x1,
                    (float)(tr.endpos[1] + floor_y(lv, x1) - floor_y(lv, x0) + 0.01 * dir),
                    (float)z};
    blvl_trace_box(b->world, NULL, start, end, PMIN, PMAX, &tr);
    return tr.startsolid ? -1.0f : tr.fraction;
}

static void test_sweeps(int rise, bool sieve, uint32_t type) {
    blvl_riot_level lv;
    build_floor(&lv, 6, 8, 6, rise, sieve, type);
    baked b;
    blvl_error err;
    CHECK_EQ_INT(bake_level(&lv, &b, &err), BLVL_OK);
    uint32_t colliders = blvl_trace_world_collider_count(b.world);
    double x0 = 17, x1 = 6 * 8 * 128 - 17;
    uint32_t stopped = 0, bad_land = 0, runs = 0;
    /* on a slope the box rests on its lowest corner, 16 qu from its centre */
    float rest = 0.1f + 16.0f * fabsf((float)rise / 1024.0f);
    for (double z = 128 + 17; z <= 5 * 128 - 17; z += 37, runs++) {
        float off;
        float f = sweep(&lv, &b, x0, x1, z, &off);
        stopped += f != 1.0f;
        bad_land += !(off > 0 && off < rest);
        f = sweep(&lv, &b, x1, x0, z, &off); /* and back */
        stopped += f != 1.0f;
        bad_land += !(off > 0 && off < rest);
    }
    printf("sweeps (%s, rise %d%s): %u colliders, %u runs each way across %u cells, %u stopped\n",
           type ? "ceiling" : "floor", rise, sieve ? ", sieve" : "", colliders, runs, 6 * 8,
           stopped);
    CHECK(colliders > 12); /* the holes broke the floor into many colliders */
    CHECK_EQ_INT(stopped, 0);
    CHECK_EQ_INT(bad_land, 0);
    baked_free(&b);
    /* control: one vertex row moved 64 qu toward the empty side (a ridge) across the path stops
     * every sweep */
    for (uint32_t r = 0; r <= lv.layers[3].height; r++)
        riot_hand_vertex(&lv.layers[3], r, 4)->raw_height += type == 1 ? -512 : 512;
    CHECK_EQ_INT(bake_level(&lv, &b, &err), BLVL_OK);
    uint32_t passed = 0;
    for (double z = 128 + 17; z <= 5 * 128 - 17; z += 37) {
        float off;
        passed += sweep(&lv, &b, x0, x1, z, &off) == 1.0f;
    }
    CHECK_EQ_INT(passed, 0);
    baked_free(&b);
    riot_hand_free(&lv);
}

/* ---- hand-worked colours ------------------------------------------------------------------- */

static void test_colours(void) {
    blvl_riot_level lv;
    memset(&lv, 0, sizeof lv);
    lv.name = riot_hand_str("Light");
    lv.layer_count = 3;
    lv.layers = riot_hand_calloc(3, sizeof *lv.layers);
    /* flat floor, light 30 degrees above the horizon: k = sin(30) = 0.5 */
    riot_hand_layer(&lv.layers[0], 0, 0, 2, 2, 0, 0, 0, REF_A);
    lv.layers[0].light_ascension = (float)(M_PI / 6);
    lv.layers[0].ambient_color = (blvl_riot_color){10, 20, 30, 0};
    lv.layers[0].light_color = (blvl_riot_color){200, 100, 52, 0};
    /* flat ceiling, light from straight above: its face points away, ambient only */
    riot_hand_layer(&lv.layers[1], 1, 1, 2, 2, 4, 0, 8000, REF_A);
    lv.layers[1].ambient_color = (blvl_riot_color){10, 20, 30, 0};
    lv.layers[1].light_color = (blvl_riot_color){200, 100, 50, 0};
    /* a floor sloping down to the east by 1 qu per qu (raw step 1024 = 2048 world units = 128 qu
     * per column), light straight from the east horizon (direction 0 travels west) */
    riot_hand_layer(&lv.layers[2], 2, 0, 2, 2, 8, 0, 0, REF_A);
    for (uint32_t r = 0; r <= 2; r++)
        for (uint32_t c = 0; c <= 2; c++)
            riot_hand_vertex(&lv.layers[2], r, c)->raw_height = (uint16_t)(0x8000 - 1024 * c);
    lv.layers[2].light_direction = 0;
    lv.layers[2].light_ascension = 0;
    lv.layers[2].ambient_color = (blvl_riot_color){0, 0, 0, 0};
    lv.layers[2].light_color = (blvl_riot_color){255, 255, 255, 0};
    baked b;
    blvl_error err;
    CHECK_EQ_INT(bake_level(&lv, &b, &err), BLVL_OK);
    /* slope: 1024 raw = 2048 world units = 128 qu down per 128 qu east: normal (1, 1, 0)/sqrt 2,
     * toward the light (1, 0, 0): k = 0.7071 -> 180.3 -> 180 */
    uint32_t n0 = 0, n1 = 0, n2 = 0, bad = 0;
    for (uint32_t i = 0; i < blvl_Geometry_vertices_len(b.g); i++) {
        blvl_Vertex v = blvl_Geometry_vertices_at(b.g, i);
        blvl_Rgba8 c = v.color;
        if (v.position.x <= 256) {
            bad += !(c.r == 110 && c.g == 70 && c.b == 56 && c.a == 255);
            n0++;
        } else if (v.position.x <= 768) {
            bad += !(c.r == 10 && c.g == 20 && c.b == 30);
            bad += !(v.normal.y < -0.999f);
            n1++;
        } else {
            bad += !(c.r == 180 && c.g == 180 && c.b == 180);
            bad += !(fabsf(v.normal.x - 0.70710678f) < 1e-5f &&
                     fabsf(v.normal.y - 0.70710678f) < 1e-5f);
            n2++;
        }
    }
    CHECK(n0 > 0 && n1 > 0 && n2 > 0);
    CHECK_EQ_INT(bad, 0);
    baked_free(&b);
    riot_hand_free(&lv);
}

/* ---- refusals ----------------------------------------------------------------------------------
 */

static void expect_refusal(blvl_riot_level *lv, blvl_status code, const char *msg) {
    blvl_bake *b = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl_bake_new(&b, NULL, &err), BLVL_OK);
    blvl_status st = blvl_riot_bake(lv, b, &err);
    CHECK_EQ_INT(st, code);
    if (msg && strcmp(err.message, msg) != 0) {
        fprintf(stderr, "message: %s\n   want: %s\n", err.message, msg);
        CHECK(0);
    }
    blvl_bake_free(b);
}

static void test_refusals(void) {
    blvl_riot_level lv;
    build_mixed(&lv);
    float wh = lv.layers[1].world_height;
    lv.layers[1].world_height = NAN;
    /* layer 1 starts after layer 0's definition: 4 + 28 + (2 + 6) + 28 + 4 * 2 = 76 */
    expect_refusal(&lv, BLVL_E_SOURCE,
                   "record 0x0001: layer[1].world_height at offset 100: layer-height: not a "
                   "finite number of at most 2^30 world units");
    lv.layers[1].world_height = wh;
    lv.layers[2].type = 3;
    expect_refusal(&lv, BLVL_E_SOURCE, NULL);
    lv.layers[2].type = 2;
    lv.layers[0].origin_x = 65530;
    expect_refusal(&lv, BLVL_E_SOURCE,
                   "record 0x0001: layer[0].origin_x at offset 20: layer-extent: origin + width "
                   "= 65538 cells, more than 65536");
    lv.layers[0].origin_x = 0;
    lv.objects[2].position[1] = INFINITY;
    expect_refusal(&lv, BLVL_E_SOURCE, NULL);
    lv.objects[2].position[1] = 0;
    lv.objects[0].links = riot_hand_calloc(1, sizeof(uint16_t));
    lv.objects[0].link_count = 1;
    lv.objects[0].links[0] = 3;
    expect_refusal(&lv, BLVL_E_ARGUMENT, NULL);
    lv.objects[0].links[0] = 1;
    /* a layer without cells places nothing: its numbers are not checked */
    lv.layers[1].height = 0;
    lv.layers[1].world_height = NAN;
    lv.layers[1].origin_x = 0xFFFFFFF0u;
    blvl_bake *b = NULL;
    blvl_error err;
    blvl_bake_new(&b, NULL, &err);
    CHECK_EQ_INT(blvl_riot_bake(&lv, b, &err), BLVL_OK);
    blvl_bake_free(b);
    riot_hand_free(&lv);
}

int main(void) {
    test_mixed();
    test_sweeps(0, false, 0);
    test_sweeps(8, false, 0);
    test_sweeps(-40, false, 0);
    test_sweeps(0, true, 0);
    test_sweeps(8, true, 0);
    test_sweeps(-40, true, 0);
    test_sweeps(0, true, 1);
    test_sweeps(-40, true, 1);
    test_colours();
    test_refusals();
    return check_report("test_riot_bake");
}
