/* Fuzz target: glTF export of hostile sections. A level's own bytes carry BLAKE3 digests that
 * mutation breaks at once, so the input is the sections themselves: for every core tag but
 * meta in registry order (sim, acoustics, cameras, ...), a u32 little-endian length and that
 * many bytes (a short input ends the list; a length of 0 leaves the section out). They are
 * written into a level with an empty meta (and an empty sim when none is given), opened and
 * exported to memory with the colliders and the acoustics scene. Every input must either be refused
 * with a message (by the writer's section checks, the reader's verifier or the export's own rules)
 * or give a .glb whose container is whole. fuzz/corpus/export holds the sections of the sample
 * levels. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/export.h"
#include "blvl/sections.h"
#include "fuzz_tags.h"

#define MAX_TAGS 32
static const char *tags[MAX_TAGS]; /* every core tag but meta, in registry order */
static size_t ntags;

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blvl_options opt = {0};
    opt.threads = 1;
    blvl_error e;
    void *meta = NULL, *sim = NULL;
    size_t meta_n = 0, sim_n = 0;
    if (blvl_section_from_json(&meta, &meta_n, "meta", "{}", 2, &opt, &e) != BLVL_OK ||
        blvl_section_from_json(&sim, &sim_n, "sim", "{}", 2, &opt, &e) != BLVL_OK)
        abort();
    if (!ntags)
        ntags = fuzz_core_tags_but_meta(tags, MAX_TAGS);
    blvl_section_in in[MAX_TAGS + 1];
    size_t n = 0, at = 0;
    in[n++] = (blvl_section_in){"meta", 0, 0, meta, meta_n};
    int have_sim = 0;
    for (size_t t = 0; t < ntags && at + 4 <= size; t++) {
        uint32_t len = le32(data + at);
        at += 4;
        if (len > size - at)
            len = (uint32_t)(size - at);
        if (len) {
            in[n++] = (blvl_section_in){tags[t], 0, 0, data + at, len};
            have_sim |= strcmp(tags[t], "sim") == 0;
        }
        at += len;
    }
    if (!have_sim)
        in[n++] = (blvl_section_in){"sim", 0, 0, sim, sim_n};
    void *file = NULL;
    size_t file_n = 0;
    if (blvl_write_memory(&file, &file_n, in, n, &opt, &e) == BLVL_OK) {
        blvl_level *lv = NULL;
        if (blvl_open_memory(&lv, file, file_n, &opt, &e) == BLVL_OK) {
            blvl_export_options xo = {0};
            xo.base = opt;
            xo.collision = true;
            xo.acoustics = true;
            void *glb = NULL;
            size_t glb_n = 0;
            blvl_status st = blvl_export_glb(&glb, &glb_n, lv, &xo, &e);
            if (st == BLVL_OK) {
                const uint8_t *g = glb;
                if (glb_n < 20 || memcmp(g, "glTF", 4) != 0 || le32(g + 8) != glb_n ||
                    le32(g + 12) + 20 > glb_n)
                    abort();
                blvl_free(&opt, glb);
            } else if (glb || e.code != st || e.message[0] == '\0') {
                abort();
            }
            blvl_close(lv);
        }
        blvl_free(&opt, file);
    }
    blvl_free(&opt, meta);
    blvl_free(&opt, sim);
    return 0;
}
