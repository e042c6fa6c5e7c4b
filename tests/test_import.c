/* The import front door (blvl/import.h) from C: detection by the documented rule, one call
 * with a zeroed (or NULL) options struct giving the bytes the importer's own calls give,
 * refusals that name the file and say which argument was wrong, recipes and cameras, the map
 * list, and every byte through the caller's allocator (counted, all given back). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/blvl.h"
#include "blvl/hmap.h"
#include "blvl/import.h"
#include "check.h"
#include "files.h"

typedef struct counting {
    long live, calls;
} counting;
static void *c_alloc(void *u, size_t n) {
    counting *c = u;
    c->live++, c->calls++;
    return malloc(n);
}
static void c_free(void *u, void *p, size_t n) {
    (void)n;
    if (p)
        ((counting *)u)->live--;
    free(p);
}

static void detection(void) {
    static const struct {
        const char *bytes;
        size_t n;
        const char *name;
        blvl_import_format want;
    } cases[] = {
        {"HMAP\1\0\0\0", 8, "x.bin", BLVL_IMPORT_HMAP},
        {"SRSC\1\0\0\0", 8, NULL, BLVL_IMPORT_RIOT},
        {"elvl\0\0\0\0", 8, NULL, BLVL_IMPORT_SUBSPACE},
        {"BM\0\0", 4, "a.lvl", BLVL_IMPORT_SUBSPACE},
        {"IBSP\x2e\0\0\0", 8, NULL, BLVL_IMPORT_Q3},
        {"PK\3\4", 4, "a.zip", BLVL_IMPORT_Q3},
        {"blvl-recipe 1\nmap x\n", 20, "a.bsp", BLVL_IMPORT_RECIPE}, /* first line first */
        {"\x05\x20\x00\x01", 4, "tiles.lvl", BLVL_IMPORT_SUBSPACE},  /* x 5, y 2, tile 1 */
        {"\xff\xff\xff\x01", 4, "tiles.lvl", BLVL_IMPORT_AUTO},      /* x 4095: no tile */
        {"\x05\x20\x00\x01", 4, "tiles.bin", BLVL_IMPORT_AUTO},      /* not named .lvl */
        {"", 0, "empty.lvl", BLVL_IMPORT_SUBSPACE},
        {"SR", 2, "cut.lvl", BLVL_IMPORT_RIOT},
        {"ab", 2, "cut.lvl", BLVL_IMPORT_SUBSPACE},
        {"junk", 4, "damaged.hmap", BLVL_IMPORT_HMAP},
        {"junk", 4, "damaged.bsp", BLVL_IMPORT_Q3},
        {"junk", 4, "junk.txt", BLVL_IMPORT_AUTO},
        {"", 0, NULL, BLVL_IMPORT_AUTO},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *what = "unset";
        blvl_import_format f = blvl_import_detect(&what, cases[i].bytes, cases[i].n, cases[i].name);
        if (f != cases[i].want)
            fprintf(stderr, "case %zu: %d, want %d\n", i, (int)f, (int)cases[i].want);
        CHECK_EQ_INT(f, cases[i].want);
        CHECK(f == BLVL_IMPORT_AUTO ? what == NULL : what != NULL && *what);
    }
    CHECK(!strcmp(blvl_import_format_name(BLVL_IMPORT_SUBSPACE), "subspace"));
    CHECK(!strcmp(blvl_import_format_name(BLVL_IMPORT_RECIPE), "recipe"));
    CHECK(!strcmp(blvl_import_format_name((blvl_import_format)99), ""));
}

int main(void) {
    const char *src = getenv("BLVL_SRC");
    char path[4096], dir[] = "/tmp/blvl-import-XXXXXX", out[4200], ref[4200], tmp[4200];
    if (!src || !mkdtemp(dir))
        return 1;
    snprintf(path, sizeof path, "%s/tests/data/hmap/sample.hmap", src);
    snprintf(out, sizeof out, "%s/out.blvl", dir);
    snprintf(ref, sizeof ref, "%s/ref.blvl", dir);
    detection();

    /* The importer's own calls: the reference bytes (the front door turns the acoustics step on
     * for every format with floors). */
    size_t n = 0;
    uint8_t *bytes = test_slurp(path, &n);
    CHECK(bytes != NULL);
    blvl_error err;
    blvl_hmap *map = NULL;
    blvl_bake *b = NULL;
    CHECK_EQ_INT(blvl_hmap_read(&map, bytes, n, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_bake_new(&b, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_hmap_bake(map, b, &err), BLVL_OK);
    char noac[4200];
    snprintf(noac, sizeof noac, "%s/noac.blvl", dir);
    CHECK_EQ_INT(blvl_bake_write_file(b, noac, NULL, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_bake_set_acoustics(b, true, 0, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_bake_write_file(b, ref, NULL, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_bake_set_acoustics(b, true, 8, &err), BLVL_E_ARGUMENT);
    blvl_bake_free(b);
    blvl_hmap_free(map);

    /* One call, NULL options; then a zeroed struct with a counting allocator. */
    blvl_import_report rep;
    CHECK_EQ_INT(blvl_import_bake_file(&rep, path, out, NULL, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(rep.format, BLVL_IMPORT_HMAP);
    CHECK(rep.stats.colliders > 0);
    size_t rn = 0, on = 0;
    uint8_t *rb = test_slurp(ref, &rn), *ob = test_slurp(out, &on);
    CHECK(rb && ob && rn == on && memcmp(rb, ob, rn) == 0);
    free(ob);
    counting cnt = {0, 0};
    blvl_import_options opt = {0};
    opt.base.allocator = (blvl_allocator){c_alloc, c_free, &cnt};
    unlink(out);
    CHECK_EQ_INT(blvl_import_bake_memory(&rep, path, bytes, n, out, NULL, &opt, &err), BLVL_OK);
    ob = test_slurp(out, &on);
    CHECK(rb && ob && rn == on && memcmp(rb, ob, rn) == 0);
    free(ob);
    CHECK(cnt.calls > 0);
    CHECK_EQ_INT(cnt.live, 0);
    /* --no-acoustics: the model's bytes without the step; a spacing out of range is refused. */
    opt.no_acoustics = true;
    unlink(out);
    CHECK_EQ_INT(blvl_import_bake_memory(&rep, path, bytes, n, out, NULL, &opt, &err), BLVL_OK);
    CHECK_EQ_INT(rep.stats.acoustic_probes, 0);
    size_t nn = 0;
    uint8_t *nb = test_slurp(noac, &nn);
    ob = test_slurp(out, &on);
    CHECK(nb && ob && nn == on && memcmp(nb, ob, nn) == 0 && (nn != rn || memcmp(nb, rb, nn)));
    free(ob);
    free(nb);
    opt.no_acoustics = false;
    opt.acoustics_spacing = 2000;
    CHECK_EQ_INT(blvl_import_bake_memory(&rep, path, bytes, n, out, NULL, &opt, &err),
                 BLVL_E_ARGUMENT);
    opt.acoustics_spacing = 0;

    /* Refusals: the file named, the argument said, nothing written. */
    unlink(out);
    const char *pk3s[1] = {"/nonexistent.pk3"};
    opt.pk3 = pk3s;
    opt.pk3_count = 1;
    CHECK_EQ_INT(blvl_import_bake_file(&rep, path, out, NULL, &opt, &err), BLVL_E_ARGUMENT);
    CHECK_EQ_INT(rep.misuse, BLVL_IMPORT_NOT_Q3);
    CHECK(!strcmp(rep.where, path));
    CHECK(access(out, F_OK) != 0);
    opt.pk3_count = 0;
    opt.patch_subdivisions = 65;
    CHECK_EQ_INT(blvl_import_bake_file(&rep, path, out, NULL, &opt, &err), BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "patch_subdivisions") != NULL);
    opt.patch_subdivisions = 0;
    opt.from = BLVL_IMPORT_RIOT; /* the bytes are a .hmap: the Riot reader refuses them */
    CHECK_EQ_INT(blvl_import_bake_file(&rep, path, out, NULL, &opt, &err), BLVL_E_SOURCE);
    CHECK(!strcmp(rep.where, path));
    opt.from = BLVL_IMPORT_AUTO;
    CHECK_EQ_INT(blvl_import_bake_memory(&rep, "x.txt", "junk!", 5, out, NULL, &opt, &err),
                 BLVL_E_UNKNOWN_FORMAT);
    CHECK(!strncmp(err.message, "unknown-format: starts with bytes 6a 75 6e 6b ...", 49));
    snprintf(tmp, sizeof tmp, "%s/x.bsp", dir);
    opt.map = "oa_dm1";
    CHECK_EQ_INT(blvl_import_bake_memory(&rep, tmp, "IBSP", 4, out, NULL, &opt, &err),
                 BLVL_E_ARGUMENT);
    CHECK_EQ_INT(rep.misuse, BLVL_IMPORT_MAP_NOT_ARCHIVE);
    CHECK(!strcmp(rep.where, tmp));
    opt.map = NULL;
    CHECK(access(out, F_OK) != 0);

    /* A recipe refused by line, named by its own path. */
    snprintf(tmp, sizeof tmp, "%s/bad.recipe", dir);
    const char *recipe = "blvl-recipe 1\n# note\nbogus value\n";
    CHECK_EQ_INT(test_spit(tmp, recipe, strlen(recipe)), 0);
    CHECK_EQ_INT(blvl_import_bake_file(&rep, tmp, out, NULL, &opt, &err), BLVL_E_SOURCE);
    CHECK(!strcmp(rep.where, tmp));
    CHECK(!strcmp(err.message, "line 3: key at offset 21: recipe-key: unknown key 'bogus' (map, "
                               "pk3, options)"));
    CHECK_EQ_INT(rep.format, BLVL_IMPORT_RECIPE);
    /* a long key without a value: the field is cut, so the message keeps its rule */
    char longkey[400] = "blvl-recipe 1\n";
    memset(longkey + 14, 'K', 300);
    CHECK_EQ_INT(
        blvl_import_bake_memory(&rep, tmp, longkey, strlen(longkey), out, NULL, &opt, &err),
        BLVL_E_SOURCE);
    CHECK(strstr(err.message, " at offset 14: recipe-value: ") != NULL);

    /* Cameras from the options, for any format: the level gains a cameras section. */
    char cams[4200];
    snprintf(cams, sizeof cams, "%s/a.cameras", dir);
    const char *ctext = "blvl-cameras 1\nov overview 0 600 900 0 -30 0 90\n";
    CHECK_EQ_INT(test_spit(cams, ctext, strlen(ctext)), 0);
    opt.cameras = cams;
    CHECK_EQ_INT(blvl_import_bake_file(&rep, path, out, NULL, &opt, &err), BLVL_OK);
    blvl_level *lv = NULL;
    CHECK_EQ_INT(blvl_open_file(&lv, out, NULL, &err), BLVL_OK);
    CHECK(lv && blvl_find(lv, "cameras"));
    blvl_close(lv);
    const char *bad = "blvl-cameras 1\nov nowhere 0 0 0 0 0 0 0\n";
    CHECK_EQ_INT(test_spit(cams, bad, strlen(bad)), 0);
    CHECK_EQ_INT(blvl_import_bake_file(&rep, path, out, NULL, &opt, &err), BLVL_E_SOURCE);
    CHECK(!strcmp(rep.where, cams));
    CHECK(strstr(err.message, "camera-purpose") != NULL);
    opt.cameras = NULL;
    CHECK_EQ_INT(cnt.live, 0);

    /* The map list: a file that is no zip is refused as an argument, a missing one as such. */
    char **names = NULL;
    size_t count = 9;
    CHECK_EQ_INT(blvl_import_list_maps(&names, &count, &rep, path, &opt, &err), BLVL_E_ARGUMENT);
    CHECK_EQ_INT(rep.misuse, BLVL_IMPORT_LIST_NOT_ARCHIVE);
    CHECK(names == NULL && count == 0);
    CHECK_EQ_INT(blvl_import_list_maps(&names, &count, &rep, "/nonexistent", &opt, &err),
                 BLVL_E_NOT_FOUND);
    /* a folder with no maps: an empty list, one buffer */
    CHECK_EQ_INT(blvl_import_list_maps(&names, &count, &rep, dir, &opt, &err), BLVL_OK);
    CHECK(names != NULL && count == 0 && names[0] == NULL);
    blvl_free(&opt.base, names);
    CHECK_EQ_INT(cnt.live, 0);

    free(rb);
    free(bytes);
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    test_run(cmd);
    return check_report("test_import");
}
