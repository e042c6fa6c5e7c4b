/* The content-addressed cache of levels read over HTTP (docs/HTTP.md, "The cache").
 *
 * Sections are kept by the BLAKE3-128 digest of their packed bytes, tables (the header and
 * table region as served, bytes 0 .. floor) by the level's identity and table digest. Every
 * get re-checks the digest of what it read: an entry that fails is removed and reported as a
 * miss, so the cache never hands out bytes that do not match their name. Puts are best effort
 * (a full disk or a read-only directory only means no caching); the total size is capped and
 * the least recently used entries are evicted first (a get counts as a use). Several processes
 * may share one directory: entries are written to a temporary and renamed into place.
 * Private to the http layer. */
#ifndef BLVL_HTTP_CACHE_H
#define BLVL_HTTP_CACHE_H
#include <stdbool.h>
#include <stdint.h>

#include "blvl/blvl.h"
#include "blvl/http.h"

typedef struct blvl__cache blvl__cache;

/* dir "" = $XDG_CACHE_HOME/blvl, else $HOME/.cache/blvl; created when missing (new folders
 * 0700, 0770 under a setgid parent). max_bytes 0 =
 * 1 GiB. `a` may be NULL (malloc/free); the cache keeps a copy of it. */
blvl_status blvl__http_cache_open(blvl__cache **out, const char *dir, uint64_t max_bytes,
                                  const blvl_allocator *a, blvl_error *err);
/* The same, with a hook for warnings (NULL: none): something at a name the cache uses that it
 * did not write (a symlink or a file at DIR/tmp, a FIFO or a folder at an entry's name), each
 * kind said once per cache. */
blvl_status blvl__http_cache_open_warn(blvl__cache **out, const char *dir, uint64_t max_bytes,
                                       const blvl_allocator *a, blvl_warn_fn warn, void *warn_user,
                                       blvl_error *err);
void blvl__http_cache_close(blvl__cache *c);

/* A section's packed bytes into buf (exactly `size` bytes): true on a hit whose digest matched;
 * false on a miss (also when the entry was damaged: it is then removed). */
bool blvl__http_cache_get_section(blvl__cache *c, const uint8_t digest[BLVL_DIGEST_SIZE], void *buf,
                                  uint64_t size);
/* Keep a section whose digest the caller has checked. */
void blvl__http_cache_put_section(blvl__cache *c, const uint8_t digest[BLVL_DIGEST_SIZE],
                                  const void *data, uint64_t size);
/* Keep a section that lies at [off, off + size) of the readable file `fd`, copied in 1 MiB
 * pieces (never held whole) and hashed again on the way: kept only when the copy matches
 * `digest`. For sections too large to hold (blvl_fetch_url, a spooled read). */
void blvl__http_cache_put_section_fd(blvl__cache *c, const uint8_t digest[BLVL_DIGEST_SIZE], int fd,
                                     uint64_t off, uint64_t size);
/* A section's packed bytes copied to the start of the writable file `out` in 1 MiB pieces and
 * hashed on the way: true on a hit whose digest matched (false on a miss; a damaged entry is
 * removed, and `out` may then hold some of its bytes). */
bool blvl__http_cache_get_section_fd(blvl__cache *c, const uint8_t digest[BLVL_DIGEST_SIZE],
                                     uint64_t size, int out);

/* The header and table region (bytes 0 .. floor) of the level named by identity and table
 * digest: true on a hit whose header carries both names and whose table digest matches. */
bool blvl__http_cache_get_table(blvl__cache *c, const uint8_t identity[BLVL_DIGEST_SIZE],
                                const uint8_t table_digest[BLVL_DIGEST_SIZE], void *buf,
                                uint64_t size);
void blvl__http_cache_put_table(blvl__cache *c, const uint8_t identity[BLVL_DIGEST_SIZE],
                                const uint8_t table_digest[BLVL_DIGEST_SIZE], const void *data,
                                uint64_t size);

/* Bytes the cache holds now (entries only), for tests and `blvl fetch --cache-stats`. */
uint64_t blvl__http_cache_bytes(const blvl__cache *c);
#endif
