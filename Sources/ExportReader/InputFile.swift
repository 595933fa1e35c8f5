import SystemSupport

/// An export file opened for reading with POSIX calls; closed when released.
final class InputFile {
    /// The path as the user gave it; error locations use it.
    let path: String
    private let descriptor: Int32

    init(path: String) throws(ExportError) {
        self.path = path
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .unreadable(file: path, reason: Self.lastErrorText())
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw .isDirectory(file: path)
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw .unreadable(file: path, reason: Self.lastErrorText())
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Reads up to `buffer.count` bytes into `buffer`; 0 means the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ExportError) -> Int {
        while true {
            #if canImport(Darwin)
            let count = Darwin.read(descriptor, buffer.baseAddress, buffer.count)
            #elseif canImport(Musl)
            let count = Musl.read(descriptor, buffer.baseAddress, buffer.count)
            #else
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            #endif
            if count >= 0 { return count }
            if errno != EINTR { throw .unreadable(file: path, reason: Self.lastErrorText()) }
        }
    }

    /// Moves the read position to `offset` bytes from the start.
    func seek(to offset: Int) throws(ExportError) {
        guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else {
            throw .unreadable(file: path, reason: Self.lastErrorText())
        }
    }

    /// The number of `\n` bytes in `range` of the file (up to its end), read through `scratch`;
    /// leaves the read position after the bytes read.
    func countNewlines(in range: Range<Int>, scratch: UnsafeMutableBufferPointer<UInt8>) throws(ExportError) -> Int {
        var newlines = 0
        try scan(from: range.lowerBound, upTo: range.upperBound, scratch: scratch) { bytes in
            var position = bytes.baseAddress!
            let end = position + bytes.count
            while position < end, let found = memchr(position, Int32(UInt8(ascii: "\n")), end - position) {
                newlines += 1
                position = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) + 1
            }
            return true
        }
        return newlines
    }

    /// Whether a byte other than a space, tab, `\r` or `\n` follows `offset`.
    func containsNonBlank(from offset: Int, scratch: UnsafeMutableBufferPointer<UInt8>) throws(ExportError) -> Bool {
        var found = false
        try scan(from: offset, upTo: .max, scratch: scratch) { bytes in
            found = bytes.contains { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
            return !found
        }
        return found
    }

    /// Calls `body` with the bytes from `offset` to `end` (or the end of the file), a scratch
    /// buffer at a time, until it returns false.
    private func scan(from offset: Int, upTo end: Int, scratch: UnsafeMutableBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) throws(ExportError) {
        try seek(to: offset)
        var remaining = end - offset
        while remaining > 0 {
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(scratch)[..<min(remaining, scratch.count)]))
            guard count > 0, body(UnsafeBufferPointer(rebasing: scratch[..<count])) else { return }
            remaining -= count
        }
    }

    /// Reads the rest of the file into memory.
    func readAll() throws(ExportError) -> [UInt8] {
        var bytes: [UInt8] = []
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_size > 0 {
            bytes.reserveCapacity(Int(info.st_size))
        }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = try read(into: chunk)
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    private static func lastErrorText() -> String {
        String(cString: strerror(errno))
    }
}
