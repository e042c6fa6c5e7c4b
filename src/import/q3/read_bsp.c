/* blvl_q3_bsp_read: an IBSP 46 file into host structs, every lump bounded and every index
 * checked before anything downstream trusts it (docs/IMPORT-Q3.md, "Refusals"). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "blvl/le.h"
#include "blvl/q3.h"
#include "common/alloc.h"
#include "common/cursor.h"
#include "common/error.h"

#define HEADER_SIZE (8u + 8u * BLVL_Q3_LUMP_COUNT)

static const char *const lump_name[BLVL_Q3_LUMP_COUNT] = {
    "entities",     "shaders",  "planes",    "nodes",       "leafs",      "leaf surfaces",
    "leaf brushes", "models",   "brushes",   "brush sides", "draw verts", "draw indexes",
    "fogs",         "surfaces", "lightmaps", "light grid",  "visibility"};

/* Bytes per record; 1 for the byte lumps. */
static const uint32_t record_size[BLVL_Q3_LUMP_COUNT] = {
    1, 72, 16, 36, 48, 4, 4, 40, 12, 8, 44, 4, 72, 104, 128 * 128 * 3, 8, 1};

typedef struct rd {
    const uint8_t *p; /* file */
    blvl_q3_bsp *bsp;
    const blvl_allocator *a;
    blvl_error *err;
    char part[32];
} rd;

static blvl_status refuse(rd *r, int lump, uint32_t record, const char *field, uint32_t at,
                          const char *rule, const char *problem, long long v) {
    char part[40], where[80];
    snprintf(part, sizeof part, "lump %s", lump_name[lump]);
    snprintf(where, sizeof where, "record %u %s", record, field);
    return blvl__fail_source(r->err, part, where, at, rule, "%s (%lld)", problem, v);
}

static int32_t i32(const uint8_t *p) {
    return (int32_t)blvl_le32(p);
}

static void *array(rd *r, uint32_t count, size_t elem) {
    return blvl__alloc_sized(r->a, count ? (size_t)count * elem : 1);
}

/* Offset of field byte `field_at` of record `i` of `lump`. */
static uint32_t at(const rd *r, int lump, uint32_t i, uint32_t field_at) {
    return r->bsp->offset[lump] + i * record_size[lump] + field_at;
}

static const uint8_t *rec(const rd *r, int lump, uint32_t i) {
    return r->p + at(r, lump, i, 0);
}

/* A float field that must be finite. */
static blvl_status need_finite(rd *r, int lump, uint32_t i, const char *field, uint32_t off,
                               float *out) {
    float v = blvl__le_f32(rec(r, lump, i) + off);
    if (!isfinite(v))
        return refuse(r, lump, i, field, at(r, lump, i, off), "finite", "a NaN or infinite value",
                      (long long)blvl_le32(rec(r, lump, i) + off));
    *out = v;
    return BLVL_OK;
}

/* index in [lo, count), or refusal. */
static blvl_status in_range(rd *r, int lump, uint32_t i, const char *field, uint32_t off, int32_t v,
                            int32_t lo, uint32_t count, const char *names) {
    if (v < lo || (v >= 0 && (uint32_t)v >= count)) {
        char problem[96];
        snprintf(problem, sizeof problem, "names no %s (there are %u)", names, count);
        return refuse(r, lump, i, field, at(r, lump, i, off), "index-range", problem, v);
    }
    return BLVL_OK;
}

/* first, count: a run inside [0, total). */
static blvl_status run(rd *r, int lump, uint32_t i, const char *field, uint32_t off, int32_t first,
                       int32_t n, uint32_t total, const char *names) {
    if (first < 0 || n < 0 || (uint64_t)first + (uint64_t)n > total) {
        char problem[120];
        snprintf(problem, sizeof problem, "a run of %d %s from %d past the %u there are", n, names,
                 first, total);
        return refuse(r, lump, i, field, at(r, lump, i, off), "run-range", problem, first);
    }
    return BLVL_OK;
}

#define TRY(x)                                                                                     \
    do {                                                                                           \
        blvl_status st_ = (x);                                                                     \
        if (st_ != BLVL_OK)                                                                        \
            return st_;                                                                            \
    } while (0)

static void name64(char dst[65], const uint8_t *src) {
    memcpy(dst, src, 64);
    dst[64] = 0;
}

static blvl_status read_header(rd *r, size_t size) {
    blvl_q3_bsp *b = r->bsp;
    if (size < HEADER_SIZE)
        return blvl__fail_source(r->err, "header", "lumps", size, "header-size",
                                 "the file has %zu bytes, fewer than the %u of the header", size,
                                 HEADER_SIZE);
    if (memcmp(r->p, "IBSP", 4))
        return blvl__fail_source(r->err, "header", "magic", 0, "magic",
                                 "not \"IBSP\": not a Quake 3 map");
    int32_t version = i32(r->p + 4);
    if (version != 46)
        return blvl__fail_source(r->err, "header", "version", 4, "version",
                                 "version %d, not 46 (Quake 3)", version);
    for (int l = 0; l < BLVL_Q3_LUMP_COUNT; l++) {
        uint32_t o = blvl_le32(r->p + 8 + 8 * l), n = blvl_le32(r->p + 12 + 8 * l);
        char field[48];
        snprintf(field, sizeof field, "lump %s", lump_name[l]);
        if ((uint64_t)o + n > size)
            return blvl__fail_source(r->err, "header", field, 8 + 8 * (uint64_t)l, "lump-bounds",
                                     "offset %u and length %u run past the file's %zu bytes", o, n,
                                     size);
        if (n % record_size[l])
            return blvl__fail_source(r->err, "header", field, 12 + 8 * (uint64_t)l, "lump-records",
                                     "length %u is not a multiple of the %u-byte record", n,
                                     record_size[l]);
        b->offset[l] = o;
        b->length[l] = n;
    }
    return BLVL_OK;
}

static uint32_t count_of(const blvl_q3_bsp *b, int l) {
    return b->length[l] / record_size[l];
}

static blvl_status read_simple(rd *r) {
    blvl_q3_bsp *b = r->bsp;
    /* entities: the bytes up to the first NUL */
    uint32_t en = b->length[BLVL_Q3_LUMP_ENTITIES];
    const uint8_t *ep = r->p + b->offset[BLVL_Q3_LUMP_ENTITIES];
    const uint8_t *nul = en ? memchr(ep, 0, en) : NULL;
    b->entities_size = nul ? (size_t)(nul - ep) : en;
    if (!(b->entities = array(r, (uint32_t)b->entities_size + 1, 1)))
        return BLVL_E_NOMEM;
    memcpy(b->entities, ep, b->entities_size);
    b->entities[b->entities_size] = 0;

    b->shader_count = count_of(b, BLVL_Q3_LUMP_SHADERS);
    if (!(b->shaders = array(r, b->shader_count, sizeof *b->shaders)))
        return BLVL_E_NOMEM;
    for (uint32_t i = 0; i < b->shader_count; i++) {
        const uint8_t *s = rec(r, BLVL_Q3_LUMP_SHADERS, i);
        name64(b->shaders[i].name, s);
        b->shaders[i].surface_flags = blvl_le32(s + 64);
        b->shaders[i].contents = blvl_le32(s + 68);
    }

    b->plane_count = count_of(b, BLVL_Q3_LUMP_PLANES);
    if (!(b->planes = array(r, b->plane_count, sizeof *b->planes)))
        return BLVL_E_NOMEM;
    for (uint32_t i = 0; i < b->plane_count; i++) {
        blvl_q3_plane *p = &b->planes[i];
        static const char *const f[4] = {"normal.x", "normal.y", "normal.z", "dist"};
        for (int k = 0; k < 3; k++)
            TRY(need_finite(r, BLVL_Q3_LUMP_PLANES, i, f[k], 4 * k, &p->normal[k]));
        TRY(need_finite(r, BLVL_Q3_LUMP_PLANES, i, f[3], 12, &p->dist));
    }

    b->leaf_surface_count = count_of(b, BLVL_Q3_LUMP_LEAF_SURFACES);
    b->leaf_brush_count = count_of(b, BLVL_Q3_LUMP_LEAF_BRUSHES);
    b->draw_index_count = count_of(b, BLVL_Q3_LUMP_DRAW_INDEXES);
    b->node_count = count_of(b, BLVL_Q3_LUMP_NODES);
    b->leaf_count = count_of(b, BLVL_Q3_LUMP_LEAFS);
    b->model_count = count_of(b, BLVL_Q3_LUMP_MODELS);
    b->brush_count = count_of(b, BLVL_Q3_LUMP_BRUSHES);
    b->brush_side_count = count_of(b, BLVL_Q3_LUMP_BRUSH_SIDES);
    b->draw_vert_count = count_of(b, BLVL_Q3_LUMP_DRAW_VERTS);
    b->fog_count = count_of(b, BLVL_Q3_LUMP_FOGS);
    b->surface_count = count_of(b, BLVL_Q3_LUMP_SURFACES);
    b->lightmap_count = count_of(b, BLVL_Q3_LUMP_LIGHTMAPS);
    return BLVL_OK;
}

static blvl_status read_ints(rd *r, int lump, uint32_t count, int32_t **out) {
    if (!(*out = array(r, count, sizeof **out)))
        return BLVL_E_NOMEM;
    for (uint32_t i = 0; i < count; i++)
        (*out)[i] = i32(rec(r, lump, i));
    return BLVL_OK;
}

static blvl_status read_tree(rd *r) {
    blvl_q3_bsp *b = r->bsp;
    enum { N = BLVL_Q3_LUMP_NODES, L = BLVL_Q3_LUMP_LEAFS };
    if (!(b->nodes = array(r, b->node_count, sizeof *b->nodes)))
        return BLVL_E_NOMEM;
    for (uint32_t i = 0; i < b->node_count; i++) {
        const uint8_t *s = rec(r, N, i);
        blvl_q3_node *n = &b->nodes[i];
        n->plane = i32(s);
        TRY(in_range(r, N, i, "plane", 0, n->plane, 0, b->plane_count, "plane"));
        for (int k = 0; k < 2; k++) {
            n->children[k] = i32(s + 4 + 4 * k);
            int32_t c = n->children[k];
            const char *f = k ? "children[1]" : "children[0]";
            if (c < 0) {
                if ((uint64_t)(-(int64_t)c - 1) >= b->leaf_count)
                    return refuse(r, N, i, f, at(r, N, i, 4 + 4 * k), "index-range",
                                  "names no leaf", c);
                continue;
            }
            TRY(in_range(r, N, i, f, 4 + 4 * k, c, 0, b->node_count, "node"));
            /* Compilers write the tree in pre-order, so a child node comes after its parent;
             * requiring it keeps a walk of the tree from looping. */
            if ((uint32_t)c <= i)
                return refuse(r, N, i, f, at(r, N, i, 4 + 4 * k), "node-order",
                              "names a node at or before itself (children follow their parent)", c);
        }
        for (int k = 0; k < 3; k++) {
            n->mins[k] = i32(s + 12 + 4 * k);
            n->maxs[k] = i32(s + 24 + 4 * k);
        }
    }
    if (!(b->leafs = array(r, b->leaf_count, sizeof *b->leafs)))
        return BLVL_E_NOMEM;
    for (uint32_t i = 0; i < b->leaf_count; i++) {
        const uint8_t *s = rec(r, L, i);
        blvl_q3_leaf *f = &b->leafs[i];
        f->cluster = i32(s);
        f->area = i32(s + 4);
        for (int k = 0; k < 3; k++) {
            f->mins[k] = i32(s + 8 + 4 * k);
            f->maxs[k] = i32(s + 20 + 4 * k);
        }
        f->first_leaf_surface = i32(s + 32);
        f->num_leaf_surfaces = i32(s + 36);
        f->first_leaf_brush = i32(s + 40);
        f->num_leaf_brushes = i32(s + 44);
        TRY(run(r, L, i, "first_leaf_surface", 32, f->first_leaf_surface, f->num_leaf_surfaces,
                b->leaf_surface_count, "leaf surfaces"));
        TRY(run(r, L, i, "first_leaf_brush", 40, f->first_leaf_brush, f->num_leaf_brushes,
                b->leaf_brush_count, "leaf brushes"));
    }
    TRY(read_ints(r, BLVL_Q3_LUMP_LEAF_SURFACES, b->leaf_surface_count, &b->leaf_surfaces));
    for (uint32_t i = 0; i < b->leaf_surface_count; i++)
        TRY(in_range(r, BLVL_Q3_LUMP_LEAF_SURFACES, i, "surface", 0, b->leaf_surfaces[i], 0,
                     b->surface_count, "surface"));
    TRY(read_ints(r, BLVL_Q3_LUMP_LEAF_BRUSHES, b->leaf_brush_count, &b->leaf_brushes));
    for (uint32_t i = 0; i < b->leaf_brush_count; i++)
        TRY(in_range(r, BLVL_Q3_LUMP_LEAF_BRUSHES, i, "brush", 0, b->leaf_brushes[i], 0,
                     b->brush_count, "brush"));
    return BLVL_OK;
}

static blvl_status read_models_brushes(rd *r) {
    blvl_q3_bsp *b = r->bsp;
    enum { M = BLVL_Q3_LUMP_MODELS, B = BLVL_Q3_LUMP_BRUSHES, S = BLVL_Q3_LUMP_BRUSH_SIDES };
    if (!b->model_count)
        return blvl__fail_source(r->err, "lump models", "length", 8 + 8 * M, "world-model",
                                 "no models: a map holds at least the world model");
    if (!(b->models = array(r, b->model_count, sizeof *b->models)))
        return BLVL_E_NOMEM;
    for (uint32_t i = 0; i < b->model_count; i++) {
        const uint8_t *s = rec(r, M, i);
        blvl_q3_model *m = &b->models[i];
        static const char *const f[6] = {"mins.x", "mins.y", "mins.z",
                                         "maxs.x", "maxs.y", "maxs.z"};
        for (int k = 0; k < 3; k++) {
            TRY(need_finite(r, M, i, f[k], 4 * k, &m->mins[k]));
            TRY(need_finite(r, M, i, f[3 + k], 12 + 4 * k, &m->maxs[k]));
        }
        m->first_surface = i32(s + 24);
        m->num_surfaces = i32(s + 28);
        m->first_brush = i32(s + 32);
        m->num_brushes = i32(s + 36);
        TRY(run(r, M, i, "first_surface", 24, m->first_surface, m->num_surfaces, b->surface_count,
                "surfaces"));
        TRY(run(r, M, i, "first_brush", 32, m->first_brush, m->num_brushes, b->brush_count,
                "brushes"));
    }
    if (!(b->brushes = array(r, b->brush_count, sizeof *b->brushes)))
        return BLVL_E_NOMEM;
    for (uint32_t i = 0; i < b->brush_count; i++) {
        const uint8_t *s = rec(r, B, i);
        blvl_q3_brush *br = &b->brushes[i];
        br->first_side = i32(s);
        br->num_sides = i32(s + 4);
        br->shader = i32(s + 8);
        TRY(run(r, B, i, "first_side", 0, br->first_side, br->num_sides, b->brush_side_count,
                "brush sides"));
        TRY(in_range(r, B, i, "shader", 8, br->shader, 0, b->shader_count, "shader"));
    }
    if (!(b->brush_sides = array(r, b->brush_side_count, sizeof *b->brush_sides)))
        return BLVL_E_NOMEM;
    for (uint32_t i = 0; i < b->brush_side_count; i++) {
        const uint8_t *s = rec(r, S, i);
        blvl_q3_brush_side *bs = &b->brush_sides[i];
        bs->plane = i32(s);
        bs->shader = i32(s + 4);
        TRY(in_range(r, S, i, "plane", 0, bs->plane, 0, b->plane_count, "plane"));
        TRY(in_range(r, S, i, "shader", 4, bs->shader, 0, b->shader_count, "shader"));
    }
    return BLVL_OK;
}

static blvl_status read_verts(rd *r) {
    blvl_q3_bsp *b = r->bsp;
    enum { V = BLVL_Q3_LUMP_DRAW_VERTS };
    if (!(b->draw_verts = array(r, b->draw_vert_count, sizeof *b->draw_verts)))
        return BLVL_E_NOMEM;
    static const char *const f[10] = {"xyz.x",    "xyz.y",      "xyz.z",      "st.s",
                                      "st.t",     "lightmap.s", "lightmap.t", "normal.x",
                                      "normal.y", "normal.z"};
    for (uint32_t i = 0; i < b->draw_vert_count; i++) {
        blvl_q3_draw_vert *v = &b->draw_verts[i];
        float *dst[10] = {&v->xyz[0],    &v->xyz[1],      &v->xyz[2],      &v->st[0],
                          &v->st[1],     &v->lightmap[0], &v->lightmap[1], &v->normal[0],
                          &v->normal[1], &v->normal[2]};
        /* Positions must be finite. Texture and lightmap coordinates and normals are kept as
         * stored: real maps hold NaN lightmap coordinates on surfaces without a lightmap, and
         * the bake replaces whatever it cannot use (docs/IMPORT-Q3.md). */
        for (int k = 0; k < 3; k++)
            TRY(need_finite(r, V, i, f[k], 4 * (uint32_t)k, dst[k]));
        for (int k = 3; k < 10; k++)
            *dst[k] = blvl__le_f32(rec(r, V, i) + 4 * (uint32_t)k);
        memcpy(v->color, rec(r, V, i) + 40, 4);
    }
    return read_ints(r, BLVL_Q3_LUMP_DRAW_INDEXES, b->draw_index_count, &b->draw_indexes);
}

static blvl_status read_fogs(rd *r) {
    blvl_q3_bsp *b = r->bsp;
    enum { F = BLVL_Q3_LUMP_FOGS };
    if (!(b->fogs = array(r, b->fog_count, sizeof *b->fogs)))
        return BLVL_E_NOMEM;
    for (uint32_t i = 0; i < b->fog_count; i++) {
        const uint8_t *s = rec(r, F, i);
        blvl_q3_fog *g = &b->fogs[i];
        name64(g->shader, s);
        g->brush = i32(s + 64);
        g->visible_side = i32(s + 68);
        TRY(in_range(r, F, i, "brush", 64, g->brush, 0, b->brush_count, "brush"));
        if (g->visible_side != -1)
            TRY(in_range(r, F, i, "visible_side", 68, g->visible_side, 0,
                         (uint32_t)b->brushes[g->brush].num_sides, "side of its brush"));
    }
    return BLVL_OK;
}

static blvl_status read_surfaces(rd *r) {
    blvl_q3_bsp *b = r->bsp;
    enum { S = BLVL_Q3_LUMP_SURFACES };
    if (!(b->surfaces = array(r, b->surface_count, sizeof *b->surfaces)))
        return BLVL_E_NOMEM;
    for (uint32_t i = 0; i < b->surface_count; i++) {
        const uint8_t *s = rec(r, S, i);
        blvl_q3_surface *f = &b->surfaces[i];
        f->shader = i32(s);
        f->fog = i32(s + 4);
        f->type = i32(s + 8);
        f->first_vert = i32(s + 12);
        f->num_verts = i32(s + 16);
        f->first_index = i32(s + 20);
        f->num_indexes = i32(s + 24);
        f->lightmap = i32(s + 28);
        f->lightmap_x = i32(s + 32);
        f->lightmap_y = i32(s + 36);
        f->lightmap_width = i32(s + 40);
        f->lightmap_height = i32(s + 44);
        static const char *const lf[12] = {
            "lightmap_origin.x",  "lightmap_origin.y",  "lightmap_origin.z",  "lightmap_vecs[0].x",
            "lightmap_vecs[0].y", "lightmap_vecs[0].z", "lightmap_vecs[1].x", "lightmap_vecs[1].y",
            "lightmap_vecs[1].z", "lightmap_vecs[2].x", "lightmap_vecs[2].y", "lightmap_vecs[2].z"};
        for (int k = 0; k < 3; k++)
            TRY(need_finite(r, S, i, lf[k], 48 + 4 * (uint32_t)k, &f->lightmap_origin[k]));
        for (int v = 0; v < 3; v++)
            for (int k = 0; k < 3; k++)
                TRY(need_finite(r, S, i, lf[3 + 3 * v + k], 60 + 12 * (uint32_t)v + 4 * (uint32_t)k,
                                &f->lightmap_vecs[v][k]));
        f->patch_width = i32(s + 96);
        f->patch_height = i32(s + 100);

        TRY(in_range(r, S, i, "shader", 0, f->shader, 0, b->shader_count, "shader"));
        /* Compilers have written fog 0 into maps without fogs; the engine reads past its table
         * there. Such a surface reads as unfogged, and is counted. */
        if (f->fog >= 0 && (uint32_t)f->fog >= b->fog_count) {
            f->fog = -1;
            b->fogs_dropped++;
        }
        TRY(in_range(r, S, i, "fog", 4, f->fog, -1, b->fog_count, "fog"));
        if (f->type < BLVL_Q3_MST_PLANAR || f->type > BLVL_Q3_MST_FLARE)
            return refuse(r, S, i, "type", at(r, S, i, 8), "surface-type",
                          "not planar (1), patch (2), triangle soup (3) or flare (4)", f->type);
        TRY(run(r, S, i, "first_vert", 12, f->first_vert, f->num_verts, b->draw_vert_count,
                "draw verts"));
        TRY(run(r, S, i, "first_index", 20, f->first_index, f->num_indexes, b->draw_index_count,
                "draw indexes"));
        /* External lightmaps (an empty lump while surfaces name pages) read as none later. */
        if (b->lightmap_count)
            TRY(in_range(r, S, i, "lightmap", 28, f->lightmap, INT32_MIN, b->lightmap_count,
                         "lightmap page"));
        if (f->lightmap >= 0 && b->lightmap_count &&
            (f->lightmap_x < 0 || f->lightmap_y < 0 || f->lightmap_width < 0 ||
             f->lightmap_height < 0 ||
             f->lightmap_x + (int64_t)f->lightmap_width > (int64_t)BLVL_Q3_LIGHTMAP_SIZE ||
             f->lightmap_y + (int64_t)f->lightmap_height > (int64_t)BLVL_Q3_LIGHTMAP_SIZE))
            return refuse(r, S, i, "lightmap_x", at(r, S, i, 32), "lightmap-rect",
                          "its lightmap rectangle leaves the 128 x 128 page", f->lightmap_x);
        if (f->type == BLVL_Q3_MST_PLANAR || f->type == BLVL_Q3_MST_TRIANGLE_SOUP) {
            if (f->num_indexes % 3)
                return refuse(r, S, i, "num_indexes", at(r, S, i, 24), "triangles",
                              "not a multiple of 3", f->num_indexes);
            for (int32_t k = 0; k < f->num_indexes; k++) {
                int32_t v = b->draw_indexes[f->first_index + k];
                if (v < 0 || v >= f->num_verts)
                    return blvl__fail_source(
                        r->err, "lump draw indexes", "index",
                        b->offset[BLVL_Q3_LUMP_DRAW_INDEXES] + 4 * (uint64_t)(f->first_index + k),
                        "index-range", "%d is past the %d vertices of surface %u", v, f->num_verts,
                        i);
            }
        } else if (f->type == BLVL_Q3_MST_PATCH) {
            int32_t w = f->patch_width, h = f->patch_height;
            if (w < 3 || h < 3 || !(w & 1) || !(h & 1) || w > 65 || h > 65 ||
                (int64_t)w * h != f->num_verts)
                return refuse(r, S, i, "patch_width", at(r, S, i, 96), "patch-size",
                              "a patch's control grid is odd sides of 3..65 whose product is "
                              "num_verts",
                              (int64_t)w * 1000 + h);
        }
    }
    return BLVL_OK;
}

/* A leaf's cluster is -1 (outside the map) or a cluster; with visibility, one of its rows. */
static blvl_status check_clusters(rd *r) {
    blvl_q3_bsp *b = r->bsp;
    for (uint32_t i = 0; i < b->leaf_count; i++) {
        int32_t c = b->leafs[i].cluster;
        if (c < -1 || (b->vis && c >= 0 && (uint32_t)c >= b->vis_clusters)) {
            char problem[96];
            snprintf(problem, sizeof problem, "names no cluster (visibility has %u)",
                     b->vis_clusters);
            return refuse(r, BLVL_Q3_LUMP_LEAFS, i, "cluster", at(r, BLVL_Q3_LUMP_LEAFS, i, 0),
                          "cluster-range", problem, c);
        }
    }
    return BLVL_OK;
}

static blvl_status read_light(rd *r) {
    blvl_q3_bsp *b = r->bsp;
    uint32_t n = b->length[BLVL_Q3_LUMP_LIGHTMAPS];
    if (!(b->lightmaps = array(r, n, 1)))
        return BLVL_E_NOMEM;
    memcpy(b->lightmaps, r->p + b->offset[BLVL_Q3_LUMP_LIGHTMAPS], n);
    b->light_grid_size = b->length[BLVL_Q3_LUMP_LIGHT_GRID];
    if (!(b->light_grid = array(r, b->light_grid_size, 1)))
        return BLVL_E_NOMEM;
    memcpy(b->light_grid, r->p + b->offset[BLVL_Q3_LUMP_LIGHT_GRID], b->light_grid_size);

    uint32_t vn = b->length[BLVL_Q3_LUMP_VISIBILITY], vo = b->offset[BLVL_Q3_LUMP_VISIBILITY];
    if (!vn)
        return BLVL_OK;
    if (vn < 8)
        return blvl__fail_source(r->err, "lump visibility", "header", vo, "vis-size",
                                 "%u bytes, fewer than its 8-byte header", vn);
    int32_t clusters = i32(r->p + vo), row = i32(r->p + vo + 4);
    if (clusters < 0 || row < 0 || 8 + (uint64_t)clusters * (uint64_t)row > vn)
        return blvl__fail_source(r->err, "lump visibility", "cluster_count", vo, "vis-size",
                                 "%d clusters of %d bytes do not fit its %u bytes", clusters, row,
                                 vn);
    /* A row holds one bit per cluster. */
    if ((uint64_t)row * 8 < (uint64_t)clusters)
        return blvl__fail_source(r->err, "lump visibility", "row_size", vo + 4, "vis-size",
                                 "rows of %d bytes cannot hold the bits of %d clusters", row,
                                 clusters);
    b->vis_clusters = (uint32_t)clusters;
    b->vis_row_size = (uint32_t)row;
    size_t vs = (size_t)clusters * (size_t)row;
    if (!(b->vis = array(r, (uint32_t)vs, 1)))
        return BLVL_E_NOMEM;
    memcpy(b->vis, r->p + vo + 8, vs);
    return BLVL_OK;
}

blvl_status blvl_q3_bsp_read(blvl_q3_bsp **out, const void *data, size_t size,
                             const blvl_options *opt, blvl_error *err) {
    if (!out || (!data && size))
        return blvl__fail(err, BLVL_E_ARGUMENT, "no output pointer or no data");
    *out = NULL;
    if (size > BLVL_Q3_MAX_FILE)
        return blvl__fail_source(err, "header", "size", 0, "file-size",
                                 "%zu bytes, over the 1 GiB limit", size);
    rd r = {.p = data, .a = opt ? &opt->allocator : NULL, .err = err};
    r.bsp = blvl__calloc(r.a, sizeof *r.bsp);
    if (!r.bsp)
        return blvl__nomem(err, "the map's structs");
    r.bsp->allocator = r.a ? *r.a : (blvl_allocator){0};
    blvl_status st = read_header(&r, size);
    if (st == BLVL_OK)
        st = read_simple(&r);
    if (st == BLVL_OK)
        st = read_models_brushes(&r);
    if (st == BLVL_OK)
        st = read_tree(&r);
    if (st == BLVL_OK)
        st = read_verts(&r);
    if (st == BLVL_OK)
        st = read_fogs(&r);
    if (st == BLVL_OK)
        st = read_surfaces(&r);
    if (st == BLVL_OK)
        st = read_light(&r);
    if (st == BLVL_OK)
        st = check_clusters(&r);
    if (st != BLVL_OK) {
        if (st == BLVL_E_NOMEM)
            blvl__nomem(err, "the map's structs");
        blvl_q3_bsp_free(r.bsp);
        return st;
    }
    *out = r.bsp;
    blvl__ok(err);
    return BLVL_OK;
}

void blvl_q3_bsp_free(blvl_q3_bsp *b) {
    if (!b)
        return;
    blvl_allocator al = b->allocator; /* b itself goes last */
    const blvl_allocator *a = &al;
    void *arrays[] = {b->entities,      b->shaders,      b->planes, b->nodes,    b->leafs,
                      b->leaf_surfaces, b->leaf_brushes, b->models, b->brushes,  b->brush_sides,
                      b->draw_verts,    b->draw_indexes, b->fogs,   b->surfaces, b->lightmaps,
                      b->light_grid,    b->vis};
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
        if (arrays[i])
            blvl__free_sized(a, arrays[i]);
    blvl__dealloc(a, b, sizeof *b);
}
