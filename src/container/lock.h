/* The edit lock: an exclusive flock(2) on the level file, held by every in-place edit and by
 * a rewrite whose output replaces its input, for the whole of the operation. */
#ifndef BLVL_CONTAINER_LOCK_H
#define BLVL_CONTAINER_LOCK_H
#include "blvl/blvl.h"

/* Opens `path` with `flags` (O_RDONLY or O_RDWR) and takes its edit lock, waiting up to
 * `timeout_ms` milliseconds for another holder (0: not at all); BLVL_E_BUSY when it stays
 * held. A rewrite replaces the file by rename, so a lock on an inode the path no longer names
 * protects nothing: after locking, the path is checked to still name the locked inode, and
 * when it does not, the new file is opened and locked instead. On success *fd holds the lock
 * until it is closed. */
blvl_status blvl__container_lock_open(const char *path, int flags, uint32_t timeout_ms, int *fd,
                                      blvl_error *err);
#endif
