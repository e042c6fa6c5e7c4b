#include "common/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/error.h"

#define POOL_MAX_WORKERS 256u

typedef struct pool {
    blvl_job_fn fn;
    void *ctx;
    size_t jobs;
    int stop_on_error;
    atomic_size_t next;
    atomic_int stop;
    pthread_mutex_t lock; /* guards the first-failure record */
    size_t failed_job;    /* SIZE_MAX: none */
    blvl_error failed;
} pool;

typedef struct worker_arg {
    pool *p;
    unsigned id;
} worker_arg;

static void work(pool *p, unsigned id) {
    for (;;) {
        if (atomic_load_explicit(&p->stop, memory_order_relaxed))
            return;
        size_t j = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
        if (j >= p->jobs)
            return;
        blvl_error e;
        e.code = BLVL_OK;
        e.message[0] = '\0';
        blvl_status st = p->fn(p->ctx, id, j, &e);
        if (st == BLVL_OK)
            continue;
        if (e.code != st) { /* the job returned a code without filling the message */
            e.code = st;
            e.message[0] = '\0';
        }
        pthread_mutex_lock(&p->lock);
        if (j < p->failed_job) {
            p->failed_job = j;
            p->failed = e;
        }
        pthread_mutex_unlock(&p->lock);
        if (p->stop_on_error)
            atomic_store_explicit(&p->stop, 1, memory_order_relaxed);
    }
}

static void *worker_main(void *arg) {
    worker_arg *w = arg;
    work(w->p, w->id);
    return NULL;
}

blvl_status blvl__pool_run(unsigned threads, size_t jobs, blvl_job_fn fn, void *ctx,
                           int stop_on_error, blvl_error *err) {
    if (jobs == 0)
        return BLVL_OK;
    size_t nw = threads ? threads : 1;
    if (nw > jobs)
        nw = jobs;
    if (nw > POOL_MAX_WORKERS)
        nw = POOL_MAX_WORKERS;
    pool p;
    p.fn = fn;
    p.ctx = ctx;
    p.jobs = jobs;
    p.stop_on_error = stop_on_error;
    atomic_init(&p.next, 0);
    atomic_init(&p.stop, 0);
    pthread_mutex_init(&p.lock, NULL);
    p.failed_job = SIZE_MAX;
    p.failed.code = BLVL_OK;
    p.failed.message[0] = '\0';

    pthread_t tids[POOL_MAX_WORKERS];
    worker_arg args[POOL_MAX_WORKERS];
    unsigned started = 0;
    for (unsigned i = 1; i < nw; i++) {
        args[i].p = &p;
        args[i].id = i;
        if (pthread_create(&tids[i], NULL, worker_main, &args[i]) != 0)
            break; /* fewer workers; the ones running take the rest */
        started = i;
    }
    work(&p, 0);
    for (unsigned i = 1; i <= started; i++)
        pthread_join(tids[i], NULL);
    pthread_mutex_destroy(&p.lock);
    if (p.failed_job == SIZE_MAX)
        return BLVL_OK;
    if (err)
        *err = p.failed;
    return p.failed.code;
}
