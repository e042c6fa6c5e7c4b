/* A streaming client's use of the libraries: libblvl and libblvl-http only, built from the
 * installed packages (tests/test_link_installed.sh: pkg-config blvl blvl-http). Opens a level at
 * a URL (or a file, to compare), verifies every core section (read over the network, digests and
 * chunks checked as they arrive, then the FlatBuffers verifier) and prints each section's tag,
 * raw size and digest of its inflated bytes.
 *
 *   stream_client URL-OR-FILE */
#include <stdio.h>

#include "blvl/blvl.h"
#include "blvl/http.h"
#include "blvl/sections.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s URL-OR-FILE\n", argv[0]);
        return 2;
    }
    blvl_error err;
    blvl_level *level = NULL;
    blvl_status st = blvl_is_url(argv[1]) ? blvl_open_url(&level, argv[1], NULL, &err)
                                          : blvl_open_file(&level, argv[1], NULL, &err);
    if (st != BLVL_OK || blvl_sections_verify(level, &err) != BLVL_OK) {
        fprintf(stderr, "%s\n", err.message);
        blvl_close(level);
        return 1;
    }
    for (uint32_t i = 0; i < blvl_count(level); i++) {
        const blvl_entry *e = blvl_entry_at(level, i);
        blvl_bytes b;
        if (blvl_read(level, e->tag, &b, &err) != BLVL_OK) {
            fprintf(stderr, "%s\n", err.message);
            blvl_close(level);
            return 1;
        }
        uint8_t d[BLVL_DIGEST_SIZE];
        char hex[33];
        blvl_digest(b.data, b.size, d);
        blvl_hex(d, hex);
        printf("%s %llu %s\n", e->tag, (unsigned long long)b.size, hex);
        blvl_bytes_free(&b);
    }
    blvl_close(level);
    return 0;
}
