/// A file's identity and version as `stat` gives them: kind, device, inode, size, modification
/// and change times to the nanosecond. The change time moves with every write, rename or
/// `touch`, and no tool sets it back, and an atomic publish renames new files into place (a new
/// inode), so equal stamps mean an untouched file: the build's up-to-date check, the inputs'
/// snapshot and the edge's file cache all rely on it without reading the bytes.
public struct FileStamp: Sendable, Hashable, CustomStringConvertible {
    /// Regular file, directory, or anything else (socket, device…).
    public enum Kind: Sendable, Hashable {
        case regular
        case directory
        case other
    }

    public var kind: Kind
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modifiedSeconds: Int
    public var modifiedNanoseconds: Int
    public var changedSeconds: Int
    public var changedNanoseconds: Int

    /// Whether it is a regular file (not a folder or a device).
    public var isRegularFile: Bool { kind == .regular }

    /// The stamp of what `status` (from `stat` or `fstat`) describes.
    public init(_ status: stat) {
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        default: kind = .other
        }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
        let (modified, changed) = (status.st_mtimespec, status.st_ctimespec)
        #else
        let (modified, changed) = (status.st_mtim, status.st_ctim)
        #endif
        modifiedSeconds = Int(modified.tv_sec)
        modifiedNanoseconds = Int(modified.tv_nsec)
        changedSeconds = Int(changed.tv_sec)
        changedNanoseconds = Int(changed.tv_nsec)
    }

    /// The stamp of the file at `path`, following symbolic links; nil when it does not exist or
    /// cannot be looked at.
    public init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    public var description: String {
        "\(size) bytes, modified \(modifiedSeconds).\(modifiedNanoseconds), changed \(changedSeconds).\(changedNanoseconds), inode \(inode)"
    }
}
