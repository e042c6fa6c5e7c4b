/* libjpeg's memory manager replaced by one over the caller's allocator (jpeg_memory.c). */
#ifndef BLVL_IMAGE_JPEG_MEMORY_H
#define BLVL_IMAGE_JPEG_MEMORY_H

#include <stddef.h>
#include <stdio.h> /* jpeglib.h uses FILE and size_t without including their headers */

#include <jpeglib.h>

#include "blvl/common.h"

typedef struct blvl__jpeg_block blvl__jpeg_block;

/* Why the manager stopped a decode (it then calls error_exit, which does not return). */
enum { BLVL__JPEG_MEM_OK, BLVL__JPEG_MEM_NOMEM, BLVL__JPEG_MEM_CAP };

typedef struct blvl__jpeg_mem {
    struct jpeg_memory_mgr pub;  /* first: libjpeg reaches the methods through cinfo->mem */
    struct jpeg_memory_mgr *own; /* libjpeg's manager, which holds what was made before ours */
    const blvl_allocator *a;
    blvl__jpeg_block *pools[JPOOL_NUMPOOLS];
    struct virt *virts; /* the virtual arrays asked for, in the image pool */
    size_t used, cap;   /* bytes taken from `a`, and the most the decode may take */
    int fault;          /* BLVL__JPEG_MEM_*: set before the error exit */
} blvl__jpeg_mem;

/* Puts `m` in place of the manager jpeg_create_decompress made: from here every allocation of
 * the decode comes from `a` (all of a virtual array at once, zeroed: there is no backing
 * store), at most `cap` bytes in all. jpeg_destroy_decompress frees ours, then libjpeg's. */
void blvl__image_jpeg_mem_install(j_common_ptr cinfo, blvl__jpeg_mem *m, const blvl_allocator *a,
                                  size_t cap);

#endif
