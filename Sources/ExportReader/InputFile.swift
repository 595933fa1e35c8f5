#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
