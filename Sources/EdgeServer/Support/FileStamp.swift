#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What identifies one version of a file without reading it: device, inode, size and
/// modification time (nanoseconds). Two equal stamps are taken to mean the same bytes, so the
/// origin reuses a cached file and the edge sees no redeploy until any of these change (an
/// atomic publish renames new files into place: new inode; a rewrite changes size or mtime).
struct FileStamp: Sendable, Hashable {
    /// Regular file, directory, or anything else (socket, device…), which is never served.
    enum Kind: Sendable, Hashable {
        case regular
        case directory
        case other
    }

    var kind: Kind
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int

    init(_ status: stat) {
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        default: kind = .other
        }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int(status.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int(status.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int(status.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
        #endif
    }

    /// The stamp of the file `path` names, following symbolic links; nil when there is none or
    /// it cannot be examined.
    static func of(path: String) -> FileStamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileStamp(status)
    }
}
