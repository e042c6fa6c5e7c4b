/* The version of libblvl these headers belong to, and of the library a program linked:
 * compare BLVL_VERSION_NUMBER (compiled in) with blvl_version_number() (run time), as with
 * ZSTD_VERSION_NUMBER. Kept equal to CMakeLists.txt's project(VERSION): configuring refuses a
 * mismatch. */
#ifndef BLVL_VERSION_H
#define BLVL_VERSION_H

#include "blvl/api.h"
#define BLVL_VERSION_MAJOR 0
#define BLVL_VERSION_MINOR 1
#define BLVL_VERSION_PATCH 0
#define BLVL_VERSION_NUMBER                                                                        \
    (BLVL_VERSION_MAJOR * 10000 + BLVL_VERSION_MINOR * 100 + BLVL_VERSION_PATCH)
#define BLVL_VERSION_STRINGIFY_(x) #x
#define BLVL_VERSION_STRINGIFY(x) BLVL_VERSION_STRINGIFY_(x)
#define BLVL_VERSION_STRING                                                                        \
    BLVL_VERSION_STRINGIFY(BLVL_VERSION_MAJOR)                                                     \
    "." BLVL_VERSION_STRINGIFY(BLVL_VERSION_MINOR) "." BLVL_VERSION_STRINGIFY(BLVL_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/* BLVL_VERSION_NUMBER of the library linked at run time. */
BLVL_API unsigned blvl_version_number(void);
/* BLVL_VERSION_STRING of the library linked at run time ("0.1.0"). */
BLVL_API const char *blvl_version_string(void);

#ifdef __cplusplus
}
#endif
#endif
