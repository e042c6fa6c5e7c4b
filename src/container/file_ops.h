/* The default blvl_file_ops: POSIX calls on an open file descriptor. */
#ifndef BLVL_CONTAINER_FILE_OPS_H
#define BLVL_CONTAINER_FILE_OPS_H
#include "blvl/blvl.h"

/* Fills *ops with pread/pwrite/fsync/fstat on *fd (ops->user = fd, which must outlive *ops). */
void blvl__container_posix_file_ops(blvl_file_ops *ops, int *fd);
#endif
