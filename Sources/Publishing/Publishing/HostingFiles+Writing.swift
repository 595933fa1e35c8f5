import Foundation
import Hosting

extension HostingFiles {
    /// Writes every file whose bytes differ from what `outputDirectory` holds, each one whole or
    /// not at all (written and flushed beside its place, then renamed over it), and returns the
    /// paths written. Files already up to date keep their modification time.
    @discardableResult
    public func write(into outputDirectory: String) throws(PublishError) -> [String] {
        var written: [String] = []
        for file in files {
            let target = (outputDirectory as NSString).appendingPathComponent(file.path)
            let directory = (target as NSString).deletingLastPathComponent
            guard FileManager.default.contents(atPath: target).map(Array.init) != file.bytes else { continue }
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw PublishError(path: directory, message: "cannot create the directory: \(error.localizedDescription)")
            }
            try DurableFiles.replaceAtomically(path: target, with: file.bytes)
            written.append(file.path)
        }
        return written
    }
}
