/* blvl_trace_box_many: one box traced along many segments, the batch a script or a bot's
 * planner hands over at once. The segments are cut into blocks that the common pool's workers
 * take in turn; each result is exactly blvl_trace_box's for its segment (a trace reads the
 * world and writes only its own result, so the split cannot change an answer). */
#include <stddef.h>

#include "blvl/trace.h"
#include "common/error.h"
#include "common/pool.h"

/* Traces per job: large enough that taking a job costs nothing beside its traces (a trace is
 * about a microsecond), small enough that the workers finish together. */
#define MANY_BLOCK 4096u

typedef struct many_batch {
    const blvl_trace_world *world;
    const blvl_trace_filter *filter;
    const float *starts, *ends;
    const float *mins, *maxs;
    size_t count;
    blvl_trace_result *out;
} many_batch;

static blvl_status trace_block(void *ctx, unsigned worker, size_t job, blvl_error *err) {
    (void)worker;
    (void)err;
    const many_batch *b = ctx;
    size_t first = job * MANY_BLOCK, last = first + MANY_BLOCK;
    if (last > b->count)
        last = b->count;
    for (size_t i = first; i < last; i++)
        blvl_trace_box(b->world, b->filter, b->starts + 3 * i, b->ends + 3 * i, b->mins, b->maxs,
                       &b->out[i]);
    return BLVL_OK;
}

blvl_status blvl_trace_box_many(const blvl_trace_world *world, const blvl_trace_filter *filter,
                                const float *starts, const float *ends, size_t count,
                                const float mins[3], const float maxs[3], blvl_trace_result *out,
                                const blvl_options *opt, blvl_error *err) {
    static const float zero[3] = {0, 0, 0};
    if (!world)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no world");
    if (count && (!out || !starts || !ends))
        return blvl__fail(err, BLVL_E_ARGUMENT, "%zu traces without starts, ends or results",
                          count);
    if (count == 0)
        return BLVL_OK;
    many_batch b = {world, filter, starts, ends, mins ? mins : zero, maxs ? maxs : zero,
                    count, out};
    size_t jobs = (count + MANY_BLOCK - 1) / MANY_BLOCK;
    return blvl__pool_run(blvl__threads(opt ? opt->threads : 0), jobs, trace_block, &b, 1, err);
}
