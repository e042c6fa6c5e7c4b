#include "files.h"

#include <stdio.h>
#include <stdlib.h>

uint8_t *test_slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    long len = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        len = ftell(f);
    uint8_t *b = len >= 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)len + 1) : NULL;
    if (b) {
        *n = fread(b, 1, (size_t)len, f);
        if (*n != (size_t)len) {
            free(b);
            b = NULL;
        } else {
            b[*n] = 0;
        }
    }
    fclose(f);
    return b;
}

int test_spit(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, n, f);
    return fclose(f) == 0 && w == n ? 0 : -1;
}

int test_run(const char *cmd) {
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "command failed (%d): %s\n", rc, cmd);
    return rc;
}
