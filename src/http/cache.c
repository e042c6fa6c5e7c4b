/* The content-addressed cache (cache.h; docs/HTTP.md, "The cache").
 *
 * Layout under the cache directory:
 *   sections/<2 hex>/<32 hex>        a section's packed bytes, named by their BLAKE3-128 digest
 *                                    (the first two digits fan the names out over 256 folders)
 *   tables/<32 hex>-<32 hex>         identity and table digest: bytes 0 .. floor as served,
 *                                    then the BLAKE3-128 of those bytes (the table digest does
 *                                    not cover the header's identity nor the region's slack)
 *   tmp/                             entries being written, renamed into place once whole
 *
 * Use: an entry's modification time is its last use. Put and get set it from CLOCK_REALTIME
 * (nanoseconds, finer than the file system's own clock), so the order of uses is the order of
 * times even within one millisecond, and it needs no index that processes would have to share.
 * Eviction lists the entries, oldest first, and removes them until the total is 1/16 under the
 * cap (so a full cache is not listed again at every put).
 *
 * Size: each cache counts the bytes it saw at open plus what it put since; another process's
 * puts are seen at the next listing (eviction, blvl__cache_bytes), so several processes may
 * overshoot the cap by what they put between two listings.
 *
 * Nothing here fails its caller: a directory that cannot be made, opened or written means no
 * caching, a damaged entry is removed and is a miss. */
#include "http/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error.h"
#include "container/format.h"
#include "payload/digest.h"

#define CACHE_DEFAULT_MAX (1ull << 30)
#define TMP_STALE_SECONDS 3600 /* a temporary this old was left by a process that died */
#define REL_MAX 80             /* "tables/" + 32 + "-" + 32, with room */

struct blvl__cache {
    blvl_allocator a;
    int dirfd; /* -1: no caching */
    uint64_t max_bytes;
    uint64_t bytes; /* entries' bytes: the last listing plus this cache's puts since */
    uint64_t seq;   /* temporaries' names */
};

/* One entry found by a listing. */
typedef struct cache_item {
    struct timespec used;
    uint64_t size;
    char rel[REL_MAX];
} cache_item;

typedef struct item_list {
    const blvl_allocator *a;
    cache_item *v;
    size_t n, cap;
    bool failed; /* out of memory: the list is incomplete */
} item_list;

/* The first n characters of s are lowercase hex digits. */
static bool hex_prefix(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return true;
}

/* s is exactly n lowercase hex digits. */
static bool is_hex(const char *s, size_t n) {
    return hex_prefix(s, n) && s[n] == '\0';
}

/* An entry's file name: 32 hex digits for a section, 32-32 for a table. Anything else in the
 * folders (a temporary of another tool, a stray file) is neither counted nor evicted. */
static bool entry_name_ok(const char *n, bool table) {
    if (!table)
        return is_hex(n, 32);
    return hex_prefix(n, 32) && n[32] == '-' && is_hex(n + 33, 32);
}

static void section_rel(const uint8_t digest[BLVL_DIGEST_SIZE], char rel[REL_MAX]) {
    char hex[33];
    blvl_hex(digest, hex);
    snprintf(rel, REL_MAX, "sections/%.2s/%s", hex, hex);
}

static void table_rel(const uint8_t identity[BLVL_DIGEST_SIZE],
                      const uint8_t table_digest[BLVL_DIGEST_SIZE], char rel[REL_MAX]) {
    char id[33], td[33];
    blvl_hex(identity, id);
    blvl_hex(table_digest, td);
    snprintf(rel, REL_MAX, "tables/%s-%s", id, td);
}

static struct timespec now(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0) {
        ts.tv_sec = time(NULL);
        ts.tv_nsec = 0;
    }
    return ts;
}

/* Marks an entry used now (access and modification time both). */
static void touch(const blvl__cache *c, const char *rel) {
    struct timespec ts[2];
    ts[0] = ts[1] = now();
    (void)utimensat(c->dirfd, rel, ts, 0);
}

static void forget(blvl__cache *c, uint64_t size) {
    c->bytes = c->bytes > size ? c->bytes - size : 0;
}

/* Removes a damaged entry. Another process may have just renamed a good one into its place:
 * that costs a fetch later, never a wrong byte (every get re-checks). */
static void drop(blvl__cache *c, const char *rel, uint64_t size) {
    if (unlinkat(c->dirfd, rel, 0) == 0)
        forget(c, size);
}

/* ---- listing --------------------------------------------------------------------------- */

static void list_push(item_list *l, const char *rel, const struct stat *sb) {
    if (!l || l->failed)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        cache_item *v = blvl__calloc_n(l->a, cap, sizeof *v);
        if (!v) {
            l->failed = true;
            return;
        }
        if (l->n)
            memcpy(v, l->v, l->n * sizeof *v);
        blvl__dealloc(l->a, l->v, l->cap * sizeof *v);
        l->v = v;
        l->cap = cap;
    }
    cache_item *it = &l->v[l->n++];
    it->used = sb->st_mtim;
    it->size = (uint64_t)sb->st_size;
    snprintf(it->rel, REL_MAX, "%s", rel);
}

/* Adds the entries of folder `sub` to the total and, with `l`, to the list. */
static uint64_t list_folder(const blvl__cache *c, const char *sub, bool tables, item_list *l) {
    int fd = openat(c->dirfd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return 0;
    }
    uint64_t total = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        if (!entry_name_ok(n, tables))
            continue;
        struct stat sb;
        if (fstatat(dirfd(d), n, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode))
            continue;
        total += (uint64_t)sb.st_size;
        char rel[REL_MAX];
        snprintf(rel, sizeof rel, "%.12s/%.65s", sub, n);
        list_push(l, rel, &sb);
    }
    closedir(d);
    return total;
}

/* The bytes of every entry (and, with `l`, the entries themselves). */
static uint64_t list_all(const blvl__cache *c, item_list *l) {
    uint64_t total = list_folder(c, "tables", true, l);
    int fd = openat(c->dirfd, "sections", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return total;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return total;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_hex(e->d_name, 2))
            continue;
        char sub[16];
        snprintf(sub, sizeof sub, "sections/%.2s", e->d_name);
        total += list_folder(c, sub, false, l);
    }
    closedir(d);
    return total;
}

/* Temporaries left by processes that died while writing. */
static void clean_tmp(const blvl__cache *c) {
    int fd = openat(c->dirfd, "tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    time_t limit = now().tv_sec - TMP_STALE_SECONDS;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat sb;
        if (e->d_name[0] == '.' || fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(sb.st_mode))
            continue;
        if (sb.st_mtim.tv_sec < limit)
            (void)unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}

static int item_order(const void *pa, const void *pb) {
    const cache_item *a = pa, *b = pb;
    if (a->used.tv_sec != b->used.tv_sec)
        return a->used.tv_sec < b->used.tv_sec ? -1 : 1;
    if (a->used.tv_nsec != b->used.tv_nsec)
        return a->used.tv_nsec < b->used.tv_nsec ? -1 : 1;
    return strcmp(a->rel, b->rel);
}

/* Lists the directory afresh (other processes put and evict too) and removes the least
 * recently used entries until the total is 1/16 under the cap. */
static void evict(blvl__cache *c) {
    item_list l = {.a = &c->a};
    uint64_t total = list_all(c, &l);
    if (total > c->max_bytes && !l.failed) {
        uint64_t goal = c->max_bytes - c->max_bytes / 16;
        qsort(l.v, l.n, sizeof *l.v, item_order);
        for (size_t i = 0; i < l.n && total > goal; i++) {
            int r = unlinkat(c->dirfd, l.v[i].rel, 0);
            if (r == 0 || errno == ENOENT) /* gone either way */
                total -= l.v[i].size;
        }
    }
    c->bytes = total;
    blvl__dealloc(l.a, l.v, l.cap * sizeof *l.v);
}

/* ---- reading and writing entries ------------------------------------------------------- */

static bool read_all(int fd, void *buf, uint64_t size, uint64_t offset) {
    uint8_t *p = buf;
    while (size > 0) {
        size_t n = size > (1u << 30) ? (1u << 30) : (size_t)size;
        ssize_t r = pread(fd, p, n, (off_t)offset);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        p += r;
        offset += (uint64_t)r;
        size -= (uint64_t)r;
    }
    return true;
}

static bool write_all(int fd, const void *buf, uint64_t size) {
    const uint8_t *p = buf;
    while (size > 0) {
        size_t n = size > (1u << 30) ? (1u << 30) : (size_t)size;
        ssize_t r = write(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        p += r;
        size -= (uint64_t)r;
    }
    return true;
}

typedef enum { ENTRY_READ, ENTRY_MISSING, ENTRY_DAMAGED } entry_state;

/* Reads an entry whose file must hold exactly `size` bytes then `tail_size` more (into
 * `tail`). A file of any other length is damaged; *file_size says how long it was. */
static entry_state read_entry(const blvl__cache *c, const char *rel, void *buf, uint64_t size,
                              void *tail, uint64_t tail_size, uint64_t *file_size) {
    *file_size = 0;
    int fd = openat(c->dirfd, rel, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return ENTRY_MISSING;
    struct stat sb;
    entry_state st = ENTRY_DAMAGED;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return ENTRY_MISSING;
    }
    *file_size = (uint64_t)sb.st_size;
    if (*file_size == size + tail_size && read_all(fd, buf, size, 0) &&
        read_all(fd, tail, tail_size, size))
        st = ENTRY_READ;
    close(fd);
    return st;
}

/* Writes `data` then `tail` to a temporary, marks it used now, renames it to `rel`. */
static bool write_entry(blvl__cache *c, const char *rel, const void *data, uint64_t size,
                        const void *tail, uint64_t tail_size) {
    char tmp[REL_MAX];
    int fd = -1;
    for (int attempt = 0; attempt < 8 && fd < 0; attempt++) {
        struct timespec t = now();
        snprintf(tmp, sizeof tmp, "tmp/%ld.%llu.%lld%09ld", (long)getpid(),
                 (unsigned long long)c->seq++, (long long)t.tv_sec, t.tv_nsec);
        fd = openat(c->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0)
        return false;
    bool ok = write_all(fd, data, size) && write_all(fd, tail, tail_size);
    if (ok) {
        struct timespec ts[2];
        ts[0] = ts[1] = now();
        ok = futimens(fd, ts) == 0;
    }
    /* No fsync: an entry cut short by a crash fails its digest and is dropped at its next get. */
    if (close(fd) != 0)
        ok = false;
    if (ok)
        ok = renameat(c->dirfd, tmp, c->dirfd, rel) == 0;
    if (!ok)
        (void)unlinkat(c->dirfd, tmp, 0);
    return ok;
}

/* True when `rel` already holds a file of `size` bytes (then marked used): a put need not
 * write it again. */
static bool already_there(const blvl__cache *c, const char *rel, uint64_t size) {
    struct stat sb;
    if (fstatat(c->dirfd, rel, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode) ||
        (uint64_t)sb.st_size != size)
        return false;
    touch(c, rel);
    return true;
}

static void put(blvl__cache *c, const char *rel, const void *data, uint64_t size, const void *tail,
                uint64_t tail_size) {
    uint64_t total = size + tail_size;
    if (c->dirfd < 0 || total > c->max_bytes || already_there(c, rel, total))
        return;
    if (!write_entry(c, rel, data, size, tail, tail_size)) {
        /* The folder may be missing (a fan-out folder not made yet, or removed by hand). */
        char dir[REL_MAX];
        snprintf(dir, sizeof dir, "%s", rel);
        char *slash = strrchr(dir, '/');
        *slash = '\0';
        (void)mkdirat(c->dirfd, "sections", 0777);
        (void)mkdirat(c->dirfd, "tables", 0777);
        (void)mkdirat(c->dirfd, "tmp", 0777);
        (void)mkdirat(c->dirfd, dir, 0777);
        if (!write_entry(c, rel, data, size, tail, tail_size))
            return;
    }
    c->bytes += total;
    if (c->bytes > c->max_bytes)
        evict(c);
}

/* ---- the interface ---------------------------------------------------------------------- */

/* The directory's path into buf: `dir`, or the default. False when there is none. */
static bool cache_path(const char *dir, char *buf, size_t cap) {
    int n;
    if (dir && dir[0])
        n = snprintf(buf, cap, "%s", dir);
    else {
        const char *xdg = getenv("XDG_CACHE_HOME");
        const char *home = getenv("HOME");
        /* The XDG rule: a relative XDG_CACHE_HOME is invalid and ignored. */
        if (xdg && xdg[0] == '/')
            n = snprintf(buf, cap, "%s/blvl", xdg);
        else if (home && home[0])
            n = snprintf(buf, cap, "%s/.cache/blvl", home);
        else
            return false;
    }
    return n > 0 && (size_t)n < cap;
}

/* mkdir -p: each missing folder of the path, then the path itself. */
static void make_dirs(char *path) {
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            (void)mkdir(path, 0777);
            *p = '/';
        }
    (void)mkdir(path, 0777);
}

blvl_status blvl__cache_open(blvl__cache **out, const char *dir, uint64_t max_bytes,
                             const blvl_allocator *a, blvl_error *err) {
    *out = NULL;
    blvl__cache *c = blvl__calloc(a, sizeof *c);
    if (!c)
        return blvl__fail(err, BLVL_E_NOMEM, "no memory for the cache");
    if (a)
        c->a = *a;
    c->dirfd = -1;
    c->max_bytes = max_bytes ? max_bytes : CACHE_DEFAULT_MAX;
    char path[PATH_MAX];
    if (cache_path(dir, path, sizeof path)) {
        make_dirs(path);
        c->dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    }
    if (c->dirfd >= 0) {
        (void)mkdirat(c->dirfd, "sections", 0777);
        (void)mkdirat(c->dirfd, "tables", 0777);
        (void)mkdirat(c->dirfd, "tmp", 0777);
        clean_tmp(c);
        c->bytes = list_all(c, NULL);
    }
    *out = c;
    blvl__ok(err);
    return BLVL_OK;
}

void blvl__cache_close(blvl__cache *c) {
    if (!c)
        return;
    if (c->dirfd >= 0)
        close(c->dirfd);
    blvl_allocator a = c->a;
    blvl__dealloc(&a, c, sizeof *c);
}

bool blvl__cache_get_section(blvl__cache *c, const uint8_t digest[BLVL_DIGEST_SIZE], void *buf,
                             uint64_t size) {
    if (!c || c->dirfd < 0 || size > SIZE_MAX)
        return false;
    char rel[REL_MAX];
    section_rel(digest, rel);
    uint64_t file_size;
    entry_state st = read_entry(c, rel, buf, size, NULL, 0, &file_size);
    if (st == ENTRY_MISSING)
        return false;
    uint8_t got[BLVL_DIGEST_SIZE];
    if (st == ENTRY_READ) {
        blvl_digest(buf, (size_t)size, got);
        if (memcmp(got, digest, BLVL_DIGEST_SIZE) == 0) {
            touch(c, rel);
            return true;
        }
    }
    drop(c, rel, file_size);
    return false;
}

void blvl__cache_put_section(blvl__cache *c, const uint8_t digest[BLVL_DIGEST_SIZE],
                             const void *data, uint64_t size) {
    if (!c)
        return;
    char rel[REL_MAX];
    section_rel(digest, rel);
    put(c, rel, data, size, NULL, 0);
}

/* ---- a section put from a file, in pieces ------------------------------------------------- */

#define COPY_PIECE (1u << 20)

/* Copies [off, off + size) of `fd` to a new temporary, hashing the bytes as they pass; renames
 * it to `rel` only when they match `digest`. Memory: one piece, whatever the size. */
static bool copy_entry(blvl__cache *c, const char *rel, const uint8_t digest[BLVL_DIGEST_SIZE],
                       int fd, uint64_t off, uint64_t size) {
    uint8_t *buf = blvl__alloc(&c->a, COPY_PIECE);
    if (!buf)
        return false;
    char tmp[REL_MAX];
    int out = -1;
    for (int attempt = 0; attempt < 8 && out < 0; attempt++) {
        struct timespec t = now();
        snprintf(tmp, sizeof tmp, "tmp/%ld.%llu.%lld%09ld", (long)getpid(),
                 (unsigned long long)c->seq++, (long long)t.tv_sec, t.tv_nsec);
        out = openat(c->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (out < 0 && errno != EEXIST)
            break;
    }
    if (out < 0) {
        blvl__dealloc(&c->a, buf, COPY_PIECE);
        return false;
    }
    blvl_hasher h;
    blvl__hasher_init(&h);
    bool ok = true;
    for (uint64_t done = 0; ok && done < size;) {
        size_t n = size - done > COPY_PIECE ? COPY_PIECE : (size_t)(size - done);
        ok = read_all(fd, buf, n, off + done) && write_all(out, buf, n);
        if (ok)
            blvl__hasher_update(&h, buf, n);
        done += n;
    }
    blvl__dealloc(&c->a, buf, COPY_PIECE);
    uint8_t got[BLVL_DIGEST_SIZE];
    blvl__hasher_final(&h, got);
    ok = ok && memcmp(got, digest, BLVL_DIGEST_SIZE) == 0;
    if (ok) {
        struct timespec ts[2];
        ts[0] = ts[1] = now();
        ok = futimens(out, ts) == 0;
    }
    if (close(out) != 0)
        ok = false;
    if (ok)
        ok = renameat(c->dirfd, tmp, c->dirfd, rel) == 0;
    if (!ok)
        (void)unlinkat(c->dirfd, tmp, 0);
    return ok;
}

void blvl__cache_put_section_fd(blvl__cache *c, const uint8_t digest[BLVL_DIGEST_SIZE], int fd,
                                uint64_t off, uint64_t size) {
    if (!c || c->dirfd < 0 || size > c->max_bytes)
        return;
    char rel[REL_MAX];
    section_rel(digest, rel);
    if (already_there(c, rel, size))
        return;
    if (!copy_entry(c, rel, digest, fd, off, size)) {
        /* The fan-out folder may be missing (not made yet, or removed by hand). */
        char dir[REL_MAX];
        snprintf(dir, sizeof dir, "%s", rel);
        *strrchr(dir, '/') = '\0';
        (void)mkdirat(c->dirfd, "sections", 0777);
        (void)mkdirat(c->dirfd, "tmp", 0777);
        (void)mkdirat(c->dirfd, dir, 0777);
        if (!copy_entry(c, rel, digest, fd, off, size))
            return;
    }
    c->bytes += size;
    if (c->bytes > c->max_bytes)
        evict(c);
}

bool blvl__cache_get_section_fd(blvl__cache *c, const uint8_t digest[BLVL_DIGEST_SIZE],
                                uint64_t size, int out) {
    if (!c || c->dirfd < 0)
        return false;
    char rel[REL_MAX];
    section_rel(digest, rel);
    int fd = openat(c->dirfd, rel, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return false;
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return false;
    }
    uint64_t file_size = (uint64_t)sb.st_size;
    uint8_t *buf = blvl__alloc(&c->a, COPY_PIECE);
    bool damaged = file_size != size, written = true; /* a failed write is not the entry's */
    blvl_hasher h;
    blvl__hasher_init(&h);
    for (uint64_t done = 0; buf && !damaged && written && done < size;) {
        size_t n = size - done > COPY_PIECE ? COPY_PIECE : (size_t)(size - done);
        damaged = !read_all(fd, buf, n, done);
        if (damaged)
            break;
        blvl__hasher_update(&h, buf, n);
        for (size_t at = 0; written && at < n;) {
            ssize_t w = pwrite(out, buf + at, n - at, (off_t)(done + at));
            if (w < 0 && errno == EINTR)
                continue;
            written = w > 0;
            at += written ? (size_t)w : 0;
        }
        done += n;
    }
    close(fd);
    bool ok = buf && !damaged && written;
    blvl__dealloc(&c->a, buf, COPY_PIECE);
    if (ok) {
        uint8_t got[BLVL_DIGEST_SIZE];
        blvl__hasher_final(&h, got);
        damaged = memcmp(got, digest, BLVL_DIGEST_SIZE) != 0;
        ok = !damaged;
    }
    if (ok)
        touch(c, rel);
    else if (damaged)
        drop(c, rel, file_size);
    return ok;
}

/* The header and table region `buf` (size bytes) names this identity and table digest, and
 * its table matches its digest. */
static bool table_matches(const uint8_t *buf, uint64_t size,
                          const uint8_t identity[BLVL_DIGEST_SIZE],
                          const uint8_t table_digest[BLVL_DIGEST_SIZE]) {
    blvl_header h;
    if (blvl__header_decode(buf, &h, NULL) != BLVL_OK || h.floor != size ||
        memcmp(h.identity, identity, BLVL_DIGEST_SIZE) != 0 ||
        memcmp(h.table_digest, table_digest, BLVL_DIGEST_SIZE) != 0)
        return false;
    uint8_t got[BLVL_DIGEST_SIZE];
    blvl_compute_table_digest(buf + h.table_offset, h.count, h.floor, h.table_offset, got);
    return memcmp(got, table_digest, BLVL_DIGEST_SIZE) == 0;
}

bool blvl__cache_get_table(blvl__cache *c, const uint8_t identity[BLVL_DIGEST_SIZE],
                           const uint8_t table_digest[BLVL_DIGEST_SIZE], void *buf, uint64_t size) {
    if (!c || c->dirfd < 0 || size < BLVL_HEADER_SIZE || size > BLVL_FLOOR_MAX)
        return false;
    char rel[REL_MAX];
    table_rel(identity, table_digest, rel);
    uint8_t tail[BLVL_DIGEST_SIZE], got[BLVL_DIGEST_SIZE];
    uint64_t file_size;
    entry_state st = read_entry(c, rel, buf, size, tail, sizeof tail, &file_size);
    if (st == ENTRY_MISSING)
        return false;
    if (st == ENTRY_READ) {
        blvl_digest(buf, (size_t)size, got);
        if (memcmp(got, tail, sizeof tail) == 0 &&
            table_matches(buf, size, identity, table_digest)) {
            touch(c, rel);
            return true;
        }
    }
    drop(c, rel, file_size);
    return false;
}

void blvl__cache_put_table(blvl__cache *c, const uint8_t identity[BLVL_DIGEST_SIZE],
                           const uint8_t table_digest[BLVL_DIGEST_SIZE], const void *data,
                           uint64_t size) {
    if (!c || size < BLVL_HEADER_SIZE || size > BLVL_FLOOR_MAX ||
        !table_matches(data, size, identity, table_digest))
        return;
    char rel[REL_MAX];
    table_rel(identity, table_digest, rel);
    uint8_t tail[BLVL_DIGEST_SIZE];
    blvl_digest(data, (size_t)size, tail);
    put(c, rel, data, size, tail, sizeof tail);
}

uint64_t blvl__cache_bytes(const blvl__cache *c) {
    if (!c || c->dirfd < 0)
        return 0;
    return list_all(c, NULL);
}
