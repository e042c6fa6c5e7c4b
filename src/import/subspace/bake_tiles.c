/* The tile table of docs/IMPORT-SUBSPACE.md, the geometry of a cell, and the text rule. */
#include <string.h>

#include "bake_internal.h"
#include "common/alloc.h"
#include "common/error.h"

ssb_cat blvl__import_subspace_bake_category(uint32_t tile) {
    if (tile == 0)
        return SSB_EMPTY;
    if (tile <= 161)
        return SSB_WALL;
    if (tile <= 169)
        return SSB_DOOR;
    if (tile == 170)
        return SSB_FLAG;
    if (tile == 171)
        return SSB_SAFE;
    if (tile == 172)
        return SSB_GOAL;
    if (tile <= 175)
        return SSB_FLYOVER;
    if (tile <= 190)
        return SSB_FLYUNDER;
    if (tile >= 216 && tile <= 218)
        return SSB_ASTEROID;
    if (tile == 219)
        return SSB_STATION;
    if (tile == 220)
        return SSB_WORMHOLE;
    if (tile >= 240 && tile <= 255)
        return SSB_INVISIBLE;
    return SSB_OTHER;
}

bool blvl__import_subspace_bake_drawn(ssb_cat c) {
    return c >= SSB_WALL && c <= SSB_FLYUNDER;
}

const char *blvl__import_subspace_bake_kind(uint32_t tile) {
    switch (tile) {
    case 170:
        return "turf_flag";
    case 216:
        return "small_asteroid";
    case 217:
        return "medium_asteroid";
    case 218:
        return "asteroid_end";
    case 219:
        return "space_station";
    case 220:
        return "wormhole";
    default:
        break;
    }
    if (tile >= 162 && tile <= 165)
        return "vertical_door";
    if (tile >= 166 && tile <= 169)
        return "horizontal_door";
    return "unknown";
}

uint32_t blvl__import_subspace_bake_footprint(uint32_t tile) {
    return tile == 217 ? 2 : tile == 219 ? 6 : tile == 220 ? 5 : 1;
}

blvl_Vec3 blvl__import_subspace_bake_lo(uint32_t x, uint32_t y) {
    return (blvl_Vec3){16.0f * (float)x, 0.0f, 16.0f * (float)y};
}

blvl_Vec3 blvl__import_subspace_bake_hi(uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
    return (blvl_Vec3){16.0f * (float)(x + w), 16.0f, 16.0f * (float)(y + h)};
}

/* Length of the well-formed UTF-8 sequence at s, or 0 (no overlong forms, no surrogates, at
 * most U+10FFFF). */
static size_t utf8_seq(const uint8_t *s) {
    if (s[0] < 0x80)
        return 1;
    size_t n = s[0] >= 0xC2 && s[0] <= 0xDF   ? 2
               : (s[0] & 0xF0) == 0xE0        ? 3
               : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4
                                              : 0;
    if (n == 0)
        return 0;
    for (size_t k = 1; k < n; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0; /* the NUL ends the string, and fails here too */
    if (n == 3 && ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0)))
        return 0;
    if (n == 4 && ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90)))
        return 0;
    return n;
}

char *blvl__import_subspace_bake_text(const blvl_allocator *al, const char *s) {
    const uint8_t *u = (const uint8_t *)s;
    size_t len = strlen(s), wide = 0;
    bool utf8 = true;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_seq(u + i);
        if (n == 0) {
            utf8 = false;
            break;
        }
        i += n;
    }
    if (utf8)
        return blvl__strdup(al, s);
    for (size_t i = 0; i < len; i++)
        wide += u[i] >= 0x80;
    char *out = blvl__alloc_sized(al, len + wide + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (u[i] < 0x80)
            out[o++] = (char)u[i];
        else {
            out[o++] = (char)(0xC0 | u[i] >> 6);
            out[o++] = (char)(0x80 | (u[i] & 0x3F));
        }
    }
    out[o] = 0;
    return out;
}
