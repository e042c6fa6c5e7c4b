/* Helpers every subcommand shares: help and usage errors, the one-line failure report,
 * bounded whole-file reads, terminal progress and JSON strings. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
/* the one JSON string escaper, internal to libblvl-tools: the CLI links the static libraries */
#include "json/json_string.h"

int cli_wants_help(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return 0;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return 1;
    }
    return 0;
}

int cli_print_help(const cli_help *h) {
    printf("usage: blvl %s %s\n\n%s", h->name, h->usage, h->text);
    return CLI_OK;
}

int cli_usage(const cli_help *h, const char *fmt, ...) {
    fprintf(stderr, "blvl %s: ", h->name);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    /* one line: a usage that spans lines is left to --help */
    if (strchr(h->usage, '\n'))
        fprintf(stderr, " (see blvl %s --help)\n", h->name);
    else
        fprintf(stderr, " (usage: blvl %s %s; see --help)\n", h->name, h->usage);
    return CLI_USAGE;
}

int cli_fail(const char *file, const blvl_error *err) {
    cli_progress_clear();
    fprintf(stderr, "blvl: %s: %s\n", file,
            err->message[0] ? err->message : blvl_status_name(err->code));
    return CLI_FAILED;
}

int cli_failf(const char *file, blvl_status rule, const char *fmt, ...) {
    cli_progress_clear();
    fprintf(stderr, "blvl: %s: %s: ", file, blvl_status_name(rule));
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_FAILED;
}

/* One byte past the limit is enough to know the input is too large, so /dev/zero or an
 * endless pipe costs at most limit + 1 bytes of memory. The buffer grows by doubling from what
 * fstat promises (or 64 KiB), never past limit + 1. */
int cli_read_bounded(const char *path, uint64_t limit, uint8_t **data, size_t *size) {
    int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    uint64_t most = limit + 1;
    size_t cap = 1 << 16;
    int rc = -1;
    uint8_t *buf = NULL;
    size_t len = 0;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        goto out;
    }
    if (most > SIZE_MAX)
        most = SIZE_MAX;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        if ((uint64_t)st.st_size > limit) { /* refused before a byte is read */
            errno = EFBIG;
            goto out;
        }
        cap = (size_t)st.st_size + 1; /* +1 sees the end without another grow */
    }
    if (cap > most)
        cap = (size_t)most;
    buf = malloc(cap);
    if (!buf)
        goto out;
    for (;;) {
        if (len == cap) {
            if (cap >= most) { /* limit + 1 bytes arrived: too large */
                errno = EFBIG;
                goto out;
            }
            size_t grown = cap > most / 2 ? (size_t)most : cap * 2;
            uint8_t *q = realloc(buf, grown);
            if (!q)
                goto out;
            buf = q;
            cap = grown;
        }
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            goto out;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    rc = 0;
    *data = buf;
    *size = len;
    buf = NULL;
out:
    free(buf);
    if (fd != STDIN_FILENO) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return rc;
}

int cli_read_input(const char *path, uint8_t **data, size_t *size) {
    const char *shown = strcmp(path, "-") == 0 ? "stdin" : path;
    if (cli_read_bounded(path, BLVL_SECTION_RAW_MAX, data, size) == 0)
        return CLI_OK;
    if (errno == EFBIG)
        return cli_failf(shown, BLVL_E_RAW_SIZE,
                         "more than %llu bytes (2 GiB), the most a section holds",
                         (unsigned long long)BLVL_SECTION_RAW_MAX);
    if (errno == ENOMEM)
        return cli_failf(shown, BLVL_E_NOMEM, "cannot hold the input");
    return cli_failf(shown, BLVL_E_IO, "cannot read: %s", strerror(errno));
}

int cli_write_stdout(const void *data, size_t size) {
    const uint8_t *p = data;
    while (size) {
        ssize_t n = write(STDOUT_FILENO, p, size);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

int cli_parse_u32(const char *s, uint32_t *out) {
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > UINT32_MAX)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static int progress_shown;

int cli_progress_enabled(void) {
    return isatty(STDERR_FILENO);
}

void cli_progress(const char *what, uint64_t done, uint64_t total) {
    if (!cli_progress_enabled())
        return;
    double mib = 1024.0 * 1024.0;
    if (!total) /* the total is not known before the end: a count, never a percentage */
        fprintf(stderr, "\rblvl %s: %.1f MiB\033[K", what, (double)done / mib);
    else
        fprintf(stderr, "\rblvl %s: %3u%% (%.1f of %.1f MiB)\033[K", what,
                (unsigned)(done * 100 / total), (double)done / mib, (double)total / mib);
    progress_shown = 1;
}

void cli_progress_clear(void) {
    if (progress_shown) {
        fprintf(stderr, "\r\033[K");
        progress_shown = 0;
    }
}

static void put_stdout(void *user, const char *s, size_t n) {
    (void)user;
    fwrite(s, 1, n, stdout);
}

void cli_json_string(const char *s) {
    blvl__json_string(s, strlen(s), put_stdout, NULL);
}

void cli_json_stringn(const char *s, size_t n) {
    blvl__json_string(s, n, put_stdout, NULL);
}

int cli_getopt_error(const cli_help *h, int argc, char **argv) {
    const char *arg = optind - 1 < argc ? argv[optind - 1] : "";
    if (optopt && strchr(arg, '=') == NULL && arg[0] == '-' && arg[1] != '-')
        return cli_usage(h, "option -%c is unknown or lacks its value", optopt);
    return cli_usage(h, "option '%s' is unknown or lacks its value", arg);
}

const char *cli_split_tag(const char *arg, char tag[BLVL_TAG_MAX + 1]) {
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || (size_t)(eq - arg) > BLVL_TAG_MAX)
        return NULL;
    memcpy(tag, arg, (size_t)(eq - arg));
    tag[eq - arg] = '\0';
    return blvl_tag_valid(tag, NULL) ? eq + 1 : NULL;
}

int cli_check_tag(const cli_help *h, const char *tag) {
    if (!blvl_tag_valid(tag, NULL))
        return cli_usage(h, "'%s' is not a tag (1..16 bytes of [a-z0-9._-])", tag);
    return CLI_OK;
}

int cli_no_options(const cli_help *h, int argc, char **argv) {
    static const struct option none[] = {{0, 0, 0, 0}};
    opterr = 0;
    optind = 1;
    if (getopt_long(argc, argv, "", none, NULL) != -1)
        return cli_getopt_error(h, argc, argv);
    return CLI_OK;
}

int cli_file_tag_args(const cli_help *h, int argc, char **argv) {
    int rc = cli_no_options(h, argc, argv);
    if (rc != CLI_OK)
        return rc;
    if (argc - optind != 2)
        return cli_usage(h, "expects FILE and TAG");
    return cli_check_tag(h, argv[optind + 1]);
}

int cli_one_file_args(const cli_help *h, int argc, char **argv) {
    int rc = cli_no_options(h, argc, argv);
    if (rc != CLI_OK)
        return rc;
    if (argc - optind != 1)
        return cli_usage(h, "expects one FILE");
    return CLI_OK;
}
