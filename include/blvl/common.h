/* libblvl's common base: status codes and errors, the allocator. Every layer (the FlatBuffers
 * runtime, the container, the sections layer, trace) builds on this header and on blvl/le.h;
 * it includes nothing else of blvl.
 *
 * Ownership: every object has one destructor named after it (blvl_close, blvl_writer_commit or
 * blvl_writer_abort, blvl_stream_free, blvl_fb_builder_free, blvl_trace_world_free,
 * blvl_trace_doors_free); every buffer handed to the caller is freed with blvl_free and the
 * options that made it; a blvl_bytes read from a level is freed with blvl_bytes_free. */
#ifndef BLVL_COMMON_H
#define BLVL_COMMON_H

#include "blvl/api.h"
#include <stdbool.h>
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
    BLVL_E_BUDGET,         /* file: the raw sizes sum past the inflation budget */
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
    /* importers (blvl bake) */
    BLVL_E_SOURCE,         /* bake: the source map breaks a rule of its format; the message is
                            * "<part>: <field> at offset N: <rule>: <problem>" */
    BLVL_E_UNKNOWN_FORMAT, /* bake: the input is no source format this program reads */
    /* symbols sidecar (.bsym) */
    BLVL_E_SYMBOLS_STALE,   /* symbols: the .bsym names another level (identity mismatch) */
    BLVL_E_SYMBOLS_VERSION, /* symbols: a .bsym version this reader does not know */
    BLVL_E_SYMBOLS, /* symbols: an invariant of the .bsym is broken (the message names it) */
    /* levels over HTTP (blvl/http.h) */
    BLVL_E_HTTP,         /* http: the transfer failed or the server said no (status, curl error) */
    BLVL_E_HTTP_CHANGED, /* http: the file changed between requests (ETag, Last-Modified, table) */
    BLVL_E_HTTP_TIMEOUT, /* http: a connect, stall or total time-out passed */
    BLVL_E_HTTP_LIMIT,   /* http: the cap on bytes received was reached */
    /* container, added after the rest so that earlier values keep their numbers */
    BLVL_E_PACKED_SIZE, /* entry: packed size over raw + 12 x ceil(raw / 4 MiB) + 4 */
    BLVL_STATUS_COUNT
} blvl_status;

/* What went wrong, for the caller to print. `message` always ends in a NUL. */
typedef struct blvl_error {
    blvl_status code;
    char message[256];
} blvl_error;

/* The stable short name of a status ("table-digest", "chunk-index", ...). A blvl_error's
 * message already starts with it ("table-digest: ..."): print the message alone, not both. */
BLVL_API const char *blvl_status_name(blvl_status code);

/* Allocator hooks: both set, or both NULL for malloc/free. `free` gets the size `alloc` was
 * asked for (the library tracks sizes itself, also for buffers whose free call carries none). */
typedef struct blvl_allocator {
    void *(*alloc)(void *user, size_t size);
    void (*free)(void *user, void *ptr, size_t size);
    void *user;
} blvl_allocator;

/* Progress: `done` units of work out of `total` (each call says what a unit is). */
typedef void (*blvl_progress_fn)(void *user, uint64_t done, uint64_t total);

struct blvl_file_ops;

/* The base options every entry point takes (NULL, or a zeroed struct, gives the defaults). A
 * feature that needs more has blvl_<feature>_options with this struct as its first member,
 * `base` (blvl_http_options, blvl_trace_options, ...), taken instead of it. Each call reads the
 * fields it needs and ignores the rest; an object made with options (a level, writer, stream,
 * builder, trace world) keeps a copy, so the struct need not outlive the call. */
typedef struct blvl_options {
    /* Every byte the library allocates, zstd's contexts included, comes from here. */
    blvl_allocator allocator;
    /* Workers for chunk inflation and compression: 0 = online CPUs (at most 64). */
    unsigned threads;
    /* Called on the calling thread only. blvl_verify: bytes of work (packed bytes hashed plus
     * raw bytes inflated); the writers: raw bytes written out of the total (progress_total for
     * the streaming writer; 0 when that is 0: the total is unknown, done only counts). done
     * never decreases and the total never changes. NULL for none. */
    blvl_progress_fn progress;
    void *progress_user;
    uint64_t progress_total; /* streaming writer: raw bytes to come, for progress only (0 =
                                unknown: progress reports a total of 0) */
    /* The inflation-budget rule, checked once at open (and by the streaming reader when the
     * table arrives): the sum of the table's raw sizes must be at most this, else
     * BLVL_E_BUDGET before a byte is inflated. 0 = the format's max(64 MiB, 64 * covered).
     * Reads keep no count: a section can be read any number of times. */
    uint64_t inflate_budget;
    /* In-place edits and rewrites whose output replaces their input: how long to wait for the
     * file's edit lock, in milliseconds; 0 = refuse at once with BLVL_E_BUSY. */
    uint32_t lock_timeout_ms;
    /* FlatBuffers verifier limits: nested tables and vectors of tables (0 = 64), tables
     * visited by one verification (0 = 1000000). */
    uint32_t fb_max_depth;
    uint32_t fb_max_tables;
    /* In-place edits: the file operations to use instead of POSIX on a path (tests interrupt
     * them); when set, the path is ignored and no lock is taken. NULL = POSIX. */
    const struct blvl_file_ops *file_ops;
    /* Every file written by path (blvl_write_file, the writer, rewrite, the bake, the export,
     * blvl_fetch_url, blvl_file_write) goes to a temporary name beside its target and is
     * renamed over it when whole (docs/API.md, "Output files"). Called on the calling thread
     * with `created` true just before a temporary is created (the name may not exist yet) and
     * with `created` false once its name is gone (renamed or removed), so a program can remove
     * what is left should a signal end it (the blvl program does). `path` lives only during
     * the call: copy it. NULL for none. */
    void (*temp_file)(void *user, const char *path, bool created);
    void *temp_file_user;
} blvl_options;

/* Frees a buffer the library handed out (blvl_writer_commit_memory, blvl_write_memory, the
 * JSON functions): `opt` must carry the allocator the call that made it was given (NULL for
 * malloc/free). NULL `ptr` is fine. */
BLVL_API void blvl_free(const blvl_options *opt, void *ptr);

#ifdef __cplusplus
}
#endif
#endif
