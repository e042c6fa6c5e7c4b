/* One layer's terrain (docs/IMPORT-RIOT.md, "Terrain", "Vertex colour", "Symbols"): the vertex
 * grid in qu with normals and Lambert colours, a symbol source per cell, and the drawn
 * triangles: per cell one surface when both triangles are drawn with one material, else one per
 * drawn triangle. */
#include <math.h>
#include <string.h>

#include "bake_internal.h"
#include "blvl/sections/bsym.h"
#include "common/alloc.h"

static size_t grid_n(const rb_grid *g) {
    return ((size_t)g->w + 1) * ((size_t)g->h + 1);
}

void blvl__rb_grid_free(rb *c, rb_grid *g) {
    size_t n = grid_n(g);
    if (g->hraw)
        blvl__dealloc(c->al, g->hraw, n * sizeof *g->hraw);
    if (g->pos)
        blvl__dealloc(c->al, g->pos, n * sizeof *g->pos);
    if (g->normal)
        blvl__dealloc(c->al, g->normal, n * sizeof *g->normal);
    if (g->color)
        blvl__dealloc(c->al, g->color, n * sizeof *g->color);
    memset(g, 0, sizeof *g);
}

static uint8_t channel(uint8_t ambient, uint8_t light, double k) {
    double v = (double)ambient + (double)light * k;
    return (uint8_t)(v >= 255.0 ? 255 : lround(v));
}

blvl_status blvl__rb_grid_make(rb *c, uint32_t layer, rb_grid *g) {
    const blvl_riot_layer *L = &c->lv->layers[layer];
    memset(g, 0, sizeof *g);
    if (!L->width || !L->height)
        return BLVL_OK; /* no cells: nothing drawn, nothing solid */
    g->w = L->width;
    g->h = L->height;
    size_t n = grid_n(g), row = (size_t)g->w + 1;
    g->hraw = blvl__alloc(c->al, n * sizeof *g->hraw);
    g->pos = blvl__alloc(c->al, n * sizeof *g->pos);
    g->normal = blvl__alloc(c->al, n * sizeof *g->normal);
    g->color = blvl__alloc(c->al, n * sizeof *g->color);
    if (!g->hraw || !g->pos || !g->normal || !g->color)
        return blvl__rb_nomem(c);
    for (size_t i = 0; i < n; i++) {
        size_t r = i / row, col = i % row;
        g->hraw[i] = 2 * ((int32_t)L->vertices[i].raw_height - 0x8000);
        double y = ((double)L->world_height + g->hraw[i]) * RB_QU_PER_UNIT;
        g->pos[i] = (blvl_Vec3){(float)(RB_CELL_QU * ((double)L->origin_x + (double)col)), (float)y,
                                (float)(RB_CELL_QU * ((double)L->origin_z + (double)r))};
    }
    /* toward the light: the light travels west at direction 0, south at pi/2, and down at
     * ascension pi/2 (docs/IMPORT-RIOT.md, "Vertex colour") */
    double th = L->light_direction, ph = L->light_ascension;
    double lx = cos(th) * cos(ph), ly = sin(ph), lz = -sin(th) * cos(ph);
    double face = L->type == 1 ? -1.0 : 1.0;
    for (size_t i = 0; i < n; i++) {
        size_t r = i / row, col = i % row;
        size_t c0 = col ? col - 1 : col, c1 = col < g->w ? col + 1 : col;
        size_t r0 = r ? r - 1 : r, r1 = r < g->h ? r + 1 : r;
        /* slopes from the integer offsets (world_height cancels): central differences */
        double dx = (double)(g->hraw[r * row + c1] - g->hraw[r * row + c0]) * RB_QU_PER_UNIT /
                    (RB_CELL_QU * (double)(c1 - c0));
        double dz = (double)(g->hraw[r1 * row + col] - g->hraw[r0 * row + col]) * RB_QU_PER_UNIT /
                    (RB_CELL_QU * (double)(r1 - r0));
        double nx = -dx, ny = 1.0, nz = -dz, len = sqrt(nx * nx + ny * ny + nz * nz);
        nx = face * nx / len, ny = face * ny / len, nz = face * nz / len;
        g->normal[i] = (blvl_Vec3){(float)nx, (float)ny, (float)nz};
        double k = nx * lx + ny * ly + nz * lz;
        k = k > 0 ? k : 0;
        g->color[i][0] = channel(L->ambient_color.r, L->light_color.r, k);
        g->color[i][1] = channel(L->ambient_color.g, L->light_color.g, k);
        g->color[i][2] = channel(L->ambient_color.b, L->light_color.b, k);
        g->color[i][3] = 255;
    }
    return BLVL_OK;
}

/* The corners of the left [0] and right [1] triangles, counter-clockwise seen from above:
 * division 0 (diagonal c-b): a-b-c and b-d-c; division 1 (diagonal a-d): a-c-d and a-d-b. */
static const uint8_t TRI[2][2][3] = {
    {{RB_A, RB_C, RB_B}, {RB_B, RB_C, RB_D}},
    {{RB_A, RB_C, RB_D}, {RB_A, RB_D, RB_B}},
};

/* The uv slots of corners a, b, c, d in the file order Uc Ud Ub Ua Vc Vd Vb Va. */
static const uint8_t U_SLOT[4] = {3, 2, 0, 1}, V_SLOT[4] = {7, 6, 4, 5};

static size_t corner_index(const rb_grid *g, uint32_t r, uint32_t col, int corner) {
    size_t row = (size_t)g->w + 1;
    return ((size_t)r + (corner >= RB_C)) * row + col + (corner & 1);
}

static blvl_bake_vertex vertex(const rb_grid *g, const blvl_riot_cell *cell, uint32_t r,
                               uint32_t col, int corner) {
    size_t i = corner_index(g, r, col, corner);
    blvl_bake_vertex v;
    memset(&v, 0, sizeof v);
    v.position[0] = g->pos[i].x, v.position[1] = g->pos[i].y, v.position[2] = g->pos[i].z;
    v.normal[0] = g->normal[i].x, v.normal[1] = g->normal[i].y, v.normal[2] = g->normal[i].z;
    v.uv[0] = (float)(cell->uv[U_SLOT[corner]] / 65535.0);
    v.uv[1] = (float)(cell->uv[V_SLOT[corner]] / 65535.0);
    memcpy(v.color, g->color[i], 4);
    return v;
}

void blvl__rb_counts(const rb *c, uint32_t layer, bake_counts *n) {
    const blvl_riot_layer *L = &c->lv->layers[layer];
    size_t cells = (size_t)L->width * L->height;
    uint64_t s = n->sources, v = n->vertices, i = n->indices, f = n->surfaces, k = n->colliders;
    uint64_t before = k;
    for (size_t q = 0; q < cells; q++) {
        const blvl_riot_cell *cell = &L->cells[q];
        bool d0 = blvl__rb_drawn(cell->texture[0]), d1 = blvl__rb_drawn(cell->texture[1]);
        s++;
        if (d0 && d1 &&
            blvl__rb_material(c, cell->texture[0]) == blvl__rb_material(c, cell->texture[1]))
            v += 4, i += 6, f += 1; /* one surface, as blvl__rb_terrain below */
        else
            v += 3u * (d0 + d1), i += 3u * (d0 + d1), f += (uint64_t)d0 + d1;
        /* one collider per cell is between the merged (fewer) and split (two) extremes */
        k += cell->texture[0] != BLVL_RIOT_HOLE || cell->texture[1] != BLVL_RIOT_HOLE;
    }
    /* past the tables' limit the model refuses anyway: saturate and let it say so */
    n->sources = s < UINT32_MAX ? (uint32_t)s : UINT32_MAX;
    n->vertices = v < UINT32_MAX ? (uint32_t)v : UINT32_MAX;
    n->indices = i < UINT32_MAX ? (uint32_t)i : UINT32_MAX;
    n->surfaces = f < UINT32_MAX ? (uint32_t)f : UINT32_MAX;
    n->colliders = k < UINT32_MAX ? (uint32_t)k : UINT32_MAX;
    /* the colliders' corners in the bake's arena: at most two prisms of 6 corners per cell */
    n->arena += (size_t)(k - before) * 2u * 6u * sizeof(blvl_Vec3);
}

blvl_status blvl__rb_terrain(rb *c, uint32_t layer, const rb_grid *g, uint32_t *first_source) {
    const blvl_riot_layer *L = &c->lv->layers[layer];
    blvl_status st = BLVL_OK;
    *first_source = BLVL_BAKE_NONE;
    bool ceiling = L->type == 1;
    for (uint32_t r = 0; r < g->h && st == BLVL_OK; r++)
        for (uint32_t col = 0; col < g->w && st == BLVL_OK; col++) {
            size_t k = (size_t)r * g->w + col;
            const blvl_riot_cell *cell = &L->cells[k];
            /* the source: the four corners' vertex types, the cell's flags and layer type */
            uint32_t types = 0;
            for (int q = 0; q < 4; q++)
                types |= (uint32_t)L->vertices[corner_index(g, r, col, q)].type << (8 * q);
            uint32_t m[2] = {blvl__rb_material(c, cell->texture[0]),
                             blvl__rb_material(c, cell->texture[1])};
            blvl_bake_source s = {blvl_SourceKind_Face,
                                  (uint32_t)k,
                                  types,
                                  (uint32_t)cell->flags | (L->type << 16),
                                  c->layer_entity[layer],
                                  m[0] != BLVL_BAKE_NONE ? m[0] : m[1]};
            uint32_t src;
            if ((st = blvl_bake_add_source(c->b, &s, &src, c->err)) != BLVL_OK)
                break;
            if (k == 0)
                *first_source = src;
            bool drawn[2] = {blvl__rb_drawn(cell->texture[0]), blvl__rb_drawn(cell->texture[1])};
            const uint8_t(*tri)[3] = TRI[cell->flags & 1];
            /* one surface for both triangles when they share a material, else one each */
            int runs = drawn[0] && drawn[1] && m[0] == m[1] ? 1 : 2;
            for (int run = 0; run < runs && st == BLVL_OK; run++) {
                /* written straight into the model's arrays (bake/known.h): no staging copy */
                blvl_bake_vertex *vs;
                uint32_t *idx, nv = 0, ni = 0;
                if ((st = blvl__bake_surface_room(c->b, 4, 6, &vs, &idx, c->err)) != BLVL_OK)
                    break;
                int slot[4] = {-1, -1, -1, -1};
                for (int t = 0; t < 2; t++) {
                    if (!drawn[t] || (runs == 2 && t != run))
                        continue;
                    for (int j = 0; j < 3; j++) {
                        /* a ceiling faces down: the same corners the other way round */
                        int q = tri[t][ceiling && j ? 3 - j : j];
                        if (slot[q] < 0) {
                            slot[q] = (int)nv;
                            vs[nv++] = vertex(g, cell, r, col, q);
                        }
                        idx[ni++] = (uint32_t)slot[q];
                    }
                }
                if (!ni)
                    continue;
                blvl_bake_surface sf;
                blvl_bake_surface_init(&sf);
                sf.vertices = vs;
                sf.vertex_count = nv;
                sf.indices = idx;
                sf.index_count = ni;
                sf.material = m[runs == 1 ? 0 : run];
                sf.source = src;
                st = blvl_bake_add_surface(c->b, &sf, c->err);
            }
        }
    return st;
}
