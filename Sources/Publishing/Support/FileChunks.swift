import SystemSupport

/// A file read a chunk at a time, into arrays used again for every chunk: with large buffers
/// mapped apart from the heap (`HeapTuning`), a new one per chunk would be as many page faults
/// as bytes read.
enum FileChunks {
    /// Calls `body` with the bytes of the file in `range` (all of it when nil), `chunkSize` bytes
    /// at a time (the last chunk shorter; fewer bytes when the file ends first), in one array
    /// read into again for every full chunk. `body` keeps no reference to the array, or the next
    /// read copies it.
    static func forEach(
        ofFile path: String, in range: Range<Int>? = nil, chunkSize: Int = 1 << 20, _ body: ([UInt8]) throws(PublishError) -> Void
    ) throws(PublishError) {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var offset = range?.lowerBound ?? 0
        let end = range?.upperBound ?? Int.max
        while offset < end {
            // A whole file is read in sequence, so that a pipe or a device can be read too.
            let count = try readChunk(descriptor, path: path, into: &chunk, count: min(chunkSize, end - offset), at: range == nil ? nil : offset)
            if count == 0 { return }
            offset += count
            try body(count == chunkSize ? chunk : Array(chunk[..<count]))
        }
    }

    /// True when the files at `path` and `other` hold the same bytes (false when either cannot
    /// be read), compared a chunk of each at a time.
    static func sameContent(_ path: String, _ other: String, chunkSize: Int = 1 << 20) -> Bool {
        guard let mine = try? openForReading(path) else { return false }
        defer { close(mine) }
        guard let theirs = try? openForReading(other) else { return false }
        defer { close(theirs) }
        var (left, right) = ([UInt8](repeating: 0, count: chunkSize), [UInt8](repeating: 0, count: chunkSize))
        var offset = 0
        while true {
            guard let count = try? readChunk(mine, path: path, into: &left, count: chunkSize, at: offset),
                let otherCount = try? readChunk(theirs, path: other, into: &right, count: chunkSize, at: offset), otherCount == count
            else { return false }
            if count == 0 { return true }
            guard left[..<count] == right[..<count] else { return false }
            offset += count
        }
    }

    private static func openForReading(_ path: String) throws(PublishError) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw PublishError(path: path, message: "cannot read: \(String(cString: strerror(errno)))") }
        return descriptor
    }

    /// Reads up to `count` bytes at `offset` (where the last read ended when nil) into the start
    /// of `buffer`, as many as the file has up to `count`; 0 at its end.
    private static func readChunk(_ descriptor: Int32, path: String, into buffer: inout [UInt8], count: Int, at offset: Int?) throws(PublishError) -> Int {
        var done = 0
        while done < count {
            let got = buffer.withUnsafeMutableBytes { bytes in
                let start = bytes.baseAddress! + done
                return offset.map { pread(descriptor, start, count - done, off_t($0 + done)) } ?? read(descriptor, start, count - done)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw PublishError(path: path, message: "cannot read: \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            done += got
        }
        return done
    }
}
