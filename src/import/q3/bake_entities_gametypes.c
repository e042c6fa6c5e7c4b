/* Match-type masks from OpenArena's spawn keys (docs/IMPORT-Q3.md, "Entities"): the game frees
 * an entity at spawn when `notsingle`, `notfree`, `notteam` or `gametype` excludes the match
 * type it runs; the mask holds the blvl bits of the match types that keep it. */
#include <stdlib.h>
#include <string.h>

#include "bake_entities.h"
#include "blvl/sections/common.h"

/* OpenArena's match types in the order of its gametype numbers, with whether the game treats
 * the type as free-for-all (notfree applies) or team (notteam applies), and the blvl bits. */
static const struct {
    const char *name;
    bool single, team;
    uint32_t bits;
} kinds[] = {
    {"ffa", false, false, blvl_Gametype_FreeForAll},
    {"tournament", false, false, blvl_Gametype_FreeForAll},
    {"single", true, false, blvl_Gametype_FreeForAll},
    {"team", false, true, blvl_Gametype_TeamDeathmatch},
    {"ctf", false, true, blvl_Gametype_CaptureTheFlag},
    {"oneflag", false, true, 0},
    {"obelisk", false, true, 0},
    {"harvester", false, true, 0},
    {"elimination", false, true, blvl_Gametype_TeamSurvivor},
    {"ctf_elimination", false, true, blvl_Gametype_CaptureTheFlag | blvl_Gametype_TeamSurvivor},
    {"lms", false, false, blvl_Gametype_LastManStanding},
    {"dd", false, true, 0},
    {"dom", false, true, blvl_Gametype_CaptureAndHold},
};

/* G_SpawnInt: the value read as an integer (atoi), 0 when absent. */
static long key_int(const blvl_q3_entity *e, const char *key) {
    const char *v = blvl_q3_entity_get(e, key);
    return v ? strtol(v, NULL, 10) : 0;
}

uint32_t blvl__import_q3_ent_gametypes(const blvl_q3_entity *e) {
    long notsingle = key_int(e, "notsingle"), notfree = key_int(e, "notfree"),
         notteam = key_int(e, "notteam");
    const char *only = blvl_q3_entity_get(e, "gametype");
    uint32_t mapped = 0, kept = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        mapped |= kinds[i].bits;
        bool keep = true;
        if (kinds[i].single && notsingle)
            keep = false;
        if (kinds[i].team ? notteam != 0 : notfree != 0)
            keep = false;
        /* The game tests the key with strstr, so "ctf_elimination" also keeps ctf and
         * elimination; we read it the same way. */
        if (only && !strstr(only, kinds[i].name))
            keep = false;
        if (keep)
            kept |= kinds[i].bits;
    }
    /* Bits no OpenArena match type maps to carry no information: they stay set. */
    return (BLVL_BAKE_ALL_GAMETYPES & ~mapped) | kept;
}
