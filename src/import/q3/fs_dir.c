/* A directory on the search path: its *.pk3 archives in byte order of their names, then its
 * loose files (which override those archives), as the engine adds a game folder
 * (docs/IMPORT-Q3.md, "The files"). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"
#include "fs_internal.h"

typedef struct names {
    char **v;
    size_t n, cap;
    const blvl_allocator *a;
} names;

static int names_add(names *l, const char *s) {
    if (l->n == l->cap) {
        void *v = l->v;
        if (!blvl__array_grow_sized(l->a, &v, &l->cap, l->n, l->n + 1, sizeof *l->v, 16))
            return 0;
        l->v = v;
    }
    return (l->v[l->n] = blvl__strdup(l->a, s)) ? (l->n++, 1) : 0;
}

static void names_free(names *l) {
    for (size_t i = 0; i < l->n; i++)
        blvl__free_sized(l->a, l->v[i]);
    if (l->v)
        blvl__free_sized(l->a, l->v);
}

static int cmp_bytes(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int is_pk3(const char *name) {
    size_t n = strlen(name);
    return n > 4 && strcasecmp(name + n - 4, ".pk3") == 0;
}

/* The entries of one folder, sorted by byte order (so the table's order does not depend on the
 * file system's). */
static blvl_status list_dir(const char *path, names *out, blvl_error *err) {
    DIR *d = opendir(path);
    if (!d)
        return blvl__fail(err, BLVL_E_IO, "%s: cannot list the folder (%s)", path, strerror(errno));
    struct dirent *de;
    blvl_status st = BLVL_OK;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (!names_add(out, de->d_name)) {
            st = blvl__nomem(err, "%s: the folder's names", path);
            break;
        }
    }
    closedir(d);
    if (!st && out->n > 1)
        qsort(out->v, out->n, sizeof *out->v, cmp_bytes);
    return st;
}

/* Loose files under `disk` (whose name in the game's tree is `rel`, "" at the top). */
static blvl_status walk(blvl_q3_fs *fs, uint32_t src, const char *disk, const char *rel, int depth,
                        blvl_error *err) {
    if (depth > Q3FS_MAX_DEPTH)
        return blvl__fail(err, BLVL_E_SOURCE, "folder-depth: %s: folders nested deeper than %d",
                          disk, Q3FS_MAX_DEPTH);
    names l = {.a = &fs->opt.allocator};
    blvl_status st = list_dir(disk, &l, err);
    size_t dn = strlen(disk), rn = strlen(rel);
    for (size_t i = 0; st == BLVL_OK && i < l.n; i++) {
        const char *leaf = l.v[i];
        if (depth == 0 && is_pk3(leaf))
            continue; /* an archive of this folder, added before */
        size_t ln = strlen(leaf);
        char *p = blvl__alloc_sized(&fs->opt.allocator, dn + ln + 2);
        char *r = blvl__alloc_sized(&fs->opt.allocator, rn + ln + 2);
        if (!p || !r) {
            st = blvl__nomem(err, "%s: a path", disk);
        } else {
            snprintf(p, dn + ln + 2, "%s/%s", disk, leaf);
            snprintf(r, rn + ln + 2, "%s%s%s", rel, rn ? "/" : "", leaf);
            struct stat sb;
            if (stat(p, &sb) != 0)
                ; /* a dangling link: no file */
            else if (S_ISDIR(sb.st_mode))
                st = walk(fs, src, p, r, depth + 1, err);
            else if (S_ISREG(sb.st_mode) && blvl__import_q3_fs_name_ok(r))
                st = blvl__import_q3_fs_put(fs, r, src, 0, p, err);
            else if (S_ISREG(sb.st_mode) && strlen(r) > Q3FS_MAX_NAME)
                st = blvl__fail(err, BLVL_E_SOURCE,
                                "entry-name: %s: its name in the game's tree has %zu bytes, more "
                                "than the %u allowed",
                                p, strlen(r), Q3FS_MAX_NAME);
        }
        if (p)
            blvl__free_sized(&fs->opt.allocator, p);
        if (r)
            blvl__free_sized(&fs->opt.allocator, r);
    }
    names_free(&l);
    return st;
}

blvl_status blvl__import_q3_fs_add_dir(blvl_q3_fs *fs, const char *path, blvl_error *err) {
    names l = {.a = &fs->opt.allocator};
    blvl_status st = list_dir(path, &l, err);
    size_t pn = strlen(path);
    for (size_t i = 0; st == BLVL_OK && i < l.n; i++) {
        if (!is_pk3(l.v[i]))
            continue;
        size_t n = pn + strlen(l.v[i]) + 2;
        char *p = blvl__alloc_sized(&fs->opt.allocator, n);
        if (!p) {
            st = blvl__nomem(err, "%s: a path", path);
            break;
        }
        snprintf(p, n, "%s/%s", path, l.v[i]);
        struct stat sb;
        if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode))
            st = blvl__import_q3_fs_add_zip(fs, p, err);
        blvl__free_sized(&fs->opt.allocator, p);
    }
    names_free(&l);
    uint32_t src;
    if (st == BLVL_OK)
        st = blvl__import_q3_fs_add_source(fs, NULL, path, &src, err);
    if (st == BLVL_OK)
        st = walk(fs, src, path, "", 0, err);
    return st;
}

blvl_status blvl__import_q3_fs_read_disk(const blvl_q3_fs *fs, const q3fs_entry *e, uint8_t **data,
                                         size_t *size, blvl_error *err) {
    FILE *f = fopen(e->disk, "rb");
    if (!f)
        return blvl__fail(err, BLVL_E_IO, "%s: cannot open (%s)", e->disk, strerror(errno));
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fclose(f);
        return blvl__fail(err, BLVL_E_IO, "%s: not a file", e->disk);
    }
    if ((uint64_t)sb.st_size > BLVL_Q3_MAX_FILE) {
        fclose(f);
        return blvl__fail(err, BLVL_E_SOURCE, "file-size: %s: %lld bytes, more than the %u allowed",
                          e->disk, (long long)sb.st_size, BLVL_Q3_MAX_FILE);
    }
    size_t n = (size_t)sb.st_size;
    uint8_t *buf = blvl__alloc_sized(&fs->opt.allocator, n ? n : 1);
    if (!buf) {
        fclose(f);
        return blvl__nomem(err, "%s: %zu bytes", e->disk, n);
    }
    size_t got = fread(buf, 1, n, f);
    int bad = ferror(f) || got != n;
    fclose(f);
    if (bad) {
        blvl__free_sized(&fs->opt.allocator, buf);
        return blvl__fail(err, BLVL_E_IO, "%s: cannot read its %zu bytes", e->disk, n);
    }
    *data = buf;
    *size = n;
    return BLVL_OK;
}
