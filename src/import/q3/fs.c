/* blvl_q3_fs: the table of names of a search path. Every name is kept once, by its lower-cased
 * form with '\\' read as '/'; a later entry of the same name replaces the earlier one, as the
 * engine's search path does (docs/IMPORT-Q3.md, "The files"). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zip.h>

#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"
#include "fs_internal.h"

static char lower(char c) {
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static char norm(char c) {
    return c == '\\' ? '/' : lower(c);
}

/* FNV-1a of the normalised name. */
static uint32_t hash(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)norm(*s)) * 16777619u;
    return h;
}

static int same(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (norm(*a) != norm(*b))
            return 0;
    return *a == *b;
}

int blvl__import_q3_fs_name_ok(const char *name) {
    size_t n = strlen(name);
    return n > 0 && n <= Q3FS_MAX_NAME && name[n - 1] != '/' && name[n - 1] != '\\';
}

blvl_status blvl_q3_fs_new(blvl_q3_fs **out, const blvl_options *opt, blvl_error *err) {
    if (!out)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no place for the search path");
    *out = NULL;
    blvl_options o = {0};
    if (opt)
        o = *opt;
    blvl_q3_fs *fs = blvl__calloc(&o.allocator, sizeof *fs);
    if (!fs)
        return blvl__nomem(err, "the search path");
    fs->opt = o;
    if (pthread_mutex_init(&fs->lock, NULL) != 0) {
        blvl__dealloc(&o.allocator, fs, sizeof *fs);
        return blvl__nomem(err, "the search path's lock");
    }
    *out = fs;
    blvl__ok(err);
    return BLVL_OK;
}

void blvl_q3_fs_free(blvl_q3_fs *fs) {
    if (!fs)
        return;
    const blvl_allocator *a = &fs->opt.allocator;
    for (uint32_t i = 0; i < fs->entry_count; i++) {
        blvl__free_sized(a, fs->entries[i].name);
        if (fs->entries[i].disk)
            blvl__free_sized(a, fs->entries[i].disk);
    }
    for (uint32_t i = 0; i < fs->source_count; i++) {
        if (fs->sources[i].zip)
            zip_discard(fs->sources[i].zip); /* read only: nothing to write back */
        blvl__free_sized(a, fs->sources[i].path);
    }
    if (fs->entries)
        blvl__free_sized(a, fs->entries);
    if (fs->sources)
        blvl__free_sized(a, fs->sources);
    if (fs->slots)
        blvl__free_sized(a, fs->slots);
    pthread_mutex_destroy(&fs->lock);
    blvl__dealloc(a, fs, sizeof *fs);
}

/* Doubles an array of `elem`-byte items to hold at least `need`. */
static int grow(const blvl_allocator *a, void **arr, uint32_t *cap, uint32_t need, size_t elem) {
    size_t c = *cap; /* powers of two from 16: need <= 2^31 keeps them in a uint32 */
    if (need > UINT32_MAX / 2 + 1 || !blvl__array_grow_sized(a, arr, &c, c, need, elem, 16))
        return 0;
    *cap = (uint32_t)c;
    return 1;
}

blvl_status blvl__import_q3_fs_add_source(blvl_q3_fs *fs, struct zip *zip, const char *path,
                                          uint32_t *out, blvl_error *err) {
    const blvl_allocator *a = &fs->opt.allocator;
    char *copy = blvl__strdup(a, path);
    if (!copy || !grow(a, (void **)&fs->sources, &fs->source_cap, fs->source_count + 1,
                       sizeof(q3fs_source))) {
        if (copy)
            blvl__free_sized(a, copy);
        return blvl__nomem(err, "the search path's sources");
    }
    fs->sources[fs->source_count] = (q3fs_source){.zip = zip, .path = copy};
    *out = fs->source_count++;
    return BLVL_OK;
}

/* The slot holding `name`, or the empty slot where it would go. */
static uint32_t find_slot(const blvl_q3_fs *fs, const char *name) {
    uint32_t mask = fs->slot_cap - 1, i = hash(name) & mask;
    while (fs->slots[i] && !same(fs->entries[fs->slots[i] - 1].name, name))
        i = (i + 1) & mask;
    return i;
}

static int rehash(blvl_q3_fs *fs, uint32_t cap) {
    const blvl_allocator *a = &fs->opt.allocator;
    uint32_t *slots = blvl__alloc_sized(a, (size_t)cap * sizeof *slots);
    if (!slots)
        return 0;
    memset(slots, 0, (size_t)cap * sizeof *slots);
    uint32_t *old = fs->slots, old_cap = fs->slot_cap;
    fs->slots = slots;
    fs->slot_cap = cap;
    for (uint32_t i = 0; i < old_cap; i++)
        if (old[i])
            fs->slots[find_slot(fs, fs->entries[old[i] - 1].name)] = old[i];
    if (old)
        blvl__free_sized(a, old);
    return 1;
}

blvl_status blvl__import_q3_fs_put(blvl_q3_fs *fs, const char *name, uint32_t source,
                                   uint64_t index, const char *disk, blvl_error *err) {
    const blvl_allocator *a = &fs->opt.allocator;
    if (fs->entry_count >= Q3FS_MAX_ENTRIES)
        return blvl__fail(err, BLVL_E_SOURCE,
                          "search-path-files: %s: the search path holds more than %u files",
                          fs->sources[source].path, Q3FS_MAX_ENTRIES);
    /* Keep the table at most half full. */
    if ((uint64_t)(fs->live + 1) * 2 > fs->slot_cap &&
        !rehash(fs, fs->slot_cap ? fs->slot_cap * 2 : 1024))
        return blvl__nomem(err, "the search path's names");
    if (!grow(a, (void **)&fs->entries, &fs->entry_cap, fs->entry_count + 1, sizeof(q3fs_entry)))
        return blvl__nomem(err, "the search path's names");
    char *copy = blvl__strdup(a, name), *dcopy = disk ? blvl__strdup(a, disk) : NULL;
    if (!copy || (disk && !dcopy)) {
        if (copy)
            blvl__free_sized(a, copy);
        if (dcopy)
            blvl__free_sized(a, dcopy);
        return blvl__nomem(err, "the search path's names");
    }
    for (char *p = copy; *p; p++)
        if (*p == '\\')
            *p = '/';
    fs->entries[fs->entry_count] =
        (q3fs_entry){.name = copy, .source = source, .index = index, .disk = dcopy};
    uint32_t s = find_slot(fs, copy);
    if (!fs->slots[s])
        fs->live++;
    fs->slots[s] = ++fs->entry_count;
    return BLVL_OK;
}

blvl_status blvl_q3_fs_add(blvl_q3_fs *fs, const char *path, blvl_error *err) {
    if (!fs || !path || !*path)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no search path or no path to add");
    struct stat st;
    if (stat(path, &st) != 0)
        return blvl__fail(err, BLVL_E_IO, "%s: no such file or folder", path);
    blvl_status s = S_ISDIR(st.st_mode) ? blvl__import_q3_fs_add_dir(fs, path, err)
                                        : blvl__import_q3_fs_add_zip(fs, path, err);
    if (s == BLVL_OK)
        blvl__ok(err);
    return s;
}

static const q3fs_entry *lookup(const blvl_q3_fs *fs, const char *name) {
    if (!fs || !name || !fs->slot_cap || strlen(name) > Q3FS_MAX_NAME)
        return NULL;
    uint32_t s = find_slot(fs, name);
    return fs->slots[s] ? &fs->entries[fs->slots[s] - 1] : NULL;
}

bool blvl_q3_fs_exists(const blvl_q3_fs *fs, const char *name) {
    return lookup(fs, name) != NULL;
}

blvl_status blvl_q3_fs_read(void **data, size_t *size, const blvl_q3_fs *fs, const char *name,
                            blvl_error *err) {
    if (!fs || !name || !data || !size)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no search path, name or place for the bytes");
    *data = NULL;
    *size = 0;
    const q3fs_entry *e = lookup(fs, name);
    if (!e)
        return blvl__fail(err, BLVL_E_NOT_FOUND, "%s: in none of the archives and folders given",
                          name);
    blvl_status s;
    uint8_t *bytes = NULL;
    if (e->disk) {
        s = blvl__import_q3_fs_read_disk(fs, e, &bytes, size, err);
    } else {
        pthread_mutex_t *lock = (pthread_mutex_t *)&fs->lock; /* const fs: the lock only */
        pthread_mutex_lock(lock);
        s = blvl__import_q3_fs_read_zip(fs, e, &bytes, size, err);
        pthread_mutex_unlock(lock);
    }
    *data = bytes;
    if (s == BLVL_OK)
        blvl__ok(err);
    return s;
}

/* `name` is under folder `dir` (any depth) and ends in `ext`, both compared without case. */
static int matches(const char *name, const char *dir, const char *ext) {
    size_t n = strlen(name), d = dir ? strlen(dir) : 0, x = ext ? strlen(ext) : 0;
    while (d && (dir[d - 1] == '/' || dir[d - 1] == '\\'))
        d--;
    if (d) {
        if (n <= d + 1 || name[d] != '/')
            return 0;
        for (size_t i = 0; i < d; i++)
            if (norm(name[i]) != norm(dir[i]))
                return 0;
    }
    if (x > n)
        return 0;
    for (size_t i = 0; i < x; i++)
        if (norm(name[n - x + i]) != norm(ext[i]))
            return 0;
    return 1;
}

static int cmp_lower(const void *pa, const void *pb) {
    const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
    for (; *a && norm(*a) == norm(*b); a++, b++)
        ;
    return (int)(uint8_t)norm(*a) - (int)(uint8_t)norm(*b);
}

blvl_status blvl_q3_fs_list(char ***names, size_t *count, const blvl_q3_fs *fs, const char *dir,
                            const char *ext, blvl_error *err) {
    if (!fs || !names || !count)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no search path or no place for the names");
    *names = NULL;
    *count = 0;
    const blvl_allocator *a = &fs->opt.allocator;
    size_t n = 0, bytes = 0;
    for (uint32_t i = 0; i < fs->slot_cap; i++)
        if (fs->slots[i] && matches(fs->entries[fs->slots[i] - 1].name, dir, ext)) {
            n++;
            bytes += strlen(fs->entries[fs->slots[i] - 1].name) + 1;
        }
    /* One buffer: the pointers, then the names they point at (one blvl_free frees it all). */
    char **out = blvl__alloc_sized(a, (n ? n : 1) * sizeof *out + bytes);
    if (!out)
        return blvl__nomem(err, "the list of names");
    char *at = (char *)(out + (n ? n : 1));
    size_t k = 0;
    for (uint32_t i = 0; i < fs->slot_cap && k < n; i++) {
        if (!fs->slots[i] || !matches(fs->entries[fs->slots[i] - 1].name, dir, ext))
            continue;
        size_t len = strlen(fs->entries[fs->slots[i] - 1].name) + 1;
        out[k++] = memcpy(at, fs->entries[fs->slots[i] - 1].name, len);
        at += len;
    }
    if (n > 1)
        qsort(out, n, sizeof *out, cmp_lower);
    *names = out;
    *count = n;
    blvl__ok(err);
    return BLVL_OK;
}

const blvl_options *blvl_q3_fs_options(const blvl_q3_fs *fs) {
    return fs ? &fs->opt : NULL;
}
