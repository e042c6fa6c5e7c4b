/* Golden vectors, in process: libblvl against the levels of tests/golden/,
 * whose bytes and digests were assembled independently
 * (tests/golden/blvlspec.py: b3sum and the zstd tool over hand-assembled bytes;
 * expected values in tests/golden/expected.txt).
 *
 * For every golden level: open it, compare identity, table digest and every
 * entry with the expected values, verify, read every section back to its raw
 * input; write the same inputs and compare the bytes where the level is stored
 * raw (deterministic without zstd), and everywhere when libzstd is the release
 * the vectors were made with (`zstd` line of expected.txt); replay the in-place edits on the base
 * level; then flip EVERY byte of the file once: a flip inside what the level
 * references (header, live table, payloads) must be refused by open or verify,
 * a flip anywhere else (reserved slack, padding, remains of a replaced section)
 * must not be. tests/test_golden.sh checks the same files through the blvl
 * program. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "blvl/blvl.h"
#include "check.h"

#define MAX_LEVELS 16
#define MAX_SECTIONS 16
#define MAX_REFS 16
#define MAX_PUTS 4

typedef struct g_section {
    char tag[17];
    unsigned version, flags;
    unsigned long long raw, packed, offset;
    char digest[33];
    char input[256];
} g_section;

typedef struct g_put {
    char tag[17];
    unsigned version;
    char input[256];
} g_put;

typedef struct g_level {
    char name[32], file[64], identity[33], table_digest[33], base[32];
    int byte_exact;
    unsigned long long size, table_offset;
    unsigned count, nsec, nref, nput, nloose;
    g_section sec[MAX_SECTIONS];
    unsigned long long ref[MAX_REFS][2];
    unsigned long long loose[MAX_REFS][2]; /* flips here may or may not be refused */
    g_put put[MAX_PUTS];
} g_level;

static g_level levels[MAX_LEVELS];
static unsigned nlevels;
static char zstd_made[16]; /* the zstd version the vectors were made with */
static char dir[512];

static g_level *find_level(const char *name) {
    for (unsigned i = 0; i < nlevels; i++)
        if (!strcmp(levels[i].name, name))
            return &levels[i];
    return NULL;
}

static int load_manifest(void) {
    char path[600];
    snprintf(path, sizeof path, "%s/expected.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return -1;
    }
    char line[1024], name[32];
    while (fgets(line, sizeof line, f)) {
        g_level *lv;
        if (sscanf(line, "zstd %15s", zstd_made) == 1) {
            continue;
        } else if (!strncmp(line, "level ", 6)) {
            if (nlevels == MAX_LEVELS)
                break;
            lv = &levels[nlevels];
            if (sscanf(line, "level %31s %63s %32s %32s %d %llu %llu %u", lv->name, lv->file,
                       lv->identity, lv->table_digest, &lv->byte_exact, &lv->size,
                       &lv->table_offset, &lv->count) == 8)
                nlevels++;
        } else if (sscanf(line, "section %31s", name) == 1 && (lv = find_level(name)) &&
                   lv->nsec < MAX_SECTIONS) {
            g_section *s = &lv->sec[lv->nsec];
            if (sscanf(line, "section %*s %16s %u %u %llu %llu %llu %32s %255s", s->tag,
                       &s->version, &s->flags, &s->raw, &s->packed, &s->offset, s->digest,
                       s->input) == 8)
                lv->nsec++;
        } else if (sscanf(line, "ref %31s", name) == 1 && (lv = find_level(name)) &&
                   lv->nref < MAX_REFS) {
            if (sscanf(line, "ref %*s %llu %llu", &lv->ref[lv->nref][0], &lv->ref[lv->nref][1]) ==
                2)
                lv->nref++;
        } else if (sscanf(line, "loose %31s", name) == 1 && (lv = find_level(name)) &&
                   lv->nloose < MAX_REFS) {
            if (sscanf(line, "loose %*s %llu %llu", &lv->loose[lv->nloose][0],
                       &lv->loose[lv->nloose][1]) == 2)
                lv->nloose++;
        } else if (sscanf(line, "put %31s", name) == 1 && (lv = find_level(name)) &&
                   lv->nput < MAX_PUTS) {
            g_put *p = &lv->put[lv->nput];
            if (sscanf(line, "put %*s %16s %u %255s", p->tag, &p->version, p->input) == 3)
                lv->nput++;
        } else if (sscanf(line, "base %31s", name) == 1 && (lv = find_level(name))) {
            sscanf(line, "base %*s %31s", lv->base);
        }
    }
    fclose(f);
    return nlevels ? 0 : -1;
}

static uint8_t *slurp(const char *rel, size_t *size) {
    char path[800];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = (size_t)(n > 0 ? n : 0);
    return buf;
}

static int write_file(const char *path, const uint8_t *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = size ? fwrite(data, 1, size, f) : 0;
    return fclose(f) == 0 && w == size ? 0 : -1;
}

static void hex(const uint8_t d[16], char out[33]) {
    blvl_hex(d, out);
}

/* Open from memory, compare with the expected values, verify, read every
 * section. */
static void check_level(const g_level *lv, const uint8_t *data, size_t size) {
    blvl_error err;
    blvl_level *l = NULL;
    blvl_status st = blvl_open_memory(&l, data, size, NULL, &err);
    if (st != BLVL_OK) {
        fprintf(stderr, "%s: open: %s\n", lv->name, err.message);
        CHECK(st == BLVL_OK);
        return;
    }
    blvl_info info;
    blvl_get_info(l, &info);
    char h[33];
    hex(info.identity, h);
    if (strcmp(h, lv->identity))
        fprintf(stderr, "%s: identity %s, expected %s\n", lv->name, h, lv->identity);
    CHECK(!strcmp(h, lv->identity));
    hex(info.table_digest, h);
    CHECK(!strcmp(h, lv->table_digest));
    CHECK_EQ_INT(info.table_offset, lv->table_offset);
    CHECK_EQ_INT(info.file_size, lv->size);
    CHECK_EQ_INT(blvl_count(l), lv->count);
    /* The library's own identity and table digest functions agree with b3sum. */
    const blvl_entry *all = blvl_count(l) ? blvl_entry_at(l, 0) : NULL;
    uint8_t d[16];
    blvl_compute_identity(all, blvl_count(l), d);
    hex(d, h);
    CHECK(!strcmp(h, lv->identity));
    blvl_compute_table_digest(data + info.table_offset, blvl_count(l), info.floor,
                              (uint32_t)info.table_offset, d);
    hex(d, h);
    CHECK(!strcmp(h, lv->table_digest));
    for (unsigned i = 0; i < lv->nsec && i < blvl_count(l); i++) {
        const g_section *s = &lv->sec[i];
        const blvl_entry *e = blvl_entry_at(l, i);
        CHECK(!strcmp(e->tag, s->tag));
        CHECK_EQ_INT(e->version, s->version);
        CHECK_EQ_INT(e->flags, s->flags);
        CHECK_EQ_INT(e->raw_size, s->raw);
        CHECK_EQ_INT(e->packed_size, s->packed);
        CHECK_EQ_INT(e->offset, s->offset);
        hex(e->digest, h);
        CHECK(!strcmp(h, s->digest));
        size_t in_size = 0;
        uint8_t *in = slurp(s->input, &in_size);
        CHECK(in != NULL);
        blvl_bytes sec = {0};
        st = blvl_read(l, s->tag, &sec, &err);
        if (st != BLVL_OK)
            fprintf(stderr, "%s: read %s: %s\n", lv->name, s->tag, err.message);
        CHECK(st == BLVL_OK);
        if (st == BLVL_OK && in) {
            CHECK_EQ_INT(sec.size, in_size);
            CHECK(sec.size == in_size && (in_size == 0 || !memcmp(sec.data, in, in_size)));
        }
        blvl_bytes_free(&sec);
        free(in);
    }
    st = blvl_verify(l, &err);
    if (st != BLVL_OK)
        fprintf(stderr, "%s: verify: %s\n", lv->name, err.message);
    CHECK(st == BLVL_OK);
    blvl_close(l);
}

/* Write the level from its inputs; stored-raw levels must come out byte for
 * byte. */
static void check_write(const g_level *lv, const uint8_t *golden, size_t golden_size) {
    blvl_section_in in[MAX_SECTIONS];
    uint8_t *bufs[MAX_SECTIONS] = {0};
    for (unsigned i = 0; i < lv->nsec; i++) {
        size_t n = 0;
        bufs[i] = slurp(lv->sec[i].input, &n);
        in[i] = (blvl_section_in){lv->sec[i].tag, lv->sec[i].version, lv->sec[i].flags, bufs[i], n};
    }
    void *out = NULL;
    size_t out_size = 0;
    blvl_error err;
    blvl_status st = blvl_write_memory(&out, &out_size, in, lv->nsec, NULL, &err);
    if (st != BLVL_OK)
        fprintf(stderr, "%s: write: %s\n", lv->name, err.message);
    CHECK(st == BLVL_OK);
    if (st == BLVL_OK) {
        /* With the zstd release the vectors were made with, the zstd chunks are exact too: the
         * codec choice of FORMAT.md §7 and libzstd's frames equal the tool's. */
        if (lv->byte_exact || !strcmp(zstd_made, ZSTD_versionString())) {
            size_t first = 0;
            while (first < out_size && first < golden_size &&
                   ((const uint8_t *)out)[first] == golden[first])
                first++;
            if (out_size != golden_size || first != out_size)
                fprintf(stderr, "%s: written %zu bytes, golden %zu, first difference at %zu\n",
                        lv->name, out_size, golden_size, first);
            CHECK(out_size == golden_size && !memcmp(out, golden, golden_size));
        } else {
            /* zstd chunks of another zstd release may differ from the tool's; the level must
             * still open, verify and read back (identity of its own bytes is checked
             * on open). */
            blvl_level *l = NULL;
            CHECK(blvl_open_memory(&l, out, out_size, NULL, &err) == BLVL_OK);
            if (l) {
                CHECK(blvl_verify(l, &err) == BLVL_OK);
                blvl_close(l);
            }
        }
        blvl_free(NULL, out);
    }
    for (unsigned i = 0; i < lv->nsec; i++)
        free(bufs[i]);
}

/* Replay the in-place edits on a copy of the base level. */
static void check_edits(const g_level *lv) {
    const g_level *base = find_level(lv->base);
    CHECK(base != NULL);
    if (!base)
        return;
    size_t n = 0;
    uint8_t *b = slurp(base->file, &n);
    char path[] = "/tmp/blvl-golden-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && b);
    if (fd < 0 || !b) {
        free(b);
        return;
    }
    close(fd);
    CHECK(write_file(path, b, n) == 0);
    free(b);
    blvl_error err;
    for (unsigned i = 0; i < lv->nput; i++) {
        size_t m = 0;
        uint8_t *p = slurp(lv->put[i].input, &m);
        blvl_status st = blvl_edit_put(path, lv->put[i].tag, lv->put[i].version, p, m, NULL, &err);
        if (st != BLVL_OK)
            fprintf(stderr, "%s: put %s: %s\n", lv->name, lv->put[i].tag, err.message);
        CHECK(st == BLVL_OK);
        free(p);
    }
    blvl_level *l = NULL;
    blvl_status st = blvl_open_file(&l, path, NULL, &err);
    CHECK(st == BLVL_OK);
    if (st == BLVL_OK) {
        blvl_info info;
        blvl_get_info(l, &info);
        char h[33];
        hex(info.identity, h);
        CHECK(!strcmp(h, lv->identity)); /* an edit never renames the level */
        CHECK_EQ_INT(blvl_count(l), lv->nsec);
        for (unsigned i = 0; i < lv->nsec; i++) {
            const blvl_entry *e = blvl_find(l, lv->sec[i].tag);
            CHECK(e != NULL);
            if (!e)
                continue;
            hex(e->digest, h);
            CHECK(!strcmp(h, lv->sec[i].digest));
            CHECK_EQ_INT(e->version, lv->sec[i].version);
            CHECK_EQ_INT(e->flags, lv->sec[i].flags);
            CHECK_EQ_INT(e->packed_size, lv->sec[i].packed);
        }
        CHECK(blvl_verify(l, &err) == BLVL_OK);
        blvl_close(l);
    }
    unlink(path);
}

/* Flip every byte once (three masks in turn): referenced -> refused,
 * unreferenced -> fine, loose (the table offset of an empty table) -> either.
 */
static void check_flips(const g_level *lv, const uint8_t *data, size_t size) {
    uint8_t *copy = malloc(size ? size : 1);
    CHECK(copy != NULL);
    if (!copy)
        return;
    static const uint8_t masks[3] = {0x01, 0x80, 0xFF};
    unsigned missed = 0, wrongly = 0;
    for (size_t pos = 0; pos < size; pos++) {
        int referenced = 0, loose = 0;
        for (unsigned r = 0; r < lv->nref; r++)
            referenced |= pos >= lv->ref[r][0] && pos < lv->ref[r][1];
        for (unsigned r = 0; r < lv->nloose; r++)
            loose |= pos >= lv->loose[r][0] && pos < lv->loose[r][1];
        if (loose)
            continue;
        memcpy(copy, data, size);
        copy[pos] ^= masks[pos % 3];
        blvl_error err;
        blvl_level *l = NULL;
        blvl_status st = blvl_open_memory(&l, copy, size, NULL, &err);
        if (st == BLVL_OK) {
            st = blvl_verify(l, &err);
            blvl_close(l);
        }
        if (referenced && st == BLVL_OK) {
            if (missed++ < 5)
                fprintf(stderr, "%s: flip at %zu (referenced) accepted\n", lv->name, pos);
        } else if (!referenced && st != BLVL_OK) {
            if (wrongly++ < 5)
                fprintf(stderr, "%s: flip at %zu (unreferenced) refused: %s\n", lv->name, pos,
                        err.message);
        }
    }
    CHECK_EQ_INT(missed, 0);
    CHECK_EQ_INT(wrongly, 0);
    free(copy);
}

int main(void) {
    const char *src = getenv("BLVL_SRC");
    snprintf(dir, sizeof dir, "%s/tests/golden", src ? src : ".");
    CHECK(load_manifest() == 0);
    CHECK(nlevels >= 7);
    CHECK(zstd_made[0] != '\0');
    for (unsigned i = 0; i < nlevels; i++) {
        const g_level *lv = &levels[i];
        size_t size = 0;
        uint8_t *data = slurp(lv->file, &size);
        CHECK(data != NULL);
        if (!data)
            continue;
        CHECK_EQ_INT(lv->nsec, lv->count);
        check_level(lv, data, size);
        if (lv->nput)
            check_edits(lv);
        else
            check_write(lv, data, size);
        check_flips(lv, data, size);
        free(data);
    }
    return check_report("test_golden_lib");
}
