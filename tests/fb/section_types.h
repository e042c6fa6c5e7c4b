/* Root type table of each schema under test, by tag (the schema file's base name). */
#ifndef BLVL_TEST_FB_SECTION_TYPES_H
#define BLVL_TEST_FB_SECTION_TYPES_H
#include <string.h>

#include "blvl/sections/acoustics.h"
#include "blvl/sections/bsym.h"
#include "blvl/sections/cameras.h"
#include "blvl/sections/cubemaps.h"
#include "blvl/sections/entities.h"
#include "blvl/sections/geometry.h"
#include "blvl/sections/lighting.h"
#include "blvl/sections/lightmaps.h"
#include "blvl/sections/meta.h"
#include "blvl/sections/props.h"
#include "blvl/sections/sim.h"
#include "blvl/sections/sites.h"
#include "blvl/sections/textures.h"

static const struct {
    const char *tag;
    const blvl_fb_type *root;
} fb_test_sections[] = {
    {"meta", &blvl_Meta_type},           {"sim", &blvl_Sim_type},
    {"geometry", &blvl_Geometry_type},   {"textures", &blvl_Textures_type},
    {"cubemaps", &blvl_Cubemaps_type},   {"lightmaps", &blvl_Lightmaps_type},
    {"lighting", &blvl_Lighting_type},   {"entities", &blvl_Entities_type},
    {"acoustics", &blvl_Acoustics_type}, {"props", &blvl_Props_type},
    {"cameras", &blvl_Cameras_type},     {"sites", &blvl_Sites_type},
    {"bsym", &blvl_Symbols_type},
};
#define FB_TEST_SECTION_COUNT (sizeof fb_test_sections / sizeof fb_test_sections[0])
#endif
