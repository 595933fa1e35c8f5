// libdeflate, the fast path of the `.gz` copies, found at run time: a build needs no libdeflate
// header or library. The few entry points BundlePress calls are declared here with the types of
// libdeflate's own libdeflate.h (stable since libdeflate 1.0, soname libdeflate.so.0).
#ifndef BUNDLEPRESS_CLIBDEFLATE_H
#define BUNDLEPRESS_CLIBDEFLATE_H

#include <stddef.h>
#include <stdint.h>

struct libdeflate_compressor;

/// The libdeflate functions BundlePress uses, and where they were found.
typedef struct bundlepress_libdeflate {
    struct libdeflate_compressor *(*alloc_compressor)(int compression_level);
    size_t (*deflate_compress)(struct libdeflate_compressor *compressor, const void *in, size_t in_nbytes,
                               void *out, size_t out_nbytes_avail);
    size_t (*deflate_compress_bound)(struct libdeflate_compressor *compressor, size_t in_nbytes);
    void (*free_compressor)(struct libdeflate_compressor *compressor);
    uint32_t (*crc32)(uint32_t crc, const void *buffer, size_t len);
    /// "linked in" when the binary carries libdeflate (the release), else the file loaded.
    const char *origin;
} bundlepress_libdeflate;

/// Finds libdeflate: in the binary itself when it was linked in, else by loading
/// libdeflate.so.0 (libdeflate.0.dylib on macOS). Returns 1 and fills `api`, or 0 when neither
/// has every entry point (the caller then compresses with zlib).
int bundlepress_libdeflate_find(bundlepress_libdeflate *api);

#endif
