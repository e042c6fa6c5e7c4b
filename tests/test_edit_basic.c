/* In-place edits on real files: add, replace, drop; refusals; filling the reserved region
 * until it has no room; the unreferenced-bytes limit; and the compacting rewrite, which keeps
 * the identity and carries sections it does not understand, flags and version included. */
#include "blvl/blvl.h"
#include "check.h"
#include "container_fixture.h"

typedef struct facts {
    uint8_t identity[16], table_digest[16];
    uint32_t count, capacity;
    uint8_t head[24], tail[16]; /* header bytes 0..24 and 48..64 */
} facts;

static facts get_facts(const char *path) {
    facts f;
    memset(&f, 0, sizeof f);
    blvl_level *lv;
    blvl_error e;
    blvl_status st = blvl_open_file(&lv, path, NULL, &e);
    CHECK_EQ_INT(st, BLVL_OK);
    if (st != BLVL_OK) {
        fprintf(stderr, "%s\n", e.message);
        return f;
    }
    CHECK_EQ_INT(blvl_verify(lv, &e), BLVL_OK);
    blvl_info i;
    blvl_get_info(lv, &i);
    memcpy(f.identity, i.identity, 16);
    memcpy(f.table_digest, i.table_digest, 16);
    f.count = i.count;
    f.capacity = i.capacity;
    blvl_close(lv);
    size_t n;
    uint8_t *b = fx_read_file(path, &n);
    memcpy(f.head, b, 24);
    memcpy(f.tail, b + 48, 16);
    free(b);
    return f;
}

/* After an edit: same name, same bytes at 0..24 and 48..64, a new table digest. */
static void check_edit(const facts *before, const facts *after) {
    CHECK(memcmp(before->identity, after->identity, 16) == 0);
    CHECK(memcmp(before->head, after->head, 24) == 0);
    CHECK(memcmp(before->tail, after->tail, 16) == 0);
    CHECK(memcmp(before->table_digest, after->table_digest, 16) != 0);
}

static int section_is(const char *path, const char *tag, const void *data, size_t n,
                      uint32_t version, uint32_t flags) {
    blvl_level *lv;
    blvl_error e;
    if (blvl_open_file(&lv, path, NULL, &e) != BLVL_OK)
        return 0;
    const blvl_entry *en = blvl_find(lv, tag);
    blvl_bytes s;
    int ok = en && en->version == version && en->flags == flags &&
             blvl_read(lv, tag, &s, &e) == BLVL_OK && s.size == n &&
             (n == 0 || memcmp(s.data, data, n) == 0);
    if (en && ok)
        blvl_bytes_free(&s);
    blvl_close(lv);
    return ok;
}

static char *base_level(void) {
    blvl_section_in s[4] = {
        {"meta", 0, 0, "meta bytes", 10},
        {"sim", 0, 0, "sim bytes", 9},
        {"eds.blocks", 5, BLVL_ENTRY_FLAG_IDENTITY, "game blocks", 11},
        {"x.thumb", 7, 0, "thumbnail", 9},
    };
    char *path = fx_temp_file("", 0);
    blvl_error e;
    CHECK_EQ_INT(blvl_write_file(path, s, 4, NULL, &e), BLVL_OK);
    return path;
}

static void add_replace_drop(void) {
    char *path = base_level();
    blvl_error e;
    facts f0 = get_facts(path), f1;
    CHECK_EQ_INT(blvl_edit_put(path, "x.new", 2, "fresh", 5, NULL, &e), BLVL_OK);
    f1 = get_facts(path);
    check_edit(&f0, &f1);
    CHECK_EQ_INT(f1.count, 5);
    CHECK(section_is(path, "x.new", "fresh", 5, 2, 0));
    CHECK(section_is(path, "x.thumb", "thumbnail", 9, 7, 0));
    CHECK(section_is(path, "eds.blocks", "game blocks", 11, 5, 1));

    f0 = f1;
    CHECK_EQ_INT(blvl_edit_put(path, "x.thumb", 8, "a new thumbnail", 15, NULL, &e), BLVL_OK);
    f1 = get_facts(path);
    check_edit(&f0, &f1);
    CHECK_EQ_INT(f1.count, 5);
    CHECK(section_is(path, "x.thumb", "a new thumbnail", 15, 8, 0));

    f0 = f1;
    CHECK_EQ_INT(blvl_edit_drop(path, "x.new", NULL, &e), BLVL_OK);
    f1 = get_facts(path);
    check_edit(&f0, &f1);
    CHECK_EQ_INT(f1.count, 4);

    /* refusals leave the file alone */
    size_t n0, n1;
    uint8_t *b0 = fx_read_file(path, &n0);
    CHECK_EQ_INT(blvl_edit_put(path, "meta", 0, "x", 1, NULL, &e), BLVL_E_IDENTITY_SECTION);
    CHECK(strstr(e.message, "identity-section:") == e.message);
    CHECK_EQ_INT(blvl_edit_put(path, "eds.blocks", 0, "x", 1, NULL, &e), BLVL_E_IDENTITY_SECTION);
    CHECK_EQ_INT(blvl_edit_drop(path, "eds.blocks", NULL, &e), BLVL_E_IDENTITY_SECTION);
    CHECK_EQ_INT(blvl_edit_drop(path, "sim", NULL, &e), BLVL_E_IDENTITY_SECTION);
    CHECK_EQ_INT(blvl_edit_put(path, "newcore", 0, "x", 1, NULL, &e), BLVL_E_IDENTITY_SECTION);
    CHECK_EQ_INT(blvl_edit_drop(path, "x.gone", NULL, &e), BLVL_E_NOT_FOUND);
    CHECK_EQ_INT(blvl_edit_put(path, "X.bad", 0, "x", 1, NULL, &e), BLVL_E_WRITE_TAG);
    CHECK_EQ_INT(blvl_edit_put("/nonexistent/level.blvl", "x.a", 0, "x", 1, NULL, &e), BLVL_E_IO);
    uint8_t *b1 = fx_read_file(path, &n1);
    CHECK(n0 == n1 && memcmp(b0, b1, n0) == 0);
    free(b0);
    free(b1);
    /* a damaged file is refused before anything is written */
    char *bad = fx_temp_file("BLVL\r\n\x1a\n\2\0\0\0", 12);
    CHECK_EQ_INT(blvl_edit_put(bad, "x.a", 0, "x", 1, NULL, &e), BLVL_E_TRUNCATED);
    unlink(bad);
    free(bad);
    unlink(path);
    free(path);
}

/* Add until the region is full, then replace (which needs a whole new table beside the live
 * one) until that has no room either; `rewrite` then gives a fresh region. */
static void fill_the_region(void) {
    char *path = base_level();
    blvl_error e;
    facts f0 = get_facts(path), f1;
    CHECK_EQ_INT(f0.capacity, 63);
    int added = 0;
    for (int i = 0; i < 100; i++) {
        char tag[16], data[32];
        snprintf(tag, sizeof tag, "x.f%d", i);
        snprintf(data, sizeof data, "payload %d", i);
        blvl_status st = blvl_edit_put(path, tag, (uint32_t)i, data, strlen(data), NULL, &e);
        if (st != BLVL_OK) {
            CHECK_EQ_INT(st, BLVL_E_NO_ROOM);
            CHECK(strstr(e.message, "blvl rewrite") != NULL);
            break;
        }
        added++;
        f1 = get_facts(path);
        check_edit(&f0, &f1);
        f0 = f1;
    }
    CHECK_EQ_INT(added, 63 - 4);
    CHECK_EQ_INT(f0.count, 63);
    /* full: a replacement has nowhere to put its table */
    CHECK_EQ_INT(blvl_edit_put(path, "x.thumb", 1, "t", 1, NULL, &e), BLVL_E_NO_ROOM);
    /* dropping the last entry only shortens the live table */
    CHECK_EQ_INT(blvl_edit_drop(path, "x.f58", NULL, &e), BLVL_OK);
    f1 = get_facts(path);
    check_edit(&f0, &f1);
    /* rewrite: same identity, a fresh region, edits work again */
    char *out = fx_temp_file("", 0);
    CHECK_EQ_INT(blvl_rewrite_file(path, out, NULL, NULL, NULL, &e), BLVL_OK);
    facts r = get_facts(out);
    CHECK(memcmp(r.identity, f1.identity, 16) == 0);
    CHECK_EQ_INT(r.count, 62);
    CHECK(r.capacity >= 2 * 62 + 16);
    CHECK_EQ_INT(blvl_edit_put(out, "x.thumb", 1, "t", 1, NULL, &e), BLVL_OK);
    CHECK(section_is(out, "x.thumb", "t", 1, 1, 0));
    CHECK(section_is(out, "x.f57", "payload 57", 10, 57, 0));
    CHECK(section_is(out, "eds.blocks", "game blocks", 11, 5, 1));
    unlink(out);
    free(out);
    unlink(path);
    free(path);
}

/* Replaced payloads stay in the file as unreferenced bytes until `rewrite`. */
static void unreferenced_limit(void) {
    char *path = base_level();
    blvl_error e;
    static uint8_t noise[600000];
    uint32_t x = 1;
    for (size_t i = 0; i < sizeof noise; i++) {
        x = x * 1103515245u + 12345u;
        noise[i] = (uint8_t)(x >> 23);
    }
    CHECK_EQ_INT(blvl_edit_put(path, "x.big", 0, noise, sizeof noise, NULL, &e), BLVL_OK);
    noise[0] ^= 1;
    CHECK_EQ_INT(blvl_edit_put(path, "x.big", 1, noise, sizeof noise, NULL, &e), BLVL_OK);
    noise[0] ^= 1;
    /* a third copy would leave 1.2 MB unreferenced while the edit is in flight */
    size_t n0, n1;
    uint8_t *b0 = fx_read_file(path, &n0);
    CHECK_EQ_INT(blvl_edit_put(path, "x.big", 2, noise, sizeof noise, NULL, &e), BLVL_E_NO_ROOM);
    CHECK(strstr(e.message, "unreferenced") != NULL && strstr(e.message, "rewrite") != NULL);
    uint8_t *b1 = fx_read_file(path, &n1);
    CHECK(n0 == n1 && memcmp(b0, b1, n0) == 0);
    free(b0);
    free(b1);
    /* a section too large for the limit of a small level is refused too */
    static uint8_t huge[1200000];
    memcpy(huge, noise, sizeof noise);
    memcpy(huge + sizeof noise, noise, sizeof huge - sizeof noise);
    CHECK_EQ_INT(blvl_edit_put(path, "x.huge", 0, huge, sizeof huge, NULL, &e), BLVL_E_NO_ROOM);
    char *out = fx_temp_file("", 0);
    CHECK_EQ_INT(blvl_rewrite_file(path, out, NULL, NULL, NULL, &e), BLVL_OK);
    blvl_level *lv;
    CHECK_EQ_INT(blvl_open_file(&lv, out, NULL, &e), BLVL_OK);
    blvl_info info;
    blvl_get_info(lv, &info);
    CHECK(info.unreferenced < 64 * 5);
    blvl_close(lv);
    CHECK_EQ_INT(blvl_edit_put(out, "x.big", 2, noise, sizeof noise, NULL, &e), BLVL_OK);
    CHECK(section_is(out, "x.big", noise, sizeof noise, 2, 0));
    unlink(out);
    free(out);
    unlink(path);
    free(path);
}

static bool drop_thumb(void *user, const blvl_entry *e) {
    (void)user;
    return strcmp(e->tag, "x.thumb") != 0;
}
static bool drop_blocks(void *user, const blvl_entry *e) {
    (void)user;
    return strcmp(e->tag, "eds.blocks") != 0;
}

static void rewrite(void) {
    char *path = base_level();
    blvl_error e;
    size_t n0, n1;
    /* a level fresh from the writer comes back byte for byte */
    char *out = fx_temp_file("", 0);
    CHECK_EQ_INT(blvl_rewrite_file(path, out, NULL, NULL, NULL, &e), BLVL_OK);
    uint8_t *b0 = fx_read_file(path, &n0), *b1 = fx_read_file(out, &n1);
    CHECK(n0 == n1 && memcmp(b0, b1, n0) == 0);
    free(b0);
    free(b1);
    /* after edits, the unknown sections keep flags, version and bytes */
    CHECK_EQ_INT(blvl_edit_put(path, "x.other", 3, "other", 5, NULL, &e), BLVL_OK);
    CHECK_EQ_INT(blvl_edit_put(path, "x.thumb", 9, "thumb 2", 7, NULL, &e), BLVL_OK);
    CHECK_EQ_INT(blvl_rewrite_file(path, out, NULL, NULL, NULL, &e), BLVL_OK);
    facts a = get_facts(path), b = get_facts(out);
    CHECK(memcmp(a.identity, b.identity, 16) == 0);
    CHECK(section_is(out, "eds.blocks", "game blocks", 11, 5, 1));
    CHECK(section_is(out, "x.thumb", "thumb 2", 7, 9, 0));
    CHECK(section_is(out, "x.other", "other", 5, 3, 0));
    CHECK(section_is(out, "meta", "meta bytes", 10, 0, 1));
    /* dropping a section outside identity keeps the name; one inside renames */
    CHECK_EQ_INT(blvl_rewrite_file(path, out, drop_thumb, NULL, NULL, &e), BLVL_OK);
    b = get_facts(out);
    CHECK(memcmp(a.identity, b.identity, 16) == 0);
    CHECK_EQ_INT(b.count, a.count - 1);
    CHECK_EQ_INT(blvl_rewrite_file(path, out, drop_blocks, NULL, NULL, &e), BLVL_OK);
    b = get_facts(out);
    CHECK(memcmp(a.identity, b.identity, 16) != 0);
    /* in place (same path): the result replaces the input atomically */
    CHECK_EQ_INT(blvl_rewrite_file(path, path, NULL, NULL, NULL, &e), BLVL_OK);
    b = get_facts(path);
    CHECK(memcmp(a.identity, b.identity, 16) == 0);
    /* a damaged section is not carried */
    b0 = fx_read_file(path, &n0);
    blvl_level *lv;
    CHECK_EQ_INT(blvl_open_memory(&lv, b0, n0, NULL, &e), BLVL_OK);
    uint64_t off = blvl_find(lv, "x.other")->offset;
    blvl_close(lv);
    b0[off] ^= 1;
    char *bad = fx_temp_file(b0, n0);
    CHECK_EQ_INT(blvl_rewrite_file(bad, out, NULL, NULL, NULL, &e), BLVL_E_SECTION_DIGEST);
    CHECK_EQ_INT(blvl_rewrite_file(bad, out, NULL, NULL, NULL, &e), BLVL_E_SECTION_DIGEST);
    unlink(bad);
    free(bad);
    free(b0);
    unlink(out);
    free(out);
    unlink(path);
    free(path);
}

int main(void) {
    add_replace_drop();
    fill_the_region();
    unreferenced_limit();
    rewrite();
    return check_report("test_edit_basic");
}
