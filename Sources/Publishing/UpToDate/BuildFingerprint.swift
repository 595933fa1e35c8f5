import Crypto
import Foundation
import PipelineLanguage
import SystemSupport

/// What a build's output depends on, condensed, so that a cron run whose sources and published
/// site are as the last build left them can finish at once (see ``SiteBuilder``).
///
/// Two parts, compared separately:
/// - ``sources``: the binary that builds (its path, size, modification time and inode: a new
///   build of BundlePress is another file), the config's text and folder and the command line's
///   overrides (snapshot time, previous site, output), and every file the inputs read, by
///   *content* (``FileDigest/contentDigest(of:)``, SHA-256 by pieces on every core; an export folder by
///   every file under it): a file rewritten with the same size and time still counts as changed.
/// - ``site``: the published site as the last build left it: the manifest's and the state's
///   bytes, and each bundle file the manifest names by size, modification and change time and
///   inode (the build rewrites none of them when nothing changed, and a file edited, replaced or
///   deleted since shows).
///
/// What depends on the clock (deleting old files as `retention:` allows) is not skipped by an
/// up-to-date build; the header files and the explorer page are put back if missing.
struct BuildFingerprint: Codable, Equatable, Sendable {
    /// Changes when what goes into a fingerprint changes, so older records never match.
    static let format = "bundlepress-build-fingerprint-2"

    var sources: String
    var site: String

    /// The sources part for `config` publishing to `outputDirectory`; nil when an input cannot be
    /// read (the build then says why).
    static func sources(of config: PipelineConfig, outputDirectory: String) -> String? {
        var hash = SHA256()
        hash.update(line: format)
        hash.update(line: "binary " + (Bundle.main.executablePath.map { "\($0) \(FileStamp(path: $0)?.description ?? "missing")" } ?? "unknown"))
        hash.update(line: "config \(config.file) in \(config.baseDirectory), \(config.source.utf8.count) bytes")
        hash.update(line: config.source)
        hash.update(line: "snapshot \(config.snapshotTime?.rfc3339 ?? "from the inputs")")
        hash.update(line: "previous \(config.previous.map { "\($0)" } ?? "none")")
        hash.update(line: "output \(outputDirectory)")
        // An export folder comes with its data files, which the folder's walk covers already.
        var hashed: Set<String> = []
        for file in config.inputFiles().flatMap(filesUnder) where hashed.insert(file).inserted {
            guard let digest = FileDigest.contentDigest(of: file) else { return nil }
            hash.update(line: "input \(file) \(digest)")
        }
        return hash.finalize().hex
    }

    /// The site part: the manifest and state bytes and the stamps of the files the manifest names.
    static func site(outputDirectory: String) -> String {
        var hash = SHA256()
        let manifestPath = Manifest.path(inSite: outputDirectory)
        let manifest = FileManager.default.contents(atPath: manifestPath)
        for path in [manifestPath, (outputDirectory as NSString).appendingPathComponent(SiteHistory.fileName)] {
            hash.update(line: "\(path) \(FileManager.default.contents(atPath: path).map { SHA256.hash(data: $0).hex } ?? "missing")")
        }
        let decoded = manifest.flatMap { try? Manifest.decode($0) }
        let snapshots = (decoded?.snapshotNames ?? []).sorted().map { "bundles/\($0)" }
        for path in (decoded?.bundles ?? []).flatMap({ [$0.url, $0.gzipURL] }) + snapshots {
            let file = (outputDirectory as NSString).appendingPathComponent(path)
            hash.update(line: "\(path) \(FileStamp(path: file)?.description ?? "missing")")
        }
        return hash.finalize().hex
    }

    /// `path` itself, or every regular file under it (sorted) for a folder.
    private static func filesUnder(_ path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
        let found = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
        return found.map { (path as NSString).appendingPathComponent($0) }
            .filter { FileStamp(path: $0)?.isRegularFile ?? false }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}

extension SHA256 {
    /// Feeds `text` and a newline: a fingerprint is a list of such lines.
    fileprivate mutating func update(line text: String) {
        update(data: Data((text + "\n").utf8))
    }
}
