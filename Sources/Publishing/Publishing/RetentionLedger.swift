import Foundation
import PipelineLanguage

/// What retention remembers between builds, in `<output>/.bundlepress-retention.json`: how many
/// manifests have been published, and for each content-hashed file the current manifest does
/// not reference, the last manifest that did and when it stopped.
///
/// It also lists the files under the output that BundlePress wrote (``OwnedFiles``): retention
/// deletes only those, and a build replaces only those.
///
/// It changes only when the manifest changes or files come or go, so a build that changes
/// nothing writes nothing. Losing it is safe: files it does not know are counted as retired now,
/// and the files it owns are inferred again (``OwnedFiles/inferred(outputDirectory:)``).
struct RetentionLedger: Codable, Equatable {
    static let fileName = ".bundlepress-retention.json"

    /// A content-hashed file the current manifest does not reference.
    struct Retired: Codable, Equatable {
        /// The last manifest generation that referenced the file; for a file found unreferenced
        /// without a record (after a crash, or with a lost ledger), the one before the current.
        var lastGeneration: Int
        /// When the file was found unreferenced (UTC, RFC 3339).
        var since: String

        enum CodingKeys: String, CodingKey {
            case since
            case lastGeneration = "last_generation"
        }
    }

    var schemaVersion = 1
    /// The number of the current manifest: each published manifest that differs from the one
    /// before counts one.
    var generation = 0
    /// The SHA-256 of the current manifest, to notice when a new one is published.
    var manifestSHA256: String?
    /// Retired files by name.
    var retired: [String: Retired] = [:]
    /// The files BundlePress wrote, by path relative to the output, sorted; nil in a ledger of a
    /// BundlePress that kept no such list.
    var owned: [String]?

    enum CodingKeys: String, CodingKey {
        case generation, retired
        case owned = "owned_files"
        case schemaVersion = "schema_version"
        case manifestSHA256 = "manifest_sha256"
    }

    /// The ledger once the manifest with SHA-256 `manifestSHA256`, which references
    /// `referenced`, is current and `present` are the content-hashed files in `bundles/`.
    /// Referenced files are never retired.
    func advanced(manifestSHA256 sha256: String, referenced: Set<String>, present: Set<String>, now: Date) -> RetentionLedger {
        var next = self
        if sha256 != manifestSHA256 {
            next.generation += 1
            next.manifestSHA256 = sha256
        }
        next.retired = retired.filter { present.contains($0.key) && !referenced.contains($0.key) }
        let since = ISO8601DateFormatter().string(from: now)
        for name in present.subtracting(referenced) where next.retired[name] == nil {
            next.retired[name] = Retired(lastGeneration: next.generation - 1, since: since)
        }
        return next
    }

    /// The retired files `policy` lets go at `now`, by name: left out of more than
    /// `policy.builds` manifests and retired for at least `policy.minAge`.
    func expired(under policy: RetentionPolicy, now: Date) -> [String] {
        let formatter = ISO8601DateFormatter()
        return retired.filter { _, file in
            guard generation - file.lastGeneration > policy.builds, let since = formatter.date(from: file.since) else { return false }
            return now.timeIntervalSince(since) >= Double(policy.minAge)
        }.keys.sorted()
    }

    /// The ledger at `path`: empty when there is none, and empty with the reason when it cannot
    /// be read (retention then starts afresh, keeping every unreferenced file the full time).
    static func load(path: String) -> (ledger: RetentionLedger, problem: String?) {
        guard let data = FileManager.default.contents(atPath: path) else { return (RetentionLedger(), nil) }
        do {
            return (try JSONDecoder().decode(RetentionLedger.self, from: data), nil)
        } catch {
            return (RetentionLedger(), "\(path) is not readable (\(error)); retention starts afresh and keeps every old file for the full retention time")
        }
    }

    /// The files BundlePress owns in `outputDirectory`: the list kept, or inferred when none is.
    func ownedFiles(outputDirectory: String) -> OwnedFiles {
        owned.map { OwnedFiles(paths: Set($0)) } ?? OwnedFiles.inferred(outputDirectory: outputDirectory)
    }

    /// Claims `targets` (``OwnedFiles/claiming(_:in:)``) and, when that changes the list, flushes
    /// the ledger to `outputDirectory` before the caller writes any of them; returns the files
    /// owned then.
    mutating func claim(_ targets: [OwnedFiles.Target], outputDirectory: String) throws(PublishError) -> OwnedFiles {
        let owned = ownedFiles(outputDirectory: outputDirectory)
        let claimed = try owned.claiming(targets, in: outputDirectory)
        if self.owned == nil || claimed != owned {
            self.owned = claimed.paths.sorted()
            try DurableFiles.replaceAtomically(path: Self.path(in: outputDirectory), with: encoded())
        }
        return claimed
    }

    /// Where the ledger of the site in `outputDirectory` is kept.
    static func path(in outputDirectory: String) -> String {
        (outputDirectory as NSString).appendingPathComponent(fileName)
    }

    /// Pretty, key-sorted JSON with a final newline.
    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Integers and strings only: encoding cannot fail.
        return ((try? encoder.encode(self)).map(Array.init) ?? []) + [UInt8(ascii: "\n")]
    }
}
