/* A random .hmap generator (hmap_gen.h). Geometry is computed in double precision and stored as
 * the file's floats; the tests take the truth from the stored floats, never from the bake. */
#include "hmap_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 16 /* planes of one generated brush */
#define PI 3.14159265358979323846
/* The clear disc kept above a floor spot (metres): the player box's half diagonal (0.58 m)
 * and the tests' margin around meshes (40 qu, 1.02 m), rounded up. */
#define SPOT_R 1.7
/* Horizontal radius that bounds every prop (metres): the largest rotated box's half diagonal. */
#define PROP_R 1.6
#define MESH_R 2.1 /* its half diagonal, 1.6 m, and the tests' 16 qu margin around meshes */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rng_next(rng *r) { /* splitmix64 */
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double rnd(rng *r, double lo, double hi) {
    return lo + (hi - lo) * (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}
static uint32_t rndi(rng *r, uint32_t n) {
    return (uint32_t)(rng_next(r) % n);
}
/* Multiples of a quarter metre keep axial faces on round map coordinates. */
static double quarter(double v) {
    return floor(v * 4.0 + 0.5) / 4.0;
}

/* A growable array: `n` used of `cap` elements of `size` bytes. */
static int grow(void **p, uint32_t *cap, uint32_t need, size_t size) {
    if (need <= *cap)
        return 0;
    uint32_t c = *cap ? *cap * 2 : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, (size_t)c * size);
    if (!q)
        return -1;
    memset((char *)q + (size_t)*cap * size, 0, (size_t)(c - *cap) * size);
    *p = q;
    *cap = c;
    return 0;
}

typedef struct dplane {
    double n[3], d;
} dplane;

/* A room's interior (metres) and the discs on its floor (x, z, radius): spots kept clear above
 * a floor, where the tests drop a player, and the props placed so far. */
#define ROOM_DISCS 24
typedef struct room {
    double lo[3], hi[3];
    double spot[ROOM_DISCS][3], prop[ROOM_DISCS][3];
    uint32_t spots, props;
} room;

typedef struct gen {
    hmap_gen *g;
    room *rooms;
    rng r;
    double s; /* map units per metre */
    uint32_t next_id;
    uint32_t brush_cap, mesh_cap, ent_cap, floor_cap, poly_cap;
    int oom;
} gen;

enum { M_FLOOR, M_WALL, M_TRIM, M_CRATE, M_WATER, M_SKY, M_CLIP, M_TRIGGER, M_ROCK, M_COUNT };
static const char *const mat_names[M_COUNT] = {"stone/floor", "stone/wall",    "metal/trim",
                                               "wood/crate",  "liquid/water",  "sky/overcast",
                                               "tools/clip",  "tools/trigger", "props/rock"};

static char *dupstr(gen *G, const char *s) {
    size_t n = strlen(s);
    char *p = malloc(n + 1);
    if (!p) {
        G->oom = 1;
        return NULL;
    }
    memcpy(p, s, n + 1);
    return p;
}
static blvl_hmap_str mkstr(gen *G, const char *s) {
    blvl_hmap_str out = {0, NULL};
    out.bytes = dupstr(G, s);
    out.size = out.bytes ? (uint32_t)strlen(s) : 0;
    return out;
}

static void dnorm(double v[3]) {
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    v[0] /= l;
    v[1] /= l;
    v[2] /= l;
}
static double ddot(const double a[3], const double b[3]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static void dcross(const double a[3], const double b[3], double o[3]) {
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* ---- polygons --------------------------------------------------------------------------- */

uint32_t hmap_gen_face_polygon(const blvl_Plane *planes, uint32_t count, uint32_t face,
                               double (*out)[3], uint32_t max) {
    double a[64][3], b[64][3];
    double n[3] = {planes[face].normal.x, planes[face].normal.y, planes[face].normal.z};
    double d = planes[face].dist, len = sqrt(ddot(n, n));
    if (!(len > 0))
        return 0;
    /* a float normal is unit only to 1e-7: the plane scaled to a unit normal in double is the
     * same plane, and keeps the base square's corners on it */
    for (int i = 0; i < 3; i++)
        n[i] /= len;
    d /= len;
    /* the base square: Quake's BaseWindingForPlane, in double */
    int ax = 0;
    double best = -1;
    for (int i = 0; i < 3; i++)
        if (fabs(n[i]) > best) {
            best = fabs(n[i]);
            ax = i;
        }
    double up[3] = {0, 0, 0};
    up[ax == 1 ? 2 : 1] = 1;
    double t = ddot(up, n);
    for (int i = 0; i < 3; i++)
        up[i] -= t * n[i];
    dnorm(up);
    double right[3], org[3];
    dcross(up, n, right);
    /* large enough to hold the brush (which lies within a few times its largest plane distance
     * of the origin), small enough that clipping keeps double precision */
    double size = 64;
    for (uint32_t k = 0; k < count; k++)
        size = fmax(size, 8.0 * fabs((double)planes[k].dist));
    for (int i = 0; i < 3; i++) {
        org[i] = n[i] * d;
        up[i] *= size;
        right[i] *= size;
    }
    uint32_t m = 4;
    for (int i = 0; i < 3; i++) {
        a[0][i] = org[i] - right[i] - up[i];
        a[1][i] = org[i] + right[i] - up[i];
        a[2][i] = org[i] + right[i] + up[i];
        a[3][i] = org[i] - right[i] + up[i];
    }
    /* right x up = n: these corners run counter-clockwise seen from the front (Quake's run the
     * other way) */
    for (uint32_t k = 0; k < count && m; k++) {
        if (k == face)
            continue;
        double kn[3] = {planes[k].normal.x, planes[k].normal.y, planes[k].normal.z};
        double kd = planes[k].dist;
        uint32_t o = 0;
        for (uint32_t i = 0; i < m && o < 62; i++) {
            const double *p = a[i], *q = a[(i + 1) % m];
            double dp = ddot(kn, p) - kd, dq = ddot(kn, q) - kd;
            if (dp <= 0)
                memcpy(b[o++], p, sizeof b[0]);
            if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) {
                double f = dp / (dp - dq);
                for (int j = 0; j < 3; j++)
                    b[o][j] = p[j] + f * (q[j] - p[j]);
                o++;
            }
        }
        m = o;
        memcpy(a, b, sizeof(double[3]) * m);
    }
    if (m < 3)
        return 0;
    /* no area: the plane only touches the brush along an edge or at a corner */
    double area2 = 0;
    for (uint32_t i = 1; i + 1 < m; i++) {
        double e1[3], e2[3], c[3];
        for (int j = 0; j < 3; j++) {
            e1[j] = a[i][j] - a[0][j];
            e2[j] = a[i + 1][j] - a[0][j];
        }
        dcross(e1, e2, c);
        area2 += ddot(c, n);
    }
    if (area2 < 1e-6)
        return 0;
    uint32_t w = m < max ? m : max;
    memcpy(out, a, sizeof(double[3]) * w);
    return m;
}

double hmap_gen_depth(const blvl_Plane *planes, uint32_t count, const double p[3]) {
    double worst = -INFINITY;
    for (uint32_t i = 0; i < count; i++) {
        double v = planes[i].normal.x * p[0] + planes[i].normal.y * p[1] +
                   planes[i].normal.z * p[2] - planes[i].dist;
        if (v > worst)
            worst = v;
    }
    return worst;
}

/* ---- brushes ----------------------------------------------------------------------------- */

static blvl_hmap_uv random_uv(gen *G) {
    blvl_hmap_uv uv;
    uv.offset.x = (float)quarter(rnd(&G->r, 0, 64));
    uv.offset.y = (float)quarter(rnd(&G->r, 0, 64));
    uv.scale.x = rndi(&G->r, 3) ? 1.0f : 0.5f;
    uv.scale.y = rndi(&G->r, 3) ? 1.0f : 2.0f;
    uv.rotation = (float)(15 * rndi(&G->r, 24));
    return uv;
}

/* Adds a brush (planes in map units; normals need not be unit). `mats` holds one material per
 * plane, or NULL for `mat` on every face. Returns its index. */
static uint32_t add_brush(gen *G, const dplane *pl, uint32_t n, uint32_t contents, uint32_t owner,
                          int32_t mat, const int32_t *mats) {
    hmap_gen *g = G->g;
    if (G->oom || grow((void **)&g->map.brushes, &G->brush_cap, g->map.brush_count + 1,
                       sizeof *g->map.brushes)) {
        G->oom = 1;
        return 0;
    }
    blvl_hmap_brush *b = &g->map.brushes[g->map.brush_count];
    b->id = G->next_id++;
    b->owner = owner;
    b->contents = contents;
    b->flags = rndi(&G->r, 8) == 0 ? 0x100u : 0; /* an editor flag bit now and then */
    b->faces = calloc(n, sizeof *b->faces);
    if (!b->faces) {
        G->oom = 1;
        return 0;
    }
    b->face_count = n;
    for (uint32_t i = 0; i < n; i++) {
        double v[3] = {pl[i].n[0], pl[i].n[1], pl[i].n[2]};
        double l = sqrt(ddot(v, v));
        blvl_hmap_face *f = &b->faces[i];
        f->plane.normal.x = (float)(v[0] / l);
        f->plane.normal.y = (float)(v[1] / l);
        f->plane.normal.z = (float)(v[2] / l);
        f->plane.dist = (float)(pl[i].d / l);
        f->material = mats ? mats[i] : mat;
        f->uv = random_uv(G);
        f->flags = 0;
    }
    return g->map.brush_count++;
}

static uint32_t add_box(gen *G, const double lo[3], const double hi[3], uint32_t contents,
                        uint32_t owner, int32_t mat) {
    dplane p[6];
    for (int a = 0; a < 3; a++) {
        dplane *hp = &p[2 * a], *lp = &p[2 * a + 1];
        memset(hp, 0, sizeof *hp);
        memset(lp, 0, sizeof *lp);
        hp->n[a] = 1;
        hp->d = hi[a];
        lp->n[a] = -1;
        lp->d = -lo[a];
    }
    return add_brush(G, p, 6, contents, owner, mat, NULL);
}

/* lo/hi given in metres */
static uint32_t add_box_m(gen *G, double x0, double y0, double z0, double x1, double y1, double z1,
                          uint32_t contents, uint32_t owner, int32_t mat) {
    double lo[3] = {x0 * G->s, y0 * G->s, z0 * G->s}, hi[3] = {x1 * G->s, y1 * G->s, z1 * G->s};
    return add_box(G, lo, hi, contents, owner, mat);
}

/* A floor and the spot (metres) above it that props keep clear. */
static void add_floor(gen *G, room *rm, uint32_t brush, double x, double z) {
    hmap_gen *g = G->g;
    uint32_t cap = G->floor_cap;
    if (G->oom || grow((void **)&g->floors, &G->floor_cap, g->floor_count + 1, sizeof *g->floors) ||
        grow((void **)&g->floor_spots, &cap, g->floor_count + 1, sizeof *g->floor_spots)) {
        G->oom = 1;
        return;
    }
    g->floor_spots[g->floor_count][0] = x * G->s;
    g->floor_spots[g->floor_count][1] = z * G->s;
    g->floors[g->floor_count++] = brush;
    if (rm->spots < ROOM_DISCS) {
        rm->spot[rm->spots][0] = x, rm->spot[rm->spots][1] = z;
        rm->spot[rm->spots++][2] = SPOT_R;
    }
}

static bool disc_hits(const double (*d)[3], uint32_t n, double x, double z, double r) {
    for (uint32_t i = 0; i < n; i++)
        if ((d[i][0] - x) * (d[i][0] - x) + (d[i][1] - z) * (d[i][1] - z) <
            (d[i][2] + r) * (d[i][2] + r))
            return true;
    return false;
}

/* A centre for something of horizontal radius r (metres) in the room, `margin` from its walls,
 * clear of the spots, and `alone`: of the props too (a new floor, a mesh, whose surroundings
 * the tests keep free of other brushes); false when none was found. */
static bool place_in(gen *G, room *rm, double margin, double r, bool alone, double *x, double *z) {
    for (int tries = 0; tries < 64; tries++) {
        *x = rnd(&G->r, rm->lo[0] + margin, rm->hi[0] - margin);
        *z = rnd(&G->r, rm->lo[2] + margin, rm->hi[2] - margin);
        if (disc_hits((const double(*)[3])rm->spot, rm->spots, *x, *z, r))
            continue;
        if (alone && (rm->props >= ROOM_DISCS || rm->spots >= ROOM_DISCS ||
                      disc_hits((const double(*)[3])rm->prop, rm->props, *x, *z, r)))
            continue;
        if (rm->props < ROOM_DISCS) {
            rm->prop[rm->props][0] = *x, rm->prop[rm->props][1] = *z;
            rm->prop[rm->props++][2] = r;
        }
        return true;
    }
    return false;
}

/* A random rotation matrix (axis-angle) or a turn about +Y only. */
static void rotation(gen *G, bool yaw_only, double R[3][3]) {
    double ax[3] = {0, 1, 0};
    if (!yaw_only) {
        ax[0] = rnd(&G->r, -1, 1);
        ax[1] = rnd(&G->r, -1, 1);
        ax[2] = rnd(&G->r, -1, 1);
        if (ddot(ax, ax) < 1e-3)
            ax[1] = 1;
        dnorm(ax);
    }
    double t = rnd(&G->r, 0.1, 3.0), c = cos(t), s = sin(t), k = 1 - c;
    double x = ax[0], y = ax[1], z = ax[2];
    double M[3][3] = {{c + x * x * k, x * y * k - z * s, x * z * k + y * s},
                      {y * x * k + z * s, c + y * y * k, y * z * k - x * s},
                      {z * x * k - y * s, z * y * k + x * s, c + z * z * k}};
    memcpy(R, M, sizeof M);
}

/* Moves planes given about the origin: rotate by R, then translate to c. */
static void place(dplane *p, uint32_t n, double R[3][3], const double c[3]) {
    for (uint32_t i = 0; i < n; i++) {
        double v[3];
        for (int r = 0; r < 3; r++)
            v[r] = R[r][0] * p[i].n[0] + R[r][1] * p[i].n[1] + R[r][2] * p[i].n[2];
        double l = sqrt(ddot(v, v));
        for (int r = 0; r < 3; r++)
            p[i].n[r] = v[r] / l;
        p[i].d = p[i].d / l + ddot(p[i].n, c);
    }
}

static uint32_t box_planes(dplane *p, const double h[3]) {
    for (int a = 0; a < 3; a++) {
        memset(&p[2 * a], 0, sizeof(dplane) * 2);
        p[2 * a].n[a] = 1;
        p[2 * a].d = h[a];
        p[2 * a + 1].n[a] = -1;
        p[2 * a + 1].d = h[a];
    }
    return 6;
}

/* A prop of `kind` (0..7; above: random) in the room, clear of its floor spots. */
static void add_prop(gen *G, room *rm, uint32_t kind) {
    rng *r = &G->r;
    double s = G->s;
    const double *hi = rm->hi;
    double y0 = rm->lo[1], cx, cz;
    dplane p[MAXP];
    double R[3][3], c[3];
    if (kind > 7)
        kind = rndi(r, 8);
    /* floors and water pools stand apart, so the tests can drop onto them and sample in them */
    if (!place_in(G, rm, 1.2, PROP_R, kind >= 6 || kind == 3, &cx, &cz))
        return;
    switch (kind) {
    case 0: { /* wedge: a ramp rising along local +x */
        double L = rnd(r, 0.6, 1.8), W = rnd(r, 0.5, 1.5), H = rnd(r, 0.3, 1.2);
        memset(p, 0, sizeof(dplane) * 5);
        p[0].n[1] = -1, p[0].d = 0;        /* bottom at local y 0 */
        p[1].n[0] = 1, p[1].d = L / 2 * s; /* high end */
        p[2].n[2] = 1, p[2].d = W / 2 * s; /* sides */
        p[3].n[2] = -1, p[3].d = W / 2 * s;
        p[4].n[0] = -H, p[4].n[1] = L, p[4].d = 0; /* slope through (-L/2, 0) and (L/2, H) */
        p[4].d = (-H * (-L / 2) + L * 0) * s;
        rotation(G, true, R);
        c[0] = cx * s, c[1] = y0 * s, c[2] = cz * s;
        place(p, 5, R, c);
        add_brush(G, p, 5, BLVL_HMAP_SOLID, 0, rndi(r, 2) ? M_TRIM : M_FLOOR, NULL);
        break;
    }
    case 1: { /* a box turned about an arbitrary axis */
        double h[3] = {rnd(r, 0.2, 0.8) * s, rnd(r, 0.2, 0.8) * s, rnd(r, 0.2, 0.8) * s};
        uint32_t n = box_planes(p, h);
        rotation(G, false, R);
        c[0] = cx * s, c[1] = (y0 + rnd(r, 0.5, 1.5)) * s, c[2] = cz * s;
        place(p, n, R, c);
        add_brush(G, p, n, BLVL_HMAP_SOLID, 0, M_CRATE, NULL);
        break;
    }
    case 2: { /* an axial box with a corner cut off, sometimes a plane that bounds no face */
        double h[3] = {rnd(r, 0.3, 0.9) * s, rnd(r, 0.3, 0.9) * s, rnd(r, 0.3, 0.9) * s};
        uint32_t n = box_planes(p, h);
        double v[3] = {rndi(r, 2) ? 1 : -1, rndi(r, 2) ? 1 : -1, rndi(r, 2) ? 1 : -1};
        dnorm(v);
        double support = fabs(v[0]) * h[0] + fabs(v[1]) * h[1] + fabs(v[2]) * h[2];
        memcpy(p[n].n, v, sizeof v);
        p[n++].d = rnd(r, 0.45, 0.8) * support;
        if (rndi(r, 3) == 0) { /* redundant: clear of the brush, bounds no face */
            double w[3] = {v[0], -v[1], v[2]};
            memcpy(p[n].n, w, sizeof w);
            p[n++].d = 1.3 * support;
        }
        double I[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        c[0] = cx * s, c[1] = (y0 + rnd(r, 0.4, 1.4)) * s, c[2] = cz * s;
        place(p, n, I, c);
        int32_t mats[MAXP];
        for (uint32_t i = 0; i < n; i++)
            mats[i] = rndi(r, 10) == 0 ? -1 : (int32_t)(M_TRIM + rndi(r, 2));
        add_brush(G, p, n, BLVL_HMAP_SOLID, 0, 0, mats);
        break;
    }
    case 3: { /* water pool on the floor */
        double w = rnd(r, 0.6, 1.1), d = rnd(r, 0.6, 1.1);
        add_box_m(G, cx - w, y0, cz - d, cx + w, y0 + rnd(r, 0.4, 1.2), cz + d, BLVL_HMAP_WATER, 0,
                  M_WATER);
        break;
    }
    case 4: { /* player clip pillar */
        double w = rnd(r, 0.2, 0.6);
        add_box_m(G, cx - w, y0, cz - w, cx + w, hi[1], cz + w, BLVL_HMAP_CLIP, 0, M_CLIP);
        break;
    }
    case 5: { /* trigger volume owned by its entity */
        hmap_gen *g = G->g;
        if (G->oom || grow((void **)&g->map.entities, &G->ent_cap, g->map.entity_count + 1,
                           sizeof *g->map.entities)) {
            G->oom = 1;
            return;
        }
        blvl_hmap_entity *e = &g->map.entities[g->map.entity_count++];
        e->id = G->next_id++;
        bool hurt = rndi(r, 2);
        e->classname = mkstr(G, hurt ? "trigger_hurt" : "trigger_push");
        e->origin.x = (float)(cx * s), e->origin.y = (float)(y0 * s), e->origin.z = (float)(cz * s);
        e->scale.x = e->scale.y = e->scale.z = 1;
        e->pairs = calloc(1, sizeof *e->pairs);
        if (!e->pairs) {
            G->oom = 1;
            return;
        }
        e->pair_count = 1;
        e->pairs[0].key = mkstr(G, hurt ? "dmg" : "speed");
        e->pairs[0].value = mkstr(G, hurt ? "15" : "600");
        double w = rnd(r, 0.4, 1.0);
        add_box_m(G, cx - w, y0, cz - w, cx + w, y0 + rnd(r, 0.5, 2.0), cz + w, BLVL_HMAP_TRIGGER,
                  e->id, M_TRIGGER);
        break;
    }
    default: { /* a raised platform: another floor */
        double w = rnd(r, 0.5, 1.1), d = rnd(r, 0.5, 1.1), h = quarter(rnd(r, 0.25, 1.0));
        uint32_t b =
            add_box_m(G, cx - w, y0, cz - d, cx + w, y0 + h, cz + d, BLVL_HMAP_SOLID, 0, M_FLOOR);
        add_floor(G, rm, b, cx, cz);
        break;
    }
    }
}

/* ---- meshes ------------------------------------------------------------------------------ */

typedef struct mbuild {
    double v[16][3];
    uint32_t nv;
    uint32_t sizes[16];
    uint32_t idx[64];
    uint32_t np, ni;
} mbuild;

static void mpoly(mbuild *m, const uint32_t *ix, uint32_t n) {
    m->sizes[m->np++] = n;
    memcpy(m->idx + m->ni, ix, n * sizeof *ix);
    m->ni += n;
}

/* A prism: the convex polygon `base` (y = 0; counter-clockwise in (x, z), i.e. the angle from +x
 * toward +z grows, which is clockwise seen from +Y) extruded to y = h. Polygons are
 * counter-clockwise seen from outside: the bottom takes the base order, the top reversed. */
static void prism(mbuild *m, const double (*base)[2], uint32_t n, double h) {
    m->nv = 2 * n;
    for (uint32_t i = 0; i < n; i++) {
        m->v[i][0] = base[i][0], m->v[i][1] = 0, m->v[i][2] = base[i][1];
        m->v[n + i][0] = base[i][0], m->v[n + i][1] = h, m->v[n + i][2] = base[i][1];
    }
    uint32_t top[8], bot[8];
    for (uint32_t i = 0; i < n; i++) {
        top[i] = n + (n - 1 - i);
        bot[i] = i;
    }
    mpoly(m, top, n);
    mpoly(m, bot, n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = (i + 1) % n;
        uint32_t q[4] = {i, n + i, n + j, j};
        mpoly(m, q, 4);
    }
}

static void add_mesh(gen *G, room *rm, uint32_t kind) {
    const double *lo = rm->lo;
    hmap_gen *g = G->g;
    rng *r = &G->r;
    double s = G->s;
    mbuild m;
    memset(&m, 0, sizeof m);
    bool convex = true;
    const char *name = "rock";
    if (kind == 0 || kind == 1) { /* box or hexagonal prism */
        double b[6][2];
        uint32_t n = kind == 0 ? 4 : 6;
        double rad = rnd(r, 0.3, 0.8);
        for (uint32_t i = 0; i < n; i++) { /* counter-clockwise in (x, z) */
            double a = 2 * PI * i / n + (kind == 0 ? PI / 4 : 0);
            b[i][0] = rad * cos(a), b[i][1] = rad * sin(a);
        }
        prism(&m, (const double(*)[2])b, n, rnd(r, 0.4, 1.5));
        name = kind == 0 ? "crate_mesh" : "pillar_mesh";
    } else if (kind == 2) { /* an L prism: closed, not convex; caps split into two quads */
        double a = rnd(r, 0.8, 1.4), t = rnd(r, 0.3, 0.5), h = rnd(r, 0.5, 1.2);
        /* L outline (x, z): (0,0) (a,0) (a,t) (t,t) (t,a) (0,a); split at x = t */
        double P[8][2] = {{0, 0}, {t, 0}, {a, 0}, {a, t}, {t, t}, {t, a}, {0, a}, {0, t}};
        m.nv = 16;
        for (int i = 0; i < 8; i++) {
            double x = P[i][0] - a / 2, z = P[i][1] - a / 2; /* centred on its bounds */
            m.v[i][0] = x, m.v[i][1] = 0, m.v[i][2] = z;
            m.v[8 + i][0] = x, m.v[8 + i][1] = h, m.v[8 + i][2] = z;
        }
        /* bottom (normal -Y): counter-clockwise seen from below = increasing in (x, z) */
        uint32_t b1[4] = {1, 2, 3, 4}, b2b[4] = {0, 1, 4, 7}, b3[4] = {7, 4, 5, 6};
        mpoly(&m, b1, 4);
        mpoly(&m, b2b, 4);
        mpoly(&m, b3, 4);
        uint32_t t1[4] = {12, 11, 10, 9}, t2[4] = {15, 12, 9, 8}, t3[4] = {14, 13, 12, 15};
        mpoly(&m, t1, 4);
        mpoly(&m, t2, 4);
        mpoly(&m, t3, 4);
        /* sides: the outline 0 1 2 3 4 5 6 7 runs counter-clockwise in (x, z), as a prism's */
        for (uint32_t i = 0; i < 8; i++) {
            uint32_t j = (i + 1) % 8;
            uint32_t q[4] = {i, 8 + i, 8 + j, j};
            mpoly(&m, q, 4);
        }
        convex = false;
        name = "l_wall_mesh";
    } else { /* an open roof: two slanted quads meeting at a ridge, nothing closes it */
        double w = rnd(r, 0.5, 1.0), l = rnd(r, 0.6, 1.2), h = rnd(r, 0.3, 0.8), y = 1.0;
        double V[6][3] = {{-w, y, -l},    {-w, y, l}, {0, y + h, l},
                          {0, y + h, -l}, {w, y, l},  {w, y, -l}};
        m.nv = 6;
        memcpy(m.v, V, sizeof V);
        uint32_t q1[4] = {0, 1, 2, 3}, q2[4] = {3, 2, 4, 5};
        mpoly(&m, q1, 4);
        mpoly(&m, q2, 4);
        convex = false;
        name = "roof_mesh";
    }
    double cx, cz;
    if (!place_in(G, rm, 1.5, MESH_R, true, &cx, &cz))
        return;
    if (G->oom ||
        grow((void **)&g->map.meshes, &G->mesh_cap, g->map.mesh_count + 1, sizeof *g->map.meshes)) {
        G->oom = 1;
        return;
    }
    bool *cv = realloc(g->mesh_convex, (g->map.mesh_count + 1) * sizeof *cv);
    if (!cv) {
        G->oom = 1;
        return;
    }
    g->mesh_convex = cv;
    cv[g->map.mesh_count] = convex;
    blvl_hmap_mesh *me = &g->map.meshes[g->map.mesh_count++];
    memset(me, 0, sizeof *me);
    me->id = G->next_id++;
    me->name = mkstr(G, name);
    double yaw = rnd(r, 0, 2 * PI), cy = cos(yaw), sy = sin(yaw);
    me->vertices = calloc(m.nv, sizeof *me->vertices);
    me->polys = calloc(m.np, sizeof *me->polys);
    if (!me->vertices || !me->polys) {
        G->oom = 1;
        return;
    }
    me->vertex_count = m.nv;
    for (uint32_t i = 0; i < m.nv; i++) { /* turn about +Y (keeps the winding), then place */
        double x = m.v[i][0], z = m.v[i][2];
        me->vertices[i].x = (float)((cx + cy * x + sy * z) * s);
        me->vertices[i].y = (float)((lo[1] + m.v[i][1]) * s);
        me->vertices[i].z = (float)((cz - sy * x + cy * z) * s);
    }
    me->poly_count = m.np;
    uint32_t at = 0;
    for (uint32_t p = 0; p < m.np; p++) {
        blvl_hmap_poly *po = &me->polys[p];
        po->material = M_ROCK;
        po->smooth = rndi(r, 2);
        po->proj = random_uv(G);
        po->index_count = m.sizes[p];
        po->indices = calloc(m.sizes[p], sizeof *po->indices);
        if (!po->indices) {
            G->oom = 1;
            return;
        }
        memcpy(po->indices, m.idx + at, m.sizes[p] * sizeof *po->indices);
        at += m.sizes[p];
        if (rndi(r, 2)) { /* explicit UVs */
            po->uv_count = po->index_count;
            po->uvs = calloc(po->uv_count, sizeof *po->uvs);
            if (!po->uvs) {
                G->oom = 1;
                return;
            }
            for (uint32_t k = 0; k < po->uv_count; k++) {
                po->uvs[k].x = (float)(k & 1);
                po->uvs[k].y = (float)((k >> 1) & 1);
            }
        }
    }
}

/* ---- entities ---------------------------------------------------------------------------- */

static blvl_hmap_entity *add_entity(gen *G, const char *classname, const double o[3], double yaw,
                                    uint32_t pairs) {
    hmap_gen *g = G->g;
    if (G->oom || grow((void **)&g->map.entities, &G->ent_cap, g->map.entity_count + 1,
                       sizeof *g->map.entities)) {
        G->oom = 1;
        return NULL;
    }
    blvl_hmap_entity *e = &g->map.entities[g->map.entity_count++];
    e->id = G->next_id++;
    e->classname = mkstr(G, classname);
    e->origin.x = (float)(o[0] * G->s), e->origin.y = (float)(o[1] * G->s);
    e->origin.z = (float)(o[2] * G->s);
    e->angles.y = (float)yaw;
    e->scale.x = e->scale.y = e->scale.z = 1;
    if (pairs) {
        e->pairs = calloc(pairs, sizeof *e->pairs);
        if (!e->pairs) {
            G->oom = 1;
            return e;
        }
        e->pair_count = pairs;
    }
    return e;
}

static void set_pair(gen *G, blvl_hmap_entity *e, uint32_t i, const char *k, const char *v) {
    if (e && i < e->pair_count && e->pairs) {
        e->pairs[i].key = mkstr(G, k);
        e->pairs[i].value = mkstr(G, v);
    }
}

/* ---- rooms ------------------------------------------------------------------------------- */

static void add_room(gen *G, uint32_t index, uint32_t cols, uint32_t meshes_here) {
    rng *r = &G->r;
    double ox = (index % cols) * 16.0, oz = (index / cols) * 16.0;
    double y0 = quarter(rnd(r, -2, 6)), w = quarter(rnd(r, 6, 12)), d = quarter(rnd(r, 6, 12));
    double h = quarter(rnd(r, 3.25, 5.5)), t = quarter(rnd(r, 0.25, 0.5));
    room *rm = &G->rooms[index];
    rm->lo[0] = ox, rm->lo[1] = y0, rm->lo[2] = oz;
    rm->hi[0] = ox + w, rm->hi[1] = y0 + h, rm->hi[2] = oz + d;
    uint32_t f = add_box_m(G, ox - t, y0 - t, oz - t, ox + w + t, y0, oz + d + t, BLVL_HMAP_SOLID,
                           0, M_FLOOR);
    add_floor(G, rm, f, ox + 0.75, oz + 0.75); /* the spot in the -x -z corner */
    bool sky = index % 3 == 1;
    add_box_m(G, ox - t, y0 + h, oz - t, ox + w + t, y0 + h + t, oz + d + t,
              sky ? BLVL_HMAP_SOLID | BLVL_HMAP_SKY : BLVL_HMAP_SOLID, 0, sky ? M_SKY : M_WALL);
    add_box_m(G, ox - t, y0, oz, ox, y0 + h, oz + d, BLVL_HMAP_SOLID, 0, M_WALL);
    add_box_m(G, ox, y0, oz - t, ox + w, y0 + h, oz, BLVL_HMAP_SOLID, 0, M_WALL);
    add_box_m(G, ox, y0, oz + d, ox + w, y0 + h, oz + d + t, BLVL_HMAP_SOLID, 0, M_WALL);
    if (index % 2 == 0) { /* +x wall with a doorway closed by a func_door */
        double zc = quarter(oz + d / 2), gw = 0.75, dh = 2.5;
        add_box_m(G, ox + w, y0, oz, ox + w + t, y0 + h, zc - gw, BLVL_HMAP_SOLID, 0, M_WALL);
        add_box_m(G, ox + w, y0, zc + gw, ox + w + t, y0 + h, oz + d, BLVL_HMAP_SOLID, 0, M_WALL);
        add_box_m(G, ox + w, y0 + dh, zc - gw, ox + w + t, y0 + h, zc + gw, BLVL_HMAP_SOLID, 0,
                  M_TRIM);
        double at[3] = {ox + w + t / 2, y0, zc};
        blvl_hmap_entity *door = add_entity(G, "func_door", at, 0, 3);
        set_pair(G, door, 0, "targetname", "door");
        set_pair(G, door, 1, "speed", "120");
        set_pair(G, door, 2, "lip", "8");
        if (door)
            add_box_m(G, ox + w, y0, zc - gw, ox + w + t, y0 + dh, zc + gw, BLVL_HMAP_SOLID,
                      door->id, M_TRIM);
    } else {
        add_box_m(G, ox + w, y0, oz, ox + w + t, y0 + h, oz + d, BLVL_HMAP_SOLID, 0, M_WALL);
    }
    if (index % 2 == 1) /* a pool in every other room, while the floor is still free */
        add_prop(G, rm, 3);
    for (uint32_t i = 0; i < meshes_here; i++) /* next: they want room around them */
        add_mesh(G, rm, rndi(r, 4));
    /* every kind within a few rooms, then any; water and platforms first, while there is room
     * to keep them apart */
    uint32_t props = 3 + rndi(r, 3), kinds[5];
    for (uint32_t i = 0; i < props; i++)
        kinds[i] = i < 3 ? (index * 3 + i) % 8 : rndi(r, 8);
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < props; i++)
            if ((kinds[i] == 3 || kinds[i] >= 6) == (pass == 0))
                add_prop(G, rm, kinds[i]);
    double sp[3] = {ox + w / 2, y0 + 0.05, oz + d / 2};
    if (index % 3 == 0) {
        blvl_hmap_entity *e =
            add_entity(G, index % 6 ? "info_player_deathmatch" : "info_player_start", sp,
                       15.0 * rndi(r, 24), 0);
        (void)e;
    }
    double lp[3] = {ox + w / 2, y0 + h - 0.5, oz + d / 2};
    blvl_hmap_entity *l = add_entity(G, "light", lp, 0, 2);
    set_pair(G, l, 0, "color", "1 0.9 0.75");
    set_pair(G, l, 1, "intensity", "300");
}

/* ---- the compiled part ------------------------------------------------------------------- */

static void box_of(const double (*pts)[3], uint32_t n, blvl_hmap_box *b, bool first) {
    for (uint32_t i = 0; i < n; i++) {
        float v[3] = {(float)pts[i][0], (float)pts[i][1], (float)pts[i][2]};
        if (first && i == 0) {
            b->min.x = b->max.x = v[0];
            b->min.y = b->max.y = v[1];
            b->min.z = b->max.z = v[2];
            continue;
        }
        b->min.x = fminf(b->min.x, v[0]), b->max.x = fmaxf(b->max.x, v[0]);
        b->min.y = fminf(b->min.y, v[1]), b->max.y = fmaxf(b->max.y, v[1]);
        b->min.z = fminf(b->min.z, v[2]), b->max.z = fmaxf(b->max.z, v[2]);
    }
}

static void box_union(blvl_hmap_box *a, const blvl_hmap_box *b, bool first) {
    if (first) {
        *a = *b;
        return;
    }
    a->min.x = fminf(a->min.x, b->min.x), a->max.x = fmaxf(a->max.x, b->max.x);
    a->min.y = fminf(a->min.y, b->min.y), a->max.y = fmaxf(a->max.y, b->max.y);
    a->min.z = fminf(a->min.z, b->min.z), a->max.z = fmaxf(a->max.z, b->max.z);
}

static void add_poly(gen *G, const hmap_gen_poly *p) {
    hmap_gen *g = G->g;
    if (G->oom || grow((void **)&g->polys, &G->poly_cap, g->poly_count + 1, sizeof *g->polys)) {
        G->oom = 1;
        return;
    }
    g->polys[g->poly_count++] = *p;
}

static void make_polys(gen *G) {
    hmap_gen *g = G->g;
    double buf[64][3];
    blvl_Plane pl[MAXP];
    for (uint32_t b = 0; b < g->map.brush_count && !G->oom; b++) {
        const blvl_hmap_brush *br = &g->map.brushes[b];
        for (uint32_t f = 0; f < br->face_count; f++)
            pl[f] = br->faces[f].plane;
        for (uint32_t f = 0; f < br->face_count; f++) {
            uint32_t n = hmap_gen_face_polygon(pl, br->face_count, f, buf, 64);
            if (!n)
                continue;
            hmap_gen_poly p = {b, f, UINT32_MAX, UINT32_MAX, br->faces[f].material, n, NULL};
            p.pts = malloc(sizeof(double[3]) * n);
            if (!p.pts) {
                G->oom = 1;
                return;
            }
            memcpy(p.pts, buf, sizeof(double[3]) * n);
            add_poly(G, &p);
        }
    }
    g->brush_poly_count = g->poly_count;
    for (uint32_t m = 0; m < g->map.mesh_count && !G->oom; m++) {
        const blvl_hmap_mesh *me = &g->map.meshes[m];
        for (uint32_t k = 0; k < me->poly_count; k++) {
            const blvl_hmap_poly *po = &me->polys[k];
            hmap_gen_poly p = {UINT32_MAX, UINT32_MAX, m, k, po->material, po->index_count, NULL};
            p.pts = malloc(sizeof(double[3]) * po->index_count);
            if (!p.pts) {
                G->oom = 1;
                return;
            }
            for (uint32_t i = 0; i < po->index_count; i++) {
                blvl_Vec3 v = me->vertices[po->indices[i]];
                p.pts[i][0] = v.x, p.pts[i][1] = v.y, p.pts[i][2] = v.z;
            }
            add_poly(G, &p);
        }
    }
}

static void poly_normal(const hmap_gen_poly *p, double n[3]) {
    n[0] = n[1] = n[2] = 0;
    for (uint32_t i = 0; i < p->count; i++) { /* Newell */
        const double *a = p->pts[i], *b = p->pts[(i + 1) % p->count];
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    dnorm(n);
}

/* Appends a polygon's fan to a batch. */
static void batch_add(gen *G, blvl_hmap_batch *bt, uint32_t *vcap, uint32_t *icap,
                      const hmap_gen_poly *p) {
    if (grow((void **)&bt->vertices, vcap, bt->vertex_count + p->count, sizeof *bt->vertices) ||
        grow((void **)&bt->indices, icap, bt->index_count + 3 * (p->count - 2),
             sizeof *bt->indices)) {
        G->oom = 1;
        return;
    }
    double n[3];
    poly_normal(p, n);
    uint32_t base = bt->vertex_count;
    for (uint32_t i = 0; i < p->count; i++) {
        blvl_hmap_cvertex *v = &bt->vertices[bt->vertex_count++];
        v->pos.x = (float)p->pts[i][0], v->pos.y = (float)p->pts[i][1];
        v->pos.z = (float)p->pts[i][2];
        v->normal.x = (float)n[0], v->normal.y = (float)n[1], v->normal.z = (float)n[2];
        v->uv.x = (float)(p->pts[i][0] / 64.0), v->uv.y = (float)(p->pts[i][2] / 64.0);
        v->color = 0xFFFFFFFFu;
    }
    for (uint32_t i = 1; i + 1 < p->count; i++) {
        bt->indices[bt->index_count++] = base;
        bt->indices[bt->index_count++] = base + i;
        bt->indices[bt->index_count++] = base + i + 1;
    }
}

static void make_cbrush(gen *G, uint32_t b, blvl_hmap_cbrush *cb) {
    hmap_gen *g = G->g;
    const blvl_hmap_brush *br = &g->map.brushes[b];
    cb->contents = br->contents;
    cb->source_id = br->id;
    cb->planes = calloc(br->face_count, sizeof *cb->planes);
    if (!cb->planes) {
        G->oom = 1;
        return;
    }
    cb->plane_count = br->face_count;
    for (uint32_t f = 0; f < br->face_count; f++)
        cb->planes[f] = br->faces[f].plane;
    bool first = true;
    for (uint32_t i = 0; i < g->brush_poly_count; i++)
        if (g->polys[i].brush == b) {
            box_of((const double(*)[3])g->polys[i].pts, g->polys[i].count, &cb->bounds, first);
            first = false;
        }
}

static void make_compiled(gen *G, const hmap_gen_opts *o) {
    hmap_gen *g = G->g;
    blvl_hmap_compiled *c = &g->compiled_storage;
    memset(c, 0, sizeof *c);
    c->ambient.x = c->ambient.y = c->ambient.z = 0.2f;
    c->units_per_meter = g->units_per_meter;
    /* models: 0 = world, then one per brush entity in entity order */
    uint32_t nmodels = 1;
    for (uint32_t e = 0; e < g->map.entity_count; e++)
        for (uint32_t b = 0; b < g->map.brush_count; b++)
            if (g->map.brushes[b].owner == g->map.entities[e].id) {
                nmodels++;
                break;
            }
    c->models = calloc(nmodels, sizeof *c->models);
    uint32_t *model_of = calloc(g->map.brush_count + 1, sizeof *model_of);
    if (!c->models || !model_of) {
        free(model_of);
        G->oom = 1;
        return;
    }
    c->model_count = nmodels;
    uint32_t mi = 1;
    for (uint32_t e = 0; e < g->map.entity_count; e++) {
        uint32_t id = g->map.entities[e].id, n = 0;
        for (uint32_t b = 0; b < g->map.brush_count; b++)
            if (g->map.brushes[b].owner == id)
                n++;
        if (!n)
            continue;
        c->models[mi].entity_id = id;
        for (uint32_t b = 0; b < g->map.brush_count; b++)
            if (g->map.brushes[b].owner == id)
                model_of[b] = mi;
        mi++;
    }
    for (uint32_t m = 0; m < nmodels && !G->oom; m++) {
        blvl_hmap_model *md = &c->models[m];
        uint32_t n = 0;
        for (uint32_t b = 0; b < g->map.brush_count; b++)
            n += model_of[b] == m;
        md->brushes = calloc(n ? n : 1, sizeof *md->brushes);
        if (!md->brushes) {
            G->oom = 1;
            break;
        }
        for (uint32_t b = 0; b < g->map.brush_count && !G->oom; b++)
            if (model_of[b] == m) {
                blvl_hmap_cbrush *cb = &md->brushes[md->brush_count++];
                make_cbrush(G, b, cb);
                box_union(&md->bounds, &cb->bounds, md->brush_count == 1);
            }
    }
    /* the BSP over the world's brushes: a lone leaf, or one node splitting at the middle x */
    blvl_hmap_bsp *bsp = &c->bsp;
    const blvl_hmap_model *w = &c->models[0];
    bsp->bounds = w->bounds;
    bsp->brush_count = w->brush_count;
    bsp->brushes = calloc(w->brush_count ? w->brush_count : 1, sizeof *bsp->brushes);
    bsp->leaf_brushes = calloc(2 * (size_t)w->brush_count + 1, sizeof *bsp->leaf_brushes);
    bsp->leaves = calloc(2, sizeof *bsp->leaves);
    if (!bsp->brushes || !bsp->leaf_brushes || !bsp->leaves || G->oom) {
        free(model_of);
        G->oom = 1;
        return;
    }
    for (uint32_t i = 0; i < w->brush_count; i++) {
        bsp->brushes[i] = w->brushes[i];
        bsp->brushes[i].planes = malloc(sizeof(blvl_Plane) * (w->brushes[i].plane_count + 1));
        if (!bsp->brushes[i].planes) {
            G->oom = 1;
            break;
        }
        memcpy(bsp->brushes[i].planes, w->brushes[i].planes,
               sizeof(blvl_Plane) * w->brushes[i].plane_count);
    }
    if (!o->bsp_split) {
        bsp->root = -1; /* leaf ~0 */
        bsp->depth = 0;
        bsp->leaf_count = 1;
        bsp->leaves[0].first_brush = 0;
        bsp->leaves[0].brush_count = w->brush_count;
        for (uint32_t i = 0; i < w->brush_count; i++)
            bsp->leaf_brushes[bsp->leaf_brush_count++] = i;
    } else {
        float mid = 0.5f * (w->bounds.min.x + w->bounds.max.x);
        bsp->planes = calloc(1, sizeof *bsp->planes);
        bsp->nodes = calloc(1, sizeof *bsp->nodes);
        if (!bsp->planes || !bsp->nodes) {
            free(model_of);
            G->oom = 1;
            return;
        }
        bsp->plane_count = 1;
        bsp->planes[0].normal.x = 1;
        bsp->planes[0].dist = mid;
        bsp->node_count = 1;
        bsp->nodes[0].plane = 0;
        bsp->nodes[0].front = ~0;
        bsp->nodes[0].back = ~1;
        bsp->root = 0;
        bsp->depth = 1;
        bsp->leaf_count = 2;
        for (int side = 0; side < 2; side++) {
            bsp->leaves[side].first_brush = bsp->leaf_brush_count;
            for (uint32_t i = 0; i < w->brush_count; i++) {
                bool in = side == 0 ? w->brushes[i].bounds.max.x >= mid
                                    : w->brushes[i].bounds.min.x < mid;
                if (in)
                    bsp->leaf_brushes[bsp->leaf_brush_count++] = i;
            }
            bsp->leaves[side].brush_count = bsp->leaf_brush_count - bsp->leaves[side].first_brush;
        }
    }
    /* batches: one per (model, material) of drawn brush faces (solid, water and sky brushes;
     * faces without a material are not drawn), then one per mesh material */
    uint32_t nkeys = nmodels * M_COUNT + M_COUNT;
    int32_t *slot = malloc(sizeof *slot * nkeys);
    uint32_t *vcap = calloc(nkeys, sizeof *vcap), *icap = calloc(nkeys, sizeof *icap);
    c->batches = calloc(nkeys, sizeof *c->batches);
    if (!slot || !vcap || !icap || !c->batches) {
        free(slot), free(vcap), free(icap), free(model_of);
        G->oom = 1;
        return;
    }
    for (uint32_t k = 0; k < nkeys; k++)
        slot[k] = -1;
    for (uint32_t i = 0; i < g->poly_count && !G->oom; i++) {
        const hmap_gen_poly *p = &g->polys[i];
        if (p->material < 0)
            continue;
        uint32_t key;
        if (i < g->brush_poly_count) {
            uint32_t ct = g->map.brushes[p->brush].contents;
            if (!(ct & (BLVL_HMAP_SOLID | BLVL_HMAP_WATER)))
                continue;
            key = model_of[p->brush] * M_COUNT + (uint32_t)p->material;
        } else {
            key = nmodels * M_COUNT + (uint32_t)p->material;
        }
        if (slot[key] < 0) {
            slot[key] = (int32_t)c->batch_count;
            blvl_hmap_batch *bt = &c->batches[c->batch_count++];
            bt->material = p->material;
            bt->source = i < g->brush_poly_count ? 0 : 1;
            bt->model = i < g->brush_poly_count ? (int32_t)model_of[p->brush] : 0;
        }
        batch_add(G, &c->batches[slot[key]], &vcap[slot[key]], &icap[slot[key]], p);
    }
    free(slot), free(vcap), free(icap), free(model_of);
    /* mesh collision: every polygon's fan, per mesh */
    c->mesh_colls = calloc(g->map.mesh_count + 1, sizeof *c->mesh_colls);
    if (!c->mesh_colls) {
        G->oom = 1;
        return;
    }
    c->mesh_coll_count = g->map.mesh_count;
    for (uint32_t i = g->brush_poly_count; i < g->poly_count && !G->oom; i++) {
        const hmap_gen_poly *p = &g->polys[i];
        blvl_hmap_mesh_coll *mc = &c->mesh_colls[p->mesh];
        mc->object_id = g->map.meshes[p->mesh].id;
        blvl_Vec3 *nv = realloc(mc->vertices, sizeof *nv * (mc->vertex_count + 3 * (p->count - 2)));
        if (!nv) {
            G->oom = 1;
            return;
        }
        mc->vertices = nv;
        for (uint32_t k = 1; k + 1 < p->count; k++) {
            const double *t[3] = {p->pts[0], p->pts[k], p->pts[k + 1]};
            for (int j = 0; j < 3; j++) {
                blvl_Vec3 *v = &mc->vertices[mc->vertex_count++];
                v->x = (float)t[j][0], v->y = (float)t[j][1], v->z = (float)t[j][2];
            }
        }
        box_of((const double(*)[3])p->pts, p->count, &mc->bounds,
               mc->vertex_count == 3 * (p->count - 2));
    }
    /* lights: one point light per light entity and a sun; the overall bounds */
    uint32_t nl = 1;
    for (uint32_t e = 0; e < g->map.entity_count; e++)
        nl += strcmp(g->map.entities[e].classname.bytes ? g->map.entities[e].classname.bytes : "",
                     "light") == 0;
    c->lights = calloc(nl, sizeof *c->lights);
    if (!c->lights) {
        G->oom = 1;
        return;
    }
    for (uint32_t e = 0; e < g->map.entity_count; e++) {
        const blvl_hmap_entity *en = &g->map.entities[e];
        if (!en->classname.bytes || strcmp(en->classname.bytes, "light") != 0)
            continue;
        blvl_hmap_light *l = &c->lights[c->light_count++];
        l->type = 0;
        l->pos = en->origin;
        l->color.x = 1, l->color.y = 0.9f, l->color.z = 0.75f;
        l->intensity = 300;
        l->radius = (float)(8 * G->s);
        l->entity_id = en->id;
    }
    blvl_hmap_light *sun = &c->lights[c->light_count++];
    sun->type = 2;
    sun->dir.x = 0.3f, sun->dir.y = -0.9f, sun->dir.z = 0.3f;
    sun->color.x = sun->color.y = sun->color.z = 1;
    sun->intensity = 2;
    c->bounds = c->models[0].bounds;
    for (uint32_t m = 1; m < c->model_count; m++)
        box_union(&c->bounds, &c->models[m].bounds, false);
}

/* ---- the map ----------------------------------------------------------------------------- */

int hmap_gen_build(const hmap_gen_opts *o, hmap_gen *g) {
    memset(g, 0, sizeof *g);
    gen G;
    memset(&G, 0, sizeof G);
    G.g = g;
    G.r.s = o->seed * 0x2545F4914F6CDD1Dull + 1;
    static const float upms[3] = {32.0f, 39.37f, 64.0f};
    g->units_per_meter = o->units_per_meter > 0 ? o->units_per_meter : upms[rndi(&G.r, 3)];
    G.s = g->units_per_meter;
    G.next_id = 1;
    g->map.version = BLVL_HMAP_VERSION;
    g->map.materials = calloc(M_COUNT, sizeof *g->map.materials);
    if (!g->map.materials)
        return -1;
    g->map.material_count = M_COUNT;
    for (int i = 0; i < M_COUNT; i++) {
        blvl_hmap_material *m = &g->map.materials[i];
        char tex[64];
        strcpy(tex, "textures/");
        strcat(tex, mat_names[i]);
        strcat(tex, ".png");
        m->name = mkstr(&G, mat_names[i]);
        m->texture = mkstr(&G, tex);
        m->tile_size.x = m->tile_size.y = i == M_FLOOR ? 128.0f : 64.0f;
        m->color.x = 0.5f + 0.05f * (float)i, m->color.y = 0.5f, m->color.z = 0.5f;
        m->flags = i == M_WATER ? 1u : 0u;
    }
    uint32_t rooms = o->rooms ? o->rooms : 1;
    uint32_t cols = 1;
    while (cols * cols < rooms)
        cols++;
    uint32_t meshes = o->meshes ? o->meshes : 2 * rooms;
    G.rooms = calloc(rooms, sizeof *G.rooms);
    if (!G.rooms) {
        hmap_gen_free(g);
        return -1;
    }
    for (uint32_t i = 0; i < rooms && !G.oom; i++) {
        uint32_t here = meshes / rooms + (i < meshes % rooms);
        add_room(&G, i, cols, here);
    }
    /* meshes that found no place in their room: room after room until all are placed */
    for (uint32_t i = 0; g->map.mesh_count < meshes && i < 8 * rooms && !G.oom; i++)
        add_mesh(&G, &G.rooms[i % rooms], rndi(&G.r, 4));
    /* extra props room after room until the brush count is reached */
    for (uint32_t i = 0; g->map.brush_count < o->min_brushes && !G.oom; i++)
        add_prop(&G, &G.rooms[i % rooms], 8);
    free(G.rooms);
    if (!G.oom)
        make_polys(&G);
    if (!G.oom && (o->parts & HMAP_GEN_COMPILED))
        make_compiled(&G, o);
    if (G.oom) {
        hmap_gen_free(g);
        return -1;
    }
    blvl_hmap *m = &g->map;
    m->flags = ((o->parts & HMAP_GEN_SOURCE) ? BLVL_HMAP_FLAG_SOURCE : 0) |
               ((o->parts & HMAP_GEN_COMPILED) ? BLVL_HMAP_FLAG_COMPILED : 0);
    if (!o->no_meta) {
        blvl_hmap_meta *me = &g->meta_storage;
        me->name = mkstr(&G, "Generated");
        me->ambient.x = me->ambient.y = me->ambient.z = 0.2f;
        me->grid_size = 8;
        me->units_per_meter = g->units_per_meter;
        me->next_id = G.next_id;
        m->meta = me;
    }
    m->has_mats = true;
    m->has_ents = true;
    m->has_brsh = (o->parts & HMAP_GEN_SOURCE) != 0;
    m->has_mesh = (o->parts & HMAP_GEN_SOURCE) != 0;
    if (o->parts & HMAP_GEN_COMPILED)
        m->compiled = &g->compiled_storage;
    if (o->mats_after_brsh) {
        static const char *const order[6] = {"META", "BRSH", "MATS", "MESH", "ENTS", "CMPL"};
        for (int i = 0; i < 6; i++) {
            bool present = i == 0   ? m->meta != NULL
                           : i == 1 ? m->has_brsh
                           : i == 2 ? m->has_mats
                           : i == 3 ? m->has_mesh
                           : i == 4 ? m->has_ents
                                    : m->compiled != NULL;
            if (!present)
                continue;
            blvl_hmap_chunk *c = &g->chunk_storage[m->chunk_count++];
            memcpy(c->tag, order[i], 4);
            c->known = true;
        }
        m->chunks = g->chunk_storage;
    }
    return G.oom ? (hmap_gen_free(g), -1) : 0;
}

static void free_str(blvl_hmap_str *s) {
    free(s->bytes);
}

static void free_cbrushes(blvl_hmap_cbrush *b, uint32_t n) {
    for (uint32_t i = 0; b && i < n; i++)
        free(b[i].planes);
    free(b);
}

void hmap_gen_free(hmap_gen *g) {
    blvl_hmap *m = &g->map;
    for (uint32_t i = 0; m->materials && i < m->material_count; i++) {
        free_str(&m->materials[i].name);
        free_str(&m->materials[i].texture);
    }
    free(m->materials);
    for (uint32_t i = 0; m->brushes && i < m->brush_count; i++)
        free(m->brushes[i].faces);
    free(m->brushes);
    for (uint32_t i = 0; m->meshes && i < m->mesh_count; i++) {
        blvl_hmap_mesh *me = &m->meshes[i];
        free_str(&me->name);
        free(me->vertices);
        for (uint32_t k = 0; me->polys && k < me->poly_count; k++) {
            free(me->polys[k].indices);
            free(me->polys[k].uvs);
        }
        free(me->polys);
    }
    free(m->meshes);
    for (uint32_t i = 0; m->entities && i < m->entity_count; i++) {
        blvl_hmap_entity *e = &m->entities[i];
        free_str(&e->classname);
        for (uint32_t k = 0; e->pairs && k < e->pair_count; k++) {
            free_str(&e->pairs[k].key);
            free_str(&e->pairs[k].value);
        }
        free(e->pairs);
    }
    free(m->entities);
    free_str(&g->meta_storage.name);
    blvl_hmap_compiled *c = &g->compiled_storage;
    for (uint32_t i = 0; c->batches && i < c->batch_count; i++) {
        free(c->batches[i].vertices);
        free(c->batches[i].indices);
    }
    free(c->batches);
    for (uint32_t i = 0; c->models && i < c->model_count; i++)
        free_cbrushes(c->models[i].brushes, c->models[i].brush_count);
    free(c->models);
    free(c->bsp.planes);
    free(c->bsp.nodes);
    free(c->bsp.leaves);
    free(c->bsp.leaf_brushes);
    free_cbrushes(c->bsp.brushes, c->bsp.brush_count);
    for (uint32_t i = 0; c->mesh_colls && i < c->mesh_coll_count; i++)
        free(c->mesh_colls[i].vertices);
    free(c->mesh_colls);
    free(c->lights);
    for (uint32_t i = 0; g->polys && i < g->poly_count; i++)
        free(g->polys[i].pts);
    free(g->polys);
    free(g->floors);
    free(g->floor_spots);
    free(g->mesh_convex);
    memset(g, 0, sizeof *g);
}
