/* libblvl's common base: status codes and errors, the allocator. Every layer (the FlatBuffers
 * runtime, the container, the sections layer, trace) builds on this header and on blvl/le.h;
 * it includes nothing else of blvl. */
#ifndef BLVL_COMMON_H
#define BLVL_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. Each refusal of a file names one rule of docs/FORMAT.md. */
typedef enum blvl_status {
    BLVL_OK = 0,
    /* caller and environment */
    BLVL_E_ARGUMENT,  /* a bad argument from the caller */
    BLVL_E_NOMEM,     /* the allocator said no */
    BLVL_E_IO,        /* the operating system said no (open, read, write, fsync) */
    BLVL_E_NOT_FOUND, /* no section with that tag */
    BLVL_E_THREAD,    /* a worker thread could not be started */
    /* header */
    BLVL_E_TRUNCATED,    /* the file ends inside the header or the table region */
    BLVL_E_MAGIC,        /* header: unknown magic */
    BLVL_E_VERSION,      /* header: unknown container version */
    BLVL_E_HEADER_FLAGS, /* header: non-zero header flags */
    BLVL_E_FLOOR,        /* header: payload floor not a multiple of 64 in 128..131072 */
    BLVL_E_TABLE_OFFSET, /* header: table offset not a multiple of 64 or table outside 64..floor */
    BLVL_E_COUNT,        /* header: count past the reserved capacity */
    /* table */
    BLVL_E_TAG,               /* entry: tag bytes not 1..16 of [a-z0-9._-], NUL-padded */
    BLVL_E_TAG_REPEATED,      /* entry: the same tag twice */
    BLVL_E_ENTRY_FLAGS,       /* entry: flag bits other than bit 0 set */
    BLVL_E_ENTRY_ALIGN,       /* entry: payload offset not a multiple of 64 */
    BLVL_E_ENTRY_BELOW_FLOOR, /* entry: payload starts below the payload floor */
    BLVL_E_ENTRY_PAST_EOF,    /* entry: payload runs past the end of the file */
    BLVL_E_ENTRY_OVERLAP,     /* entry: two payloads overlap */
    BLVL_E_RAW_SIZE,          /* entry: raw size over 2 GiB */
    BLVL_E_ENTRY_EMPTY,       /* entry: packed size under 4 (a payload ends in its chunk count) */
    BLVL_E_UNREFERENCED,      /* file: more than max(1 MiB, covered/16) unreferenced bytes */
    BLVL_E_CORE_NOT_IDENTITY, /* entry: a core tag (no dot) without the identity flag */
    BLVL_E_TABLE_DIGEST,      /* header: stored table digest does not match the table */
    BLVL_E_IDENTITY,          /* header: stored identity does not match the identity records */
    /* payload */
    BLVL_E_SECTION_DIGEST, /* section: packed bytes do not match the entry's digest */
    BLVL_E_CHUNK_INDEX,    /* section: chunk index inconsistent with the entry */
    BLVL_E_CHUNK_SIZE,     /* section: a chunk over 4 MiB raw */
    BLVL_E_CODEC,          /* section: unknown codec or non-zero reserved bytes */
    BLVL_E_ZSTD,           /* section: a zstd chunk that is not one valid frame of its size */
    BLVL_E_BUDGET,         /* section: inflation past the budget */
    /* editing */
    BLVL_E_IDENTITY_SECTION, /* edit: the section is in identity; bake the level again */
    BLVL_E_NO_ROOM,   /* edit: no room in the reserved region or the unreferenced limit; rewrite */
    BLVL_E_WRITE_TAG, /* write: a bad or repeated tag handed to the writer */
    BLVL_E_BUSY,      /* edit: another process holds the file's edit lock */
    /* sections (used by the section layer above the container) */
    BLVL_E_REQUIRED,        /* level: a required core section (meta, sim) missing */
    BLVL_E_SECTION_VERSION, /* level: a required core section of a version this reader does not know
                             */
    BLVL_E_FLATBUFFER,      /* section: the payload fails the FlatBuffers verifier */
    BLVL_E_STREAM_STATE,    /* stream: bytes after the end, or finish before the end */
    BLVL_STATUS_COUNT
} blvl_status;

/* What went wrong, for the caller to print. `message` always ends in a NUL. */
typedef struct blvl_error {
    blvl_status code;
    char message[256];
} blvl_error;

/* The stable short name of a status ("table-digest", "chunk-index", ...). A blvl_error's
 * message already starts with it ("table-digest: ..."): print the message alone, not both. */
const char *blvl_status_name(blvl_status code);

/* Allocator hooks. NULL fields (or a NULL pointer) mean malloc/free. */
typedef struct blvl_allocator {
    void *(*alloc)(void *user, size_t size);
    void (*free)(void *user, void *ptr, size_t size);
    void *user;
} blvl_allocator;

#ifdef __cplusplus
}
#endif
#endif
