/* The world mesh. blvl and glTF share their axes (+Y up, -Z forward, right-handed) and their
 * front face (counter-clockwise), so a position only scales to metres and indices keep their
 * order. All vertices go into one set of attribute accessors that every primitive shares; each
 * batch is one primitive (its own index accessor into the one index view), and the batches that
 * move or vanish together (same door, same breakable) are one mesh on one node. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export_internal.h"

/* sRGB byte to linear 0..1 (glTF's COLOR_0 is linear). */
static float srgb_to_linear(uint8_t b) {
    double c = b / 255.0;
    return (float)(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4));
}

/* Unit length in double; 0 when the vector has no direction. */
static int unit3(double v[3]) {
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(l > 1e-12) || !isfinite(l))
        return 0;
    v[0] /= l, v[1] /= l, v[2] /= l;
    return 1;
}

typedef struct batch_key {
    uint32_t door, breakable, batch;
} batch_key;

static int cmp_key(const void *a, const void *b) {
    const batch_key *p = a, *q = b;
    if (p->door != q->door)
        return p->door < q->door ? -1 : 1;
    if (p->breakable != q->breakable)
        return p->breakable < q->breakable ? -1 : 1;
    return p->batch < q->batch ? -1 : p->batch > q->batch;
}

/* Converts every vertex into the six attribute arrays and sets acc[a] to each one's accessor
 * (POSITION, NORMAL, TANGENT, TEXCOORD_0, TEXCOORD_1, COLOR_0), XP_NONE for one left out:
 * COLOR_0 when every vertex is opaque white (glTF's value without it), TEXCOORD_1 when every
 * lightmap uv is (0, 0) and there is no lightmap to address. */
static void vertices(gltf_export *x, blvl_Geometry g, uint32_t nv, uint32_t acc[6]) {
    size_t off;
    uint8_t *base = blvl__export_buf_take(&x->bin, (size_t)nv * 72, &off);
    for (int a = 0; a < 6; a++)
        acc[a] = XP_NONE;
    if (!base) {
        blvl__export_check(x);
        return;
    }
    int white = 1, uv1_zero = 1;
    float *pos = (float *)base, *nrm = pos + (size_t)nv * 3, *tan = nrm + (size_t)nv * 3,
          *uv0 = tan + (size_t)nv * 4, *uv1 = uv0 + (size_t)nv * 2, *col = uv1 + (size_t)nv * 2;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    float lin[256];
    for (int i = 0; i < 256; i++)
        lin[i] = srgb_to_linear((uint8_t)i);
    blvl_Vertex chunk[256];
    for (uint32_t first = 0; first < nv; first += 256) {
        size_t n = blvl_Geometry_vertices_copy(g, first, chunk, 256);
        for (size_t k = 0; k < n; k++) {
            const blvl_Vertex *v = &chunk[k];
            size_t i = first + k;
            double p[3] = {v->position.x, v->position.y, v->position.z};
            double nn[3] = {v->normal.x, v->normal.y, v->normal.z};
            double uv[4] = {v->uv.x, v->uv.y, v->lightmap_uv.x, v->lightmap_uv.y};
            if (!blvl__export_finite(p, 3) || !blvl__export_finite(nn, 3) ||
                !blvl__export_finite(uv, 4)) {
                blvl__export_fail(x, BLVL_E_ARGUMENT, "non-finite: geometry.vertices[%zu]", i);
                return;
            }
            for (int c = 0; c < 3; c++) {
                float f = (float)(p[c] * XP_M);
                pos[i * 3 + c] = f;
                if (f < lo[c])
                    lo[c] = f;
                if (f > hi[c])
                    hi[c] = f;
            }
            /* glTF wants unit normals and tangents: a vertex without a direction gets +Y, and a
             * tangent without one gets any direction at right angles to the normal. */
            if (!unit3(nn))
                nn[0] = 0, nn[1] = 1, nn[2] = 0;
            double t[3] = {v->tangent.x / 32767.0, v->tangent.y / 32767.0, v->tangent.z / 32767.0};
            if (!unit3(t)) {
                double a[3] = {fabs(nn[0]) < 0.9 ? 1 : 0, fabs(nn[0]) < 0.9 ? 0 : 1, 0};
                t[0] = a[1] * nn[2] - a[2] * nn[1];
                t[1] = a[2] * nn[0] - a[0] * nn[2];
                t[2] = a[0] * nn[1] - a[1] * nn[0];
                unit3(t);
            }
            for (int c = 0; c < 3; c++) {
                nrm[i * 3 + c] = (float)nn[c];
                tan[i * 4 + c] = (float)t[c];
            }
            tan[i * 4 + 3] = v->tangent.w < 0 ? -1.0f : 1.0f;
            uv0[i * 2] = v->uv.x, uv0[i * 2 + 1] = v->uv.y;
            uv1[i * 2] = v->lightmap_uv.x, uv1[i * 2 + 1] = v->lightmap_uv.y;
            uv1_zero &= v->lightmap_uv.x == 0 && v->lightmap_uv.y == 0;
            white &=
                v->color.r == 255 && v->color.g == 255 && v->color.b == 255 && v->color.a == 255;
            col[i * 4] = lin[v->color.r];
            col[i * 4 + 1] = lin[v->color.g];
            col[i * 4 + 2] = lin[v->color.b];
            col[i * 4 + 3] = v->color.a / 255.0f;
        }
        if (n < 256 && first + n < nv) {
            blvl__export_fail(x, BLVL_E_ARGUMENT, "index-range: geometry.vertices: short read");
            return;
        }
    }
    static const struct {
        uint32_t size, comps;
        const char *type;
    } attr[6] = {{12, 3, "VEC3"}, {12, 3, "VEC3"}, {16, 4, "VEC4"},
                 {8, 2, "VEC2"},  {8, 2, "VEC2"},  {16, 4, "VEC4"}};
    int keep[6] = {1, 1, 1, 1, !uv1_zero || x->lightmap_texture != XP_NONE, !white};
    size_t at = off;
    uint8_t *to = base;
    for (int a = 0; a < 6; a++) {
        size_t bytes = (size_t)nv * attr[a].size;
        if (!keep[a]) {
            at += bytes;
            continue;
        }
        /* A kept array moves down over the ones left out before it. */
        size_t dst = off + (size_t)(to - base);
        if (dst != at)
            memmove(to, base + (at - off), bytes);
        uint32_t view = blvl__export_view(x, dst, bytes, 0, 34962); /* ARRAY_BUFFER */
        acc[a] = blvl__export_accessor(x, view, 0, 5126, 0, nv, attr[a].type, a == 0 ? lo : NULL,
                                       a == 0 ? hi : NULL, 3);
        to += bytes;
        at += bytes;
    }
    blvl__export_buf_trim(&x->bin, off + (size_t)(to - base));
}

static void primitive(gltf_export *x, blvl_Batch b, uint32_t bi, const uint32_t attrs[6],
                      uint32_t index_view, uint32_t index_size) {
    json_text *j = &x->meshes;
    uint32_t first = blvl_Batch_first_index(b), count = blvl_Batch_index_count(b),
             m = blvl_Batch_material(b);
    uint32_t acc =
        blvl__export_accessor(x, index_view, (size_t)first * index_size,
                              index_size == 2 ? 5123 : 5125, 0, count, "SCALAR", NULL, NULL, 0);
    static const char *const names[6] = {"POSITION",   "NORMAL",     "TANGENT",
                                         "TEXCOORD_0", "TEXCOORD_1", "COLOR_0"};
    blvl__export_json_obj(j, NULL);
    blvl__export_json_obj(j, "attributes");
    for (uint32_t a = 0; a < 6; a++)
        if (attrs[a] != XP_NONE)
            blvl__export_json_u64(j, names[a], attrs[a]);
    blvl__export_json_end(j);
    blvl__export_json_u64(j, "indices", acc);
    if (m != XP_NONE)
        blvl__export_json_u64(j, "material", m);
    blvl__export_json_obj(j, "extras");
    blvl__export_json_obj(j, "blvl");
    blvl__export_json_u64(j, "batch", bi);
    if (m != XP_NONE && x->lightmap_texture != XP_NONE && x->material_lightmapped[m]) {
        blvl__export_json_obj(j, "lightmap");
        blvl__export_json_u64(j, "texture", x->lightmap_texture);
        blvl__export_json_u64(j, "texCoord", 1);
        blvl__export_json_u64(j, "layer", blvl_Batch_lightmap_layer(b));
        blvl__export_json_u64(j, "layers", x->lightmap_layers);
        blvl__export_json_num(j, "gain", x->lightmap_gain);
        blvl__export_json_str(j, "encoding", x->lightmap_encoding == 1 ? "gamma8" : "linear-hdr");
        blvl__export_json_end(j);
    }
    uint32_t fog = blvl_Batch_fog(b), gt = blvl_Batch_gametypes(b);
    if (fog != XP_NONE)
        blvl__export_json_u64(j, "fog", fog);
    if (gt != XP_NONE)
        blvl__export_json_u64(j, "gametypes", gt);
    blvl__export_batch_source(x, j, bi);
    blvl__export_json_end(j);
    blvl__export_json_end(j);
    blvl__export_json_end(j);
}

blvl_status blvl__export_geometry(gltf_export *x) {
    if (!x->have_geo)
        return x->st;
    blvl_Geometry g = x->geo;
    uint32_t nv = blvl_Geometry_vertices_len(g), ni = blvl_Geometry_indices_len(g),
             nb = blvl_Geometry_batches_len(g);
    /* Every batch first: a refusal comes before any work. */
    uint32_t drawn = 0;
    for (uint32_t i = 0; i < nb; i++) {
        blvl_Batch b = blvl_Geometry_batches_at(g, i);
        uint32_t first = blvl_Batch_first_index(b), count = blvl_Batch_index_count(b),
                 m = blvl_Batch_material(b);
        if (first % 3 || count % 3 || (uint64_t)first + count > ni)
            return blvl__export_fail(
                x, BLVL_E_ARGUMENT,
                "index-range: geometry.batches[%u]: indices %u..%u of %u (whole "
                "triangles inside indices)",
                (unsigned)i, (unsigned)first, (unsigned)(first + count), (unsigned)ni);
        if (m != XP_NONE && m >= x->level_materials)
            return blvl__export_fail(
                x, BLVL_E_ARGUMENT,
                "index-range: geometry.batches[%u].material: %u past the %u materials", (unsigned)i,
                (unsigned)m, (unsigned)x->level_materials);
        if (count)
            drawn++;
    }
    if (!drawn || !nv)
        return x->st;
    /* The indices, each checked against the vertices. */
    size_t ioff;
    uint8_t *ib = blvl__export_buf_take(&x->bin, (size_t)ni * 4, &ioff);
    if (!ib)
        return blvl__export_check(x), x->st;
    blvl_Geometry_indices_copy(g, 0, (uint32_t *)ib, ni);
    const uint32_t *idx = (const uint32_t *)ib;
    for (uint32_t i = 0; i < ni; i++)
        if (idx[i] >= nv)
            return blvl__export_fail(
                x, BLVL_E_ARGUMENT,
                "index-range: geometry.indices[%u]: vertex %u past the %u vertices", (unsigned)i,
                (unsigned)idx[i], (unsigned)nv);
    /* UNSIGNED_SHORT indices when every vertex number fits below 65535 (the primitive restart
     * value glTF keeps out of index data): each one moves down to its 2-byte place, which is
     * never past where it is read from. */
    uint32_t index_size = nv <= 65535 ? 2 : 4;
    if (index_size == 2) {
        for (uint32_t i = 0; i < ni; i++) {
            uint32_t v;
            memcpy(&v, ib + (size_t)i * 4, 4);
            uint16_t w = (uint16_t)v;
            memcpy(ib + (size_t)i * 2, &w, 2);
        }
        blvl__export_buf_trim(&x->bin, ioff + (size_t)ni * 2);
    }
    uint32_t index_view =
        blvl__export_view(x, ioff, (size_t)ni * index_size, 0, 34963); /* ELEMENT_ARRAY_BUFFER */
    uint32_t attrs[6];
    vertices(x, g, nv, attrs);
    if (x->st != BLVL_OK)
        return x->st;

    batch_key *keys = blvl__calloc_n(x->al, drawn, sizeof *keys);
    if (!keys)
        return blvl__export_fail(x, BLVL_E_NOMEM, "the batch keys");
    uint32_t k = 0;
    for (uint32_t i = 0; i < nb; i++) {
        blvl_Batch b = blvl_Geometry_batches_at(g, i);
        if (blvl_Batch_index_count(b))
            keys[k++] = (batch_key){blvl_Batch_door(b), blvl_Batch_breakable(b), i};
    }
    qsort(keys, drawn, sizeof *keys, cmp_key);
    json_text *j = &x->meshes;
    for (uint32_t s = 0; s < drawn;) {
        uint32_t e = s + 1;
        while (e < drawn && keys[e].door == keys[s].door && keys[e].breakable == keys[s].breakable)
            e++;
        char name[64];
        if (keys[s].door != XP_NONE)
            snprintf(name, sizeof name, "door %u", (unsigned)keys[s].door);
        else if (keys[s].breakable != XP_NONE)
            snprintf(name, sizeof name, "breakable %u", (unsigned)keys[s].breakable);
        else
            snprintf(name, sizeof name, "world");
        blvl__export_json_item(j);
        blvl__export_json_obj(j, NULL);
        blvl__export_json_str(j, "name", name);
        blvl__export_json_arr(j, "primitives");
        for (uint32_t i = s; i < e; i++)
            primitive(x, blvl_Geometry_batches_at(g, keys[i].batch), keys[i].batch, attrs,
                      index_view, index_size);
        blvl__export_json_end(j);
        blvl__export_json_end(j);
        uint32_t mesh = x->n_meshes++;
        json_text *nj = &x->nodes;
        blvl__export_json_item(nj);
        blvl__export_json_obj(nj, NULL);
        blvl__export_json_str(nj, "name", name);
        blvl__export_json_u64(nj, "mesh", mesh);
        if (keys[s].door != XP_NONE || keys[s].breakable != XP_NONE) {
            blvl__export_json_obj(nj, "extras");
            blvl__export_json_obj(nj, "blvl");
            if (keys[s].door != XP_NONE)
                blvl__export_json_u64(nj, "door", keys[s].door);
            if (keys[s].breakable != XP_NONE)
                blvl__export_json_u64(nj, "breakable", keys[s].breakable);
            blvl__export_json_end(nj);
            blvl__export_json_end(nj);
        }
        blvl__export_json_end(nj);
        blvl__export_scene_node(x, &x->scene0);
        s = e;
    }
    blvl__dealloc(x->al, keys, (size_t)drawn * sizeof *keys);
    blvl__export_check(x);
    return x->st;
}
