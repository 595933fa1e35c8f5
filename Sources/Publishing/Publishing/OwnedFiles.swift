import Foundation
import SystemSupport

/// The files under the output directory that BundlePress wrote, by path relative to it, kept in
/// the ``RetentionLedger``: a build replaces or deletes only these, so an output folder shared
/// with a site generator keeps the generator's files byte for byte.
///
/// A build claims every file it is about to write before it writes any (``claiming(_:in:)``), and
/// the claim is flushed to disk first: a build killed after a claim leaves files claimed that may
/// not exist, never a file written that is not claimed. Names of BundlePress's own (dot files
/// starting with `.bundlepress`) are its own whatever the list says.
struct OwnedFiles: Equatable {
    /// Paths relative to the output directory, `/`-separated.
    var paths: Set<String>

    /// One file a build is about to write.
    struct Target {
        /// The path relative to the output directory.
        var path: String
        /// The bytes it will hold, when known: a file already holding exactly them is claimed
        /// rather than refused (an earlier build wrote it before ownership was recorded).
        var content: SitePublisher.File.Content?
    }

    /// True for a path whose first component is a BundlePress dot name (`.bundlepress-…`).
    static func isReserved(_ path: String) -> Bool {
        path.hasPrefix(".bundlepress")
    }

    /// True when a build may replace or delete the file at `path`.
    func owns(_ path: String) -> Bool {
        Self.isReserved(path) || paths.contains(path)
    }

    /// The list with `targets` added, once each is checked: a target that exists, is not owned and
    /// does not already hold its bytes is refused, naming the file and what to do.
    func claiming(_ targets: [Target], in outputDirectory: String) throws(PublishError) -> OwnedFiles {
        var next = self
        for target in targets where !owns(target.path) {
            let path = (outputDirectory as NSString).appendingPathComponent(target.path)
            if Self.exists(path), !(target.content.map { SitePublisher.hasContent(path: path, $0) } ?? false) {
                throw PublishError(
                    path: path,
                    message: "BundlePress would write this file, but it did not write the one there and never replaces a file it did not write; "
                        + "move the file away, or publish into another output: folder (docs/deploying.md, \"Beside a site generator\")")
            }
            next.paths.insert(target.path)
        }
        return next
    }

    /// The list as an older BundlePress, which kept none, left it: when the output holds a
    /// published manifest, every file under `bundles/` is BundlePress's (that folder was its own).
    static func inferred(outputDirectory: String) -> OwnedFiles {
        let site = SitePublisher(outputDirectory: outputDirectory)
        guard site.publishedManifest().published != nil else { return OwnedFiles(paths: []) }
        let files = FileManager.default.enumerator(atPath: site.bundlesDirectory)?.compactMap { $0 as? String } ?? []
        return OwnedFiles(paths: Set(files.map { "bundles/\($0)" }.filter { path in
            FileStamp(path: (outputDirectory as NSString).appendingPathComponent(path))?.isRegularFile ?? false
        }))
    }

    /// The list without the files that are gone (deleted by retention, or claimed by a build
    /// killed before it wrote them).
    func existing(in outputDirectory: String) -> OwnedFiles {
        OwnedFiles(paths: paths.filter { Self.exists((outputDirectory as NSString).appendingPathComponent($0)) })
    }

    /// True when something is at `path` (a dangling symbolic link too: it is not followed).
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
