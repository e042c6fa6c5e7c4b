/* Fuzz target: every blvl-diag check over hostile sections. The input is a list of sections,
 * each [u8 tag number][u32 little-endian size][payload], spliced into a level with a fixed meta
 * (a whole fuzzed container would rarely get past the section digests); the level is written,
 * opened and checked with every check. Must never crash, leak or read out of bounds; a finding
 * must always carry a catalogue code. Seeds: fuzz/corpus/diag (tests/support/diag_levels.py
 * --corpus writes them from the test levels). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/diag.h"
#include "blvl/sections.h"
#include "fuzz_tags.h"

/* The sections a record may carry: every core tag but meta, in registry order (a record's tag
 * number indexes this; tests/support/diag_levels.py writes the seeds the same way). */
#define MAX_TAGS 32
static const char *tags[MAX_TAGS];
static unsigned ntags;

static int check_finding(void *user, const blvl_diag_finding *f) {
    (void)user;
    if (!blvl_diag_check_find(f->code) || memchr(f->message, 0, sizeof f->message) == NULL)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const uint8_t meta[] = "{\"name\": \"fuzz\"}";
    blvl_options opt = {0};
    opt.threads = 1;
    blvl_error e;
    void *meta_fb = NULL;
    size_t meta_size = 0;
    if (blvl_section_from_json(&meta_fb, &meta_size, "meta", (const char *)meta, sizeof meta - 1,
                               &opt, &e) != BLVL_OK)
        abort();
    if (!ntags)
        ntags = fuzz_core_tags_but_meta(tags, MAX_TAGS);
    blvl_section_in in[MAX_TAGS + 1];
    size_t n = 0;
    in[n++] = (blvl_section_in){"meta", 0, 0, meta_fb, meta_size};
    int seen[MAX_TAGS] = {0};
    size_t at = 0;
    while (at + 5 <= size && n < ntags + 1) {
        unsigned t = data[at] % ntags;
        uint32_t len = (uint32_t)data[at + 1] | (uint32_t)data[at + 2] << 8 |
                       (uint32_t)data[at + 3] << 16 | (uint32_t)data[at + 4] << 24;
        at += 5;
        if (len > size - at)
            len = (uint32_t)(size - at);
        if (!seen[t]) {
            seen[t] = 1;
            in[n++] = (blvl_section_in){tags[t], 0, 0, data + at, len};
        }
        at += len;
    }
    void *level_bytes = NULL;
    size_t level_size = 0;
    if (blvl_write_memory(&level_bytes, &level_size, in, n, &opt, &e) == BLVL_OK) {
        blvl_level *lv = NULL;
        if (blvl_open_memory(&lv, level_bytes, level_size, &opt, &e) == BLVL_OK) {
            blvl_diag_options d = {0};
            d.base = opt;
            d.max_per_check = 8;
            blvl_diag_counts counts;
            blvl_status st = blvl_diag_run(&counts, lv, check_finding, NULL, &d, &e);
            if (st != BLVL_OK && e.message[0] == '\0')
                abort();
            blvl_close(lv);
        }
        blvl_free(&opt, level_bytes);
    }
    blvl_free(&opt, meta_fb);
    return 0;
}
