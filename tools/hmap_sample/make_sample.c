/* hmap_make_sample [--compiled] OUT.hmap: writes the bundled sample map (tests/data/hmap/) with
 * blvl's own .hmap writer, through the public API only.
 *
 * Three rooms in a row along +X (map units are metres: unitsPerMeter 1), 4 m high:
 *   A  x 0..8      a walled pool of water, a point light, a spawn, a teleporter to C
 *   B  x 8.25..16.25  behind a func_door (slides up); a crate (convex mesh), a clip brush in
 *                  a corner, a jump pad (trigger_push) aimed at a target_position, a spot
 *                  light, a spawn of team red
 *   C  x 16.5..24.5   through an open doorway; a sky ceiling (solid + sky), an L-shaped step
 *                  (a non-convex mesh), a trigger_hurt, the teleport destination
 * and a light_sun; the overview camera (info_player_intermission) stands high in C looking back
 * down the row. Without --compiled the file holds the source chunks (META MATS BRSH MESH
 * ENTS); with it, a compiled-only file of the same map (MATS ENTS CMPL): batches of the drawn
 * faces, one collision model per brush entity, a one-leaf BSP, mesh collision and the light
 * table (a sun stored as the direction its light travels). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/hmap.h"

#define MAXB 64
#define T 0.25f

/* Every block the program allocates, freed before it exits (so sanitizers see no leak). */
static void *blocks[4096];
static int nblocks;

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size);
    if (!p || nblocks == (int)(sizeof blocks / sizeof *blocks)) {
        fprintf(stderr, "hmap_make_sample: out of memory\n");
        exit(1);
    }
    return blocks[nblocks++] = p;
}

static void *xrealloc(void *old, size_t size) {
    void *p = realloc(old, size);
    if (!p) {
        fprintf(stderr, "hmap_make_sample: out of memory\n");
        exit(1);
    }
    for (int i = 0; i < nblocks; i++)
        if (blocks[i] == old)
            return blocks[i] = p;
    if (nblocks == (int)(sizeof blocks / sizeof *blocks))
        exit(1);
    return blocks[nblocks++] = p;
}

static void free_all(void) {
    while (nblocks > 0)
        free(blocks[--nblocks]);
}

static blvl_hmap_str S(const char *s) {
    blvl_hmap_str r = {(uint32_t)strlen(s), (char *)s};
    return r;
}

static blvl_Vec3 V(float x, float y, float z) {
    blvl_Vec3 v = {x, y, z};
    return v;
}

enum { M_FLOOR, M_WALL, M_CEIL, M_SKY, M_WATER, M_DOOR, M_CRATE, M_CLIP, M_TRIGGER, M_STONE, NMAT };

static blvl_hmap_material mats[NMAT];

static void material(int i, const char *name, const char *tex, float tw, float th, blvl_Vec3 c) {
    mats[i].name = S(name);
    mats[i].texture = S(tex);
    mats[i].tile_size.x = tw;
    mats[i].tile_size.y = th;
    mats[i].color = c;
    mats[i].flags = 0;
}

/* entity ids 1..13, object ids from 100 */
enum {
    E_WORLD = 1,
    E_DOOR,
    E_TELE,
    E_DEST,
    E_HURT,
    E_PUSH,
    E_APEX,
    E_LIGHT,
    E_SPOT,
    E_SUN,
    E_SPAWN1,
    E_SPAWN2,
    E_INTER,
    NENT = E_INTER
};

static blvl_hmap_entity ents[NENT];
static blvl_hmap_pair pairs[NENT][8];

static void entity(uint32_t id, const char *cls, blvl_Vec3 origin, blvl_Vec3 angles,
                   const char *const *kv) {
    blvl_hmap_entity *e = &ents[id - 1];
    e->id = id;
    e->classname = S(cls);
    e->origin = origin;
    e->angles = angles;
    e->scale = V(1, 1, 1);
    e->pairs = pairs[id - 1];
    for (int k = 0; kv && kv[k]; k += 2) {
        pairs[id - 1][e->pair_count].key = S(kv[k]);
        pairs[id - 1][e->pair_count].value = S(kv[k + 1]);
        e->pair_count++;
    }
}

typedef struct box {
    blvl_Vec3 lo, hi;
    uint32_t owner, contents;
    int mat;
} box;

static box boxes[MAXB];
static int nbox;

static void brush(float x0, float y0, float z0, float x1, float y1, float z1, uint32_t contents,
                  int mat, uint32_t owner) {
    box *b = &boxes[nbox++];
    b->lo = V(x0, y0, z0);
    b->hi = V(x1, y1, z1);
    b->contents = contents;
    b->mat = mat;
    b->owner = owner;
}

/* the six outward planes of a box: +X -X +Y -Y +Z -Z */
static void box_planes(const box *b, blvl_Plane p[6]) {
    const float lo[3] = {b->lo.x, b->lo.y, b->lo.z}, hi[3] = {b->hi.x, b->hi.y, b->hi.z};
    for (int a = 0; a < 3; a++) {
        float n[3] = {0, 0, 0};
        n[a] = 1;
        p[2 * a].normal = V(n[0], n[1], n[2]);
        p[2 * a].dist = hi[a];
        p[2 * a + 1].normal = V(-n[0], -n[1], -n[2]);
        p[2 * a + 1].dist = -lo[a];
    }
}

/* the four corners of face f (plane order of box_planes), counter-clockwise seen from outside */
static void box_face(const box *b, int f, blvl_Vec3 q[4]) {
    float x0 = b->lo.x, y0 = b->lo.y, z0 = b->lo.z, x1 = b->hi.x, y1 = b->hi.y, z1 = b->hi.z;
    switch (f) {
    case 0: /* +X */
        q[0] = V(x1, y0, z1), q[1] = V(x1, y0, z0), q[2] = V(x1, y1, z0), q[3] = V(x1, y1, z1);
        break;
    case 1: /* -X */
        q[0] = V(x0, y0, z0), q[1] = V(x0, y0, z1), q[2] = V(x0, y1, z1), q[3] = V(x0, y1, z0);
        break;
    case 2: /* +Y */
        q[0] = V(x0, y1, z0), q[1] = V(x0, y1, z1), q[2] = V(x1, y1, z1), q[3] = V(x1, y1, z0);
        break;
    case 3: /* -Y */
        q[0] = V(x0, y0, z0), q[1] = V(x1, y0, z0), q[2] = V(x1, y0, z1), q[3] = V(x0, y0, z1);
        break;
    case 4: /* +Z */
        q[0] = V(x0, y0, z1), q[1] = V(x1, y0, z1), q[2] = V(x1, y1, z1), q[3] = V(x0, y1, z1);
        break;
    default: /* -Z */
        q[0] = V(x1, y0, z0), q[1] = V(x0, y0, z0), q[2] = V(x0, y1, z0), q[3] = V(x1, y1, z0);
        break;
    }
}

static void build_world(void) {
    material(M_FLOOR, "rock/floor", "textures/rock/floor.png", 2, 2, V(0.8f, 0.8f, 0.8f));
    material(M_WALL, "rock/wall", "textures/rock/wall.png", 2, 2, V(0.9f, 0.85f, 0.8f));
    material(M_CEIL, "rock/ceiling", "textures/rock/ceiling.png", 2, 2, V(0.7f, 0.7f, 0.75f));
    material(M_SKY, "sky/dusk", "textures/sky/dusk.png", 8, 8, V(0.5f, 0.6f, 0.9f));
    material(M_WATER, "liquid/water", "textures/liquid/water.png", 2, 2, V(0.2f, 0.4f, 0.8f));
    material(M_DOOR, "metal/door", "textures/metal/door.png", 2, 3, V(0.6f, 0.6f, 0.6f));
    material(M_CRATE, "wood/crate", "textures/wood/crate.png", 1, 1, V(0.8f, 0.6f, 0.4f));
    material(M_CLIP, "tools/clip", "textures/tools/clip.png", 1, 1, V(1, 0.5f, 0));
    material(M_TRIGGER, "tools/trigger", "textures/tools/trigger.png", 1, 1, V(1, 0.5f, 1));
    material(M_STONE, "rock/stone", "textures/rock/stone.png", 1, 1, V(0.6f, 0.6f, 0.6f));

    entity(E_WORLD, "worldspawn", V(0, 0, 0), V(0, 0, 0),
           (const char *const[]){"message", "Rockgrave sample", NULL});
    entity(E_DOOR, "func_door", V(8.125f, 1.5f, 4), V(0, 0, 0),
           (const char *const[]){"targetname", "gate", "angle", "-1", "lip", "0.125", "speed", "2",
                                 "wait", "4", NULL});
    entity(E_TELE, "trigger_teleport", V(6.75f, 1, 6.75f), V(0, 0, 0),
           (const char *const[]){"target", "arrival", NULL});
    entity(E_DEST, "info_teleport_destination", V(20.5f, 0.75f, 4), V(0, 90, 0),
           (const char *const[]){"targetname", "arrival", NULL});
    entity(E_HURT, "trigger_hurt", V(23, 0.5f, 1.5f), V(0, 0, 0),
           (const char *const[]){"dmg", "10", NULL});
    entity(E_PUSH, "trigger_push", V(9.75f, 0.125f, 1.25f), V(0, 0, 0),
           (const char *const[]){"target", "jump_apex", NULL});
    entity(E_APEX, "target_position", V(12, 3, 1.25f), V(0, 0, 0),
           (const char *const[]){"targetname", "jump_apex", NULL});
    entity(E_LIGHT, "light", V(4, 3.5f, 4), V(0, 0, 0),
           (const char *const[]){"color", "1 0.9 0.8", "intensity", "1.5", "radius", "10", NULL});
    entity(E_SPOT, "light_spot", V(12.25f, 3.9f, 4), V(-90, 0, 0),
           (const char *const[]){"color", "0.8 0.9 1", "intensity", "2", "radius", "6", "inner",
                                 "20", "outer", "35", NULL});
    entity(E_SUN, "light_sun", V(20, 10, 4), V(-60, 30, 0),
           (const char *const[]){"color", "1 0.95 0.85", "intensity", "2", NULL});
    entity(E_SPAWN1, "info_player_start", V(1, 0.75f, 7), V(0, 0, 0), NULL);
    entity(E_SPAWN2, "info_player_start", V(13, 0.75f, 3), V(0, 90, 0),
           (const char *const[]){"team", "red", NULL});
    /* the overview camera: high in C's far wall, looking back down the row of rooms (-X) through
     * the open doorway into B and on to the door of A */
    entity(E_INTER, "info_player_intermission", V(24, 3.3f, 4), V(-12, 90, 0), NULL);

    const uint32_t SOLID = BLVL_HMAP_SOLID;
    /* floors and ceilings, one per room (C's ceiling is sky) */
    brush(-T, -T, -T, 8.25f, 0, 8 + T, SOLID, M_FLOOR, 0);
    brush(8.25f, -T, -T, 16.5f, 0, 8 + T, SOLID, M_FLOOR, 0);
    brush(16.5f, -T, -T, 24.5f + T, 0, 8 + T, SOLID, M_FLOOR, 0);
    brush(-T, 4, -T, 8.25f, 4 + T, 8 + T, SOLID, M_CEIL, 0);
    brush(8.25f, 4, -T, 16.5f, 4 + T, 8 + T, SOLID, M_CEIL, 0);
    brush(16.5f, 4, -T, 24.5f + T, 4 + T, 8 + T, SOLID | BLVL_HMAP_SKY, M_SKY, 0);
    /* outer walls */
    brush(-T, 0, -T, 24.5f + T, 4, 0, SOLID, M_WALL, 0);
    brush(-T, 0, 8, 24.5f + T, 4, 8 + T, SOLID, M_WALL, 0);
    brush(-T, 0, 0, 0, 4, 8, SOLID, M_WALL, 0);
    brush(24.5f, 0, 0, 24.5f + T, 4, 8, SOLID, M_WALL, 0);
    /* A|B wall with the door's gap z 3..5, y 0..3; B|C wall with an open doorway */
    brush(8, 0, 0, 8.25f, 4, 3, SOLID, M_WALL, 0);
    brush(8, 0, 5, 8.25f, 4, 8, SOLID, M_WALL, 0);
    brush(8, 3, 3, 8.25f, 4, 5, SOLID, M_WALL, 0);
    brush(16.25f, 0, 0, 16.5f, 4, 3, SOLID, M_WALL, 0);
    brush(16.25f, 0, 5, 16.5f, 4, 8, SOLID, M_WALL, 0);
    brush(16.25f, 3, 3, 16.5f, 4, 5, SOLID, M_WALL, 0);
    /* the door */
    brush(8, 0, 3, 8.25f, 3, 5, SOLID, M_DOOR, E_DOOR);
    /* the pool in A: a rim 1 m high and the water inside it */
    brush(2, 0, 2, 5, 1, 2 + T, SOLID, M_STONE, 0);
    brush(2, 0, 5 - T, 5, 1, 5, SOLID, M_STONE, 0);
    brush(2, 0, 2 + T, 2 + T, 1, 5 - T, SOLID, M_STONE, 0);
    brush(5 - T, 0, 2 + T, 5, 1, 5 - T, SOLID, M_STONE, 0);
    brush(2 + T, 0, 2 + T, 5 - T, 0.875f, 5 - T, BLVL_HMAP_WATER, M_WATER, 0);
    /* a clip brush in B's far corner */
    brush(14.25f, 0, 6, 16.25f, 4, 8, BLVL_HMAP_CLIP, M_CLIP, 0);
    /* trigger volumes */
    brush(6, 0, 6, 7.5f, 2, 7.5f, BLVL_HMAP_TRIGGER, M_TRIGGER, E_TELE);
    brush(22, 0, 0.5f, 24, 1, 2.5f, BLVL_HMAP_TRIGGER, M_TRIGGER, E_HURT);
    brush(9, 0, 0.5f, 10.5f, 0.25f, 2, BLVL_HMAP_TRIGGER, M_TRIGGER, E_PUSH);
}

/* ---- meshes -------------------------------------------------------------------------------- */

#define MAXV 32
#define MAXP 16
typedef struct mesh_src {
    const char *name;
    int mat;
    blvl_Vec3 v[MAXV];
    uint32_t nv;
    uint32_t idx[MAXP][8];
    uint32_t nidx[MAXP];
    uint32_t np;
    int uvs; /* give every polygon explicit uvs (0..1 over its corners) */
} mesh_src;

static mesh_src meshes_src[2];

static void poly(mesh_src *m, int n, const uint32_t *ix) {
    memcpy(m->idx[m->np], ix, (size_t)n * sizeof *ix);
    m->nidx[m->np++] = (uint32_t)n;
}

static void build_meshes(void) {
    /* the crate: a 1 m cube on B's floor, explicit uvs */
    mesh_src *c = &meshes_src[0];
    c->name = "crate";
    c->mat = M_CRATE;
    c->uvs = 1;
    box cb = {V(11, 0, 5), V(12, 1, 6), 0, 0, 0};
    for (int f = 0; f < 6; f++) {
        blvl_Vec3 q[4];
        box_face(&cb, f, q);
        uint32_t ix[4];
        for (int k = 0; k < 4; k++) { /* weld the corners */
            uint32_t at = 0;
            while (at < c->nv && memcmp(&c->v[at], &q[k], sizeof q[k]) != 0)
                at++;
            if (at == c->nv)
                c->v[c->nv++] = q[k];
            ix[k] = at;
        }
        poly(c, 4, ix);
    }
    /* the L-shaped step in C: the profile in x-y extruded along z 6..7; polygons are convex,
     * so each L cap is two of them and the x = 18 side two quads */
    mesh_src *l = &meshes_src[1];
    l->name = "step";
    l->mat = M_STONE;
    const float px[7] = {0, 2, 2, 0.5f, 0.5f, 0, 0}, py[7] = {0, 0, 0.5f, 0.5f, 1.5f, 1.5f, 0.5f};
    for (int k = 0; k < 7; k++) {
        l->v[k] = V(18 + px[k], py[k], 7);     /* front cap (+Z) */
        l->v[7 + k] = V(18 + px[k], py[k], 6); /* back cap */
    }
    l->nv = 14;
    poly(l, 5, (const uint32_t[]){0, 1, 2, 3, 6});   /* front, lower part */
    poly(l, 4, (const uint32_t[]){6, 3, 4, 5});      /* front, upper part */
    poly(l, 5, (const uint32_t[]){7, 13, 10, 9, 8}); /* back, lower */
    poly(l, 4, (const uint32_t[]){13, 12, 11, 10});  /* back, upper */
    poly(l, 4, (const uint32_t[]){0, 7, 8, 1});      /* bottom (-Y) */
    poly(l, 4, (const uint32_t[]){1, 8, 9, 2});      /* +X end */
    poly(l, 4, (const uint32_t[]){2, 9, 10, 3});     /* top of the low part */
    poly(l, 4, (const uint32_t[]){3, 10, 11, 4});    /* +X face of the riser */
    poly(l, 4, (const uint32_t[]){4, 11, 12, 5});    /* top of the riser */
    poly(l, 4, (const uint32_t[]){5, 12, 13, 6});    /* -X side, upper */
    poly(l, 4, (const uint32_t[]){6, 13, 7, 0});     /* -X side, lower */
}

static blvl_hmap_mesh *make_meshes(uint32_t first_id) {
    blvl_hmap_mesh *out = xcalloc(2, sizeof *out);
    for (int i = 0; i < 2; i++) {
        mesh_src *s = &meshes_src[i];
        blvl_hmap_mesh *m = &out[i];
        m->id = first_id + (uint32_t)i;
        m->name = S(s->name);
        m->vertex_count = s->nv;
        m->vertices = s->v;
        m->poly_count = s->np;
        m->polys = xcalloc(s->np, sizeof *m->polys);
        for (uint32_t p = 0; p < s->np; p++) {
            blvl_hmap_poly *po = &m->polys[p];
            po->material = s->mat;
            po->smooth = 0;
            po->proj.scale.x = po->proj.scale.y = 1;
            po->index_count = s->nidx[p];
            po->indices = s->idx[p];
            if (s->uvs) {
                static const blvl_Vec2 quad[4] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
                po->uv_count = s->nidx[p];
                po->uvs = xcalloc(po->uv_count, sizeof *po->uvs);
                for (uint32_t k = 0; k < po->uv_count; k++)
                    po->uvs[k] = quad[k % 4];
            }
        }
    }
    return out;
}

/* ---- CMPL ------------------------------------------------------------------------------------ */

static int drawn(const box *b) {
    return !(b->contents & BLVL_HMAP_TRIGGER) &&
           !((b->contents & BLVL_HMAP_CLIP) && !(b->contents & BLVL_HMAP_SOLID));
}

/* the model of an owner: 0 the world, then one per brush entity in ENTS order */
static const uint32_t model_owner[] = {0, E_DOOR, E_TELE, E_HURT, E_PUSH};
#define NMODEL 5

static int model_of(uint32_t owner) {
    for (int m = 0; m < NMODEL; m++)
        if (model_owner[m] == owner)
            return m;
    return 0;
}

static blvl_hmap_cbrush cbrush(const box *b, uint32_t id) {
    blvl_hmap_cbrush c = {0};
    c.contents = b->contents;
    c.source_id = id;
    c.bounds.min = b->lo;
    c.bounds.max = b->hi;
    c.plane_count = 6;
    c.planes = xcalloc(6, sizeof *c.planes);
    box_planes(b, c.planes);
    return c;
}

static uint32_t color_of(int mat, float shade) {
    uint32_t r = (uint32_t)lrintf(mats[mat].color.x * shade * 255);
    uint32_t g = (uint32_t)lrintf(mats[mat].color.y * shade * 255);
    uint32_t b = (uint32_t)lrintf(mats[mat].color.z * shade * 255);
    return r | g << 8 | b << 16 | 0xFFu << 24;
}

static void batch_add(blvl_hmap_batch *ba, const blvl_Vec3 *q, int n, blvl_Vec3 normal,
                      uint32_t color) {
    uint32_t base = ba->vertex_count;
    ba->vertices = xrealloc(ba->vertices, (base + (uint32_t)n) * sizeof *ba->vertices);
    ba->indices =
        xrealloc(ba->indices, (ba->index_count + 3 * (uint32_t)(n - 2)) * sizeof(uint32_t));
    for (int k = 0; k < n; k++) {
        blvl_hmap_cvertex *v = &ba->vertices[base + (uint32_t)k];
        v->pos = q[k];
        v->normal = normal;
        v->uv.x = q[k].x + q[k].z;
        v->uv.y = -q[k].y;
        v->color = color;
    }
    for (int k = 2; k < n; k++) {
        ba->indices[ba->index_count++] = base;
        ba->indices[ba->index_count++] = base + (uint32_t)k - 1;
        ba->indices[ba->index_count++] = base + (uint32_t)k;
    }
    ba->vertex_count += (uint32_t)n;
}

static blvl_hmap_batch *find_batch(blvl_hmap_compiled *c, int mat, int model, uint8_t source) {
    for (uint32_t i = 0; i < c->batch_count; i++)
        if (c->batches[i].material == mat && c->batches[i].model == model &&
            c->batches[i].source == source)
            return &c->batches[i];
    c->batches = xrealloc(c->batches, (c->batch_count + 1) * sizeof *c->batches);
    blvl_hmap_batch *b = &c->batches[c->batch_count++];
    memset(b, 0, sizeof *b);
    b->material = mat;
    b->model = model;
    b->source = source;
    return b;
}

static blvl_Vec3 poly_normal(const blvl_Vec3 *v, const uint32_t *ix, uint32_t n) {
    double x = 0, y = 0, z = 0;
    for (uint32_t k = 0; k < n; k++) {
        blvl_Vec3 a = v[ix[k]], b = v[ix[(k + 1) % n]];
        x += ((double)a.y - b.y) * ((double)a.z + b.z);
        y += ((double)a.z - b.z) * ((double)a.x + b.x);
        z += ((double)a.x - b.x) * ((double)a.y + b.y);
    }
    double l = sqrt(x * x + y * y + z * z);
    return V((float)(x / l), (float)(y / l), (float)(z / l));
}

static blvl_hmap_light light_of(uint32_t id, uint8_t type) {
    const blvl_hmap_entity *e = &ents[id - 1];
    blvl_hmap_light l = {0};
    l.type = type;
    l.pos = e->origin;
    double p = e->angles.x * 3.14159265358979323846 / 180,
           y = e->angles.y * 3.14159265358979323846 / 180;
    l.dir = V((float)(-sin(y) * cos(p)), (float)sin(p), (float)(-cos(y) * cos(p)));
    l.entity_id = id;
    return l;
}

static blvl_hmap_compiled *make_compiled(const blvl_hmap_mesh *meshes) {
    blvl_hmap_compiled *c = xcalloc(1, sizeof *c);
    c->ambient = V(0.2f, 0.2f, 0.25f);
    c->units_per_meter = 1;
    c->baked = 1;
    c->bounds.min = V(-T, -T, -T);
    c->bounds.max = V(24.5f + T, 4 + T, 8 + T);
    /* batches: the drawn brushes' faces, then the meshes' polygons */
    for (int i = 0; i < nbox; i++) {
        const box *b = &boxes[i];
        if (!drawn(b))
            continue;
        blvl_hmap_batch *ba = find_batch(c, b->mat, model_of(b->owner), 0);
        blvl_Plane pl[6];
        box_planes(b, pl);
        for (int f = 0; f < 6; f++) {
            blvl_Vec3 q[4];
            box_face(b, f, q);
            batch_add(ba, q, 4, pl[f].normal, color_of(b->mat, 0.75f + 0.05f * (float)f));
        }
    }
    for (int i = 0; i < 2; i++) {
        const blvl_hmap_mesh *m = &meshes[i];
        blvl_hmap_batch *ba = find_batch(c, meshes_src[i].mat, 0, 1);
        for (uint32_t p = 0; p < m->poly_count; p++) {
            blvl_Vec3 q[8];
            for (uint32_t k = 0; k < m->polys[p].index_count; k++)
                q[k] = m->vertices[m->polys[p].indices[k]];
            batch_add(ba, q, (int)m->polys[p].index_count,
                      poly_normal(m->vertices, m->polys[p].indices, m->polys[p].index_count),
                      color_of(meshes_src[i].mat, 0.9f));
        }
    }
    /* collision models and the BSP: one leaf listing every world brush */
    c->model_count = NMODEL;
    c->models = xcalloc(NMODEL, sizeof *c->models);
    for (int m = 0; m < NMODEL; m++) {
        blvl_hmap_model *mo = &c->models[m];
        mo->entity_id = m == 0 ? E_WORLD : model_owner[m];
        mo->bounds.min = V(1e9f, 1e9f, 1e9f);
        mo->bounds.max = V(-1e9f, -1e9f, -1e9f);
        mo->brushes = xcalloc((size_t)nbox, sizeof *mo->brushes);
        for (int i = 0; i < nbox; i++)
            if (model_of(boxes[i].owner) == m) {
                mo->brushes[mo->brush_count++] = cbrush(&boxes[i], 100 + (uint32_t)i);
                mo->bounds.min.x = fminf(mo->bounds.min.x, boxes[i].lo.x);
                mo->bounds.min.y = fminf(mo->bounds.min.y, boxes[i].lo.y);
                mo->bounds.min.z = fminf(mo->bounds.min.z, boxes[i].lo.z);
                mo->bounds.max.x = fmaxf(mo->bounds.max.x, boxes[i].hi.x);
                mo->bounds.max.y = fmaxf(mo->bounds.max.y, boxes[i].hi.y);
                mo->bounds.max.z = fmaxf(mo->bounds.max.z, boxes[i].hi.z);
            }
    }
    blvl_hmap_bsp *t = &c->bsp;
    t->root = -1; /* ~0: leaf 0 */
    t->depth = 0;
    t->bounds = c->bounds;
    t->leaf_count = 1;
    t->leaves = xcalloc(1, sizeof *t->leaves);
    t->leaves[0].brush_count = c->models[0].brush_count;
    t->leaf_brush_count = c->models[0].brush_count;
    t->leaf_brushes = xcalloc(t->leaf_brush_count, sizeof(uint32_t));
    for (uint32_t k = 0; k < t->leaf_brush_count; k++)
        t->leaf_brushes[k] = k;
    t->brush_count = c->models[0].brush_count;
    t->brushes = c->models[0].brushes;
    /* mesh collision: each mesh's polygons fan-triangulated */
    c->mesh_coll_count = 2;
    c->mesh_colls = xcalloc(2, sizeof *c->mesh_colls);
    for (int i = 0; i < 2; i++) {
        const blvl_hmap_mesh *m = &meshes[i];
        blvl_hmap_mesh_coll *mc = &c->mesh_colls[i];
        mc->object_id = m->id;
        mc->vertices = xcalloc(3 * 64, sizeof *mc->vertices);
        mc->bounds.min = V(1e9f, 1e9f, 1e9f);
        mc->bounds.max = V(-1e9f, -1e9f, -1e9f);
        for (uint32_t p = 0; p < m->poly_count; p++)
            for (uint32_t k = 2; k < m->polys[p].index_count; k++) {
                const uint32_t *ix = m->polys[p].indices;
                mc->vertices[mc->vertex_count++] = m->vertices[ix[0]];
                mc->vertices[mc->vertex_count++] = m->vertices[ix[k - 1]];
                mc->vertices[mc->vertex_count++] = m->vertices[ix[k]];
            }
        for (uint32_t k = 0; k < m->vertex_count; k++) {
            blvl_Vec3 v = m->vertices[k];
            mc->bounds.min.x = fminf(mc->bounds.min.x, v.x);
            mc->bounds.min.y = fminf(mc->bounds.min.y, v.y);
            mc->bounds.min.z = fminf(mc->bounds.min.z, v.z);
            mc->bounds.max.x = fmaxf(mc->bounds.max.x, v.x);
            mc->bounds.max.y = fmaxf(mc->bounds.max.y, v.y);
            mc->bounds.max.z = fmaxf(mc->bounds.max.z, v.z);
        }
    }
    /* lights: a sun's dir is where its light travels (the entity's forward) */
    c->light_count = 3;
    c->lights = xcalloc(3, sizeof *c->lights);
    c->lights[0] = light_of(E_LIGHT, 0);
    c->lights[0].dir = V(0, 0, 0);
    c->lights[0].color = V(1, 0.9f, 0.8f), c->lights[0].intensity = 1.5f, c->lights[0].radius = 10;
    c->lights[1] = light_of(E_SPOT, 1);
    c->lights[1].color = V(0.8f, 0.9f, 1), c->lights[1].intensity = 2, c->lights[1].radius = 6;
    c->lights[1].inner_deg = 20, c->lights[1].outer_deg = 35;
    c->lights[2] = light_of(E_SUN, 2);
    c->lights[2].color = V(1, 0.95f, 0.85f), c->lights[2].intensity = 2;
    return c;
}

int main(int argc, char **argv) {
    int compiled = argc == 3 && strcmp(argv[1], "--compiled") == 0;
    if (argc != 2 + compiled) {
        fprintf(stderr, "usage: hmap_make_sample [--compiled] OUT.hmap\n");
        return 2;
    }
    const char *out_path = argv[argc - 1];
    build_world();
    build_meshes();
    uint32_t first_mesh = 100 + (uint32_t)nbox;
    blvl_hmap_mesh *meshes = make_meshes(first_mesh);

    blvl_hmap map = {0};
    map.version = BLVL_HMAP_VERSION;
    blvl_hmap_meta meta = {S("Rockgrave sample: three rooms"), V(0.2f, 0.2f, 0.25f), 0.25f, 1,
                           first_mesh + 2};
    map.material_count = NMAT;
    map.materials = mats;
    map.has_mats = true;
    map.entity_count = NENT;
    map.entities = ents;
    map.has_ents = true;
    if (compiled) {
        map.flags = BLVL_HMAP_FLAG_COMPILED;
        map.compiled = make_compiled(meshes);
    } else {
        map.flags = BLVL_HMAP_FLAG_SOURCE;
        map.meta = &meta;
        map.brush_count = (uint32_t)nbox;
        map.brushes = xcalloc((size_t)nbox, sizeof *map.brushes);
        for (int i = 0; i < nbox; i++) {
            blvl_hmap_brush *b = &map.brushes[i];
            b->id = 100 + (uint32_t)i;
            b->owner = boxes[i].owner;
            b->contents = boxes[i].contents;
            b->face_count = 6;
            b->faces = xcalloc(6, sizeof *b->faces);
            blvl_Plane pl[6];
            box_planes(&boxes[i], pl);
            for (int f = 0; f < 6; f++) {
                b->faces[f].plane = pl[f];
                b->faces[f].material = boxes[i].mat;
                b->faces[f].uv.scale.x = b->faces[f].uv.scale.y = 1;
            }
        }
        map.has_brsh = true;
        map.mesh_count = 2;
        map.meshes = meshes;
        map.has_mesh = true;
    }
    void *bytes;
    size_t size;
    blvl_error err;
    if (blvl_hmap_write(&bytes, &size, &map, NULL, &err) != BLVL_OK) {
        fprintf(stderr, "hmap_make_sample: %s\n", err.message);
        return 1;
    }
    FILE *f = fopen(out_path, "wb");
    if (!f || fwrite(bytes, 1, size, f) != size || fclose(f) != 0) {
        fprintf(stderr, "hmap_make_sample: cannot write %s\n", out_path);
        return 1;
    }
    blvl_free(NULL, bytes);
    free_all();
    return 0;
}
