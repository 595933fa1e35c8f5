#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's identity and version as `stat` gives them (following symbolic links): size,
/// modification and change times to the nanosecond, inode. The change time moves with every
/// write, rename or `touch`, and no tool sets it back, so equal stamps mean an untouched file.
public struct FileStamp: Sendable, Equatable, CustomStringConvertible {
    public var size: Int64
    public var modifiedSeconds: Int
    public var modifiedNanoseconds: Int
    public var changedSeconds: Int
    public var changedNanoseconds: Int
    public var inode: UInt64
    /// Whether it is a regular file (not a folder or a device).
    public var isRegularFile: Bool

    /// The stamp of the file at `path`; nil when it does not exist or cannot be looked at.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int64(info.st_size)
        #if canImport(Darwin)
        let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #else
        let (modified, changed) = (info.st_mtim, info.st_ctim)
        #endif
        modifiedSeconds = Int(modified.tv_sec)
        modifiedNanoseconds = Int(modified.tv_nsec)
        changedSeconds = Int(changed.tv_sec)
        changedNanoseconds = Int(changed.tv_nsec)
        inode = UInt64(info.st_ino)
        isRegularFile = (info.st_mode & S_IFMT) == S_IFREG
    }

    public var description: String {
        "\(size) bytes, modified \(modifiedSeconds).\(modifiedNanoseconds), changed \(changedSeconds).\(changedNanoseconds), inode \(inode)"
    }
}
