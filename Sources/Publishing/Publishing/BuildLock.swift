import SystemSupport
import Foundation

/// Keeps two builds from publishing into the same output at once.
///
/// The lock is an exclusive `flock(2)` on `<output>/.bundlepress.lock`, tried without waiting
/// and held for the whole build. The kernel drops it when the process ends in any way, `kill -9`
/// included, so a dead build never blocks the next one. The file names the holder (pid, host,
/// start time) for the message a second build prints, and is emptied when the build ends; a
/// holder still named when the lock is free is a build that died, which the next build reports
/// taking over.
public enum BuildLock {
    /// The lock file's name in the output directory (a dotfile: servers do not serve it).
    public static let fileName = ".bundlepress.lock"

    /// The build that holds (or held) the lock.
    public struct Holder: Codable, Sendable, Equatable, CustomStringConvertible {
        public var pid: Int32
        public var host: String
        /// When that build started (UTC, RFC 3339).
        public var started: String

        public var description: String { "pid \(pid) on \(host), started \(started)" }

        /// This process, now.
        static var current: Holder {
            var name = [CChar](repeating: 0, count: 256)
            let host = gethostname(&name, name.count - 1) == 0
                ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                : "unknown host"
            return Holder(pid: getpid(), host: host, started: ISO8601DateFormatter().string(from: Date()))
        }
    }

    /// Why the lock could not be taken.
    enum Failure: Error, Sendable {
        /// Another build holds it (`path` is the lock file).
        case held(path: String, holder: Holder?)
        /// The output directory or the lock file cannot be created, opened, locked or written.
        case unusable(PublishError)
    }

    /// Runs `body` holding the lock of `outputDirectory` (created if missing). `body` receives
    /// the holder of a build that died holding it, if any. When the lock cannot be taken (another
    /// build holds it: at once, without waiting) throws what `failure` makes of the reason.
    static func withLock<T, E: Error>(
        outputDirectory: String, failure: (Failure) -> E, _ body: (_ takenOverFrom: Holder?) throws(E) -> T
    ) throws(E) -> T {
        do {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw failure(.unusable(PublishError(path: outputDirectory, message: "cannot create the output directory: \(error.localizedDescription)")))
        }
        let path = (outputDirectory as NSString).appendingPathComponent(fileName)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw failure(.unusable(PublishError(path: path, message: "cannot open the lock file: \(String(cString: strerror(errno)))")))
        }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            if reason == EWOULDBLOCK { throw failure(.held(path: path, holder: holder(in: descriptor))) }
            throw failure(.unusable(PublishError(path: path, message: "cannot lock: \(String(cString: strerror(reason)))")))
        }
        let previous = holder(in: descriptor)
        let record = (try? JSONEncoder().encode(Holder.current)).map(Array.init) ?? []
        guard ftruncate(descriptor, 0) == 0, pwrite(descriptor, record, record.count, 0) == record.count else {
            throw failure(.unusable(PublishError(path: path, message: "cannot write the lock file: \(String(cString: strerror(errno)))")))
        }
        // Emptied before the descriptor closes (defers run last to first), which drops the lock.
        defer { ftruncate(descriptor, 0) }
        return try body(previous)
    }

    /// The holder recorded in the lock file, if it holds one.
    private static func holder(in descriptor: Int32) -> Holder? {
        var bytes = [UInt8](repeating: 0, count: 4_096)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        return try? JSONDecoder().decode(Holder.self, from: Data(bytes[..<count]))
    }
}
