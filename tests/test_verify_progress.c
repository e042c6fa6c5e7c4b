/* blvl_verify's progress hook: called on the calling thread, never past the total, ending at
 * the total (packed bytes hashed plus raw bytes inflated), for mapped and callback sources. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/blvl.h"
#include "check.h"

typedef struct seen {
    uint64_t last, total;
    int calls, backwards, past, other_thread;
    pthread_t self;
} seen;

static void progress(void *user, uint64_t done, uint64_t total) {
    seen *s = user;
    s->calls++;
    s->backwards += done < s->last;
    s->past += done > total;
    s->other_thread += !pthread_equal(pthread_self(), s->self);
    s->last = done;
    s->total = total;
}

typedef struct mem {
    const uint8_t *p;
    size_t n;
} mem;

static int mem_read(void *user, uint64_t off, void *buf, size_t len) {
    const mem *m = user;
    if (off > m->n || len > m->n - off)
        return -1;
    memcpy(buf, m->p + off, len);
    return 0;
}

int main(void) {
    /* 9 MiB of text (three chunks) and a small raw section */
    size_t big = 9u << 20;
    uint8_t *text = malloc(big);
    for (size_t i = 0; i < big; i++)
        text[i] = (uint8_t)("abcdefgh"[(i * 7 + i / 13) % 8]);
    uint8_t small[100];
    for (size_t i = 0; i < sizeof small; i++)
        small[i] = (uint8_t)(i * 37 + 11);
    blvl_section_in in[2] = {{"eds.text", 0, 0, text, big}, {"eds.small", 0, 0, small, 100}};
    void *file;
    size_t size;
    blvl_error err;
    blvl_options wo = {0};
    wo.threads = 2;
    CHECK_EQ_INT(blvl_write_memory(&file, &size, in, 2, &wo, &err), BLVL_OK);

    char path[] = "/tmp/blvl-progress-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, file, size) == (ssize_t)size);
    close(fd);

    for (int mode = 0; mode < 2; mode++) {
        for (unsigned threads = 1; threads <= 2; threads++) {
            seen s = {0};
            s.self = pthread_self();
            blvl_options opt = {0};
            opt.threads = threads;
            opt.progress = progress;
            opt.progress_user = &s;
            blvl_level *lv = NULL;
            mem m = {file, size};
            blvl_source src = {.read = mem_read, .size = size, .user = &m};
            CHECK_EQ_INT(mode == 0 ? blvl_open_file(&lv, path, &opt, &err)
                                   : blvl_open_source(&lv, &src, &opt, &err),
                         BLVL_OK);
            CHECK_EQ_INT(blvl_verify(lv, &err), BLVL_OK);
            uint64_t work = 0;
            for (uint32_t i = 0; i < blvl_count(lv); i++)
                work += blvl_entry_at(lv, i)->packed_size + blvl_entry_at(lv, i)->raw_size;
            CHECK(s.calls > 0);
            CHECK_EQ_INT(s.total, work);
            CHECK_EQ_INT(s.backwards, 0);
            CHECK_EQ_INT(s.past, 0);
            CHECK_EQ_INT(s.other_thread, 0);
            CHECK_EQ_INT(s.last, work); /* the end, whichever worker took the last job */
            blvl_close(lv);
        }
    }
    unlink(path);
    blvl_free(NULL, file);
    free(text);
    return check_report("test_verify_progress");
}
