/* A small worker pool, one per call: `threads` workers (the calling thread is worker 0) pull
 * job indices from a shared counter until the jobs run out or one fails. Starting a thread
 * that the system refuses is not an error: the workers that did start finish the jobs. */
#ifndef BLVL_COMMON_POOL_H
#define BLVL_COMMON_POOL_H
#include <stddef.h>

#include "blvl/common.h"

/* Run job `job` as worker `worker` (0 <= worker < the worker count). A non-OK status stops
 * the hand-out of further jobs (when stop_on_error) and is reported. */
typedef blvl_status (*blvl_job_fn)(void *ctx, unsigned worker, size_t job, blvl_error *err);

/* Runs jobs 0..jobs-1 on min(threads, jobs) workers. The status returned is that of the
 * failed job with the lowest index among those that ran (so with stop_on_error false the
 * error reported does not depend on timing). */
blvl_status blvl__pool_run(unsigned threads, size_t jobs, blvl_job_fn fn, void *ctx,
                           int stop_on_error, blvl_error *err);

/* Online CPUs when `threads` is 0, else `threads`; never 0, at most 64. */
unsigned blvl__threads(unsigned threads);
#endif
