import SystemSupport

/// Files as they are on disk at one moment, for noticing changes: each file's ``FileStamp``
/// (size, times to the nanosecond, inode), or that it is missing. A file replaced by a rename is
/// a change even when its size and time match.
struct SourceSnapshot: Equatable, Sendable {
    private var stamps: [String: FileStamp?]

    /// Stamps each of `files` (following symlinks).
    init(files: [String]) {
        stamps = Dictionary(files.map { ($0, FileStamp(path: $0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The files that differ from `earlier`: changed, created, deleted, or no longer (or newly)
    /// among the files looked at, in byte order.
    func changes(since earlier: SourceSnapshot) -> [String] {
        Set(stamps.keys).union(earlier.stamps.keys)
            .filter { stamps[$0] != earlier.stamps[$0] }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
