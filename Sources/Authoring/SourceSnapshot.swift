#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files as they are on disk at one moment, for noticing changes: each file's size,
/// modification time (to the nanosecond) and inode, or that it is missing. A file replaced by a
/// rename is a change even when its size and time match.
struct SourceSnapshot: Equatable, Sendable {
    private struct Stamp: Equatable, Sendable {
        var size: Int64
        var seconds: Int
        var nanoseconds: Int
        var inode: UInt64
    }

    private var stamps: [String: Stamp?]

    /// Stamps each of `files` (following symlinks).
    init(files: [String]) {
        stamps = Dictionary(files.map { ($0, Self.stamp($0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The files that differ from `earlier`: changed, created, deleted, or no longer (or newly)
    /// among the files looked at, in byte order.
    func changes(since earlier: SourceSnapshot) -> [String] {
        Set(stamps.keys).union(earlier.stamps.keys)
            .filter { stamps[$0] != earlier.stamps[$0] }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return Stamp(size: Int64(info.st_size), seconds: Int(modified.tv_sec), nanoseconds: Int(modified.tv_nsec), inode: UInt64(info.st_ino))
    }
}
