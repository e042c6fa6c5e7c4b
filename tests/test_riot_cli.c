/* `blvl bake` of Riot levels end to end: levels from the tests' generator
 * (tests/support/riot_gen.h) written with blvl_riot_write, baked by the command line, then
 *
 * - the printed triangle count is 2 cells - holes - invisible, the meta says Riot;
 * - the CLI's level and symbols are byte-identical to the library's bake of the same file
 *   (blvl_riot_read + blvl_riot_bake + blvl_bake_write_memory), and to a second CLI bake;
 * - `blvl trace --contents` answers empty 1 qu on the empty side of every solid triangle's
 *   surface (the division bit's), solid 1 qu on the other, empty in holes at several heights;
 *   heights computed here from the records;
 * - damaged files (a layer's zlib stream broken, the file cut short, a directory past the end)
 *   exit 1, print "blvl: FILE: record ...", "SRSC: ..." or "directory: ..." and leave no output. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/riot.h"
#include "blvl/sections.h"
#include "check.h"
#include "files.h"
#include "support/riot_gen.h"

static const char *bin;
static char dir[256];

static double height_wu(const blvl_riot_layer *l, uint32_t row, uint32_t col) {
    const blvl_riot_vertex *v = &l->vertices[(size_t)row * (l->width + 1) + col];
    return (double)l->world_height + 2.0 * ((double)v->raw_height - 32768.0);
}

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

static bool exists(const char *p) {
    return access(p, F_OK) == 0;
}

/* The library's bake of the file's bytes. */
static int library_bake(const void *file, size_t n, void **lv, size_t *lsz, void **sym,
                        size_t *ssz) {
    blvl_riot_level *level = NULL;
    blvl_bake *b = NULL;
    blvl_error err;
    int ok = blvl_riot_read(&level, file, n, NULL, &err) == BLVL_OK &&
             blvl_bake_new(&b, NULL, &err) == BLVL_OK &&
             blvl_riot_bake(level, b, &err) == BLVL_OK &&
             blvl_bake_set_acoustics(b, true, 0, &err) == BLVL_OK && /* as the front door does */
             blvl_bake_write_memory(b, lv, lsz, sym, ssz, NULL, &err) == BLVL_OK;
    if (!ok)
        fprintf(stderr, "library bake: %s\n", err.message);
    blvl_bake_free(b);
    blvl_riot_free(level);
    return ok ? 0 : -1;
}

typedef struct pt {
    double p[3];
    bool solid;
} pt;

static void check_level(const char *name, const riot_gen_opts *o) {
    blvl_riot_level gen;
    CHECK_EQ_INT(riot_gen_build(o, &gen), 0);
    void *file = NULL;
    size_t fsz = 0;
    blvl_error err;
    CHECK_EQ_INT(blvl_riot_write(&file, &fsz, &gen, NULL, &err), BLVL_OK);
    char lvl[512], out[512], sym[512], out2[512], sym2[512], txt[512], cmd[4096];
    snprintf(lvl, sizeof lvl, "%s/%s.lvl", dir, name);
    snprintf(out, sizeof out, "%s/%s.blvl", dir, name);
    snprintf(sym, sizeof sym, "%s/%s.bsym", dir, name);
    snprintf(out2, sizeof out2, "%s/%s.2.blvl", dir, name);
    snprintf(sym2, sizeof sym2, "%s/%s.2.bsym", dir, name);
    snprintf(txt, sizeof txt, "%s/%s.txt", dir, name);
    CHECK_EQ_INT(test_spit(lvl, file, fsz), 0);
    snprintf(cmd, sizeof cmd, "'%s' bake '%s' -o '%s' --symbols '%s' > '%s'", bin, lvl, out, sym,
             txt);
    CHECK_EQ_INT(test_run(cmd), 0);
    snprintf(cmd, sizeof cmd, "'%s' bake '%s' -o '%s' --symbols '%s' --threads 1 > /dev/null", bin,
             lvl, out2, sym2);
    CHECK_EQ_INT(test_run(cmd), 0);
    /* the printed counts */
    uint64_t cells = 0, holes = 0, invisible = 0;
    for (uint32_t i = 0; i < gen.layer_count; i++) {
        const blvl_riot_layer *l = &gen.layers[i];
        cells += (uint64_t)l->width * l->height;
        for (size_t k = 0; k < (size_t)l->width * l->height; k++)
            for (int t = 0; t < 2; t++) {
                holes += l->cells[k].texture[t] == BLVL_RIOT_HOLE;
                invisible += l->cells[k].texture[t] == BLVL_RIOT_INVISIBLE;
            }
    }
    size_t n;
    char *line = (char *)test_slurp(txt, &n);
    unsigned colliders = 0, planes = 0, tris = 0;
    CHECK(line && sscanf(line, "baked %*s %u colliders, %u planes, %u triangles", &colliders,
                         &planes, &tris) == 3);
    CHECK_EQ_INT(tris, 2 * cells - holes - invisible);
    CHECK(colliders > 0);
    free(line);
    /* the CLI's bytes are the library's and the second run's */
    void *lv = NULL, *sy = NULL;
    size_t lsz = 0, ssz = 0, n1 = 0, n2 = 0, s1 = 0, s2 = 0;
    CHECK_EQ_INT(library_bake(file, fsz, &lv, &lsz, &sy, &ssz), 0);
    uint8_t *b1 = test_slurp(out, &n1), *b2 = test_slurp(out2, &n2);
    uint8_t *y1 = test_slurp(sym, &s1), *y2 = test_slurp(sym2, &s2);
    CHECK(b1 && lv && n1 == lsz && memcmp(b1, lv, lsz) == 0);
    CHECK(b1 && b2 && n1 == n2 && memcmp(b1, b2, n1) == 0);
    CHECK(y1 && sy && s1 == ssz && memcmp(y1, sy, ssz) == 0);
    CHECK(y1 && y2 && s1 == s2 && memcmp(y1, y2, s1) == 0);
    free(b1), free(b2), free(y1), free(y2);
    blvl_free(NULL, lv);
    blvl_free(NULL, sy);
    /* meta */
    blvl_level *level = NULL;
    CHECK_EQ_INT(blvl_open_file(&level, out, NULL, &err), BLVL_OK);
    blvl_bytes sec = {0};
    blvl_Meta m;
    if (level && blvl_level_meta(level, &sec, &m, &err) == BLVL_OK) {
        CHECK_EQ_INT(blvl_Meta_engine(m), blvl_Engine_Riot);
        blvl_fb_str s = blvl_Meta_name(m);
        CHECK(s.ptr && s.len == strlen(gen.name.text) && memcmp(s.ptr, gen.name.text, s.len) == 0);
        blvl_bytes_free(&sec);
    } else
        CHECK(!"meta");
    blvl_close(level);
    /* points through `blvl trace --contents`: per solid triangle 1 qu off its surface on each
     * side; per hole three heights. Layers of the generator may stand over one another, so a
     * point is asked only when no other layer's cells cover its column. */
    pt *pts = calloc(cells * 6 + 1, sizeof *pts);
    uint32_t np = 0;
    for (uint32_t li = 0; li < gen.layer_count; li++) {
        const blvl_riot_layer *l = &gen.layers[li];
        double side = l->type == 1 ? -1.0 : 1.0;
        for (uint32_t r = 0; r < l->height; r++)
            for (uint32_t c = 0; c < l->width; c++) {
                const blvl_riot_cell *cell = &l->cells[(size_t)r * l->width + c];
                int div = cell->flags & 1;
                bool alone = true;
                for (uint32_t lj = 0; lj < gen.layer_count; lj++) {
                    const blvl_riot_layer *o2 = &gen.layers[lj];
                    uint32_t gx = l->origin_x + c, gz = l->origin_z + r;
                    if (lj != li && gx + 1 >= o2->origin_x && gx <= o2->origin_x + o2->width &&
                        gz + 1 >= o2->origin_z && gz <= o2->origin_z + o2->height)
                        alone = false;
                }
                if (!alone)
                    continue;
                static const double UV[2][2][2] = {{{0.2, 0.2}, {0.8, 0.8}},
                                                   {{0.2, 0.8}, {0.8, 0.2}}};
                for (int t = 0; t < 2; t++) {
                    double u = UV[div][t][0], v = UV[div][t][1];
                    double x = 128.0 * (l->origin_x + c + u), z = 128.0 * (l->origin_z + r + v);
                    double y = surf(l, r, c, u, v, div);
                    if (cell->texture[t] == BLVL_RIOT_HOLE) {
                        for (int k = -1; k <= 1; k++)
                            pts[np++] = (pt){{x, y + 40.0 * k, z}, false};
                        continue;
                    }
                    pts[np++] = (pt){{x, y + side, z}, false};
                    pts[np++] = (pt){{x, y - side, z}, true};
                }
            }
    }
    CHECK(np > 10);
    size_t cap = 256 + (size_t)np * 80;
    char *argv = malloc(cap);
    int at = snprintf(argv, cap, "'%s' trace '%s'", bin, out);
    for (uint32_t i = 0; i < np; i++)
        at += snprintf(argv + at, cap - (size_t)at, " --contents %.4f %.4f %.4f", pts[i].p[0],
                       pts[i].p[1], pts[i].p[2]);
    snprintf(argv + at, cap - (size_t)at, " > '%s'", txt);
    CHECK_EQ_INT(test_run(argv), 0);
    char *res = (char *)test_slurp(txt, &n);
    uint32_t bad = 0, got = 0;
    for (char *p = res; p && *p && got < np; got++) {
        unsigned count = 0;
        if (sscanf(p, "contents at %*s %*s %*s count %u", &count) != 1)
            break;
        if ((count > 0) != pts[got].solid && bad++ < 5)
            fprintf(stderr, "%s: (%g %g %g) expected %s, count %u\n", name, pts[got].p[0],
                    pts[got].p[1], pts[got].p[2], pts[got].solid ? "solid" : "empty", count);
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    printf("%s: %u cells, %u points asked through blvl trace\n", name, (unsigned)cells, np);
    CHECK_EQ_INT(got, np);
    CHECK_EQ_INT(bad, 0);
    free(res);
    free(argv);
    free(pts);
    /* damaged copies: exit 1, nothing written */
    struct {
        const char *what, *want;
        size_t cut;
    } damage[3] = {{"zlib", ": record 0x0001: layer[0].data at offset ", 0},
                   {"cut", ": ", fsz / 2},
                   {"dir", ": SRSC: ", 0}};
    uint8_t *bad_file = malloc(fsz);
    for (int d = 0; d < 3; d++) {
        memcpy(bad_file, file, fsz);
        size_t len = fsz;
        if (d == 0) {
            /* the first layer's zlib header byte: the layers record's body, its count, every
             * definition (28 bytes, the name, 28 bytes, the visible list), the unknown u32 and
             * the first compressed size */
            blvl_riot_srsc *c = NULL;
            if (blvl_riot_srsc_read(&c, file, fsz, NULL, &err) == BLVL_OK) {
                int32_t k = blvl_riot_srsc_find(c, BLVL_RIOT_LAYERS);
                CHECK(k >= 0);
                size_t at = k >= 0 ? c->records[k].offset + 4 : 0;
                for (uint32_t i = 0; i < gen.layer_count; i++)
                    at += 28 + 2 + riot_gen_str_size(gen.layers[i].name.text) + 28 +
                          4 * (size_t)gen.layers[i].visible_count;
                at += 4 + 4;
                CHECK(at < fsz && bad_file[at] == 0x78);
                if (at < fsz)
                    bad_file[at] = 0x00;
                blvl_riot_srsc_free(c);
            }
        } else if (d == 1)
            len = damage[d].cut;
        else {
            uint32_t past = (uint32_t)fsz + 10; /* directory offset, bytes 6..9 */
            memcpy(bad_file + 6, &past, 4);
        }
        char bl[512], bo[512], bs[512], be[512];
        snprintf(bl, sizeof bl, "%s/%s.%s.lvl", dir, name, damage[d].what);
        snprintf(bo, sizeof bo, "%s/%s.%s.blvl", dir, name, damage[d].what);
        snprintf(bs, sizeof bs, "%s/%s.%s.bsym", dir, name, damage[d].what);
        snprintf(be, sizeof be, "%s/%s.%s.err", dir, name, damage[d].what);
        CHECK_EQ_INT(test_spit(bl, bad_file, len), 0);
        snprintf(cmd, sizeof cmd, "'%s' bake '%s' -o '%s' --symbols '%s' 2> '%s'; test $? -eq 1",
                 bin, bl, bo, bs, be);
        CHECK_EQ_INT(test_run(cmd), 0);
        CHECK(!exists(bo) && !exists(bs));
        char *e = (char *)test_slurp(be, &n);
        char want[600];
        snprintf(want, sizeof want, "blvl: %s%s", bl, damage[d].want);
        if (!e || strncmp(e, want, strlen(want)) != 0) {
            fprintf(stderr, "%s: stderr '%s', want it to start with '%s'\n", damage[d].what,
                    e ? e : "", want);
            CHECK(0);
        }
        free(e);
    }
    free(bad_file);
    blvl_free(NULL, file);
    riot_gen_free(&gen);
}

int main(void) {
    bin = getenv("BLVL_BIN");
    if (!bin) {
        fprintf(stderr, "test_riot_cli: BLVL_BIN is not set\n");
        return 1;
    }
    snprintf(dir, sizeof dir, "/tmp/blvl_riot_cli_%d", (int)getpid());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    if (test_run(cmd) != 0)
        return 1;
    riot_gen_opts a = {.seed = 11, .layers = 3, .width = 6, .height = 5, .objects = 4};
    check_level("mixed", &a);
    riot_gen_opts b = {.seed = 12, .layers = 6, .objects = 0, .no_groups = true, .unusual = true};
    check_level("unusual", &b);
    riot_gen_opts c = {.seed = 13, .layers = 2, .width = 9, .height = 9, .flat = true};
    check_level("flat", &c);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    test_run(cmd);
    return check_report("test_riot_cli");
}
