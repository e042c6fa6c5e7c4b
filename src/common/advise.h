/* A hint for a block of tens of MiB about to be written front to back (a level's vertex table,
 * a section's FlatBuffers buffer): huge pages where the system has them, since the page faults
 * of the first touch of 4 KiB pages cost more than the writing. Only whole huge pages inside
 * the block are advised; the caller's allocator still owns it. Nothing changes but the speed. */
#ifndef BLVL_COMMON_ADVISE_H
#define BLVL_COMMON_ADVISE_H

#include <stddef.h>

void blvl__advise_large(void *p, size_t size);

#endif
