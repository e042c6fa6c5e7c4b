/* Two colliders of OpenArena's oa_rpg3dm2 as its bake gives them, planes as the trace world
 * holds them: a sloped ledge and the slope beside it, which meet at an angle, so a stop pulled back
 * only DIST_EPSILON along one overlaps the other (test_trace_backoff, test_trace_plane). */
#ifndef TEST_TRACE_RPG3DM2_H
#define TEST_TRACE_RPG3DM2_H

#include "blvl/sections/common.h"

static const blvl_Plane ledge[] = {
    {{-1.0f, 0.0f, -0.0f}, -384.0f},
    {{1.0f, 0.0f, -0.0f}, 592.0f},
    {{0.0f, 0.0f, 1.0f}, -1728.0f},
    {{0.0f, 0.0f, -1.0f}, 1760.0f},
    {{0.0f, -1.0f, -0.0f}, -288.0f},
    {{0.0f, 1.0f, -0.0f}, 320.0f},
    {{0.31623283f, 0.0f, 0.948681593f}, -1467.29175f},
    {{-0.44721359f, 0.0f, 0.89442718f}, -1731.61096f},
};
static const blvl_Plane slope[] = {
    {{-1.0f, 0.0f, -0.0f}, -320.0f},
    {{1.0f, 0.0f, -0.0f}, 384.0f},
    {{0.0f, 0.0f, 1.0f}, -1744.0f},
    {{0.0f, 0.0f, -1.0f}, 1856.0f},
    {{0.0f, -1.0f, -0.0f}, -192.0f},
    {{0.0f, 1.0f, -0.0f}, 320.0f},
    {{0.0f, -0.44721359f, 0.89442718f}, -1688.67847f},
};
#endif
