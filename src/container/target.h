/* Where the streaming writer puts a level: a file (by the out-file rule, out_file.h: a
 * temporary beside the path renamed over it at commit, or a device written through), memory
 * (blocks, joined into one buffer at commit) or the caller's pwrite-style sink. Payload bytes
 * arrive in order from the floor up; the first `floor` bytes (header and table) come last, at
 * commit. A file that cannot seek (a pipe, a terminal) gets the payload spooled, in an unnamed
 * temporary file of TMPDIR (or memory where the system has none), and everything in order at
 * commit. */
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
    blvl_mem_block *first, *last; /* memory, or a non-seekable file's spool in memory */
    int spool_fd;                 /* a non-seekable file's spool: an unnamed file, or -1 */
    bool spool_memory;            /* a non-seekable file's spool is first..last */
} blvl_target;

/* `opt` (may be NULL) gives the out-file's temp_file hook; `a` the allocator. */
blvl_status blvl__container_target_file(blvl_target *t, const char *path, const blvl_allocator *a,
                                        const blvl_options *opt, blvl_error *err);
void blvl__container_target_memory(blvl_target *t, const blvl_allocator *a);
void blvl__container_target_sink(blvl_target *t, const blvl_sink *sink, const blvl_allocator *a);
/* Payload bytes at `off` (>= floor), in increasing order without gaps. */
blvl_status blvl__container_target_write(blvl_target *t, uint64_t off, const void *data, size_t len,
                                         blvl_error *err);
/* Writes the region last and makes the level whole: file: fsync, rename, fsync the directory;
 * memory: one buffer of file_size bytes in *out (allocated with the allocator); sink: the
 * region is the last write. On failure the target is aborted. */
blvl_status blvl__container_target_commit(blvl_target *t, const uint8_t *region, uint64_t floor,
                                          uint64_t file_size, uint8_t **out, blvl_error *err);
/* Drops everything written: the temporary file is removed, memory freed. */
void blvl__container_target_abort(blvl_target *t);
#endif
