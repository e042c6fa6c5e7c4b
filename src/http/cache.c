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
 * puts are seen at the next listing (eviction, blvl__http_cache_bytes), so several processes may
 * overshoot the cap by what they put between two listings.
 *
 * Nothing here fails its caller: a directory that cannot be made, opened or written means no
 * caching, a damaged entry is removed and is a miss.
 *
 * The folder may be shared, or be a folder of the user's own ($HOME): the cache touches only
 * what it wrote. Temporaries are removed only when their name is one this file makes
 * (tmp_name_ok); every folder is opened one component at a time with O_NOFOLLOW, so a symlink
 * planted at `tmp`, `sections`, `tables` or a fan-out folder is never followed (a `tmp` that is
 * not a real folder turns puts off); an entry is looked at with fstatat before it is opened,
 * then opened O_NONBLOCK, so a FIFO or a device at an entry's name cannot hang a read: anything
 * that is not a regular file is a miss, and the put that follows replaces it. New folders are
 * 0700, or 0770 under a setgid parent (a folder shared by a group, by the usual convention). */
#include "http/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"
#include "container/format.h"
#include "payload/digest.h"

#define CACHE_DEFAULT_MAX (1ull << 30)
#define TMP_STALE_SECONDS 3600 /* a temporary this old was left by a process that died */
#define REL_MAX 80             /* "tables/" + 32 + "-" + 32, with room */
#define TMP_PREFIX "blvl-"     /* temporaries: blvl-PID.SEQ.NANOSECONDS.tmp */
#define TMP_SUFFIX ".tmp"
#define DIR_OPEN (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

struct blvl__cache {
    blvl_allocator a;
    int dirfd; /* -1: no caching */
    int tmpfd; /* DIR/tmp, opened without following a symlink; -1: no puts */
    uint64_t max_bytes;
    uint64_t bytes; /* entries' bytes: the last listing plus this cache's puts since */
    uint64_t seq;   /* temporaries' names */
    blvl_warn_fn warn;
    void *warn_user;
    bool warned_tmp, warned_entry, warned_dir; /* each said once per cache */
    char path[PATH_MAX];                       /* for messages */
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

/* A warning through the caller's hook (the library prints nothing itself), once per kind per
 * cache: a command opening one level says it once. */
static void say(blvl__cache *c, bool *once, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(blvl__cache *c, bool *once, const char *fmt, ...) {
    if (!c->warn || *once)
        return;
    *once = true;
    char msg[PATH_MAX + 256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    c->warn(c->warn_user, msg);
}

static const char *kind_of(mode_t m) {
    return S_ISDIR(m)                 ? "folder"
           : S_ISLNK(m)               ? "symlink"
           : S_ISFIFO(m)              ? "FIFO"
           : S_ISSOCK(m)              ? "socket"
           : S_ISCHR(m) || S_ISBLK(m) ? "device"
                                      : "special file";
}

/* ---- folders ----------------------------------------------------------------------------- */

/* A new folder's mode: the user's alone, unless its parent is setgid (a folder shared by a
 * group, by the usual convention: the group then keeps access, and Linux passes the setgid
 * bit and the group on). */
static mode_t folder_mode(int parent_fd) {
    struct stat sb;
    if (fstat(parent_fd, &sb) == 0 && (sb.st_mode & S_ISGID))
        return 0770;
    return 0700;
}

/* The folder `path` (components separated by '/', relative to the cache directory), opened one
 * component at a time without following a symlink; missing components made when `make`. -1
 * (errno set) when a component is missing, a symlink or not a folder. */
static int open_folder(const blvl__cache *c, const char *path, size_t len, bool make) {
    int fd = c->dirfd;
    size_t i = 0;
    while (i < len) {
        char comp[REL_MAX];
        size_t n = 0;
        while (i < len && path[i] != '/' && n + 1 < sizeof comp)
            comp[n++] = path[i++];
        comp[n] = '\0';
        i++; /* past the '/' */
        int next = openat(fd, comp, DIR_OPEN);
        if (next < 0 && errno == ENOENT && make) {
            (void)mkdirat(fd, comp, folder_mode(fd));
            next = openat(fd, comp, DIR_OPEN);
        }
        int e = errno;
        if (fd != c->dirfd)
            close(fd);
        if (next < 0) {
            errno = e;
            return -1;
        }
        fd = next;
    }
    return fd == c->dirfd ? fcntl(c->dirfd, F_DUPFD_CLOEXEC, 0) : fd;
}

/* The folder holding entry `rel`, opened as above; *leaf is the entry's name in it. */
static int open_parent(const blvl__cache *c, const char *rel, const char **leaf, bool make) {
    const char *slash = strrchr(rel, '/');
    *leaf = slash ? slash + 1 : rel;
    return open_folder(c, rel, slash ? (size_t)(slash - rel) : 0, make);
}

/* `name` is one the cache gives its temporaries (write_entry): blvl-PID.SEQ.NANOSECONDS.tmp.
 * Only such names are ever removed from DIR/tmp. */
static size_t digits(const char *s) {
    size_t n = 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n;
}

static bool tmp_name_ok(const char *n) {
    size_t p = strlen(TMP_PREFIX), k;
    if (strncmp(n, TMP_PREFIX, p) != 0)
        return false;
    n += p;
    for (int field = 0; field < 2; field++) {
        k = digits(n);
        if (k == 0 || n[k] != '.')
            return false;
        n += k + 1;
    }
    k = digits(n);
    return k >= 10 && strcmp(n + k, TMP_SUFFIX) == 0;
}

/* DIR/tmp, made when missing, never through a symlink. Anything else at that name (a planted
 * `tmp -> elsewhere`, a file) turns puts off, with a warning: the cache writes and removes
 * temporaries only in a folder it can trust to be its own. */
static int open_tmp(blvl__cache *c) {
    int fd = open_folder(c, "tmp", 3, true);
    if (fd < 0 && (errno == ELOOP || errno == ENOTDIR)) {
        struct stat sb;
        const char *what = "not a folder";
        if (fstatat(c->dirfd, "tmp", &sb, AT_SYMLINK_NOFOLLOW) == 0)
            what = kind_of(sb.st_mode);
        say(c, &c->warned_tmp,
            "cache: %s/tmp is a %s, not a folder: not used (nothing is written to the cache, "
            "nothing there is removed)",
            c->path, what);
    }
    return fd;
}

/* Marks an entry used now (access and modification time both). */
static void touch(const blvl__cache *c, const char *rel) {
    const char *leaf;
    int pfd = open_parent(c, rel, &leaf, false);
    if (pfd < 0)
        return;
    struct timespec ts[2];
    ts[0] = ts[1] = now();
    (void)utimensat(pfd, leaf, ts, AT_SYMLINK_NOFOLLOW);
    close(pfd);
}

/* unlinkat for an entry, through its folder opened without following symlinks. */
static int unlink_entry(const blvl__cache *c, const char *rel) {
    const char *leaf;
    int pfd = open_parent(c, rel, &leaf, false);
    if (pfd < 0)
        return -1;
    int r = unlinkat(pfd, leaf, 0);
    int e = errno;
    close(pfd);
    errno = e;
    return r;
}

static void forget(blvl__cache *c, uint64_t size) {
    c->bytes = c->bytes > size ? c->bytes - size : 0;
}

/* Removes a damaged entry. Another process may have just renamed a good one into its place:
 * that costs a fetch later, never a wrong byte (every get re-checks). */
static void drop(blvl__cache *c, const char *rel, uint64_t size) {
    if (unlink_entry(c, rel) == 0)
        forget(c, size);
}

/* ---- listing --------------------------------------------------------------------------- */

static void list_push(item_list *l, const char *rel, const struct stat *sb) {
    if (!l || l->failed)
        return;
    if (l->n == l->cap) {
        void *v = l->v;
        if (!blvl__array_grow(l->a, &v, &l->cap, l->n, l->n + 1, sizeof *l->v, 64)) {
            l->failed = true;
            return;
        }
        l->v = v;
    }
    cache_item *it = &l->v[l->n++];
    it->used = sb->st_mtim;
    it->size = (uint64_t)sb->st_size;
    snprintf(it->rel, REL_MAX, "%s", rel);
}

/* Adds the entries of folder `sub` to the total and, with `l`, to the list. */
static uint64_t list_folder(const blvl__cache *c, const char *sub, bool tables, item_list *l) {
    int fd = open_folder(c, sub, strlen(sub), false);
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
    int fd = open_folder(c, "sections", 8, false);
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

/* Temporaries left by processes that died while writing: regular files older than an hour
 * whose name is one write_entry makes. Nothing else in DIR/tmp is touched. */
static void clean_tmp(const blvl__cache *c) {
    if (c->tmpfd < 0)
        return;
    int fd = openat(c->tmpfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* fdopendir owns it */
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
        if (!tmp_name_ok(e->d_name) ||
            fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode))
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
            int r = unlink_entry(c, l.v[i].rel);
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

/* ENTRY_FOREIGN: something that is not a regular file (a FIFO, a folder, a symlink, a device)
 * sits at the entry's name. It is a miss; the put that follows the fetch replaces it. */
typedef enum { ENTRY_READ, ENTRY_MISSING, ENTRY_DAMAGED, ENTRY_FOREIGN } entry_state;

/* Reads an entry whose file must hold exactly `size` bytes then `tail_size` more (into
 * `tail`). A file of any other length is damaged; *file_size says how long it was. The name
 * is looked at before it is opened, and opened non-blocking: a FIFO (or a device) at an
 * entry's name would otherwise block open() forever, before any type check could run. */
static entry_state read_entry(blvl__cache *c, const char *rel, void *buf, uint64_t size, void *tail,
                              uint64_t tail_size, uint64_t *file_size) {
    *file_size = 0;
    const char *leaf;
    int pfd = open_parent(c, rel, &leaf, false);
    if (pfd < 0)
        return ENTRY_MISSING;
    struct stat sb;
    entry_state st = ENTRY_MISSING;
    int fd = -1;
    if (fstatat(pfd, leaf, &sb, AT_SYMLINK_NOFOLLOW) != 0)
        goto done;
    st = ENTRY_FOREIGN;
    if (!S_ISREG(sb.st_mode))
        goto done;
    fd = openat(pfd, leaf, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        st = errno == ENOENT || errno == EACCES ? ENTRY_MISSING : ENTRY_FOREIGN;
        goto done;
    }
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) /* swapped since the fstatat */
        goto done;
    st = ENTRY_DAMAGED;
    *file_size = (uint64_t)sb.st_size;
    if (*file_size == size + tail_size && read_all(fd, buf, size, 0) &&
        read_all(fd, tail, tail_size, size))
        st = ENTRY_READ;
done:
    if (st == ENTRY_FOREIGN)
        say(c, &c->warned_entry,
            "cache: %s/%s is a %s, not a file: taken as a miss, fetched and put in its place",
            c->path, rel, kind_of(sb.st_mode));
    if (fd >= 0)
        close(fd);
    close(pfd);
    return st;
}

/* Renames temporary `tmp` over entry `leaf` of folder `pfd`. Rename replaces a FIFO, a
 * symlink or a stale file at that name, not a folder: an empty folder is removed first; a
 * folder with something in it is left alone (the cache removes only what it wrote), said
 * once, and the entry is not kept. */
static bool place(blvl__cache *c, const char *tmp, int pfd, const char *leaf, const char *rel) {
    if (renameat(c->tmpfd, tmp, pfd, leaf) == 0)
        return true;
    if (errno != EISDIR && errno != ENOTEMPTY && errno != EEXIST)
        return false;
    if (unlinkat(pfd, leaf, AT_REMOVEDIR) == 0 && renameat(c->tmpfd, tmp, pfd, leaf) == 0)
        return true;
    say(c, &c->warned_dir,
        "cache: %s/%s is a folder with files in it: not replaced, so that entry is not kept "
        "(remove the folder)",
        c->path, rel);
    return false;
}

/* Creates a temporary in DIR/tmp under the cache's own name pattern (the only names cleaning
 * removes); its name goes to `tmp` (REL_MAX bytes). -1 when none could be made. */
static int new_temp(blvl__cache *c, char *tmp) {
    int fd = -1;
    for (int attempt = 0; attempt < 8 && fd < 0; attempt++) {
        struct timespec t = now();
        snprintf(tmp, REL_MAX, TMP_PREFIX "%ld.%llu.%lld%09ld" TMP_SUFFIX, (long)getpid(),
                 (unsigned long long)c->seq++, (long long)t.tv_sec, t.tv_nsec);
        fd = openat(c->tmpfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    return fd;
}

/* Ends a put whose temporary `tmp` (open as `fd`) is whole when `ok`: marks it used now, closes
 * it, renames it to entry `leaf` of folder `pfd`; on any failure removes it. Closes pfd. */
static bool finish_entry(blvl__cache *c, int fd, bool ok, const char *tmp, int pfd,
                         const char *leaf, const char *rel) {
    if (ok) {
        struct timespec ts[2];
        ts[0] = ts[1] = now();
        ok = futimens(fd, ts) == 0;
    }
    /* No fsync: an entry cut short by a crash fails its digest and is dropped at its next get. */
    if (close(fd) != 0)
        ok = false;
    if (ok)
        ok = place(c, tmp, pfd, leaf, rel);
    if (!ok)
        (void)unlinkat(c->tmpfd, tmp, 0);
    close(pfd);
    return ok;
}

/* Writes `data` then `tail` to a temporary in DIR/tmp, marks it used now, renames it to
 * `rel` (its folder made when missing). */
static bool write_entry(blvl__cache *c, const char *rel, const void *data, uint64_t size,
                        const void *tail, uint64_t tail_size) {
    if (c->tmpfd < 0)
        return false;
    const char *leaf;
    int pfd = open_parent(c, rel, &leaf, true);
    if (pfd < 0)
        return false;
    char tmp[REL_MAX];
    int fd = new_temp(c, tmp);
    if (fd < 0) {
        close(pfd);
        return false;
    }
    bool ok = write_all(fd, data, size) && write_all(fd, tail, tail_size);
    return finish_entry(c, fd, ok, tmp, pfd, leaf, rel);
}

/* True when `rel` already holds a file of `size` bytes (then marked used): a put need not
 * write it again. */
static bool already_there(const blvl__cache *c, const char *rel, uint64_t size) {
    const char *leaf;
    int pfd = open_parent(c, rel, &leaf, false);
    if (pfd < 0)
        return false;
    struct stat sb;
    bool there = fstatat(pfd, leaf, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode) &&
                 (uint64_t)sb.st_size == size;
    close(pfd);
    if (there)
        touch(c, rel);
    return there;
}

/* After a failed put: DIR/tmp may have been removed by hand since the open. True when it was,
 * and was made again (the put is then tried once more). */
static bool tmp_remade(blvl__cache *c) {
    struct stat sb;
    if (c->tmpfd >= 0 && fstat(c->tmpfd, &sb) == 0 && sb.st_nlink > 0)
        return false;
    if (c->tmpfd >= 0)
        close(c->tmpfd);
    c->tmpfd = open_tmp(c);
    return c->tmpfd >= 0;
}

static void put(blvl__cache *c, const char *rel, const void *data, uint64_t size, const void *tail,
                uint64_t tail_size) {
    uint64_t total = size + tail_size;
    if (c->dirfd < 0 || total > c->max_bytes || already_there(c, rel, total))
        return;
    if (!write_entry(c, rel, data, size, tail, tail_size) &&
        !(tmp_remade(c) && write_entry(c, rel, data, size, tail, tail_size)))
        return;
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

/* One folder of the path, made with folder_mode's rule (its parent is `path` up to its last
 * slash). */
static void make_dir(const char *path) {
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", path);
    char *slash = strrchr(parent, '/');
    if (slash == parent)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    else
        snprintf(parent, sizeof parent, ".");
    int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (pfd < 0)
        return;
    (void)mkdir(path, folder_mode(pfd));
    close(pfd);
}

/* mkdir -p: each missing folder of the path, then the path itself. */
static void make_dirs(char *path) {
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (access(path, F_OK) != 0)
                make_dir(path);
            *p = '/';
        }
    make_dir(path);
}

blvl_status blvl__http_cache_open_warn(blvl__cache **out, const char *dir, uint64_t max_bytes,
                                       const blvl_allocator *a, blvl_warn_fn warn, void *warn_user,
                                       blvl_error *err) {
    *out = NULL;
    blvl__cache *c = blvl__calloc(a, sizeof *c);
    if (!c)
        return blvl__nomem(err, "the cache");
    if (a)
        c->a = *a;
    c->dirfd = -1;
    c->tmpfd = -1;
    c->warn = warn;
    c->warn_user = warn_user;
    c->max_bytes = max_bytes ? max_bytes : CACHE_DEFAULT_MAX;
    /* The directory itself is the caller's choice, followed if it is a symlink; everything
     * under it is opened without following one. */
    if (cache_path(dir, c->path, sizeof c->path)) {
        make_dirs(c->path);
        c->dirfd = open(c->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    }
    if (c->dirfd >= 0) {
        (void)mkdirat(c->dirfd, "sections", folder_mode(c->dirfd));
        (void)mkdirat(c->dirfd, "tables", folder_mode(c->dirfd));
        c->tmpfd = open_tmp(c);
        clean_tmp(c);
        c->bytes = list_all(c, NULL);
    }
    *out = c;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl__http_cache_open(blvl__cache **out, const char *dir, uint64_t max_bytes,
                                  const blvl_allocator *a, blvl_error *err) {
    return blvl__http_cache_open_warn(out, dir, max_bytes, a, NULL, NULL, err);
}

void blvl__http_cache_close(blvl__cache *c) {
    if (!c)
        return;
    if (c->tmpfd >= 0)
        close(c->tmpfd);
    if (c->dirfd >= 0)
        close(c->dirfd);
    blvl_allocator a = c->a;
    blvl__dealloc(&a, c, sizeof *c);
}

bool blvl__http_cache_get_section(blvl__cache *c, const uint8_t digest[BLVL_DIGEST_SIZE], void *buf,
                                  uint64_t size) {
    if (!c || c->dirfd < 0 || size > SIZE_MAX)
        return false;
    char rel[REL_MAX];
    section_rel(digest, rel);
    uint64_t file_size;
    entry_state st = read_entry(c, rel, buf, size, NULL, 0, &file_size);
    if (st == ENTRY_MISSING || st == ENTRY_FOREIGN) /* a FOREIGN one is replaced by the put */
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

void blvl__http_cache_put_section(blvl__cache *c, const uint8_t digest[BLVL_DIGEST_SIZE],
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
    if (c->tmpfd < 0)
        return false;
    const char *leaf;
    int pfd = open_parent(c, rel, &leaf, true);
    if (pfd < 0)
        return false;
    char tmp[REL_MAX];
    uint8_t *buf = blvl__alloc(&c->a, COPY_PIECE);
    int out = buf ? new_temp(c, tmp) : -1;
    if (out < 0) {
        blvl__dealloc(&c->a, buf, COPY_PIECE);
        close(pfd);
        return false;
    }
    blvl_hasher h;
    blvl__payload_hasher_init(&h);
    bool ok = true;
    for (uint64_t done = 0; ok && done < size;) {
        size_t n = size - done > COPY_PIECE ? COPY_PIECE : (size_t)(size - done);
        ok = read_all(fd, buf, n, off + done) && write_all(out, buf, n);
        if (ok)
            blvl__payload_hasher_update(&h, buf, n);
        done += n;
    }
    blvl__dealloc(&c->a, buf, COPY_PIECE);
    uint8_t got[BLVL_DIGEST_SIZE];
    blvl__payload_hasher_final(&h, got);
    ok = ok && memcmp(got, digest, BLVL_DIGEST_SIZE) == 0;
    return finish_entry(c, out, ok, tmp, pfd, leaf, rel);
}

void blvl__http_cache_put_section_fd(blvl__cache *c, const uint8_t digest[BLVL_DIGEST_SIZE], int fd,
                                     uint64_t off, uint64_t size) {
    if (!c || c->dirfd < 0 || size > c->max_bytes)
        return;
    char rel[REL_MAX];
    section_rel(digest, rel);
    if (already_there(c, rel, size))
        return;
    if (!copy_entry(c, rel, digest, fd, off, size) &&
        !(tmp_remade(c) && copy_entry(c, rel, digest, fd, off, size)))
        return;
    c->bytes += size;
    if (c->bytes > c->max_bytes)
        evict(c);
}

bool blvl__http_cache_get_section_fd(blvl__cache *c, const uint8_t digest[BLVL_DIGEST_SIZE],
                                     uint64_t size, int out) {
    if (!c || c->dirfd < 0)
        return false;
    char rel[REL_MAX];
    section_rel(digest, rel);
    /* As read_entry opens one: no symlink followed on the way, looked at first, non-blocking. */
    const char *leaf;
    int pfd = open_parent(c, rel, &leaf, false);
    if (pfd < 0)
        return false;
    struct stat sb;
    int fd = -1;
    if (fstatat(pfd, leaf, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode))
        fd = openat(pfd, leaf, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    close(pfd);
    if (fd < 0)
        return false;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return false;
    }
    uint64_t file_size = (uint64_t)sb.st_size;
    uint8_t *buf = blvl__alloc(&c->a, COPY_PIECE);
    bool damaged = file_size != size, written = true; /* a failed write is not the entry's */
    blvl_hasher h;
    blvl__payload_hasher_init(&h);
    for (uint64_t done = 0; buf && !damaged && written && done < size;) {
        size_t n = size - done > COPY_PIECE ? COPY_PIECE : (size_t)(size - done);
        damaged = !read_all(fd, buf, n, done);
        if (damaged)
            break;
        blvl__payload_hasher_update(&h, buf, n);
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
        blvl__payload_hasher_final(&h, got);
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
    if (blvl__container_header_decode(buf, &h, NULL) != BLVL_OK || h.floor != size ||
        memcmp(h.identity, identity, BLVL_DIGEST_SIZE) != 0 ||
        memcmp(h.table_digest, table_digest, BLVL_DIGEST_SIZE) != 0)
        return false;
    uint8_t got[BLVL_DIGEST_SIZE];
    blvl_compute_table_digest(buf + h.table_offset, h.count, h.floor, h.table_offset, got);
    return memcmp(got, table_digest, BLVL_DIGEST_SIZE) == 0;
}

bool blvl__http_cache_get_table(blvl__cache *c, const uint8_t identity[BLVL_DIGEST_SIZE],
                                const uint8_t table_digest[BLVL_DIGEST_SIZE], void *buf,
                                uint64_t size) {
    if (!c || c->dirfd < 0 || size < BLVL_HEADER_SIZE || size > BLVL_FLOOR_MAX)
        return false;
    char rel[REL_MAX];
    table_rel(identity, table_digest, rel);
    uint8_t tail[BLVL_DIGEST_SIZE], got[BLVL_DIGEST_SIZE];
    uint64_t file_size;
    entry_state st = read_entry(c, rel, buf, size, tail, sizeof tail, &file_size);
    if (st == ENTRY_MISSING || st == ENTRY_FOREIGN) /* a FOREIGN one is replaced by the put */
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

void blvl__http_cache_put_table(blvl__cache *c, const uint8_t identity[BLVL_DIGEST_SIZE],
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

uint64_t blvl__http_cache_bytes(const blvl__cache *c) {
    if (!c || c->dirfd < 0)
        return 0;
    return list_all(c, NULL);
}
