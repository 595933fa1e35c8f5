import SystemSupport
import Crypto
import Foundation
import PipelineLanguage

/// Applies a ``RetentionPolicy`` to `<output>/bundles/` once a manifest is published (or plans
/// it, for a dry run): updates the ``RetentionLedger`` and deletes the content-hashed files it
/// lets go. Only files BundlePress wrote (``OwnedFiles``) named `<id>.<16 hex digits>.bundle` or
/// `.bundle.gz`, and snapshots named `snapshots/<stem>.<16 hex digits>.json`, are ever deleted,
/// and never one the current manifest references.
struct RetentionSweep {
    let outputDirectory: String
    let policy: RetentionPolicy

    /// What the sweep kept and deleted (or would, in a dry run).
    struct Result {
        /// Unreferenced files kept for clients of older manifests.
        var retained: [String]
        var deleted: [String]
        var warnings: [String]
    }

    var bundlesDirectory: String { SitePublisher(outputDirectory: outputDirectory).bundlesDirectory }

    /// Sweeps after `manifest`, which references `referenced`, became current, with `ledger` as
    /// the output holds it (or, in a dry run, would); `planned` are files a dry run would have
    /// added. Failures only warn: the site is already published, and what is not deleted now is
    /// deleted by a later build.
    func run(manifest: Data, referenced: Set<String>, ledger: RetentionLedger, planned: [String], dryRun: Bool, now: Date) -> Result {
        var warnings: [String] = []
        let snapshots = (bundlesDirectory as NSString).appendingPathComponent(BuiltSnapshot.folder)
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: bundlesDirectory)) ?? [])
            + ((try? FileManager.default.contentsOfDirectory(atPath: snapshots)) ?? []).map { "\(BuiltSnapshot.folder)/\($0)" }
        let owned = ledger.ownedFiles(outputDirectory: outputDirectory)
        let present = Set(entries.filter { owned.owns("bundles/\($0)") } + planned).filter(Self.isContentHashed)
        var next = ledger.advanced(manifestSHA256: SHA256.hash(data: manifest).hex, referenced: referenced, present: present, now: now)

        var deleted: [String] = []
        for name in next.expired(under: policy, now: now) {
            if !dryRun {
                let path = (bundlesDirectory as NSString).appendingPathComponent(name)
                guard unlink(path) == 0 || errno == ENOENT else {
                    warnings.append("\(path): cannot delete an expired old bundle: \(String(cString: strerror(errno))); a later build retries")
                    continue
                }
            }
            next.retired[name] = nil
            deleted.append(name)
        }
        next.owned = owned.existing(in: outputDirectory).paths.sorted()
        if !dryRun, next != ledger {
            do throws(PublishError) {
                try DurableFiles.replaceAtomically(path: RetentionLedger.path(in: outputDirectory), with: next.encoded())
            } catch {
                warnings.append("cannot record retention state: \(error); old files may be kept longer than the policy says")
            }
        }
        return Result(retained: next.retired.keys.sorted(), deleted: deleted, warnings: warnings)
    }

    /// `<id>.<16 lowercase hex digits>.bundle`, or the same with `.gz`, or a snapshot:
    /// `snapshots/<stem>.<16 lowercase hex digits>.json`.
    static func isContentHashed(_ name: String) -> Bool {
        let stem: Substring
        let snapshotFolder = "\(BuiltSnapshot.folder)/"
        if name.hasPrefix(snapshotFolder) {
            guard name.hasSuffix(".json"), !name.dropFirst(snapshotFolder.count).contains("/") else { return false }
            stem = name.dropLast(".json".count)
        } else if name.hasSuffix(".bundle") {
            stem = name.dropLast(".bundle".count)
        } else if name.hasSuffix(".bundle.gz") {
            stem = name.dropLast(".bundle.gz".count)
        } else {
            return false
        }
        guard let dot = stem.lastIndex(of: "."), dot > stem.startIndex else { return false }
        let hash = stem[stem.index(after: dot)...]
        return hash.utf8.count == 16 && hash.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
