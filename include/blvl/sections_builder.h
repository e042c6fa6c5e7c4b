/* Building the core sections: the generated builders of every schema (each is also its own
 * header, blvl/sections/<name>_builder.h) on top of blvl/sections.h. */
#ifndef BLVL_SECTIONS_BUILDER_H
#define BLVL_SECTIONS_BUILDER_H

#include "blvl/fb_builder.h"
#include "blvl/sections.h"
#include "blvl/sections/acoustics_builder.h"
#include "blvl/sections/bsym_builder.h"
#include "blvl/sections/cameras_builder.h"
#include "blvl/sections/common_builder.h"
#include "blvl/sections/cubemaps_builder.h"
#include "blvl/sections/entities_builder.h"
#include "blvl/sections/geometry_builder.h"
#include "blvl/sections/lighting_builder.h"
#include "blvl/sections/lightmaps_builder.h"
#include "blvl/sections/meta_builder.h"
#include "blvl/sections/props_builder.h"
#include "blvl/sections/sim_builder.h"
#include "blvl/sections/sites_builder.h"
#include "blvl/sections/textures_builder.h"

#endif
