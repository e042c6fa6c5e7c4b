/* The container's accessor for the layers above it that open a level through
 * blvl_open_source and must find their own source again (the HTTP source's statistics): the
 * level's struct stays private to the container (container/level.h). */
#ifndef BLVL_CONTAINER_SOURCE_H
#define BLVL_CONTAINER_SOURCE_H
#include "blvl/blvl.h"

/* The source `level` reads from (its read, user and close as given to blvl_open_source; a
 * file or memory level's own). */
const blvl_source *blvl__container_level_source(const blvl_level *level);
#endif
