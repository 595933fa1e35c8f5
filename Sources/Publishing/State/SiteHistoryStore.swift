import SystemSupport
import Foundation

/// Keeps `<output>/.bundlepress-state.json` in step with the published manifest.
///
/// A build stages the new state beside it (`.bundlepress-state.next.json`, flushed) before it
/// renames the new manifest into place, and renames the staged state over the old one right
/// after. A build killed before the manifest's rename leaves the old manifest and the old state
/// (the staged one names a manifest that was never published, so the next build discards it);
/// one killed between the two renames leaves a staged state that names the published manifest,
/// which the next build takes. Only a holder of the output's ``BuildLock`` reads or writes it.
struct SiteHistoryStore {
    let outputDirectory: String

    var path: String { (outputDirectory as NSString).appendingPathComponent(SiteHistory.fileName) }
    var stagedPath: String { (outputDirectory as NSString).appendingPathComponent(".bundlepress-state.next.json") }

    /// The state of the site whose manifest has SHA-256 `manifestSHA256`, or nil with the reason
    /// when there is none that belongs to it. With `repair`, a staged state that belongs to it
    /// is moved into place and one that does not is removed (a dry run passes false).
    func load(manifestSHA256: String?, repair: Bool) -> (history: SiteHistory?, problem: String?) {
        if let staged = FileManager.default.contents(atPath: stagedPath) {
            if let history = try? SiteHistory.decode(Array(staged), file: stagedPath), history.manifestSHA256 == manifestSHA256 {
                if repair { _ = Foundation.rename(stagedPath, path) }
                return (history, nil)
            }
            if repair { unlink(stagedPath) }
        }
        guard let bytes = FileManager.default.contents(atPath: path) else {
            return (nil, manifestSHA256 == nil ? nil : "\(path) is missing")
        }
        let history: SiteHistory
        do throws(SiteHistoryError) {
            history = try SiteHistory.decode(Array(bytes), file: path)
        } catch {
            return (nil, "\(error)")
        }
        guard history.manifestSHA256 == manifestSHA256 else {
            return (nil, "\(path) was written with another manifest than the published one")
        }
        return (history, nil)
    }

    /// Writes and flushes `bytes` (a ``SiteHistory`` encoded) as the staged state.
    func stage(_ bytes: [UInt8]) throws(PublishError) {
        try DurableFiles.write(path: stagedPath, chunks: [bytes])
    }

    /// Moves the staged state into place, once its manifest is.
    func commit() throws(PublishError) {
        try DurableFiles.rename(stagedPath, to: path)
        try DurableFiles.syncDirectory(outputDirectory)
    }
}
