/* zstd's contexts allocate through the caller's allocator: ZSTD_customMem (stable since zstd
 * 1.0 and exported by the shared library) carries it, so the encoder and decoder memory is
 * counted, freed and refused like every other byte of the library. */
#ifndef BLVL_PAYLOAD_ZMEM_H
#define BLVL_PAYLOAD_ZMEM_H
#ifndef ZSTD_STATIC_LINKING_ONLY
#define ZSTD_STATIC_LINKING_ONLY
#endif
#include <zstd.h>

#include "blvl/common.h"

/* `a` (NULL: malloc/free) must outlive every context made with the result. */
ZSTD_customMem blvl__payload_zstd_mem(const blvl_allocator *a);
#endif
