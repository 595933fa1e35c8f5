#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read a chunk at a time.
enum FileChunks {
    /// Calls `body` with the file's content, `chunkSize` bytes at a time (the last chunk shorter),
    /// in one array read into again for every full chunk: with large buffers mapped apart from the
    /// heap (`HeapTuning`), a new one per chunk would be as many page faults as bytes read.
    /// `body` keeps no reference to the array, or the next read copies it.
    static func forEach(ofFile path: String, chunkSize: Int = 1 << 20, _ body: ([UInt8]) throws(PublishError) -> Void) throws(PublishError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw PublishError(path: path, message: "cannot read: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, chunkSize) }
            if count < 0 {
                if errno == EINTR { continue }
                throw PublishError(path: path, message: "cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            try body(count == chunkSize ? chunk : Array(chunk[..<count]))
        }
    }
}
