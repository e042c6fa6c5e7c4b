/* Writing a new level file atomically, for the writer and the compacting rewrite. */
#ifndef BLVL_CONTAINER_OUT_FILE_H
#define BLVL_CONTAINER_OUT_FILE_H
#include "blvl/blvl.h"

/* A file written beside `path` under a temporary name, flushed, then renamed over `path`. */
typedef struct blvl_out_file {
    int fd;
    char *tmp; /* the temporary name (from `a`, tmp_size bytes) */
    size_t tmp_size;
    const blvl_allocator *a;
    const char *path;
    int mode;
} blvl_out_file;

/* Refuses (io) to replace an existing `path` that this process could not write in place: the
 * rename would replace a file the process may not write (another owner's read-only file).
 * blvl__out_open checks it; a writer that does work first calls it before the work. */
blvl_status blvl__out_replaceable(const char *path, blvl_error *err);
blvl_status blvl__out_open(blvl_out_file *f, const char *path, const blvl_allocator *a,
                           blvl_error *err);
/* Write at an offset (the streaming writer fills the header last). */
blvl_status blvl__out_pwrite(blvl_out_file *f, const void *data, size_t len, uint64_t off,
                             blvl_error *err);
blvl_status blvl__out_write(blvl_out_file *f, const void *data, size_t len, blvl_error *err);
/* Zero bytes up to `pos` (the file is written front to back; `*at` is the current length). */
blvl_status blvl__out_pad(blvl_out_file *f, uint64_t *at, uint64_t pos, blvl_error *err);
/* fsync, rename over the path, fsync the directory. */
blvl_status blvl__out_commit(blvl_out_file *f, blvl_error *err);
/* Removes the temporary file (after a failure). */
void blvl__out_abort(blvl_out_file *f);
#endif
