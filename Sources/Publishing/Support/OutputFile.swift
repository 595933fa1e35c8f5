import CWriteback

import SystemSupport

/// A file being written for the site with POSIX calls: created (or truncated), appended to piece
/// by piece, then flushed to disk and closed by ``finish()``. Released unfinished, it is closed
/// without the flush (its caller is failing, and its staging directory goes away).
///
/// A large file's pages are handed to the disk as it grows, every ``writebackStep`` bytes,
/// without waiting for them: the flush at the end then waits for the last few megabytes rather
/// than for the whole file (at 100k documents, 70 ms of a build's wall time with nothing else
/// to do).
final class OutputFile {
    let path: String
    private var descriptor: Int32
    /// Bytes written so far.
    private(set) var byteCount = 0
    /// The bytes before this offset are on their way to disk.
    private var writebackStarted = 0
    static let writebackStep = 8 << 20

    init(creating path: String) throws(PublishError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.error(path, "cannot create") }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Writes all of `bytes` at the end of the file.
    func append(_ bytes: [UInt8]) throws(PublishError) {
        guard Self.writeAll(bytes, to: descriptor) else { throw Self.error(path, "cannot write") }
        byteCount += bytes.count
        if byteCount - writebackStarted >= Self.writebackStep {
            // Only a hint: where the system refuses, the flush in `finish` does the writing.
            _ = bundlepress_start_writeback(descriptor, Int64(writebackStarted), Int64(byteCount - writebackStarted))
            writebackStarted = byteCount
        }
    }

    /// Bytes per `write` call at most.
    ///
    /// Linux (6.x, ext4) caches a file written in large pieces in large folios, which it takes
    /// from the free memory's large blocks; on a virtual machine whose host reclaims free memory
    /// (virtio-balloon free page reporting, as here) every such block is mapped in afresh on its
    /// first write. Measured on the 1M benchmark (1.9 GB of site files): 4.6 s of system time in
    /// `copy_folio_from_iter_atomic` with whole runs (about a megabyte) per call, 0.1 s with
    /// 32 KiB (and `dd` of 1.9 GB: 3.8 s with 1 MiB blocks, 1.6 s with 32 KiB). The 60,000 calls
    /// per 1.9 GB cost a few milliseconds.
    static let writeStep = 32 << 10

    /// Writes all of `bytes` to `descriptor` at its offset, ``writeStep`` bytes a call, through
    /// short writes and signals; false, with `errno` set, when the system refuses.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, min(buffer.count - offset, writeStep))
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// Flushes the file to disk (`fsync`) and closes it.
    func finish() throws(PublishError) {
        defer {
            close(descriptor)
            descriptor = -1
        }
        guard fsync(descriptor) == 0 else { throw Self.error(path, "cannot flush to disk") }
    }

    private static func error(_ path: String, _ what: String) -> PublishError {
        PublishError(path: path, message: "\(what): \(String(cString: strerror(errno)))")
    }
}
