/* Crash safety of in-place edits. An edit runs against an in-memory file whose operations
 * are counted; for every operation it performs (each write and each flush), a run stops right
 * before that operation. The file left behind is what was durable at the last flush plus any
 * subset of the writes issued since (lost, landed, or some of each, in any combination), and
 * every one of those files must open as exactly the old level or exactly the new one, with
 * every check (blvl_open, blvl_verify) passing. */
#include "blvl/blvl.h"
#include "check.h"
#include "container_fixture.h"

#define MAX_PENDING 8

typedef struct pending_write {
    uint64_t off;
    uint8_t *data;
    size_t len;
} pending_write;

typedef struct memfile {
    uint8_t *durable;
    size_t dsize;
    pending_write pend[MAX_PENDING];
    int npend;
    int ops;     /* operations performed so far (writes and flushes) */
    int stop_at; /* stop before this operation; -1: never */
    int stopped;
    int offset16_written, identity_written;
} memfile;

static void apply(uint8_t **buf, size_t *size, const pending_write *w) {
    if (w->off + w->len > *size) {
        *buf = realloc(*buf, (size_t)(w->off + w->len));
        memset(*buf + *size, 0, (size_t)(w->off + w->len) - *size);
        *size = (size_t)(w->off + w->len);
    }
    memcpy(*buf + w->off, w->data, w->len);
}

/* The current view: durable plus every pending write, in order. */
static uint8_t *view(const memfile *m, size_t *size) {
    uint8_t *b = malloc(m->dsize ? m->dsize : 1);
    memcpy(b, m->durable, m->dsize);
    *size = m->dsize;
    for (int i = 0; i < m->npend; i++)
        apply(&b, size, &m->pend[i]);
    return b;
}

static int m_pread(void *user, void *buf, size_t len, uint64_t off) {
    memfile *m = user;
    size_t size;
    uint8_t *b = view(m, &size);
    int r = off + len <= size ? (memcpy(buf, b + off, len), 0) : -1;
    free(b);
    return r;
}

static int m_pwrite(void *user, const void *buf, size_t len, uint64_t off) {
    memfile *m = user;
    if (m->stopped || m->ops == m->stop_at) {
        m->stopped = 1;
        return -1;
    }
    m->ops++;
    if (off < 24 + 0 && off + len > 16)
        m->offset16_written = 1;
    if (off < 24 && off + len > 16)
        m->offset16_written = 1;
    if (off < 64 && off + len > 48)
        m->identity_written = 1;
    if (m->npend == MAX_PENDING)
        return -1;
    pending_write *w = &m->pend[m->npend++];
    w->off = off;
    w->len = len;
    w->data = malloc(len ? len : 1);
    memcpy(w->data, buf, len);
    return 0;
}

static int m_flush(void *user) {
    memfile *m = user;
    if (m->stopped || m->ops == m->stop_at) {
        m->stopped = 1;
        return -1;
    }
    m->ops++;
    for (int i = 0; i < m->npend; i++) {
        apply(&m->durable, &m->dsize, &m->pend[i]);
        free(m->pend[i].data);
    }
    m->npend = 0;
    return 0;
}

static int m_size(void *user, uint64_t *size) {
    memfile *m = user;
    size_t s;
    free(view(m, &s));
    *size = s;
    return 0;
}

static void m_init(memfile *m, const uint8_t *file, size_t size, int stop_at) {
    memset(m, 0, sizeof *m);
    m->durable = malloc(size);
    memcpy(m->durable, file, size);
    m->dsize = size;
    m->stop_at = stop_at;
}

static void m_free(memfile *m) {
    for (int i = 0; i < m->npend; i++)
        free(m->pend[i].data);
    free(m->durable);
}

/* What a level is, for "exactly the old or the new one". */
typedef struct snapshot {
    uint8_t table_digest[16], identity[16];
    uint32_t count;
    blvl_entry entries[80];
} snapshot;

static int snap(const uint8_t *file, size_t size, snapshot *s) {
    blvl_level *lv;
    blvl_error e;
    if (blvl_open_memory(&lv, file, size, NULL, &e) != BLVL_OK)
        return -1;
    int r = 0;
    if (blvl_verify(lv, &e) != BLVL_OK)
        r = -2;
    blvl_info info;
    blvl_get_info(lv, &info);
    memset(s, 0, sizeof *s);
    memcpy(s->table_digest, info.table_digest, 16);
    memcpy(s->identity, info.identity, 16);
    s->count = info.count;
    for (uint32_t i = 0; i < info.count && i < 80; i++)
        s->entries[i] = *blvl_entry_at(lv, i);
    blvl_close(lv);
    return r;
}

static int same(const snapshot *a, const snapshot *b) {
    return memcmp(a, b, sizeof *a) == 0;
}

typedef blvl_status (*edit_fn)(const blvl_options *opt, blvl_error *err);

static int states_checked;

/* Runs `edit` on `file` with a crash before every operation, checks every outcome, and
 * returns the edited file (malloc) in *out. */
static void crash_everywhere(const char *what, const uint8_t *file, size_t size, edit_fn edit,
                             blvl_status want, uint8_t **out, size_t *out_size) {
    snapshot old_s, new_s;
    CHECK_EQ_INT(snap(file, size, &old_s), 0);
    /* the full run */
    memfile m;
    m_init(&m, file, size, -1);
    blvl_file_ops ops = {m_pread, m_pwrite, m_flush, m_size, &m};
    blvl_options opt = {.threads = 2, .file_ops = &ops};
    blvl_error e;
    blvl_status st = edit(&opt, &e);
    if (st != want)
        fprintf(stderr, "%s: %s\n", what, e.message);
    CHECK_EQ_INT(st, want);
    CHECK_EQ_INT(m.npend, 0); /* everything flushed */
    CHECK(!m.offset16_written && !m.identity_written);
    int total = m.ops;
    *out = m.durable;
    *out_size = m.dsize;
    m.durable = NULL;
    m_free(&m);
    if (want != BLVL_OK) {
        CHECK_EQ_INT(total, 0); /* a refused edit writes nothing */
        return;
    }
    CHECK_EQ_INT(snap(*out, *out_size, &new_s), 0);
    CHECK(memcmp(old_s.identity, new_s.identity, 16) == 0);         /* the name stays */
    CHECK(memcmp(old_s.table_digest, new_s.table_digest, 16) != 0); /* the table does not */
    CHECK(total >= 3); /* at least: table or payload, flush, commit, flush */
    for (int stop = 0; stop < total; stop++) {
        m_init(&m, file, size, stop);
        st = edit(&opt, &e);
        CHECK_EQ_INT(st, BLVL_E_IO);
        CHECK(m.stopped);
        for (unsigned mask = 0; mask < (1u << m.npend); mask++) {
            uint8_t *b = malloc(m.dsize ? m.dsize : 1);
            memcpy(b, m.durable, m.dsize);
            size_t bs = m.dsize;
            for (int i = 0; i < m.npend; i++)
                if (mask & (1u << i))
                    apply(&b, &bs, &m.pend[i]);
            snapshot s;
            int r = snap(b, bs, &s);
            int ok = r == 0 && (same(&s, &old_s) || same(&s, &new_s));
            if (!ok)
                fprintf(stderr, "%s: stop before op %d, pending mask %u of %d: open=%d\n", what,
                        stop, mask, m.npend, r);
            CHECK(ok);
            states_checked++;
            free(b);
        }
        m_free(&m);
    }
}

/* ---- the edits --------------------------------------------------------------------------- */

static const char *g_tag;
static const void *g_data;
static size_t g_size;

static blvl_status do_put(const blvl_options *opt, blvl_error *err) {
    return blvl_edit_put(NULL, g_tag, 9, g_data, g_size, opt, err);
}
static blvl_status do_drop(const blvl_options *opt, blvl_error *err) {
    return blvl_edit_drop(NULL, g_tag, opt, err);
}

static uint8_t *step(const char *what, uint8_t *file, size_t *size, edit_fn fn, const char *tag,
                     const void *data, size_t n, blvl_status want) {
    g_tag = tag;
    g_data = data;
    g_size = n;
    uint8_t *out;
    size_t out_size;
    crash_everywhere(what, file, *size, fn, want, &out, &out_size);
    free(file);
    *size = out_size;
    return out;
}

int main(void) {
    static uint8_t big[300000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (uint8_t)((i * 2654435761u) >> 13);
    char tags[40][16];
    blvl_section_in s[40];
    s[0] = (blvl_section_in){"meta", 0, 0, "m", 1};
    s[1] = (blvl_section_in){"sim", 0, 0, "sim bytes", 9};
    s[2] = (blvl_section_in){"eds.blocks", 5, BLVL_ENTRY_FLAG_IDENTITY, "blocks", 6};
    for (int i = 3; i < 23; i++) {
        snprintf(tags[i], sizeof tags[i], "x.s%02d", i);
        s[i] = (blvl_section_in){tags[i], (uint32_t)i, 0, tags[i], strlen(tags[i])};
    }
    void *file;
    size_t size;
    blvl_error e;
    CHECK_EQ_INT(blvl_write_memory(&file, &size, s, 23, NULL, &e), BLVL_OK);
    /* the steps below hand malloc'd files around: copy the library's buffer into one */
    uint8_t *copy = malloc(size);
    CHECK(copy != NULL);
    memcpy(copy, file, size);
    blvl_free(NULL, file);
    file = copy;
    /* 23 entries in a 4 KiB region (63 slots): the table grows in place, and a whole new table
     * fits after the live one once, then before it, alternating. */
    file = step("add", file, &size, do_put, "x.new", "new!", 4, BLVL_OK);
    file = step("replace 1", file, &size, do_put, "x.s05", big, 1000, BLVL_OK);
    CHECK_EQ_INT(fx_get32(file + 44), 64 + 24 * 64); /* moved after the live table */
    file = step("replace 2", file, &size, do_put, "x.s05", "again", 5, BLVL_OK);
    CHECK_EQ_INT(fx_get32(file + 44), 64); /* and back before it */
    file = step("drop middle", file, &size, do_drop, "x.s10", NULL, 0, BLVL_OK);
    file = step("drop last", file, &size, do_drop, "x.new", NULL, 0, BLVL_OK);
    file = step("add big", file, &size, do_put, "x.big", big, sizeof big, BLVL_OK);
    file = step("add empty", file, &size, do_put, "x.empty", "", 0, BLVL_OK);
    file = step("replace identity", file, &size, do_put, "eds.blocks", "x", 1,
                BLVL_E_IDENTITY_SECTION);
    file = step("drop core", file, &size, do_drop, "sim", NULL, 0, BLVL_E_IDENTITY_SECTION);
    /* drop everything outside identity, one at a time */
    for (int i = 3; i < 23; i++)
        if (i != 10)
            file = step("drop all", file, &size, do_drop, tags[i], NULL, 0, BLVL_OK);
    file = step("drop big", file, &size, do_drop, "x.big", NULL, 0, BLVL_OK);
    file = step("drop empty", file, &size, do_drop, "x.empty", NULL, 0, BLVL_OK);
    CHECK_EQ_INT(fx_get32(file + 40), 3);
    free(file);
    printf("crash states checked: %d\n", states_checked);
    return check_report("test_edit_crash");
}
