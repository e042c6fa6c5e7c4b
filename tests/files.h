/* File and process helpers shared by the C tests (tests/support/files.c). */
#ifndef BLVL_TEST_FILES_H
#define BLVL_TEST_FILES_H
#include <stddef.h>
#include <stdint.h>

/* The whole file, NUL-terminated (not counted in *n); NULL when it cannot be read. free(). */
uint8_t *test_slurp(const char *path, size_t *n);
/* Writes the bytes to path; 0 on success. */
int test_spit(const char *path, const void *data, size_t n);
/* Runs a shell command; its exit status, reported on stderr when not 0. */
int test_run(const char *cmd);
#endif
