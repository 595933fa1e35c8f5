#include "CLibdeflate.h"

#include <dlfcn.h>

// Weak references: null unless the link put libdeflate into the binary (scripts/release.sh links
// its static archive whole); a source build links no libdeflate at all.
#pragma weak libdeflate_alloc_compressor
#pragma weak libdeflate_deflate_compress
#pragma weak libdeflate_deflate_compress_bound
#pragma weak libdeflate_free_compressor
#pragma weak libdeflate_crc32
extern struct libdeflate_compressor *libdeflate_alloc_compressor(int compression_level);
extern size_t libdeflate_deflate_compress(struct libdeflate_compressor *compressor, const void *in, size_t in_nbytes,
                                          void *out, size_t out_nbytes_avail);
extern size_t libdeflate_deflate_compress_bound(struct libdeflate_compressor *compressor, size_t in_nbytes);
extern void libdeflate_free_compressor(struct libdeflate_compressor *compressor);
extern uint32_t libdeflate_crc32(uint32_t crc, const void *buffer, size_t len);

#if defined(__APPLE__)
static const char *const library_name = "libdeflate.0.dylib";
#else
static const char *const library_name = "libdeflate.so.0";
#endif

static int complete(const bundlepress_libdeflate *api) {
    return api->alloc_compressor && api->deflate_compress && api->deflate_compress_bound && api->free_compressor && api->crc32;
}

int bundlepress_libdeflate_find(bundlepress_libdeflate *api) {
    *api = (bundlepress_libdeflate){
        .alloc_compressor = libdeflate_alloc_compressor,
        .deflate_compress = libdeflate_deflate_compress,
        .deflate_compress_bound = libdeflate_deflate_compress_bound,
        .free_compressor = libdeflate_free_compressor,
        .crc32 = libdeflate_crc32,
        .origin = "linked in",
    };
    if (complete(api)) return 1;
    // Kept open for the life of the process: the functions are used until it exits.
    void *library = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    *api = (bundlepress_libdeflate){
        .alloc_compressor = (struct libdeflate_compressor * (*)(int)) dlsym(library, "libdeflate_alloc_compressor"),
        .deflate_compress = (size_t(*)(struct libdeflate_compressor *, const void *, size_t, void *, size_t))
            dlsym(library, "libdeflate_deflate_compress"),
        .deflate_compress_bound = (size_t(*)(struct libdeflate_compressor *, size_t)) dlsym(library, "libdeflate_deflate_compress_bound"),
        .free_compressor = (void (*)(struct libdeflate_compressor *)) dlsym(library, "libdeflate_free_compressor"),
        .crc32 = (uint32_t(*)(uint32_t, const void *, size_t)) dlsym(library, "libdeflate_crc32"),
        .origin = library_name,
    };
    if (complete(api)) return 1;
    dlclose(library);
    return 0;
}
