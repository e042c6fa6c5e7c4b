/* The CLI's bounded input read (cli/util.c, cli_read_bounded) at small limits: exactly the limit
 * is read, one byte more is refused (EFBIG), from a regular file (refused by its size, before
 * reading), a character device that never ends (/dev/zero) and a pipe (no size known). The real
 * 2 GiB limit is checked end to end by tests/test_cli_inputs.sh. */
#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../cli/util.c"
#include "check.h"
#include "files.h"

/* Reads `n` bytes of a pipe fed by a child, at `limit`; returns the read's result. */
static int read_pipe(size_t n, uint64_t limit, size_t *got) {
    int fds[2];
    if (pipe(fds) != 0)
        return -2;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        static uint8_t block[4096];
        memset(block, 'x', sizeof block);
        for (size_t left = n; left;) {
            size_t k = left < sizeof block ? left : sizeof block;
            ssize_t w = write(fds[1], block, k);
            if (w <= 0)
                _exit(0); /* the reader stopped: fine */
            left -= (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fds[0]);
    uint8_t *data = NULL;
    int r = cli_read_bounded(path, limit, &data, got);
    int e = errno;
    close(fds[0]);
    waitpid(pid, NULL, 0);
    if (r == 0) {
        for (size_t i = 0; i < *got; i++)
            if (data[i] != 'x')
                r = -3;
        free(data);
    }
    errno = e;
    return r;
}

int main(void) {
    char dir[] = "/tmp/blvl_read_XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char path[128];
    snprintf(path, sizeof path, "%s/f", dir);
    uint8_t bytes[300000];
    for (size_t i = 0; i < sizeof bytes; i++)
        bytes[i] = (uint8_t)(i * 7);
    uint8_t *data;
    size_t got;

    /* regular file: at the limit, and one byte over */
    CHECK(test_spit(path, bytes, 1000) == 0);
    CHECK_EQ_INT(cli_read_bounded(path, 1000, &data, &got), 0);
    CHECK_EQ_INT(got, 1000);
    CHECK_MEM(data, bytes, 1000);
    free(data);
    errno = 0;
    CHECK_EQ_INT(cli_read_bounded(path, 999, &data, &got), -1);
    CHECK_EQ_INT(errno, EFBIG);
    /* an empty file, a limit of 0 */
    CHECK(test_spit(path, bytes, 0) == 0);
    CHECK_EQ_INT(cli_read_bounded(path, 0, &data, &got), 0);
    CHECK_EQ_INT(got, 0);
    free(data);

    /* /dev/zero never ends: refused once limit + 1 bytes arrived */
    errno = 0;
    CHECK_EQ_INT(cli_read_bounded("/dev/zero", 200000, &data, &got), -1);
    CHECK_EQ_INT(errno, EFBIG);
    CHECK_EQ_INT(cli_read_bounded("/dev/null", 0, &data, &got), 0);
    CHECK_EQ_INT(got, 0);
    free(data);

    /* a pipe: the buffer grows from 64 KiB past several doublings, up to limit + 1 */
    CHECK_EQ_INT(read_pipe(200000, 200000, &got), 0);
    CHECK_EQ_INT(got, 200000);
    errno = 0;
    CHECK_EQ_INT(read_pipe(200001, 200000, &got), -1);
    CHECK_EQ_INT(errno, EFBIG);
    CHECK_EQ_INT(read_pipe(70000, 65535, &got), -1);
    CHECK_EQ_INT(read_pipe(65536, 65536, &got), 0);
    CHECK_EQ_INT(got, 65536);
    CHECK_EQ_INT(read_pipe(0, 0, &got), 0);
    CHECK_EQ_INT(read_pipe(1, 0, &got), -1);

    /* a directory and a missing file are I/O errors, not size errors */
    errno = 0;
    CHECK_EQ_INT(cli_read_bounded(dir, 10, &data, &got), -1);
    CHECK_EQ_INT(errno, EISDIR);
    unlink(path);
    errno = 0;
    CHECK_EQ_INT(cli_read_bounded(path, 10, &data, &got), -1);
    CHECK_EQ_INT(errno, ENOENT);
    rmdir(dir);
    return check_report("test_cli_read");
}
