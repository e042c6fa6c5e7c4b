#include <unistd.h>

#include "common/pool.h"

/* The ceiling keeps a hostile or mistaken request from starting thousands of threads. */
#define BLVL_THREADS_MAX 64u

unsigned blvl__threads(unsigned threads) {
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (unsigned)n : 1u;
    }
    return threads > BLVL_THREADS_MAX ? BLVL_THREADS_MAX : threads;
}
