/* blvl_subspace_bake on maps built here by hand (blvl_subspace structs, no reader), checked on
 * the written level: collision by point queries at every cell centre through `blvl trace
 * --contents` (the command line, as a game server would ask), the collider counts the cover
 * promises (a filled rectangle one box, a checkerboard one per cell, an L and a plus two),
 * geometry (one quad per drawn tile at Y = 16 facing up, UVs into the atlas recomputed here from
 * the documented layout), the atlas (decoded with stb_image and compared with the palette and
 * the black key applied here), entities, doors, sites, meta and determinism. The expected
 * answers come from the tile table of docs/IMPORT-SUBSPACE.md written out again below, not from
 * the bake's code. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/sections.h"
#include "blvl/subspace.h"
#include "check.h"
#include "files.h"
#include "support/subspace_gen.h"

#define STBI_ONLY_PNG
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#define G 1024u

static char dir[256];
static const char *bin;

/* ---- the table, restated --------------------------------------------------------------- */

static int solid(unsigned t) { /* walls, doors (closed), station, invisible */
    return (t >= 1 && t <= 169) || t == 219 || t >= 240;
}
static int drawn(unsigned t) {
    return t >= 1 && t <= 190;
}
static int has_entity(unsigned t) {
    return (t >= 162 && t <= 170) || (t >= 191 && t <= 239);
}
static const char *material_of(unsigned t) {
    return t <= 161   ? "subspace/wall"
           : t <= 169 ? "subspace/door"
           : t == 170 ? "subspace/flag"
           : t == 171 ? "subspace/safe"
           : t == 172 ? "subspace/goal"
           : t <= 175 ? "subspace/flyover"
                      : "subspace/flyunder";
}

static int streq(blvl_fb_str s, const char *c) {
    return s.len == strlen(c) && memcmp(s.ptr, c, s.len) == 0;
}

/* ---- maps ------------------------------------------------------------------------------ */

typedef struct map {
    blvl_subspace m;
    uint32_t cap;
    uint8_t grid[G * G]; /* what the test expects in each cell */
} map;

static map *map_new(void) {
    map *p = calloc(1, sizeof *p);
    p->cap = 1024;
    p->m.records = calloc(p->cap, 4);
    return p;
}

static void put(map *p, unsigned t, unsigned x, unsigned y) {
    if (p->m.record_count == p->cap)
        p->m.records = realloc(p->m.records, (size_t)(p->cap *= 2) * 4);
    p->m.records[p->m.record_count++] = BLVL_SUBSPACE_RECORD(t, x, y);
    if (x < G && y < G && t)
        p->grid[x + y * G] = (uint8_t)t;
}

static void map_free(map *p) {
    free(p->m.records);
    free(p);
}

typedef struct baked {
    void *level, *symbols;
    size_t size, symbols_size;
    blvl_level *lv;
    blvl_bytes sim_b, geo_b, ent_b, site_b, tex_b, meta_b;
    blvl_Sim sim;
    blvl_Geometry geo;
    blvl_Entities ent;
    blvl_Sites sites;
    blvl_Textures tex;
    blvl_Meta meta;
    char path[300];
    int malloced; /* level from test_slurp (free), else from the bake (blvl_free) */
} baked;

static int bake(const blvl_subspace *m, const char *name, baked *k) {
    memset(k, 0, sizeof *k);
    blvl_bake *b;
    blvl_options opt = {0};
    opt.threads = 1;
    blvl_error err;
    CHECK_EQ_INT(blvl_bake_new(&b, &opt, &err), BLVL_OK);
    blvl_status st = blvl_subspace_bake(m, b, &(blvl_subspace_options){.name = name}, &err);
    if (st == BLVL_OK)
        st = blvl_bake_write_memory(b, &k->level, &k->size, &k->symbols, &k->symbols_size, NULL,
                                    &err);
    blvl_bake_free(b);
    if (st != BLVL_OK) {
        fprintf(stderr, "bake: %s\n", err.message);
        CHECK(0);
        return 0;
    }
    CHECK_EQ_INT(blvl_open_memory(&k->lv, k->level, k->size, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_level_sim(k->lv, &k->sim_b, &k->sim, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_level_meta(k->lv, &k->meta_b, &k->meta, &err), BLVL_OK);
    blvl_level_geometry(k->lv, &k->geo_b, &k->geo, &err);
    blvl_level_entities(k->lv, &k->ent_b, &k->ent, &err);
    blvl_level_sites(k->lv, &k->site_b, &k->sites, &err);
    blvl_level_textures(k->lv, &k->tex_b, &k->tex, &err);
    static int n;
    snprintf(k->path, sizeof k->path, "%s/map%d.blvl", dir, n++);
    CHECK_EQ_INT(test_spit(k->path, k->level, k->size), 0);
    return 1;
}

static void baked_free(baked *k) {
    blvl_bytes_free(&k->sim_b);
    blvl_bytes_free(&k->geo_b);
    blvl_bytes_free(&k->ent_b);
    blvl_bytes_free(&k->site_b);
    blvl_bytes_free(&k->tex_b);
    blvl_bytes_free(&k->meta_b);
    blvl_close(k->lv);
    blvl_free(NULL, k->symbols);
    if (k->malloced)
        free(k->level);
    else
        blvl_free(NULL, k->level);
}

/* ---- collision through the command line ----------------------------------------------- */

/* `blvl trace LEVEL --contents X 8 Z` for the centre of each of n cells (cells[i] = x + y *
 * GRID); count[i] and flags[i] per cell. */
static void contents(const char *level, const uint32_t *cells, size_t n, unsigned *count,
                     unsigned *flags) {
    size_t argc = 0;
    char **argv = calloc(n * 4 + 4, sizeof *argv);
    char *nums = malloc(n * 3 * 16);
    argv[argc++] = (char *)bin;
    argv[argc++] = "trace";
    argv[argc++] = (char *)level;
    for (size_t i = 0; i < n; i++) {
        char *s = nums + i * 48;
        snprintf(s, 16, "%u", 16 * (cells[i] % G) + 8);
        snprintf(s + 16, 16, "8");
        snprintf(s + 32, 16, "%u", 16 * (cells[i] / G) + 8);
        argv[argc++] = "--contents";
        argv[argc++] = s, argv[argc++] = s + 16, argv[argc++] = s + 32;
    }
    char out[300];
    snprintf(out, sizeof out, "%s/contents.txt", dir);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 1) < 0)
            _exit(127);
        execv(bin, argv);
        _exit(127);
    }
    int ws = 0;
    waitpid(pid, &ws, 0);
    CHECK(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    free(nums);
    free(argv);
    FILE *f = fopen(out, "r");
    CHECK(f != NULL);
    size_t got = 0;
    char line[512];
    while (f && fgets(line, sizeof line, f) && got < n) {
        float x, y, z;
        unsigned c, fl;
        if (sscanf(line, "contents at %f %f %f count %u flags %x", &x, &y, &z, &c, &fl) != 5)
            continue;
        CHECK((unsigned)x == 16 * (cells[got] % G) + 8 && (unsigned)z == 16 * (cells[got] / G) + 8);
        count[got] = c, flags[got] = fl;
        got++;
    }
    if (f)
        fclose(f);
    CHECK_EQ_INT(got, n);
}

/* Every listed cell answers as `want` says: solid or not, and the clip bit. */
static void check_cells(const char *level, const uint32_t *cells, size_t n,
                        const uint8_t *want_solid, const uint8_t *want_clip) {
    unsigned *count = calloc(n, sizeof *count), *flags = calloc(n, sizeof *flags), bad = 0;
    contents(level, cells, n, count, flags);
    for (size_t i = 0; i < n; i++) {
        uint32_t c = cells[i];
        int s = count[i] > 0, clip = (flags[i] & blvl_ColliderFlag_Clip) != 0;
        if (s != want_solid[c] || (s && clip != want_clip[c])) {
            if (bad++ < 10)
                fprintf(stderr, "cell %u %u: count %u flags 0x%x, want solid %d clip %d\n", c % G,
                        c / G, count[i], flags[i], want_solid[c], want_clip[c]);
        }
    }
    CHECK_EQ_INT(bad, 0);
    free(count);
    free(flags);
}

/* The same for every cell of [x0, x1) x [y0, y1). */
static unsigned check_window(const baked *k, const uint8_t *want_solid, const uint8_t *want_clip,
                             unsigned x0, unsigned y0, unsigned x1, unsigned y1) {
    size_t n = (size_t)(x1 - x0) * (y1 - y0), i = 0;
    uint32_t *cells = malloc(n * sizeof *cells);
    for (unsigned y = y0; y < y1; y++)
        for (unsigned x = x0; x < x1; x++)
            cells[i++] = x + y * G;
    check_cells(k->path, cells, n, want_solid, want_clip);
    free(cells);
    return (unsigned)n;
}

/* What the table says of a grid: solid (walls, doors, invisible, stations' 6 x 6 footprints cut
 * at the edge) and clip (invisible cells outside every footprint). */
static void expect(const uint8_t *grid, uint8_t *sol, uint8_t *clip) {
    for (size_t c = 0; c < G * G; c++) {
        sol[c] = (uint8_t)solid(grid[c]);
        clip[c] = grid[c] >= 240;
    }
    for (size_t c = 0; c < G * G; c++)
        if (grid[c] == 219)
            for (size_t y = c / G; y < c / G + 6 && y < G; y++)
                for (size_t x = c % G; x < c % G + 6 && x < G; x++)
                    sol[x + y * G] = 1, clip[x + y * G] = 0;
}

/* ---- geometry -------------------------------------------------------------------------- */

/* Every triangle lies on one drawn cell's top face, faces +Y, carries that cell's UVs and its
 * category's material; each drawn cell has exactly two. */
static void check_geometry(const baked *k, const uint8_t *grid) {
    uint32_t nb = blvl_Geometry_batches_len(k->geo), tris = 0, bad = 0;
    uint32_t *per = calloc(G * G, sizeof *per);
    for (uint32_t bi = 0; bi < nb; bi++) {
        blvl_Batch bt = blvl_Geometry_batches_at(k->geo, bi);
        blvl_Material mat = blvl_Geometry_materials_at(k->geo, blvl_Batch_material(bt));
        uint32_t first = blvl_Batch_first_index(bt), cnt = blvl_Batch_index_count(bt);
        for (uint32_t t = 0; t < cnt / 3; t++) {
            blvl_Vertex v[3];
            for (int j = 0; j < 3; j++)
                v[j] = blvl_Geometry_vertices_at(
                    k->geo, blvl_Geometry_indices_at(k->geo, first + 3 * t + (uint32_t)j));
            double cx = (v[0].position.x + v[1].position.x + v[2].position.x) / 3,
                   cz = (v[0].position.z + v[1].position.z + v[2].position.z) / 3;
            unsigned x = (unsigned)(cx / 16), y = (unsigned)(cz / 16), id = grid[x + y * G];
            int ok = drawn(id) && streq(blvl_Material_name(mat), material_of(id));
            /* facing +Y: the cross product of the edges points up */
            double ax = v[1].position.x - v[0].position.x, az = v[1].position.z - v[0].position.z,
                   bx = v[2].position.x - v[0].position.x, bz = v[2].position.z - v[0].position.z;
            ok = ok && az * bx - ax * bz > 0;
            for (int j = 0; ok && j < 3; j++) {
                double px = v[j].position.x - 16.0 * x, pz = v[j].position.z - 16.0 * y;
                double u = ((id - 1) % 19 * 16 + px) / 304.0, w = ((id - 1) / 19 * 16 + pz) / 160.0;
                ok = v[j].position.y == 16 && (px == 0 || px == 16) && (pz == 0 || pz == 16) &&
                     fabs(v[j].uv.x - u) < 1e-6 && fabs(v[j].uv.y - w) < 1e-6 && v[j].normal.y == 1;
            }
            if (!ok && bad++ < 5)
                fprintf(stderr, "triangle %u of batch %u (cell %u %u id %u) is wrong\n", t, bi, x,
                        y, id);
            per[x + y * G]++;
            tris++;
        }
    }
    uint32_t want = 0, miss = 0;
    for (size_t c = 0; c < G * G; c++) {
        want += drawn(grid[c]) ? 2 : 0;
        miss += per[c] != (drawn(grid[c]) ? 2u : 0u);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(miss, 0);
    CHECK_EQ_INT(tris, want);
    free(per);
}

/* The .bsym: each collider names a Brush source whose index is its top-left cell, holding the
 * tile id in surface_flags and the collider's kind (0 wall, 1 invisible, 2 door) in
 * contents_flags; the cell is inside the collider. Each triangle run names a Face source. */
static void check_symbols(const baked *k, const uint8_t *grid) {
    blvl_error err;
    CHECK_EQ_INT(blvl_section_verify_bytes("bsym", k->symbols, k->symbols_size, NULL, &err),
                 BLVL_OK);
    blvl_Symbols sym = blvl_Symbols_root(k->symbols);
    uint32_t n = blvl_Sim_colliders_len(k->sim), bad = 0;
    CHECK_EQ_INT(blvl_Symbols_colliders_len(sym), n);
    for (uint32_t i = 0; i < n && i < blvl_Symbols_colliders_len(sym); i++) {
        uint32_t si = blvl_Symbols_colliders_at(sym, i);
        if (si >= blvl_Symbols_sources_len(sym)) {
            bad++;
            continue;
        }
        blvl_SymbolSource src = blvl_Symbols_sources_at(sym, si);
        blvl_Collider col = blvl_Sim_colliders_at(k->sim, i);
        uint32_t cell = src.index, t = grid[cell % (G * G)];
        uint32_t kind = t >= 240 ? 1 : t >= 162 && t <= 169 ? 2 : 0;
        blvl_Vec3 lo = blvl_Collider_lo(col);
        bad += src.kind != blvl_SourceKind_Brush || src.surface_flags != t ||
               src.contents_flags != kind || !solid(t) || lo.x != 16.0f * (cell % G) ||
               lo.z != 16.0f * (cell / G);
    }
    CHECK_EQ_INT(bad, 0);
    uint32_t faces = 0;
    for (uint32_t i = 0; i < blvl_Symbols_sources_len(sym); i++)
        faces += blvl_Symbols_sources_at(sym, i).kind == blvl_SourceKind_Face;
    CHECK(faces > 0 && blvl_Symbols_tri_runs_len(sym) == faces);
}

/* ---- entities and sites ---------------------------------------------------------------- */

static const char *pair(blvl_Entity e, const char *key, char *buf, size_t size) {
    for (uint32_t i = 0; i < blvl_Entity_pairs_len(e); i++) {
        blvl_KeyValue kv = blvl_Entity_pairs_at(e, i);
        if (streq(blvl_KeyValue_key(kv), key)) {
            blvl_fb_str v = blvl_KeyValue_value(kv);
            snprintf(buf, size, "%.*s", (int)v.len, v.ptr);
            return buf;
        }
    }
    return NULL;
}

static uint32_t count_sites(const baked *k, const char *name, uint8_t kind) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < blvl_Sites_sites_len(k->sites); i++) {
        blvl_Site s = blvl_Sites_sites_at(k->sites, i);
        n += streq(blvl_Site_name(s), name) && blvl_Site_kind(s) == kind;
    }
    return n;
}

/* ---- the tests ------------------------------------------------------------------------- */

/* Every tile id 1..255 once, three cells apart (nothing merges), the stations alone, one at the
 * grid's corner (its footprint cut off there). */
static void test_categories(void) {
    map *p = map_new();
    for (unsigned t = 1; t <= 255; t++)
        if (t != 219)
            put(p, t, 3 * (t % 40) + 1, 3 * (t / 40) + 1);
    put(p, 219, 200, 200);
    put(p, 219, 1020, 1021);
    put(p, 5, 300, 300);
    put(p, 0, 300, 300);  /* tile 0: skipped, the wall stays */
    put(p, 171, 1500, 3); /* past the grid: skipped */
    p->m.skipped_range = 1, p->m.skipped_empty = 1;
    uint8_t *sol = calloc(G * G, 1), *clip = calloc(G * G, 1);
    expect(p->grid, sol, clip);
    /* the footprints, written out: 200..205 and the corner's 1020..1023 x 1021..1023 */
    CHECK(sol[205 + 205 * G] && !sol[206 + 200 * G] && !sol[200 + 206 * G]);
    CHECK(sol[1023 + 1023 * G] && sol[1020 + 1021 * G] && !sol[1019 + 1021 * G]);
    baked k;
    if (!bake(&p->m, "fallback", &k))
        return;
    unsigned asked = check_window(&k, sol, clip, 0, 0, 121, 21);
    asked += check_window(&k, sol, clip, 197, 197, 209, 209);
    asked += check_window(&k, sol, clip, 1016, 1016, 1024, 1024);
    asked += check_window(&k, sol, clip, 298, 298, 303, 303);
    printf("categories: %u cell centres asked\n", asked);
    /* colliders: 161 walls, 8 doors, 16 invisible, 2 stations, the wall at 300 300 */
    CHECK_EQ_INT(blvl_Sim_colliders_len(k.sim), 161 + 8 + 16 + 2 + 1);
    CHECK_EQ_INT(blvl_Sim_doors_len(k.sim), 8);
    for (uint32_t d = 0; d < blvl_Sim_doors_len(k.sim); d++) {
        char nm[16];
        snprintf(nm, sizeof nm, "door-%u", 162 + d);
        CHECK(streq(blvl_Door_name(blvl_Sim_doors_at(k.sim, d)), nm));
    }
    uint32_t door_colliders = 0;
    for (uint32_t i = 0; i < blvl_Sim_colliders_len(k.sim); i++)
        door_colliders += blvl_Collider_door(blvl_Sim_colliders_at(k.sim, i)) != BLVL_BAKE_NONE;
    CHECK_EQ_INT(door_colliders, 8);
    check_geometry(&k, p->grid);
    CHECK_EQ_INT(blvl_Geometry_materials_len(k.geo), 7);
    check_symbols(&k, p->grid);
    /* entities: the map's facts, then 8 doors, the flag, 3 asteroids, 2 stations, the wormhole
     * and the 44 ids in no category */
    CHECK_EQ_INT(blvl_Entities_entities_len(k.ent), 1 + 8 + 1 + 3 + 2 + 1 + 44);
    char buf[64];
    blvl_Entity e0 = blvl_Entities_entities_at(k.ent, 0);
    CHECK(streq(blvl_Entity_classname(e0), "subspace_map"));
    CHECK(pair(e0, "skipped_range", buf, sizeof buf) && strcmp(buf, "1") == 0);
    CHECK(pair(e0, "tileset", buf, sizeof buf) && strcmp(buf, "default") == 0);
    unsigned seen = 0;
    for (uint32_t i = 1; i < blvl_Entities_entities_len(k.ent); i++) {
        blvl_Entity e = blvl_Entities_entities_at(k.ent, i);
        unsigned t = 0, x = 0, y = 0, fw = 0, fh = 0;
        CHECK(pair(e, "tile", buf, sizeof buf) && sscanf(buf, "%u", &t) == 1);
        CHECK(pair(e, "cell", buf, sizeof buf) && sscanf(buf, "%u %u", &x, &y) == 2);
        CHECK(pair(e, "footprint", buf, sizeof buf) && sscanf(buf, "%u %u", &fw, &fh) == 2);
        CHECK(t < 256 && x < G && y < G && p->grid[x + y * G] == t);
        CHECK(has_entity(t) || t == 219);
        unsigned want = t == 217 ? 2 : t == 219 ? 6 : t == 220 ? 5 : 1;
        CHECK(fw == want && fh == want);
        CHECK(pair(e, "kind", buf, sizeof buf) != NULL);
        if (t == 162)
            CHECK(strcmp(buf, "vertical_door") == 0);
        if (t == 169)
            CHECK(strcmp(buf, "horizontal_door") == 0);
        if (t == 230)
            CHECK(strcmp(buf, "unknown") == 0);
        seen++;
    }
    CHECK_EQ_INT(seen, 59);
    CHECK_EQ_INT(count_sites(&k, "safe", blvl_SiteKind_Other), 1);
    CHECK_EQ_INT(count_sites(&k, "goal", blvl_SiteKind_Capture), 1);
    CHECK_EQ_INT(count_sites(&k, "flag", blvl_SiteKind_Flag), 1);
    CHECK(streq(blvl_Meta_name(k.meta), "fallback"));
    CHECK_EQ_INT(blvl_Meta_engine(k.meta), blvl_Engine_Subspace);
    baked_free(&k);
    free(sol);
    free(clip);
    map_free(p);
}

/* Collider counts of the cover, and the points inside and around each shape. */
static void shape(const char *what, void (*draw)(map *), unsigned want) {
    map *p = map_new();
    draw(p);
    baked k;
    if (!bake(&p->m, NULL, &k))
        return;
    printf("%s: %u wall tiles -> %u colliders (want %u)\n", what, p->m.record_count,
           blvl_Sim_colliders_len(k.sim), want);
    CHECK_EQ_INT(blvl_Sim_colliders_len(k.sim), want);
    uint8_t *sol = calloc(G * G, 1), *clip = calloc(G * G, 1);
    expect(p->grid, sol, clip);
    check_window(&k, sol, clip, 98, 98, 134, 134);
    free(sol);
    free(clip);
    baked_free(&k);
    map_free(p);
}

static void draw_square(map *p) { /* 24 x 30 of mixed wall ids: one box */
    for (unsigned y = 100; y < 130; y++)
        for (unsigned x = 100; x < 124; x++)
            put(p, 1 + (x * 7 + y) % 161, x, y);
}
static void draw_checker(map *p) { /* 16 x 16, half the cells: one box each */
    for (unsigned y = 100; y < 116; y++)
        for (unsigned x = 100; x < 116; x++)
            if ((x + y) % 2 == 0)
                put(p, 1, x, y);
}
static void draw_plus(map *p) { /* a 3-wide cross: two overlapping boxes */
    for (unsigned y = 100; y < 121; y++)
        for (unsigned x = 100; x < 121; x++)
            if ((x >= 109 && x < 112) || (y >= 109 && y < 112))
                put(p, 1, x, y);
}
static void draw_l(map *p) {
    for (unsigned y = 100; y < 120; y++)
        for (unsigned x = 100; x < 120; x++)
            if (x < 104 || y >= 116)
                put(p, 2, x, y);
}
static void draw_invisible(map *p) { /* walls and invisible tiles keep apart: 2 boxes */
    for (unsigned y = 100; y < 110; y++)
        for (unsigned x = 100; x < 110; x++)
            put(p, x < 105 ? 3 : 250, x, y);
}

/* A filled square of safe tiles is one safe site; a square of goal tiles with a hole is four
 * or fewer boxes covering exactly its cells. */
static void test_sites(void) {
    map *p = map_new();
    for (unsigned y = 10; y < 20; y++)
        for (unsigned x = 10; x < 20; x++)
            put(p, 171, x, y);
    for (unsigned y = 30; y < 40; y++)
        for (unsigned x = 30; x < 40; x++)
            if (!(x >= 34 && x < 36 && y >= 34 && y < 36))
                put(p, 172, x, y);
    baked k;
    if (!bake(&p->m, NULL, &k))
        return;
    CHECK_EQ_INT(count_sites(&k, "safe", blvl_SiteKind_Other), 1);
    uint32_t goals = count_sites(&k, "goal", blvl_SiteKind_Capture);
    CHECK(goals >= 4 && goals <= 4);
    CHECK_EQ_INT(blvl_Sim_colliders_len(k.sim), 0);
    /* every goal cell in some goal box, no other cell in any */
    for (unsigned y = 28; y < 42; y++)
        for (unsigned x = 28; x < 42; x++) {
            int in = 0;
            for (uint32_t i = 0; i < blvl_Sites_sites_len(k.sites); i++) {
                blvl_Site s = blvl_Sites_sites_at(k.sites, i);
                blvl_Vec3 lo = blvl_Site_lo(s), hi = blvl_Site_hi(s);
                float cx = 16.0f * x + 8, cz = 16.0f * y + 8;
                in |= streq(blvl_Site_name(s), "goal") && cx > lo.x && cx < hi.x && cz > lo.z &&
                      cz < hi.z && lo.y == 0 && hi.y == 16;
            }
            CHECK_EQ_INT(in, p->grid[x + y * G] == 172);
        }
    check_geometry(&k, p->grid);
    baked_free(&k);
    map_free(p);
}

/* The atlas of a map with a tileset: each pixel its palette colour, alpha 0 exactly where the
 * colour is black (index 0 and another black entry), 255 elsewhere. */
static void test_atlas(void) {
    map *p = map_new();
    put(p, 1, 0, 0);
    blvl_subspace_bmp bmp = {0};
    bmp.width = 304, bmp.height = 160, bmp.bits = 8, bmp.planes = 1;
    bmp.palette_count = 256;
    uint8_t(*pal)[4] = calloc(256, 4);
    uint32_t s = 12345;
    for (int i = 1; i < 256; i++)
        for (int c = 0; c < 3; c++) {
            s = s * 1103515245u + 12345u;
            pal[i][c] = (uint8_t)(s >> 16);
        }
    memset(pal[7], 0, 4);                        /* black again */
    pal[8][0] = 1, pal[8][1] = 0, pal[8][2] = 0; /* nearly black: kept */
    bmp.palette = pal;
    bmp.pixels = malloc(304 * 160);
    for (int i = 0; i < 304 * 160; i++) {
        s = s * 1103515245u + 12345u;
        bmp.pixels[i] =
            (uint8_t)(s >> 16) % 16 < 2 ? (uint8_t)((s >> 20) % 2 ? 7 : 0) : (uint8_t)(s >> 24);
    }
    p->m.bmp = &bmp;
    baked k;
    if (!bake(&p->m, NULL, &k))
        return;
    CHECK_EQ_INT(blvl_Textures_images_len(k.tex), 1);
    blvl_Image im = blvl_Textures_images_at(k.tex, 0);
    blvl_fb_vec png = blvl_Image_data_vec(im);
    int w, h, n;
    uint8_t *dec = stbi_load_from_memory(png.data, (int)png.len, &w, &h, &n, 4);
    CHECK(dec && w == 304 && h == 160);
    unsigned bad = 0, keyed = 0;
    for (int i = 0; dec && i < 304 * 160; i++) {
        const uint8_t *q = pal[bmp.pixels[i]];
        uint8_t a = (q[0] | q[1] | q[2]) ? 255 : 0;
        keyed += a == 0;
        bad += dec[4 * i] != q[2] || dec[4 * i + 1] != q[1] || dec[4 * i + 2] != q[0] ||
               dec[4 * i + 3] != a;
    }
    printf("atlas: %u of %u pixels keyed to alpha 0\n", keyed, 304 * 160);
    CHECK(keyed > 1000);
    CHECK_EQ_INT(bad, 0);
    stbi_image_free(dec);
    baked_free(&k);
    /* without a tileset: the default one, byte for byte */
    p->m.bmp = NULL;
    if (!bake(&p->m, NULL, &k))
        return;
    im = blvl_Textures_images_at(k.tex, 0);
    png = blvl_Image_data_vec(im);
    dec = stbi_load_from_memory(png.data, (int)png.len, &w, &h, &n, 4);
    uint8_t *def = malloc(304 * 160 * 4);
    blvl_subspace_default_tileset(def);
    CHECK(dec && w == 304 && h == 160 && memcmp(dec, def, 304 * 160 * 4) == 0);
    /* the default tiles are all different and opaque */
    unsigned same = 0, clear = 0;
    for (unsigned a = 0; a < 190; a++) {
        for (unsigned b = a + 1; b < 190; b++) {
            int eq = 1;
            for (unsigned y = 0; y < 16 && eq; y++)
                eq = memcmp(def + ((a / 19 * 16 + y) * 304 + a % 19 * 16) * 4,
                            def + ((b / 19 * 16 + y) * 304 + b % 19 * 16) * 4, 64) == 0;
            same += eq;
        }
    }
    for (int i = 0; i < 304 * 160; i++)
        clear += def[4 * i + 3] != 255;
    CHECK_EQ_INT(same, 0);
    CHECK_EQ_INT(clear, 0);
    stbi_image_free(dec);
    free(def);
    baked_free(&k);
    free(bmp.pixels);
    free(pal);
    map_free(p);
}

/* Meta: ATTR NAME (case aside) over the argument; ISO-8859-1 text becomes UTF-8; MAPCREATOR the
 * author; ATTR pairs in an entity. And determinism: the same map twice, the same bytes. */
static void test_meta(void) {
    map *p = map_new();
    put(p, 1, 1, 1);
    blvl_subspace_elvl e = {0};
    blvl_subspace_attr at[3] = {
        {"name", "Caf\xe9 Wars", 0}, {"MAPCREATOR", "someone", 1}, {"NOVALUE", NULL, 2}};
    e.attrs = at, e.attr_count = 3;
    p->m.elvl = &e;
    baked k, k2;
    if (!bake(&p->m, "file", &k) || !bake(&p->m, "file", &k2))
        return;
    CHECK(streq(blvl_Meta_name(k.meta), "Caf\xc3\xa9 Wars"));
    CHECK(streq(blvl_Meta_author(k.meta), "someone"));
    CHECK(k.size == k2.size && memcmp(k.level, k2.level, k.size) == 0);
    blvl_Entity a = blvl_Entities_entities_at(k.ent, 1);
    char buf[64];
    CHECK(streq(blvl_Entity_classname(a), "subspace_attributes"));
    CHECK(pair(a, "NOVALUE", buf, sizeof buf) && buf[0] == 0);
    CHECK(pair(a, "name", buf, sizeof buf) && strcmp(buf, "Caf\xc3\xa9 Wars") == 0);
    baked_free(&k);
    baked_free(&k2);
    p->m.elvl = NULL;
    if (!bake(&p->m, NULL, &k))
        return;
    CHECK(!blvl_Meta_name_present(k.meta));
    baked_free(&k);
    map_free(p);
}

/* ---- generated files through `blvl bake` -------------------------------------------------- */

/* Runs `blvl bake IN -o OUT`; its exit status. */
static int run_bake(const char *in, const char *out) {
    char *argv[] = {(char *)bin, "bake", (char *)in, "-o", (char *)out, NULL};
    char log[300];
    snprintf(log, sizeof log, "%s/bake.txt", dir);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(127);
        execv(bin, argv);
        _exit(127);
    }
    int ws = 0;
    waitpid(pid, &ws, 0);
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}

static int open_level(const char *path, baked *k) {
    memset(k, 0, sizeof *k);
    uint8_t *d = test_slurp(path, &k->size);
    CHECK(d != NULL);
    if (!d)
        return 0;
    k->level = d;
    k->malloced = 1;
    blvl_error err;
    CHECK_EQ_INT(blvl_open_memory(&k->lv, k->level, k->size, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_level_sim(k->lv, &k->sim_b, &k->sim, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_level_meta(k->lv, &k->meta_b, &k->meta, &err), BLVL_OK);
    blvl_level_geometry(k->lv, &k->geo_b, &k->geo, &err);
    blvl_level_entities(k->lv, &k->ent_b, &k->ent, &err);
    blvl_level_sites(k->lv, &k->site_b, &k->sites, &err);
    blvl_level_textures(k->lv, &k->tex_b, &k->tex, &err);
    snprintf(k->path, sizeof k->path, "%s", path);
    return 1;
}

/* The atlas against the generator's tileset and palette with the black key applied here. */
static void check_atlas(const baked *k, int has_tileset) {
    CHECK_EQ_INT(blvl_Textures_images_len(k->tex), 1);
    blvl_fb_vec png = blvl_Image_data_vec(blvl_Textures_images_at(k->tex, 0));
    int w, h, n;
    uint8_t *dec = stbi_load_from_memory(png.data, (int)png.len, &w, &h, &n, 4);
    CHECK(dec && w == 304 && h == 160);
    uint8_t *want = malloc(304 * 160 * 4);
    if (has_tileset) {
        uint8_t *px = malloc(304 * 160), pal[256][4];
        ssg_tileset(px);
        ssg_palette(pal);
        for (int i = 0; i < 304 * 160; i++) {
            const uint8_t *q = pal[px[i]];
            want[4 * i] = q[2], want[4 * i + 1] = q[1], want[4 * i + 2] = q[0];
            want[4 * i + 3] = (q[0] | q[1] | q[2]) ? 255 : 0;
        }
        free(px);
    } else
        blvl_subspace_default_tileset(want);
    CHECK(dec && memcmp(dec, want, 304 * 160 * 4) == 0);
    free(want);
    stbi_image_free(dec);
}

/* Each region's sites: every cell of its tile set inside a box named after it, no box of that
 * name holding a cell outside the set, kind Flag exactly for a base region. */
static void check_regions(const baked *k, const blvl_subspace *m) {
    uint32_t nr = ssg_region_count();
    CHECK(m->elvl && m->elvl->region_count == nr);
    uint8_t *bits = malloc(BLVL_SUBSPACE_BITMAP_BYTES), *cov = malloc(G * G);
    for (uint32_t r = 0; m->elvl && r < nr; r++) {
        const blvl_subspace_region *g = &m->elvl->regions[r];
        char name[64];
        snprintf(name, sizeof name, "%s", g->name ? g->name : "");
        if (!g->name)
            snprintf(name, sizeof name, "region-%u", r);
        ssg_region_bits(r, bits);
        memset(cov, 0, G * G);
        uint32_t boxes = 0, outside = 0, kind = 0, cells = 0, missed = 0;
        for (uint32_t i = 0; i < blvl_Sites_sites_len(k->sites); i++) {
            blvl_Site s = blvl_Sites_sites_at(k->sites, i);
            if (!streq(blvl_Site_name(s), name))
                continue;
            boxes++;
            kind += blvl_Site_kind(s) != (g->base ? blvl_SiteKind_Flag : blvl_SiteKind_Other);
            blvl_Vec3 lo = blvl_Site_lo(s), hi = blvl_Site_hi(s);
            for (uint32_t y = (uint32_t)lo.z / 16; y < (uint32_t)hi.z / 16; y++)
                for (uint32_t x = (uint32_t)lo.x / 16; x < (uint32_t)hi.x / 16; x++) {
                    uint32_t c = x + y * G;
                    outside += !(bits[c >> 3] >> (c & 7) & 1);
                    cov[c] = 1;
                }
        }
        for (uint32_t c = 0; c < G * G; c++)
            if (bits[c >> 3] >> (c & 7) & 1) {
                cells++;
                missed += !cov[c];
            }
        printf("  region %u '%s': %u cells in %u boxes\n", r, name, cells, boxes);
        CHECK_EQ_INT(outside, 0);
        CHECK_EQ_INT(missed, 0);
        CHECK_EQ_INT(kind, 0);
        CHECK(cells == 0 || boxes > 0);
    }
    free(bits);
    free(cov);
}

/* Every generated case but the full map: written by the project's writer, baked by `blvl bake`,
 * checked against the generator's own truth (grid, tileset, regions). The full map (1,048,576
 * drawn tiles) is left out: its level's zstd stage alone takes minutes; bench_subspace bakes a
 * map of 200,000 tiles. */
static void test_generated(void) {
    uint8_t *grid = malloc(G * G), *sol = malloc(G * G), *clip = malloc(G * G);
    uint32_t *cells = malloc(6000 * sizeof *cells);
    for (int c = 0; c < SSG_CASES; c++) {
        if (c == SSG_FULL)
            continue;
        void *bytes;
        size_t size;
        blvl_options opt = {0};
        CHECK_EQ_INT(ssg_write((ssg_case)c, &opt, &bytes, &size), BLVL_OK);
        char in[300], out[300];
        snprintf(in, sizeof in, "%s/%s.lvl", dir, ssg_case_name((ssg_case)c));
        snprintf(out, sizeof out, "%s/%s.blvl", dir, ssg_case_name((ssg_case)c));
        CHECK_EQ_INT(test_spit(in, bytes, size), 0);
        blvl_subspace *m = NULL;
        blvl_error err;
        CHECK_EQ_INT(blvl_subspace_read(&m, bytes, size, NULL, &err), BLVL_OK);
        blvl_free(&opt, bytes);
        CHECK_EQ_INT(run_bake(in, out), 0);
        baked k;
        if (!m || !open_level(out, &k)) {
            blvl_subspace_free(m);
            continue;
        }
        ssg_grid((ssg_case)c, grid);
        expect(grid, sol, clip);
        /* the cells to ask: every tile cell and its right neighbour, at most 6000, spread */
        uint32_t tiles = 0, n = 0;
        for (uint32_t i = 0; i < G * G; i++)
            tiles += grid[i] != 0;
        uint32_t step = tiles / 2500 + 1, seen = 0;
        for (uint32_t i = 0; i < G * G && n + 2 <= 6000; i++)
            if (grid[i] && seen++ % step == 0) {
                cells[n++] = i;
                if (i % G + 1 < G)
                    cells[n++] = i + 1;
            }
        check_cells(out, cells, n, sol, clip);
        check_geometry(&k, grid);
        int tileset = m->bmp != NULL;
        check_atlas(&k, tileset);
        /* meta: the ATTR NAME, else the file's name */
        const char *want = m->elvl ? "Generated Map" : ssg_case_name((ssg_case)c);
        CHECK(streq(blvl_Meta_name(k.meta), want));
        if (m->elvl)
            check_regions(&k, m);
        printf("%s: %u tiles, %u cells asked, %u colliders, %u sites, %u entities\n",
               ssg_case_name((ssg_case)c), tiles, n, blvl_Sim_colliders_len(k.sim),
               blvl_Sites_sites_len(k.sites), blvl_Entities_entities_len(k.ent));
        baked_free(&k);
        blvl_subspace_free(m);
    }
    free(grid);
    free(sol);
    free(clip);
    free(cells);
}

int main(void) {
    bin = getenv("BLVL_BIN");
    if (!bin) {
        fprintf(stderr, "BLVL_BIN is not set\n");
        return 1;
    }
    snprintf(dir, sizeof dir, "/tmp/blvl_subspace_bake_XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    test_categories();
    shape("filled square", draw_square, 1);
    shape("checkerboard", draw_checker, 128);
    shape("plus", draw_plus, 2);
    shape("L", draw_l, 2);
    shape("wall beside invisible", draw_invisible, 2);
    test_sites();
    test_atlas();
    test_meta();
    test_generated();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd);
    return check_report("test_subspace_bake");
}
