/* Which source format an input is (docs/IMPORT.md, "Detection"): the first bytes first, then
 * the name for the formats whose files may carry no magic, so a damaged file reaches the
 * reader that can say what is wrong with it rather than "unknown format". */
#include <string.h>

#include "blvl/import.h"

static int ends_with(const char *s, const char *tail) {
    size_t a = s ? strlen(s) : 0, b = strlen(tail);
    return s && a >= b && strcmp(s + a - b, tail) == 0;
}

static blvl_import_format seen(const char **what, const char *phrase, blvl_import_format f) {
    if (what)
        *what = phrase;
    return f;
}

blvl_import_format blvl_import_detect(const char **what, const void *data, size_t size,
                                      const char *name) {
    const uint8_t *d = data;
    size_t n = d ? size : 0;
    if (n >= 12 && memcmp(d, "blvl-recipe ", 12) == 0)
        return seen(what, "a recipe (starts with blvl-recipe)", BLVL_IMPORT_RECIPE);
    if (n >= 4 && memcmp(d, "HMAP", 4) == 0)
        return seen(what, "a Rockgrave .hmap (starts with HMAP)", BLVL_IMPORT_HMAP);
    if (n >= 4 && memcmp(d, "SRSC", 4) == 0)
        return seen(what, "a Riot engine .lvl (starts with SRSC)", BLVL_IMPORT_RIOT);
    if (n >= 4 && memcmp(d, "elvl", 4) == 0)
        return seen(what, "a Subspace .lvl (starts with elvl)", BLVL_IMPORT_SUBSPACE);
    if (n >= 2 && memcmp(d, "BM", 2) == 0)
        return seen(what, "a Subspace .lvl (starts with a BM tileset)", BLVL_IMPORT_SUBSPACE);
    if (n >= 4 && memcmp(d, "IBSP", 4) == 0)
        return seen(what, "a Quake 3 .bsp (starts with IBSP)", BLVL_IMPORT_Q3);
    if (n >= 4 && memcmp(d, "PK\x03\x04", 4) == 0)
        return seen(what, "a zip (.pk3) for the Quake 3 importer (starts with PK)", BLVL_IMPORT_Q3);
    if (n >= 4 && ends_with(name, ".lvl")) {
        uint32_t v =
            (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24;
        if ((v & 0xFFFu) <= 1023 && ((v >> 12) & 0xFFFu) <= 1023)
            return seen(what, "a Subspace .lvl of bare tile records", BLVL_IMPORT_SUBSPACE);
    }
    /* A .lvl too short for one record: docs/IMPORT-SUBSPACE.md reads an empty file as a map of no
     * tiles and 1 to 3 bytes as a partial record, ignored. A Riot level needs its 12-byte SRSC
     * header, so only the start of one ("S", "SR", "SRS") goes to the Riot reader, whose
     * header-size refusal says the file is cut short. */
    if (n < 4 && ends_with(name, ".lvl")) {
        if (n > 0 && memcmp(d, "SRSC", n) == 0)
            return seen(what, "a Riot engine .lvl cut short (starts with SRSC's first bytes)",
                        BLVL_IMPORT_RIOT);
        return seen(what, "a Subspace .lvl of no tile record", BLVL_IMPORT_SUBSPACE);
    }
    if (ends_with(name, ".hmap"))
        return seen(what, "a .hmap by its name", BLVL_IMPORT_HMAP);
    if (ends_with(name, ".bsp"))
        return seen(what, "a .bsp by its name", BLVL_IMPORT_Q3);
    return seen(what, NULL, BLVL_IMPORT_AUTO);
}

const char *blvl_import_format_name(blvl_import_format format) {
    static const char *const names[BLVL_IMPORT_FORMAT_COUNT] = {"",     "hmap", "subspace",
                                                                "riot", "q3",   "recipe"};
    return (unsigned)format < BLVL_IMPORT_FORMAT_COUNT ? names[format] : "";
}
