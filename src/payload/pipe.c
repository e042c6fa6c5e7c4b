#include "payload/pipe.h"

#include <pthread.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "common/pool.h"
#include "payload/codec.h"
#include "payload/payload.h"

/* Slots in flight: one being filled, one per worker encoding, one encoded and waiting to be
 * written. Fewer would leave a worker idle while the caller writes. */
#define EXTRA_SLOTS 2u

typedef struct slot {
    blvl_pipe_slot pub;
    uint8_t *out; /* BLVL_CHUNK_MAX - 1 bytes: a kept frame is smaller than its chunk */
    int done;
} slot;

typedef struct worker {
    blvl_pipe *p;
    blvl_codec codec;
    pthread_t tid;
} worker;

struct blvl_pipe {
    const blvl_allocator *a;
    unsigned nworkers; /* threads running; 0: encode on the caller's thread */
    unsigned nalloc;   /* entries of `workers` (at least 1: the caller's codec) */
    unsigned nslots;
    slot *slots;
    worker *workers;
    /* Sequence numbers: slots [tail, head) are submitted, [tail, next) taken by workers. */
    uint64_t head, tail, next;
    int stop, sync; /* sync: pthread objects initialised */
    pthread_mutex_t lock;
    pthread_cond_t work; /* a slot was submitted, or stop */
    pthread_cond_t done; /* a slot was encoded */
};

static void encode(slot *s, blvl_codec *c) {
    blvl_pipe_slot *ps = &s->pub;
    ps->status = BLVL_OK;
    ps->err.code = BLVL_OK;
    ps->err.message[0] = '\0';
    ps->codec = 0;
    ps->packed_size = 0;
    ps->packed = ps->raw;
    if (ps->raw_size == 0)
        return;
    ps->status = blvl__payload_codec_chunk(c, ps->raw, ps->raw_size, s->out, &ps->codec,
                                           &ps->packed_size, &ps->err);
    if (ps->status == BLVL_OK && ps->codec == BLVL_CODEC_ZSTD)
        ps->packed = s->out;
}

static void *worker_main(void *arg) {
    worker *w = arg;
    blvl_pipe *p = w->p;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->stop && p->next == p->head)
            pthread_cond_wait(&p->work, &p->lock);
        if (p->stop)
            break;
        slot *s = &p->slots[p->next++ % p->nslots];
        pthread_mutex_unlock(&p->lock);
        encode(s, &w->codec);
        pthread_mutex_lock(&p->lock);
        s->done = 1;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

blvl_status blvl__payload_pipe_new(blvl_pipe **out, unsigned threads, const blvl_allocator *a,
                                   blvl_error *err) {
    *out = NULL;
    unsigned nw = blvl__threads(threads);
    if (nw < 2)
        nw = 0; /* one thread: the caller encodes, no worker to wait for */
    blvl_pipe *p = blvl__calloc(a, sizeof *p);
    if (!p)
        return blvl__nomem(err, "a writer");
    p->a = a;
    p->nalloc = nw ? nw : 1;
    p->nslots = nw ? nw + EXTRA_SLOTS : 1;
    p->slots = blvl__calloc(a, p->nslots * sizeof *p->slots);
    p->workers = blvl__calloc(a, p->nalloc * sizeof *p->workers);
    if (!p->slots || !p->workers) {
        blvl__payload_pipe_free(p);
        return blvl__nomem(err, "a writer");
    }
    for (unsigned i = 0; i < p->nalloc; i++) {
        p->workers[i].p = p;
        blvl__payload_codec_init(&p->workers[i].codec, a);
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    p->sync = 1;
    /* A thread the system refuses is not an error: fewer workers share the chunks, and with
     * none the caller encodes with the first codec. */
    for (unsigned i = 0; i < nw; i++) {
        if (pthread_create(&p->workers[i].tid, NULL, worker_main, &p->workers[i]) != 0)
            break;
        p->nworkers++;
    }
    *out = p;
    return BLVL_OK;
}

void blvl__payload_pipe_free(blvl_pipe *p) {
    if (!p)
        return;
    const blvl_allocator *a = p->a;
    if (p->sync) {
        pthread_mutex_lock(&p->lock);
        p->stop = 1;
        pthread_cond_broadcast(&p->work);
        pthread_mutex_unlock(&p->lock);
        for (unsigned i = 0; i < p->nworkers; i++)
            pthread_join(p->workers[i].tid, NULL);
        pthread_mutex_destroy(&p->lock);
        pthread_cond_destroy(&p->work);
        pthread_cond_destroy(&p->done);
    }
    if (p->workers)
        for (unsigned i = 0; i < p->nalloc; i++)
            blvl__payload_codec_free(&p->workers[i].codec);
    if (p->slots)
        for (unsigned i = 0; i < p->nslots; i++) {
            blvl__dealloc(a, p->slots[i].pub.raw, BLVL_CHUNK_MAX);
            blvl__dealloc(a, p->slots[i].out, BLVL_CHUNK_MAX - 1);
        }
    blvl__dealloc(a, p->slots, p->nslots * sizeof *p->slots);
    blvl__dealloc(a, p->workers, p->nalloc * sizeof *p->workers);
    blvl__dealloc(a, p, sizeof *p);
}

int blvl__payload_pipe_full(const blvl_pipe *p) {
    return p->head - p->tail == p->nslots;
}

blvl_status blvl__payload_pipe_slot(blvl_pipe *p, blvl_pipe_slot **out, blvl_error *err) {
    slot *s = &p->slots[p->head % p->nslots];
    /* Buffers on first use: a level of a few small sections never needs the whole ring. */
    if (!s->pub.raw && !(s->pub.raw = blvl__alloc(p->a, BLVL_CHUNK_MAX)))
        return blvl__nomem(err, "a chunk");
    if (!s->out && !(s->out = blvl__alloc(p->a, BLVL_CHUNK_MAX - 1)))
        return blvl__nomem(err, "a chunk");
    s->pub.raw_size = 0;
    s->done = 0;
    *out = &s->pub;
    return BLVL_OK;
}

void blvl__payload_pipe_submit(blvl_pipe *p) {
    slot *s = &p->slots[p->head % p->nslots];
    if (p->nworkers == 0) {
        encode(s, &p->workers[0].codec);
        s->done = 1;
        p->head++;
        p->next = p->head;
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->head++;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->lock);
}

blvl_pipe_slot *blvl__payload_pipe_oldest(blvl_pipe *p) {
    if (p->tail == p->head)
        return NULL;
    slot *s = &p->slots[p->tail % p->nslots];
    if (p->nworkers) {
        pthread_mutex_lock(&p->lock);
        while (!s->done)
            pthread_cond_wait(&p->done, &p->lock);
        pthread_mutex_unlock(&p->lock);
    }
    return &s->pub;
}

void blvl__payload_pipe_release(blvl_pipe *p) {
    if (p->tail < p->head)
        p->tail++;
}

size_t blvl__payload_pipe_footprint(blvl_pipe *p, size_t *codec_bytes) {
    size_t slots = 0, codecs = 0;
    for (unsigned i = 0; i < p->nslots; i++)
        slots +=
            (p->slots[i].pub.raw ? BLVL_CHUNK_MAX : 0) + (p->slots[i].out ? BLVL_CHUNK_MAX - 1 : 0);
    for (unsigned i = 0; i < p->nalloc; i++)
        codecs += blvl__payload_codec_footprint(&p->workers[i].codec);
    if (codec_bytes)
        *codec_bytes = codecs;
    return slots + codecs;
}

void blvl__payload_pipe_legacy_codec(blvl_pipe *p) {
    for (unsigned i = 0; i < p->nalloc; i++)
        p->workers[i].codec.legacy = 1;
}

void blvl__payload_pipe_draft_codec(blvl_pipe *p) {
    for (unsigned i = 0; i < p->nalloc; i++)
        p->workers[i].codec.draft = 1;
}
