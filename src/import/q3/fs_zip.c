/* .pk3 archives through libzip: the entries' names into the table when added; an entry's bytes
 * on demand, its size bounded and its CRC-32 checked (docs/IMPORT-Q3.md, "The files"). */
#include <string.h>
#include <zip.h>

#include "common/alloc.h"
#include "common/error.h"
#include "fs_internal.h"

static blvl_status zip_refusal(const char *path, const char *field, const char *rule,
                               const char *problem, blvl_error *err) {
    char part[200];
    snprintf(part, sizeof part, "archive %s", path);
    return blvl__fail_source(err, part, field, 0, rule, "%s", problem);
}

blvl_status blvl__import_q3_fs_add_zip(blvl_q3_fs *fs, const char *path, blvl_error *err) {
    int code = 0;
    zip_t *z = zip_open(path, ZIP_RDONLY, &code);
    if (!z) {
        zip_error_t ze;
        zip_error_init_with_code(&ze, code);
        char problem[160];
        snprintf(problem, sizeof problem, "not a zip archive libzip can read: %s",
                 zip_error_strerror(&ze));
        zip_error_fini(&ze);
        if (code == ZIP_ER_OPEN || code == ZIP_ER_READ || code == ZIP_ER_NOENT)
            return blvl__fail(err, BLVL_E_IO, "%s: cannot read the archive", path);
        return zip_refusal(path, "central directory", "zip", problem, err);
    }
    zip_int64_t n = zip_get_num_entries(z, 0);
    if (n < 0 || n > BLVL_Q3_MAX_ARCHIVE_FILES) {
        zip_discard(z);
        char problem[96];
        snprintf(problem, sizeof problem, "%lld entries, more than the %d allowed", (long long)n,
                 BLVL_Q3_MAX_ARCHIVE_FILES);
        return zip_refusal(path, "central directory", "archive-files", problem, err);
    }
    uint32_t src;
    blvl_status st = blvl__import_q3_fs_add_source(fs, z, path, &src, err);
    if (st) {
        zip_discard(z);
        return st;
    }
    for (zip_int64_t i = 0; i < n; i++) {
        /* The bytes as stored: the engine compares the names it is given, no code page. */
        const char *name = zip_get_name(z, (zip_uint64_t)i, ZIP_FL_ENC_RAW);
        if (!name)
            continue; /* a deleted entry: none in a read-only archive, but harmless */
        size_t len = strlen(name);
        if (len > Q3FS_MAX_NAME) {
            char field[48], problem[96];
            snprintf(field, sizeof field, "entry %lld name", (long long)i);
            snprintf(problem, sizeof problem, "%zu bytes, more than the %u allowed", len,
                     Q3FS_MAX_NAME);
            return zip_refusal(path, field, "entry-name", problem, err);
        }
        if (!blvl__import_q3_fs_name_ok(name))
            continue; /* a folder entry */
        if ((st = blvl__import_q3_fs_put(fs, name, src, (uint64_t)i, NULL, err)))
            return st;
    }
    return BLVL_OK;
}

static blvl_status entry_refusal(const char *path, const char *name, const char *rule,
                                 const char *problem, blvl_error *err) {
    char field[Q3FS_MAX_NAME + 16];
    snprintf(field, sizeof field, "entry %s", name);
    return zip_refusal(path, field, rule, problem, err);
}

blvl_status blvl__import_q3_fs_read_zip(const blvl_q3_fs *fs, const q3fs_entry *e, uint8_t **data,
                                        size_t *size, blvl_error *err) {
    const q3fs_source *s = &fs->sources[e->source];
    zip_stat_t zs;
    zip_stat_init(&zs);
    if (zip_stat_index(s->zip, e->index, ZIP_FL_ENC_RAW, &zs) != 0 || !(zs.valid & ZIP_STAT_SIZE))
        return entry_refusal(s->path, e->name, "zip", "no size in the central directory", err);
    if (zs.size > BLVL_Q3_MAX_FILE) {
        char problem[96];
        snprintf(problem, sizeof problem, "%llu bytes, more than the %u allowed",
                 (unsigned long long)zs.size, BLVL_Q3_MAX_FILE);
        return entry_refusal(s->path, e->name, "file-size", problem, err);
    }
    zip_file_t *f = zip_fopen_index(s->zip, e->index, 0);
    if (!f) {
        zip_error_t *ze = zip_get_error(s->zip);
        int code = zip_error_code_zip(ze);
        const char *rule = code == ZIP_ER_NOPASSWD || code == ZIP_ER_ENCRNOTSUPP ? "encrypted"
                           : code == ZIP_ER_COMPNOTSUPP                          ? "compression"
                                                                                 : "zip";
        return entry_refusal(s->path, e->name, rule, zip_error_strerror(ze), err);
    }
    size_t n = (size_t)zs.size;
    uint8_t *buf = blvl__alloc_sized(&fs->opt.allocator, n ? n : 1);
    if (!buf) {
        zip_fclose(f);
        return blvl__nomem(err, "%s: %zu bytes", e->name, n);
    }
    size_t got = 0;
    blvl_status st = BLVL_OK;
    while (got < n) {
        zip_int64_t r = zip_fread(f, buf + got, n - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    /* libzip checks the CRC-32 when the stream reaches its end: read past the stated size so it
     * does, and so a stream longer than its stated size is seen. */
    uint8_t extra;
    zip_int64_t r = got == n ? zip_fread(f, &extra, 1) : -1;
    if (r != 0) {
        zip_error_t *ze = zip_file_get_error(f);
        int code = zip_error_code_zip(ze);
        char problem[160];
        if (code == ZIP_ER_CRC)
            st = entry_refusal(s->path, e->name, "crc",
                               "the inflated bytes do not match the stored CRC-32", err);
        else if (r > 0 || (code == ZIP_ER_OK && got < n)) {
            snprintf(problem, sizeof problem,
                     "the data holds %s than the %zu bytes the central directory states",
                     r > 0 ? "more" : "fewer", n);
            st = entry_refusal(s->path, e->name, "entry-size", problem, err);
        } else {
            snprintf(problem, sizeof problem, "cannot inflate: %s", zip_error_strerror(ze));
            st = entry_refusal(s->path, e->name, "entry-data", problem, err);
        }
    }
    zip_fclose(f);
    if (st) {
        blvl__free_sized(&fs->opt.allocator, buf);
        return st;
    }
    *data = buf;
    *size = n;
    return BLVL_OK;
}
