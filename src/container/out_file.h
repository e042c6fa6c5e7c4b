/* Writing a file by path, for every writer of the library (the container's writers and
 * rewrite, the bake, the export, fetch, blvl_file_write): the out-file rule, in one place.
 *
 * - A path that names a directory is refused (argument), nothing written.
 * - A path that names an existing device, FIFO or socket is written through, straight, with no
 *   temporary: /dev/null and /dev/stdout stay what they are. It is opened without O_CREAT or
 *   O_TRUNC (a FIFO's open waits for its reader, as a shell redirection does).
 * - Anything else is written to a temporary name beside the file the path names (symlinks
 *   followed, so a link stays a link and its target is replaced), flushed and renamed over it:
 *   readers see the old file or the new one, never a part. An existing file keeps its
 *   permission bits (not setuid, setgid or sticky) and, where the process may, its owner and
 *   group; a new one gets 0666 & ~umask, as creat(2) would.
 * - The caller's blvl_options.temp_file hook hears of every temporary just before it is
 *   created and once its name is gone, so a program can remove it when a signal ends it. */
#ifndef BLVL_CONTAINER_OUT_FILE_H
#define BLVL_CONTAINER_OUT_FILE_H
#include <stdbool.h>

#include "blvl/blvl.h"

typedef struct blvl_out_file {
    int fd;
    char *tmp; /* the temporary name (from `a`, tmp_size bytes); NULL when written through */
    size_t tmp_size;
    const blvl_allocator *a;
    const char *path; /* as the caller named it */
    int mode;
    char *dest; /* the file renamed over: `path` with its symlinks followed (dest_size bytes) */
    size_t dest_size;
    bool direct;   /* an existing device, FIFO or socket, written through */
    bool seekable; /* pwrite works: false for a pipe or a terminal written through */
    void (*temp_file)(void *user, const char *path, bool created);
    void *temp_file_user;
} blvl_out_file;

/* Refuses what blvl__container_out_open would refuse before any work is spent: a directory
 * (argument), and an existing file this process could not write in place (io): the rename needs
 * only a writable directory, so without it a level could replace another owner's read-only file. */
blvl_status blvl__container_out_replaceable(const char *path, blvl_error *err);
/* Opens `path` by the rule above, with opt's allocator and temp_file hook (opt may be NULL). */
blvl_status blvl__container_out_open_opt(blvl_out_file *f, const char *path,
                                         const blvl_options *opt, blvl_error *err);
/* The same without a hook. */
blvl_status blvl__container_out_open(blvl_out_file *f, const char *path, const blvl_allocator *a,
                                     blvl_error *err);
/* Write at an offset (the streaming writer fills the header last); refused (io) when the
 * target is not seekable (f->seekable false): such a writer spools instead (target.c). */
blvl_status blvl__container_out_pwrite(blvl_out_file *f, const void *data, size_t len, uint64_t off,
                                       blvl_error *err);
blvl_status blvl__container_out_write(blvl_out_file *f, const void *data, size_t len,
                                      blvl_error *err);
/* Zero bytes up to `pos` (the file is written front to back; `*at` is the current length). */
blvl_status blvl__container_out_pad(blvl_out_file *f, uint64_t *at, uint64_t pos, blvl_error *err);
/* fsync (a device that cannot be flushed, /dev/null or a pipe, is not an error). */
blvl_status blvl__container_out_sync(blvl_out_file *f, blvl_error *err);
/* fsync, rename over the path, fsync the directory (written through: fsync and close). Aborts
 * by itself on failure. */
blvl_status blvl__container_out_commit(blvl_out_file *f, blvl_error *err);
/* Removes the temporary file (after a failure); safe on a committed or never opened file
 * whose fd is -1. */
void blvl__container_out_abort(blvl_out_file *f);
/* The name to put in a message: the temporary, else the path. */
const char *blvl__container_out_name(const blvl_out_file *f);
#endif
