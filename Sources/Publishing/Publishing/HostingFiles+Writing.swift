import Foundation
import Hosting

extension HostingFiles {
    /// Writes every file whose bytes differ from what `outputDirectory` holds, each one whole or
    /// not at all (written and flushed beside its place, then renamed over it), and returns the
    /// paths written. A shared file (`_headers`) keeps the site's lines: only BundlePress's
    /// ``MarkedBlock`` in it is replaced, or appended. Files already up to date keep their
    /// modification time.
    @discardableResult
    public func write(into outputDirectory: String) throws(PublishError) -> [String] {
        var written: [String] = []
        for file in files {
            let target = (outputDirectory as NSString).appendingPathComponent(file.path)
            let bytes = file.isShared ? try Self.placingBlock(file.bytes, in: FileManager.default.contents(atPath: target).map(Array.init), path: target) : file.bytes
            if try DurableFiles.replaceIfChanged(path: target, with: bytes) { written.append(file.path) }
        }
        return written
    }

    /// The file at `path` (`existing`; nil when there is none) with BundlePress's block holding `block`.
    private static func placingBlock(_ block: [UInt8], in existing: [UInt8]?, path: String) throws(PublishError) -> [UInt8] {
        do throws(MarkedBlock.Unterminated) {
            return Array(try MarkedBlock.placing(String(decoding: block, as: UTF8.self), in: existing.map { String(decoding: $0, as: UTF8.self) }).utf8)
        } catch {
            throw PublishError(unterminated: error, path: path)
        }
    }
}

extension PublishError {
    /// The file at `path`, whose BundlePress block has no end marker.
    init(unterminated: MarkedBlock.Unterminated, path: String) {
        self.init(
            path: path,
            message: "line \(unterminated.line) opens BundlePress's block (\(MarkedBlock.startLine)) but no line \(MarkedBlock.endLine) closes it; "
                + "add that line where the block ends, or delete the block, and build again")
    }
}
