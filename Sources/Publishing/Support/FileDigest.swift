import Crypto
import Foundation
import ParallelWork
import SystemSupport

/// A file's content as a digest: what a build fingerprint hashes of its inputs, and what a
/// partial records of the binary that wrote it.
enum FileDigest {
    /// A digest of a file's bytes, read on every core: the SHA-256 of its size and of the
    /// SHA-256 of each 16 MiB piece (one SHA-256 over a whole file is one core's work: 0.8 s of a
    /// 1.4 GB export's build before anything else could start); nil if it cannot be read.
    /// Anything but a regular file (a pipe, a device) has no size to cut by: it is read to its
    /// end as one piece.
    static func contentDigest(of path: String) -> String? {
        guard let stamp = FileStamp(path: path) else { return nil }
        guard stamp.isRegularFile else { return sequentialDigest(of: path) }
        let size = Int(stamp.size)
        let pieceSize = 16 << 20
        let pieces = parallelMap(count: max(1, (size + pieceSize - 1) / pieceSize), threads: Processors.online) { piece -> [UInt8]? in
            var hash = SHA256()
            do throws(PublishError) {
                try FileChunks.forEach(ofFile: path, in: (piece * pieceSize)..<min(size, (piece + 1) * pieceSize)) { chunk in hash.update(data: chunk) }
            } catch {
                return nil
            }
            return Array(hash.finalize())
        }
        var hash = SHA256()
        hash.update(data: Data("\(size) bytes\n".utf8))
        for piece in pieces {
            guard let piece else { return nil }
            hash.update(data: piece)
        }
        return hash.finalize().hex
    }

    /// The SHA-256 of what the file gives until its end; nil if it cannot be read.
    private static func sequentialDigest(of path: String) -> String? {
        var hash = SHA256()
        do throws(PublishError) {
            try FileChunks.forEach(ofFile: path) { chunk in hash.update(data: chunk) }
        } catch {
            return nil
        }
        return "stream " + hash.finalize().hex
    }
}
