import SystemSupport

/// An open, read-only file descriptor shared by the cached resources and responses that send
/// from it, closed when the last of them is gone.
///
/// It keeps the bytes of the file it opened: a publish that renames a new file over the path
/// leaves this inode (and every response in flight) intact. Only a rewrite in place changes them,
/// which ``isUnchanged`` detects.
final class OpenFile: Sendable {
    /// The descriptor, open for reading.
    let descriptor: CInt
    /// The file's stamp when it was opened (and read).
    let stamp: FileStamp

    /// Takes ownership of `descriptor`.
    init(descriptor: CInt, stamp: FileStamp) {
        self.descriptor = descriptor
        self.stamp = stamp
    }

    deinit {
        close(descriptor)
    }

    /// Whether the file still has the size and modification time it had when opened: one
    /// `fstat`. A file rewritten in place (not renamed over) is no longer what was hashed and
    /// measured, and sending it could fall short of the `Content-Length` already sent.
    var isUnchanged: Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && FileStamp(status) == stamp
    }
}
