import SystemSupport

/// The C library's heap, set for the commands that read whole exports (`build`, `query`,
/// `convert`, `serve --watch`).
///
/// A build's large buffers come and go by the hundred (reads of a megabyte, 2 MiB gzip blocks,
/// runs of encoded documents) while its long-lived data grows. glibc maps a large allocation
/// apart from the heap, but raises that threshold to the size of the first such block freed
/// (its "dynamic mmap threshold"), so from then on the buffers are carved from the heap between
/// the documents and planning data, and the heap, hence the peak RSS, grows by what they
/// fragment: 16 of the 148 MiB the 100,000-document benchmark peaked at (bench/RESULTS.md, session 11).
/// A fixed threshold keeps every buffer from 256 KiB up in its own mapping, returned whole when
/// freed.
enum HeapTuning {
    /// glibc's `M_MMAP_THRESHOLD` option of `mallopt(3)`.
    private static let mmapThresholdOption: Int32 = -3
    private static let mmapThreshold: Int32 = 256 << 10

    /// Sets the threshold; a C library without `mallopt` (musl, Darwin) is left as it is.
    static func applyForReadingExports() {
        #if canImport(Glibc)
        // Through the dynamic linker: Swift's Glibc module leaves out <malloc.h>.
        guard let symbol = dlsym(nil, "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThresholdOption, mmapThreshold)
        #endif
    }
}
