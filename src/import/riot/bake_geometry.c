/* One layer's terrain (docs/IMPORT-RIOT.md, "Terrain", "Vertex colour", "Symbols"): the vertex
 * grid in qu with normals and Lambert colours, a symbol source per cell, and the drawn
 * triangles: one surface per material of the layer, each cell's triangles in it in cell order
 * (a cell's two triangles share their corners when both are drawn with one material), and
 * each triangle's cell in the bake's per-triangle source map. */
#include <math.h>
#include <string.h>

#include "bake_internal.h"
#include "blvl/sections/bsym.h"
#include "common/alloc.h"
#include "common/error.h"

static size_t grid_n(const rb_grid *g) {
    return ((size_t)g->w + 1) * ((size_t)g->h + 1);
}

/* pos, normal and color are in the bake's arena: the made vertices read them when the bake
 * writes (blvl__bake_model_add_surface_made), so they live as long as the bake. */
void blvl__import_riot_bake_grid_free(riot_bake *c, rb_grid *g) {
    if (g->hraw)
        blvl__dealloc(c->al, g->hraw, grid_n(g) * sizeof *g->hraw);
    memset(g, 0, sizeof *g);
}

static uint8_t channel(uint8_t ambient, uint8_t light, double k) {
    double v = (double)ambient + (double)light * k;
    return (uint8_t)(v >= 255.0 ? 255 : lround(v));
}

blvl_status blvl__import_riot_bake_grid_make(riot_bake *c, uint32_t layer, rb_grid *g) {
    const blvl_riot_layer *L = &c->lv->layers[layer];
    memset(g, 0, sizeof *g);
    if (!L->width || !L->height)
        return BLVL_OK; /* no cells: nothing drawn, nothing solid */
    g->w = L->width;
    g->h = L->height;
    size_t n = grid_n(g), row = (size_t)g->w + 1;
    g->hraw = blvl__alloc(c->al, n * sizeof *g->hraw);
    g->pos = blvl__bake_model_arena(c->b, n * sizeof *g->pos);
    g->normal = blvl__bake_model_arena(c->b, n * sizeof *g->normal);
    g->color = blvl__bake_model_arena(c->b, n * sizeof *g->color);
    if (!g->hraw || !g->pos || !g->normal || !g->color)
        return blvl__nomem(c->err, "the bake's scratch memory");
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

/* A made surface's vertices (blvl__bake_model_add_surface_made): a grid vertex's position, normal
 * and colour with a cell corner's UV, 8 bytes a vertex here instead of the model's 44. */
typedef struct rb_made {
    const blvl_Vec3 *pos, *normal;
    const uint8_t (*color)[4];
    const uint32_t *grid;    /* per vertex: its grid vertex */
    const uint16_t (*uv)[2]; /* per vertex: the cell's u and v at that corner */
} rb_made;

static void make_vertices(const void *ctx, uint32_t first, uint32_t count, blvl_bake_vertex *out) {
    const rb_made *m = ctx;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t i = m->grid[first + k];
        const uint16_t *uv = m->uv[first + k];
        blvl_bake_vertex *v = &out[k];
        memset(v, 0, sizeof *v);
        v->position[0] = m->pos[i].x, v->position[1] = m->pos[i].y, v->position[2] = m->pos[i].z;
        v->normal[0] = m->normal[i].x, v->normal[1] = m->normal[i].y;
        v->normal[2] = m->normal[i].z;
        v->uv[0] = (float)(uv[0] / 65535.0);
        v->uv[1] = (float)(uv[1] / 65535.0);
        memcpy(v->color, m->color[i], 4);
    }
}

/* What a cell draws: its triangles' materials, and whether both go in one piece (both drawn
 * with one material: four corners shared) or each alone. */
typedef struct cell_draw {
    uint32_t m[2];
    bool drawn[2];
    int runs; /* 1: both triangles together; 2: each drawn one alone */
} cell_draw;

static cell_draw cell_draw_of(const riot_bake *c, const blvl_riot_cell *cell) {
    cell_draw d;
    d.m[0] = blvl__import_riot_bake_material(c, cell->texture[0]);
    d.m[1] = blvl__import_riot_bake_material(c, cell->texture[1]);
    d.drawn[0] = blvl__import_riot_bake_drawn(cell->texture[0]);
    d.drawn[1] = blvl__import_riot_bake_drawn(cell->texture[1]);
    d.runs = d.drawn[0] && d.drawn[1] && d.m[0] == d.m[1] ? 1 : 2;
    return d;
}

void blvl__import_riot_bake_counts(const riot_bake *c, uint32_t layer, bake_counts *n) {
    const blvl_riot_layer *L = &c->lv->layers[layer];
    size_t cells = (size_t)L->width * L->height;
    uint64_t s = n->sources, v = 0, i = n->indices, k = n->made_prisms; /* v: made vertices */
    for (size_t q = 0; q < cells; q++) {
        const blvl_riot_cell *cell = &L->cells[q];
        cell_draw d = cell_draw_of(c, cell);
        s++;
        if (d.runs == 1)
            v += 4, i += 6; /* the two triangles share their four corners */
        else
            v += 3u * (d.drawn[0] + d.drawn[1]), i += 3u * (d.drawn[0] + d.drawn[1]);
        /* one collider per cell is between the merged (fewer) and split (two) extremes */
        k += cell->texture[0] != BLVL_RIOT_HOLE || cell->texture[1] != BLVL_RIOT_HOLE;
    }
    /* one surface per material the layer draws (at most every material, and the cells) */
    uint64_t f = n->surfaces + (cells < (uint64_t)c->mat_count + 1 ? cells : c->mat_count + 1u);
    uint64_t t = n->tri_sources + (i - n->indices) / 3u;
    /* past the tables' limit the model refuses anyway: saturate and let it say so */
    n->sources = s < UINT32_MAX ? (uint32_t)s : UINT32_MAX;
    n->indices = i < UINT32_MAX ? (uint32_t)i : UINT32_MAX;
    n->surfaces = f < UINT32_MAX ? (uint32_t)f : UINT32_MAX;
    n->tri_sources = t < UINT32_MAX ? (uint32_t)t : UINT32_MAX;
    n->made_prisms = k < UINT32_MAX ? (uint32_t)k : UINT32_MAX;
    /* the grid and the made vertices' references in the bake's arena (the prisms keep their
     * grid corners, not corners: bake_collide.c) */
    n->arena += ((size_t)L->width + 1) * ((size_t)L->height + 1) * (2 * sizeof(blvl_Vec3) + 4);
    n->arena += (size_t)v * (sizeof(uint32_t) + 2 * sizeof(uint16_t));
    n->arena += ((size_t)c->mat_count + 1) * (sizeof(rb_made) + 8);
}

/* One surface per material the layer draws, in the order the cells first draw each, so the
 * written geometry (surfaces of a batch in the order added, a surface's vertices in its own
 * order) and the .bsym's runs are what one surface per cell gave; a per-triangle source map
 * names each triangle's cell (blvl__bake_model_add_surface_tris). */
typedef struct mat_run {
    uint32_t v, i, t;    /* counts, then (writing) how many written */
    uint32_t v0, i0, t0; /* where its region starts in the layer's room */
    uint32_t next;       /* the next material in first-drawn order */
} mat_run;

static const mat_run EMPTY_RUN = {0, 0, 0, 0, 0, 0, UINT32_MAX};

void blvl__import_riot_bake_terrain_free(riot_bake *c) {
    if (c->runs)
        blvl__dealloc(c->al, c->runs, ((size_t)c->mat_count + 1) * sizeof *c->runs);
    c->runs = NULL;
}

/* Counts per material slot (m, or mat_count for none; every slot empty on entry) and the
 * first-drawn order. */
static uint32_t count_runs(const riot_bake *c, const blvl_riot_layer *L, size_t cells, mat_run *mr,
                           uint32_t *tot) {
    uint32_t head = UINT32_MAX, *tail = &head;
    for (size_t q = 0; q < cells; q++) {
        cell_draw d = cell_draw_of(c, &L->cells[q]);
        for (int run = 0; run < d.runs; run++) {
            int t = d.runs == 1 ? 0 : run;
            if (!d.drawn[t])
                continue;
            uint32_t m = d.m[t] < c->mat_count ? d.m[t] : c->mat_count;
            if (!mr[m].t) {
                *tail = m;
                tail = &mr[m].next;
            }
            mr[m].v += d.runs == 1 ? 4 : 3;
            mr[m].i += d.runs == 1 ? 6 : 3;
            mr[m].t += d.runs == 1 ? 2 : 1;
        }
    }
    tot[0] = tot[1] = tot[2] = 0;
    for (uint32_t m = head; m != UINT32_MAX; m = mr[m].next) {
        mr[m].v0 = tot[0], mr[m].i0 = tot[1], mr[m].t0 = tot[2];
        tot[0] += mr[m].v, tot[1] += mr[m].i, tot[2] += mr[m].t;
        mr[m].v = mr[m].i = mr[m].t = 0;
    }
    return head;
}

blvl_status blvl__import_riot_bake_terrain(riot_bake *c, uint32_t layer, const rb_grid *g,
                                           uint32_t *first_source) {
    const blvl_riot_layer *L = &c->lv->layers[layer];
    *first_source = BLVL_BAKE_NONE;
    bool ceiling = L->type == 1;
    size_t cells = (size_t)g->w * g->h, nm = (size_t)c->mat_count + 1;
    if (!cells)
        return BLVL_OK; /* no cells: nothing drawn, no source */
    if (!c->runs) {
        c->runs = blvl__alloc(c->al, nm * sizeof *c->runs);
        if (!c->runs)
            return blvl__nomem(c->err, "the bake's scratch memory");
        for (size_t m = 0; m < nm; m++)
            c->runs[m] = EMPTY_RUN;
    }
    mat_run *mr = c->runs;
    uint32_t tot[3];
    uint32_t head = count_runs(c, L, cells, mr, tot);
    /* the layer's room, written in place (bake/known.h): no staging copy; the made vertices'
     * references in the bake's arena */
    blvl_bake_vertex *no_vertices = NULL;
    uint32_t *idx = NULL, *ts = NULL;
    uint32_t *vg = blvl__bake_model_arena(c->b, (size_t)tot[0] * sizeof *vg);
    uint16_t(*vuv)[2] = blvl__bake_model_arena(c->b, (size_t)tot[0] * sizeof *vuv);
    if (tot[0] && (!vg || !vuv))
        return blvl__nomem(c->err, "the bake's scratch memory");
    blvl_status st = blvl__bake_model_surface_room(c->b, 0, tot[1], &no_vertices, &idx, c->err);
    if (st == BLVL_OK)
        st = blvl__bake_model_tri_source_room(c->b, tot[2], &ts, c->err);
    for (uint32_t r = 0; r < g->h && st == BLVL_OK; r++)
        for (uint32_t col = 0; col < g->w; col++) {
            size_t k = (size_t)r * g->w + col;
            const blvl_riot_cell *cell = &L->cells[k];
            /* the source: the four corners' vertex types, the cell's flags and layer type */
            uint32_t types = 0;
            for (int q = 0; q < 4; q++)
                types |= (uint32_t)L->vertices[corner_index(g, r, col, q)].type << (8 * q);
            cell_draw d = cell_draw_of(c, cell);
            blvl_bake_source s = {blvl_SourceKind_Face,
                                  (uint32_t)k,
                                  types,
                                  (uint32_t)cell->flags | (L->type << 16),
                                  c->layer_entity[layer],
                                  d.m[0] != BLVL_BAKE_NONE ? d.m[0] : d.m[1]};
            uint32_t src;
            if ((st = blvl_bake_add_source(c->b, &s, &src, c->err)) != BLVL_OK)
                break;
            if (k == 0)
                *first_source = src;
            const uint8_t(*tri)[3] = TRI[cell->flags & 1];
            for (int run = 0; run < d.runs; run++) {
                int only = d.runs == 1 ? -1 : run; /* -1: both triangles */
                if (only >= 0 && !d.drawn[only])
                    continue;
                uint32_t m = d.m[only < 0 ? 0 : only];
                mat_run *u = &mr[m < c->mat_count ? m : c->mat_count];
                uint32_t *gg = vg + u->v0 + u->v, *ii = idx + u->i0 + u->i, nv = 0, ni = 0;
                uint16_t(*uu)[2] = vuv + u->v0 + u->v;
                int slot[4] = {-1, -1, -1, -1};
                for (int t = 0; t < 2; t++) {
                    if (!d.drawn[t] || (only >= 0 && t != only))
                        continue;
                    for (int j = 0; j < 3; j++) {
                        /* a ceiling faces down: the same corners the other way round */
                        int q = tri[t][ceiling && j ? 3 - j : j];
                        if (slot[q] < 0) {
                            slot[q] = (int)nv;
                            gg[nv] = (uint32_t)corner_index(g, r, col, q);
                            uu[nv][0] = cell->uv[U_SLOT[q]];
                            uu[nv++][1] = cell->uv[V_SLOT[q]];
                        }
                        ii[ni++] = u->v + (uint32_t)slot[q]; /* local to the material's surface */
                    }
                    ts[u->t0 + u->t++] = src;
                }
                u->v += nv;
                u->i += ni;
            }
        }
    for (uint32_t m = head; m != UINT32_MAX && st == BLVL_OK; m = mr[m].next) {
        rb_made *mk = blvl__bake_model_arena(c->b, sizeof *mk);
        if (!mk)
            return blvl__nomem(c->err, "the bake's scratch memory");
        *mk = (rb_made){g->pos, g->normal, (const uint8_t(*)[4])g->color, vg + mr[m].v0,
                        (const uint16_t(*)[2])(vuv + mr[m].v0)};
        blvl_bake_surface sf;
        blvl_bake_surface_init(&sf);
        sf.vertex_count = mr[m].v;
        sf.indices = idx + mr[m].i0;
        sf.index_count = mr[m].i;
        sf.material = m < c->mat_count ? m : BLVL_BAKE_NONE;
        st = blvl__bake_model_add_surface_made(c->b, &sf, ts + mr[m].t0, make_vertices, mk, c->err);
    }
    for (uint32_t m = head, next; m != UINT32_MAX; m = next) /* empty again for the next layer */
        next = mr[m].next, mr[m] = EMPTY_RUN;
    return st;
}
