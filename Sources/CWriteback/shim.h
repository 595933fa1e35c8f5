// Starting the writeback of a file's dirty pages without waiting for it: Linux's
// sync_file_range(2) with SYNC_FILE_RANGE_WRITE, which glibc declares only under _GNU_SOURCE
// (not in Swift's Glibc module). Elsewhere it does nothing: fsync alone then does the writing.
#include <sys/types.h>

#if defined(__linux__)
extern int sync_file_range(int fd, __off64_t offset, __off64_t count, unsigned int flags);
#endif

/// Asks the kernel to start writing bytes [offset, offset + count) of `fd` to disk, returning
/// at once; 0 on success, -1 with errno set otherwise (0 where there is no such call).
static inline int bundlepress_start_writeback(int fd, long long offset, long long count) {
#if defined(__linux__)
    return sync_file_range(fd, offset, count, 2 /* SYNC_FILE_RANGE_WRITE */);
#else
    (void)fd;
    (void)offset;
    (void)count;
    return 0;
#endif
}
