/* The Quake 3 search path (blvl_q3_fs, include/blvl/q3.h): shared by fs.c (the table of names),
 * fs_zip.c (.pk3 archives through libzip) and fs_dir.c (a directory: its archives, then its loose
 * files). docs/IMPORT-Q3.md, "The files". */
#ifndef BLVL_IMPORT_Q3_FS_INTERNAL_H
#define BLVL_IMPORT_Q3_FS_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "blvl/q3.h"

/* A name in the game's tree is at most this many bytes (the engine's MAX_ZPATH less its NUL). */
#define Q3FS_MAX_NAME 255u
/* Entries of the whole search path, archives and loose files together. */
#define Q3FS_MAX_ENTRIES (1u << 22)
/* Folder depth of a directory's loose files. */
#define Q3FS_MAX_DEPTH 32

typedef struct q3fs_source {
    struct zip *zip; /* an archive; NULL for a directory's loose files */
    char *path;      /* the archive's path, or the directory's */
} q3fs_source;

typedef struct q3fs_entry {
    char *name;      /* as the game spells it, '\\' read as '/' */
    uint32_t source; /* index into sources */
    uint64_t index;  /* the archive's entry index */
    char *disk;      /* a loose file's path on disk; NULL in an archive */
} q3fs_entry;

struct blvl_q3_fs {
    blvl_options opt;
    q3fs_source *sources;
    uint32_t source_count, source_cap;
    q3fs_entry *entries;
    uint32_t entry_count, entry_cap;
    uint32_t *slots; /* hash of the lower-cased name -> entry index + 1 (0: empty) */
    uint32_t slot_cap;
    uint32_t live; /* distinct names */
    /* libzip's archives are not for concurrent reads: blvl_q3_fs_read holds this around one, so
     * a bake's steps may read images from several threads. */
    pthread_mutex_t lock;
};

/* A new source; its index in *out. */
blvl_status blvl__import_q3_fs_add_source(blvl_q3_fs *fs, struct zip *zip, const char *path,
                                          uint32_t *out, blvl_error *err);
/* A name into the table: later ones replace earlier ones of the same name (any case). `name` is
 * copied and normalised; `disk` copied when not NULL. */
blvl_status blvl__import_q3_fs_put(blvl_q3_fs *fs, const char *name, uint32_t source,
                                   uint64_t index, const char *disk, blvl_error *err);
/* Whether `name` (already bounded) is one the table keeps: not empty, not a folder. */
int blvl__import_q3_fs_name_ok(const char *name);

blvl_status blvl__import_q3_fs_add_zip(blvl_q3_fs *fs, const char *path, blvl_error *err);
blvl_status blvl__import_q3_fs_add_dir(blvl_q3_fs *fs, const char *path, blvl_error *err);
blvl_status blvl__import_q3_fs_read_zip(const blvl_q3_fs *fs, const q3fs_entry *e, uint8_t **data,
                                        size_t *size, blvl_error *err);
blvl_status blvl__import_q3_fs_read_disk(const blvl_q3_fs *fs, const q3fs_entry *e, uint8_t **data,
                                         size_t *size, blvl_error *err);

#endif
