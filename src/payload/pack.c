#include "payload/pack.h"

#include <pthread.h>
#include <string.h>

#include "common/alloc.h"
#include "blvl/le.h"
#include "common/error.h"
#include "payload/codec.h"
#include "common/pool.h"

typedef struct chunk_job {
    size_t item;
    uint64_t raw_offset;
    uint32_t raw_size;
    uint32_t packed_size; /* set by the worker */
    uint8_t codec;
    uint8_t *buf; /* the compressed frame, or NULL when the chunk is stored raw */
} chunk_job;

typedef struct pack_ctx {
    blvl_pack_item *items;
    chunk_job *jobs;
    blvl_codec *codec; /* one per worker, encoders created on first use */
    const blvl_allocator *a;
    blvl_progress_fn progress;
    void *progress_user;
    pthread_mutex_t lock; /* serialises progress calls */
    uint64_t done, total;
} pack_ctx;

static blvl_status pack_chunk(void *vctx, unsigned worker, size_t j, blvl_error *err) {
    pack_ctx *p = vctx;
    chunk_job *c = &p->jobs[j];
    const uint8_t *src = p->items[c->item].raw + c->raw_offset;
    /* Room for one byte less than the raw chunk: the codec compresses into its own
     * bound-sized scratch and copies a frame here only when it is smaller than the chunk. */
    c->buf = blvl__alloc(p->a, c->raw_size - 1);
    if (!c->buf)
        return blvl__nomem(err, "a compressed chunk");
    blvl_status st = blvl__payload_codec_chunk(&p->codec[worker], src, c->raw_size, c->buf,
                                               &c->codec, &c->packed_size, err);
    if (st != BLVL_OK || c->codec == BLVL_CODEC_RAW) {
        blvl__dealloc(p->a, c->buf, c->raw_size - 1);
        c->buf = NULL;
        if (st != BLVL_OK)
            return st;
    }
    if (p->progress) {
        pthread_mutex_lock(&p->lock);
        p->done += c->raw_size;
        p->progress(p->progress_user, p->done, p->total);
        pthread_mutex_unlock(&p->lock);
    }
    return BLVL_OK;
}

static void free_jobs(pack_ctx *p, size_t njobs) {
    for (size_t j = 0; j < njobs; j++)
        if (p->jobs[j].buf)
            blvl__dealloc(p->a, p->jobs[j].buf, p->jobs[j].raw_size - 1);
}

static blvl_status assemble(pack_ctx *p, size_t item, size_t first, size_t n, blvl_error *err) {
    blvl_pack_item *it = &p->items[item];
    uint64_t size = 4 + (uint64_t)n * BLVL_CHUNK_INDEX_ENTRY;
    for (size_t j = first; j < first + n; j++)
        size += p->jobs[j].packed_size;
    uint8_t *out = blvl__alloc(p->a, (size_t)size);
    if (!out)
        return blvl__nomem(err, "a payload of %llu bytes", (unsigned long long)size);
    uint8_t *w = out;
    for (size_t j = first; j < first + n; j++) {
        const chunk_job *c = &p->jobs[j];
        memcpy(w, c->buf ? c->buf : it->raw + c->raw_offset, c->packed_size);
        w += c->packed_size;
    }
    for (size_t j = first; j < first + n; j++) {
        const chunk_job *c = &p->jobs[j];
        blvl_le_put32(w, c->packed_size);
        blvl_le_put32(w + 4, c->raw_size);
        w[8] = c->codec;
        w[9] = w[10] = w[11] = 0;
        w += BLVL_CHUNK_INDEX_ENTRY;
    }
    blvl_le_put32(w, (uint32_t)n);
    it->out = out;
    it->out_size = (size_t)size;
    return BLVL_OK;
}

blvl_status blvl__payload_pack_many(blvl_pack_item *items, size_t n, unsigned threads,
                                    const blvl_allocator *a, blvl_progress_fn progress,
                                    void *progress_user, blvl_error *err) {
    size_t njobs = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        items[i].out = NULL;
        items[i].out_size = 0;
        if (items[i].size > BLVL_SECTION_RAW_MAX)
            return blvl__fail(err, BLVL_E_RAW_SIZE, "a section of %llu raw bytes is over 2 GiB",
                              (unsigned long long)items[i].size);
        njobs += (items[i].size + BLVL_CHUNK_MAX - 1) / BLVL_CHUNK_MAX;
        total += items[i].size;
    }
    pack_ctx p;
    memset(&p, 0, sizeof p);
    p.items = items;
    p.a = a;
    p.progress = progress;
    p.progress_user = progress_user;
    p.total = total;
    unsigned nw = blvl__threads(threads);
    if (njobs == 0)
        nw = 1;
    else if (nw > njobs)
        nw = (unsigned)njobs;
    p.jobs = blvl__calloc(a, (njobs ? njobs : 1) * sizeof *p.jobs);
    p.codec = blvl__calloc(a, nw * sizeof *p.codec);
    if (!p.jobs || !p.codec) {
        blvl__dealloc(a, p.jobs, (njobs ? njobs : 1) * sizeof *p.jobs);
        blvl__dealloc(a, p.codec, nw * sizeof *p.codec);
        return blvl__nomem(err, "%zu chunk jobs", njobs);
    }
    size_t j = 0;
    for (size_t i = 0; i < n; i++)
        for (uint64_t off = 0; off < items[i].size; off += BLVL_CHUNK_MAX, j++) {
            uint64_t left = items[i].size - off;
            p.jobs[j].item = i;
            p.jobs[j].raw_offset = off;
            p.jobs[j].raw_size = (uint32_t)(left < BLVL_CHUNK_MAX ? left : BLVL_CHUNK_MAX);
        }
    for (unsigned w = 0; w < nw; w++)
        blvl__payload_codec_init(&p.codec[w], a);
    pthread_mutex_init(&p.lock, NULL);
    blvl_status st = blvl__pool_run(nw, njobs, pack_chunk, &p, 1, err);
    pthread_mutex_destroy(&p.lock);
    for (unsigned w = 0; w < nw; w++)
        blvl__payload_codec_free(&p.codec[w]);
    size_t first = 0;
    for (size_t i = 0; i < n && st == BLVL_OK; i++) {
        size_t nc = (items[i].size + BLVL_CHUNK_MAX - 1) / BLVL_CHUNK_MAX;
        st = assemble(&p, i, first, nc, err);
        first += nc;
    }
    free_jobs(&p, njobs);
    blvl__dealloc(a, p.jobs, (njobs ? njobs : 1) * sizeof *p.jobs);
    blvl__dealloc(a, p.codec, nw * sizeof *p.codec);
    if (st != BLVL_OK)
        for (size_t i = 0; i < n; i++) {
            blvl__dealloc(a, items[i].out, items[i].out_size);
            items[i].out = NULL;
            items[i].out_size = 0;
        }
    return st;
}

blvl_status blvl__payload_pack(const uint8_t *raw, size_t size, unsigned threads,
                               const blvl_allocator *a,
                               void (*progress)(void *user, uint64_t done, uint64_t total),
                               void *progress_user, uint8_t **out, size_t *out_size,
                               blvl_error *err) {
    blvl_pack_item it = {raw, size, NULL, 0};
    blvl_status st = blvl__payload_pack_many(&it, 1, threads, a, progress, progress_user, err);
    *out = it.out;
    *out_size = it.out_size;
    return st;
}
