/* The Quake 3 search path (blvl_q3_fs): archives written here with libzip, directories of
 * archives and loose files; later entries override earlier ones, names compare without case and
 * read '\\' as '/', and the limits and the CRC-32 are refused by rule (docs/IMPORT-Q3.md,
 * "The files"). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include "blvl/q3.h"
#include "check.h"
#include "files.h"

static char root[64];

static const char *at(const char *rel) {
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", root, rel);
    return buf[k];
}

/* An archive of `n` (name, text) pairs, each stored (no compression) so a test can find and
 * change its bytes. */
static int make_zip(const char *path, const char *const *pairs, int n) {
    int code;
    unlink(path);
    zip_t *z = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code);
    if (!z)
        return -1;
    for (int i = 0; i < n; i++) {
        const char *text = pairs[2 * i + 1];
        zip_source_t *s = zip_source_buffer(z, text, strlen(text), 0);
        zip_int64_t idx = s ? zip_file_add(z, pairs[2 * i], s, ZIP_FL_ENC_RAW) : -1;
        if (idx < 0 || zip_set_file_compression(z, (zip_uint64_t)idx, ZIP_CM_STORE, 0) != 0) {
            zip_discard(z);
            return -1;
        }
    }
    return zip_close(z);
}

/* The text of `name` from fs, or "" on failure (err says why). */
static const char *text_of(blvl_q3_fs *fs, const char *name, blvl_error *err) {
    static char buf[256];
    void *d;
    size_t n;
    buf[0] = 0;
    if (blvl_q3_fs_read(&d, &n, fs, name, err) != BLVL_OK)
        return buf;
    snprintf(buf, sizeof buf, "%.*s", (int)n, (const char *)d);
    blvl_free(NULL, d);
    return buf;
}

static blvl_q3_fs *fs_of(const char *a, const char *b) {
    blvl_q3_fs *fs;
    blvl_error err;
    if (blvl_q3_fs_new(&fs, NULL, &err))
        return NULL;
    if ((a && blvl_q3_fs_add(fs, a, &err)) || (b && blvl_q3_fs_add(fs, b, &err))) {
        fprintf(stderr, "add: %s\n", err.message);
        blvl_q3_fs_free(fs);
        return NULL;
    }
    return fs;
}

/* Later archives win; case and '\\' do not matter; listing gives each name once. */
static void test_override(void) {
    const char *a[] = {
        "maps/Arena.bsp", "from a", "Textures\\Base\\Wall.TGA", "wall", "maps/only_a.bsp", "a",
        "scripts/",       ""};
    const char *b[] = {"MAPS/arena.BSP", "from b", "maps/z.bsp", "z"};
    CHECK(make_zip(at("a.pk3"), a, 4) == 0);
    CHECK(make_zip(at("b.pk3"), b, 2) == 0);
    blvl_error err;
    blvl_q3_fs *fs = fs_of(at("a.pk3"), at("b.pk3"));
    CHECK(fs != NULL);
    if (!fs)
        return;
    CHECK(!strcmp(text_of(fs, "maps/arena.bsp", &err), "from b"));
    CHECK(!strcmp(text_of(fs, "textures/base/wall.tga", &err), "wall"));
    CHECK(!strcmp(text_of(fs, "TEXTURES\\BASE\\wall.tga", &err), "wall"));
    CHECK(blvl_q3_fs_exists(fs, "maps/ONLY_A.bsp"));
    CHECK(!blvl_q3_fs_exists(fs, "maps/missing.bsp"));
    CHECK(!blvl_q3_fs_exists(fs, "scripts/")); /* a folder entry is no file */
    void *d = NULL;
    size_t n;
    CHECK_EQ_INT(blvl_q3_fs_read(&d, &n, fs, "maps/missing.bsp", &err), BLVL_E_NOT_FOUND);
    char **names;
    size_t count;
    CHECK(blvl_q3_fs_list(&names, &count, fs, "maps", ".bsp", &err) == BLVL_OK);
    CHECK_EQ_INT(count, 3);
    if (count == 3) {
        /* the winning entry's spelling, sorted by the lower-cased path */
        CHECK(!strcmp(names[0], "MAPS/arena.BSP"));
        CHECK(!strcmp(names[1], "maps/only_a.bsp"));
        CHECK(!strcmp(names[2], "maps/z.bsp"));
    }
    blvl_free(blvl_q3_fs_options(fs), names);
    CHECK(blvl_q3_fs_list(&names, &count, fs, "textures/base/", ".tga", &err) == BLVL_OK);
    CHECK_EQ_INT(count, 1);
    if (count == 1)
        CHECK(!strcmp(names[0], "Textures/Base/Wall.TGA"));
    blvl_free(blvl_q3_fs_options(fs), names);
    blvl_q3_fs_free(fs);
    /* control: the other order, the other winner */
    fs = fs_of(at("b.pk3"), at("a.pk3"));
    CHECK(fs && !strcmp(text_of(fs, "maps/arena.bsp", &err), "from a"));
    blvl_q3_fs_free(fs);
}

/* A directory: its archives in byte order of their names ('B' before 'a'), then loose files. */
static void test_dir(void) {
    CHECK(mkdir(at("game"), 0755) == 0);
    CHECK(mkdir(at("game/Sub"), 0755) == 0);
    const char *upper[] = {"f.txt", "B", "h.txt", "B", "k.txt", "B"};
    const char *lower[] = {"f.txt", "a", "h.txt", "a"};
    CHECK(make_zip(at("game/B.pk3"), upper, 3) == 0);
    CHECK(make_zip(at("game/a.pk3"), lower, 2) == 0);
    CHECK(test_spit(at("game/h.txt"), "loose", 5) == 0);
    CHECK(test_spit(at("game/Sub/Deep.txt"), "deep", 4) == 0);
    blvl_error err;
    blvl_q3_fs *fs = fs_of(at("game"), NULL);
    CHECK(fs != NULL);
    if (!fs)
        return;
    CHECK(!strcmp(text_of(fs, "f.txt", &err), "a"));
    CHECK(!strcmp(text_of(fs, "h.txt", &err), "loose"));
    CHECK(!strcmp(text_of(fs, "k.txt", &err), "B"));
    CHECK(!strcmp(text_of(fs, "sub/deep.TXT", &err), "deep"));
    CHECK(!blvl_q3_fs_exists(fs, "a.pk3")); /* the folder's archives are no loose files */
    blvl_q3_fs_free(fs);
    /* an archive added after the folder overrides its loose file */
    const char *later[] = {"H.TXT", "later"};
    CHECK(make_zip(at("later.pk3"), later, 1) == 0);
    fs = fs_of(at("game"), at("later.pk3"));
    CHECK(fs && !strcmp(text_of(fs, "h.txt", &err), "later"));
    blvl_q3_fs_free(fs);
}

static uint8_t *find(uint8_t *hay, size_t n, const char *needle, size_t k) {
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(hay + i, needle, k))
            return hay + i;
    return NULL;
}

/* Refusals name their rule; the controls beside them read. */
static void test_refusals(void) {
    blvl_error err;
    blvl_q3_fs *fs;
    /* CRC-32: one byte of the stored data changed */
    const char *good[] = {"maps/c.bsp", "the bytes of the map"};
    CHECK(make_zip(at("crc.pk3"), good, 1) == 0);
    fs = fs_of(at("crc.pk3"), NULL);
    CHECK(fs && !strcmp(text_of(fs, "maps/c.bsp", &err), "the bytes of the map"));
    blvl_q3_fs_free(fs);
    size_t n;
    uint8_t *z = test_slurp(at("crc.pk3"), &n);
    uint8_t *hit = z ? find(z, n, "the bytes", 9) : NULL;
    CHECK(hit != NULL);
    if (hit) {
        hit[4] = 'B';
        CHECK(test_spit(at("crc.pk3"), z, n) == 0);
        fs = fs_of(at("crc.pk3"), NULL);
        CHECK(fs && !strcmp(text_of(fs, "maps/c.bsp", &err), ""));
        CHECK_EQ_INT(err.code, BLVL_E_SOURCE);
        CHECK(strstr(err.message, ": crc: ") != NULL);
        CHECK(strstr(err.message, "maps/c.bsp") != NULL);
        blvl_q3_fs_free(fs);
    }
    free(z);

    /* file-size: the central directory states more than the limit */
    CHECK(make_zip(at("big.pk3"), good, 1) == 0);
    z = test_slurp(at("big.pk3"), &n);
    hit = z ? find(z, n, "PK\x01\x02", 4) : NULL;
    CHECK(hit != NULL);
    if (hit) {
        uint32_t big = BLVL_Q3_MAX_FILE + 1u;
        for (int i = 0; i < 4; i++)
            hit[24 + i] = (uint8_t)(big >> (8 * i));
        CHECK(test_spit(at("big.pk3"), z, n) == 0);
        fs = fs_of(at("big.pk3"), NULL);
        CHECK(fs && !strcmp(text_of(fs, "maps/c.bsp", &err), ""));
        CHECK(strstr(err.message, ": file-size: ") != NULL);
        blvl_q3_fs_free(fs);
    }
    free(z);

    /* entry-name: 255 bytes read, 256 refused */
    char name[300];
    memset(name, 'n', sizeof name);
    name[255] = 0;
    const char *ok[] = {name, "x"};
    CHECK(make_zip(at("name.pk3"), ok, 1) == 0);
    fs = fs_of(at("name.pk3"), NULL);
    CHECK(fs && blvl_q3_fs_exists(fs, name));
    blvl_q3_fs_free(fs);
    name[255] = 'n';
    name[256] = 0;
    CHECK(make_zip(at("name.pk3"), ok, 1) == 0);
    CHECK(blvl_q3_fs_new(&fs, NULL, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_q3_fs_add(fs, at("name.pk3"), &err), BLVL_E_SOURCE);
    CHECK(strstr(err.message, ": entry-name: ") != NULL);
    blvl_q3_fs_free(fs);

    /* archive-files: one entry past the limit */
    {
        int code;
        unlink(at("many.pk3"));
        zip_t *w = zip_open(at("many.pk3"), ZIP_CREATE, &code);
        CHECK(w != NULL);
        for (int i = 0; w && i <= BLVL_Q3_MAX_ARCHIVE_FILES; i++) {
            char nm[32];
            snprintf(nm, sizeof nm, "f%d", i);
            zip_source_t *s = zip_source_buffer(w, "", 0, 0);
            zip_int64_t idx = zip_file_add(w, nm, s, 0);
            zip_set_file_compression(w, (zip_uint64_t)idx, ZIP_CM_STORE, 0);
        }
        CHECK(w && zip_close(w) == 0);
        CHECK(blvl_q3_fs_new(&fs, NULL, &err) == BLVL_OK);
        CHECK_EQ_INT(blvl_q3_fs_add(fs, at("many.pk3"), &err), BLVL_E_SOURCE);
        CHECK(strstr(err.message, ": archive-files: ") != NULL);
        blvl_q3_fs_free(fs);
    }

    /* not a zip; not there */
    CHECK(test_spit(at("junk.pk3"), "IBSP not a zip at all", 21) == 0);
    CHECK(blvl_q3_fs_new(&fs, NULL, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_q3_fs_add(fs, at("junk.pk3"), &err), BLVL_E_SOURCE);
    CHECK(strstr(err.message, ": zip: ") != NULL);
    CHECK_EQ_INT(blvl_q3_fs_add(fs, at("absent.pk3"), &err), BLVL_E_IO);
    blvl_q3_fs_free(fs);
}

/* Reads from several threads at once (a bake's steps may read images in parallel). */
static void *reader(void *arg) {
    blvl_q3_fs *fs = arg;
    intptr_t bad = 0;
    for (int i = 0; i < 200; i++) {
        void *d;
        size_t n;
        blvl_error err;
        const char *name = i & 1 ? "maps/arena.bsp" : "textures/base/wall.tga";
        const char *want = i & 1 ? "from b" : "wall";
        if (blvl_q3_fs_read(&d, &n, fs, name, &err) != BLVL_OK) {
            bad++;
            continue;
        }
        bad += n != strlen(want) || memcmp(d, want, n) != 0;
        blvl_free(NULL, d);
    }
    return (void *)bad;
}

static void test_threads(void) {
    blvl_q3_fs *fs = fs_of(at("a.pk3"), at("b.pk3"));
    CHECK(fs != NULL);
    if (!fs)
        return;
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        CHECK(pthread_create(&t[i], NULL, reader, fs) == 0);
    for (int i = 0; i < 4; i++) {
        void *bad = NULL;
        pthread_join(t[i], &bad);
        CHECK_EQ_INT((intptr_t)bad, 0);
    }
    blvl_q3_fs_free(fs);
}

int main(void) {
    snprintf(root, sizeof root, "/tmp/blvl_q3_files_XXXXXX");
    if (!mkdtemp(root))
        return 2;
    test_override();
    test_threads();
    test_dir();
    test_refusals();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    test_run(cmd);
    return check_report("test_q3_files");
}
