import SystemSupport
import Foundation

/// Files written so that a crash leaves either the old or the new bytes: flushed before they are
/// renamed into place, and the directory flushed after. Every stage that writes into the output
/// (partials, the state, the site, the build record) writes through these.
enum DurableFiles {
    /// Writes `chunks` to a new file at `path` (replacing one there) and flushes it to disk.
    static func write(path: String, chunks: [[UInt8]]) throws(PublishError) {
        let file = try OutputFile(creating: path)
        for chunk in chunks { try file.append(chunk) }
        try file.finish()
    }

    /// Replaces the file at `path` with `bytes` in one atomic step: they are written and flushed
    /// to `.<name>.tmp` beside it, renamed over it, and the directory is flushed; on failure the
    /// temporary file is removed and `path` is as it was. Only a lock holder may call this (the
    /// temporary name is fixed, so a killed writer's leftover is simply overwritten).
    static func replaceAtomically(path: String, with bytes: [UInt8]) throws(PublishError) {
        try replaceAtomically(path: path) { staged throws(PublishError) in try write(path: staged, chunks: [bytes]) }
    }

    /// Replaces the file at `path` with the one `stage` makes at the temporary path it is given
    /// (a new file there, flushed to disk), as ``replaceAtomically(path:with:)`` does with bytes.
    static func replaceAtomically(path: String, stage: (_ staged: String) throws(PublishError) -> Void) throws(PublishError) {
        let directory = (path as NSString).deletingLastPathComponent
        let staged = (directory as NSString).appendingPathComponent(".\((path as NSString).lastPathComponent).tmp")
        do throws(PublishError) {
            unlink(staged)
            try stage(staged)
            try rename(staged, to: path)
            try syncDirectory(directory)
        } catch {
            unlink(staged)
            throw error
        }
    }

    /// Replaces the file at `path` with `bytes` (``replaceAtomically(path:with:)``, its folder
    /// created) unless it holds them already, and says whether it did: an unchanged file keeps
    /// its modification time.
    static func replaceIfChanged(path: String, with bytes: [UInt8]) throws(PublishError) -> Bool {
        guard FileManager.default.contents(atPath: path).map(Array.init) != bytes else { return false }
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw PublishError(path: directory, message: "cannot create the directory: \(error.localizedDescription)")
        }
        try replaceAtomically(path: path, with: bytes)
        return true
    }

    /// Renames `source` to `target` (one atomic step on one file system).
    static func rename(_ source: String, to target: String) throws(PublishError) {
        guard Foundation.rename(source, target) == 0 else {
            throw PublishError(path: target, message: "cannot move into place: \(String(cString: strerror(errno)))")
        }
    }

    /// Flushes the directory at `path`, so that the names renamed into it last.
    static func syncDirectory(_ path: String) throws(PublishError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { throw PublishError(path: path, message: "cannot open directory: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw PublishError(path: path, message: "cannot flush directory: \(String(cString: strerror(errno)))") }
    }
}
