/* An independent check of the BMP decode: Pillow (Debian's python3-pil) decodes the tilesets our
 * writer writes (uncompressed; RLE-8 with encoded runs, absolute runs and end-of-lines; RLE-8
 * with deltas too, alone and with an eLVL after it) to the same palette indices
 * blvl_subspace_read gives (tests/data/subspace/pillow_check.py), and a control whose pixels
 * were changed in one place must fail the same check. The delta files are checked only by a
 * Pillow whose delta decode is right (Debian 12's 9.4 reads a delta's bytes twice); deltas are
 * checked besides against the Python writer's images (test_subspace_corpus) and by hand
 * (test_subspace_io). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/subspace.h"
#include "check.h"
#include "files.h"
#include "support/subspace_gen.h"

#define PX (BLVL_SUBSPACE_TILESET_W * BLVL_SUBSPACE_TILESET_H)

/* Writes DIR/NAME.lvl and DIR/NAME.raw (the reader's pixels, `flip` one changed when >= 0).
 * `plain`: the case's RLE-8 stream re-encoded without deltas. */
static int put(const char *dir, const char *name, ssg_case k, bool plain, long flip) {
    void *bytes = NULL;
    size_t size = 0;
    blvl_subspace *built = ssg_build(k);
    if (plain) {
        free(built->bmp->data);
        built->bmp->data_size = (uint32_t)ssg_rle8(built->bmp->pixels, false, NULL, NULL);
        built->bmp->data = malloc(built->bmp->data_size);
        ssg_rle8(built->bmp->pixels, false, built->bmp->data, NULL);
    }
    blvl_status st = blvl_subspace_write(&bytes, &size, built, NULL, NULL);
    ssg_free(built);
    if (st != BLVL_OK)
        return 1;
    blvl_subspace *m = NULL;
    blvl_error err = {0};
    int bad = blvl_subspace_read(&m, bytes, size, NULL, &err) != BLVL_OK || !m->bmp;
    char path[512];
    if (!bad) {
        snprintf(path, sizeof path, "%s/%s.lvl", dir, name);
        bad |= test_spit(path, bytes, size);
        if (flip >= 0)
            m->bmp->pixels[flip] ^= 0x5A;
        snprintf(path, sizeof path, "%s/%s.raw", dir, name);
        bad |= test_spit(path, m->bmp->pixels, PX);
    }
    blvl_subspace_free(m);
    blvl_free(NULL, bytes);
    return bad;
}

int main(void) {
    const char *py = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    char dir[] = "/tmp/blvl_pillow_XXXXXX", ctl[] = "/tmp/blvl_pillow_ctl_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    CHECK(mkdtemp(ctl) != NULL);
    CHECK_EQ_INT(put(dir, "raw", SSG_BMP_RAW, false, -1), 0);
    CHECK_EQ_INT(put(dir, "rle", SSG_BMP_RLE, true, -1), 0);
    CHECK_EQ_INT(put(dir, "rle_delta", SSG_BMP_RLE, false, -1), 0);
    CHECK_EQ_INT(put(dir, "rle_elvl_delta", SSG_BMP_RLE_ELVL, false, -1), 0);
    CHECK_EQ_INT(put(ctl, "rle", SSG_BMP_RLE, true, 12345), 0);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s tests/data/subspace/pillow_check.py %s", py, dir);
    CHECK_EQ_INT(test_run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s tests/data/subspace/pillow_check.py %s >/dev/null", py, ctl);
    printf("the control must fail:\n");
    CHECK(test_run(cmd) != 0);
    if (getenv("SUBSPACE_PILLOW_KEEP")) { /* to run pillow_check.py by hand on the files */
        printf("kept %s %s\n", dir, ctl);
    } else {
        snprintf(cmd, sizeof cmd, "rm -rf %s %s", dir, ctl);
        test_run(cmd);
    }
    return check_report("test_subspace_pillow");
}
