import Foundation
import Gzip

/// A site directory under the system's temporary directory, removed by ``remove()`` (in a `defer`).
struct TestSite: Sendable {
    let path: String

    init(_ label: String = #function) throws {
        let safe = label.filter { $0.isLetter || $0.isNumber }
        path = FileManager.default.temporaryDirectory.appendingPathComponent("EdgeServerTests-\(safe.prefix(40))-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ relative: String) -> String {
        (path as NSString).appendingPathComponent(relative)
    }

    /// Writes `bytes` at `relative`, creating folders.
    func write(_ relative: String, _ bytes: [UInt8]) throws {
        let target = file(relative)
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
    }

    func write(_ relative: String, _ text: String) throws {
        try write(relative, Array(text.utf8))
    }

    /// Writes `relative.gz` holding `bytes` gzip-compressed (and not `relative` itself).
    func writeGzip(_ relative: String, _ bytes: [UInt8]) throws {
        try write(relative + ".gz", try GzipCompressor.compress(bytes))
    }

    /// Writes `relative` and its `.gz` sidecar.
    func writeWithSidecar(_ relative: String, _ bytes: [UInt8]) throws {
        try write(relative, bytes)
        try writeGzip(relative, bytes)
    }

    /// Creates a symbolic link at `relative` pointing to `destination` (absolute or relative).
    func symlink(_ relative: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: file(relative), withDestinationPath: destination)
    }
}

/// Deterministic bytes of a given length that gzip compresses well (like a bundle's JSON).
func sampleBytes(_ count: Int, seed: Int = 0) -> [UInt8] {
    let text = Array("{\"name\":\"projects/demo/databases/(default)/documents/stories/s\(seed)\",\"fields\":{}}\n".utf8)
    return (0..<count).map { text[$0 % text.count] }
}
