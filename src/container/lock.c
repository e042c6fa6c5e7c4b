#include "container/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"

static uint64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

static void sleep_ms(uint64_t ms) {
    struct timespec t = {(time_t)(ms / 1000u), (long)(ms % 1000u) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

/* The lock on `fd`, polled until `deadline` (flock has no timed wait; a signal-based timeout
 * would disturb the host program). 0 when taken, 1 when still held by another, -1 on error. */
static int lock_until(int fd, uint64_t deadline) {
    uint64_t step = 1;
    for (;;) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return 0;
        if (errno == EINTR)
            continue;
        if (errno != EWOULDBLOCK)
            return -1;
        uint64_t now = now_ms();
        if (now >= deadline)
            return 1;
        sleep_ms(step < deadline - now ? step : deadline - now);
        step = step < 16 ? step * 2 : 16;
    }
}

blvl_status blvl__container_lock_open(const char *path, int flags, uint32_t timeout_ms, int *out,
                                      blvl_error *err) {
    *out = -1;
    uint64_t deadline = now_ms() + timeout_ms;
    /* Each retry means a rewrite replaced the file while we waited; a bound keeps a path that
     * is replaced without end from holding us forever. */
    for (int tries = 0; tries < 1000; tries++) {
        int fd = open(path, flags | O_CLOEXEC);
        if (fd < 0)
            return blvl__fail(err, BLVL_E_IO, "cannot open %s: %s", path, strerror(errno));
        int r = lock_until(fd, deadline);
        if (r != 0) {
            int e = errno;
            close(fd);
            if (r > 0)
                return blvl__fail(err, BLVL_E_BUSY,
                                  "%s is being edited or rewritten by another process (waited "
                                  "%u ms)",
                                  path, timeout_ms);
            return blvl__fail(err, BLVL_E_IO, "cannot lock %s: %s", path, strerror(e));
        }
        struct stat held, named;
        if (fstat(fd, &held) != 0) {
            int e = errno;
            close(fd);
            return blvl__fail(err, BLVL_E_IO, "cannot stat %s: %s", path, strerror(e));
        }
        if (stat(path, &named) == 0 && named.st_dev == held.st_dev && named.st_ino == held.st_ino) {
            *out = fd;
            return BLVL_OK;
        }
        close(fd); /* replaced (or removed) while we waited: lock what the path names now */
    }
    return blvl__fail(err, BLVL_E_BUSY, "%s keeps being replaced by another process", path);
}
