/* Where the streaming writer puts a level: a file (temporary name beside the path, renamed
 * over it at commit), memory (blocks, joined into one buffer at commit) or the caller's
 * pwrite-style sink. Payload bytes arrive in order from the floor up; the first `floor` bytes
 * (header and table) come last, at commit. */
#ifndef BLVL_CONTAINER_TARGET_H
#define BLVL_CONTAINER_TARGET_H
#include "blvl/blvl.h"
#include "container/out_file.h"

typedef struct blvl_mem_block blvl_mem_block;

typedef struct blvl_target {
    enum { BLVL_TARGET_FILE = 1, BLVL_TARGET_MEMORY, BLVL_TARGET_SINK } kind;
    const blvl_allocator *a;
    blvl_out_file file;
    blvl_sink sink;
    blvl_mem_block *first, *last; /* memory */
} blvl_target;

blvl_status blvl__target_file(blvl_target *t, const char *path, const blvl_allocator *a,
                              blvl_error *err);
void blvl__target_memory(blvl_target *t, const blvl_allocator *a);
void blvl__target_sink(blvl_target *t, const blvl_sink *sink, const blvl_allocator *a);
/* Payload bytes at `off` (>= floor), in increasing order without gaps. */
blvl_status blvl__target_write(blvl_target *t, uint64_t off, const void *data, size_t len,
                               blvl_error *err);
/* Writes the region last and makes the level whole: file: fsync, rename, fsync the directory;
 * memory: one buffer of file_size bytes in *out (allocated with the allocator); sink: the
 * region is the last write. On failure the target is aborted. */
blvl_status blvl__target_commit(blvl_target *t, const uint8_t *region, uint64_t floor,
                                uint64_t file_size, uint8_t **out, blvl_error *err);
/* Drops everything written: the temporary file is removed, memory freed. */
void blvl__target_abort(blvl_target *t);
#endif
