import SystemSupport
import Foundation

/// The browser side of a site: the explorer page (`index.html` and the ES modules it imports)
/// and `bundlepress.js` for apps. Their sources live in the repository's `site/`; the
/// EmbedSiteAssets build plugin compiles them into this target, so a build into any output
/// directory can give it these files, whichever directory the binary runs from.
public enum SiteAssets {
    /// One file of the site's browser side.
    public struct File: Sendable, Equatable {
        /// The file name, directly in the output directory (`index.html`, `bundlepress.js`, …).
        public var name: String
        /// The UTF-8 text of the file.
        public var contents: String
    }

    /// Every file, sorted by name.
    public static var files: [File] { embedded }

    /// The files the output directory lacks.
    static func missing(in outputDirectory: String) -> [File] {
        files.filter { file in
            var info = stat()
            return lstat((outputDirectory as NSString).appendingPathComponent(file.name), &info) != 0
        }
    }

    /// Writes every file the output directory lacks; files already there (including ones the
    /// site owner changed) are left as they are. Each file appears whole or not at all.
    /// - Returns: the names of the files written.
    @discardableResult
    public static func installMissing(in outputDirectory: String) throws(PublishError) -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw PublishError(path: outputDirectory, message: "cannot create the output directory: \(error.localizedDescription)")
        }
        let missing = missing(in: outputDirectory)
        for file in missing {
            try DurableFiles.replaceAtomically(path: (outputDirectory as NSString).appendingPathComponent(file.name), with: Array(file.contents.utf8))
        }
        return missing.map(\.name)
    }
}
