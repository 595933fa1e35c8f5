#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read a chunk at a time.
enum FileChunks {
    /// Calls `body` with the bytes of the file in `range` (all of it when nil), `chunkSize` bytes
    /// at a time (the last chunk shorter; fewer bytes when the file ends first), in one array
    /// read into again for every full chunk: with large buffers mapped apart from the heap
    /// (`HeapTuning`), a new one per chunk would be as many page faults as bytes read.
    /// `body` keeps no reference to the array, or the next read copies it.
    static func forEach(
        ofFile path: String, in range: Range<Int>? = nil, chunkSize: Int = 1 << 20, _ body: ([UInt8]) throws(PublishError) -> Void
    ) throws(PublishError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw PublishError(path: path, message: "cannot read: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var offset = range?.lowerBound ?? 0
        let end = range?.upperBound ?? Int.max
        while offset < end {
            let want = min(chunkSize, end - offset)
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, want, off_t(offset)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw PublishError(path: path, message: "cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            offset += count
            try body(count == chunkSize ? chunk : Array(chunk[..<count]))
        }
    }
}
